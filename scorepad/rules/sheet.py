"""Rule sheets: every option a published Hand and Foot sheet sets, checked when built.

A :class:`RuleSheet` is a frozen value. Build one from a preset and the options a table
changed (:func:`scorepad.rules.presets.load_sheet`), write it back as JSON
(:meth:`RuleSheet.to_json`), and list what it changes against its preset
(:meth:`RuleSheet.changes`). :data:`OPTIONS` describes each option once (its group, its
label, its default, how it is read and put into words), and the forms, the printed sheet,
the documentation and the API's description (:meth:`Option.schema`) are all driven from
it. The presets themselves, and reading a sheet's JSON form, are in :mod:`.presets`.

>>> from scorepad.rules import load_sheet
>>> sheet = load_sheet({"preset": "pagat", "hand_size": 11, "foot_size": 11})
>>> [change.option for change in sheet.changes()]
['hand_size', 'foot_size']
>>> sheet.cite("hand_size")
Cited(option='hand_size', label='Cards in the hand', words='11')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, cast

from .cards import CARDS, NATURALS, Card
from .errors import SheetError
from .limits import (
    MAX_BANDS,
    MAX_CARD_VALUES,
    MAX_DECKS_BY_PLAYERS,
    MAX_PER_SIDE,
    MAX_PILE_BLOCKERS,
    MAX_PLAYERS,
    MAX_SHEET_DEALS,
    MAX_SIDE_SIZES,
    MAX_SPECIAL_BOOKS,
    MAX_THREE_BOOKS,
    MIN_PLAYERS,
)

if TYPE_CHECKING:
    from .presets import Preset

T = TypeVar("T")


class Choice(str, Enum):
    """An option whose value is one of a few words; ``words`` puts it in plain English."""

    def __str__(self) -> str:
        return str(self.value)


class DecksRule(Choice):
    PLAYERS_PLUS_ONE = "players+1"
    PER_PLAYER = "per-player"
    FIXED = "fixed"
    BY_PLAYERS = "by-players"


class Upcard(Choice):
    BURY_WILD_RED_THREE = "bury-wild-red-three"
    BURY_WILD_THREE = "bury-wild-three"
    LEAVE = "leave"


class BookGrowth(Choice):
    CLOSED = "closed"
    NATURALS = "naturals"
    ANY = "any"


class SecondMeld(Choice):
    AFTER_BOOK = "after-book"
    ANYTIME = "anytime"


class WildRatio(Choice):
    TWICE = "twice"        # naturals >= 2 x wilds
    MORE = "more"          # naturals > wilds
    AT_LEAST = "at-least"  # naturals >= wilds
    NONE = "none"


class OpeningBy(Choice):
    DEAL = "deal"
    RUNNING_TOTAL = "running-total"


class OpeningWho(Choice):
    PLAYER = "player"
    SIDE = "side"


class OpeningPileCards(Choice):
    TOP_CARD = "top-card"
    NONE = "none"


class PileTake(Choice):
    TOP = "top"                  # the top N, all if fewer
    TOP_IF_FULL = "top-if-full"  # the top N, only when N or more are there
    WHOLE = "whole"
    NEVER = "never"


class PileNeeds(Choice):
    NATURAL_PAIR = "natural-pair"    # two naturals of the top card's rank, from the hand
    MELD_TOP_CARD = "meld-top-card"  # any way of melding the top card at once


class PileBlocker(Choice):
    BLACK_THREE = "black-three"
    RED_THREE = "red-three"
    WILD = "wild"


class LastCard(Choice):
    EITHER = "either"
    DISCARD = "discard"
    MELD = "meld"


class StockOut(Choice):
    ENDS_DEAL = "ends-deal"
    RESHUFFLE = "reshuffle"


class SpecialWilds(Choice):
    ALLOWED = "allowed"
    NEVER = "never"


class CountAs(Choice):
    """What a special or wild book counts as toward the books needed to go out."""

    CLEAN = "clean"
    DIRTY = "dirty"
    NONE = "none"


class FootWhen(Choice):
    """When a red three in a foot never picked up costs its penalty."""

    OPPONENTS_OUT = "opponents-out"
    ANY_ENDING = "any-ending"


class PartnerFoot(Choice):
    """What every partner must have done with their foot before a player may go out."""

    NO = "no"
    PICKED_UP = "picked-up"
    PLAYED = "played"


class GameLength(Choice):
    DEALS = "deals"
    TARGET = "target"


@dataclass(frozen=True)
class PerDeal(Generic[T]):
    """A value that may change from deal to deal; past the list, the last value holds.

    >>> PerDeal((50, 90, 120, 150)).at(2), PerDeal((100,)).at(3)
    (90, 100)
    """

    values: tuple[T, ...]

    def at(self, deal: int) -> T:
        return self.values[min(max(deal, 1), len(self.values)) - 1]

    @property
    def single(self) -> bool:
        return len(self.values) == 1


@dataclass(frozen=True)
class Books:
    """Books of each kind, as a going-out requirement (``special``: books of a rank the sheet
    names in ``special_books`` or ``three_books``)."""

    clean: int = 0
    dirty: int = 0
    wild: int = 0
    special: int = 0

    def __str__(self) -> str:
        parts = [f"{n} {kind}" for kind, n in
                 (("clean", self.clean), ("dirty", self.dirty), ("wild", self.wild), ("special", self.special)) if n]
        return " + ".join(parts) or "no books"

    def to_json(self) -> dict[str, int]:
        """Clean, dirty and wild always; ``special`` only when asked for (sheets before it never were)."""
        out = {"clean": self.clean, "dirty": self.dirty, "wild": self.wild}
        if self.special:
            out["special"] = self.special
        return out


@dataclass(frozen=True)
class Band:
    """An opening minimum that applies while the running total is below ``below``."""

    below: int | None
    minimum: int


@dataclass(frozen=True)
class CardValues:
    """Points of each card, by kind; a red three has none (its bonus is separate)."""

    points: tuple[int, ...]  # aligned with cards.CARDS

    def __getitem__(self, card: Card) -> int:
        return self.points[CARDS.index(card)]

    def to_json(self) -> dict[str, int]:
        return {card.value: p for card, p in zip(CARDS, self.points, strict=True) if card is not Card.RED_THREE}

    @classmethod
    def of(cls, values: Mapping[Card, int]) -> CardValues:
        return cls(tuple(values.get(card, 0) for card in CARDS))


STANDARD_VALUES = CardValues.of({
    Card.JOKER: 50, Card.TWO: 20, Card.ACE: 20,
    **{c: 10 for c in (Card.KING, Card.QUEEN, Card.JACK, Card.TEN, Card.NINE, Card.EIGHT)},
    **{c: 5 for c in (Card.SEVEN, Card.SIX, Card.FIVE, Card.FOUR)},
    Card.BLACK_THREE: 5,
})


@dataclass(frozen=True)
class RuleSheet:
    """Every option of a Hand and Foot rule sheet. Build through :func:`.presets.load_sheet`,
    :func:`.presets.preset` or :meth:`replace`; each way checks the whole sheet."""

    # The cards and the deal
    min_players: int
    max_players: int
    side_sizes: tuple[int, ...]
    decks_rule: DecksRule
    decks: int
    decks_by_players: tuple[tuple[int, int], ...]
    jokers_per_deck: int
    hand_size: int
    foot_size: int
    card_values: CardValues
    cut_bonus: int
    upcard: Upcard
    draws_per_turn: PerDeal[int]
    # Melds and wild cards
    meld_min: int
    book_size: int
    book_growth: BookGrowth
    second_meld: SecondMeld
    wild_ratio: WildRatio
    max_wilds: int | None
    min_naturals_with_wilds: int
    wild_books: bool
    # Books and bonuses
    clean_book_bonus: int
    dirty_book_bonus: int
    wild_book_bonus: int
    special_books: tuple[tuple[Card, int], ...]
    special_books_dirty: tuple[tuple[Card, int], ...]
    special_book_wilds: SpecialWilds
    three_books: tuple[tuple[Card, int], ...]
    going_out_bonus: PerDeal[int]
    # Red and black threes
    red_three_bonus: int
    red_three_penalty_hand: int
    red_three_penalty_foot: int
    red_three_penalty_foot_when: FootWhen
    black_three_in_foot: int | None
    # Opening minimums
    opening_by: OpeningBy
    opening_minimums: PerDeal[int]
    opening_bands: tuple[Band, ...]
    opening_who: OpeningWho
    opening_pile_cards: OpeningPileCards
    # Taking the pile
    pile_take: PileTake
    pile_cards: PerDeal[int]
    pile_needs: PileNeeds
    pile_needs_opened: bool
    pile_blocked_by: frozenset[PileBlocker]
    pile_frozen_by_wild: bool
    # Going out
    books_to_go_out: PerDeal[Books]
    special_books_count_as: CountAs
    wild_books_count_as: CountAs
    go_out_foot: bool
    go_out_partner_foot: PartnerFoot
    go_out_permission: bool
    last_card: LastCard
    # Scoring and game length
    stock_out: StockOut
    game_length: GameLength
    deals: int
    target_score: int
    # Which preset (and which version of it) this sheet starts from; not options.
    preset: str | None = field(default=None, compare=False)
    preset_version: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        for option in OPTIONS:
            option.check(getattr(self, option.name))
        _check_sheet(self)

    # -- building -------------------------------------------------------------------------

    def replace(self, **changes: Any) -> RuleSheet:
        """A copy with some options changed (values as Python objects), checked again."""
        return dataclasses.replace(self, **changes)

    def to_json(self, full: bool = False) -> dict[str, Any]:
        """The sheet's JSON form: its preset, the preset's version and what it changes
        against that version, or every option."""
        out: dict[str, Any] = {}
        base = None if full else self.base()
        if self.preset:
            out["preset"] = self.preset
            out["preset_version"] = self.preset_version or UNVERSIONED
        for option in OPTIONS:
            value = getattr(self, option.name)
            if full or base is None or value != getattr(base, option.name):
                out[option.name] = option.write(value)
        return out

    def to_stored_json(self) -> dict[str, Any]:
        """The form the database keeps: every option, so no later change to a preset can
        change a stored game, read back by ``load_sheet(..., stored=True)``."""
        return {"schema": SHEET_SCHEMA, **self.to_json(full=True)}

    def brief_json(self) -> str | dict[str, Any]:
        """The preset's id when the sheet is that preset as it stands today, else :meth:`to_json`."""
        found = _shipped(self.preset)
        if found is not None and self.preset_version == found.version and self == found.sheet:
            return found.id
        return self.to_json()

    # -- reading --------------------------------------------------------------------------

    def base(self) -> RuleSheet | None:
        """The preset this sheet starts from, as it was in the version the sheet was made
        from; None for a sheet without a preset."""
        found = _shipped(self.preset)
        return found.versions.get(self.preset_version or UNVERSIONED) if found is not None else None

    def changes(self) -> list[Change]:
        """The options this sheet sets differently from its preset (in the version it was
        made from), in catalogue order."""
        base = self.base()
        if base is None:
            return []
        return [Change(option.name, option.label, option.words(getattr(base, option.name), base),
                       option.words(getattr(self, option.name), self))
                for option in OPTIONS
                if getattr(self, option.name) != getattr(base, option.name)]

    def describe(self, name: str) -> str:
        """One option's value in plain words.

        >>> from scorepad.rules import preset
        >>> preset("common").describe("wild_ratio")
        'more natural cards than wild cards'
        """
        option = OPTION_BY_NAME[name]
        return option.words(getattr(self, name), self)

    def cite(self, name: str | None) -> Cited | None:
        """An option as a ruling cites it: its label and what this sheet says; None when
        ``name`` is no option (a problem or a reason that no option decides).

        >>> from scorepad.rules import preset
        >>> str(preset("pagat").cite("books_to_go_out"))
        'Books needed to go out: 2 clean + 2 dirty + 1 wild'
        >>> preset("pagat").cite(None) is None
        True
        """
        option = OPTION_BY_NAME.get(name) if name else None
        if option is None:
            return None
        return Cited(option.name, option.label, option.words(getattr(self, option.name), self))

    def unused(self, name: str) -> bool:
        """True when another option makes option ``name`` irrelevant on this sheet (the
        house-rule sheet leaves it out).

        >>> from scorepad.rules import preset
        >>> preset("common").unused("decks"), preset("pagat").unused("decks")
        (True, False)
        """
        special = bool(self.special_books or self.three_books)
        return ((name == "decks" and self.decks_rule is not DecksRule.FIXED)
                or (name == "decks_by_players" and self.decks_rule is not DecksRule.BY_PLAYERS)
                or (name in ("special_book_wilds", "special_books_count_as") and not special)
                or (name == "wild_books_count_as" and not self.wild_books)
                or (name == "red_three_penalty_foot_when" and not self.red_three_penalty_foot)
                or (name == "opening_bands" and self.opening_by is OpeningBy.DEAL)
                or (name == "opening_minimums" and self.opening_by is OpeningBy.RUNNING_TOTAL)
                or (name == "target_score" and self.game_length is GameLength.DEALS)
                or (name == "deals" and self.game_length is GameLength.TARGET)
                or (name == "pile_cards" and self.pile_take in (PileTake.WHOLE, PileTake.NEVER)))

    @property
    def individuals(self) -> bool:
        """True when every player plays alone (no partnerships)."""
        return self.side_sizes == (1,)

    def decks_for(self, players: int) -> int:
        """How many decks the pack has for this many players."""
        if self.decks_rule is DecksRule.FIXED:
            return self.decks
        if self.decks_rule is DecksRule.PER_PLAYER:
            return players
        if self.decks_rule is DecksRule.BY_PLAYERS:
            table = dict(self.decks_by_players)
            return table.get(players) or table[min(table, key=lambda n: abs(n - players))]
        return players + 1

    def value(self, card: Card) -> int:
        return self.card_values[card]

    def special_bonus(self, rank: Card) -> int | None:
        """The bonus for a clean book of ``rank`` when the sheet names one."""
        return dict(self.special_books).get(rank)

    def special_dirty_bonus(self, rank: Card) -> int | None:
        """The bonus for a dirty book of ``rank`` when ``special_books_dirty`` names one (else
        such a book scores as an ordinary dirty book)."""
        return dict(self.special_books_dirty).get(rank)

    def three_bonus(self, three: Card) -> int | None:
        """The bonus for a book of red or black threes when ``three_books`` allows one."""
        return dict(self.three_books).get(three)

    def is_special_rank(self, rank: Card) -> bool:
        """Whether a book of ``rank`` is a special book (``special_books`` names it, or
        ``three_books`` allows books of it): what ``special_book_wilds`` and
        ``special_books_count_as`` speak of."""
        return self.special_bonus(rank) is not None or self.three_bonus(rank) is not None

    def opening_minimum(self, deal: int, running_total: int = 0) -> int:
        """The points a side's (or player's) first melds must reach in this deal.

        >>> from scorepad.rules import preset
        >>> [preset("pagat").opening_minimum(n) for n in (1, 2, 3, 4)]
        [50, 90, 120, 150]
        """
        if self.opening_by is OpeningBy.DEAL:
            return self.opening_minimums.at(deal)
        for band in self.opening_bands:
            if band.below is None or running_total < band.below:
                return band.minimum
        return self.opening_bands[-1].minimum

    def going_out_books(self, deal: int) -> Books:
        """The books a side needs on the table before one of its players may go out.

        >>> from scorepad.rules import preset
        >>> str(preset("pagat").going_out_books(1))
        '2 clean + 2 dirty + 1 wild'
        """
        return self.books_to_go_out.at(deal)

    def going_out_bonus_at(self, deal: int) -> int:
        return self.going_out_bonus.at(deal)

    def last_deal(self) -> int | None:
        """The number of deals in a game, or None when the game plays to a target."""
        return self.deals if self.game_length is GameLength.DEALS else None


