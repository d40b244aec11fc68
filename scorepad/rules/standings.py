"""An event's standings, per round and overall, from each table's game as it stands.

Every entrant (a player of a progressive event, a partnership of a partners one) scores, at
each table it plays, its side's total there; the side alone on the highest total of a finished
table wins it, every other side of it loses, and sides sharing the highest total tie (neither a
win nor a loss). A table still playing adds its points so far (the standings are live) and
no win or loss until it is finished. An entrant sitting a round out (a bye) scores the
average of that round's winning totals, rounded to the nearest point (halves up), or the
plan's fixed ``bye_score``; a bye is neither a win nor a loss. The standings rank by the
plan's ranking (:attr:`~.club_night.EventPlan.tie_break` says it in words): entrants equal on both
keys share a place, listed by name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .club_night import EventPlan, Ranking
from .read import JSON


@dataclass(frozen=True, slots=True)
class TablePlay:
    """One table of a round as its game stands: who plays each side and each side's total."""

    table: int
    sides: tuple[tuple[str, ...], ...]  # each side's entrants (its two players, or its partnership)
    totals: tuple[int, ...]  # each side's total so far, in the same order
    finished: bool  # the game is over, or the organiser closed the table as played

    @property
    def winners(self) -> tuple[int, ...]:
        """The places of the sides on the highest total (one: it won; several: they tied)."""
        if not self.finished or not self.totals:
            return ()
        best = max(self.totals)
        return tuple(i for i, total in enumerate(self.totals) if total == best)


@dataclass(frozen=True, slots=True)
class RoundPlay:
    number: int
    tables: tuple[TablePlay, ...]
    byes: tuple[str, ...]

    @property
    def finished(self) -> bool:
        return all(table.finished for table in self.tables)

    def winners_average(self) -> int:
        """The average total of the round's winning sides (finished tables won outright), to the
        nearest point, halves up; 0 while no table has a winner."""
        totals = [table.totals[table.winners[0]] for table in self.tables if len(table.winners) == 1]
        if not totals:
            return 0
        return (2 * sum(totals) + len(totals)) // (2 * len(totals))


@dataclass(frozen=True, slots=True)
class Standing:
    place: int
    name: str
    played: int  # tables played (finished or still playing)
    wins: int
    losses: int
    ties: int
    byes: int
    points: int  # the totals of its tables, and its byes' points

    def to_json(self) -> dict[str, JSON]:
        return {"place": self.place, "name": self.name, "played": self.played, "wins": self.wins,
                "losses": self.losses, "ties": self.ties, "byes": self.byes, "points": self.points}


def bye_points(plan: EventPlan, played: RoundPlay) -> int:
    """What a bye of this round scores."""
    return played.winners_average() if plan.bye_points is None else plan.bye_points


def standings(plan: EventPlan, entrants: Sequence[str], rounds: Sequence[RoundPlay]) -> list[Standing]:
    """The standings over ``rounds`` (one round's alone, or every round's), ranked."""
    rows = {name: [0, 0, 0, 0, 0, 0] for name in entrants}  # played, wins, losses, ties, byes, points
    for played in rounds:
        for table in played.tables:
            winners = table.winners
            for i, side in enumerate(table.sides):
                for name in side:
                    row = rows.setdefault(name, [0, 0, 0, 0, 0, 0])
                    row[0] += 1
                    row[5] += table.totals[i] if i < len(table.totals) else 0
                    if table.finished:
                        row[1 if winners == (i,) else 3 if i in winners else 2] += 1
        bye = bye_points(plan, played)
        for name in played.byes:
            row = rows.setdefault(name, [0, 0, 0, 0, 0, 0])
            row[4] += 1
            row[5] += bye

    def rank(row: list[int]) -> tuple[int, int]:
        return (row[1], row[5]) if plan.ranking is Ranking.WINS else (row[5], row[1])

    ordered = sorted(rows.items(), key=lambda item: (tuple(-k for k in rank(item[1])), item[0].casefold()))
    out: list[Standing] = []
    for n, (name, row) in enumerate(ordered):
        place = out[-1].place if out and rank(rows[out[-1].name]) == rank(row) else n + 1
        out.append(Standing(place, name, *row))
    return out
