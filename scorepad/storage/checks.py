"""What a write to a game is given, read at the door and checked before anything is written:
the sheet and sides of a new game, a deal of this game (its sides and players), a name, a
reason (each door reads them into these values, once; the writes of :mod:`.writing` take
the values); and the referee's gate,
which refuses a deal with violations unless it is saved as played, with a reason
(:func:`refusal`), and never lets one stand that cannot be scored (:func:`never_as_played`).
Each refusal is a storage error naming the field (:mod:`.errors`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Protocol

from ..rules import Deal, ReadError, RuleSheet, judge, load_sheet
from ..rules.limits import MAX_NAME, MAX_PER_SIDE, MAX_REASON, MAX_SIDES, MIN_SIDES
from ..rules.problems import Problem
from ..rules.text import read_name, read_reason
from ..rules.verdict import Verdict
from .errors import Conflict, Full, Invalid, NotFound, RuleViolations
from .reading import GameRecord, GameSide, changes_since, revision

# Problems no reason lets stand, so a deal with one is never saved "as played": the deal is
# not one of this game's (its number; with ``game.*``, its sides and players), or it cannot
# be scored (a count below zero; two sides or players of one name, a side of nobody, a table
# the sheet is not for, which a deal of this game's sides and players never has).
NEVER_AS_PLAYED = ("deal.number", "count.negative", "side.name", "side.players", "player.name",
                   "table.sides", "table.players")


def never_as_played(problem: Problem) -> bool:
    """Whether a deal with this problem can never be saved as played, whatever the reason."""
    return problem.code.startswith("game.") or problem.code in NEVER_AS_PLAYED




@contextmanager
def _invalid(field: str = "") -> Iterator[None]:
    """What the rules core cannot read, as a write is refused: :class:`Invalid` naming the
    field (``field`` when the core names none). The one place these readers turn a ReadError
    into storage's error, which every door already answers through its own table."""
    try:
        yield
    except ReadError as err:
        raise Invalid(err.field or field, err.reason) from None


def read_sheet(data: object, field: str = "sheet") -> RuleSheet:
    """A sheet as sent (a preset id, or a sheet object)."""
    with _invalid(field):
        return load_sheet(data)


def read_sides(data: object, sheet: RuleSheet) -> list[GameSide]:
    """Sides as ``[{"name", "players": [names]}]``, checked against the sheet's table."""
    if not isinstance(data, list) or not MIN_SIDES <= len(data) <= MAX_SIDES:
        raise Invalid("sides", f"give from {MIN_SIDES} to {MAX_SIDES} sides")
    sides: list[GameSide] = []
    side_names: set[str] = set()
    player_names: set[str] = set()
    for i, side in enumerate(data):
        if not isinstance(side, dict):
            raise Invalid(f"sides[{i}]", 'must be an object such as {"name": "Us", "players": ["Ann"]}')
        name = read_game_name(side.get("name"), f"sides[{i}].name")
        if name.casefold() in side_names:
            raise Invalid(f"sides[{i}].name", f"two sides are called {name!r}")
        side_names.add(name.casefold())
        players = side.get("players")
        if not isinstance(players, list) or not players:
            raise Invalid(f"sides[{i}].players", "list the side's players, in seat order")
        if len(players) > MAX_PER_SIDE:
            raise Invalid(f"sides[{i}].players", f"lists {len(players)} players; a side has at most "
                             f"{MAX_PER_SIDE}")
        names = [read_game_name(p, f"sides[{i}].players[{j}]") for j, p in enumerate(players)]
        for j, player in enumerate(names):
            if player.casefold() in player_names:
                raise Invalid(f"sides[{i}].players[{j}]", f"two players are called {player!r}")
            player_names.add(player.casefold())
        sides.append({"name": name, "players": names})
    players = sum(len(s["players"]) for s in sides)
    if not sheet.min_players <= players <= sheet.max_players:
        raise Invalid("sides", f"this sheet is for {sheet.min_players} to {sheet.max_players} players, "
                         f"not {players}")
    sizes = {len(s["players"]) for s in sides}
    if len(sizes) > 1:
        raise Invalid("sides", "every side must have the same number of players")
    if sizes.pop() not in sheet.side_sizes:
        raise Invalid("sides", f"this sheet plays {sheet.describe('side_sizes')}")
    return sides


def read_game_name(value: object, where: str) -> str:
    with _invalid():
        return read_name(value, where, MAX_NAME)


def read_deal(game: GameRecord, data: object, number: int | None) -> Deal:
    """A deal for this game from its canonical JSON (without a sheet)."""
    if isinstance(data, dict) and "sheet" in data:
        raise Invalid("sheet", "a game's deals use the game's sheet; leave 'sheet' out")
    with _invalid("deal"):
        deal = Deal.from_json(data, game.sheet, number=number)
    if number is not None and deal.number != number:
        named = "number" if isinstance(data, dict) and "number" in data else "deal"
        raise Invalid(named, f"this is deal {number}, not {deal.number}")
    return deal