@dataclass(frozen=True)
class Cited:
    """An option as a ruling cites it: its label and what the sheet says, in words."""

    option: str
    label: str
    words: str

    def __str__(self) -> str:
        return f"{self.label}: {self.words}"


@dataclass(frozen=True)
class Change:
    """One option a sheet changes against its preset, in words."""

    option: str
    label: str
    preset_value: str
    value: str


# ---------------------------------------------------------------------------------------
# The catalogue of options: how each is read, written, checked and put into words.
# ---------------------------------------------------------------------------------------

GROUPS: tuple[tuple[str, str], ...] = (
    ("table", "The cards and the deal"),
    ("melds", "Melds and wild cards"),
    ("books", "Books and bonuses"),
    ("threes", "Red and black threes"),
    ("opening", "Opening minimums"),
    ("pile", "Taking the pile"),
    ("going_out", "Going out"),
    ("game", "Scoring and game length"),
)


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, Enum) else value


@dataclass(frozen=True, kw_only=True)
class Option:
    """One option of the catalogue: where a sheet shows it, its default, and how its value
    is read from JSON, checked, written back and put into words."""

    name: str
    group: str  # one of GROUPS
    label: str
    help: str
    default: Any  # what a sheet that does not give the option means; once released, never changed
    read: _Reader[Any]                      # (json value, field, base value) -> value
    words: Callable[[Any, RuleSheet], str]  # value, sheet -> plain words
    write: Callable[[Any], Any] = _plain    # value -> json value

    def check(self, value: Any) -> None:
        """Refuse a value the option cannot hold, as reading it would (a sheet built in Python)."""
        self.read(value, self.name, None)

    def schema(self) -> dict[str, Any]:
        """The JSON Schema of the option's value, as its reader bounds it, with its label, help
        and default: what the API's description (:mod:`scorepad.api.openapi`) says of it."""
        return {"title": self.label, "description": self.help, **self.read.schema,
                "default": self.write(self.default)}


