"""Which games this process's event streams follow, and how far each has moved: one thread
(:class:`Watcher`) reads the revisions of every followed game from the database, in one
query, every :data:`POLL_SECONDS` (and at once after a write through this process,
:meth:`Watcher.nudge`), and wakes the streams of the games that moved.

The database is the one truth every server shares: a write through another server (on the
same SQLite file or PostgreSQL database) is seen here at the next read, so its listeners
hear of it within :data:`POLL_SECONDS`. Storage is read, never called back from: nothing
here is handed to it.

Streams are counted (:data:`scorepad.rules.limits.MAX_EVENT_LISTENERS` by default): one past
the bound is refused (:class:`Full`), since under granian's WSGI interface each open stream
holds a thread of the server (README, "Following a game").
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field

from ..storage import db, reading
from ..storage.reading import Moved
from ..storage.throttled_log import ThrottledLog

HEARTBEAT_SECONDS = 15.0  # a comment this often on a quiet stream: under nginx's 60 s proxy_read_timeout
RETRY_MS = 2000  # how soon EventSource comes back after a stream ends (its lifetime, a server restart)

POLL_SECONDS = 1.0  # how often the followed games' revisions are read: a write elsewhere is heard within this

log = ThrottledLog(logging.getLogger(__name__))


class Full(Exception):
    """This process already holds as many event streams as it may."""


@dataclass
class _Followed:
    """One followed game: how far it had moved at the last read (None once it is gone), how
    many streams follow it, and the condition they wait on (on the watcher's lock)."""

    moved: Moved | None
    condition: threading.Condition
    streams: int = 0


@dataclass
class Watcher:
    """The games followed by this process's event streams, read by one thread of its own
    (started with the first stream, kept for the process's life, idle while none is open)."""

    database: db.Database
    most: int  # streams held at once
    heartbeat: float  # seconds between the comments a quiet stream sends
    lifetime: float  # seconds a stream stays open
    poll_seconds: float = POLL_SECONDS
    lock: threading.Lock = field(default_factory=threading.Lock)
    games: dict[str, _Followed] = field(default_factory=dict)
    streams: int = 0
    wake: threading.Event = field(default_factory=threading.Event)
    thread: threading.Thread | None = None

    def follow(self, game_id: str, moved: Moved) -> Stream:
        """A stream following ``game_id``, which has moved as far as ``moved`` (just read);
        :class:`Full` when this process holds :attr:`most` streams already."""
        with self.lock:
            if self.streams >= self.most:
                raise Full()
            followed = self.games.get(game_id)
            if followed is None:
                followed = self.games[game_id] = _Followed(moved, threading.Condition(self.lock))
            followed.streams += 1
            self.streams += 1
            if self.thread is None:
                self.thread = threading.Thread(target=self._run, name="scorepad-events", daemon=True)
                self.thread.start()
        self.wake.set()
        return Stream(self, game_id, followed)

    def nudge(self) -> None:
        """Read the followed games now (a write went through this process), if any is followed."""
        if self.streams:
            self.wake.set()

    def _leave(self, game_id: str, followed: _Followed) -> None:
        with self.lock:
            followed.streams -= 1
            self.streams -= 1
            if followed.streams == 0 and self.games.get(game_id) is followed:
                del self.games[game_id]

    def _run(self) -> None:
        while True:
            self.wake.wait(None if not self.streams else self.poll_seconds)
            self.wake.clear()
            with self.lock:
                ids = list(self.games)
            if ids:
                self._read(ids)

    def _read(self, ids: list[str]) -> None:
        """Read how far ``ids`` have moved and wake the streams of those that did."""
        try:
            with db.using(self.database), db.snapshot():
                found = reading.revisions(ids)
        except Exception as err:  # the database down or busy: the streams wait for the next read
            log.warning(f"the event streams could not read the games' revisions ({err.__class__.__name__}: {err})")
            return
        with self.lock:
            for game_id in ids:
                followed = self.games.get(game_id)
                now = found.get(game_id)
                if followed is not None and now != followed.moved:
                    followed.moved = now
                    followed.condition.notify_all()


@dataclass
class Stream:
    """One listener's hold on a followed game: :meth:`wait` for it to move; :meth:`close` (once
    or more) lets it go."""

    watcher: Watcher
    game_id: str
    followed: _Followed
    closed: bool = False

    def now(self) -> Moved | None:
        """How far the game had moved at the last read; None once it is gone."""
        with self.watcher.lock:
            return self.followed.moved

    def wait(self, seen: Moved | None, timeout: float) -> Moved | None:
        """How far the game has moved, once it is past ``seen`` or after ``timeout`` seconds
        (then ``seen`` again, unless it moved); None once it is gone (deleted)."""
        with self.watcher.lock:
            self.followed.condition.wait_for(lambda: self.followed.moved != seen, timeout)
            return self.followed.moved

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.watcher._leave(self.game_id, self.followed)
