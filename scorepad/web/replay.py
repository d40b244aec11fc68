"""The watchers' pages and a game's API bodies answered again without Flask while only the
revision could change them.

A watcher's phone asks for ``/games/<id>`` every few seconds (``static/live.js`` reloads it
when the revision moves), and the game's other documents (its history, its sheet, its scores
as CSV, its results PDF, the API's game and history) are the same for every watcher at one
revision. Each request still pays for Flask's routing, contexts, session and hooks.
:class:`WatchersPages` sits under the proxy and prefix handling (so it sees the request as
the route does) and, once the route has answered a request, answers the same request again
itself, byte for byte, while the game's revision is the one it was answered at: one revision
read, the bytes kept, the ETag and 304, gzip when the client asks (made once per kept answer,
when it is first replayed to a client that takes gzip, and only where it saves a tenth or
more: a PDF's pages are compressed already, its fonts are not).

It never decides anything the route decides. It replays only an answer the route gave to a
request just like this one: one of :data:`REPLAYED`'s paths, the same query (``?paper=``),
the same scheme and host (a page's view link is built from them), the same ``Origin`` (the
API's CORS headers answer it: :mod:`scorepad.api.cors`), the same cookie and
``Authorization`` headers (the session decides whether the phone may edit; a watcher's cookie
does not change while it only watches), and only an answer the route marked as shared: a 200
with ``Cache-Control: no-cache`` and the game's ETag, ``"<id>.<revision>"`` (the watchers'
answers; an editor's page is ``no-store``, or has no ETag), that set no cookie. A game
deleted or changed since has another revision, or none, and goes to the route again (a
deleted game's 410). What it keeps is bounded (:data:`ANSWERS_KEPT`, :data:`BYTES_KEPT`,
:data:`PHONES_KEPT`) and held in this process only.
"""

from __future__ import annotations

import gzip
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from werkzeug.http import http_date

from ..storage import db, reading

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

ANSWERS_KEPT = 1024  # answers kept (a path, query and host each): a club's tables, through one or two hosts
BYTES_KEPT = 16 * 1024 * 1024  # their bodies, gzipped ones included: a results PDF may be some hundred KB,
# and a large game's JSON, kept a host each, up to 1 MB (tests/storage/test_large_game.py: 100 hosts under 30 MB)
PHONES_KEPT = 8192  # cookie headers known to be a watcher's of a game's path (one a phone and path)
# The paths whose answers may be replayed: the game page, its history and sheet pages, its scores
# as CSV and its results PDF; the API's game and history. (The exports say when they were made,
# and the house-rule sheet and score pad PDFs the day they were printed: they are the route's.)
REPLAYED = re.compile(r"/games/([A-Za-z0-9_-]{1,64})(?:/history|/sheet|/scores\.csv|/results\.pdf)?"
                      r"|/api/v1/games/([A-Za-z0-9_-]{1,64})(?:/history|/scores\.csv)?")
WORTH_PACKING = 0.9  # gzip is sent only when it is at most this share of the body


Where = tuple[str, str, str, str, str, str]  # path, query, scheme, host, script name, Origin