def _fail(name: str, reason: str) -> SheetError:
    return SheetError(name, reason)


R = TypeVar("R", covariant=True)
C = TypeVar("C", bound=Choice)


class _Reader(Protocol[R]):
    """Reads one option's JSON value, naming the field when it cannot; the base value is optional.
    ``schema`` is the JSON Schema of what it reads, its bounds the ones it checks (:func:`_reads`)."""

    schema: dict[str, Any]

    def __call__(self, value: Any, name: str, base: Any = None, /) -> R: ...


def _reads(schema: dict[str, Any]) -> Callable[[Callable[[Any, str, Any], R]], _Reader[R]]:
    """A reader carrying ``schema``, the JSON Schema of the values it reads, written beside the
    checks it describes so that each bound is stated once."""
    def carry(read: Callable[[Any, str, Any], R]) -> _Reader[R]:
        read.schema = schema  # type: ignore[attr-defined]
        return cast("_Reader[R]", read)
    return carry


def _int(lo: int, hi: int) -> _Reader[int]:
    @_reads({"type": "integer", "minimum": lo, "maximum": hi})
    def read(value: Any, name: str, base: Any = None) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise _fail(name, f"must be a whole number, not {value!r}")
        if not lo <= value <= hi:
            raise _fail(name, f"must be from {lo} to {hi}, not {value}")
        return value
    return read


def _at_most(value: Any, name: str, most: int, what: str) -> None:
    """Refuse a list or object option longer than its bound in :mod:`.limits`."""
    if len(value) > most:
        raise _fail(name, f"lists {len(value):,} {what}; a sheet lists at most {most}")


@_reads({"type": "boolean"})
def _bool(value: Any, name: str, base: Any = None) -> bool:
    if not isinstance(value, bool):
        raise _fail(name, f"must be true or false, not {value!r}")
    return value


def _choice(kind: type[C]) -> _Reader[C]:
    @_reads({"type": "string", "enum": [c.value for c in kind]})
    def read(value: Any, name: str, base: Any = None) -> C:
        if isinstance(value, kind):
            return value
        try:
            return kind(value)
        except ValueError:
            allowed = ", ".join(repr(c.value) for c in kind)
            raise _fail(name, f"must be one of {allowed}, not {value!r}") from None
    return read


def _optional(read_inner: _Reader[R]) -> _Reader[R | None]:
    @_reads({"anyOf": [read_inner.schema, {"type": "null"}]})
    def read(value: Any, name: str, base: Any = None) -> R | None:
        return None if value is None else read_inner(value, name, base)
    return read


def _per_deal(read_item: _Reader[R]) -> _Reader[PerDeal[R]]:
    @_reads({"anyOf": [read_item.schema,
                       {"type": "array", "items": read_item.schema, "minItems": 1, "maxItems": MAX_SHEET_DEALS}]})
    def read(value: Any, name: str, base: Any = None) -> PerDeal[R]:
        if isinstance(value, PerDeal):
            _at_most(value.values, name, MAX_SHEET_DEALS, "deals")
            return PerDeal(tuple(read_item(v, f"{name}[{i}]", None) for i, v in enumerate(value.values)))
        if isinstance(value, list):
            if not value:
                raise _fail(name, "needs at least one value")
            _at_most(value, name, MAX_SHEET_DEALS, "deals")
            return PerDeal(tuple(read_item(v, f"{name}[{i}]", None) for i, v in enumerate(value)))
        return PerDeal((read_item(value, name, None),))
    return read


