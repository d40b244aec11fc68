"""The watchers' game page answered again without Flask while only the revision could change it.

A watcher's phone asks for ``/games/<id>`` every few seconds (``static/live.js`` reloads it
when the revision moves). The Flask route already keeps that page per revision
(:mod:`.games`), but each request still pays for Flask's routing, contexts, session and
hooks. :class:`WatchersPages` sits under the proxy and prefix handling (so it sees the
request as the route does) and, once the route has answered a request, answers the same
request again itself, byte for byte, while the game's revision is the one it was answered at:
one revision read, the bytes kept, the ETag and 304 (gzip when the client asks).

It never decides anything the route decides. It replays only an answer the route gave to a
request just like this one: the same path, no query, the same scheme and host (the page's view
link is built from them) and the same cookie header (the session decides whether the phone
may edit; a watcher's cookie does not change while it only watches), and only an answer that
could be shared: a 200 with ``Cache-Control: no-cache`` (the watchers' page; an editor's is
``no-store``) that set no cookie. A game deleted or changed since has another revision, or
none, and goes to the route again. What it keeps is bounded (:data:`PAGES_KEPT`,
:data:`PHONES_KEPT`) and held in this process only.
"""

from __future__ import annotations

import gzip
import re
import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from werkzeug.http import http_date

from ..storage import db, reading

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

PAGES_KEPT = 512  # pages kept (a game and a host each): a club's tables, each watched through one or two hosts
PHONES_KEPT = 8192  # cookie headers known to be a watcher's of a game (one a phone and game)
GAME_PAGE = re.compile(r"/games/([A-Za-z0-9_-]{1,64})")


@dataclass
class Answer:
    """What the route answered at ``revision``: its headers and body, a 304's headers, and
    the answer gzipped, made the first time a client asks for it."""
    revision: str
    headers: list[tuple[str, str]]
    body: bytes
    etag: str
    gzipped: tuple[list[tuple[str, str]], bytes] | None = field(default=None)  # its headers and body
    not_modified: list[tuple[str, str]] = field(default_factory=list)  # a 304's headers, made once

    def __post_init__(self) -> None:
        self.headers = [(k, v) for k, v in self.headers if k.lower() != "date"]  # each answer's own: see _dated
        self.not_modified = [(k, v) for k, v in self.headers if k.lower() not in ("content-length", "content-type")]

    def packed(self) -> tuple[list[tuple[str, str]], bytes]:
        """The headers and body gzipped (made the first time a client asks: one thread may make it twice)."""
        if self.gzipped is None:
            body = gzip.compress(self.body, 6, mtime=0)
            vary = ", ".join([v for k, v in self.headers if k.lower() == "vary"] + ["Accept-Encoding"])
            headers = [(k, _gzip_tag(v) if k.lower() == "etag" else v) for k, v in self.headers
                       if k.lower() not in ("content-length", "vary")]
            headers += [("Content-Encoding", "gzip"), ("Content-Length", str(len(body))), ("Vary", vary)]
            self.gzipped = headers, body
        return self.gzipped


class WatchersPages:
    """WSGI middleware: the route's watchers' page, replayed while the revision holds."""

    def __init__(self, app: WSGIApplication, database: db.Database) -> None:
        self.app, self.database = app, database
        self.lock = threading.Lock()
        self.pages: OrderedDict[tuple[str, str, str, str], Answer] = OrderedDict()
        self.phones: OrderedDict[tuple[str, str], None] = OrderedDict()

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        path: str = environ.get("PATH_INFO", "")
        matched = GAME_PAGE.fullmatch(path)
        if matched is None or environ.get("REQUEST_METHOD") != "GET" or environ.get("QUERY_STRING"):
            return self.app(environ, start_response)
        game_id = matched.group(1)
        cookie: str = environ.get("HTTP_COOKIE", "")
        where = (path, str(environ.get("wsgi.url_scheme", "")), str(environ.get("HTTP_HOST", "")),
                 str(environ.get("SCRIPT_NAME", "")))
        with self.lock:
            kept = self.pages.get(where)
            known = (cookie, path) in self.phones
        if kept is not None and known:
            with db.using(self.database):
                found = reading.revision(game_id)
            if found is not None and str(found[0]) == kept.revision:
                return self._replay(kept, environ, start_response)
        return self._record(where, cookie, game_id, environ, start_response)

    def _record(self, where: tuple[str, str, str, str], cookie: str, game_id: str,
                environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        """The route answers; an answer any watcher with this cookie would get is kept."""
        seen: list[tuple[str, list[tuple[str, str]]]] = []

        def started(status: str, headers: list[tuple[str, str]], exc_info: object = None) -> object:
            seen.append((status, headers))
            return start_response(status, headers, exc_info)  # type: ignore[arg-type]

        chunks = self.app(environ, started)  # type: ignore[arg-type]
        if not seen or not seen[0][0].startswith("200 "):
            return chunks
        headers = seen[0][1]
        named = {name.lower(): value for name, value in headers}
        etag = named.get("etag", "")
        revision = etag.strip('"').rpartition(".")[2]
        if (named.get("cache-control") != "no-cache" or "set-cookie" in named or "content-encoding" in named
                or not etag.strip('"').startswith(f"{game_id}.")):
            return chunks
        try:
            body = b"".join(chunks)
        finally:
            close = getattr(chunks, "close", None)
            if close is not None:
                close()
        with self.lock:
            self.pages[where] = Answer(revision, headers, body, etag)
            self.pages.move_to_end(where)
            while len(self.pages) > PAGES_KEPT:
                self.pages.popitem(last=False)
            self.phones[(cookie, where[0])] = None
            self.phones.move_to_end((cookie, where[0]))
            while len(self.phones) > PHONES_KEPT:
                self.phones.popitem(last=False)
        return [body]

    def _replay(self, kept: Answer, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        """The kept answer, a 304 when the client holds it, gzipped when the client asks."""
        asked = {tag.strip() for tag in str(environ.get("HTTP_IF_NONE_MATCH", "")).split(",")}
        if kept.etag in asked or _gzip_tag(kept.etag) in asked:
            start_response("304 NOT MODIFIED", _dated(kept.not_modified))
            return []
        if "gzip" in str(environ.get("HTTP_ACCEPT_ENCODING", "")):
            headers, body = kept.packed()
            start_response("200 OK", _dated(headers))
            return [body]
        start_response("200 OK", _dated(kept.headers))
        return [kept.body]


def _gzip_tag(etag: str) -> str:
    """The gzipped page's ETag: another one than the page's, as another representation."""
    return etag[:-1] + '-gzip"' if etag.endswith('"') else etag + "-gzip"


def _dated(headers: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """``headers`` with this moment's ``Date``, as the route's answer has (werkzeug's conditional
    answer dates itself): a kept answer's own Date would be the moment it was first sent."""
    return [*headers, ("Date", http_date())]
