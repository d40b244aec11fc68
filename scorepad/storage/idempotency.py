"""Writes made once per idempotency key of one client (:func:`once`): creating, importing,
recording and correcting a deal and replacing the edit key. The key and its answer (never an
edit key) are kept in the write's own transaction (:func:`keep_answer`, called by
:mod:`.writing`), so the same request sent again by the same client is answered the same and
writes nothing; kept keys are forgotten after :data:`KEEP_KEYS`.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import Enum
from typing import Any, Generic, TypeVar

from . import db
from .reading import stamp

T = TypeVar("T")


KEEP_KEYS = timedelta(hours=24)  # how long a key is kept with its answer; then it is forgotten


@dataclass(frozen=True)
class Once(Generic[T]):
    """A write to make at most once for one ``key`` of one ``client`` on one ``route`` (what
    the write does, as the door names it) and ``game_id`` (``""`` for a new game). ``client``
    is whose key it is, as the door tells (a digest: of the edit key sent, for a game's
    writes, :func:`key_digest`; of the session or the address, for a new game), so one
    client's key never answers another's request. ``digest`` stands for the whole request:
    the key sent with another request is refused. ``answer(result)`` is the status and body
    (JSON text) the door answers the write's result with: it is kept with the key in the
    write's transaction, so the same request sent again is answered exactly the same. It
    never holds an edit key (a write that makes one refuses to keep such an answer): the
    door adds the game's key to what it replays, for the client whose key it is."""

    route: str
    game_id: str
    key: str
    digest: str
    answer: Callable[[T], tuple[int, str]]
    client: str = dataclasses.field(kw_only=True)


@dataclass(frozen=True)
class KeptAnswer:
    """What a write made once answers: the ``status`` and ``body`` kept with its key;
    ``replayed`` when an earlier request made the write, and nothing was written now."""

    status: int
    body: str
    replayed: bool


class KeyTaken(Enum):
    """Why a write made once was neither made nor answered from its key (nothing was written)."""

    REUSED = "the key was kept for another request (its digest differs)"
    IN_PROGRESS = "a request with the key is being written in this process now"


class _KeyFound(Exception):
    """The key of a write made once is kept: the write stops, having written nothing, and
    :func:`once` answers ``found``."""

    def __init__(self, found: KeptAnswer | KeyTaken) -> None:
        super().__init__(found)
        self.found = found


# The keys of the writes this process is making now, by database. Only here can a second
# request with a key see the first still being made: it is refused at once (IN_PROGRESS)
# rather than made to wait. A request to another process (another server) waits for the
# first's transaction instead (SQLite's write lock; on PostgreSQL, the game's row, or the
# key's), then finds the key kept and answers what it kept.
_in_flight: set[tuple[str, str, str, str, str]] = set()
_in_flight_guard = threading.Lock()


def once(keyed: Once[T], write: Callable[[Once[T]], T]) -> KeptAnswer | KeyTaken:
    """``write(keyed)``, a write of this module given ``keyed`` (:func:`create_game`,
    :func:`import_game`, :func:`record_deal`, :func:`update_deal`), made at most once per key. When a request
    with the same key was written within :data:`KEEP_KEYS`, its kept answer is replayed and
    nothing is written; :attr:`KeyTaken.REUSED` when it was another request (its digest
    differs), :attr:`KeyTaken.IN_PROGRESS` while this process is still writing it.

    Only a write that is made keeps its key: what the write raises (a refusal, a stale
    revision, a busy database) keeps nothing, and neither does a write that changes nothing
    (a correction to the deal as it stands), so the same request may be sent again and is
    judged again. A kept key older than :data:`KEEP_KEYS` is forgotten by the next write
    made once."""
    slot = (db.path(), keyed.route, keyed.game_id, keyed.client, keyed.key)
    with _in_flight_guard:
        if slot in _in_flight:
            return KeyTaken.IN_PROGRESS
        _in_flight.add(slot)
    try:
        try:
            stop_if_kept(keyed)  # kept already: the request is not read or judged again
            result = write(keyed)
        except _KeyFound as kept:
            return kept.found
        # What the write kept with its key (the same answer to the same result), or, for a
        # write that changed nothing and so kept nothing, its answer now.
        return KeptAnswer(*keyed.answer(result), replayed=False)
    finally:
        with _in_flight_guard:
            _in_flight.discard(slot)


def kept_answer(once: Once[Any]) -> KeptAnswer | KeyTaken | None:
    """The answer kept for ``once``'s key, replayed; REUSED when it was kept for another
    request; None when none is kept, or it is older than :data:`KEEP_KEYS`."""
    row = db.one("idempotency_get", once.route, once.game_id, once.client, once.key,
                 stamp(datetime.now(UTC) - KEEP_KEYS))
    if row is None:
        return None
    if row["digest"] != once.digest:
        return KeyTaken.REUSED
    return KeptAnswer(row["status"], row["body"], replayed=True)


def stop_if_kept(once: Once[Any] | None) -> None:
    """Before a write made once, and again inside its transaction (another process may have
    made it while this one waited for the write lock): stop it (:class:`_KeyFound`) when its
    key is kept."""
    if once is not None:
        found = kept_answer(once)
        if found is not None:
            raise _KeyFound(found)


def keep_answer(once: Once[T] | None, result: T, edit_key: str | None = None) -> None:
    """Inside a write's transaction, once written: keep ``once``'s key with its answer to
    ``result``, and forget every key kept longer than :data:`KEEP_KEYS` (by the index on
    their time, so a write forgets only what expired since the last one). An answer holding
    ``edit_key`` (the key the write made or kept) is never kept: the write fails, as a
    mistake of the door's."""
    if once is None:
        return
    now = datetime.now(UTC)
    if _time_to_forget(db.path()):
        db.run("idempotency_forget", stamp(now - KEEP_KEYS))
    status, body = once.answer(result)
    if edit_key and edit_key in body:
        raise RuntimeError(f"the answer {once.route} keeps with its Idempotency-Key holds the game's edit key: "
                           "keep the answer without it, and add it to what is replayed")
    if not db.run("idempotency_insert", once.route, once.game_id, once.client, once.key, once.digest, status, body,
                  stamp(now), stamp(now - KEEP_KEYS)):
        stop_if_kept(once)  # kept meanwhile by another process's write, now committed: roll this one back, answer that
        raise _KeyFound(KeyTaken.IN_PROGRESS)  # kept, then forgotten within the moment: not this write's to make


# Expired keys are forgotten by one keyed write a minute in each process (for each database),
# not by every one: a save runs at most 7 statements (bench/trace.py), the one save a minute
# that forgets 8. The first keyed write a process makes to a database starts its minute. What
# expired is forgotten by the index on the keys' time, so however long since the last time,
# it costs what expired. A key sent again after it expired is written over where it is kept
# (the insert replaces an expired key's row), so an expired key not yet forgotten is never in
# the way of a new write with it.
FORGET_EVERY = 60.0  # seconds
_forgot_at: dict[str, float] = {}


def _time_to_forget(database: str) -> bool:
    """Whether the keyed write now being made forgets the expired keys of ``database``:
    :data:`FORGET_EVERY` seconds after the last that did in this process (or after this
    process's first keyed write to it)."""
    now = time.monotonic()
    with _in_flight_guard:
        last = _forgot_at.setdefault(database, now)
        if now - last < FORGET_EVERY:
            return False
        _forgot_at[database] = now
        return True