def _write_per_deal(write_item: Callable[[Any], Any]) -> Callable[[PerDeal[Any]], Any]:
    def write(value: PerDeal[Any]) -> Any:
        items = [write_item(v) for v in value.values]
        return items[0] if value.single else items
    return write


_BOOK_COUNT = _int(0, 20)


_BOOK_KINDS = ("clean", "dirty", "wild", "special")


@_reads({"type": "object", "properties": {kind: _BOOK_COUNT.schema for kind in _BOOK_KINDS},
         "additionalProperties": False})
def _read_books(value: Any, name: str, base: Any = None) -> Books:
    if isinstance(value, Books):
        value = dataclasses.asdict(value)
    if not isinstance(value, Mapping):
        raise _fail(name, 'must be an object such as {"clean": 1, "dirty": 1, "wild": 0}')
    unknown = set(value) - set(_BOOK_KINDS)
    if unknown:
        raise _fail(f"{name}.{sorted(unknown)[0]}", "is not a kind of book (clean, dirty, wild, special)")
    read = _BOOK_COUNT
    return Books(**{k: read(v, f"{name}.{k}") for k, v in value.items()})


_CARD_POINTS = _int(0, 10_000)


@_reads({"type": "object", "maxProperties": MAX_CARD_VALUES,
         "properties": {card.value: _CARD_POINTS.schema for card in CARDS if card is not Card.RED_THREE}})
def _read_card_values(value: Any, name: str, base: Any = None) -> CardValues:
    if isinstance(value, CardValues):
        value = value.to_json()
    if not isinstance(value, Mapping):
        raise _fail(name, 'must be an object of points by card, such as {"A": 20, "K": 10}')
    _at_most(value, name, MAX_CARD_VALUES, "cards")
    points = dict(base.to_json()) if isinstance(base, CardValues) else {}
    read = _CARD_POINTS
    for key, points_each in value.items():
        try:
            card = Card(str(key).upper())
        except ValueError:
            card = None
        if card is None or card is Card.RED_THREE:
            raise _fail(f"{name}.{key}", "is not a card with a value "
                        "(A K Q J 10 9 8 7 6 5 4, 2, JK, 3B)")
        points[card.value] = read(points_each, f"{name}.{key}")
    missing = [c.value for c in CARDS if c is not Card.RED_THREE and c.value not in points]
    if missing:
        raise _fail(f"{name}.{missing[0]}", "has no value")
    return CardValues.of({Card(k): v for k, v in points.items()})


_SPECIAL_BONUS = _int(0, 100_000)


def _bonus_by_rank(ranks: tuple[Card, ...], most: int, example: str,
                   wrong: str) -> _Reader[tuple[tuple[Card, int], ...]]:
    """A reader of bonuses by rank (``ranks`` the keys it takes), such as ``{"7": 1000}``."""
    @_reads({"type": "object", "maxProperties": most,
             "properties": {card.value: _SPECIAL_BONUS.schema for card in ranks}})
    def read(value: Any, name: str, base: Any = None) -> tuple[tuple[Card, int], ...]:
        if isinstance(value, tuple):
            value = {card.value: bonus for card, bonus in value}
        if not isinstance(value, Mapping):
            raise _fail(name, f"must be an object of bonus by rank, such as {example}")
        _at_most(value, name, most, "ranks")
        out = []
        for key, bonus in value.items():
            try:
                card = Card(str(key).upper())
            except ValueError:
                card = None
            if card is None or card not in ranks:
                raise _fail(f"{name}.{key}", wrong)
            out.append((card, _SPECIAL_BONUS(bonus, f"{name}.{key}")))
        return tuple(sorted(out, key=lambda pair: CARDS.index(pair[0])))
    return read


_BOOKABLE = "is not a rank that can be booked (A K Q J 10 9 8 7 6 5 4)"
_read_special_books = _bonus_by_rank(NATURALS, MAX_SPECIAL_BOOKS, '{"7": 1000}', _BOOKABLE)
_read_special_dirty = _bonus_by_rank(NATURALS, MAX_SPECIAL_BOOKS, '{"7": 500}', _BOOKABLE)
_read_three_books = _bonus_by_rank((Card.BLACK_THREE, Card.RED_THREE), MAX_THREE_BOOKS, '{"3R": 1000, "3B": 500}',
                                   "is not a book of threes: 3R (red threes) or 3B (black threes)")
_DECKS = _int(1, 12)
_PLAYER_COUNTS = tuple(str(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1))


@_reads({"type": "object", "maxProperties": MAX_DECKS_BY_PLAYERS,
         "properties": {n: _DECKS.schema for n in _PLAYER_COUNTS}, "additionalProperties": False})
def _read_decks_by_players(value: Any, name: str, base: Any = None) -> tuple[tuple[int, int], ...]:
    if isinstance(value, tuple):
        value = {str(players): decks for players, decks in value}
    if not isinstance(value, Mapping):
        raise _fail(name, 'must be an object of decks by number of players, such as {"4": 5, "6": 6}')
    _at_most(value, name, MAX_DECKS_BY_PLAYERS, "numbers of players")
    out = {}
    for key, decks in value.items():
        if str(key) not in _PLAYER_COUNTS:
            raise _fail(f"{name}.{key}", f"is not a number of players from {MIN_PLAYERS} to {MAX_PLAYERS}")
        out[int(key)] = _DECKS(decks, f"{name}.{key}")
    return tuple(sorted(out.items()))


@_reads({"anyOf": [_choice(PartnerFoot).schema, {"type": "boolean"}]})
def _read_partner_foot(value: Any, name: str, base: Any = None) -> PartnerFoot:
    """'no', 'picked-up' or 'played'; a sheet written before the choice said true or false."""
    if isinstance(value, bool):
        return PartnerFoot.PICKED_UP if value else PartnerFoot.NO
    return _choice(PartnerFoot)(value, name)


_BAND_BELOW, _BAND_MINIMUM = _int(-100_000, 1_000_000), _int(0, 10_000)


@_reads({"type": "array", "minItems": 1, "maxItems": MAX_BANDS, "items": {
    "type": "object", "properties": {"below": _BAND_BELOW.schema, "minimum": _BAND_MINIMUM.schema},
    "required": ["minimum"], "additionalProperties": False}})
def _read_bands(value: Any, name: str, base: Any = None) -> tuple[Band, ...]:
    if isinstance(value, tuple):
        _at_most(value, name, MAX_BANDS, "bands")
        return value
    if not isinstance(value, list) or not value:
        raise _fail(name, 'must be a list such as [{"below": 2500, "minimum": 50}, {"minimum": 90}]')
    _at_most(value, name, MAX_BANDS, "bands")
    bands = []
    for i, band in enumerate(value):
        where = f"{name}[{i}]"
        if not isinstance(band, Mapping) or "minimum" not in band or set(band) - {"below", "minimum"}:
            raise _fail(where, 'must be an object such as {"below": 2500, "minimum": 50}')
        below = band.get("below")
        bands.append(Band(None if below is None else _BAND_BELOW(below, f"{where}.below"),
                          _BAND_MINIMUM(band["minimum"], f"{where}.minimum")))
    return tuple(bands)


