"""The score lines: one table of every line a side scores, read by scoring and by the blank pad.

:data:`SCORE_LINES` lists each kind of line once, in the order a score shows them: its code
and label, the sheet option that prices it, how many a side has in a deal (counted from a
:class:`Tally`, what the side brought to the deal's end) and how the blank score pad prints
it. :func:`scorepad.rules.score.score` walks the table for each side and each player (as
:func:`plan` resolved it once for the sheet), and :func:`pad_lines` walks it for the pad, so
the two cannot drift apart. A new bonus is one entry here, beside its option in the
catalogue (:mod:`.sheet`).

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
        clean, wild = _CLEAN, _WILD_RANK
        books = {clean: 0, _DIRTY: 0, _WILD_BOOKS: 0}
        special: dict[Card, int] = {}
        for meld in side.melds:
            if meld.rank is not wild:
                melded[_RANK_INDEX[meld.rank]] += meld.naturals
            melded[_TWO] += meld.twos
            melded[_JOKER] += meld.jokers
            kind = meld.book_kind(sheet)
            if kind is None:
                continue
            if kind is clean and sheet.special_books and meld.rank is not _THREE \
                    and sheet.special_bonus(meld.rank.card) is not None:
                special[meld.rank.card] = special.get(meld.rank.card, 0) + 1
            else:
                books[kind] += 1
        return tuple.__new__(cls, (sheet, deal.number, side, melded, books, special, _went_out(deal, side),
                                   "", EMPTY, EMPTY, False))  # as a tuple: cls(...) costs a call more

    def of_player(self, player: Player) -> Tally:
        """The tally for one player's own lines."""
        return tuple.__new__(Tally, (*self[:7], player.name, player.cards_left,
                                     EMPTY if player.foot_picked_up else player.foot, player.cut_bonus))


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
    foot: bool = False  # counts an unopened foot: nothing to count once the foot is picked up
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
    # Whether the sheet can score this kind at all: the sheet's plan (:func:`plan`) leaves it
    # out when not, so scoring does not look for it deal after deal.
    scores: Callable[[RuleSheet], bool] = _always

    def __post_init__(self) -> None:
        if (self.count is None) == (self.items is None):
            raise ValueError(f"the score line {self.code} must give count or items, and not both")

    def price(self, sheet: RuleSheet, deal: int) -> int:
        """Points each, on this sheet in this deal."""
        if self.each is not None:
            return self.each(sheet, deal)
        points: int = getattr(sheet, self.option)
        return points

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


class Step(NamedTuple):
    """One kind of line as :func:`plan` resolved it for a sheet and deal: what scoring reads."""

    code: str
    label: str  # with ``{player}`` to fill for a player's own lines
    option: str
    counter: Callable[[Tally], int] | None  # (not ``count``, which a tuple has already)
    each: int  # points each, for a counted kind (an itemised kind prices each item)
    scored_to: Callable[[Tally], str | None] | None
    items: Callable[[Tally], Sequence[Item]] | None


class Plan(NamedTuple):
    """The kinds of line a sheet can score in a deal, in the table's order, each priced once."""

    sheet: RuleSheet  # held, so that no other sheet takes its id while the plan is kept
    side: tuple[Step, ...]  # a side's own lines
    player: tuple[Step, ...]  # each player's own lines
    picked_up: tuple[Step, ...]  # the same, for a player whose foot is picked up (no foot lines)


def plan(sheet: RuleSheet, deal: int) -> Plan:
    """The lines of :data:`SCORE_LINES` this sheet can score in this deal, with their prices.

    Made once for each sheet and deal number and kept (by the sheet's id: hashing a whole
    sheet costs more than scoring with it), as scoring runs for every deal of every game shown.

    >>> from scorepad.rules import preset
    >>> [step.code for step in plan(preset("common"), 1).player]
    ['cards_left', 'red_threes.hand', 'foot', 'red_threes.foot']
    """
    key = (id(sheet), deal)
    kept = _PLANS.get(key)
    if kept is not None and kept.sheet is sheet:
        return kept
    steps = [(kind, Step(kind.code, kind.label, kind.option, kind.count,
                         0 if kind.count is None else kind.price(sheet, deal), kind.scored_to, kind.items))
             for kind in SCORE_LINES if kind.scores(sheet)]
    made = Plan(sheet, tuple(step for kind, step in steps if not kind.per_player),
                tuple(step for kind, step in steps if kind.per_player),
                tuple(step for kind, step in steps if kind.per_player and not kind.foot))
    if len(_PLANS) >= _MAX_PLANS:
        _PLANS.clear()
    _PLANS[key] = made
    return made


_PLANS: dict[tuple[int, int], Plan] = {}
_MAX_PLANS = 256  # sheets and deals kept at once; past that the plans are made afresh


def _went_out(deal: Deal, side: Side) -> str | None:
    """The name of this side's player who went out, if one did."""
    if deal.ending is not _WENT_OUT or deal.went_out is None:
        return None
    key = deal.went_out.strip().casefold()
    for player in side.players:
        if player.name.casefold() == key:
            return player.name
    return None


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


