"""Writes made once per idempotency key of one client (:func:`once`): creating, importing,
recording and correcting a deal, replacing the edit key, and ending or reopening a game. The key is kept with what the
write made (:class:`Made`: its kind, the game, the deal, the revision; never a secret, never
an answer) in the write's own transaction (:func:`keep`, called by :mod:`.writing`), so the
same request sent again by the same client writes nothing and its door answers it from that
fact as it answered the first; kept keys are forgotten after :data:`KEEP_KEYS`.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import Enum
from typing import Generic, TypeVar

from . import db
from .checks import read_deal
from .reading import DealRecord, load_game, stamp

T = TypeVar("T")
R = TypeVar("R", covariant=True)  # what a write made once returns (a Once[DealRecord] is a Once[object])


KEEP_KEYS = timedelta(hours=24)  # how long a key is kept with what its write made; then it is forgotten


@dataclass(frozen=True)
class Once(Generic[R]):
    """A write to make at most once for one ``key`` of one ``client`` on one ``route`` (what
    the write does, as the door names it) and ``game_id`` (``""`` for a new game); ``R`` is
    what the write returns. ``client`` is whose key it is, as the door tells (a digest: of
    the edit key sent, for a game's writes, :func:`key_digest`; of the session or the
    address, for a new game), so one client's key never answers another's request.
    ``digest`` stands for the whole request: the key sent with another request is refused."""

    route: str
    game_id: str
    key: str
    digest: str
    client: str


class Kind(Enum):
    """What a write made once made (as it is kept with its key)."""

    GAME_CREATED = "game created"
    GAME_IMPORTED = "game imported"
    DEAL_RECORDED = "deal recorded"
    DEAL_CORRECTED = "deal corrected"
    EDIT_KEY_REPLACED = "edit key replaced"
    GAME_ENDED = "game ended"
    GAME_REOPENED = "game reopened"
    PART_SAVED = "part saved"  # a part of an open deal saved (or the open deal abandoned): the game's revision stays
    PART_CONFIRMED = "part confirmed"
    EVENT_CREATED = "event created"  # a club night (scorepad.storage.club_nights): game_id is the event's id
    EVENT_IMPORTED = "event imported"  # a club night from its export (scorepad.storage.club_night_document): the same


@dataclass(frozen=True)
class Made:
    """What an earlier request with the key made (nothing was written now): a ``kind`` of
    write, to the game ``game_id`` (the new game's, for a game created or imported), the
    ``deal`` it recorded or corrected (None for a game's own writes), and the ``revision``
    the game had once it was made. The door answers the request from it as it answered the
    first."""

    kind: Kind
    game_id: str
    deal: int | None
    revision: int


class KeyTaken(Enum):
    """Why a write made once was neither made nor answered from its key (nothing was written)."""

    REUSED = "the key was kept for another request (its digest differs)"
    IN_PROGRESS = "a request with the key is being written in this process now"


class _KeyFound(Exception):
    """The key of a write made once is kept: the write stops, having written nothing, and
    :func:`once` answers ``found``."""

    def __init__(self, found: Made | KeyTaken) -> None:
        super().__init__(found)
        self.found = found


# The keys of the writes this process is making now, by database. Only here can a second
# request with a key see the first still being made: it is refused at once (IN_PROGRESS)
# rather than made to wait. A request to another process (another server) waits for the
# first's transaction instead (SQLite's write lock; on PostgreSQL, the game's row, or the
# key's), then finds the key kept and answers what it made.
_in_flight: set[tuple[str, str, str, str, str]] = set()
_in_flight_guard = threading.Lock()


def once(keyed: Once[T], write: Callable[[Once[T]], T]) -> T | Made | KeyTaken:
    """``write(keyed)``, a write of :mod:`.writing` given ``keyed`` (``create_game``,
    ``import_game``, ``record_deal``, ``update_deal``, ``replace_edit_key``), made at most
    once per key: what it returns. When a request with the same key was written within
    :data:`KEEP_KEYS`, what that one made (:class:`Made`), and nothing is written;
    :attr:`KeyTaken.REUSED` when it was another request (its digest differs),
    :attr:`KeyTaken.IN_PROGRESS` while this process is still writing it.

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
            return write(keyed)
        except _KeyFound as kept:
            return kept.found
    finally:
        with _in_flight_guard:
            _in_flight.discard(slot)


def kept(once: Once[object]) -> Made | KeyTaken | None:
    """What the write kept for ``once``'s key made; REUSED when it was kept for another
    request; None when none is kept, or it is older than :data:`KEEP_KEYS`."""
    row = db.one("idempotency_get", once.route, once.game_id, once.client, once.key,
                 stamp(datetime.now(UTC) - KEEP_KEYS))
    if row is None:
        return None
    if row["digest"] != once.digest:
        return KeyTaken.REUSED
    return Made(Kind(row["kind"]), row["made_game"], row["deal"], row["revision"])


def stop_if_kept(once: Once[object] | None) -> None:
    """Before a write made once, and again inside its transaction (another process may have
    made it while this one waited for the write lock): stop it (:class:`_KeyFound`) when its
    key is kept."""
    if once is not None:
        found = kept(once)
        if found is not None:
            raise _KeyFound(found)


def keep(once: Once[object] | None, made: Made) -> None:
    """Inside a write's transaction, once written: keep ``once``'s key with what the write
    ``made``, and forget every key kept longer than :data:`KEEP_KEYS` (by the index on their
    time, so a write forgets only what expired since the last one)."""
    if once is None:
        return
    now = datetime.now(UTC)
    if _time_to_forget(db.path()):
        db.run("idempotency_forget", stamp(now - KEEP_KEYS))
    if not db.run("idempotency_insert", once.route, once.game_id, once.client, once.key, once.digest,
                  made.kind.value, made.game_id, made.deal, made.revision, stamp(now), stamp(now - KEEP_KEYS)):
        stop_if_kept(once)  # kept meanwhile by another process's write, now committed: roll this one back, answer that
        raise _KeyFound(KeyTaken.IN_PROGRESS)  # kept, then forgotten within the moment: not this write's to make


def deal_made(made: Made) -> DealRecord | None:
    """The deal as the write ``made`` left it (a deal recorded or corrected), from the game's
    history: its body and as-played reason at that revision, its history then, judged in the
    game as it stands. None when the game or that entry is no more."""
    if made.deal is None:
        return None
    game = load_game(made.game_id)
    row = db.one("history_made", made.game_id, made.deal, made.revision)
    if game is None or row is None or not row["after"]:
        return None
    deal = read_deal(game, json.loads(row["after"]), made.deal)
    return DealRecord(made.deal, deal, row["reason"], row["size"], made.revision, game.rules.judge(deal),
                      len(row["after"]))


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