def _check_bands(bands: tuple[Band, ...]) -> None:
    last = None
    for i, band in enumerate(bands):
        if band.below is None and i != len(bands) - 1:
            raise _fail(f"opening_bands[{i}].below", "only the last band may be open-ended")
        if band.below is not None and last is not None and band.below <= last:
            raise _fail(f"opening_bands[{i}].below", "bands must rise")
        last = band.below
    if bands[-1].below is not None:
        raise _fail(f"opening_bands[{len(bands) - 1}]", "the last band must have no upper bound (leave out 'below')")


_SIDE_SIZE = _int(1, MAX_PER_SIDE)


@_reads({"anyOf": [_SIDE_SIZE.schema,
                   {"type": "array", "items": _SIDE_SIZE.schema, "minItems": 1, "maxItems": MAX_SIDE_SIZES,
                    "uniqueItems": True}]})
def _read_side_sizes(value: Any, name: str, base: Any = None) -> tuple[int, ...]:
    if isinstance(value, int) and not isinstance(value, bool):
        value = [value]
    if not isinstance(value, (list, tuple)) or not value:
        raise _fail(name, "must list the players a side may have, such as [1] or [2] or [1, 2]")
    _at_most(value, name, MAX_SIDE_SIZES, "sizes")
    read = _SIDE_SIZE
    return tuple(sorted({read(v, f"{name}[{i}]") for i, v in enumerate(value)}))


@_reads({"type": "array", "items": _choice(PileBlocker).schema, "maxItems": MAX_PILE_BLOCKERS, "uniqueItems": True})
def _read_blockers(value: Any, name: str, base: Any = None) -> frozenset[PileBlocker]:
    if not isinstance(value, (list, tuple, set, frozenset)):
        raise _fail(name, "must be a list of 'black-three', 'red-three', 'wild'")
    _at_most(value, name, MAX_PILE_BLOCKERS, "cards")
    read = _choice(PileBlocker)
    return frozenset(read(v, f"{name}[{i}]") for i, v in enumerate(value))


def _points(n: int) -> str:
    return f"{n:,} points" if n != 1 else "1 point"


def _by_deal(value: PerDeal[Any], fmt: Callable[[Any], str] = str) -> str:
    if value.single:
        return fmt(value.values[0])
    return ", ".join(f"deal {i} {fmt(v)}" for i, v in enumerate(value.values, 1))


def _yes_no(yes: str, no: str) -> Callable[[bool, RuleSheet], str]:
    return lambda value, sheet: yes if value else no


def _words_card_values(values: CardValues, sheet: RuleSheet) -> str:
    groups: dict[int, list[str]] = {}
    for card in (Card.JOKER, Card.TWO, *NATURALS, Card.BLACK_THREE):
        groups.setdefault(values[card], []).append(
            "black 3" if card is Card.BLACK_THREE else "joker" if card is Card.JOKER else card.value)
    return "; ".join(f"{' '.join(cards)}: {p}" for p, cards in groups.items())


def _words_decks(rule: DecksRule, sheet: RuleSheet) -> str:
    return {DecksRule.PLAYERS_PLUS_ONE: "one more deck than there are players",
            DecksRule.PER_PLAYER: "one deck per player",
            DecksRule.FIXED: f"always {sheet.decks} decks",
            DecksRule.BY_PLAYERS: "by the number of players, from the table"}[rule]


def _words_side_sizes(sizes: tuple[int, ...], sheet: RuleSheet) -> str:
    names = {1: "individuals", 2: "partnerships of 2", 3: "partnerships of 3", 4: "partnerships of 4"}
    return " or ".join(names[s] for s in sizes)


def _words_wild_ratio(ratio: WildRatio, sheet: RuleSheet) -> str:
    return {WildRatio.TWICE: "at least twice as many natural cards as wild cards",
            WildRatio.MORE: "more natural cards than wild cards",
            WildRatio.AT_LEAST: "never more wild cards than natural cards",
            WildRatio.NONE: "no ratio"}[ratio]


def _words_bands(bands: tuple[Band, ...], sheet: RuleSheet) -> str:
    return "; ".join(f"below {b.below:,}: {b.minimum}" if b.below is not None else f"otherwise {b.minimum}"
                     for b in bands)


def _words_rank_bonuses(what: str) -> Callable[[tuple[tuple[Card, int], ...], RuleSheet], str]:
    def words(bonuses: tuple[tuple[Card, int], ...], sheet: RuleSheet) -> str:
        return "; ".join(f"{what} of {card.noun}: {_points(bonus)}" for card, bonus in bonuses) or "none"
    return words


def _words_decks_by_players(table: tuple[tuple[int, int], ...], sheet: RuleSheet) -> str:
    words = "; ".join(f"{players} players: {decks}" for players, decks in table) or "none"
    return words if sheet.decks_rule is DecksRule.BY_PLAYERS else f"{words} (not used)"


def _words_count_as(kind: str) -> Callable[[CountAs, RuleSheet], str]:
    def words(value: CountAs, sheet: RuleSheet) -> str:
        return {CountAs.CLEAN: f"{kind} beyond those asked for count as clean books",
                CountAs.DIRTY: f"{kind} beyond those asked for count as dirty books",
                CountAs.NONE: f"{kind} count only where asked for by name"}[value]
    return words


def _words_blockers(blockers: frozenset[PileBlocker], sheet: RuleSheet) -> str:
    if not blockers:
        return "nothing"
    names = {PileBlocker.BLACK_THREE: "a black three", PileBlocker.RED_THREE: "a red three",
             PileBlocker.WILD: "a wild card"}
    return " or ".join(names[b] for b in sorted(blockers, key=list(PileBlocker).index)) + " on top"


_COUNT = _int(0, 100_000)
_BONUS = _int(-100_000, 100_000)

