"""One cache for what the app builds once per game revision, bounded by bytes, not entries.

Game records (:mod:`scorepad.storage.writing`, each with its view), API bodies, viewer pages
and PDFs are all kept in the database's one :class:`ByteCache` (:func:`current`; the app
factory gives each app's database its own): least recently used first out once the
entries' sizes add up to more than the budget. Each entry's size is given by whoever puts it
in (a record's stored JSON) or measured: what the value holds in memory (``sys.getsizeof``),
not its length encoded: a text with one character past U+FFFF is held at 4 bytes a
character, so pages are kept encoded, as the bytes sent (UTF-8, 1 byte a character for most
of a page). Keys carry the revision, so an entry is never stale, only unused; nothing kept
may depend on the request (its host in particular: see :mod:`scorepad.links`), and a key
built from a query names its normalised form (only the fields read, each in its canonical
form), so one answer is built once however the query is spelt. The key of whatever is kept of one game is a tuple
``(kind, database, game id, ...)``, so that a deleted game's entries are dropped with it
(:meth:`ByteCache.discard_games`).

The budget is the setting ``CACHE_BYTES`` (``SCOREPAD_CACHE_BYTES``), 64 MB by default.

The heavy documents (PDFs, a game rescored under another sheet, a game's history) are built through
:meth:`ByteCache.built`: one at a time in a process, each request waiting its turn at most
:data:`BUILD_WAIT` seconds (then :class:`Busy`: "ask again in a moment"); a request
that waited finds what the one before it built. At most :data:`BUILD_WAITERS` wait at once
for another document than the one being built (each holds one of the server's threads while
it waits); one more is told so at once. Those asking for the one being built all wait: it
will be theirs when it is done. So however many ask at once, one core's
worth of Python is spent building them, not all of it, and the phones recording deals keep
their share. Each is built once per revision; one that cannot be kept (a page showing this
phone a message) is built in the same turn, each time.
"""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token
from typing import Any, TypeVar

from . import errors

DEFAULT_BYTES = 64 * 1024 * 1024
BUILD_WAIT = 10.0  # seconds a request for a heavy document waits for its turn to build it
# Requests waiting at once for the turn to build another document than the one being built, at
# most: each holds a server thread while it waits, so a stranger asking for a hundred uncached
# rescores at once holds this many and the phones keep the rest (``serve`` runs a few threads).
# Requests for the document being built are not counted: the table asking for the same PDF waits.
BUILD_WAITERS = 2
T = TypeVar("T")


class BuildBusy(errors.Busy):
    """A request waited :data:`BUILD_WAIT` seconds for its turn to build a heavy document:
    nothing is wrong, and the same request may be sent again in a moment."""

    def __init__(self) -> None:
        super().__init__("the server is busy building another document; ask again in a moment")


def size_of(value: object) -> int:
    """The bytes ``value`` holds in memory, for values whose size can be read off: bytes and
    text. A text's is up to 4 bytes a character (Python keeps every character of a text at
    the width of its widest), hence pages are kept as bytes."""
    if isinstance(value, (bytes, bytearray, str)):
        return sys.getsizeof(value)
    raise TypeError(f"give the size of a {type(value).__name__} when caching it")