def names_its_number(data: object) -> bool:
    """Whether a new deal as sent names its number (``number``, or ``deal``, its old name): else
    it is the game's next."""
    return isinstance(data, dict) and ("number" in data or "deal" in data)


def refuse_if_stale(game_id: str, based_on: int | None, now: int) -> None:
    """A write based on a revision the game (at revision ``now``) has moved past is stale
    (:class:`Conflict`); one based on a revision the game has not reached cannot be read
    (:class:`Invalid`)."""
    if based_on is not None and based_on > now:
        raise Invalid("revision", f"is {based_on}, ahead of the game's revision {now}: send the "
                      "revision the game had when you loaded it")
    if based_on is not None and based_on != now:
        raise Conflict(based_on, now, changes_since(game_id, based_on))


@contextmanager
def stale_first(game_id: str, based_on: int | None) -> Iterator[None]:
    """Reading at the door what a write based on a revision was sent: when it cannot be read,
    or does not fit the game, and the game has moved past ``based_on``, the write is refused
    as stale, as the store refuses a stale write before reading anything of it. Only a
    request that fails to read costs the look at the revision."""
    try:
        yield
    except (Invalid, Full, NotFound):
        found = revision(game_id) if based_on is not None else None
        if found is not None:
            refuse_if_stale(game_id, based_on, found[0])
        raise


def game_over(game: GameRecord) -> Full:
    """The refusal of a new deal in a game that is over: one its table ended says to reopen it first."""
    if game.rules.table_ends and game.ended_at is not None:
        return Full("deal", "the table ended the game, so no deal can be added: reopen the game first to "
                    "record another deal")
    return Full("deal", "the game is over")


def read_new_deal(game: GameRecord, data: object) -> Deal:
    """A new deal for this game: the one ``data`` names (its ``deal``), else the game's next."""
    named = names_its_number(data)
    if not named and game.next_number is None:
        raise game_over(game)
    return read_deal(game, data, None if named else game.next_number)


def read_correction(game: GameRecord, data: object, number: int) -> Deal:
    """Deal ``number`` of this game corrected: there must be one to correct."""
    if game.deal(number) is None:
        raise NotFound("deal", f"deal {number} is not recorded")
    return read_deal(game, data, number)


def as_game_reads_it(game: GameRecord, deal: Deal, number: int | None) -> Deal:
    """``deal`` (read at the door against the game as it stood) as this game reads it now:
    read again when its sheet was amended since, or when ``number`` (the game's next, for a
    deal that names none) moved on; as it is otherwise."""
    if deal.sheet == game.sheet and (number is None or deal.number == number):
        return deal
    data = deal.to_json(with_sheet=False)
    if number is not None:
        del data["deal"]
    return read_deal(game, data, number)


def game_problems(game: Table, deal: Deal) -> list[Problem]:
    """What is wrong with this deal as part of this game: its sides and players."""
    found = []
    want = {s["name"]: s["players"] for s in game.sides}
    got = {s.name: [p.name for p in s.players] for s in deal.sides}
    if set(got) != set(want):
        found.append(Problem("game.sides", f"This game's sides are {', '.join(want)}; the deal has "
                             f"{', '.join(got) or 'none'}.", None, "sides"))
    else:
        for i, side in enumerate(deal.sides):
            if sorted(got[side.name]) != sorted(want[side.name]):
                found.append(Problem("game.players", f"{side.name}'s players are {', '.join(want[side.name])}.",
                                     None, f"sides[{i}].players", side.name))
    return found


class Table(Protocol):
    """What :func:`game_problems` and :func:`refusal` read of a game: its sides."""

    @property
    def sides(self) -> Sequence[GameSide]: ...


def rule_violations(game: Table, deal: Deal, verdict: Verdict | None = None) -> RuleViolations | None:
    """Why this game would refuse this deal sent without a reason (None: it would save it),
    judged by the referee unless ``verdict`` is given. ``game`` needs only its ``sides``."""
    verdict = judge(deal) if verdict is None else verdict
    problems = list(verdict.report.violations) + game_problems(game, deal)
    return RuleViolations(verdict, problems, [p for p in problems if never_as_played(p)]) if problems else None


def judge_for_game(game: GameRecord, deal: Deal, as_played: str | None) -> Verdict:
    verdict = game.rules.judge(deal)
    refused = rule_violations(game, deal, verdict)
    if refused is not None and not (as_played and refused.may_save_as_played):
        raise refused
    return verdict


def read_reason_field(value: object, field: str = "as_played.reason",
            ask: str = "say briefly why the deal stands as played") -> str | None:
    if value is None:
        return None
    with _invalid():
        return read_reason(value, field, MAX_REASON, ask)


def read_amend_reason(value: object) -> str:
    """Why the table changes the game's sheet: a reason is required."""
    reason = read_reason_field(value, "reason", "say why the table changed the sheet")
    if reason is None:
        raise Invalid("reason", "say why the table changed the sheet")
    return reason
