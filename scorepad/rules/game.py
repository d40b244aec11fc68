"""A game: ordered deals under one sheet, running totals, and the result.

A game is over after the sheet's number of deals, or, on a sheet played to a target, as
soon as a side's running total reaches the target. The highest total wins; equal top
totals are a tie.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Mapping, NamedTuple

from .deal import MAX_NAME, MAX_SIDES, Deal
from .errors import ReadError
from .sheet import GameLength, RuleSheet, load_sheet
from .text import check_text
from .validate import MAX_DEALS_TO_TARGET, Problem
from .verdict import Verdict, judge


class Standing(NamedTuple):
    name: str
    total: int


class Result(NamedTuple):
    """Where a game stands: totals (highest first), whether it is over, and who won."""

    standings: tuple[Standing, ...]
    over: bool
    winner: str | None  # None while the game goes on, and on a tie
    tie: bool

    def to_json(self) -> dict:
        return {"standings": [s._asdict() for s in self.standings], "over": self.over,
                "winner": self.winner, "tie": self.tie}


@dataclass(frozen=True)
class Game:
    """A game's sheet, its sides (in seat order) and the deals recorded so far.

    >>> from scorepad.rules.sheet import preset
    >>> game = Game(preset("common"), ("Ann", "Bea"))
    >>> game.next_deal, game.result().over
    (1, False)
    """

    sheet: RuleSheet
    sides: tuple[str, ...]
    deals: tuple[Deal, ...] = ()
    # The deals' verdicts when the caller has judged them already; used only for these very deals.
    judged: tuple[Verdict, ...] | None = field(default=None, compare=False, repr=False)

    @classmethod
    def from_json(cls, data: Any) -> "Game":
        """A game file: ``{"sheet": ..., "deals": [deal, ...]}``; deals carry no sheet of their own.

        A deal without a ``deal`` number takes its place in the list.
        """
        if not isinstance(data, Mapping):
            raise ReadError("", "a game must be a JSON object with 'sheet' and 'deals'")
        for key in data:
            if key not in ("sheet", "sides", "deals"):
                raise ReadError(str(key), "is not a field of a game; expected sheet, sides, deals")
        if "sheet" not in data:
            raise ReadError("sheet", "is missing: a preset id such as 'pagat', or a sheet object")
        sheet = load_sheet(data["sheet"], "sheet")
        raw = data.get("deals", [])
        if not isinstance(raw, list):
            raise ReadError("deals", "must be a list of deals")
        if len(raw) > MAX_DEALS_TO_TARGET:
            raise ReadError("deals", f"lists {len(raw):,} deals; a game has at most {MAX_DEALS_TO_TARGET}")
        deals = []
        for i, item in enumerate(raw):
            try:
                deals.append(Deal.from_json(item, sheet, number=i + 1))
            except ReadError as err:
                raise err.within(f"deals[{i}]") from None
        sides = data.get("sides")
        if sides is None:
            names = tuple(side.name for side in deals[0].sides) if deals else ()
        elif isinstance(sides, list) and len(sides) <= MAX_SIDES \
                and all(isinstance(s, str) and s.strip() and len(s.strip()) <= MAX_NAME for s in sides):
            names = tuple(check_text(s.strip(), f"sides[{i}]") for i, s in enumerate(sides))
        else:
            raise ReadError("sides", f"must be a list of at most {MAX_SIDES} side names, "
                            f"each at most {MAX_NAME} characters")
        return cls(sheet, names, tuple(deals))

    def to_json(self) -> dict:
        sheet = self.sheet.to_json() if self.sheet.changes() or not self.sheet.preset else self.sheet.preset
        return {"sheet": sheet, "sides": list(self.sides),
                "deals": [deal.to_json(with_sheet=False) for deal in self.deals]}

    def with_deal(self, deal: Deal) -> "Game":
        """This game with one more deal."""
        return Game(self.sheet, self.sides, self.deals + (deal,))

    # -- per deal ---------------------------------------------------------------------------

    @cached_property
    def verdicts(self) -> tuple[Verdict, ...]:
        """Each deal's report and score, in order."""
        judged = self.judged
        if judged is not None and len(judged) == len(self.deals) \
                and all(v.deal is d for v, d in zip(judged, self.deals)):
            return judged  # verdicts of these very deals (a copy with other deals judges its own)
        return tuple(judge(deal) for deal in self.deals)

    @cached_property
    def _running(self) -> tuple[dict[str, int], ...]:
        totals = {name: 0 for name in self.sides}
        out = []
        for verdict in self.verdicts:
            for side in verdict.breakdown.sides:
                if side.name in totals:
                    totals[side.name] += side.total
            out.append(dict(totals))
        return tuple(out)

    def running_totals(self) -> list[dict[str, int]]:
        """After each deal, every side's total so far.

        Sides missing from a deal score 0 in it (the game's problems say so).
        """
        return [dict(totals) for totals in self._running]

    def totals(self) -> dict[str, int]:
        running = self.running_totals()
        return running[-1] if running else {name: 0 for name in self.sides}

    # -- queries the pages show before each deal ------------------------------------------------

    @property
    def next_deal(self) -> int | None:
        """The number of the next deal to play, or None when the game is over."""
        return None if self.result().over else len(self.deals) + 1

    def opening_minimum(self, side: str, deal: int | None = None) -> int:
        """The opening minimum for ``side`` in ``deal`` (default: the next deal).

        On a sheet whose minimum follows the running total, it is the side's total before the deal.
        """
        deal = deal or len(self.deals) + 1
        running = self.running_totals()
        before = running[deal - 2].get(side, 0) if 2 <= deal <= len(running) + 1 else 0
        return self.sheet.opening_minimum(deal, before)

    # -- the result ------------------------------------------------------------------------------

    def _ended_with(self) -> int | None:
        """The number of the deal that ended the game, or None while it goes on.

        On a sheet played to a target, the first deal after which a side's running total
        reached the target: a later deal that takes the total back below it does not
        reopen the game.
        """
        sheet = self.sheet
        if sheet.game_length is GameLength.DEALS:
            return sheet.deals if len(self.deals) >= sheet.deals else None
        for n, running in enumerate(self.running_totals(), 1):
            if any(t >= sheet.target_score for t in running.values()):
                return n
        return None

    def result(self) -> Result:
        """The result as it stood when the game ended: deals recorded after the last one
        (reported by :meth:`problems`) do not change who won."""
        return self._result

    @cached_property
    def _result(self) -> Result:
        end = self._ended_with()
        over = end is not None
        totals = self.running_totals()[end - 1] if end else self.totals()
        standings = tuple(sorted((Standing(n, t) for n, t in totals.items()), key=lambda s: -s.total))
        tie = over and len(standings) > 1 and standings[0].total == standings[1].total
        winner = standings[0].name if over and standings and not tie else None
        return Result(standings, over, winner, tie)

    def problems(self) -> list[Problem]:
        """What is wrong with the game as a whole (each deal's own problems are in its verdict)."""
        found: list[Problem] = []
        over_after = None
        running = self.running_totals()
        for i, deal in enumerate(self.deals):
            where = f"deals[{i}]"
            if deal.number != i + 1:
                found.append(Problem("game.deal_order", f"Deal {i + 1} of this game is numbered {deal.number}.",
                                     None, f"{where}.deal"))
            names = [side.name for side in deal.sides]
            if sorted(names) != sorted(self.sides):
                found.append(Problem("game.sides", f"Deal {i + 1} has sides {', '.join(names) or 'none'}; "
                                     f"the game has {', '.join(self.sides)}.", None, f"{where}.sides"))
            if over_after is not None:
                found.append(Problem("game.over", f"Deal {i + 1} was played after the game ended with deal "
                                     f"{over_after}.", "game_length", where))
            elif self.sheet.game_length is GameLength.TARGET and \
                    any(t >= self.sheet.target_score for t in running[i].values()):
                over_after = i + 1
        return found


__all__ = ["Game", "Result", "Standing"]
