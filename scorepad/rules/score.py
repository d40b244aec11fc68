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
    count: int  # type: ignore[assignment]  # a field named like tuple.count, which it hides
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
    """  # noqa: E501 (a doctest's expected output is one line)
    return Breakdown(tuple(_score_side(deal, side) for side in deal.sides))


def _score_side(deal: Deal, side: Side) -> SideScore:  # noqa: C901 (one branch per kind of score line)
    sheet = deal.sheet
    points = sheet.card_values.points
    lines: list[Line] = []
    # Melded cards, a line per rank, then 2s and jokers.
    melded = [0] * len(CARDS)
    clean, wild = BookKind.CLEAN, Rank.WILD  # enum members, looked up once (it is slow)
    books = {clean: 0, BookKind.DIRTY: 0, BookKind.WILD: 0}
    special: dict[Card, int] = {}
    for meld in side.melds:
        if meld.rank is not wild:
            melded[_RANK_INDEX[meld.rank]] += meld.naturals
        melded[_TWO] += meld.twos
        melded[_JOKER] += meld.jokers
        kind = meld.book_kind(sheet)
        if kind is None:
            continue
        if kind is clean and sheet.special_books and meld.rank is not Rank.THREE \
                and sheet.special_bonus(meld.rank.card) is not None:
            special[meld.rank.card] = special.get(meld.rank.card, 0) + 1
        else:
            books[kind] += 1
    for i, label in _MELDED_LINES:
        n = melded[i]
        if n:
            each = points[i]
            lines.append(Line("melds.cards", label, n, each, n * each, "card_values"))
    for kind, code, label, option in _BOOK_LINES:
        if books[kind]:
            bonus = getattr(sheet, option)
            lines.append(Line(code, label, books[kind], bonus, books[kind] * bonus, option))
        if kind is clean:
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
    if not cards:
        return
    counts = cards.counts()
    points = sheet.card_values.points
    by_value: dict[int, list] = {}  # points each -> [how many cards, their codes]
    for i in _VALUED:
        n = counts[i]
        if n:
            group = by_value.get(points[i])
            if group is None:
                by_value[points[i]] = [n, [_CODES[i]]]
            else:
                group[0] += n
                group[1].append(_CODES[i])
    for each in sorted(by_value, reverse=True):
        n, names = by_value[each]
        lines.append(Line(code, f"{where}: {' '.join(names)}", n, -each, -n * each, "card_values", player))
    reds = counts[_RED_THREE]
    if reds:
        lines.append(Line(red_code, f"{where}: red threes", reds, -red_penalty, -reds * red_penalty,
                          red_option, player))


_INDEX = {card: i for i, card in enumerate(CARDS)}
_TWO = _INDEX[Card.TWO]
_JOKER = _INDEX[Card.JOKER]
_RED_THREE = _INDEX[Card.RED_THREE]
# Looked up once here rather than for every meld and every card held (enum attribute
# access is slow): each rank's place in CARDS, each card's code, and the melded-card lines
# in the order they print (ranks high to low, black threes, then 2s and jokers).
_RANK_INDEX: dict[Rank, int] = {rank: _INDEX[rank.card] for rank in Rank if rank is not Rank.WILD}
_CODES = tuple(card.value for card in CARDS)
_VALUED = tuple(i for i in range(len(CARDS)) if i != _RED_THREE)  # red threes have a line of their own
# A line for each kind of book: its code, label and the sheet option giving its bonus.
_BOOK_LINES = ((BookKind.CLEAN, "books.clean", "Clean books", "clean_book_bonus"),
               (BookKind.DIRTY, "books.dirty", "Dirty books", "dirty_book_bonus"),
               (BookKind.WILD, "books.wild", "Wild books", "wild_book_bonus"))
_MELDED_LINES = tuple((_INDEX[card], f"Melded {card.noun}")
                      for card in (*NATURALS, Card.BLACK_THREE, Card.TWO, Card.JOKER))
