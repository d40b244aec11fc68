"""The heavy documents a request builds: a game rescored under another sheet, a game's
history, a game's PDFs, each counted against the client that made it build.

The views that answer them (the rescore page and API, the history page and API, the game's
PDFs) ask :func:`built`, never the cache directly. What the cache holds is answered at once
and counts for nothing, so a table asking for the same PDF again and again is never
limited. Only a miss asks the app's :class:`Meter` (``LIMIT_BUILD``, :mod:`scorepad.ratelimit`;
none when the limits are off): whether this client may build one more, before it waits for
the build turn (:meth:`scorepad.storage.cache.ByteCache.built`), so a client past its count
holds no thread waiting; and, once it has built, to count the build. A request that waited
and found what another built counts for nothing either. The client and its count are the
meter's business: storage knows neither.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Protocol, TypeVar

from flask import current_app

from .storage import cache

METER = "scorepad.build_meter"  # the app's Meter, in app.extensions (absent when the limits are off)
T = TypeVar("T")


class Meter(Protocol):
    def check(self) -> None:
        """Raise (a 429) when this request's client may build no more now; counts nothing."""

    def count(self) -> None:
        """Count one build made for this request's client."""


def built(key: Hashable | None, build: Callable[[], T], size: Callable[[T], int] | None = None,
          keep: Callable[[T], bool] | None = None) -> T:
    """The document kept under ``key``, else ``build()`` in the build turn and kept (as
    :meth:`~scorepad.storage.cache.ByteCache.built`, whose arguments these are), the build
    checked and counted against this request's client by the app's :class:`Meter`."""
    kept = cache.current()
    found = None if key is None else kept.get(key)
    if found is not None:
        return found  # type: ignore[no-any-return]
    meter: Meter | None = current_app.extensions.get(METER)
    if meter is None:
        return kept.built(key, build, size, keep)
    meter.check()
    made = False

    def counted() -> T:
        nonlocal made
        made = True
        return build()
    value = kept.built(key, counted, size, keep)
    if made:
        meter.count()  # after the turn: the count (Redis, perhaps) never holds it
    return value