class ByteCache:
    """A thread-safe LRU map whose entries' sizes add up to at most ``budget`` bytes.

    An entry larger than the whole budget is not kept (``put`` returns False).
    """

    def __init__(self, budget: int = DEFAULT_BYTES, build_wait: float = BUILD_WAIT) -> None:
        self.budget, self.build_wait = budget, build_wait
        self.used = 0
        self.builds = 0  # documents built through built(): what the cache spared is the requests less these
        self._entries: OrderedDict[Hashable, tuple[object, int]] = OrderedDict()
        self._lock = threading.Lock()
        self._building = threading.Semaphore(1)
        self._waiting = 0  # requests waiting for the build turn now for another key, at most BUILD_WAITERS
        self._building_key: Hashable | None = None  # what the turn's holder is building, if it said

    # Any: what a key's kind keeps (a game's record, a page's bytes, a PDF) is known to the
    # code that builds that kind of key, which reads the value as it; the cache keeps every kind.
    def get(self, key: Hashable) -> Any:
        """The value kept under ``key`` (now the most recently used), or None."""
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                return None
            self._entries.move_to_end(key)
            return found[0]

    def put(self, key: Hashable, value: object, size: int | None = None,
            replaces: Callable[[Any], bool] | None = None) -> bool:  # Any: the value kept, as get()'s
        """Keep ``value`` under ``key``, evicting the least recently used entries to fit.
        With ``replaces``, a value already kept stays unless ``replaces(it)`` is true."""
        size = size_of(value) if size is None else max(0, int(size))
        with self._lock:
            found = self._entries.get(key)
            if found is not None and replaces is not None and not replaces(found[0]):
                self._entries.move_to_end(key)
                return False
            self._drop(key)
            if size > self.budget:
                return False
            self._entries[key] = (value, size)
            self.used += size
            self._evict()
            return True

    @contextmanager
    def gate(self, wait: float | None = None, key: Hashable | None = None) -> Iterator[None]:
        """Hold the process's one turn to build a heavy document (``key``, if known), waiting
        for it at most ``wait`` seconds (by default the cache's ``build_wait``), then
        :class:`Busy`; at once when :data:`BUILD_WAITERS` wait already for other documents
        than the one being built."""
        if not self._building.acquire(blocking=False):
            with self._lock:
                counted = key is None or key != self._building_key
                if counted and self._waiting >= BUILD_WAITERS:
                    raise BuildBusy()
                self._waiting += counted
            try:
                got = self._building.acquire(timeout=self.build_wait if wait is None else wait)
            finally:
                with self._lock:
                    self._waiting -= counted
            if not got:
                raise BuildBusy()
        self._building_key = key
        try:
            yield
        finally:
            self._building_key = None
            self._building.release()

    def built(self, key: Hashable | None, build: Callable[[], T], size: Callable[[T], int] | None = None,
              keep: Callable[[T], bool] | None = None) -> T:
        """The value kept under ``key``, else ``build()`` in the build turn (:meth:`gate`),
        kept for the next request unless ``keep(value)`` says not (an error page). A request
        that waited finds what the one before it built. With ``key`` None (an answer that
        depends on this request) it is built in the turn and not kept."""
        found: T | None = None if key is None else self.get(key)  # what build() made for this key before
        if found is not None:
            return found
        with self.gate(key=key):
            waited_for: T | None = None if key is None else self.get(key)  # built while this one waited
            if waited_for is not None:
                return waited_for
            value = build()
            with self._lock:
                self.builds += 1
            if key is not None and (keep is None or keep(value)):
                self.put(key, value, size(value) if size else None)
        return value

    def discard(self, key: Hashable) -> None:
        with self._lock:
            self._drop(key)

    def discard_games(self, database: str, game_ids: set[str]) -> int:
        """Drop every entry kept of these games of ``database`` (keyed ``(kind, database,
        game id, ...)``); returns how many."""
        with self._lock:
            keys = [key for key in self._entries if isinstance(key, tuple) and len(key) >= 3
                    and key[1] == database and key[2] in game_ids]
            for key in keys:
                self._drop(key)
        return len(keys)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.used = 0

    def resize(self, budget: int) -> None:
        """A new budget, evicting at once what no longer fits."""
        with self._lock:
            self.budget = max(0, int(budget))
            self._evict()

    @property
    def waiting(self) -> int:
        """Requests waiting now for the turn to build another document than the one being built."""
        return self._waiting

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._entries

    def values(self) -> list[object]:
        """Every value kept, least recently used first (a copy: for tests and inspection)."""
        with self._lock:
            return [value for value, _ in self._entries.values()]

    def _drop(self, key: Hashable) -> None:
        found = self._entries.pop(key, None)
        if found is not None:
            self.used -= found[1]

    def _evict(self) -> None:
        while self.used > self.budget and self._entries:
            _, (_, size) = self._entries.popitem(last=False)
            self.used -= size



# The cache of the database in use here, put in use with it (scorepad.storage.db.use): a
# context variable, as the database's is, so this module needs nothing of db, which builds on it.
_in_use: ContextVar[ByteCache] = ContextVar("scorepad.storage.cache")


def current() -> ByteCache:
    """The cache of the database in use (:func:`scorepad.storage.db.current`)."""
    try:
        return _in_use.get()
    except LookupError:
        raise RuntimeError("no database is in use here, so no cache: run this inside the app's context, or "
                           "inside `with db.using(backends.database(setting)):`") from None


def use(cache: ByteCache) -> Token[ByteCache]:
    """Put ``cache`` in use in this context (with its database: :func:`scorepad.storage.db.use`)."""
    return _in_use.set(cache)


def done(token: Token[ByteCache]) -> None:
    """Go back to the cache in use before :func:`use` gave ``token``."""
    _in_use.reset(token)
