"""The score lines: one table of every line a side scores, read by scoring and by the blank pad.

:data:`SCORE_LINES` lists each kind of line once, in the order a score shows them: its code
and label, the sheet option that prices it, how many a side has in a deal (counted from a
:class:`Tally`, what the side brought to the deal's end) and how the blank score pad prints
it. :func:`scorepad.rules.score.score` walks the table for each side and each player, and
:func:`pad_lines` walks it for the pad, so the two cannot drift apart. A new bonus is one
entry here, beside its option in the catalogue (:mod:`.sheet`).

>>> from scorepad.rules import preset
>>> [line.label for line in pad_lines(preset("common"), 1)][:3]
['Melded card points', 'Clean books × 500', 'Dirty books × 300']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .cards import CARDS, EMPTY, NATURALS, Card, Cards
from .deal import BookKind, Deal, Ending, Player, Rank, Side
from .sheet import RuleSheet

Item = tuple[str, int, int]  # one itemised line: label, count, points each


class Tally(NamedTuple):
    """What one side brought to the end of a deal, counted once for all its lines; for a
    player's own lines (:meth:`of_player`), also what that player held and claimed."""

    sheet: RuleSheet
    deal: int  # the deal's number
    side: Side
    melded: list[int]  # cards melded, by place in CARDS
    books: dict[BookKind, int]  # books of each kind, special books left out
    special: dict[Card, int]  # clean books of a rank the sheet names a bonus for, by rank
    went_out: str | None  # the name of the side's player who went out, if one did
    # For a player's own lines: the player, their hand and unopened foot, their cut bonus.
    player: str = ""
    hand: Cards = EMPTY
    foot: Cards = EMPTY  # empty once picked up: only an unopened foot counts against
    cut_bonus: bool = False

    @classmethod
    def of(cls, deal: Deal, side: Side) -> Tally:
        """The side's tally: its melds counted once, by card and by kind of book."""
        sheet = deal.sheet
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
        return cls(sheet, deal.number, side, melded, books, special, _went_out(deal, side))

    def of_player(self, player: Player) -> Tally:
        """The tally for one player's own lines."""
        return Tally(self.sheet, self.deal, self.side, self.melded, self.books, self.special, self.went_out,
                     player.name, player.cards_left, EMPTY if player.foot_picked_up else player.foot,
                     player.cut_bonus)


class PadLine(NamedTuple):
    """One line of the blank score pad: its label, and whether it has a count column."""

    label: str
    counted: bool


def _always(sheet: RuleSheet) -> bool:
    return True


@dataclass(frozen=True, kw_only=True, slots=True)
class ScoreLine:
    """One kind of score line: ``count`` × ``each`` = points.

    ``count`` comes from the deal, ``each`` from the sheet (by default the value of
    ``option``; negative for points taken off). A kind that scores one line per rank or
    per card value gives ``items`` instead. ``per_player`` kinds are counted for each
    player from the player's own cards, and their label names the player (``{player}``).
    """

    code: str
    label: str
    option: str  # the sheet option behind the line's points
    per_player: bool = False
    count: Callable[[Tally], int] | None = None
    each: Callable[[RuleSheet, int], int] | None = None  # (sheet, deal number) -> points each
    scored_to: Callable[[Tally], str | None] | None = None  # the player a side's line names
    items: Callable[[Tally], Sequence[Item]] | None = None
    # How the blank score pad prints it: ``pad`` is its label there (None: not printed, it
    # shares another line), with ``× each`` and a count column, or ``(+each)`` and no count
    # column when a side scores it at most ``once``; an itemised kind prints ``pad`` alone.
    pad: str | None = None
    pad_when: Callable[[RuleSheet], bool] = _always
    once: bool = False
    pad_items: Callable[[RuleSheet], Iterable[PadLine]] | None = None

    def __post_init__(self) -> None:
        if (self.count is None) == (self.items is None):
            raise ValueError(f"the score line {self.code} must give count or items, and not both")

    def price(self, sheet: RuleSheet, deal: int) -> int:
        """Points each, on this sheet in this deal."""
        if self.each is not None:
            return self.each(sheet, deal)
        points: int = getattr(sheet, self.option)
        return points

    def found(self, tally: Tally) -> Sequence[Item]:
        """(label, count, each) for each line of this kind the tally scores."""
        items, count = self.items, self.count
        if items is not None:
            return items(tally)
        n = count(tally) if count is not None else 0
        if not n:
            return ()
        label = self.label.format(player=tally.player) if self.per_player else self.label
        each: int = self.each(tally.sheet, tally.deal) if self.each is not None else getattr(tally.sheet, self.option)
        return ((label, n, each),)

    def printed(self, sheet: RuleSheet, deal: int) -> Iterator[PadLine]:
        """This kind's lines on the blank score pad for this sheet and deal."""
        if self.pad_items is not None:
            yield from self.pad_items(sheet)
        elif self.pad is None or not self.pad_when(sheet):
            return
        elif self.items is not None:
            yield PadLine(self.pad, False)
        elif self.once:
            yield PadLine(f"{self.pad} (+{self.price(sheet, deal):,})", False)
        else:
            yield PadLine(f"{self.pad} × {self.price(sheet, deal):,}", True)


