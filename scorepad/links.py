"""Absolute links, from one base: the view and edit links, the API's ``*_url`` fields, the
QR codes on pages and the links printed in PDFs.

Nothing the app caches holds a link: each response adds its links as it is written, from
:func:`link_base`, which is, in this order:

1. ``PUBLIC_URL`` (``SCOREPAD_PUBLIC_URL``) when set: the address the site is reached at,
   behind a reverse proxy or a name of its own;
2. for a request sent to a loopback host (``127.0.0.1``, ``localhost``, ``::1``), the local
   network address that ``flask serve`` advertises (:func:`advertise`): a game made on
   the machine serving it gives links that the table's phones can open;
3. else the request's own host URL (behind proxies that ``PROXIES`` counts, the scheme and
   host the client used). Any host is accepted: the base only shapes links.
"""

from __future__ import annotations

import ipaddress
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, current_app, has_request_context, request, url_for

ADVERTISED = "scorepad.advertised"  # where ``flask serve`` keeps the address it advertises (app.extensions)


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a Host header: ``127.0.0.1:8000``, ``[::1]:80``, ``localhost``)
    names this machine's loopback interface, which no other phone can reach."""
    name = urlsplit(f"//{host}").hostname or ""
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def usable_base(url: Any) -> bool:
    """Whether ``url`` may be ``PUBLIC_URL``: unset, or an ``http``/``https`` address with a host."""
    if not url:
        return True
    parts = urlsplit(str(url))
    return parts.scheme in ("http", "https") and bool(parts.netloc) and not (parts.query or parts.fragment)


def public_base() -> str | None:
    """``PUBLIC_URL`` ending in ``/``, or None when it is not set (usable without a request)."""
    public = current_app.config.get("PUBLIC_URL")
    return str(public).rstrip("/") + "/" if public else None


def advertise(app: Flask, url: str) -> None:
    """Make ``url`` (``http://192.168.1.20:8000/``) the base of links on pages opened from
    a loopback host of ``app``: what ``flask serve`` found or was given."""
    app.extensions[ADVERTISED] = url.rstrip("/") + "/"


def link_base() -> str:
    """What every absolute link starts with, ending in ``/`` (``http://192.168.1.20:8000/``):
    ``PUBLIC_URL``; else the advertised address for a request to a loopback host; else the
    request's host URL. Outside a request, ``PUBLIC_URL`` or ``/`` (a link from the root)."""
    public = public_base()
    if public is not None:
        return public
    if not has_request_context():
        return "/"
    advertised = current_app.extensions.get(ADVERTISED)
    if advertised and is_loopback(request.host):
        return str(advertised)
    return request.host_url


def absolute(path: str) -> str:
    """``path`` (from the site's root, as :func:`flask.url_for` gives it) as an absolute link."""
    return link_base().rstrip("/") + path


def external_url(endpoint: str, **values: Any) -> str:
    """:func:`flask.url_for` as an absolute link from :func:`link_base`."""
    return absolute(url_for(endpoint, **values))
