"""A game as every output shows it, computed once: :class:`GameView`.

The API, the ``flask game`` and ``scorepad game`` commands, the game page, the scores CSV,
the export and the results PDF all show the same things about a game: a row per recorded
deal (its number, each side's points in it, the running totals after it, whether it was
saved "as played" or breaks the sheet as it now stands), the totals, the result, the next
deal and the game's problems. :func:`view_of` works them out once from a
:class:`~scorepad.rules.game.Game` (and each deal's "as played" reason, which the store
keeps beside the deal), so the storage layer can keep one view per revision and each
output only words it. Pure: the view holds rules values, never a database row.

Rows follow the order the deals are recorded in, with their own numbers: after deal 2 of
1, 2, 3 is deleted the rows are deals 1 and 3, and the next deal is 2 (see
:meth:`Game.upcoming`), its minimum and books those of deal 2, its totals before it deal 1's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .choices import GameLength
from .deal import Deal
from .game import Game, NextDeal, Result, Standing
from .problems import Problem
from .read import JSON
from .sheet import RuleSheet
from .verdict import Verdict


@dataclass(frozen=True)
class DealRow:
    """One recorded deal in the score table.

    ``points`` and ``running`` name every side of the game, in seat order: a side missing
    from the deal scores 0 in it (the game's problems say so), and a side the game does not
    have is left out.
    """

    number: int
    deal: Deal
    points: dict[str, int]  # each side's points in this deal
    running: dict[str, int]  # each side's total after this deal (deals recorded up to here)
    as_played: str | None  # the table's reason, when the deal was saved as played
    game: Game = field(repr=False, compare=False)  # the game judging it, at ``place`` in its deals
    place: int

    @property
    def verdict(self) -> Verdict:
        """The deal's report and score, judged when first asked for (:meth:`Game.verdict`)."""
        return self.game.verdict(self.place)

    @property
    def ok(self) -> bool:
        """Whether the deal meets the sheet as it now stands."""
        return self.verdict.ok

    @property
    def breaks_sheet(self) -> bool:
        """A deal saved without a reason that breaks the sheet now: the sheet was amended after."""
        return self.as_played is None and not self.ok

    def to_json(self) -> dict[str, JSON]:
        return {"number": self.number, "points": dict(self.points), "running": dict(self.running),
                "as_played": self.as_played, "ok": self.ok}


@dataclass(frozen=True)
class GameView:
    """Everything the outputs show of one game, as it stands at one revision.

    ``totals`` are the totals after every recorded deal (the score table's last line);
    ``result.standings`` are the totals when the game ended, which differ only when a
    game played to a target has deals recorded after the one that ended it.
    """

    sheet: RuleSheet
    sides: tuple[str, ...]
    rows: tuple[DealRow, ...]
    totals: dict[str, int]
    result: Result
    next_deal: NextDeal | None  # None once the game is over
    problems: tuple[Problem, ...]  # the game's own; each deal's are in its row's verdict

    @property
    def ok(self) -> bool:
        """No problem with the game, and every deal meets the sheet (``scorepad game``'s exit code)."""
        return not self.problems and all(row.ok for row in self.rows)

    @property
    def numbers(self) -> tuple[int, ...]:
        return tuple(row.number for row in self.rows)

    @property
    def running_totals(self) -> tuple[dict[str, int], ...]:
        """Each row's running totals, in order (the chart's lines)."""
        return tuple(row.running for row in self.rows)

    @property
    def as_played(self) -> tuple[DealRow, ...]:
        """The rows saved as played, in order."""
        return tuple(row for row in self.rows if row.as_played is not None)

    @property
    def top(self) -> int:
        """The highest total in the result (0 for a game without sides)."""
        return self.result.standings[0].total if self.result.standings else 0

    @property
    def lead(self) -> int:
        """How far the top total in the result is ahead of the next one (0 on a tie at the top,
        and for a game with fewer than two sides)."""
        standings = self.result.standings
        return standings[0].total - standings[1].total if len(standings) > 1 else 0

    @property
    def tied(self) -> tuple[str, ...]:
        """The sides sharing the top total, in the result's order, when the game ended in a tie."""
        return tuple(s.name for s in self.result.standings if s.total == self.top) if self.result.tie else ()

    @property
    def fills_gap(self) -> bool:
        """Whether the next deal is a deleted one, recorded again before later deals: then
        its totals before it are not the game's totals."""
        return self.next_deal is not None and any(n > self.next_deal.number for n in self.numbers)

    @property
    def state(self) -> str:
        """Where the game stands in a few words: ``deal 3 of 4``, ``deal 5, playing to
        5,000``, ``deal 4, Ann leads; the table ends the game`` (an open sheet's), ``Ann
        wins`` or ``tie at 1,200``."""
        result = self.result
        if result.over:
            return f"tie at {self.top:,}" if result.tie else f"{result.winner} wins"
        number = self.next_deal.number if self.next_deal is not None else None
        last = self.sheet.last_deal()
        if last is not None:
            return f"deal {number} of {last}"
        if self.sheet.game_length is GameLength.OPEN:
            leads = f"{result.leader} leads" if result.leader and self.rows else "nobody leads"
            return f"deal {number}, {leads}; the table ends the game"
        return f"deal {number}, playing to {self.sheet.target_score:,}"

    def to_json(self) -> dict[str, JSON]:
        """The view in JSON: ``{"sides", "rows", "totals", "standings", "over", "winner",
        "tie", "next_deal", "problems", "ok", "state"}``."""
        return {"sides": list(self.sides), "rows": [row.to_json() for row in self.rows],
                "totals": dict(self.totals), **self.result.to_json(),
                "next_deal": None if self.next_deal is None else self.next_deal.to_json(),
                "problems": [p.to_json() for p in self.problems], "ok": self.ok, "state": self.state}


def view_of(game: Game, as_played: Sequence[str | None] = ()) -> GameView:
    """The view of ``game``; ``as_played`` gives each deal's reason in the game's order
    (None for a deal saved without one; missing at the end: none).

    >>> from scorepad.rules import preset
    >>> view = view_of(Game(preset("common"), ("Ann", "Bea")))
    >>> view.rows, view.totals, view.state, view.next_deal.number
    ((), {'Ann': 0, 'Bea': 0}, 'deal 1 of 4', 1)
    """
    if len(as_played) > len(game.deals):
        raise ValueError(f"{len(as_played)} reasons for {len(game.deals)} deals")
    reasons = list(as_played) + [None] * (len(game.deals) - len(as_played))
    running = game.running_totals()
    rows = []
    for place, (deal, breakdown, after, reason) in enumerate(zip(game.deals, game.scores, running, reasons,
                                                                 strict=True)):
        points = breakdown.totals()
        rows.append(DealRow(deal.number, deal, {name: points.get(name, 0) for name in game.sides},
                            {name: after.get(name, 0) for name in game.sides}, reason, game, place))
    totals = dict(running[-1]) if running else {name: 0 for name in game.sides}
    return GameView(game.sheet, game.sides, tuple(rows), totals, game.result(), game.upcoming(),
                    tuple(game.problems()))


__all__ = ["DealRow", "GameView", "NextDeal", "Result", "Standing", "view_of"]
