"""Cross-origin requests to the JSON API: the setting ``CORS_ORIGINS`` (``SCOREPAD_CORS_ORIGINS``).

By default none: no answer carries a CORS header, and a browser lets no page of another
site read the API. Set, it names the origins whose pages may (``https://club.example``,
several separated by commas or spaces, or a list in ``config.py``; ``*`` for any), through
Flask-CORS, on ``/api/v1/*`` only (the pages and their forms are the site's own). Never with
``Access-Control-Allow-Credentials``: the API authenticates with the edit key as a bearer
token (:data:`ALLOWED_HEADERS`), never a cookie, so a cross-origin page can do nothing
with a visitor's session. A preflight (``OPTIONS``) from an origin not named gets no CORS
headers, and the browser sends nothing more.

An answer then depends on the request's ``Origin``: :mod:`scorepad.web.replay` and
:mod:`scorepad.web.revision_polls`, which answer again below Flask, key what they keep by it.
"""

from __future__ import annotations

import re

from flask import Flask
from flask_cors import CORS

# What a cross-origin page may send: the edit key, a JSON body, the conditional and
# once-only writes' headers, a part's phone label (deals entered part by part).
ALLOWED_HEADERS = ("Authorization", "Content-Type", "If-Match", "If-None-Match", "Idempotency-Key", "Scorepad-Phone")
# What it may read of an answer besides the CORS-safelisted headers.
EXPOSED_HEADERS = ("ETag", "Location", "Idempotent-Replayed", "RateLimit", "RateLimit-Policy", "Retry-After")
METHODS = ("GET", "POST", "PUT", "DELETE")
PREFLIGHT_SECONDS = 600  # how long a browser may keep a preflight's answer (Access-Control-Max-Age)
_ORIGIN = re.compile(r"https?://[A-Za-z0-9.-]+(?::[0-9]{1,5})?|https?://\[[0-9A-Fa-f:.]+\](?::[0-9]{1,5})?")


def origins(value: object) -> tuple[str, ...]:
    """The origins ``CORS_ORIGINS`` names: none for None or empty; ``*``; else each a scheme
    and host (and port), such as ``https://club.example``. A :class:`ValueError` naming
    the setting for anything else (a path, a trailing ``/``, no scheme).

    >>> origins("https://club.example, http://localhost:8080"), origins(None), origins(["*"])
    (('https://club.example', 'http://localhost:8080'), (), ('*',))
    """
    if value is None or value == "":
        return ()
    named = value.replace(",", " ").split() if isinstance(value, str) else value
    if not isinstance(named, list | tuple) or not all(isinstance(origin, str) for origin in named):
        raise ValueError(f"CORS_ORIGINS (SCOREPAD_CORS_ORIGINS) must be origins such as https://club.example, "
                         f"separated by commas, not {value!r}")
    for origin in named:
        if origin != "*" and not _ORIGIN.fullmatch(origin):
            raise ValueError(f"CORS_ORIGINS (SCOREPAD_CORS_ORIGINS): {origin!r} is not an origin; give a scheme "
                             "and host (and port) with no path, such as https://club.example, or *")
    return tuple(named)


def init_app(app: Flask) -> None:
    """CORS on ``/api/v1/*`` for the origins ``CORS_ORIGINS`` names (:func:`origins`); none without."""
    allowed = origins(app.config.get("CORS_ORIGINS"))
    app.config["CORS_ORIGINS"] = list(allowed)
    if not allowed:
        return
    # Each origin as an exact pattern: Flask-CORS then says Vary: Origin even for one origin
    # (a string alone it takes for an answer the same for every origin, which it is not:
    # another origin's gets no CORS headers, and a cache must not give it to this one).
    named = ["*"] if "*" in allowed else [re.compile(re.escape(origin) + r"\Z", re.IGNORECASE) for origin in allowed]
    CORS(app, resources={r"/api/v1/*": {"origins": named}}, supports_credentials=False,
         allow_headers=list(ALLOWED_HEADERS), expose_headers=list(EXPOSED_HEADERS), methods=list(METHODS),
         max_age=PREFLIGHT_SECONDS, vary_header=True, always_send=False,
         send_wildcard="*" in allowed)  # any origin: "*", the same answer for each
