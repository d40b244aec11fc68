"""The rate limits' counts held in this process (``RATELIMIT_STORAGE_URI=memory://``, the
default): fixed windows, as limits' own memory storage counts them, without its timer thread.

limits 5.8's ``MemoryStorage`` forgets expired counts from a :class:`threading.Timer` that
runs 10 ms and ends, and every count made after it ended starts another: under load a thread
started for every other create or write, each start waiting for the new thread to be given
the GIL (a millisecond or more when the server's threads are busy), and two requests racing to
restart it could fail one with "threads can only be started once". Here a count past its
window reads as 0 (as there), and the expired counts are dropped by the count that finds a
second gone since the last sweep, in the same lock: no thread, and memory still bounded by
the clients of the last window.
"""

from __future__ import annotations

import threading
import time

from limits.storage import Storage

SCHEME = "scorepad-memory"  # what memory:// is served by (ratelimit._limiter)
SWEEP_EVERY = 1.0  # seconds between two sweeps of the expired counts, at most once a count


class ProcessCounts(Storage):
    """Fixed-window counts in this process: ``key`` -> (count, when its window ends)."""

    STORAGE_SCHEME = [SCHEME]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options: float | str | bool) -> None:
        self.lock = threading.Lock()
        self.counts: dict[str, tuple[int, float]] = {}
        self.swept = time.time()
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        return ValueError

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        """Add ``amount`` to ``key``'s count, its window (``expiry`` seconds) opened by the first."""
        now = time.time()
        with self.lock:
            if now - self.swept >= SWEEP_EVERY:
                self.swept = now
                self.counts = {k: v for k, v in self.counts.items() if v[1] > now}
            count, ends = self.counts.get(key, (0, 0.0))
            if ends <= now:
                count, ends = 0, now + expiry
            count += amount
            self.counts[key] = (count, ends)
            return count

    def decr(self, key: str, amount: int = 1) -> int:
        """Take ``amount`` off ``key``'s count (not below 0), its window kept."""
        now = time.time()
        with self.lock:
            count, ends = self.counts.get(key, (0, 0.0))
            if ends <= now:
                return 0
            count = max(count - amount, 0)
            self.counts[key] = (count, ends)
            return count

    def get(self, key: str) -> int:
        count, ends = self.counts.get(key, (0, 0.0))
        return count if ends > time.time() else 0

    def get_expiry(self, key: str) -> float:
        """When ``key``'s window ends (now, for a key with none open)."""
        now = time.time()
        ends = self.counts.get(key, (0, 0.0))[1]
        return ends if ends > now else now

    def check(self) -> bool:
        return True

    def reset(self) -> int | None:
        with self.lock:
            cleared = len(self.counts)
            self.counts = {}
        return cleared

    def clear(self, key: str) -> None:
        with self.lock:
            self.counts.pop(key, None)
