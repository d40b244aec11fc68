"""The site's root and its absolute links: the view and edit links, the API's ``*_url``
fields, the QR codes on pages and the links printed in PDFs.

**The root.** The app answers under one path, the setting ``PREFIX``
(``SCOREPAD_PREFIX``, such as ``/scorepad``; else the path of ``PUBLIC_URL``; else none):
:class:`AtRoot` makes it the request's ``SCRIPT_NAME`` whatever the request or the server
says, so every path the app writes (``url_for``: links, scripts, styles, the manifest, the
service worker, the poll address) starts with it. No request header moves it:
``X-Forwarded-Prefix`` is never read (``PROXIES`` trusts the client's address, scheme and
host only), since pages built once per revision are served to every viewer, and one
request's header must not shape what the next viewer gets.

**Absolute links.** Nothing the app caches holds one: each response adds its links as it is
written, from :func:`link_base`, which is, in this order:

1. ``PUBLIC_URL`` (``SCOREPAD_PUBLIC_URL``) when set: the address the site is reached at,
   behind a reverse proxy or a name of its own;
2. for a request sent to a loopback host (``127.0.0.1``, ``localhost``, ``::1``), the local
   network address that ``flask serve`` advertises (:func:`advertise`): a game made on
   the machine serving it gives links that the table's phones can open;
3. else the request's own host URL (behind proxies that ``PROXIES`` counts, the scheme and
   host the client used). Any host is accepted: the base only shapes links.

each followed by the root.
"""

from __future__ import annotations

import functools
import ipaddress
import re
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit
from wsgiref.types import StartResponse, WSGIApplication, WSGIEnvironment

from flask import Flask, current_app, has_request_context, request, url_for
from werkzeug.sansio.utils import get_current_url

# A root: "/" and path segments of letters, digits and a few marks; none of them "." or "..".
_ROOT = re.compile(r"(?:/(?!\.{1,2}(?:/|$))[A-Za-z0-9._~-]+)*")

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


def usable_base(url: object) -> bool:
    """Whether ``url`` may be ``PUBLIC_URL``: unset, or an ``http``/``https`` address with a host."""
    if not url:
        return True
    parts = urlsplit(str(url))
    return parts.scheme in ("http", "https") and bool(parts.netloc) and not (parts.query or parts.fragment)


def site_root(prefix: object, public_url: object) -> str:
    """The root the app answers under, from the settings ``PREFIX`` and ``PUBLIC_URL``
    (already checked by :func:`usable_base`): ``""`` for the server's own root, else a path
    such as ``/scorepad`` (no ``/`` at its end). ``PREFIX`` when set, else ``PUBLIC_URL``'s
    path. A :class:`ValueError` naming the setting when ``PREFIX`` is no such path, or
    when ``PUBLIC_URL`` names another.

    >>> site_root("/scorepad/", None), site_root(None, "https://club.example/cards/"), site_root("", None)
    ('/scorepad', '/cards', '')
    """
    public_path = urlsplit(str(public_url)).path.rstrip("/") if public_url else ""
    if not _ROOT.fullmatch(public_path):
        raise ValueError(f"PUBLIC_URL's path must be one scorepad can be served under, such as /scorepad, "
                         f"not {public_path!r}")
    if prefix is None or prefix == "":
        return public_path
    root = str(prefix).rstrip("/") if isinstance(prefix, str) else None
    if root is None or not _ROOT.fullmatch(root):
        raise ValueError(f"PREFIX (SCOREPAD_PREFIX) must be the path scorepad is served under, such as "
                         f"/scorepad, not {prefix!r}")
    if public_path and public_path != root:
        raise ValueError(f"PREFIX (SCOREPAD_PREFIX) is {root!r} but PUBLIC_URL's path is {public_path!r}: "
                         "give the same path, or set only one of them")
    return root


class AtRoot:
    """WSGI middleware that serves the app under ``root`` (:func:`site_root`) whatever a
    request says: ``SCRIPT_NAME`` is set to it, and a path that still starts with it (a
    proxy that passes the whole path on) has it taken off. A request's headers never
    change it, so nothing built from ``url_for`` varies from one request to the next."""

    def __init__(self, app: WSGIApplication, root: str) -> None:
        self.app, self.root = app, root

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        path: str = environ.get("PATH_INFO", "")  # a str: WSGI types the environ's values Any
        if self.root and (path == self.root or path.startswith(self.root + "/")):
            path = path[len(self.root):]
        environ["PATH_INFO"] = path
        environ["SCRIPT_NAME"] = self.root
        return self.app(environ, start_response)


def root() -> str:
    """The root of the app in use: ``""`` or a path such as ``/scorepad``."""
    return str(current_app.config.get("PREFIX") or "")


def public_base() -> str | None:
    """``PUBLIC_URL`` ending in ``/``, or None when it is not set (usable without a request)."""
    public = current_app.config.get("PUBLIC_URL")
    return str(public).rstrip("/") + "/" if public else None


def advertise(app: Flask, url: str) -> None:
    """Make ``url`` (``http://192.168.1.20:8000/``) the base of links on pages opened from
    a loopback host of ``app``: what ``flask serve`` found or was given."""
    app.extensions[ADVERTISED] = url.rstrip("/") + "/"


def _origin() -> str:
    """The scheme and host of every absolute link (``http://192.168.1.20:8000``), no path:
    ``PUBLIC_URL``'s; else the advertised address for a request to a loopback host; else
    the request's host URL. Outside a request without ``PUBLIC_URL``, ``""``."""
    public = current_app.config.get("PUBLIC_URL")
    if public:
        parts = urlsplit(str(public))
        return f"{parts.scheme}://{parts.netloc}"
    if not has_request_context():
        return ""
    advertised = current_app.extensions.get(ADVERTISED)
    return _request_origin(request.scheme, request.host, str(advertised) if advertised else None)


@functools.lru_cache(maxsize=1024)
def _request_origin(scheme: str, host: str, advertised: str | None) -> str:
    """:func:`_origin` for a request to ``host`` by ``scheme``: worked out once per host, not
    on every link (werkzeug's ``host_url`` and the loopback test cost more than the rest of
    an API answer's links). Bounded: any Host header is accepted, so a stranger's hosts only
    push the oldest out."""
    if advertised and is_loopback(host):
        return advertised.rstrip("/")
    return get_current_url(scheme, host).rstrip("/")


def link_base() -> str:
    """What every absolute link starts with, ending in ``/`` (``http://192.168.1.20:8000/``,
    ``https://club.example/scorepad/``): the scheme and host (``PUBLIC_URL``'s; else the
    advertised address for a request to a loopback host; else the request's host URL),
    then the root. Outside a request without ``PUBLIC_URL``, the root alone (``/``)."""
    return _origin() + root() + "/"


def game_link(game_id: str, *rest: str) -> str:
    """The link to the game's page, or to a page under it (``game_link(id, "edit", key)``, its
    edit link), from :func:`link_base`: absolute with ``PUBLIC_URL`` or in a request, else
    from the root (what the command lines print without ``PUBLIC_URL``)."""
    return link_base() + "/".join(("games", game_id, *rest))


def absolute(path: str) -> str:
    """``path`` (from the server's root, the app's root included, as :func:`flask.url_for`
    gives it) as an absolute link."""
    return _origin() + path


# Any: the route's values go to url_for beside its own keywords (_anchor, _external...), which
# mypy will not let a dict of any narrower type fill.
def external_url(endpoint: str, **values: Any) -> str:
    """:func:`flask.url_for` as an absolute link from :func:`link_base`."""
    return absolute(url_for(endpoint, **values))
