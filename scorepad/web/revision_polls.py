"""A phone's poll of a game's revision answered without Flask once the route has answered that phone.

Every phone at a table that has a game open asks ``GET /api/v1/games/<id>/revision`` every
4 s (``static/live.js``): in a card room, the request the server answers most. The route
reads one row; Flask's routing, contexts, session and hooks cost several times that.
:class:`RevisionPolls` sits beside :class:`.replay.WatchersPages`, under the proxy and prefix
handling, and once the route has answered a phone (the same path, scheme, host, prefix,
``Origin`` and cookie header) answers that phone's next polls itself: the same read, the route's
headers, and a body built as the route builds it (checked when kept: the route's own body,
built again from its values, must come out byte for byte the same, or nothing is kept).

It decides nothing the route decides: only a 200 that set no cookie is kept, and a game with
no revision (deleted, or never made) goes to the route again (404, 410). What it keeps is
bounded (:data:`PHONES_KEPT`) and held in this process only.
"""

from __future__ import annotations

import json
import re
import threading
from collections import OrderedDict
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..storage import db, reading
from .replay import answered, whole

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

Phone = tuple[str, str, str, str, str, str]  # path, cookie, scheme, host, script name, Origin
PHONES_KEPT = 8192  # phones (a cookie header, a game and a host each) whose polls are answered here
REVISION_POLL = re.compile(r"/api/v1/games/([A-Za-z0-9_-]{1,64})/revision")


def body(game_id: str, revision: int, updated_at: str, open_counter: int) -> bytes:
    """The poll's answer as the route's ``jsonify`` writes it outside debug mode (keys sorted, compact)."""
    return (json.dumps({"id": game_id, "open": open_counter, "revision": revision, "updated_at": updated_at},
                       separators=(",", ":"), sort_keys=True) + "\n").encode()


class RevisionPolls:
    """WSGI middleware: a phone's revision polls answered without Flask after the route's first answer."""

    def __init__(self, app: WSGIApplication, database: db.Database) -> None:
        self.app, self.database = app, database
        self.lock = threading.Lock()
        # each phone's kept answer: the route's headers, but its Content-Length
        self.phones: OrderedDict[Phone, tuple[tuple[str, str], ...]] = OrderedDict()

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        path: str = environ.get("PATH_INFO", "")
        matched = REVISION_POLL.fullmatch(path)
        if matched is None or environ.get("REQUEST_METHOD") != "GET" or environ.get("QUERY_STRING"):
            return self.app(environ, start_response)
        game_id = matched.group(1)
        phone = (path, str(environ.get("HTTP_COOKIE", "")), str(environ.get("wsgi.url_scheme", "")),
                 str(environ.get("HTTP_HOST", "")), str(environ.get("SCRIPT_NAME", "")),
                 str(environ.get("HTTP_ORIGIN", "")))  # its CORS headers answer the Origin (CORS_ORIGINS)
        with self.lock:
            kept = self.phones.get(phone)
        if kept is not None:
            with db.using(self.database):
                found = reading.moved(game_id)
            if found is not None:
                answer = body(game_id, found.revision, found.updated_at, found.open)
                start_response("200 OK", [*kept, ("Content-Length", str(len(answer)))])
                return [answer]
        return self._record(phone, game_id, environ, start_response)

    def _record(self, phone: Phone, game_id: str, environ: WSGIEnvironment,
                start_response: StartResponse) -> Iterable[bytes]:
        """The route answers; its answer is kept for the phone if it is one this module would give."""
        headers, chunks = answered(self.app, environ, start_response)
        if headers is None or any(name.lower() in ("set-cookie", "content-encoding") for name, _ in headers):
            return chunks
        answer = whole(chunks)
        if _built_again(answer, game_id):
            with self.lock:
                self.phones[phone] = tuple((k, v) for k, v in headers if k.lower() != "content-length")
                self.phones.move_to_end(phone)
                while len(self.phones) > PHONES_KEPT:
                    self.phones.popitem(last=False)
        return [answer]


def _built_again(answer: bytes, game_id: str) -> bool:
    """Whether :func:`body`, given the route's answer's values, writes the route's answer byte for byte."""
    try:
        said = json.loads(answer)
        return isinstance(said, dict) and said.get("id") == game_id and set(said) == {
            "id", "open", "revision", "updated_at"} and body(game_id, said["revision"], said["updated_at"],
                                                             said["open"]) == answer
    except (ValueError, TypeError):
        return False