# Every option, in the order a player reads a sheet. A new option is one entry here (its
# default is what every sheet stored before it means) and a field of RuleSheet.
OPTIONS: tuple[Option, ...] = (
    # The cards and the deal
    Option(name="min_players", group="table", label="Fewest players", default=2,
           help="The smallest table this sheet is written for.",
           read=_int(MIN_PLAYERS, MAX_PLAYERS),
           words=lambda v, s: str(v)),
    Option(name="max_players", group="table", label="Most players", default=6,
           help="The largest table this sheet is written for.",
           read=_int(MIN_PLAYERS, MAX_PLAYERS),
           words=lambda v, s: str(v)),
    Option(name="side_sizes", group="table", label="Players per side", default=(1, 2),
           help="1 for individuals, 2 to 4 for partnerships; list several if the sheet allows them.",
           read=_read_side_sizes,
           words=_words_side_sizes,
           write=list),
    Option(name="decks_rule", group="table", label="Number of decks", default=DecksRule.PLAYERS_PLUS_ONE,
           help="'players+1', 'per-player', 'fixed' (then 'decks' gives the number) or 'by-players' "
                "(then 'decks_by_players' gives the number for each number of players).",
           read=_choice(DecksRule),
           words=_words_decks),
    Option(name="decks", group="table", label="Decks (when fixed)", default=5,
           help="Decks in the pack when the number is fixed.",
           read=_int(1, 12),
           words=lambda v, s: str(v) if s.decks_rule is DecksRule.FIXED else f"{v} (not used)"),
    Option(name="decks_by_players", group="table", label="Decks by number of players", default=(),
           help="Decks in the pack for each number of players, such as {\"4\": 5, \"6\": 6}, when the "
                "number of decks is 'by-players'; it must give every number of players the sheet allows.",
           read=_read_decks_by_players,
           words=_words_decks_by_players,
           write=lambda v: {str(players): decks for players, decks in v}),
    Option(name="jokers_per_deck", group="table", label="Jokers per deck", default=2,
           help="Jokers shuffled in with each deck.",
           read=_int(0, 4),
           words=lambda v, s: str(v)),
    Option(name="hand_size", group="table", label="Cards in the hand", default=11,
           help="Cards dealt to each player's hand.",
           read=_int(1, 30),
           words=lambda v, s: str(v)),
    Option(name="foot_size", group="table", label="Cards in the foot", default=11,
           help="Cards dealt to each player's foot.",
           read=_int(1, 30),
           words=lambda v, s: str(v)),
    Option(name="card_values", group="table", label="Card values", default=STANDARD_VALUES,
           help="Points of each card, melded or left in hand. A black three left in hand counts against.",
           read=_read_card_values,
           words=_words_card_values,
           write=lambda v: v.to_json()),
    Option(name="cut_bonus", group="table", label="Cut bonus", default=0,
           help="Points to a player who picks up exactly the cards for their hand and foot when cutting; 0 for none.",
           read=_COUNT,
           words=lambda v, s: _points(v) if v else "none"),
    Option(name="upcard", group="table", label="First upcard", default=Upcard.BURY_WILD_THREE,
           help="What happens when the first card turned up is a wild card or a three.",
           read=_choice(Upcard),
           words=lambda v, s: {
               Upcard.BURY_WILD_RED_THREE: "a wild card or red three is buried and another turned",
               Upcard.BURY_WILD_THREE: "a wild card or any three is buried and another turned",
               Upcard.LEAVE: "left for the first player who takes the pile"}[v]),
    Option(name="draws_per_turn", group="table", label="Cards drawn per turn", default=PerDeal((2,)),
           help="Cards drawn from the stock each turn.",
           read=_per_deal(_int(1, 10)),
           words=lambda v, s: _by_deal(v),
           write=_write_per_deal(int)),
    # Melds and wild cards
    Option(name="meld_min", group="melds", label="Fewest cards in a meld", default=3,
           help="A new meld needs at least this many cards.",
           read=_int(3, 13),
           words=lambda v, s: str(v)),
    Option(name="book_size", group="melds", label="Cards in a book", default=7,
           help="A meld with this many cards is a book.",
           read=_int(3, 13),
           words=lambda v, s: str(v)),
    Option(name="book_growth", group="melds", label="Books past full size", default=BookGrowth.CLOSED,
           help="'closed' (a book takes no more cards), 'naturals' (natural cards only) or 'any'.",
           read=_choice(BookGrowth),
           words=lambda v, s: {
               BookGrowth.CLOSED: "a book takes no more cards",
               BookGrowth.NATURALS: "a book may keep growing with natural cards",
               BookGrowth.ANY: "a book may keep growing with any card"}[v]),
    Option(name="second_meld", group="melds", label="A second meld of a rank", default=SecondMeld.AFTER_BOOK,
           help="'after-book' (only once the first is a book) or 'anytime'.",
           read=_choice(SecondMeld),
           words=lambda v, s: {
               SecondMeld.AFTER_BOOK: "only after the first meld of that rank is a book",
               SecondMeld.ANYTIME: "allowed at any time"}[v]),
    Option(name="wild_ratio", group="melds", label="Wild cards against naturals", default=WildRatio.MORE,
           help="'twice' (naturals at least twice the wilds), 'more' (naturals outnumber wilds), "
                "'at-least' (wilds never outnumber naturals) or 'none'.",
           read=_choice(WildRatio),
           words=_words_wild_ratio),
    Option(name="max_wilds", group="melds", label="Most wild cards in a meld", default=3,
           help="A number; none (a blank box, null in JSON) for no limit.",
           read=_optional(_int(0, 13)),
           words=lambda v, s: "no limit" if v is None else str(v)),
    Option(name="min_naturals_with_wilds", group="melds", label="Natural cards a meld with wilds needs", default=0,
           help="A meld holding any wild card needs at least this many natural cards; 0 for no rule.",
           read=_int(0, 13),
           words=lambda v, s: str(v) if v else "no rule"),
    Option(name="wild_books", group="melds", label="Melds of wild cards only", default=False,
           help="Whether 2s and jokers may be melded alone, building a wild book.",
           read=_bool,
           words=_yes_no("allowed", "not allowed")),
    # Books and bonuses
    Option(name="clean_book_bonus", group="books", label="Clean book", default=500,
           help="Bonus for a book with no wild card.",
           read=_COUNT,
           words=lambda v, s: _points(v)),
    Option(name="dirty_book_bonus", group="books", label="Dirty book", default=300,
           help="Bonus for a book holding wild cards.",
           read=_COUNT,
           words=lambda v, s: _points(v)),
    Option(name="wild_book_bonus", group="books", label="Wild book", default=1500,
           help="Bonus for a book of wild cards only.",
           read=_COUNT,
           words=lambda v, s: _points(v) if s.wild_books else f"{_points(v)} (wild books not allowed)"),
    Option(name="special_books", group="books", label="Special books", default=(),
           help="Bonus for a clean book of a named rank, in place of the clean-book bonus, "
                "such as 1,000 points for a clean book of 7s.",
           read=_read_special_books,
           words=_words_rank_bonuses("clean book"),
           write=lambda v: {card.value: bonus for card, bonus in v}),
    Option(name="special_books_dirty", group="books", label="Dirty special books", default=(),
           help="Bonus for a dirty book of a rank named in special_books, in place of the dirty-book bonus, "
                "such as {\"7\": 500}; a rank not named here scores a dirty book of it as any dirty book.",
           read=_read_special_dirty,
           words=_words_rank_bonuses("dirty book"),
           write=lambda v: {card.value: bonus for card, bonus in v}),
    Option(name="special_book_wilds", group="books", label="Wild cards in a special book",
           default=SpecialWilds.ALLOWED,
           help="'allowed' or 'never': whether a meld of a rank named in special_books (or a book of threes) "
                "may hold 2s and jokers.",
           read=_choice(SpecialWilds),
           words=lambda v, s: {SpecialWilds.ALLOWED: "allowed, as in any meld",
                               SpecialWilds.NEVER: "never: a special book is always clean"}[v]),
    Option(name="three_books", group="books", label="Books of threes", default=(),
           help="Bonus for a book of red threes (3R) or black threes (3B), such as {\"3R\": 1000, \"3B\": 500}; "
                "threes named here may be melded (as 3R or 3B) and their books are special books. Threes are "
                "never melded with wild cards, and melded threes score their card values (a red three 0).",
           read=_read_three_books,
           words=_words_rank_bonuses("book"),
           write=lambda v: {card.value: bonus for card, bonus in v}),
    Option(name="going_out_bonus", group="books", label="Going out", default=PerDeal((100,)),
           help="Bonus to the side of the player who goes out.",
           read=_per_deal(_COUNT),
           words=lambda v, s: _by_deal(v, _points),
           write=_write_per_deal(int)),
    # Red and black threes
    Option(name="red_three_bonus", group="threes", label="Red three laid", default=100,
           help="Bonus for each red three laid on the table; negative on a sheet that takes points off for them.",
           read=_BONUS,
           words=lambda v, s: _points(v) if v >= 0 else f"minus {_points(-v)}"),
    Option(name="red_three_penalty_hand", group="threes", label="Red three left in a hand", default=0,
           help="Points taken off for each red three still in a hand when the deal ends.",
           read=_COUNT,
           words=lambda v, s: f"minus {_points(v)}" if v else "nothing"),
    Option(name="red_three_penalty_foot", group="threes", label="Red three in a foot never picked up", default=0,
           help="Points taken off for each red three in a foot that was never picked up.",
           read=_COUNT,
           words=lambda v, s: f"minus {_points(v)}" if v else "nothing"),
    Option(name="red_three_penalty_foot_when", group="threes", label="Red three in a foot: when it costs",
           default=FootWhen.ANY_ENDING,
           help="'any-ending' (however the deal ends) or 'opponents-out' (only when a player of another side "
                "went out, leaving the foot buried).",
           read=_choice(FootWhen),
           words=lambda v, s: {FootWhen.ANY_ENDING: "however the deal ends",
                               FootWhen.OPPONENTS_OUT: "only when a player of another side went out"}[v]),
    Option(name="black_three_in_foot", group="threes", label="Black three in a foot never picked up",
           default=None,
           help="Points taken off for each black three in a foot never picked up, on a line of its own; "
                "null for its card value, as any card left.",
           read=_optional(_COUNT),
           words=lambda v, s: "its card value" if v is None else f"minus {_points(v)}"),
    # Opening minimums
    Option(name="opening_by", group="opening", label="Minimum set by", default=OpeningBy.DEAL,
           help="'deal' (a minimum for each deal) or 'running-total' (by the side's total so far).",
           read=_choice(OpeningBy),
           words=lambda v, s: {OpeningBy.DEAL: "the deal number",
                               OpeningBy.RUNNING_TOTAL: "the running total"}[v]),
    Option(name="opening_minimums", group="opening", label="Minimum by deal", default=PerDeal((50, 90, 120, 150)),
           help="Points the first melds must reach: one number, or one for each deal.",
           read=_per_deal(_int(0, 10_000)),
           words=lambda v, s: _by_deal(v),
           write=_write_per_deal(int)),
    Option(name="opening_bands", group="opening", label="Minimum by running total",
           default=(Band(2500, 50), Band(5000, 90), Band(7500, 120), Band(None, 150)),
           help="Used when the minimum is set by running total: bands that rise with the total.",
           read=_read_bands,
           words=_words_bands,
           write=lambda v: [
               {"below": b.below, "minimum": b.minimum} if b.below is not None else {"minimum": b.minimum}
               for b in v]),
    Option(name="opening_who", group="opening", label="Who must meet the minimum", default=OpeningWho.PLAYER,
           help="'player' (each player's first melds) or 'side' (the side's first melds).",
           read=_choice(OpeningWho),
           words=lambda v, s: {OpeningWho.PLAYER: "each player",
                               OpeningWho.SIDE: "the side, once"}[v]),
    Option(name="opening_pile_cards", group="opening", label="Pile cards toward the minimum",
           default=OpeningPileCards.TOP_CARD,
           help="'top-card' (the top card of the pile counts) or 'none'.",
           read=_choice(OpeningPileCards),
           words=lambda v, s: {
               OpeningPileCards.TOP_CARD: "only the top card counts; buried cards do not",
               OpeningPileCards.NONE: "no card from the pile counts"}[v]),
    # Taking the pile
    Option(name="pile_take", group="pile", label="Taking the discard pile", default=PileTake.TOP_IF_FULL,
           help="'top' (the top cards, all if fewer), 'top-if-full' (only when that many are there), "
                "'whole' or 'never'.",
           read=_choice(PileTake),
           words=lambda v, s: {
               PileTake.TOP: f"the top {_by_deal(s.pile_cards)} cards (all if fewer)",
               PileTake.TOP_IF_FULL: f"the top {_by_deal(s.pile_cards)} cards, only when that many are there",
               PileTake.WHOLE: "the whole pile",
               PileTake.NEVER: "never"}[v]),
    Option(name="pile_cards", group="pile", label="Cards taken from the pile", default=PerDeal((7,)),
           help="How many cards a player takes, top card included; one number or one per deal.",
           read=_per_deal(_int(1, 200)),
           words=lambda v, s: _by_deal(v),
           write=_write_per_deal(int)),
    Option(name="pile_needs", group="pile", label="What taking the pile needs", default=PileNeeds.NATURAL_PAIR,
           help="'natural-pair' (two natural cards of the top card's rank from the hand, melded with it "
                "at once) or 'meld-top-card' (the top card must be melded at once, any legal way).",
           read=_choice(PileNeeds),
           words=lambda v, s: {
               PileNeeds.NATURAL_PAIR: "a natural pair of the top card's rank from the hand, melded with it at once",
               PileNeeds.MELD_TOP_CARD: "the top card melded at once"}[v]),
    Option(name="pile_needs_opened", group="pile", label="Only after opening", default=True,
           help="Whether the side must already have met its opening minimum to take the pile.",
           read=_bool,
           words=_yes_no("yes, the first melds must be down", "no")),
    Option(name="pile_blocked_by", group="pile", label="The pile is blocked by",
           default=frozenset({PileBlocker.BLACK_THREE, PileBlocker.RED_THREE, PileBlocker.WILD}),
           help="Cards that block the pile when on top: 'black-three', 'red-three', 'wild'.",
           read=_read_blockers,
           words=_words_blockers,
           write=lambda v: sorted(b.value for b in v)),
    Option(name="pile_frozen_by_wild", group="pile", label="A wild card freezes the pile", default=False,
           help="Whether a wild card in the pile means it may be taken only with a natural pair.",
           read=_bool,
           words=_yes_no("yes", "no")),
    # Going out
    Option(name="books_to_go_out", group="going_out", label="Books needed to go out",
           default=PerDeal((Books(clean=1, dirty=1),)),
           help="Books the side needs before a player may go out: one requirement or one per deal. "
                "A clean book does not stand in for a dirty one.",
           read=_per_deal(_read_books),
           words=lambda v, s: _by_deal(v),
           write=_write_per_deal(Books.to_json)),
    Option(name="special_books_count_as", group="going_out", label="Special books toward going out",
           default=CountAs.CLEAN,
           help="What a special book (a rank named in special_books, or a book of threes) counts as toward the "
                "books needed to go out, once any 'special' books asked for are filled: 'clean', 'dirty' or "
                "'none'. A dirty special book never counts as clean: with 'clean' or 'dirty' it counts as dirty.",
           read=_choice(CountAs),
           words=_words_count_as("special books")),
    Option(name="wild_books_count_as", group="going_out", label="Wild books toward going out", default=CountAs.NONE,
           help="What a wild book counts as toward the books needed to go out, once any 'wild' books asked for "
                "are filled: 'clean', 'dirty' or 'none' (only toward a wild book asked for).",
           read=_choice(CountAs),
           words=_words_count_as("wild books")),
    Option(name="go_out_foot", group="going_out", label="Foot played first", default=True,
           help="Whether the player going out must have picked up and played their foot.",
           read=_bool,
           words=_yes_no("yes", "no")),
    Option(name="go_out_partner_foot", group="going_out", label="Partner's foot", default=PartnerFoot.NO,
           help="What every partner must have done with their foot before a player may go out: 'no' (nothing), "
                "'picked-up' or 'played' (picked up and played from it; a deal says so with a player's "
                "foot_played). true and false are read as 'picked-up' and 'no'.",
           read=_read_partner_foot,
           words=lambda v, s: {PartnerFoot.NO: "no rule", PartnerFoot.PICKED_UP: "every partner has picked it up",
                               PartnerFoot.PLAYED: "every partner has picked it up and played from it"}[v]),
    Option(name="go_out_permission", group="going_out", label="Ask partner's permission", default=False,
           help="Whether a player must ask a partner 'may I go out?' and be told yes.",
           read=_bool,
           words=_yes_no("yes", "no")),
    Option(name="last_card", group="going_out", label="The last card", default=LastCard.EITHER,
           help="'either' (melded or discarded), 'discard' (must be discarded) or 'meld' (must be melded).",
           read=_choice(LastCard),
           words=lambda v, s: {LastCard.EITHER: "melded or discarded",
                               LastCard.DISCARD: "must be discarded",
                               LastCard.MELD: "must be melded, not discarded"}[v]),
    # Scoring and game length
    Option(name="stock_out", group="game", label="When the stock runs out", default=StockOut.ENDS_DEAL,
           help="'ends-deal' (the deal ends; nobody gets the going-out bonus) or 'reshuffle' "
                "(the discard pile is shuffled into a new stock).",
           read=_choice(StockOut),
           words=lambda v, s: {
               StockOut.ENDS_DEAL: "the deal ends and nobody gets the going-out bonus",
               StockOut.RESHUFFLE: "the discard pile is reshuffled and play goes on"}[v]),
    Option(name="game_length", group="game", label="Game length", default=GameLength.DEALS,
           help="'deals' (a fixed number of deals) or 'target' (play until a side reaches the target score).",
           read=_choice(GameLength),
           words=lambda v, s: f"{s.deals} deals" if v is GameLength.DEALS
                                 else f"until a side reaches {s.target_score:,}"),
    Option(name="deals", group="game", label="Deals in a game", default=4,
           help="The number of deals when the game has a fixed length.",
           read=_int(1, 20),
           words=lambda v, s: str(v)),
    Option(name="target_score", group="game", label="Target score", default=10_000,
           help="The total that ends the game when it plays to a target; highest total wins.",
           read=_int(1, 1_000_000),
           words=lambda v, s: f"{v:,}"),
)