def _held(tally: Tally, cards: Cards, where: str) -> list[Item]:
    """Cards a player held at the end (``where``: in hand or foot), a line per card value
    (highest first), red threes apart."""
    if cards is EMPTY:  # a foot picked up
        return []
    counts = cards.counts()
    present = [i for i in _VALUED if counts[i]]
    if not present:
        return []
    points = tally.sheet.card_values.points
    held: dict[int, int] = {}  # points each -> how many cards
    codes: dict[int, list[str]] = {}  # points each -> the cards' codes
    for i in present:
        each = points[i]
        if each in held:
            held[each] += counts[i]
            codes[each].append(_CODES[i])
        else:
            held[each], codes[each] = counts[i], [_CODES[i]]
    where = f"{tally.player}'s {where}"
    return [(f"{where}: {' '.join(codes[each])}", held[each], -each) for each in sorted(held, reverse=True)]


_INDEX = {card: i for i, card in enumerate(CARDS)}
_TWO = _INDEX[Card.TWO]
_JOKER = _INDEX[Card.JOKER]
_RED_THREE = _INDEX[Card.RED_THREE]
# Looked up once here rather than for every deal, meld and card held (enum attribute
# access is slow): the enum members scoring tests, each rank's place in CARDS, each card's
# code, and the melded-card lines in the order they print (ranks high to low, black threes,
# then 2s and jokers).
_RANK_INDEX: dict[Rank, int] = {rank: _INDEX[rank.card] for rank in Rank if rank is not Rank.WILD}
_CODES = tuple(card.value for card in CARDS)
_CLEAN, _DIRTY, _WILD_BOOKS = BookKind.CLEAN, BookKind.DIRTY, BookKind.WILD
_WILD_RANK, _THREE, _WENT_OUT = Rank.WILD, Rank.THREE, Ending.WENT_OUT
_VALUED = tuple(i for i in range(len(CARDS)) if i != _RED_THREE)  # red threes have a line of their own
_MELDED_LINES = tuple((_INDEX[card], f"Melded {card.noun}")
                      for card in (*NATURALS, Card.BLACK_THREE, Card.TWO, Card.JOKER))

# Every kind of score line, in the order a side's score lists them: first the side's own,
# then each player's. Scoring and the blank pad both read this table.
SCORE_LINES: tuple[ScoreLine, ...] = (
    ScoreLine(code="melds.cards", label="Melded cards", option="card_values", items=_melded,
              pad="Melded card points"),
    ScoreLine(code="books.clean", label="Clean books", option="clean_book_bonus",
              count=lambda t: t.books[_CLEAN], pad="Clean books"),
    ScoreLine(code="books.special", label="Clean books of a named rank", option="special_books",
              items=_special_books, pad_items=_special_pad, scores=lambda s: bool(s.special_books)),
    ScoreLine(code="books.dirty", label="Dirty books", option="dirty_book_bonus",
              count=lambda t: t.books[_DIRTY], pad="Dirty books"),
    ScoreLine(code="books.wild", label="Wild books", option="wild_book_bonus",
              count=lambda t: t.books[_WILD_BOOKS], pad="Wild books", pad_when=lambda s: s.wild_books),
    ScoreLine(code="red_threes.laid", label="Red threes laid", option="red_three_bonus",
              count=lambda t: t.side.red_threes, pad="Red threes laid"),
    ScoreLine(code="going_out", label="Going out", option="going_out_bonus",
              count=lambda t: 0 if t.went_out is None else 1, each=lambda s, deal: s.going_out_bonus.at(deal),
              scored_to=lambda t: t.went_out, pad="Going out", once=True),
    # Each player's own lines
    ScoreLine(code="cut_bonus", label="Cut bonus", option="cut_bonus", per_player=True,
              count=lambda t: 1 if t.cut_bonus and t.sheet.cut_bonus else 0,
              pad="Cut bonus", pad_when=lambda s: s.cut_bonus > 0, once=True, scores=lambda s: bool(s.cut_bonus)),
    ScoreLine(code="cards_left", label="{player}'s hand", option="card_values", per_player=True,
              items=lambda t: _held(t, t.hand, "hand"),
              pad="Cards left in hands and feet (minus)"),
    ScoreLine(code="red_threes.hand", label="{player}'s hand: red threes", option="red_three_penalty_hand",
              per_player=True, count=lambda t: t.hand.counts()[_RED_THREE],
              each=lambda s, deal: -s.red_three_penalty_hand,
              pad="Red threes left in a hand", pad_when=lambda s: s.red_three_penalty_hand > 0),
    ScoreLine(code="foot", label="{player}'s unopened foot", option="card_values", per_player=True,
              items=lambda t: _held(t, t.foot, "unopened foot"), foot=True),
    ScoreLine(code="red_threes.foot", label="{player}'s unopened foot: red threes", option="red_three_penalty_foot",
              per_player=True, foot=True, count=lambda t: t.foot.counts()[_RED_THREE],
              each=lambda s, deal: -s.red_three_penalty_foot,
              pad="Red threes in an unopened foot", pad_when=lambda s: s.red_three_penalty_foot > 0),
)
