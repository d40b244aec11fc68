"""What the deal form holds for each side, each of its meld rows and each player, as typed
(:class:`SideBlock`, :class:`MeldRow`, :class:`PlayerBlock`), with the problems placed on
each; read by the form (:mod:`.deal`) and what it shows beside its boxes (:mod:`.deal_shown`).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class MeldRow:
    index: int
    rank: str = ""
    naturals: str = ""
    twos: str = ""
    jokers: str = ""
    cards: str = ""
    problems: list[str] = field(default_factory=list)

    @property
    def blank(self) -> bool:
        return not (self.cards or any(count_or_zero(v) for v in (self.naturals, self.twos, self.jokers)))


@dataclass
class PlayerBlock:
    side: int
    index: int
    name: str
    picked: bool = True
    counts: dict[str, str] = field(default_factory=dict)
    left: str = ""
    foot: str = ""
    cut: bool = False
    unplayed: bool = False  # picked up the foot but played nothing from it (foot_played false)
    knee_picked: bool = True  # in a deal with a knee: picked up the knee
    knee: str = ""  # the unopened knee's cards
    points: str = ""  # a counted side's player: points left in hand
    red_left: str = ""  # and red threes still held
    opening: str = ""  # first melds as card strings split by ";", where each player meets the minimum
    pile_top: str = ""  # the pile's top card among them, or ""
    problems: dict[str, list[str]] = field(default_factory=dict)

    @property
    def key(self) -> str:
        return f"s{self.side}-p{self.index}"

    def problems_at(self, *keys: str) -> list[str]:
        return [m for k in keys for m in self.problems.get(k, [])]


@dataclass
class SideBlock:
    index: int
    name: str
    rows: list[MeldRow]
    players: list[PlayerBlock]
    red_threes: str = ""
    failed_takes: str = ""  # failed takes of the pile, where the sheet charges for them
    itemised: bool = False  # False: counted (books, meld_points, points left)
    books: dict[str, str] = field(default_factory=dict)  # clean, dirty, wild, special ranks, d+rank, 3R/3B
    meld_points: str = ""
    opening: str = ""  # the side's first melds as card strings split by ";"
    pile_top: str = ""  # the pile's top card among them, or ""
    problems: dict[str, list[str]] = field(default_factory=dict)
    row_of_meld: list[int] = field(default_factory=list)  # canonical meld index -> row index

    def problems_at(self, *keys: str) -> list[str]:
        return [m for k in keys for m in self.problems.get(k, [])]


CARD_LABELS = {"JK": "Jokers", "2": "2s", "3B": "Black 3s", "3R": "Red 3s", "A": "Aces", "K": "Kings",
               "Q": "Queens", "J": "Jacks"}


def card_label(code: str) -> str:
    return CARD_LABELS.get(code, f"{code}s")


def rows_per_side(sides: int) -> int:
    """Blank meld rows a side starts with: eight for two sides, fewer for more (the page stays
    small; "More meld rows" adds some)."""
    return max(3, min(8, 18 // max(sides, 1)))


def count_or_zero(text: str) -> bool:
    """True when a count box holds anything but blank or zero."""
    return bool(text.strip()) and text.strip() not in ("0", "-0")
