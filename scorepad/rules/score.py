"""Scoring a deal, line by line, each line with the sheet option behind it.

Every sheet scores a deal the same way: a side adds the points of every card in its melds,
its book bonuses, its red-three bonus and, if one of its players went out, the going-out
bonus; then it subtracts every card still in its players' hands and unopened feet and any
red-three penalty. :func:`score` does exactly that and nothing else: it scores what was
recorded even when the referee would object (see :mod:`scorepad.rules.validate`). The kinds
of line, what each counts and the option that prices it, are one table in :mod:`.lines`.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import NamedTuple

from .deal import Deal, Side
from .lines import Line, Plan, plan
from .read import JSON
from .tally import Tally


class SideScore(NamedTuple):
    name: str
    lines: tuple[Line, ...]
    total: int

    def to_json(self) -> dict[str, JSON]:
        return {"name": self.name, "total": self.total, "lines": [line.to_json() for line in self.lines]}


class Breakdown(NamedTuple):
    """The deal's score, one :class:`SideScore` per side in the deal's order."""

    sides: tuple[SideScore, ...]

    def totals(self) -> dict[str, int]:
        return {side.name: side.total for side in self.sides}


def score(deal: Deal, tallies: Sequence[Tally] | None = None) -> Breakdown:
    """Each side's score for the deal, itemised; ``tallies``: each side's :class:`~.tally.Tally`
    where already counted (:func:`~.verdict.judge` counts them once for validation and scoring).

    >>> from scorepad.rules.deal import Deal
    >>> deal = Deal.from_json({"sheet": "common", "deal": 1, "ending": "went_out", "went_out": "Ann",
    ...   "sides": [{"name": "Ann", "melds": ["K K K K K K K", "Q Q Q Q Q 2 2"],
    ...              "players": [{"name": "Ann", "foot_picked_up": True}]},
    ...             {"name": "Bea", "melds": ["J J J"], "players": [{"name": "Bea",
    ...              "foot_picked_up": True, "cards_left": "A 3B"}]}]})
    >>> [(line.label, line.points) for line in score(deal).sides[0].lines]
    [('Melded kings', 70), ('Melded queens', 50), ('Melded 2s', 40), ('Clean books', 500), ('Dirty books', 300), ('Going out', 100)]
    >>> score(deal).totals()
    {'Ann': 1060, 'Bea': 5}
    """  # noqa: E501 (a doctest's expected output is one line)
    steps = plan(deal.sheet, deal.number)
    if tallies is None:
        tallies = [Tally.of(deal, side) for side in deal.sides]
    return tuple.__new__(Breakdown, (tuple([_score_side(side, tally, steps)  # made as a tuple: a call less
                                            for side, tally in zip(deal.sides, tallies, strict=True)]),))


def _score_side(side: Side, tally: Tally, steps: Plan) -> SideScore:
    """One side's lines, in the order of :data:`.lines.SCORE_LINES`: its own, then each player's
    (the plan's steps for the player's kind of hand and foot: no step that could only find nothing)."""
    lines: list[Line] = []
    new = tuple.__new__  # a Line made as a tuple: Line(...) costs a call more
    for code, label, option, counter, each, scored_to, items in steps.side:
        if items is not None:
            items(lines, tally)
        elif counter is not None and (n := counter(tally)):
            lines.append(new(Line, (code, label, n, each, n * each, option,
                                    None if scored_to is None else scored_to(tally))))
    for player in side.players:
        if player.cards_left_points is None:
            own = steps.listed_picked_up if player.foot_picked_up else steps.listed
        else:
            own = steps.picked_up if player.foot_picked_up else steps.player
        name = player.name
        for code, label, option, player_counter, each, player_items in own:
            if player_items is not None:
                player_items(lines, tally, player)
            elif player_counter is not None and (n := player_counter(tally, player)):
                lines.append(new(Line, (code, label.format(player=name), n, each, n * each, option, name)))
    return new(SideScore, (side.name, tuple(lines), sum(map(_POINTS, lines))))


_POINTS = itemgetter(4)  # a Line's points, its fifth field (read by place: less than by name)
