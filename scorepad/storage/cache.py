"""One cache for what the app builds once per game revision, bounded by bytes, not entries.

Game records (:mod:`scorepad.storage.store`, each with its view), API bodies, viewer pages
and PDFs are all kept in the database's one :class:`ByteCache` (:func:`current`; the app
factory gives each app's database its own): least recently used first out once the
entries' sizes add up to more than the budget. Each entry's size is given by whoever puts it
in (a record's stored JSON) or measured (bytes and text). Keys carry the revision, so an
entry is never stale, only unused; nothing kept may depend on the request (its host in
particular: see :mod:`scorepad.links`). The key of whatever is kept of one game is a tuple
``(kind, database, game id, ...)``, so that a deleted game's entries are dropped with it
(:meth:`ByteCache.discard_games`).

The budget is the setting ``CACHE_BYTES`` (``SCOREPAD_CACHE_BYTES``), 64 MB by default.

The heavy documents (PDFs, a game rescored under another sheet) are built through
:meth:`ByteCache.built`: one at a time in a process, each request waiting its turn at most
:data:`BUILD_WAIT` seconds (then :class:`Busy`: "ask again in a moment"); a request
that waited finds what the one before it built. So however many ask at once, one core's
worth of Python is spent building them, not all of it, and the phones recording deals keep
their share. Each is built once per revision.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from . import errors

DEFAULT_BYTES = 64 * 1024 * 1024
BUILD_WAIT = 10.0  # seconds a request for a heavy document waits for its turn to build it
T = TypeVar("T")


class Busy(errors.Busy):
    """A request waited :data:`BUILD_WAIT` seconds for its turn to build a heavy document:
    nothing is wrong, and the same request may be sent again in a moment."""

    def __init__(self) -> None:
        super().__init__("the server is busy building another document; ask again in a moment")


def size_of(value: object) -> int:
    """The bytes ``value`` holds, for values whose size can be read off: bytes and text."""
    if isinstance(value, (bytes, bytearray)):
        return len(value)
    if isinstance(value, str):
        return len(value.encode("utf-8", "surrogatepass"))
    raise TypeError(f"give the size of a {type(value).__name__} when caching it")


class ByteCache:
    """A thread-safe LRU map whose entries' sizes add up to at most ``budget`` bytes.

    An entry larger than the whole budget is not kept (``put`` returns False).
    """

    def __init__(self, budget: int = DEFAULT_BYTES, build_wait: float = BUILD_WAIT) -> None:
        self.budget, self.build_wait = budget, build_wait
        self.used = 0
        self._entries: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._lock = threading.Lock()
        self._building = threading.Semaphore(1)

    def get(self, key: Hashable) -> Any | None:
        """The value kept under ``key`` (now the most recently used), or None."""
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                return None
            self._entries.move_to_end(key)
            return found[0]

    def put(self, key: Hashable, value: Any, size: int | None = None,
            replaces: Callable[[Any], bool] | None = None) -> bool:
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
    def gate(self, wait: float | None = None) -> Iterator[None]:
        """Hold the process's one turn to build a heavy document, waiting for it at most
        ``wait`` seconds (by default the cache's ``build_wait``), then :class:`Busy`."""
        if not self._building.acquire(timeout=self.build_wait if wait is None else wait):
            raise Busy()
        try:
            yield
        finally:
            self._building.release()

    def built(self, key: Hashable, build: Callable[[], T], size: Callable[[T], int] | None = None) -> T:
        """The value kept under ``key``, else ``build()`` in the build turn (:meth:`gate`),
        kept for the next request. A request that waited finds what the one before it built."""
        found = self.get(key)
        if found is not None:
            return found  # type: ignore[no-any-return]
        with self.gate():
            found = self.get(key)
            if found is not None:
                return found  # type: ignore[no-any-return]
            value = build()
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

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._entries

    def values(self) -> list[Any]:
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



def current() -> ByteCache:
    """The cache of the database in use (:func:`scorepad.storage.db.current`)."""
    from .db import current as database  # db builds on this module, so not imported at the top

    return database().cache