def pad_lines(sheet: RuleSheet, deal: int) -> list[PadLine]:
    """The lines a side scores on this sheet in this deal, as the blank score pad prints them.

    >>> from scorepad.rules import preset
    >>> [line.label for line in pad_lines(preset("pagat").replace(cut_bonus=300), 2)][-4:]
    ['Going out (+100)', 'Cut bonus (+300)', 'Cards left in hands and feet (minus)', 'Red threes in an unopened foot × -100']
    """  # noqa: E501 (a doctest's expected output is one line)
    return [line for kind in SCORE_LINES for line in kind.printed(sheet, deal)]


def _went_out(deal: Deal, side: Side) -> str | None:
    """The name of this side's player who went out, if one did."""
    if deal.ending is not Ending.WENT_OUT or deal.went_out is None:
        return None
    key = deal.went_out.strip().casefold()
    return next((p.name for p in side.players if p.name.casefold() == key), None)


def _melded(tally: Tally) -> list[Item]:
    """A line for each rank melded, then black threes, 2s and jokers."""
    points, melded = tally.sheet.card_values.points, tally.melded
    return [(label, melded[i], points[i]) for i, label in _MELDED_LINES if melded[i]]


def _special_books(tally: Tally) -> list[Item]:
    return [(f"Clean books of {card.noun}", n, tally.sheet.special_bonus(card) or 0)
            for card, n in tally.special.items()]


def _special_pad(sheet: RuleSheet) -> Iterator[PadLine]:
    for card, bonus in sheet.special_books:
        yield PadLine(f"Clean books of {card.noun} × {bonus:,}", True)


def _held(cards: Cards, where: str, sheet: RuleSheet) -> list[Item]:
    """Cards held at the end, a line per card value (highest first), red threes apart."""
    if not cards:
        return []
    counts = cards.counts()
    points = sheet.card_values.points
    held: dict[int, int] = {}  # points each -> how many cards
    codes: dict[int, list[str]] = {}  # points each -> the cards' codes
    for i in _VALUED:
        n = counts[i]
        if n:
            each = points[i]
            if each in held:
                held[each] += n
                codes[each].append(_CODES[i])
            else:
                held[each], codes[each] = n, [_CODES[i]]
    return [(f"{where}: {' '.join(codes[each])}", held[each], -each) for each in sorted(held, reverse=True)]


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
_MELDED_LINES = tuple((_INDEX[card], f"Melded {card.noun}")
                      for card in (*NATURALS, Card.BLACK_THREE, Card.TWO, Card.JOKER))

# Every kind of score line, in the order a side's score lists them: first the side's own,
# then each player's. Scoring and the blank pad both read this table.
SCORE_LINES: tuple[ScoreLine, ...] = (
    ScoreLine(code="melds.cards", label="Melded cards", option="card_values", items=_melded,
              pad="Melded card points"),
    ScoreLine(code="books.clean", label="Clean books", option="clean_book_bonus",
              count=lambda t: t.books[BookKind.CLEAN], pad="Clean books"),
    ScoreLine(code="books.special", label="Clean books of a named rank", option="special_books",
              items=_special_books, pad_items=_special_pad),
    ScoreLine(code="books.dirty", label="Dirty books", option="dirty_book_bonus",
              count=lambda t: t.books[BookKind.DIRTY], pad="Dirty books"),
    ScoreLine(code="books.wild", label="Wild books", option="wild_book_bonus",
              count=lambda t: t.books[BookKind.WILD], pad="Wild books", pad_when=lambda s: s.wild_books),
    ScoreLine(code="red_threes.laid", label="Red threes laid", option="red_three_bonus",
              count=lambda t: t.side.red_threes, pad="Red threes laid"),
    ScoreLine(code="going_out", label="Going out", option="going_out_bonus",
              count=lambda t: 0 if t.went_out is None else 1, each=lambda s, deal: s.going_out_bonus.at(deal),
              scored_to=lambda t: t.went_out, pad="Going out", once=True),
    # Each player's own lines
    ScoreLine(code="cut_bonus", label="Cut bonus", option="cut_bonus", per_player=True,
              count=lambda t: 1 if t.cut_bonus and t.sheet.cut_bonus else 0,
              pad="Cut bonus", pad_when=lambda s: s.cut_bonus > 0, once=True),
    ScoreLine(code="cards_left", label="{player}'s hand", option="card_values", per_player=True,
              items=lambda t: _held(t.hand, f"{t.player}'s hand", t.sheet),
              pad="Cards left in hands and feet (minus)"),
    ScoreLine(code="red_threes.hand", label="{player}'s hand: red threes", option="red_three_penalty_hand",
              per_player=True, count=lambda t: t.hand.counts()[_RED_THREE],
              each=lambda s, deal: -s.red_three_penalty_hand,
              pad="Red threes left in a hand", pad_when=lambda s: s.red_three_penalty_hand > 0),
    ScoreLine(code="foot", label="{player}'s unopened foot", option="card_values", per_player=True,
              items=lambda t: _held(t.foot, f"{t.player}'s unopened foot", t.sheet)),
    ScoreLine(code="red_threes.foot", label="{player}'s unopened foot: red threes", option="red_three_penalty_foot",
              per_player=True, count=lambda t: t.foot.counts()[_RED_THREE],
              each=lambda s, deal: -s.red_three_penalty_foot,
              pad="Red threes in an unopened foot", pad_when=lambda s: s.red_three_penalty_foot > 0),
)
