"""The watchers' pages and a game's API bodies answered again without Flask while only the
revision could change them.

A watcher's phone asks for ``/games/<id>`` every few seconds (``static/live.js`` reloads it
when the revision moves), and the game's other documents (its history, its sheet, its scores
as CSV, its results PDF, the API's game and history) are the same for every watcher at one
revision. Each request still pays for Flask's routing, contexts, session and hooks.
:class:`WatchersPages` sits under the proxy and prefix handling (so it sees the request as
the route does) and, once the route has answered a request, answers the same request again
itself, byte for byte, while the game's revision is the one it was answered at: one revision
read, the bytes kept, the ETag and 304, brotli or gzip when the client asks
(:func:`.content_codings.preferred`), each made once per kept answer and only where it saves a
tenth or more (a PDF's pages are compressed already, its fonts are not), each with its own
ETag, a 304 for any of them, and ``Vary: Accept-Encoding`` on every answer kept, its 304s too.
These answers carry no secret, so compressing them is safe over HTTPS (:mod:`.content_codings`).

The route's first answer is sent coded too, in the one coding its client takes (made then,
and kept for the replays). Measured in process through the app's whole WSGI stack, on a game
page of 7.2 KB with the machine busy beside: the route's first answer takes 0.31 to 0.38 ms
plain, 0.10 to 0.15 ms more in gzip, 0.2 to 0.35 ms more in brotli (the API's game, 7.3 KB
of JSON, about nothing more: 0.35 to 0.39 ms in each); the phone then reads 1.9 KB instead
of 7.2 on the weakest link there is, a card room's Wi-Fi. It is paid once a revision a page
and host, a few times a deal, against 5 KB more for a phone on slow Wi-Fi (40 ms at 1
Mbit/s, more where packets are lost and sent again). Most kept answers are asked once (a
phone reading the game it just changed), but the client that asks is the one sent the
smaller body: the work is never for nothing, and never done for a client that takes no
coding. (It was once left to the first replay, when gzip cost a fifth of a read's time; the
watchers after the first, most of a table, are replayed as before.)

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

import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from werkzeug.http import http_date

from ..storage import db, reading
from . import content_codings as codings

if TYPE_CHECKING:
    from _typeshed import OptExcInfo
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

ANSWERS_KEPT = 1024  # answers kept (a path, query and host each): a club's tables, through one or two hosts
BYTES_KEPT = 8 * 1024 * 1024  # their bodies and headers, coded ones included: a club's games are some KB
# each, a results PDF some hundred KB, and a large game's JSON, kept a host each, up to 1 MB; the server
# grows by about this and as much again in freed but held heap (tests/storage/test_large_game.py: 100
# hosts under 30 MB, about 10 MB measured alone, and twice the growth under CI's load at 16 MB)
PHONES_KEPT = 8192  # cookie headers known to be a watcher's of a game's path (one a phone and path)
# The paths whose answers may be replayed: the game page, its history and sheet pages, its scores
# as CSV and its results PDF; the API's game and history. (The exports say when they were made,
# and the house-rule sheet and score pad PDFs the day they were printed: they are the route's.)
REPLAYED = re.compile(r"/games/([A-Za-z0-9_-]{1,64})(?:/history|/sheet|/scores\.csv|/results\.pdf)?"
                      r"|/api/v1/games/([A-Za-z0-9_-]{1,64})(?:/history|/scores\.csv)?")


Where = tuple[str, str, str, str, str, str]  # path, query, scheme, host, script name, Origin


@dataclass(frozen=True)
class Form:
    """One representation of a kept answer: its headers (without ``Date``: each answer's own,
    :func:`_dated`), its body, and its 304's headers."""
    headers: list[tuple[str, str]]
    body: bytes
    not_modified: list[tuple[str, str]]

    size: int = field(init=False)  # its bytes: the body's and its headers' (both sets), counted once

    def __post_init__(self) -> None:
        object.__setattr__(self, "size", len(self.body) + sum(len(k) + len(v) for k, v in
                                                              (*self.headers, *self.not_modified)))


@dataclass(frozen=True)
class Answer:
    """What the route answered at ``revision``, as it answered it (``plain``, with
    ``Vary: Accept-Encoding`` added), and each coding of it made so far (:meth:`coding`): its
    form, or None where the coding saves too little. A coding is made once, the first time a
    client that takes it is answered, the route's first answer included (see the module's
    docstring)."""
    revision: str
    etag: str
    plain: Form
    tags: frozenset[str]  # every representation's ETag, made or not: a client holding any is sent a 304
    made: Mapping[str, Form | None] = field(default_factory=dict)

    @classmethod
    def of(cls, revision: str, etag: str, headers: list[tuple[str, str]], body: bytes) -> Answer:
        # Date is each answer's own; a replay counts against no limit, so tells none (RateLimit fields)
        headers = codings.varied([(k, v) for k, v in headers
                                  if k.lower() not in ("date", "ratelimit", "ratelimit-policy")])
        tags = frozenset((etag, *(codings.tag(etag, coding) for coding in codings.CODINGS)))
        return cls(revision, etag, Form(headers, body, _not_modified(headers)), tags)

    def form(self, coding: str | None) -> Form:
        """The representation sent to a client that takes ``coding``: that coding's where it
        is made and worth it, else the plain one."""
        return self.made.get(coding or "") or self.plain

    def coding(self, coding: str) -> Answer:
        """This answer with ``coding``'s form made (None where it saves too little)."""
        body = codings.coded(self.plain.body, coding, codings.SHARED_LEVELS)
        form = None
        if body is not None:
            headers = codings.coded_headers(self.plain.headers, coding, len(body))
            form = Form(headers, body, _not_modified(headers))
        return replace(self, made={**self.made, coding: form})

    @property
    def size(self) -> int:
        return sum(form.size for form in (self.plain, *self.made.values()) if form is not None)


