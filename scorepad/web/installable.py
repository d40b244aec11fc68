"""The app a phone installs and keeps: the web app manifest, the service worker and the
page it shows offline.

The worker (``static/sw.js``) is served from the site root, ``/sw.js``, so its scope is the
whole site. It keeps the app's own files (:func:`shell`) in a cache named after
:func:`version`, a digest of every static file and the offline page: a deploy that changes one changes the
worker's bytes, so browsers install the new worker, whose cache replaces the old one. Pages
are always asked of the server; when it cannot be reached, the worker answers with the
offline page (``/offline``, cached when the worker installs). It never keeps a page, a
response marked ``no-store``, a request other than GET or one to another site.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from flask import Blueprint, current_app, render_template, url_for
from werkzeug.wrappers import Response

bp = Blueprint("installable", __name__)

THEME = "#0d2b5e"  # the header's colour (static/app.css), as base.html's theme-color says
BACKGROUND = "#ffffff"
ICONS = ((192, "icon-192.png"), (512, "icon-512.png"))  # made from favicon.svg
WORKER = "sw.js"
WORKER_KEPT = "scorepad.worker"  # the worker as written, in app.extensions: one for the app's one root


def version(static_folder: str, *extra: bytes) -> str:
    """A digest of every file in ``static_folder`` (names and bytes) and of ``extra`` (the
    offline page as rendered): the worker's cache version."""
    digest = hashlib.sha256(b"".join(extra))
    for path in sorted(Path(static_folder).rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(static_folder).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def shell() -> list[str]:
    """What the worker caches when it installs: the offline page, the manifest and every
    static file but the worker itself (the styles, scripts and icons every page loads)."""
    folder = Path(current_app.static_folder or "static")
    files = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    return [url_for("installable.offline"), url_for("installable.manifest"),
            *(url_for("static", filename=name) for name in files if name != WORKER)]


@bp.get("/sw.js")
def worker() -> Response:
    """The service worker, at the site root; revalidated on every check, so a deploy is found.
    Written once by each process: the root is the setting ``PREFIX`` (no request moves it,
    :mod:`scorepad.links`), and the files it digests change only with a deploy, which starts
    new processes."""
    text = current_app.extensions.get(WORKER_KEPT)
    if text is None:
        text = (Path(current_app.static_folder or "static") / WORKER).read_text()
        shown = render_template("offline.html").encode()
        for name, value in (("__VERSION__", version(current_app.static_folder or "static", shown)),
                            ("__OFFLINE__", url_for("installable.offline")),
                            ("__STATIC__", url_for("static", filename="")), ("__SHELL__", json.dumps(shell()))):
            text = text.replace(name, value)
        current_app.extensions[WORKER_KEPT] = text
    response = current_app.response_class(text, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """The web app manifest: scorepad installs as an app of its own, opening on the home page."""
    body = {"name": "scorepad: Hand and Foot score pad", "short_name": "scorepad", "start_url": url_for("games.home"),
            "scope": url_for("games.home"), "display": "standalone", "theme_color": THEME,
            "background_color": BACKGROUND, "description": "A score pad and rules referee for Hand and Foot.",
            "icons": [{"src": url_for("static", filename=name), "sizes": f"{size}x{size}", "type": "image/png",
                       "purpose": "any"} for size, name in ICONS]}
    response = current_app.response_class(json.dumps(body, separators=(",", ":")),
                                          mimetype="application/manifest+json")
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/offline")
def offline() -> str:
    """What the worker shows for a page when the server cannot be reached."""
    return render_template("offline.html")
