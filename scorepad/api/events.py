"""``GET /api/v1/games/<id>/events``: a game followed without polling, as Server-Sent Events.

Each event is the game's revision (``id: 5``) and how far it has moved (``data:
{"revision": 5, "open": 2, "updated_at": "..."}``, the body of ``GET /revision`` but its
id), sent when the revision or the open deal's counter moves; a deleted game sends
``{"revision": 5, "deleted": true}`` and ends the stream (connecting again is a 410). A
client that gives the revision it saw last (``Last-Event-ID``, as EventSource sends it on
reconnecting, or ``?last_event_id=``) gets the current one at once only if the game has
moved past it; without one, at once. A comment every :attr:`Watcher.heartbeat` seconds
keeps proxies from closing a quiet stream and finds clients gone; each stream ends after
:attr:`Watcher.lifetime` seconds (``retry:`` says how soon to come back), so none holds a
thread for ever.

How far the games have moved is read by one thread per process (:mod:`.watcher`); past
:data:`~scorepad.rules.limits.MAX_EVENT_LISTENERS` open streams a new one is a 503 telling
the client to poll ``GET /revision``. Reads are not rate-limited; neither is this route.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator

from flask import Response, current_app, request
from flask.typing import ResponseReturnValue

from ..rules.limits import MAX_EVENT_LISTENERS, MAX_EVENT_STREAM_SECONDS
from ..storage import db, reading
from ..storage.reading import Moved
from . import http
from .blueprint import bp
from .http import ApiError
from .watcher import HEARTBEAT_SECONDS, RETRY_MS, Full, Stream, Watcher

WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})

_making = threading.Lock()


def watcher() -> Watcher:
    """The app's watcher (``app.extensions["scorepad.events"]``), made with its first stream."""
    with _making:
        found = current_app.extensions.get("scorepad.events")
        if not isinstance(found, Watcher):
            found = current_app.extensions["scorepad.events"] = Watcher(
                current_app.extensions["scorepad.database"], MAX_EVENT_LISTENERS,
                heartbeat=HEARTBEAT_SECONDS, lifetime=MAX_EVENT_STREAM_SECONDS)
        return found


def last_event_id() -> int | None:
    """The revision the client saw last: ``Last-Event-ID``, else ``?last_event_id=``; None without either."""
    for field, text in (("Last-Event-ID", request.headers.get("Last-Event-ID")),
                        ("last_event_id", request.args.get("last_event_id"))):
        if not text:  # absent, or empty (as left out)
            continue
        if not text.isascii() or not text.isdigit() or len(text) > 18:
            raise ApiError(400, field, f"must be a revision this stream sent, a whole number, not {text[:20]!r}")
        return int(text)
    return None


@bp.get("/games/<game_id>/events")
def game_events(game_id: str) -> ResponseReturnValue:
    """The game's revision each time it moves, as Server-Sent Events (:mod:`.events`)."""
    seen = last_event_id()
    with db.snapshot():
        moved = reading.revisions([game_id]).get(game_id)
    if moved is None:
        http.missing(game_id)
    try:
        stream = watcher().follow(game_id, moved)
    except Full:
        raise ApiError(503, None, "this server follows as many games' events as it may just now: poll "
                       f"GET /api/v1/games/{game_id}/revision instead, or connect again later",
                       {"Retry-After": "30"}, problem="busy") from None
    response = Response(events(stream, seen), mimetype="text/event-stream")
    response.call_on_close(stream.close)  # also when the answer is never read (the stream's finally would not run)
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"  # nginx: pass each event on as it comes
    return response


def events(stream: Stream, seen: int | None) -> Iterator[bytes]:
    """The stream's text: ``retry:``, the current revision unless ``seen`` is it, then each move,
    a comment on each quiet :attr:`Watcher.heartbeat`, and the end after :attr:`Watcher.lifetime`."""
    settings = stream.watcher
    deadline = time.monotonic() + settings.lifetime
    try:
        sent = stream.now()
        if sent is None:
            return
        first = event(sent)
        yield f"retry: {RETRY_MS}\n\n".encode() + (first if sent.revision != seen else b"")
        while (left := deadline - time.monotonic()) > 0:
            moved = stream.wait(sent, min(settings.heartbeat, left))
            if moved is None:
                yield event_gone(sent.revision)
                return
            if moved != sent:
                sent = moved
                yield event(moved)
            elif deadline - time.monotonic() > 0:
                yield b": still here\n\n"
    finally:
        stream.close()


def event(moved: Moved) -> bytes:
    data = json.dumps({"revision": moved.revision, "open": moved.open, "updated_at": moved.updated_at},
                      separators=(",", ":"))
    return f"id: {moved.revision}\ndata: {data}\n\n".encode()


def event_gone(revision: int) -> bytes:
    return f"id: {revision}\ndata: {json.dumps({'revision': revision, 'deleted': True}, separators=(',', ':'))}\n\n" \
        .encode()


@bp.after_app_request
def _nudge_after_writes(response: Response) -> Response:
    """After a write through this process, its streams' watcher reads the games at once, not
    within its second: a table's own server tells its listeners in milliseconds."""
    if request.method in WRITES and response.status_code < 400:
        found = current_app.extensions.get("scorepad.events")
        if isinstance(found, Watcher):
            found.nudge()
    return response
