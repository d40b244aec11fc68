"""The score lines: one table of every line a side scores, read by scoring and by the blank pad.

:data:`SCORE_LINES` lists each kind of line once, in the order a score shows them: its code
and label, the sheet option that prices it, how many a side has in a deal (counted from a
:class:`~.tally.Tally`, what the side brought to the deal's end) and how the blank score pad prints
it. :func:`scorepad.rules.score.score` walks the table for each side and each player (as
:func:`plan` resolved it once for the sheet), and :func:`pad_lines` walks it for the pad, so
the two cannot drift apart. A new bonus is one entry here, beside its option in the
catalogue (:mod:`.sheet`).

>>> from scorepad.rules import preset
>>> [line.label for line in pad_lines(preset("common"), 1)][:3]
['Melded card points', 'Clean books × 500', 'Dirty books × 300']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from itertools import compress
from operator import attrgetter, itemgetter
from typing import NamedTuple

from .cards import CARDS, EMPTY, NATURALS, Card, Cards
from .deal import Player
from .read import JSON
from .sheet import RuleSheet
from .tally import Tally
from .wording import cap_words


class Line(NamedTuple):
    """One line of a side's score: ``count`` × ``each`` = ``points``."""

    code: str
    label: str
    count: int  # type: ignore[assignment]  # a field named like tuple.count, which it hides
    each: int
    points: int
    option: str
    player: str | None = None

    def to_json(self) -> dict[str, JSON]:
        """Every key always there: ``player`` is ``null`` on a line of the side's own."""
        return self._asdict()


# An itemised kind's lines, one per rank or card value, made by the kind itself and added to the
# side's lines, from (its code, its option, the side's lines, the side's tally) and, for a
# player's own kind, the player: no list made only to be copied into the side's.
SideItems = Callable[[str, str, list[Line], Tally], None]
PlayerItems = Callable[[str, str, list[Line], Tally, Player], None]


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
    per card value gives ``items`` instead, which makes its :class:`Line` values. A player's
    own kinds give ``player_count`` or ``player_items``, counted for each player from the
    side's tally and the player's own cards, and their label names the player (``{player}``).
    """

    code: str
    label: str
    option: str  # the sheet option behind the line's points
    count: Callable[[Tally], int] | None = None
    each: Callable[[RuleSheet, int], int] | None = None  # (sheet, deal number) -> points each
    scored_to: Callable[[Tally], str | None] | None = None  # the player a side's line names
    items: SideItems | None = None
    player_count: Callable[[Tally, Player], int] | None = None
    player_items: PlayerItems | None = None
    foot: bool = False  # counts an unopened foot: nothing to count once the foot is picked up
    points_hand: bool = False  # counts a hand recorded as points: nothing to count in one listed card by card
    # How the blank score pad prints it: ``pad`` is its label there (None: not printed, it
    # shares another line), with ``× each`` and a count column, or ``(+each)`` and no count
    # column when a side scores it at most ``once``; an itemised kind prints ``pad`` alone.
    pad: str | None = None
    pad_when: Callable[[RuleSheet], bool] = _always
    once: bool = False
    pad_items: Callable[[RuleSheet], Iterable[PadLine]] | None = None
    pad_in: Callable[[RuleSheet, int], bool] | None = None  # (sheet, deal) -> printed in that deal; None: every deal
    # Whether the sheet can score this kind at all: the sheet's plan (:func:`plan`) leaves it
    # out when not, so scoring does not look for it deal after deal.
    scores: Callable[[RuleSheet], bool] = _always

    def __post_init__(self) -> None:
        if [self.count, self.items, self.player_count, self.player_items].count(None) != 3:
            raise ValueError(f"the score line {self.code} must give one of count, items, player_count "
                             "and player_items")

    @property
    def per_player(self) -> bool:
        """Whether the kind is counted for each player."""
        return self.player_count is not None or self.player_items is not None

    @property
    def counted(self) -> bool:
        """Whether the kind gives a count (one line, priced by ``each``) rather than items."""
        return self.count is not None or self.player_count is not None

    def price(self, sheet: RuleSheet, deal: int) -> int:
        """Points each, on this sheet in this deal."""
        if self.each is not None:
            return self.each(sheet, deal)
        points: int = getattr(sheet, self.option)
        return points

    def printed(self, sheet: RuleSheet, deal: int) -> Iterator[PadLine]:
        """This kind's lines on the blank score pad for this sheet and deal."""
        if self.pad_in is not None and not self.pad_in(sheet, deal):
            return
        if self.pad_items is not None:
            yield from self.pad_items(sheet)
        elif self.pad is None or not self.pad_when(sheet):
            return
        elif not self.counted:
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
    """One kind of a side's own line as :func:`plan` resolved it for a sheet and deal."""

    code: str
    label: str
    option: str
    counter: Callable[[Tally], int] | None  # (not ``count``, which a tuple has already)
    each: int  # points each, for a counted kind (an itemised kind prices each item)
    scored_to: Callable[[Tally], str | None] | None
    items: Callable[[list[Line], Tally], None] | None  # adds the kind's lines, its code and option given