OPTION_BY_NAME: dict[str, Option] = {option.name: option for option in OPTIONS}

# Each option's default: what a sheet means when it does not give the option (a stored
# sheet written before the option existed). The common preset plays exactly these.
DEFAULTS: dict[str, Any] = {option.name: option.default for option in OPTIONS}


def _check_sheet(sheet: RuleSheet) -> None:
    """Checks that involve more than one option."""
    if sheet.min_players > sheet.max_players:
        raise _fail("min_players", f"{sheet.min_players} is more than the most players, {sheet.max_players}")
    if not any(n % size == 0 and n // size >= 2
               for n in range(sheet.min_players, sheet.max_players + 1) for size in sheet.side_sizes):
        raise _fail("side_sizes", "no number of players on this sheet splits into two or more such sides")
    if sheet.meld_min > sheet.book_size:
        raise _fail("meld_min", f"a meld of {sheet.meld_min} cannot be smaller than a book of {sheet.book_size}")
    if sheet.max_wilds is not None and sheet.max_wilds > sheet.book_size:
        raise _fail("max_wilds", "cannot be more than the cards in a book")
    if sheet.min_naturals_with_wilds >= sheet.book_size:
        raise _fail("min_naturals_with_wilds", "would leave no room for a wild card in a book")
    _check_bands(sheet.opening_bands)
    if sheet.game_length is GameLength.DEALS:
        for name in ("draws_per_turn", "going_out_bonus", "opening_minimums", "pile_cards", "books_to_go_out"):
            schedule: PerDeal[object] = getattr(sheet, name)
            if not schedule.single and len(schedule.values) < sheet.deals:
                raise _fail(name, f"lists {len(schedule.values)} deals but the game has {sheet.deals}; "
                            "give one value for every deal, or a single value for all")
    _check_going_out_books(sheet)
    _check_special(sheet)
    if sheet.decks_rule is DecksRule.BY_PLAYERS:
        table = dict(sheet.decks_by_players)
        missing = [n for n in range(sheet.min_players, sheet.max_players + 1) if n not in table]
        if missing:
            raise _fail("decks_by_players", f"gives no number of decks for {missing[0]} players; the sheet is "
                        f"for {sheet.min_players} to {sheet.max_players}")


