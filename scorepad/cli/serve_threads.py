"""How ``flask serve``'s threads are shared between requests and event streams.

granian's WSGI interface runs each request on a thread of its pool and iterates its answer
there too: an open event stream (``GET /api/v1/games/<id>/events``, Server-Sent Events)
holds its thread, idle, for as long as it is open. ``serve`` therefore starts
:data:`~scorepad.rules.limits.MAX_EVENT_LISTENERS` threads besides ``--threads``, and
:class:`RequestSlots` lets no more than ``--threads`` other requests run at once, as
before: the streams' threads wait on a condition and take no turn from the requests, and a
request beyond ``--threads`` waits for one to finish (README, "Following a game").
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

# The event streams' path (scorepad/api/events.py), after any PREFIX: they take no slot.
EVENTS = re.compile(r"/api/v1/games/[^/]+/events\Z")


class RequestSlots:
    """WSGI middleware: at most ``most`` requests but the event streams run at once, each
    holding its slot until its answer has been sent whole (or the client left)."""

    def __init__(self, app: WSGIApplication, most: int) -> None:
        self.app = app
        self.slots = threading.BoundedSemaphore(most)

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        if EVENTS.search(str(environ.get("PATH_INFO", ""))):
            return self.app(environ, start_response)
        self.slots.acquire()
        try:
            answer = self.app(environ, start_response)
        except BaseException:
            self.slots.release()
            raise
        if isinstance(answer, list):  # sent whole at once (granian joins a list)
            self.slots.release()
            return answer
        return Releasing(answer, self.slots.release)


class Releasing:
    """An answer whose ``close`` (the server's, once it is sent or the client left) also calls ``release``, once."""

    def __init__(self, answer: Iterable[bytes], release: Callable[[], None]) -> None:
        self.answer, self.release = answer, release
        self.chunks: Iterator[bytes] = iter(answer)
        self.released = False

    def __iter__(self) -> Iterator[bytes]:
        return self

    def __next__(self) -> bytes:
        return next(self.chunks)

    def close(self) -> None:
        try:
            close = getattr(self.answer, "close", None)
            if close is not None:
                close()
        finally:
            if not self.released:
                self.released = True
                self.release()
