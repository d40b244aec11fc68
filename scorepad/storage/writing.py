"""Games written: created, imported, a deal recorded, corrected or deleted, the sheet
amended, the edit key replaced, a game ended by its table or reopened, a game deleted or
purged. The one place where a change
reaches the database, so a deal is validated, scored and recorded (with its history) the
same way whichever door it came in by.

Every write is one transaction, bumps the game's revision, and is refused when it would
leave the game holding more than :data:`MAX_GAME_BYTES`; a correction that changes nothing
writes nothing. A write is prepared against the game as read, then made only if the
revision is still the one it was prepared against (:func:`_write`). Creating, importing,
recording and correcting a deal and replacing the edit key may be made once per
idempotency key (:mod:`.idempotency`): its key is kept, with what the write made, in the
write's transaction.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import secrets
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Generic, TypeVar

from ..rules import Deal, RuleSheet
from ..rules.choices import Confirm, GameLength
from ..rules.game import Game
from ..rules.limits import ENTRY_BYTES as ENTRY_BYTES
from ..rules.limits import MAX_GAME_BYTES as MAX_GAME_BYTES
from ..rules.verdict import Verdict
from . import db
from .checks import as_game_reads_it, game_over, judge_for_game, read_sides, refuse_if_stale
from .errors import AlreadyRecorded, Conflict, DealOpen, Full, Invalid, KeyReplaced, NotFound, SameAsPrevious
from .idempotency import Kind, Made, Once, keep, stop_if_kept
from .reading import (
    DealRecord,
    GameRecord,
    GameSide,
    Unchanged,
    cached_game,
    changes_since,
    judged_in,
    key_digest,
    load_game,
    new_id,
    no_game,
    organiser_key_of,
    read_afresh,
    remember,
    replaced_at,
    revision,
    stamp,
    stamp_now,
    unchanged_since,
)

log = logging.getLogger(__name__)


def after_write(game: GameRecord, deals: list[DealRecord], number: int, updated_at: str) -> GameRecord:
    """The game one revision on, with these deals, deal ``number`` given one more history
    entry: built from records already read and judged, so the next read of the game neither
    reads nor judges its deals again."""
    deals = sorted(deals, key=lambda d: d.number)
    played = Game(game.sheet, game.side_names, tuple(d.deal for d in deals), tuple(d.found for d in deals),
                  ended=game.rules.ended)
    counts = {**game.history_counts, number: game.history_counts.get(number, 0) + 1}
    return dataclasses.replace(game, revision=game.revision + 1, updated_at=updated_at,
                               deals=judged_in(played, deals), rules=played, history_counts=counts)


# A history entry as :func:`import_game` writes it: deal_number, action, at, before, after
# (each a deal or sheet as JSON text), old_totals, new_totals (JSON text), reason, entered_by
# (a deal written from its parts: who entered each, as JSON text).
HistoryRow = tuple[int | None, str, str, str | None, str | None, str | None, str | None, str | None, str | None]


def _stored(sheet: RuleSheet) -> str:
    """A sheet as the database keeps it: every option (see ``RuleSheet.to_stored_json``)."""
    return json.dumps(sheet.to_stored_json())




def create_game(name: str, sheet: RuleSheet, sides: list[GameSide], once: Once[GameRecord] | None = None,
                confirm: Confirm = Confirm.NONE) -> GameRecord:
    """A new game, with a new id and edit key; made once per ``once``'s key (:func:`once`).
    The door reads what it is given (:mod:`.checks`: the sheet, then the sides, then the name).
    ``confirm``: whether a side's part of a deal entered part by part waits for a phone of
    another side to confirm it (:mod:`.open_deals`)."""
    game_id, key, now = new_id(), new_id(), stamp_now()
    record = GameRecord(game_id, key, name, sheet, sides, 0, now, now, [],
                        Game(sheet, tuple(side["name"] for side in sides)), confirm=confirm)
    with db.transaction():
        db.run("game_insert", game_id, key, name, _stored(sheet), json.dumps(sides), now, now, confirm.value)
        keep(once, Made(Kind.GAME_CREATED, game_id, None, 0))
    remember(record)
    return record


def import_game(name: str, sheet: RuleSheet, sides: list[GameSide], created_at: str,
                deals: list[tuple[int, str, str | None]], entries: list[HistoryRow], note: str,
                judged: Mapping[str, Verdict] | None = None, once: Once[GameRecord] | None = None,
                ended_at: str | None = None, confirm: Confirm = Confirm.NONE) -> GameRecord:
    """A new game (new id and key) from an export that :mod:`scorepad.storage.document` has read and
    judged: ``deals`` as (number, canonical body, as-played reason), ``entries`` as the
    history's (deal_number, action, at, before, after, old_totals, new_totals, reason, entered_by), in
    order, then an ``import`` entry saying so. Each entry adds 1 to the revision, as a write does.
    ``judged`` holds the deals' verdicts by body, so the new game is not judged again.
    ``ended_at``: when the table ended the game (an open sheet's); ``confirm`` the game's
    setting. Made once per ``once``'s key (:func:`once`)."""
    with db.transaction():
        game_id = write_import(name, sheet, sides, created_at, deals, entries, note, ended_at, confirm)
        record: GameRecord = read_afresh(game_id, judged)  # type: ignore[assignment]  # just written
        keep(once, Made(Kind.GAME_IMPORTED, game_id, None, record.revision))
    remember(record)  # once committed: a record cached inside the transaction could outlive a failed commit
    return record


def write_import(name: str, sheet: RuleSheet, sides: list[GameSide], created_at: str,
                 deals: list[tuple[int, str, str | None]], entries: list[HistoryRow], note: str,
                 ended_at: str | None = None, confirm: Confirm = Confirm.NONE) -> str:
    """Inside the caller's write transaction, :func:`import_game`'s rows: a new game (new id
    and key), its deals and history, then its ``import`` entry; refused past
    :data:`MAX_GAME_BYTES` (:func:`check_size`). Returns its id. A club night's import
    (:mod:`.club_night_document`) writes every table's game so, in the event's one transaction."""
    game_id, key, now = new_id(), new_id(), stamp_now()
    db.run("game_insert", game_id, key, name, _stored(sheet), json.dumps(sides), created_at, now, confirm.value)
    if ended_at is not None:
        db.run("game_set_ended", ended_at, game_id)
    for number, body, as_played in deals:
        db.run("deal_insert", game_id, number, body, as_played)
    for entry in [*entries, (None, "import", now, None, None, None, None, note, None)]:
        db.run("history_insert", game_id, *entry)
        db.run("game_touch", now, game_id)
    check_size(game_id)
    return game_id


def check_size(game_id: str) -> None:
    """Inside a write transaction, once written: refuse the write (:class:`Full` naming ``game``, so it
    rolls back) when it leaves the game holding more than :data:`MAX_GAME_BYTES`."""
    size = db.value("game_stored_bytes", game_id, ENTRY_BYTES)
    if size > MAX_GAME_BYTES:
        raise Full("game", f"a game may hold at most {MAX_GAME_BYTES / 2**20:g} MB of deals and "
                         f"history, and this would make it {size / 2**20:.2f} MB, so nothing was saved; "
                         "start a new game to go on (an export keeps this one)")


def fresh(game_id: str, based_on: int | None, once: Once[object] | None = None, key: str | None = None,
           first: bool = False) -> GameRecord:
    """The game as it stands, for a write about to be prepared (again, after another write came
    first). With ``key``, the edit key the door allowed the write with: :class:`KeyReplaced`
    once it is not the game's, so a write that waited while the edit link was replaced is
    never made with the old one.

    A ``first`` try takes the game as this process cached it, without reading its revision
    again (the door read it a moment ago, to allow the write): the write transaction moves
    the revision on only from the revision it was prepared against, so a game another
    process wrote to meanwhile is read again, and the write prepared again. Before refusing
    the write (a replaced key, a stale revision), ``once``'s key is looked for: a write with
    the key made before it (by another process) is replayed, not refused."""
    game = cached_game(game_id) if first else None
    if game is None or (based_on is not None and based_on > game.revision):
        game = load_game(game_id)
    if game is None:
        raise no_game(game_id)
    if key is not None and not secrets.compare_digest(key.encode("utf-8", "replace"), game.edit_key.encode()) \
            and not _organises(game, key):
        stop_if_kept(once)
        raise KeyReplaced(replaced_at(game_id, key) or stamp_now())
    if based_on is not None and based_on != game.revision:
        stop_if_kept(once)
    refuse_if_stale(game.id, based_on, game.revision)
    return game


def _organises(game: GameRecord, key: str) -> bool:
    """Whether ``key`` is the organiser's key of the club night the game is a table of."""
    organiser = organiser_key_of(game.id) if game.event_id is not None else None
    return organiser is not None and secrets.compare_digest(key.encode("utf-8", "replace"), organiser.encode())


def _totals(verdict: Verdict | None) -> str | None:
    return json.dumps(verdict.breakdown.totals()) if verdict else None


T = TypeVar("T")


class _Moved(Exception):
    """The game moved on between preparing a write and taking the write lock."""


class _Unchanged(Generic[T]):
    """What ``prepare`` returns for a write that would change nothing: its ``result``."""

    def __init__(self, result: T) -> None:
        self.result = result


def _write(game_id: str, based_on: int | None,
           prepare: Callable[[GameRecord], Callable[[str], tuple[T, list[DealRecord], int]] | _Unchanged[T]],
           once: Once[T] | None = None, key: str | None = None, kind: Kind = Kind.DEAL_RECORDED) -> T:
    """One write to a game, in two steps. ``prepare(game)`` reads and judges the request
    against the game as read, outside the write lock (it may raise: nothing is written),
    and returns ``apply``, or :class:`_Unchanged` when the write would change nothing (then
    nothing is written, the revision stays, and its result is the answer). Inside the write
    transaction, the game's revision moves on by 1 only if it is still the one the write was
    prepared against; ``apply(now)`` then writes the change and its history entry, and
    returns (result, the game's deals after it, the number of the deal written).

    If another write came in between, a write based on a revision is refused as stale
    (:class:`Conflict`, with what changed), and any other is prepared again. The lock is
    held for a handful of statements and the commit. Once committed, the game as it now
    stands is cached, so the next read of it neither reads nor judges its deals again.

    With ``once``, the write is made once per its key (:func:`once`): the key is looked for
    before the write, and kept inside its transaction with what it made (a ``kind`` of write
    to the deal written, at the revision it made). A request with the key
    that another process made meanwhile (while this one waited for the write lock) moved the
    game's revision on, so it is found there (:func:`_moved`), or else when its key is kept.
    """
    first = True
    while True:
        game = fresh(game_id, based_on, once, key, first)
        first = False
        apply = prepare(game)
        if isinstance(apply, _Unchanged):
            return apply.result  # nothing written, so no key kept: sent again, it is judged again
        try:
            with db.transaction():
                now = stamp_now()
                if not db.run("game_touch_at", now, game_id, game.revision):
                    _moved(game_id, based_on, once)
                result, deals, number = apply(now)
                keep(once, Made(kind, game_id, number, game.revision + 1))
                check_size(game_id)
        except _Moved:
            continue
        remember(after_write(game, deals, number, now))
        return result


def _moved(game_id: str, based_on: int | None, once: Once[object] | None = None) -> None:
    """Inside a write's transaction, when the game has moved past the revision the write was
    prepared against: the key kept by the write that moved it (:func:`.stop_if_kept`; on PostgreSQL
    seen only now), or no game (:class:`NotFound`), or a stale write (:class:`Conflict`, when
    based on a revision), or else :class:`_Moved`, to prepare it again."""
    stop_if_kept(once)
    found = revision(game_id)
    if found is None:
        raise no_game(game_id)
    if based_on is not None:
        raise Conflict(based_on, found[0], changes_since(game_id, based_on))
    raise _Moved


def _history(game: GameRecord, number: int | None, action: str, now: str, before: str | None, after: str | None,
             old: Verdict | None, new: Verdict | None, reason: str | None) -> None:
    db.run("history_add", game.id, number, action, now, before, after, _totals(old), _totals(new), reason,
             game.revision + 1)


def record_deal(game_id: str, deal: Deal, as_played: str | None = None, based_on: int | None = None,
                once: Once[DealRecord] | None = None, repeat: bool = False, key: str | None = None,
                named: bool = True) -> DealRecord:
    """Validate and save a new deal, as the door read it (:func:`.checks.read_new_deal`): the
    deal it names (``named``: its ``deal``), else the game's next (read again when the next
    moved on, or the sheet was amended, meanwhile: :func:`.checks.as_game_reads_it`). A save
    is never moved to another number: when that deal is recorded already, it is
    :class:`AlreadyRecorded` (rather than the :class:`Conflict` of a stale revision, which it
    explains), with the deal as saved beside the one sent. A deal whose every side and ending
    equal the deal recorded just before it is :class:`SameAsPrevious`, unless ``repeat`` says
    the table played it again; one with violations and no reason, :class:`RuleViolations`. Made
    once per ``once``'s key (:func:`once`)."""

    def prepare(game: GameRecord) -> Callable[[str], tuple[DealRecord, list[DealRecord], int]]:
        if not named and game.next_number is None:
            raise game_over(game)
        deal_now = as_game_reads_it(game, deal, None if named else game.next_number)
        _not_recorded(game, deal_now, as_played)
        if game.next_number is None:
            raise game_over(game)
        if not repeat:
            not_repeated(game, deal_now)
        verdict = judge_for_game(game, deal_now, as_played)

        def apply(now: str) -> tuple[DealRecord, list[DealRecord], int]:
            saved = write_recorded(game, deal_now, verdict, as_played, now)
            return saved, [*game.deals, saved], deal_now.number
        return apply

    try:
        return _write(game_id, based_on, prepare, once, key)
    except Conflict as stale:
        if named:  # stale because another phone recorded this very deal: say that
            _recorded_meanwhile(game_id, deal, as_played)
        raise stale from None


def write_recorded(game: GameRecord, deal: Deal, verdict: Verdict, as_played: str | None, now: str,
                   entered_by: str | None = None) -> DealRecord:
    """Inside a write's transaction that moved ``game``'s revision on: new deal ``deal``
    (judged ``verdict``; its reason kept only when it has violations) and its ``record``
    history entry, which names the phones that entered its parts (``entered_by``, JSON) for
    a deal written from an open deal. A deal being entered part by part meanwhile is not
    written over (:class:`DealOpen`). Returns the deal as recorded."""
    body = json.dumps(deal.to_json(with_sheet=False))
    kept = as_played if not verdict.ok else None
    if not db.run("deal_insert", game.id, deal.number, body, kept):
        raise DealOpen(deal.number, len(db.query("open_parts", game.id, deal.number)))
    if entered_by is None:
        _history(game, deal.number, "record", now, None, body, None, verdict, kept)
    else:
        db.run("history_add_entered", game.id, deal.number, "record", now, None, body, None, _totals(verdict), kept,
               game.revision + 1, entered_by)
    earlier = game.history_counts.get(deal.number, 0)  # deleted, now recorded again
    return DealRecord(deal.number, deal, kept, earlier + 1, game.revision + 1, verdict, len(body))


def _not_recorded(game: GameRecord, deal: Deal, as_played: str | None) -> None:
    """A new deal whose number the game holds already is :class:`AlreadyRecorded`, carrying both."""
    found = game.deal(deal.number)
    if found is None:
        return
    entries = db.query("history_of_deal", game.id, deal.number)
    raise AlreadyRecorded(deal.number, game.revision, found.verdict, found.as_played,
                          entries[-1]["at"] if entries else None, game.rules.judge(deal), as_played)


def _recorded_meanwhile(game_id: str, deal: Deal, as_played: str | None) -> None:
    """After a stale write of a new deal that names its number: :class:`AlreadyRecorded` when
    that deal is recorded now (nothing, when the deal cannot be read or is not recorded)."""
    game = load_game(game_id)
    if game is None:
        return
    try:
        deal = as_game_reads_it(game, deal, None)
    except Invalid:
        return
    _not_recorded(game, deal, as_played)


def not_repeated(game: GameRecord, deal: Deal) -> None:
    """A new deal that ends just as the deal recorded before it (by number) did is :class:`SameAsPrevious`."""
    previous = max((d for d in game.deals if d.number < deal.number), key=lambda d: d.number, default=None)
    if previous is not None and deal.repeats(previous.deal):
        raise SameAsPrevious(deal.number, previous.number, game.rules.judge(deal))


def update_deal(game_id: str, number: int, deal: Deal, as_played: str | None = None,
                based_on: int | None = None, once: Once[DealRecord] | None = None,
                key: str | None = None) -> DealRecord:
    """Correct a recorded deal; the old and new versions go into its history. The same deal
    with the same as-played reason changes nothing: the stored deal, at the game's revision.
    Made once per ``once``'s key (:func:`once`). ``deal`` as the door read it
    (:func:`.checks.read_deal`), read again when the sheet was amended meanwhile."""

    def prepare(game: GameRecord) -> Callable[[str], tuple[DealRecord, list[DealRecord], int]] | _Unchanged[DealRecord]:
        old = game.deal(number)
        if old is None:
            raise NotFound("deal", f"deal {number} is not recorded")
        deal_now = as_game_reads_it(game, deal, number)
        verdict = judge_for_game(game, deal_now, as_played)
        before, after = json.dumps(old.deal.to_json(with_sheet=False)), json.dumps(deal_now.to_json(with_sheet=False))
        kept = as_played if not verdict.ok else None
        if (before, kept) == (after, old.as_played):
            return _Unchanged(dataclasses.replace(old, revision=game.revision))
        saved = DealRecord(number, deal_now, kept, old.history_size + 1, game.revision + 1, verdict, len(after))

        def apply(now: str) -> tuple[DealRecord, list[DealRecord], int]:
            db.run("deal_update", after, kept, game_id, number)
            _history(game, number, "edit", now, before, after, old.verdict, verdict, kept)
            return saved, [d for d in game.deals if d.number != number] + [saved], number
        return apply

    return _write(game_id, based_on, prepare, once, key, Kind.DEAL_CORRECTED)


def delete_deal(game_id: str, number: int, based_on: int | None = None, key: str | None = None) -> int:
    """Remove a deal; what it held stays in the history. Returns the game's new revision."""

    def prepare(game: GameRecord) -> Callable[[str], tuple[int, list[DealRecord], int]]:
        old = game.deal(number)
        if old is None:
            raise NotFound("deal", f"deal {number} is not recorded")
        before = json.dumps(old.deal.to_json(with_sheet=False))

        def apply(now: str) -> tuple[int, list[DealRecord], int]:
            db.run("deal_delete", game_id, number)
            _history(game, number, "delete", now, before, None, old.verdict, None, None)
            return game.revision + 1, [d for d in game.deals if d.number != number], number
        return apply

    return _write(game_id, based_on, prepare, key=key)


def amend_sheet(game_id: str, sheet: RuleSheet, reason: str, based_on: int | None = None,
                key: str | None = None) -> GameRecord:
    """Change the game's frozen sheet: an explicit act, kept in the game's history. The door
    reads the reason (:func:`.checks.read_amend_reason`), then the sheet (:func:`.checks.read_sheet`)."""
    first = True
    while True:
        game = fresh(game_id, based_on, key=key, first=first)
        first = False
        read_sides(game.sides, sheet)  # the table must still fit the new sheet
        before, after = _stored(game.sheet), _stored(sheet)
        try:
            with db.transaction():
                now = stamp_now()
                if not db.run("game_touch_at", now, game_id, game.revision):
                    _moved(game_id, based_on)
                db.run("game_set_sheet", after, game_id)
                if game.ended_at is not None and sheet.game_length is not GameLength.OPEN:
                    db.run("game_set_ended", None, game_id)  # the new sheet ends the game itself
                _history(game, None, "amend", now, before, after, None, None, reason)
                check_size(game_id)
        except _Moved:
            continue
        # Read it back only once committed: a record cached inside the transaction would
        # outlive a failed commit, and judging every deal again need not hold the write lock.
        return load_game(game_id)  # type: ignore[return-value]


def replace_edit_key(game_id: str, once: Once[GameRecord] | None = None, key: str | None = None) -> GameRecord:
    """Give the game a new edit key: the old one changes nothing from now on (its digest is
    kept, so :func:`replaced_at` can say when it was replaced), and a ``rekey`` entry goes
    into the history (without either key). Returns the game with its new key. Made once per
    ``once``'s key (:func:`once`). Every key kept before it for the game (its writes,
    earlier replacements, the request that created or imported it) is forgotten: each was
    made under a key that no longer works, so sent again, it is a new request (refused for
    the replaced key; a create makes a new game). With ``key``, the key the door allowed it
    with (:func:`_fresh`)."""
    first = True
    while True:
        game = fresh(game_id, None, once, key, first)
        first = False
        new_key = new_id()
        try:
            with db.transaction():
                now = stamp_now()
                if not db.run("game_touch_at", now, game_id, game.revision):
                    _moved(game_id, None, once)
                db.run("game_set_edit_key", new_key, game_id)
                db.run("edit_key_replaced", game_id, key_digest(game.edit_key), now)
                _history(game, None, "rekey", now, None, None, None, None, None)
                record = dataclasses.replace(game, edit_key=new_key, revision=game.revision + 1, updated_at=now)
                # Every key kept for the game's earlier writes and the one of the request that made
                # it were sent under an edit key that no longer works: none is replayed from now on.
                db.run("idempotency_forget_game", game_id)
                keep(once, Made(Kind.EDIT_KEY_REPLACED, game_id, None, record.revision))
                check_size(game_id)
        except _Moved:
            continue
        remember(record)  # once committed; the deals are the game's as read, so nothing is judged again
        return record



def end_game(game_id: str, based_on: int | None = None, once: Once[GameRecord] | None = None,
             key: str | None = None) -> GameRecord:
    """The table ends the game here: on an open sheet (``game_length`` ``open``, a game played
    to the clock) the game is over only so. An ``end`` entry goes into the history, with the
    totals it ended on; from then on its result names the winner or a tie, and a new deal is
    refused until it is reopened (:func:`reopen_game`). Refused (:class:`Full`) on a sheet
    that ends the game itself, and before any deal is recorded; a game ended already is left
    as it is (nothing written). Made once per ``once``'s key (:func:`once`)."""
    return _set_ended(game_id, True, based_on, once, key)


def reopen_game(game_id: str, based_on: int | None = None, once: Once[GameRecord] | None = None,
                key: str | None = None) -> GameRecord:
    """Undo :func:`end_game`: the game goes on, its result says who leads again, and the next
    deal may be recorded; a ``reopen`` entry goes into the history. A game not ended is left
    as it is; refused on a sheet that ends the game itself, as ending is."""
    return _set_ended(game_id, False, based_on, once, key)


def _set_ended(game_id: str, ending: bool, based_on: int | None, once: Once[GameRecord] | None,
               key: str | None) -> GameRecord:
    first = True
    while True:
        game = fresh(game_id, based_on, once, key, first)
        first = False
        sheet = game.sheet
        if sheet.game_length is not GameLength.OPEN:
            raise Full("game_length", f"this game ends by its sheet ({sheet.describe('game_length')}): only a game "
                       "its table ends (game length 'open') is ended or reopened by hand")
        if (game.ended_at is not None) == ending:
            return game  # ended (or going on) already: nothing to write
        if ending and not game.deals:
            raise Full("game", "no deal is recorded yet, so there is nothing to end: record a deal first")
        try:
            with db.transaction():
                now = stamp_now()
                if not db.run("game_touch_at", now, game_id, game.revision):
                    _moved(game_id, based_on, once)
                ended_at = now if ending else None
                db.run("game_set_ended", ended_at, game_id)
                db.run("history_add", game.id, None, "end" if ending else "reopen", now, None, None, None,
                       json.dumps(game.rules.totals()), None, game.revision + 1)
                rules = Game(sheet, game.side_names, game.rules.deals, tuple(d.found for d in game.deals),
                             ended=ending)
                record = dataclasses.replace(game, revision=game.revision + 1, updated_at=now, rules=rules,
                                             deals=judged_in(rules, game.deals), ended_at=ended_at)
                keep(once, Made(Kind.GAME_ENDED if ending else Kind.GAME_REOPENED, game_id, None, record.revision))
                check_size(game_id)
        except _Moved:
            continue
        remember(record)  # once committed; the deals are the game's as read, so nothing is judged again
        return record


EDITOR, RETENTION = "editor", "retention"  # why a game was deleted (errors.DELETED_BY words them)


def delete_game(game_id: str, based_on: int | None = None, key: str | None = None) -> str:
    """Delete the game for its editor: its deals, its history, the keys kept for its
    writes and the one of the request that created it, and everything the cache holds of it.
    Its id is kept as deleted, so its links answer :class:`Gone`. A write like the others:
    one based on a revision the game has moved past is refused (:class:`Conflict`). Returns
    when it was deleted; logged."""
    first = True
    while True:
        game = fresh(game_id, based_on, key=key, first=first)
        first = False
        if game.event_id is not None:
            raise Invalid("", "this game is a table of a club night: it is deleted only with its event, by its "
                          "organiser")
        try:
            with db.transaction():
                now = stamp_now()
                if not db.run("game_delete_at", game_id, game.revision):
                    _moved(game_id, based_on)
                _remove(game_id, now, EDITOR)
        except _Moved:
            continue
        db.current().cache.discard_games(db.path(), {game_id})
        log.warning("game %s (%r) deleted by its editor at revision %d, with %d deals", game_id, game.name,
                    game.revision, len(game.deals))
        return now


def _remove(game_id: str, now: str, why: str) -> None:
    """Inside the transaction that deleted the game's row: the keys kept about it, and its
    id kept as deleted (its deals, history and replaced keys went with the row: ON DELETE CASCADE)."""
    db.run("idempotency_forget_game", game_id)
    db.run("deleted_insert", game_id, now, why)


def purge(moment: datetime, dry_run: bool = False) -> list[Unchanged]:
    """Remove every game not changed since ``moment`` (the setting RETAIN_DAYS, by ``flask
    purge``), as :func:`delete_game` does, each in a transaction of its own that removes it
    only if it has still not changed (a write meanwhile keeps it); the games removed, oldest
    first. With ``dry_run``, the games it would remove, removing none."""
    found = unchanged_since(moment)
    if dry_run:
        return found
    removed = []
    for game in found:
        with db.transaction():
            now = stamp_now()
            if db.run("game_delete_unchanged", game.id, stamp(moment)):
                _remove(game.id, now, RETENTION)
                removed.append(game)
    db.current().cache.discard_games(db.path(), {game.id for game in removed})
    if removed:
        log.warning("purge: %d games not changed since %s removed", len(removed), stamp(moment))
    return removed
