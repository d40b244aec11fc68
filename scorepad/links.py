"""Absolute links, from one base: the view and edit links, the API's ``*_url`` fields, the
QR codes on pages and the links printed in PDFs.

Nothing the app caches holds a link: each response adds its links as it is written, from
:func:`link_base`. Today the base is the request's own host URL; a setting for a public URL
may take its place here, and nowhere else. Any host is accepted: the base only shapes links.
"""

from __future__ import annotations

from typing import Any

from flask import request, url_for


def link_base() -> str:
    """What every absolute link starts with, ending in ``/``: the request's host URL
    (``http://192.168.1.20:8080/``)."""
    return request.host_url


def absolute(path: str) -> str:
    """``path`` (from the site's root, as :func:`flask.url_for` gives it) as an absolute link."""
    return link_base().rstrip("/") + path


def external_url(endpoint: str, **values: Any) -> str:
    """:func:`flask.url_for` as an absolute link from :func:`link_base`."""
    return absolute(url_for(endpoint, **values))
