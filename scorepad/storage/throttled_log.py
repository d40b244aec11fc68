"""A log line for a condition that recurs with every request, written at most once a minute.

A full disk fails every write, and a traceback per write would fill the log (on the same
full disk) and bury everything else. :class:`ThrottledLog` writes the first line, counts the
ones that come within ``every`` seconds after it, and says how many there were on the next
line it writes.
"""

from __future__ import annotations

import logging
import threading
import time

EVERY = 60.0  # seconds between two lines of one throttled log


class ThrottledLog:
    """``warning(message)`` on ``logger``, at most once every ``every`` seconds."""

    def __init__(self, logger: logging.Logger, every: float = EVERY) -> None:
        self.logger, self.every = logger, every
        self._last: float | None = None
        self._held = 0  # lines not written since the last one
        self._lock = threading.Lock()

    def warning(self, message: str) -> bool:
        """Write ``message`` (one line, no traceback) unless a line was written less than
        ``every`` seconds ago; True when it was written."""
        with self._lock:
            now = time.monotonic()
            if self._last is not None and now - self._last < self.every:
                self._held += 1
                return False
            held, self._held, self._last = self._held, 0, now
        since = f" ({held} more since the last line)" if held else ""
        self.logger.warning("%s%s", message, since)
        return True
