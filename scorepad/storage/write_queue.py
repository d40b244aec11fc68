"""The SQLite writers of one database in this process, in one queue, first come, first served
(:class:`WriteQueue`; :class:`.db._SqliteWrite` takes a turn around each write transaction)."""

from __future__ import annotations

import threading
import time
from collections import deque

from .errors import Busy


class WriteQueue:
    """The writers of one database in this process, queued first come, first served (see
    :class:`.db._SqliteWrite`): each waiting writer waits on a lock of its own, which the writer
    before it hands over on leaving, so a writer never overtakes one that came before it
    (a plain lock polled with timeouts lets any of them in, and more threads lengthen the tail)."""

    STUCK = 0.1  # seconds the lock's holder may wait for another process before the queue gives up

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._held = False
        self._queue: deque[threading.Lock] = deque()  # each waiting writer's own lock, in order of coming
        self.waiting_since: float | None = None  # when the holder began waiting for SQLite's write lock

    def acquire(self, deadline: float) -> None:
        """Take the turn by ``deadline``, or raise :class:`Busy`: at once when the holder has
        been waiting for another process's lock, so that one server thread waits, not all."""
        with self._guard:
            if not self._held:
                self._held = True
                return
            turn = threading.Lock()
            turn.acquire()
            self._queue.append(turn)
        while not turn.acquire(timeout=min(0.05, max(0.0, deadline - time.monotonic()))):
            since, now = self.waiting_since, time.monotonic()
            if now >= deadline or (since is not None and now - since > self.STUCK):
                with self._guard:
                    if turn in self._queue:  # not handed over yet: leave the queue
                        self._queue.remove(turn)
                        raise Busy()
                turn.acquire()  # handed over in the moment between: it is this writer's turn

    def release(self) -> None:
        """Hand the turn to the writer that came first after this one, if any."""
        with self._guard:
            if self._queue:
                self._queue.popleft().release()  # the turn passes on; the queue stays held
            else:
                self._held = False


_writers: dict[str, WriteQueue] = {}
_writers_guard = threading.Lock()


def queue_of(database: str) -> WriteQueue:
    with _writers_guard:
        return _writers.setdefault(database, WriteQueue())
