"""What the referee finds wrong with a deal, as values: a :class:`Problem` (a violation or a
warning, with a stable ``code``), an :class:`Unchecked` rule the deal gives nothing to
judge by, and the :class:`Report` of them all that :func:`~.validate.validate` returns.
"""

from __future__ import annotations

from typing import NamedTuple

from .read import JSON

VIOLATION_CODES = (
    "meld.rank", "meld.size", "meld.wild_ratio", "meld.duplicate_rank", "meld.books_per_rank", "supply",
    "foot.size", "foot.picked_up", "foot.played", "knee.size", "knee.picked_up", "went_out.books",
    "went_out.partner_foot", "went_out.cards_left",
    "went_out.player", "went_out.last_card", "went_out.permission", "opening.minimum", "opening.pile",
    "deal.number", "deal.ending", "table.players", "table.sides", "side.players",
    "side.name", "player.name", "count.negative", "cut_bonus", "counted.meld_points",
)
# What a deal may leave unsaid, so the referee cannot judge it: the rule each one is (its ``what``).
UNCHECKED = ("opening", "last_card", "permission")

WARNING_CODES = ("red_three.in_hand", "side.no_melds", "counted.unchecked")

class Problem(NamedTuple):
    """One thing wrong (or worth a look) with a deal."""

    code: str
    message: str
    option: str | None = None
    where: str = ""
    side: str | None = None
    player: str | None = None
    meld: int | None = None
    field: str | None = None  # the input it concerns: cards_left, foot, foot_picked_up, red_threes, went_out...

    def to_json(self) -> dict[str, JSON]:
        """Its JSON form, every key always there (``null`` when the problem names no such
        thing); ``field`` is left out (``where`` says it, as a path)."""
        return {"code": self.code, "message": self.message, "option": self.option, "where": self.where or None,
                "side": self.side, "player": self.player, "meld": self.meld}


class Unchecked(NamedTuple):
    """A rule of the sheet the deal gives the referee nothing to judge by: ``what`` is
    ``opening`` (a side's or player's first melds), ``last_card`` or ``permission``, and
    ``where`` the field that would tell it."""

    what: str
    option: str
    reason: str
    where: str
    side: str | None = None
    player: str | None = None

    def to_json(self) -> dict[str, JSON]:
        return {"what": self.what, "option": self.option, "reason": self.reason, "where": self.where,
                "side": self.side, "player": self.player}


class Report(NamedTuple):
    """Every violation and warning the referee found, and what it could not check."""

    violations: tuple[Problem, ...]
    warnings: tuple[Problem, ...]
    not_checked: tuple[Unchecked, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.violations

    def codes(self) -> list[str]:
        return [p.code for p in self.violations]