class PlayerStep(NamedTuple):
    """One kind of a player's own line as :func:`plan` resolved it for a sheet and deal."""

    code: str
    label: str  # with ``{player}`` to fill
    option: str
    counter: Callable[[Tally, Player], int] | None
    each: int
    items: Callable[[list[Line], Tally, Player], None] | None


class Plan(NamedTuple):
    """The kinds of line a sheet can score in a deal, in the table's order, each priced once."""

    sheet: RuleSheet  # held, so that no other sheet takes its id while the plan is kept
    side: tuple[Step, ...]  # a side's own lines
    player: tuple[PlayerStep, ...]  # each player's own lines
    picked_up: tuple[PlayerStep, ...]  # the same, for a player whose foot is picked up (no foot lines)
    # The same two for a hand listed card by card, as most are (no lines of a hand's points).
    listed: tuple[PlayerStep, ...]
    listed_picked_up: tuple[PlayerStep, ...]


def plan(sheet: RuleSheet, deal: int) -> Plan:
    """The lines of :data:`SCORE_LINES` this sheet can score in this deal, with their prices.

    Made once for each sheet and deal number and kept (by the sheet's id: hashing a whole
    sheet costs more than scoring with it), as scoring runs for every deal of every game shown.

    >>> from scorepad.rules import preset
    >>> [step.code for step in plan(preset("common"), 1).player]
    ['cards_left', 'cards_left.points', 'red_threes.hand', 'foot', 'red_threes.foot']
    """
    key = (id(sheet), deal)
    kept = _PLANS.get(key)
    if kept is not None and kept.sheet is sheet:
        return kept
    kinds = [kind for kind in SCORE_LINES if kind.scores(sheet)]
    each = {kind.code: kind.price(sheet, deal) if kind.counted else 0 for kind in kinds}
    side = tuple(Step(kind.code, kind.label, kind.option, kind.count, each[kind.code], kind.scored_to,
                      None if kind.items is None else partial(kind.items, kind.code, kind.option))
                 for kind in kinds if not kind.per_player)
    player = [(kind, PlayerStep(kind.code, kind.label, kind.option, kind.player_count, each[kind.code],
                                None if kind.player_items is None
                                else partial(kind.player_items, kind.code, kind.option)))
              for kind in kinds if kind.per_player]
    made = Plan(sheet, side, tuple(step for _, step in player), tuple(step for kind, step in player if not kind.foot),
                tuple(step for kind, step in player if not kind.points_hand),
                tuple(step for kind, step in player if not kind.foot and not kind.points_hand))
    if len(_PLANS) >= _MAX_PLANS:
        _PLANS.clear()
    _PLANS[key] = made
    return made


_PLANS: dict[tuple[int, int], Plan] = {}
_MAX_PLANS = 256  # sheets and deals kept at once; past that the plans are made afresh


def _melded(code: str, option: str, lines: list[Line], tally: Tally) -> None:
    """A line for each rank melded, then black threes, 2s and jokers: made at once, as every
    side of every deal has them."""
    points, melded, new = tally.sheet.card_values.points, tally.melded, tuple.__new__
    lines += [new(Line, (code, _MELDED_LABELS[i], melded[i], points[i], melded[i] * points[i], option, None))
            for i in compress(_MELDED_ORDER, _IN_MELDED_ORDER(melded))]  # only the kinds melded are looked at


def _itemised(code: str, option: str, lines: list[Line], items: Iterable[tuple[str, int, int]],
              player: str | None = None) -> None:
    """Add lines of (label, count, points each), for the kinds few deals score."""
    lines += [Line(code, label, n, each, n * each, option, player) for label, n, each in items]


def _meld_points(code: str, option: str, lines: list[Line], tally: Tally) -> None:
    points = tally.side.meld_points
    if points:
        lines.append(Line(code, "Melded card points", 1, points, points, option))


