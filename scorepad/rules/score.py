"""Scoring a deal, line by line, each line with the sheet option behind it.

Every sheet scores a deal the same way: a side adds the points of every card in its melds,
its book bonuses, its red-three bonus and, if one of its players went out, the going-out
bonus; then it subtracts every card still in its players' hands and unopened feet and any
red-three penalty. :func:`score` does exactly that and nothing else: it scores what was
recorded even when the referee would object (see :mod:`scorepad.rules.validate`).
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import CARDS, NATURALS, Card, Cards
from .deal import BookKind, Deal, Ending, Rank, Side
from .sheet import RuleSheet


class Line(NamedTuple):
    """One line of a side's score: ``count`` × ``each`` = ``points``."""

    code: str
    label: str
    count: int
    each: int
    points: int
    option: str
    player: str | None = None

    def to_json(self) -> dict:
        out = self._asdict()
        if self.player is None:
            del out["player"]
        return out


class SideScore(NamedTuple):
    name: str
    lines: tuple[Line, ...]
    total: int

    def to_json(self) -> dict:
        return {"name": self.name, "total": self.total, "lines": [line.to_json() for line in self.lines]}


class Breakdown(NamedTuple):
    """The deal's score, one :class:`SideScore` per side in the deal's order."""

    sides: tuple[SideScore, ...]

    def totals(self) -> dict[str, int]:
        return {side.name: side.total for side in self.sides}


_WILD_ORDER = (Card.JOKER, Card.TWO)


def score(deal: Deal) -> Breakdown:
    """Each side's score for the deal, itemised.

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
    """
    return Breakdown(tuple(_score_side(deal, side) for side in deal.sides))


def _score_side(deal: Deal, side: Side) -> SideScore:
    sheet = deal.sheet
    points = sheet.card_values.points
    lines: list[Line] = []
    # Melded cards, a line per rank, then 2s and jokers.
    melded = [0] * len(CARDS)
    index = _INDEX
    books = {BookKind.CLEAN: 0, BookKind.DIRTY: 0, BookKind.WILD: 0}
    special: dict[Card, int] = {}
    for meld in side.melds:
        if meld.rank is not Rank.WILD:
            melded[index[meld.rank.card]] += meld.naturals
        melded[_TWO] += meld.twos
        melded[_JOKER] += meld.jokers
        kind = meld.book_kind(sheet)
        if kind is BookKind.CLEAN and meld.rank is not Rank.THREE and sheet.special_bonus(meld.rank.card) is not None:
            special[meld.rank.card] = special.get(meld.rank.card, 0) + 1
        elif kind is not None:
            books[kind] += 1
    for card in (*NATURALS, Card.BLACK_THREE, Card.TWO, Card.JOKER):
        n = melded[index[card]]
        if n:
            each = points[index[card]]
            lines.append(Line("melds.cards", f"Melded {card.noun}", n, each, n * each, "card_values"))
    for kind, label, bonus, option in (
            (BookKind.CLEAN, "Clean books", sheet.clean_book_bonus, "clean_book_bonus"),
            (BookKind.DIRTY, "Dirty books", sheet.dirty_book_bonus, "dirty_book_bonus"),
            (BookKind.WILD, "Wild books", sheet.wild_book_bonus, "wild_book_bonus")):
        if books[kind]:
            lines.append(Line(f"books.{kind.value}", label, books[kind], bonus, books[kind] * bonus, option))
        if kind is BookKind.CLEAN:
            for card, n in special.items():
                bonus = sheet.special_bonus(card) or 0
                lines.append(Line("books.special", f"Clean books of {card.noun}", n, bonus, n * bonus,
                                  "special_books"))
    if side.red_threes:
        lines.append(Line("red_threes.laid", "Red threes laid", side.red_threes, sheet.red_three_bonus,
                          side.red_threes * sheet.red_three_bonus, "red_three_bonus"))
    out = _went_out(deal, side)
    if out is not None:
        bonus = sheet.going_out_bonus.at(deal.number)
        lines.append(Line("going_out", "Going out", 1, bonus, bonus, "going_out_bonus", out))
    # What each player still holds, and each unopened foot.
    for player in side.players:
        if player.cut_bonus and sheet.cut_bonus:
            lines.append(Line("cut_bonus", "Cut bonus", 1, sheet.cut_bonus, sheet.cut_bonus, "cut_bonus", player.name))
        _held_lines(lines, sheet, player.cards_left, player.name, "cards_left", f"{player.name}'s hand",
                    "red_threes.hand", sheet.red_three_penalty_hand, "red_three_penalty_hand")
        if not player.foot_picked_up:
            _held_lines(lines, sheet, player.foot, player.name, "foot", f"{player.name}'s unopened foot",
                        "red_threes.foot", sheet.red_three_penalty_foot, "red_three_penalty_foot")
    return SideScore(side.name, tuple(lines), sum(line.points for line in lines))


def _went_out(deal: Deal, side: Side) -> str | None:
    """The name of this side's player who went out, if one did."""
    if deal.ending is not Ending.WENT_OUT or deal.went_out is None:
        return None
    key = deal.went_out.strip().casefold()
    return next((p.name for p in side.players if p.name.casefold() == key), None)


def _held_lines(lines: list[Line], sheet: RuleSheet, cards: Cards, player: str, code: str, where: str,
                red_code: str, red_penalty: int, red_option: str) -> None:
    """Lines for cards held at the end: one per card value, then red threes."""
    points = sheet.card_values.points
    by_value: dict[int, list] = {}
    for i, n in enumerate(cards.counts()):
        if n and i != _RED_THREE:
            group = by_value.setdefault(points[i], [0, []])
            group[0] += n
            group[1].append(CARDS[i].value)
    for each, (n, names) in sorted(by_value.items(), reverse=True):
        lines.append(Line(code, f"{where}: {' '.join(names)}", n, -each, -n * each, "card_values", player))
    reds = cards.counts()[_RED_THREE]
    if reds:
        lines.append(Line(red_code, f"{where}: red threes", reds, -red_penalty, -reds * red_penalty,
                          red_option, player))


_INDEX = {card: i for i, card in enumerate(CARDS)}
_TWO = _INDEX[Card.TWO]
_JOKER = _INDEX[Card.JOKER]
_RED_THREE = _INDEX[Card.RED_THREE]
