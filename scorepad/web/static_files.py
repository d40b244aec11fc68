"""The app's own files sent compressed to a client that takes brotli or gzip: the static
folder's text files (styles, scripts, the SVG icon), the service worker and the web app
manifest; each coded once per process, the first time a client takes that coding.

Flask's static route (and :mod:`.installable`'s, for the worker and the manifest) still
answers every request: its ``ETag``, ``Last-Modified``, ``Cache-Control`` and its 304 are
kept. :class:`StaticFiles` sits under the prefix handling and, for an answer of a text type
(:data:`TEXT_TYPES`; a PNG is compressed already) that set no cookie, sends the coded body
instead, with its own ETag (:func:`.content_codings.tag`), ``Content-Encoding`` and
``Content-Length``, and ``Vary: Accept-Encoding`` on every such answer (identity and 304s
too). A client holding a coded ETag is asked of the route with the plain one
(:func:`.content_codings.untagged`), so the route's 304 stands for every representation. A request
for a range goes to the route untouched: a range of the plain file. The files carry no secret
and reflect nothing a request sends, so compressing them leaks nothing (:mod:`.content_codings`).

What is kept is bounded (:data:`FILES_KEPT`, :data:`BYTES_KEPT`; a file over
:data:`LARGEST` is sent as it is): the folder holds some twenty files, under 100 KB.
"""

from __future__ import annotations

import mimetypes
import threading
from collections import OrderedDict
from collections.abc import Iterable
from typing import TYPE_CHECKING

from . import content_codings as codings
from .replay import Held, whole

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

TEXT_TYPES = frozenset(("text/css", "text/javascript", "application/javascript", "application/json",
                        "application/manifest+json", "image/svg+xml", "text/html", "text/plain"))
OWN_PATHS = ("/sw.js", "/manifest.webmanifest")  # served by scorepad/web/installable.py, outside /static
FILES_KEPT = 64
BYTES_KEPT = 4 * 1024 * 1024  # the coded bodies and the plain ones they were made of
LARGEST = 1024 * 1024  # a file larger than this is sent as it is, never kept


class StaticFiles:
    """WSGI middleware: the app's text files compressed when the client asks, coded once each."""

    def __init__(self, app: WSGIApplication, static_path: str) -> None:
        self.app, self.prefix = app, static_path.rstrip("/") + "/"
        self.lock = threading.Lock()
        # (path, the route's ETag, coding): the plain body it was made of, and the coded one (None: not worth it)
        self.kept: OrderedDict[tuple[str, str, str], tuple[bytes, bytes | None]] = OrderedDict()
        self.bytes = 0

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        path: str = environ.get("PATH_INFO", "")
        if not (path.startswith(self.prefix) or path in OWN_PATHS) or environ.get("REQUEST_METHOD") != "GET":
            return self.app(environ, start_response)
        coding = None if "HTTP_RANGE" in environ else codings.preferred(str(environ.get("HTTP_ACCEPT_ENCODING", "")))
        held = str(environ.get("HTTP_IF_NONE_MATCH", ""))  # the ETags the client holds, coded ones too
        if held:
            environ = {**environ, "HTTP_IF_NONE_MATCH": codings.untagged(held)}
        answer = Held(start_response)
        chunks = self.app(environ, answer)
        named = {name.lower(): value for name, value in answer.headers}
        if (answer.status is None or answer.straight or not answer.status.startswith(("200 ", "304 "))
                or "set-cookie" in named or "content-encoding" in named or _kind(path, named) not in TEXT_TYPES):
            return answer.passing(chunks)
        answer.headers = codings.varied(answer.headers)
        etag = named.get("etag", "")
        if answer.status.startswith("304 ") and coding is not None and self._coded_held(path, etag, coding, held):
            answer.headers = [(k, codings.tag(v, coding) if k.lower() == "etag" else v) for k, v in answer.headers]
        if coding is None or answer.status.startswith("304 "):
            return answer.passing(chunks)
        body = whole(chunks)
        packed = self._coded(path, etag, coding, body)
        if packed is None:
            answer.passing([])
            return [body]
        headers = [(k, v) for k, v in answer.headers if k.lower() != "accept-ranges"]
        start_response(answer.status, codings.coded_headers(headers, coding, len(packed)))
        return [packed]

    def _coded_held(self, path: str, etag: str, coding: str, held: str) -> bool:
        """Whether a 304 is for ``coding``'s representation: the one kept is worth sending, or
        (none kept) the client holds its ETag (``held``, its ``If-None-Match``)."""
        with self.lock:
            found = self.kept.get((path, etag, coding))
        if found is not None:
            return found[1] is not None
        return bool(etag) and codings.tag(etag, coding) in held

    def _coded(self, path: str, etag: str, coding: str, body: bytes) -> bytes | None:
        """``body`` in ``coding``, made once for the route's ETag (and made again should the
        route's body differ: the worker and the manifest have no ETag); None where not worth it."""
        key = (path, etag, coding)
        with self.lock:
            found = self.kept.get(key)
            if found is not None:
                self.kept.move_to_end(key)
        if found is not None and found[0] == body:
            return found[1]
        if len(body) > LARGEST:
            return None
        packed = codings.coded(body, coding, codings.STATIC_LEVELS)
        with self.lock:
            old = self.kept.pop(key, None)
            self.bytes -= _size(old)
            self.kept[key] = (body, packed)
            self.bytes += _size((body, packed))
            while self.kept and (len(self.kept) > FILES_KEPT or self.bytes > BYTES_KEPT):
                self.bytes -= _size(self.kept.popitem(last=False)[1])
        return packed


def _kind(path: str, named: dict[str, str]) -> str:
    """The answer's media type: its ``Content-Type``'s, or (a 304 has none) the one Flask's
    static route guesses from the file's name."""
    return named.get("content-type", "").partition(";")[0] or mimetypes.guess_type(path)[0] or ""


def _size(kept: tuple[bytes, bytes | None] | None) -> int:
    return 0 if kept is None else len(kept[0]) + len(kept[1] or b"")