def _not_modified(headers: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(k, v) for k, v in headers if k.lower() not in ("content-length", "content-type", "content-encoding")]


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
        """The route answers; an answer any watcher with this cookie would get is kept, and
        sent in the coding the client takes (made now, kept with it); its 304 says it varies."""
        held = Held(start_response)
        chunks = self.app(environ, held)
        if held.status is None or held.straight:  # a route that starts as it is read, or writes: as it is
            return held.passing(chunks)
        etag, revision = _shared(game_id, held.headers)
        if revision is None or not held.status.startswith(("200 ", "304 ")):
            return held.passing(chunks)
        if held.status.startswith("304 "):
            held.headers = codings.varied(held.headers)
            return held.passing(chunks)
        answer = Answer.of(revision, etag, held.headers, whole(chunks))
        coding = codings.preferred(str(environ.get("HTTP_ACCEPT_ENCODING", "")))
        if coding is not None:
            answer = answer.coding(coding)
        with self.lock:
            self._keep(where, answer)
            self.phones[(*phone, where)] = None
            self.phones.move_to_end((*phone, where))
            while len(self.phones) > self.phones_kept:
                self.phones.popitem(last=False)
        form = answer.form(coding)  # sent with the route's own headers (its Date, its RateLimit fields)
        headers = codings.varied(held.headers)
        if coding is not None and form is not answer.plain:
            headers = codings.coded_headers(held.headers, coding, len(form.body))
        start_response(held.status, headers)
        return [form.body]

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
        """The kept answer in the coding the client takes (made the first time one does, outside
        the lock, and kept in its place if it is still kept), or its 304 when the client holds
        any of its representations."""
        coding = codings.preferred(str(environ.get("HTTP_ACCEPT_ENCODING", "")))
        if coding is not None and coding not in kept.made:
            kept, before = kept.coding(coding), kept
            with self.lock:
                if self.answers.get(where) is before:
                    self._keep(where, kept)
        form = kept.form(coding)
        # Compared weakly, as werkzeug compares If-None-Match (W/"..." matches too), and * matches any.
        asked = {tag.strip().removeprefix("W/") for tag in str(environ.get("HTTP_IF_NONE_MATCH", "")).split(",")}
        if "*" in asked or not asked.isdisjoint(kept.tags):
            start_response("304 NOT MODIFIED", _dated(form.not_modified))
            return []
        start_response("200 OK", _dated(form.headers))
        return [form.body]


def _shared(game_id: str, headers: list[tuple[str, str]]) -> tuple[str, str | None]:
    """The route's ETag and the revision it names, when its answer is one any watcher would
    get (``Cache-Control: no-cache``, the game's ETag, no cookie set, not coded); else a None revision."""
    named = {name.lower(): value for name, value in headers}
    etag = named.get("etag", "")
    revision = etag.strip('"').rpartition(".")[2]
    if (named.get("cache-control") != "no-cache" or "set-cookie" in named or "content-encoding" in named
            or etag.strip('"') != f"{game_id}.{revision}"):
        return etag, None
    return etag, revision


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


class Held:
    """The ``start_response`` a layer gives the route to hold the route's status and headers
    until the layer starts the answer itself, with headers of its own or with these
    (:meth:`passing`). A route that starts only as its body is read, or that writes, is started as it is."""

    def __init__(self, start_response: StartResponse) -> None:
        self.start_response = start_response
        self.status: str | None = None
        self.headers: list[tuple[str, str]] = []
        self.straight = False  # passing: starts go straight to the client
        self.sent: Callable[[bytes], object] = lambda data: None  # the client's write, once started

    def __call__(self, status: str, headers: list[tuple[str, str]], exc_info: OptExcInfo | None = None,
                 /) -> Callable[[bytes], object]:
        if self.straight:
            return self.start_response(status, headers, exc_info)
        self.status, self.headers = status, headers  # nothing sent yet: an error's headers replace them
        return self.write

    def write(self, data: bytes) -> object:
        """The route's ``write`` (WSGI's old way to send a body): the answer started as held, then written."""
        self.passing([])
        return self.sent(data)

    def passing(self, chunks: Iterable[bytes]) -> Iterable[bytes]:
        """``chunks`` sent with the headers held (changed, perhaps); a later start goes straight on."""
        if not self.straight and self.status is not None:
            self.sent = self.start_response(self.status, self.headers)
        self.straight = True
        return chunks


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