@dataclass(frozen=True)
class Answer:
    """What the route answered at ``revision``: its headers (without ``Date``: each answer's
    own, :func:`_dated`) and body, a 304's headers, and, once :meth:`packed`, the answer
    gzipped (None where gzip saves too little). Gzipped when first replayed to a client that
    takes gzip, not when kept: most answers kept are asked once (a phone reading the game it
    just changed), and gzip cost a fifth of the answer's time."""
    revision: str
    etag: str
    headers: list[tuple[str, str]]
    body: bytes
    not_modified: list[tuple[str, str]]
    gzipped: tuple[list[tuple[str, str]], bytes] | None = None
    is_packed: bool = False

    @classmethod
    def of(cls, revision: str, etag: str, headers: list[tuple[str, str]], body: bytes) -> Answer:
        # Date is each answer's own; a replay counts against no limit, so tells none (RateLimit fields)
        headers = [(k, v) for k, v in headers if k.lower() not in ("date", "ratelimit", "ratelimit-policy")]
        not_modified = [(k, v) for k, v in headers if k.lower() not in ("content-length", "content-type")]
        return cls(revision, etag, headers, body, not_modified)

    def packed(self) -> Answer:
        """This answer with its gzipped form made (None where gzip saves too little)."""
        packed = gzip.compress(self.body, 6, mtime=0)
        gzipped = None
        if len(packed) <= WORTH_PACKING * len(self.body):
            headers = self.headers
            vary = ", ".join([v for k, v in headers if k.lower() == "vary"] + ["Accept-Encoding"])
            zipped = [(k, _gzip_tag(v) if k.lower() == "etag" else v) for k, v in headers
                      if k.lower() not in ("content-length", "vary")]
            gzipped = [*zipped, ("Content-Encoding", "gzip"), ("Content-Length", str(len(packed))),
                       ("Vary", vary)], packed
        return replace(self, gzipped=gzipped, is_packed=True)

    @property
    def size(self) -> int:
        return len(self.body) + (len(self.gzipped[1]) if self.gzipped is not None else 0)