def _special_books(code: str, option: str, lines: list[Line], tally: Tally) -> None:
    _itemised(code, option, lines, ((f"Clean books of {card.noun}", n, tally.sheet.special_bonus(card) or 0)
                                    for card, n in tally.special.items()))


def _special_pad(sheet: RuleSheet) -> Iterator[PadLine]:
    for card, bonus in sheet.special_books:
        yield PadLine(f"Clean books of {card.noun} × {bonus:,}", True)


def _special_dirty_books(code: str, option: str, lines: list[Line], tally: Tally) -> None:
    _itemised(code, option, lines, ((f"Dirty books of {card.noun}", n, tally.sheet.special_dirty_bonus(card) or 0)
                                    for card, n in tally.special_dirty.items()))


def _special_dirty_pad(sheet: RuleSheet) -> Iterator[PadLine]:
    """A line for each rank; past three ranks, one line of points for them all (a pad's deal
    stays one page)."""
    if len(sheet.special_books_dirty) > 3:
        each = ", ".join(f"{card.noun} {bonus:,}" for card, bonus in sheet.special_books_dirty)
        yield PadLine(f"Dirty special books ({each})", False)
        return
    for card, bonus in sheet.special_books_dirty:
        yield PadLine(f"Dirty books of {card.noun} × {bonus:,}", True)


def _three_books(code: str, option: str, lines: list[Line], tally: Tally) -> None:
    _itemised(code, option, lines, ((f"Books of {card.noun}", n, tally.sheet.three_bonus(card) or 0)
                                    for card, n in tally.threes.items()))


def _three_pad(sheet: RuleSheet) -> Iterator[PadLine]:
    for card, bonus in sheet.three_books:
        yield PadLine(f"Books of {card.noun} × {bonus:,}", True)


def _capped(code: str, option: str, lines: list[Line], tally: Tally) -> None:
    """Books past a cap: their cards are scored with the rest, their bonus is 0."""
    _itemised(code, option, lines, ((f"{cap_words(key).capitalize()} past the cap of {cap} (no bonus)", n, 0)
                                    for key, n, cap in tally.capped))


def _hand(code: str, option: str, lines: list[Line], tally: Tally, player: Player) -> None:
    _held(code, option, lines, tally, player.name, player.cards_left, "hand")


def _hand_points(code: str, option: str, lines: list[Line], tally: Tally, player: Player) -> None:
    points = player.cards_left_points
    if points:
        _itemised(code, option, lines, [(f"{player.name}'s hand: points", 1, -points)], player.name)


def _foot(code: str, option: str, lines: list[Line], tally: Tally, player: Player) -> None:
    """An unopened foot's cards, a line per value; its black threes apart when the sheet
    prices them on their own line (``black_three_in_foot``)."""
    if player.foot_picked_up:
        return
    foot = player.foot
    if tally.sheet.black_three_in_foot is not None and foot[Card.BLACK_THREE]:
        foot = foot + Cards({Card.BLACK_THREE: -foot[Card.BLACK_THREE]})
    _held(code, option, lines, tally, player.name, foot, "unopened foot")


def _knee(code: str, option: str, lines: list[Line], tally: Tally, player: Player) -> None:
    """An unopened knee's cards, a line per value, as an unopened foot's (:func:`_foot`)."""
    if player.picked_knee or not player.knee:
        return
    knee = player.knee
    if tally.sheet.black_three_in_foot is not None and knee[Card.BLACK_THREE]:
        knee = knee + Cards({Card.BLACK_THREE: -knee[Card.BLACK_THREE]})
    _held(code, option, lines, tally, player.name, knee, "unopened knee")


def _knee_threes(card: Card) -> Callable[[Tally, Player], int]:
    """How many red or black threes an unopened knee holds (red ones only where they cost,
    ``red_three_penalty_foot_when``)."""
    def count(tally: Tally, player: Player) -> int:
        if player.picked_knee or (card is Card.RED_THREE and not tally.buried):
            return 0
        return player.knee[card]
    return count


def _has_knee(sheet: RuleSheet, deal: int) -> bool:
    """Whether the deal has a knee: a knee's lines are printed on the blank pad only there."""
    return sheet.knee_at(deal) > 0


