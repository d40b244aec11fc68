"""Open deals (issue 24): a deal entered part by part, by whichever phones enter the parts.

Each side's part (its books and melded points or melds, red threes, each player's points
left and foot) and the ending are saved separately (:func:`save_side`, :func:`save_ending`),
each a transaction of its own, kept in the database (``open_part``) so a restart loses
nothing and two servers serve one table. A part can be changed until the deal is written;
one another phone entered is replaced only by a save naming the version it replaces
(:class:`PartEntered` otherwise: nothing is overwritten silently). On a game whose setting
``confirm`` is ``opponents`` a side's part is final only once a phone of another side
confirms it (:func:`confirm_part`); changing it clears the confirmation.

The save that completes the deal (every side's part and the ending in, and confirmed where
the game asks for it) judges the whole deal in the same transaction: a clean one (or one
the ending saves as played, with a reason) is written as :func:`.writing.record_deal` writes
a deal, with one history entry naming the phones that entered each part, and its parts go;
one with problems is not written, and the open deal carries why (:attr:`OpenDeal.refused`:
the referee's violations, or the same deal as the one before unless the ending says the
table played it again). A whole deal sent for a number that is open is refused
(:class:`.errors.DealOpen`).

Every save, confirmation and abandonment adds 1 to the game's open counter
(:func:`.reading.moved`), not to its revision. Each takes the game's row first
(``game_open_touch``), only at the revision the game was read at, so on PostgreSQL two parts
saved at once by two servers are saved one after the other, and the later sees the earlier
(whichever completes the deal writes it once).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from dataclasses import dataclass

from ..rules import ReadError
from ..rules.choices import Confirm
from ..rules.deal import Side
from ..rules.read import JSON
from . import db, writing
from .checks import game_over, rule_violations
from .errors import ConfirmRefused, Invalid, NotNext, PartEntered, RuleViolations, SameAsPrevious
from .idempotency import Kind, Made, Once, keep, stop_if_kept
from .parts import ENDING, EndingPart, OpenPart, read_ending_part, read_phone, read_side_part
from .reading import DealRecord, GameRecord, load_game, no_game, remember, revision, stamp_now


@dataclass(frozen=True)
class OpenDeal:
    """Deal ``number`` of the game as it is being entered: the ``parts`` saved so far (by
    name: a side's position, then the ending), the game's ``confirm`` setting, its
    ``side_names`` (in position order), the game's open ``counter``; ``refused``, when every
    part is in but the deal was not written: the referee's violations, or that it is the
    same as the deal before (:class:`SameAsPrevious`)."""

    game_id: str
    number: int
    confirm: Confirm
    side_names: tuple[str, ...]
    parts: tuple[OpenPart, ...]
    counter: int
    refused: RuleViolations | SameAsPrevious | None = None

    def part(self, name: str) -> OpenPart | None:
        return next((p for p in self.parts if p.part == name), None)

    @property
    def missing(self) -> tuple[str, ...]:
        """The parts not yet entered: sides' positions, then ``ending``."""
        names = [str(i) for i in range(1, len(self.side_names) + 1)] + [ENDING]
        return tuple(name for name in names if self.part(name) is None)

    @property
    def unconfirmed(self) -> tuple[str, ...]:
        """The sides' parts entered but waiting for another side's confirmation (none unless
        the game's setting is ``opponents``)."""
        if self.confirm is not Confirm.OPPONENTS:
            return ()
        return tuple(p.part for p in self.parts if p.side is not None and p.confirmed_by is None)

    @property
    def complete(self) -> bool:
        """Every part in (and confirmed, where the game asks for it): the deal can be judged whole."""
        return not self.missing and not self.unconfirmed


# -- reading a part at the door ---------------------------------------------------------------------


def _invalid(err: ReadError, field: str = "") -> Invalid:
    return Invalid(err.field or field, err.reason)


def read_side(game: GameRecord, position: int, data: object) -> Side:
    """Side ``position``'s part (1-based) as sent: the deal's side object for that side."""
    side_position(game, position)
    try:
        return read_side_part(data, game.side_names[position - 1])
    except ReadError as err:
        raise _invalid(err) from None


def read_ending(game: GameRecord, data: object) -> EndingPart:
    """The ending's part as sent (see :func:`.parts.read_ending_part`)."""
    try:
        return read_ending_part(data, game.sheet)
    except ReadError as err:
        raise _invalid(err) from None


def read_phone_label(value: object) -> str:
    """Whose phone sends a part or a confirmation: a label ("Dan's phone"), not a permission."""
    try:
        return read_phone(value)
    except ReadError as err:
        raise _invalid(err, "phone") from None


def side_position(game: GameRecord, position: int, field: str = "side") -> None:
    """Refuse a side's position that is not one of the game's (``field`` names it)."""
    if not 1 <= position <= len(game.sides):
        raise Invalid(field, f"must be a side's position in this game, from 1 to {len(game.sides)}, not {position}")


# -- reading the open deal ------------------------------------------------------------------------


def read_open(game_id: str, number: int | None = None) -> OpenDeal:
    """The game's open deal: its next deal, with the parts saved so far (none, if none is);
    judged when every part is in. ``number``, when given, must be the next deal's
    (:class:`NotNext` otherwise; the game over, :class:`.errors.Full`)."""
    game = load_game(game_id)
    if game is None:
        raise no_game(game_id)
    number = _next(game, number)
    with db.snapshot():
        rows = db.query("open_parts", game_id, number)
        counter = db.one("game_open_counter", game_id)
    opened = _opened(game, number, rows, int(counter["open_counter"]) if counter else 0)
    judged = _judged(game, opened) if opened.complete else opened
    return judged if isinstance(judged, OpenDeal) else opened  # clean and complete is written by its save


def _next(game: GameRecord, number: int | None) -> int:
    if number is not None and number == game.next_number:
        return number
    if number is not None and game.deal(number) is not None:
        raise NotNext(number, game.next_number, recorded=True)
    if game.next_number is None:
        raise game_over(game)
    if number is not None:
        raise NotNext(number, game.next_number, recorded=False)
    return game.next_number


def _opened(game: GameRecord, number: int, rows: list[db.Row], counter: int) -> OpenDeal:
    parts = [_part(row, game) for row in rows]
    parts.sort(key=lambda p: (p.position is None, p.position or 0))
    return OpenDeal(game.id, number, game.confirm, game.side_names, tuple(parts), counter)


def _part(row: db.Row, game: GameRecord) -> OpenPart:
    """A part as kept (its canonical JSON), read back."""
    data: JSON = json.loads(row["body"])
    name: str = row["part"]
    side = Side.from_json(data) if name != ENDING else None
    ending = read_ending_part(data, game.sheet) if side is None else None
    return OpenPart(name, side, ending, row["phone"], row["entered_at"], row["version"], row["confirmed_by"],
                    row["confirmed_at"])


# -- writing parts --------------------------------------------------------------------------------


class _Moved(Exception):
    """The game's revision moved on since it was read: read it again."""


Change = Callable[[GameRecord, dict[str, OpenPart], str], bool]  # does it; whether anything changed


def save_side(game_id: str, number: int, position: int, side: Side, phone: str, replaces: int | None = None,
              once: Once[object] | None = None, key: str | None = None) -> OpenDeal | DealRecord:
    """Save side ``position``'s part of deal ``number`` (the game's next), entered by ``phone``
    (read at the door: :func:`read_side`, :func:`read_phone_label`). A part another phone
    entered is replaced only when ``replaces`` names its version (:class:`PartEntered`
    otherwise); a phone replaces its own part without it. Returns the open deal, or the deal
    as recorded when this save completed it clean. Made once per ``once``'s key."""
    return _save(game_id, number, str(position), json.dumps(side.to_json()), phone, replaces, once, key)


def save_ending(game_id: str, number: int, ending: EndingPart, phone: str, replaces: int | None = None,
                once: Once[object] | None = None, key: str | None = None) -> OpenDeal | DealRecord:
    """Save the ending of deal ``number``, as :func:`save_side` saves a side's part."""
    return _save(game_id, number, ENDING, json.dumps(ending.to_json()), phone, replaces, once, key)


def _save(game_id: str, number: int, name: str, body: str, phone: str, replaces: int | None,
          once: Once[object] | None, key: str | None) -> OpenDeal | DealRecord:
    def change(game: GameRecord, parts: dict[str, OpenPart], now: str) -> bool:
        if name != ENDING:
            side_position(game, int(name))
        existing = parts.get(name)
        if existing is None:
            db.run("open_part_insert", game_id, number, name, body, phone, now, 1)
            return True
        if replaces is None and existing.phone.casefold() != phone.casefold() or \
                replaces is not None and replaces != existing.version:
            raise PartEntered(existing, replaces)
        if json.dumps(existing.body()) == body and existing.phone == phone:
            return False  # the part as it stands: nothing changes, its confirmation stays
        db.run("open_part_update", body, phone, now, game_id, number, name)
        return True
    return _change(game_id, number, change, once, key, Kind.PART_SAVED)


def confirm_part(game_id: str, number: int, position: int, phone: str, by_side: int, version: int,
                 once: Once[object] | None = None, key: str | None = None) -> OpenDeal | DealRecord:
    """Side ``position``'s part of deal ``number`` confirmed by ``phone``, a phone of side
    ``by_side``, having seen its ``version``: refused (:class:`ConfirmRefused`) by the part's
    own side or the phone that entered it, for a version that is no longer the part's, and on
    a game that asks for no confirmation. Returns the open deal, or the deal as recorded when
    this confirmation completed it clean."""

    def change(game: GameRecord, parts: dict[str, OpenPart], now: str) -> bool:
        side_position(game, position)
        side_position(game, by_side, "by_side")
        if game.confirm is not Confirm.OPPONENTS:
            raise ConfirmRefused("confirm", "this game asks for no confirmation: each side's part is final as "
                                 "entered")
        existing = parts.get(str(position))
        if existing is None:
            raise ConfirmRefused("part", f"side {position} has no part entered to confirm")
        if by_side == position:
            raise ConfirmRefused("side", "a side does not confirm its own part: a phone of another side does")
        if existing.phone.casefold() == phone.casefold():
            raise ConfirmRefused("phone", f"{phone} entered this part, so it cannot confirm it: a phone of "
                                 "another side does")
        if existing.version != version:
            raise ConfirmRefused("version", f"the part changed since you saw it (version {version}, now "
                                 f"{existing.version}): look at it again, then confirm it")
        if existing.confirmed_by is not None:
            return False
        db.run("open_part_confirm", phone, now, game_id, number, str(position), version)
        return True
    return _change(game_id, number, change, once, key, Kind.PART_CONFIRMED)


def abandon(game_id: str, number: int | None = None, key: str | None = None) -> int:
    """Abandon the game's open deal (deal ``number``, when given, must be the next): its parts
    go, and nothing is written of it. Returns how many parts there were."""
    removed = 0

    def change(game: GameRecord, parts: dict[str, OpenPart], now: str) -> bool:
        nonlocal removed
        removed = db.run("open_parts_delete_all", game_id)
        return removed > 0
    game = load_game(game_id)
    if game is None:
        raise no_game(game_id)
    _change(game_id, _next(game, number), change, None, key, Kind.PART_SAVED, judge=False)
    return removed


def _change(game_id: str, number: int, change: Change, once: Once[object] | None, key: str | None, kind: Kind,
            judge: bool = True) -> OpenDeal | DealRecord:
    """One change to the open deal, in a transaction of its own that first takes the game's
    row at the revision it was read at (else it is read again): ``change(game, parts, now)``,
    then, when the deal is complete, the whole deal judged, and written when it is clean."""
    first = True
    while True:
        game = writing.fresh(game_id, None, once, key, first)
        if first and number != game.next_number:  # this process's copy may be behind another server's writes
            game = writing.fresh(game_id, None, once, key)
        first = False
        _next(game, number)
        try:
            with db.transaction():
                now = stamp_now()
                if not db.run("game_open_touch", game_id, game.revision):
                    stop_if_kept(once)
                    if revision(game_id) is None:
                        raise no_game(game_id)
                    raise _Moved
                parts = {p.part: p for p in (_part(row, game) for row in db.query("open_parts", game_id, number))}
                change(game, parts, now)
                counter = db.one("game_open_counter", game_id)
                opened = _opened(game, number, db.query("open_parts", game_id, number),
                                 int(counter["open_counter"]) if counter else 0)
                result: OpenDeal | DealRecord = opened
                if judge and opened.complete:
                    result = _judged(game, opened)
                    if isinstance(result, DealRecord):
                        result = _write(game, opened, result, now)
                made = (Made(Kind.DEAL_RECORDED, game_id, number, game.revision + 1) if isinstance(result, DealRecord)
                        else Made(kind, game_id, number, game.revision))
                keep(once, made)
        except _Moved:
            continue
        if isinstance(result, DealRecord):
            remember(writing.after_write(game, [*game.deals, result], number, now))
        return result


def _judged(game: GameRecord, opened: OpenDeal) -> OpenDeal | DealRecord:
    """The whole deal of a complete open deal, judged: the open deal with why it is not
    written, or the record it would be written as (at the next revision)."""
    ending = opened.part(ENDING)
    assert ending is not None and ending.ending is not None
    sides = tuple(p.side for p in opened.parts if p.side is not None)
    deal = ending.ending.deal(game.sheet, opened.number, sides)
    said = ending.ending
    if not said.repeat:
        try:
            writing.not_repeated(game, deal)
        except SameAsPrevious as same:
            return dataclasses.replace(opened, refused=same)
    verdict = game.rules.judge(deal)
    refused = rule_violations(game, deal, verdict)
    if refused is not None and not (said.as_played and refused.may_save_as_played):
        return dataclasses.replace(opened, refused=refused)
    kept = said.as_played if not verdict.ok else None
    earlier = game.history_counts.get(opened.number, 0)
    return DealRecord(opened.number, deal, kept, earlier + 1, game.revision + 1, verdict)


def _write(game: GameRecord, opened: OpenDeal, record: DealRecord, now: str) -> DealRecord:
    """Inside the transaction of the change that completed ``opened``: the deal written as
    recorded, with a history entry naming who entered and confirmed each part, and its parts gone."""
    if not db.run("game_touch_at", now, game.id, game.revision):
        raise _Moved
    db.run("open_parts_delete", game.id, opened.number)
    entered_by = {p.part: {"phone": p.phone, "confirmed_by": p.confirmed_by} for p in opened.parts}
    ending = opened.part(ENDING)
    saved = writing.write_recorded(game, record.deal, record.verdict, ending.ending.as_played
                                   if ending and ending.ending else None, now, json.dumps(entered_by))
    writing.check_size(game.id)
    return saved
