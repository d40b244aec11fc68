"""A log line for a condition that recurs with every request, written at most once a minute.

A full disk fails every write, and a Redis that is down fails every rate-limit count: a
traceback per request would fill the log (on the same full disk) and bury everything else.
:class:`Throttle` lets the first line through, counts the ones that come within ``every``
seconds after it, and says how many there were with the next one it lets through.
:class:`ThrottledLog` writes our own such lines; a :class:`logging.Filter` on another
library's logger (Flask-Limiter's, :mod:`scorepad.ratelimit`) asks the same throttle.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

EVERY = 60.0  # seconds between two lines of one throttled log


class Throttle:
    """One line every ``every`` seconds (by ``clock``), counting the ones held back."""

    def __init__(self, every: float = EVERY, clock: Callable[[], float] = time.monotonic) -> None:
        self.every, self.clock = every, clock
        self._last: float | None = None
        self._held = 0  # lines not let through since the last one
        self._lock = threading.Lock()

    def admit(self) -> int | None:
        """How many lines were held back since the last one, when this one may go out now;
        None when a line went out less than ``every`` seconds ago (this one is counted)."""
        with self._lock:
            now = self.clock()
            if self._last is not None and now - self._last < self.every:
                self._held += 1
                return None
            held, self._held, self._last = self._held, 0, now
            return held

    def since(self, held: int) -> str:
        """What a line adds to say how many were held back before it ("" for none)."""
        return f" ({held:,} more like it in the last {self.every:g} s not logged)" if held else ""


class ThrottledLog:
    """``warning(message)`` on ``logger``, at most once every ``every`` seconds."""

    def __init__(self, logger: logging.Logger, every: float = EVERY) -> None:
        self.logger = logger
        self.throttle = Throttle(every)

    def warning(self, message: str) -> bool:
        """Write ``message`` (one line, no traceback) unless a line was written less than
        ``every`` seconds ago; True when it was written."""
        held = self.throttle.admit()
        if held is None:
            return False
        self.logger.warning("%s%s", message, self.throttle.since(held))
        return True