def _held(code: str, option: str, lines: list[Line], tally: Tally, player: str, cards: Cards, where: str) -> None:
    """Cards a player held at the end (``where``: in hand or foot), a line per card value
    (highest first), red threes apart. Made at once, as most players of a deal hold some: only
    the kinds held are looked at (a hand holds a few of the fifteen), in the order they are listed."""
    if cards is EMPTY:  # most often an empty hand: nothing to look at
        return
    counts, values, new = cards.counts(), tally.sheet.card_values, tuple.__new__
    points = values.points
    each = n = 0
    codes = ""
    for i in compress(values.held_order, values.in_held_order(counts)):  # the places of the kinds held
        if codes and points[i] == each:
            n += counts[i]
            codes = f"{codes} {_CODES[i]}"
            continue
        if codes:
            lines.append(new(Line, (code, f"{player}'s {where}: {codes}", n, -each, -n * each, option, player)))
        each, n, codes = points[i], counts[i], _CODES[i]
    if codes:
        lines.append(new(Line, (code, f"{player}'s {where}: {codes}", n, -each, -n * each, option, player)))


_INDEX = {card: i for i, card in enumerate(CARDS)}
_CODES = tuple(card.value for card in CARDS)
_RED_THREE = _INDEX[Card.RED_THREE]
# Looked up once here rather than for every deal and meld (enum attribute access is slow): the
# places in CARDS in the order the melded-card lines print (ranks high to low, red and black
# threes, then 2s and jokers), a reader of a count by card in that order, and each line's label.
_MELDED_ORDER = tuple(_INDEX[card] for card in (*NATURALS, Card.RED_THREE, Card.BLACK_THREE, Card.TWO, Card.JOKER))
_IN_MELDED_ORDER = itemgetter(*_MELDED_ORDER)
_MELDED_LABELS = tuple(f"Melded {card.noun}" for card in CARDS)