class WatchersPages:
    """WSGI middleware: the route's shared answers of a game, replayed while the revision holds."""

    def __init__(self, app: WSGIApplication, database: db.Database, answers_kept: int = ANSWERS_KEPT,
                 bytes_kept: int = BYTES_KEPT, phones_kept: int = PHONES_KEPT) -> None:
        self.app, self.database = app, database
        self.answers_kept, self.bytes_kept, self.phones_kept = answers_kept, bytes_kept, phones_kept
        self.lock = threading.Lock()
        self.answers: OrderedDict[Where, Answer] = OrderedDict()
        self.bytes = 0  # the answers' sizes, added up
        self.phones: OrderedDict[tuple[str, str, Where], None] = OrderedDict()

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        path: str = environ.get("PATH_INFO", "")
        matched = REPLAYED.fullmatch(path)
        if matched is None or environ.get("REQUEST_METHOD") != "GET":
            return self.app(environ, start_response)
        game_id = matched.group(1) or matched.group(2)
        phone = (str(environ.get("HTTP_COOKIE", "")), str(environ.get("HTTP_AUTHORIZATION", "")))
        where = (path, str(environ.get("QUERY_STRING", "")), str(environ.get("wsgi.url_scheme", "")),
                 str(environ.get("HTTP_HOST", "")), str(environ.get("SCRIPT_NAME", "")),
                 str(environ.get("HTTP_ORIGIN", "")))  # the API's CORS headers depend on it (CORS_ORIGINS)
        with self.lock:
            kept = self.answers.get(where)
            known = (*phone, where) in self.phones
            if kept is not None:
                self.answers.move_to_end(where)  # used: the last to go
        if kept is not None and known:
            with db.using(self.database):
                found = None if _moved_on(game_id, kept) else reading.revision(game_id)
            if found is not None and str(found[0]) == kept.revision:
                return self._replay(where, kept, environ, start_response)
        return self._record(where, phone, game_id, environ, start_response)

    def _record(self, where: Where, phone: tuple[str, str], game_id: str,
                environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        """The route answers; an answer any watcher with this cookie would get is kept."""
        headers, chunks = answered(self.app, environ, start_response)
        if headers is None:
            return chunks
        named = {name.lower(): value for name, value in headers}
        etag = named.get("etag", "")
        revision = etag.strip('"').rpartition(".")[2]
        if (named.get("cache-control") != "no-cache" or "set-cookie" in named or "content-encoding" in named
                or etag.strip('"') != f"{game_id}.{revision}"):
            return chunks
        body = whole(chunks)
        answer = Answer.of(revision, etag, headers, body)
        with self.lock:
            self._keep(where, answer)
            self.phones[(*phone, where)] = None
            self.phones.move_to_end((*phone, where))
            while len(self.phones) > self.phones_kept:
                self.phones.popitem(last=False)
        return [body]

    def _keep(self, where: Where, answer: Answer) -> None:
        """Keep ``answer`` (under the lock), the ones used least recently going past the bounds."""
        old = self.answers.pop(where, None)
        self.bytes -= old.size if old is not None else 0
        self.answers[where] = answer
        self.bytes += answer.size
        while self.answers and (len(self.answers) > self.answers_kept or self.bytes > self.bytes_kept):
            _, gone = self.answers.popitem(last=False)
            self.bytes -= gone.size

    def _replay(self, where: Where, kept: Answer, environ: WSGIEnvironment,
                start_response: StartResponse) -> Iterable[bytes]:
        """The kept answer, a 304 when the client holds it, gzipped when the client asks (made
        the first time one does, outside the lock, and kept in its place if it is still kept)."""
        # Compared weakly, as werkzeug compares If-None-Match (W/"..." matches too), and * matches any.
        asked = {tag.strip().removeprefix("W/") for tag in str(environ.get("HTTP_IF_NONE_MATCH", "")).split(",")}
        if kept.etag in asked or _gzip_tag(kept.etag) in asked or "*" in asked:
            start_response("304 NOT MODIFIED", _dated(kept.not_modified))
            return []
        if "gzip" in str(environ.get("HTTP_ACCEPT_ENCODING", "")) and not kept.is_packed:
            kept, unpacked = kept.packed(), kept
            with self.lock:
                if self.answers.get(where) is unpacked:
                    self._keep(where, kept)
        if kept.gzipped is not None and "gzip" in str(environ.get("HTTP_ACCEPT_ENCODING", "")):
            headers, body = kept.gzipped
            start_response("200 OK", _dated(headers))
            return [body]
        start_response("200 OK", _dated(kept.headers))
        return [kept.body]


def _moved_on(game_id: str, kept: Answer) -> bool:
    """Whether this process has seen the game move past the revision ``kept`` was answered at
    (its cache holds the game at a later one: written or read here since): the answer is
    stale without asking the database, and the route, which reads the revision itself, answers.
    A phone reading the game it just changed asks this every time."""
    held = reading.cached_game(game_id)
    return held is not None and str(held.revision) != kept.revision and held.revision > int(kept.revision)


def answered(app: WSGIApplication, environ: WSGIEnvironment,
             start_response: StartResponse) -> tuple[list[tuple[str, str]] | None, Iterable[bytes]]:
    """The route's answer, started for the client as the route starts it: its headers if it
    is a 200 (else None) and its body's chunks (read them with :func:`whole`, or pass them on)."""
    seen: list[tuple[str, list[tuple[str, str]]]] = []

    def started(status: str, headers: list[tuple[str, str]], exc_info: object = None) -> object:
        seen.append((status, headers))
        return start_response(status, headers, exc_info)  # type: ignore[arg-type]

    chunks = app(environ, started)  # type: ignore[arg-type]
    return (seen[0][1] if seen and seen[0][0].startswith("200 ") else None), chunks


def whole(chunks: Iterable[bytes]) -> bytes:
    """A WSGI body read whole, and closed as WSGI asks."""
    try:
        return b"".join(chunks)
    finally:
        close = getattr(chunks, "close", None)
        if close is not None:
            close()


def _gzip_tag(etag: str) -> str:
    """The gzipped answer's ETag: another one than the plain one's, as another representation."""
    return etag[:-1] + '-gzip"' if etag.endswith('"') else etag + "-gzip"


class Clock:
    """This second's HTTP date, written once a second: formatting it cost a seventh of a
    replayed answer's time."""

    def __init__(self) -> None:
        self.now = (-1, "")  # (second, its date): one tuple, so a thread never reads half of it

    def date(self) -> str:
        second = int(time.time())
        if self.now[0] != second:
            self.now = second, http_date(second)  # two threads may both write it: the same words
        return self.now[1]


CLOCK = Clock()


def _dated(headers: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """``headers`` with this moment's ``Date``, as the route's answer has (werkzeug's conditional
    answer dates itself): a kept answer's own Date would be the moment it was first sent."""
    return [*headers, ("Date", CLOCK.date())]