def _check_going_out_books(sheet: RuleSheet) -> None:
    """Books asked for to go out are books the sheet lets a side make."""
    for deal, books in enumerate(sheet.books_to_go_out.values, 1):
        where = "books_to_go_out" if sheet.books_to_go_out.single else f"books_to_go_out[{deal - 1}]"
        if books.wild and not sheet.wild_books:
            raise _fail(where, "asks for a wild book, but this sheet does not allow melds of wild cards")
        if books.special and not (sheet.special_books or sheet.three_books):
            raise _fail(where, "asks for a special book, but this sheet names none (special_books, three_books)")


def _check_special(sheet: RuleSheet) -> None:
    """A dirty special book's bonus names a special rank, on a sheet that lets one hold wild cards."""
    for card, _ in sheet.special_books_dirty:
        if sheet.special_bonus(card) is None:
            raise _fail(f"special_books_dirty.{card.value}", f"{card.noun} are not named in special_books")
        if sheet.special_book_wilds is SpecialWilds.NEVER:
            raise _fail(f"special_books_dirty.{card.value}", "names a bonus for a dirty book of "
                        f"{card.noun}, but special_book_wilds says a special book never holds wild cards")


SHEET_SCHEMA = 1  # the shape of a stored sheet (RuleSheet.to_stored_json); read by load_sheet
UNVERSIONED = 1  # the version of every preset before versions were recorded


def _shipped(preset_id: str | None) -> Preset | None:
    """The shipped preset of this id, for a sheet comparing itself with its preset.

    :mod:`.presets` builds its sheets with this module, so this one place imports it when
    first asked rather than at the top; every other use takes sheets as arguments.
    """
    if not preset_id:
        return None
    from .presets import PRESETS
    return PRESETS.get(preset_id)


def options_by_group() -> Iterator[tuple[str, str, list[Option]]]:
    """(group id, group title, options) in the order a player reads a sheet."""
    for group, title in GROUPS:
        yield group, title, [o for o in OPTIONS if o.group == group]