# Every kind of score line, in the order a side's score lists them: first the side's own,
# then each player's. Scoring and the blank pad both read this table.
SCORE_LINES: tuple[ScoreLine, ...] = (
    ScoreLine(code="melds.cards", label="Melded cards", option="card_values", items=_melded,
              pad="Melded card points"),
    ScoreLine(code="melds.points", label="Melded card points", option="card_values", items=_meld_points),
    ScoreLine(code="books.clean", label="Clean books", option="clean_book_bonus",
              count=attrgetter("clean_books"), pad="Clean books"),
    ScoreLine(code="books.special", label="Clean books of a named rank", option="special_books",
              items=_special_books, pad_items=_special_pad, scores=lambda s: bool(s.special_books)),
    ScoreLine(code="books.dirty", label="Dirty books", option="dirty_book_bonus",
              count=attrgetter("dirty_books"), pad="Dirty books"),
    ScoreLine(code="books.special_dirty", label="Dirty books of a named rank", option="special_books_dirty",
              items=_special_dirty_books, pad_items=_special_dirty_pad, scores=lambda s: bool(s.special_books_dirty)),
    ScoreLine(code="books.threes", label="Books of threes", option="three_books",
              items=_three_books, pad_items=_three_pad, scores=lambda s: bool(s.three_books)),
    ScoreLine(code="books.wild", label="Wild books", option="wild_book_bonus",
              count=attrgetter("wild_books"), pad="Wild books", pad_when=lambda s: s.wild_books),
    ScoreLine(code="books.wild_mixed", label="Mixed wild books", option="wild_book_mixed_bonus",
              count=attrgetter("wild_mixed"), each=lambda s, deal: s.mixed_wild_bonus, pad="Mixed wild books",
              pad_when=lambda s: s.prices_mixed_wild, scores=lambda s: s.wild_book_mixed_bonus is not None),
    ScoreLine(code="books.capped", label="Books past a cap", option="book_caps", items=_capped,
              scores=lambda s: bool(s.book_caps)),  # the pad says the caps above its deals (paper.pad)
    # Red threes laid: each at red_three_bonus, or, where red_three_bonus_not_out says, at that for a
    # side none of whose players went out. A held sheet's pad prints neither (a laid one is a violation).
    ScoreLine(code="red_threes.laid", label="Red threes laid", option="red_three_bonus",
              count=lambda t: t.side.red_threes if t.went_out is not None or t.sheet.red_three_bonus_not_out is None
              else 0, pad="Red threes laid", pad_when=lambda s: s.lays_red_threes),
    ScoreLine(code="red_threes.laid_not_out", label="Red threes laid, side not out", option="red_three_bonus_not_out",
              count=lambda t: t.side.red_threes if t.went_out is None else 0,
              each=lambda s, deal: s.not_out_red_three_bonus,
              pad="Red threes laid, side not out",
              pad_when=lambda s: s.lays_red_threes and s.red_three_bonus_not_out is not None,
              scores=lambda s: s.red_three_bonus_not_out is not None),
    ScoreLine(code="going_out", label="Going out", option="going_out_bonus",
              count=lambda t: 0 if t.went_out is None else 1, each=lambda s, deal: s.going_out_bonus.at(deal),
              scored_to=lambda t: t.went_out, pad="Going out", once=True),
    ScoreLine(code="first_meld", label="First to meld", option="first_meld_bonus",
              count=lambda t: 0 if t.first_meld is None else 1, scored_to=attrgetter("first_meld"),
              pad="First to meld", once=True, pad_when=lambda s: s.first_meld_bonus > 0,
              scores=lambda s: bool(s.first_meld_bonus)),
    ScoreLine(code="pile.failed_takes", label="Failed takes of the pile", option="pile_take_penalty",
              count=attrgetter("side.failed_takes"), each=lambda s, deal: -s.pile_take_penalty,
              pad="Failed takes of the pile", pad_when=lambda s: s.pile_take_penalty > 0,
              scores=lambda s: bool(s.pile_take_penalty)),
    # Each player's own lines
    ScoreLine(code="cut_bonus", label="Cut bonus", option="cut_bonus",
              player_count=lambda t, p: 1 if p.cut_bonus and t.sheet.cut_bonus else 0,
              pad="Cut bonus", pad_when=lambda s: s.cut_bonus > 0, once=True, scores=lambda s: bool(s.cut_bonus)),
    ScoreLine(code="cards_left", label="{player}'s hand", option="card_values",
              player_items=_hand,
              pad="Cards left in hands and feet (minus)"),
    ScoreLine(code="cards_left.points", label="{player}'s hand: points", option="card_values", points_hand=True,
              player_items=_hand_points),
    ScoreLine(code="red_threes.hand", label="{player}'s hand: red threes", option="red_three_penalty_hand",
              player_count=lambda t, p: p.red_threes_in_hand if t.caught else 0,
              each=lambda s, deal: -s.red_three_penalty_hand,
              pad="Red threes left in a hand", pad_when=lambda s: s.red_three_penalty_hand > 0),
    ScoreLine(code="knee", label="{player}'s unopened knee", option="card_values", player_items=_knee,
              pad="Cards in unopened knees (minus)", pad_in=_has_knee, scores=attrgetter("has_knee")),
    ScoreLine(code="black_threes.knee", label="{player}'s unopened knee: black threes", option="black_three_in_foot",
              player_count=_knee_threes(Card.BLACK_THREE), each=lambda s, deal: -(s.black_three_in_foot or 0),
              pad="Black threes in an unopened knee", pad_when=lambda s: s.black_three_in_foot is not None,
              pad_in=_has_knee, scores=lambda s: s.has_knee and s.black_three_in_foot is not None),
    ScoreLine(code="red_threes.knee", label="{player}'s unopened knee: red threes", option="red_three_penalty_foot",
              player_count=_knee_threes(Card.RED_THREE), each=lambda s, deal: -s.red_three_penalty_foot,
              pad="Red threes in an unopened knee", pad_when=lambda s: s.red_three_penalty_foot > 0,
              pad_in=_has_knee, scores=attrgetter("has_knee")),
    ScoreLine(code="foot", label="{player}'s unopened foot", option="card_values", foot=True,
              player_items=_foot),
    ScoreLine(code="black_threes.foot", label="{player}'s unopened foot: black threes", option="black_three_in_foot",
              foot=True, player_count=lambda t, p: 0 if p.foot_picked_up else p.foot[Card.BLACK_THREE],
              each=lambda s, deal: -(s.black_three_in_foot or 0),
              pad="Black threes in an unopened foot", pad_when=lambda s: s.black_three_in_foot is not None,
              scores=lambda s: s.black_three_in_foot is not None),
    ScoreLine(code="red_threes.foot", label="{player}'s unopened foot: red threes", option="red_three_penalty_foot",
              foot=True,
              player_count=lambda t, p: 0 if p.foot_picked_up or not t.buried else p.foot.counts()[_RED_THREE],
              each=lambda s, deal: -s.red_three_penalty_foot,
              pad="Red threes in an unopened foot", pad_when=lambda s: s.red_three_penalty_foot > 0),
)
