"""How each option's value is read from JSON and checked: a :class:`Reader` names the field
it cannot read (a :class:`~.errors.SheetError`) and carries the JSON Schema of what it
reads (:func:`reads`), so each bound is stated once, beside its check.

The catalogue (:mod:`.catalogue`) gives each option one of these; a new kind of value (not
a number, a choice, a list per deal...) adds its reader here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence, Sized
from typing import Generic, TypeVar

from .cards import CARDS, NATURALS, Card
from .choices import (
    Band,
    BookGrowth,
    Books,
    CardValues,
    Choice,
    GrowthByKind,
    OpeningBook,
    PartnerFoot,
    PerDeal,
    PileBlocker,
)
from .errors import SheetError
from .limits import (
    MAX_BANDS,
    MAX_CARD_VALUES,
    MAX_DECKS_BY_PLAYERS,
    MAX_HOUSE_RULE,
    MAX_HOUSE_RULES,
    MAX_PER_SIDE,
    MAX_PILE_BLOCKERS,
    MAX_PLAYERS,
    MAX_SHEET_DEALS,
    MAX_SIDE_SIZES,
    MAX_SPECIAL_BOOKS,
    MAX_THREE_BOOKS,
    MIN_PLAYERS,
)
from .read import JSON
from .text import untyped


def _fail(name: str, reason: str) -> SheetError:
    return SheetError(name, reason)


R = TypeVar("R")
T = TypeVar("T")
C = TypeVar("C", bound=Choice)


class Reader(Generic[R]):
    """Reads one option's JSON value, naming the field when it cannot; the base value is optional.
    ``schema`` is the JSON Schema of what it reads, its bounds the ones it checks (:func:`reads`)."""

    def __init__(self, read: Callable[[object, str, object], R], schema: dict[str, JSON]) -> None:
        self.read, self.schema = read, schema

    def __call__(self, value: object, name: str, base: object = None, /) -> R:
        return self.read(value, name, base)


def reads(schema: dict[str, JSON]) -> Callable[[Callable[[object, str, object], R]], Reader[R]]:
    """A reader carrying ``schema``, the JSON Schema of the values it reads, written beside the
    checks it describes so that each bound is stated once."""
    def carry(read: Callable[[object, str, object], R]) -> Reader[R]:
        return Reader(read, schema)
    return carry


def whole_number(lo: int, hi: int) -> Reader[int]:
    @reads({"type": "integer", "minimum": lo, "maximum": hi})
    def read(value: object, name: str, base: object = None) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise _fail(name, f"must be a whole number, not {value!r}")
        if not lo <= value <= hi:
            raise _fail(name, f"must be from {lo} to {hi}, not {value}")
        return value
    return read


def _at_most(value: Sized, name: str, most: int, what: str) -> None:
    """Refuse a list or object option longer than its bound in :mod:`.limits`."""
    if len(value) > most:
        raise _fail(name, f"lists {len(value):,} {what}; a sheet lists at most {most}")


@reads({"type": "boolean"})
def true_false(value: object, name: str, base: object = None) -> bool:
    if not isinstance(value, bool):
        raise _fail(name, f"must be true or false, not {value!r}")
    return value


def choice(kind: type[C]) -> Reader[C]:
    @reads({"type": "string", "enum": [c.value for c in kind]})
    def read(value: object, name: str, base: object = None) -> C:
        if isinstance(value, kind):
            return value
        try:
            return kind(value)
        except ValueError:
            allowed = ", ".join(repr(c.value) for c in kind)
            raise _fail(name, f"must be one of {allowed}, not {value!r}") from None
    return read


def optional(read_inner: Reader[R]) -> Reader[R | None]:
    @reads({"anyOf": [read_inner.schema, {"type": "null"}]})
    def read(value: object, name: str, base: object = None) -> R | None:
        return None if value is None else read_inner(value, name, base)
    return read


def per_deal(read_item: Reader[R]) -> Reader[PerDeal[R]]:
    @reads({"anyOf": [read_item.schema,
                       {"type": "array", "items": read_item.schema, "minItems": 1, "maxItems": MAX_SHEET_DEALS}]})
    def read(value: object, name: str, base: object = None) -> PerDeal[R]:
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


def write_per_deal(write_item: Callable[[T], JSON]) -> Callable[[PerDeal[T]], JSON]:
    def write(value: PerDeal[T]) -> JSON:
        items = [write_item(v) for v in value.values]
        return items[0] if value.single else items
    return write


_BOOK_COUNT = whole_number(0, 20)


_BOOK_KINDS = ("clean", "dirty", "wild", "special")
_NAMED_RANKS = (*NATURALS, Card.RED_THREE, Card.BLACK_THREE)  # what a special book may be of, by name
_NAMED_BOOKS: dict[str, JSON] = {"type": "object", "maxProperties": MAX_SPECIAL_BOOKS + MAX_THREE_BOOKS,
                "properties": {card.value: _BOOK_COUNT.schema for card in _NAMED_RANKS},
                "additionalProperties": False}


def _named(value: object, name: str) -> tuple[tuple[Card, int], ...]:
    """Special books asked for by rank, such as ``{"7": 1, "5": 1}``."""
    if not isinstance(value, Mapping):
        raise _fail(name, 'must be a number of special books, or books by rank such as {"7": 1, "5": 1}')
    _at_most(value, name, MAX_SPECIAL_BOOKS + MAX_THREE_BOOKS, "ranks")
    out: dict[Card, int] = {}
    for key, n in value.items():
        try:
            card = Card(str(key).upper())
        except ValueError:
            card = None
        if card is None or card not in _NAMED_RANKS:
            raise _fail(f"{name}.{key}", "is not a rank a special book is of (A K Q J 10 9 8 7 6 5 4, 3R, 3B)")
        out[card] = _BOOK_COUNT(n, f"{name}.{key}")
    return tuple(sorted(out.items(), key=lambda pair: CARDS.index(pair[0])))


@reads({"type": "object", "properties": {**{kind: _BOOK_COUNT.schema for kind in _BOOK_KINDS[:3]},
                                          "special": {"anyOf": [_BOOK_COUNT.schema, _NAMED_BOOKS]}},
         "additionalProperties": False})
def read_books(value: object, name: str, base: object = None) -> Books:
    if isinstance(value, Books):  # a sheet built in Python: each count checked as its JSON would be
        for kind in _BOOK_KINDS:
            _BOOK_COUNT(getattr(value, kind), f"{name}.{kind}")
        _named({card.value: n for card, n in value.named}, f"{name}.special")
        return value
    if not isinstance(value, Mapping):
        raise _fail(name, 'must be an object such as {"clean": 1, "dirty": 1, "wild": 0}')
    unknown = set(value) - set(_BOOK_KINDS)
    if unknown:
        raise _fail(f"{name}.{sorted(unknown)[0]}", "is not a kind of book (clean, dirty, wild, special)")
    read = _BOOK_COUNT
    clean, dirty, wild = (read(value.get(k, 0), f"{name}.{k}") for k in _BOOK_KINDS[:3])
    special = value.get("special", 0)
    if isinstance(special, Mapping):
        return Books(clean, dirty, wild, named=_named(special, f"{name}.special"))
    return Books(clean, dirty, wild, read(special, f"{name}.special"))


_CARD_POINTS = whole_number(0, 10_000)


@reads({"type": "object", "maxProperties": MAX_CARD_VALUES,
         "properties": {card.value: _CARD_POINTS.schema for card in CARDS if card is not Card.RED_THREE}})
def read_card_values(value: object, name: str, base: object = None) -> CardValues:
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


_SPECIAL_BONUS = whole_number(0, 100_000)


def _bonus_by_rank(ranks: tuple[Card, ...], most: int, example: str,
                   wrong: str) -> Reader[tuple[tuple[Card, int], ...]]:
    """A reader of bonuses by rank (``ranks`` the keys it takes), such as ``{"7": 1000}``."""
    @reads({"type": "object", "maxProperties": most,
             "properties": {card.value: _SPECIAL_BONUS.schema for card in ranks}})
    def read(value: object, name: str, base: object = None) -> tuple[tuple[Card, int], ...]:
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
read_special_books = _bonus_by_rank(NATURALS, MAX_SPECIAL_BOOKS, '{"7": 1000}', _BOOKABLE)
read_special_books_dirty = _bonus_by_rank(NATURALS, MAX_SPECIAL_BOOKS, '{"7": 500}', _BOOKABLE)
read_three_books = _bonus_by_rank((Card.BLACK_THREE, Card.RED_THREE), MAX_THREE_BOOKS, '{"3R": 1000, "3B": 500}',
                                   "is not a book of threes: 3R (red threes) or 3B (black threes)")
_CAP = whole_number(0, 20)
CAP_KEYS = ("wild", *(card.value for card in _NAMED_RANKS))  # what book_caps may cap: wild books, books of a rank


@reads({"type": "object", "maxProperties": len(CAP_KEYS), "properties": {key: _CAP.schema for key in CAP_KEYS},
         "additionalProperties": False})
def read_book_caps(value: object, name: str, base: object = None) -> tuple[tuple[str, int], ...]:
    """Books of a kind that score a bonus, at most: ``{"wild": 3, "7": 2}``; wild first, then ranks high to low."""
    if isinstance(value, tuple):
        value = dict(value)
    if not isinstance(value, Mapping):
        raise _fail(name, 'must be an object of books that score a bonus, at most, such as {"wild": 3, "7": 2}')
    _at_most(value, name, len(CAP_KEYS), "caps")
    out: dict[str, int] = {}
    for key, cap in value.items():
        code = str(key).upper() if str(key).lower() != "wild" else "wild"
        if code not in CAP_KEYS:
            raise _fail(f"{name}.{key}", "is not wild (wild books) or a rank a book is of "
                        "(A K Q J 10 9 8 7 6 5 4, 3R, 3B)")
        out[code] = _CAP(cap, f"{name}.{key}")
    return tuple(sorted(out.items(), key=lambda pair: CAP_KEYS.index(pair[0])))


_DECKS = whole_number(1, 12)
_PLAYER_COUNTS = tuple(str(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1))


@reads({"type": "object", "maxProperties": MAX_DECKS_BY_PLAYERS,
         "properties": {n: _DECKS.schema for n in _PLAYER_COUNTS}, "additionalProperties": False})
def read_decks_by_players(value: object, name: str, base: object = None) -> tuple[tuple[int, int], ...]:
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


_GROWTH = choice(BookGrowth)
_GROWTH_KINDS = ("clean", "dirty")


@reads({"anyOf": [_GROWTH.schema, {"type": "object", "properties": {kind: _GROWTH.schema for kind in _GROWTH_KINDS},
                                   "required": list(_GROWTH_KINDS), "additionalProperties": False}]})
def read_book_growth(value: object, name: str, base: object = None) -> BookGrowth | GrowthByKind:
    """One word for every book ('closed', 'naturals', 'any'), or one for each kind,
    ``{"clean": "naturals", "dirty": "closed"}``; the same word for both is that word."""
    if isinstance(value, GrowthByKind):
        if value.clean is value.dirty:  # a sheet built in Python: it must hold the one word, as reading gives
            raise _fail(name, f"is {value.clean.value!r} for both kinds of book: give the one word")
        value = value.to_json()
    if not isinstance(value, Mapping):
        return _GROWTH(value, name)
    unknown = set(value) - set(_GROWTH_KINDS)
    if unknown:
        raise _fail(f"{name}.{sorted(unknown)[0]}", "is not a kind of book that grows (clean, dirty)")
    missing = [kind for kind in _GROWTH_KINDS if kind not in value]
    if missing:
        raise _fail(f"{name}.{missing[0]}", "is missing: give how clean and how dirty books grow")
    clean, dirty = (_GROWTH(value[kind], f"{name}.{kind}") for kind in _GROWTH_KINDS)
    return clean if clean is dirty else GrowthByKind(clean, dirty)


def write_book_growth(value: BookGrowth | GrowthByKind) -> JSON:
    return value.value if isinstance(value, BookGrowth) else {**value.to_json()}


_MINIMUM = whole_number(0, 10_000)


@reads({"anyOf": [_MINIMUM.schema, choice(OpeningBook).schema]})
def read_minimum(value: object, name: str, base: object = None) -> int | OpeningBook:
    """An opening minimum: points, or 'book' (the first melds include a complete book)."""
    if isinstance(value, str):  # a choice is a str too
        try:
            return OpeningBook(value)
        except ValueError:
            raise _fail(name, f"must be a number of points or 'book', not {value!r}") from None
    return _MINIMUM(value, name)


@reads({"anyOf": [choice(PartnerFoot).schema, {"type": "boolean"}]})
def read_partner_foot(value: object, name: str, base: object = None) -> PartnerFoot:
    """'no', 'picked-up' or 'played'; a sheet written before the choice said true or false."""
    if isinstance(value, bool):
        return PartnerFoot.PICKED_UP if value else PartnerFoot.NO
    return choice(PartnerFoot)(value, name)


_BAND_BELOW, _BAND_MINIMUM = whole_number(-100_000, 1_000_000), whole_number(0, 10_000)


@reads({"type": "array", "minItems": 1, "maxItems": MAX_BANDS, "items": {
    "type": "object", "properties": {"below": _BAND_BELOW.schema, "minimum": _BAND_MINIMUM.schema},
    "required": ["minimum"], "additionalProperties": False}})
def read_bands(value: object, name: str, base: object = None) -> tuple[Band, ...]:
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




_SIDE_SIZE = whole_number(1, MAX_PER_SIDE)


@reads({"anyOf": [_SIDE_SIZE.schema,
                   {"type": "array", "items": _SIDE_SIZE.schema, "minItems": 1, "maxItems": MAX_SIDE_SIZES,
                    "uniqueItems": True}]})
def read_side_sizes(value: object, name: str, base: object = None) -> tuple[int, ...]:
    if isinstance(value, int) and not isinstance(value, bool):
        value = [value]
    if not isinstance(value, (list, tuple)) or not value:
        raise _fail(name, "must list the players a side may have, such as [1] or [2] or [1, 2]")
    _at_most(value, name, MAX_SIDE_SIZES, "sizes")
    read = _SIDE_SIZE
    sizes = [read(v, f"{name}[{i}]") for i, v in enumerate(value)]
    _distinct(sizes, name)
    return tuple(sorted(sizes))


def _distinct(items: Sequence[object], name: str) -> None:
    """A set sent as a list names each item once (the schema's uniqueItems)."""
    for i, item in enumerate(items):
        if item in items[:i]:
            raise _fail(f"{name}[{i}]", f"names {item} a second time; name each once")


@reads({"type": "array", "items": choice(PileBlocker).schema, "maxItems": MAX_PILE_BLOCKERS, "uniqueItems": True})
def read_blockers(value: object, name: str, base: object = None) -> frozenset[PileBlocker]:
    if not isinstance(value, (list, tuple, set, frozenset)):
        raise _fail(name, "must be a list of 'black-three', 'red-three', 'wild'")
    _at_most(value, name, MAX_PILE_BLOCKERS, "cards")
    read = choice(PileBlocker)
    blockers = [read(v, f"{name}[{i}]") for i, v in enumerate(value)]
    _distinct(blockers, name)
    return frozenset(blockers)


@reads({"type": "array", "maxItems": MAX_HOUSE_RULES,
        "items": {"type": "string", "maxLength": MAX_HOUSE_RULE}})
def read_house_rules(value: object, name: str, base: object = None) -> tuple[str, ...]:
    """Sentences of the table's own rules of play: each stripped, a blank one dropped, each
    of at most :data:`~.limits.MAX_HOUSE_RULE` characters on one line; at most
    :data:`~.limits.MAX_HOUSE_RULES` of them. A bad one is named by its place as sent
    (``house_rules[3]``)."""
    if not isinstance(value, (list, tuple)):
        raise _fail(name, 'must be a list of sentences, such as ["The stock is split in two."]')
    rules = []
    for i, rule in enumerate(value):
        where = f"{name}[{i}]"
        if not isinstance(rule, str):
            raise _fail(where, f"must be a sentence (text), not {rule!r:.40}")
        rule = rule.strip()
        odd = untyped(rule)
        if odd is not None:
            raise _fail(where, f"holds U+{ord(odd):04X}, which nobody types (a house rule is one line of text)")
        if len(rule) > MAX_HOUSE_RULE:
            raise _fail(where, f"is {len(rule):,} characters; a house rule has at most {MAX_HOUSE_RULE} "
                               f"(this one begins “{rule[:30].rstrip()}…”)")
        if rule:
            rules.append(rule)
    if len(rules) > MAX_HOUSE_RULES:
        raise _fail(name, f"lists {len(rules):,} house rules; a sheet lists at most {MAX_HOUSE_RULES}")
    return tuple(rules)
