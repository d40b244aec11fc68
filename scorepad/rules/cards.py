"""Cards and counts of cards.

Hand and Foot is played with several decks shuffled together, so what matters is never
which card but how many of each kind. :class:`Card` names the fifteen kinds; :class:`Cards`
is an immutable count of each, read from either the canonical object form
(``{"K": 2, "JK": 1}``) or the short card-string form (``"K K 2 JK"``). :class:`Rank` is
what a meld is of, beside the cards it names: a natural rank's card, and the melds that are
no one card (wild cards only, threes of either colour); :attr:`Rank.card` ties each to its card.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from enum import Enum
from itertools import product

from .errors import ReadError
from .limits import MAX_CARD_STRING, MAX_COUNT
from .text import check_text


class Card(str, Enum):
    """A kind of card. Suits do not matter except for threes, which are red or black."""

    ACE = "A"
    KING = "K"
    QUEEN = "Q"
    JACK = "J"
    TEN = "10"
    NINE = "9"
    EIGHT = "8"
    SEVEN = "7"
    SIX = "6"
    FIVE = "5"
    FOUR = "4"
    TWO = "2"
    JOKER = "JK"
    BLACK_THREE = "3B"
    RED_THREE = "3R"

    def __str__(self) -> str:
        return self.value

    @property
    def is_natural(self) -> bool:
        """Four up to ace: the cards melds are built from."""
        return self in NATURALS

    @property
    def is_wild(self) -> bool:
        """2s and jokers."""
        return self is Card.TWO or self is Card.JOKER

    @property
    def noun(self) -> str:
        """The card's name in a sentence, plural: ``Card.KING.noun == 'kings'``."""
        return _NOUNS[self]


NATURALS: tuple[Card, ...] = tuple(Card)[:11]
WILDS: tuple[Card, ...] = (Card.TWO, Card.JOKER)
CARDS: tuple[Card, ...] = tuple(Card)
_INDEX = {card: i for i, card in enumerate(CARDS)}

_NOUNS = {
    Card.ACE: "aces", Card.KING: "kings", Card.QUEEN: "queens", Card.JACK: "jacks",
    Card.TEN: "10s", Card.NINE: "9s", Card.EIGHT: "8s", Card.SEVEN: "7s", Card.SIX: "6s",
    Card.FIVE: "5s", Card.FOUR: "4s", Card.TWO: "2s", Card.JOKER: "jokers",
    Card.BLACK_THREE: "black threes", Card.RED_THREE: "red threes",
}

# Spellings accepted in the card-string form, besides each card's own code.
_ALIASES = {"T": Card.TEN, "JOKER": Card.JOKER, "JO": Card.JOKER, "W": Card.JOKER}
_TOKEN = re.compile(r"^([0-9]{1,2}[BR]?|[A-Z]+)(?:[X*×](\d{1,4}))?$")
# Each token that names one card as it is, in any case ("k", "3b", "Joker"), and the card's place in CARDS:
# a card string of such tokens (most are) is read by looking each up; any other token takes the long way.
_ONE_CARD = {"".join(spelling): i for code, i in [*((card.value, _INDEX[card]) for card in CARDS),
                                                  *((alias, _INDEX[card]) for alias, card in _ALIASES.items())]
             for spelling in product(*({ch.lower(), ch.upper()} for ch in code))}


def parse_card(text: str, field: str = "") -> Card:
    """The card a code names; case does not matter.

    >>> parse_card("k"), parse_card("3r"), parse_card("joker")
    (<Card.KING: 'K'>, <Card.RED_THREE: '3R'>, <Card.JOKER: 'JK'>)
    >>> parse_card("3")
    Traceback (most recent call last):
    ...
    scorepad.rules.errors.ReadError: a three is red (3R) or black (3B)
    """
    code = text.strip().upper()
    try:
        return Card(code)
    except ValueError:
        pass
    if code in _ALIASES:
        return _ALIASES[code]
    if code == "3":
        raise ReadError(field, "a three is red (3R) or black (3B)")
    raise ReadError(field, f"{text[:20]!r} is not a card; cards are {' '.join(c.value for c in CARDS)}")


class Cards:
    """An immutable count of cards by kind.

    >>> hand = Cards.parse("K K 2 JK 3B")
    >>> hand[Card.KING], hand.total
    (2, 5)
    >>> hand.to_json()
    {'K': 2, '2': 1, 'JK': 1, '3B': 1}
    >>> Cards.from_json({"K": 2, "2": 1}) == Cards.parse("Kx2 2")
    True
    """

    __slots__ = ("_counts",)

    def __init__(self, counts: Mapping[Card, int] | None = None) -> None:
        values = [0] * len(CARDS)
        for card, count in (counts or {}).items():
            values[_INDEX[card]] += count
        self._counts = tuple(values)

    @classmethod
    def _of(cls, counts: tuple[int, ...]) -> Cards:
        new = object.__new__(cls)
        new._counts = counts
        return new

    @classmethod
    def parse(cls, text: str, field: str = "") -> Cards:
        """Read the card-string form: codes split by spaces or commas.

        A token may carry a count after it, as ``Kx3`` or ``K*3``. ``T`` stands for 10.

        >>> Cards.parse("10 10 t 4x2, 3B").to_json()
        {'10': 3, '4': 2, '3B': 1}
        >>> Cards.parse("").total
        0
        """
        if len(text) > MAX_CARD_STRING:
            raise ReadError(field, f"is {len(text):,} characters long; a card string has at most "
                            f"{MAX_CARD_STRING:,} (write a count as Kx4)")
        check_text(text, field, multiline=True)
        values = [0] * len(CARDS)
        one_card = _ONE_CARD.get
        for token in text.replace(",", " ").split():
            i = one_card(token)
            if i is None:  # a count (Kx3) or a token that is not a card: the long way, from the start
                values = [0] * len(CARDS)
                break
            values[i] += 1
        else:
            return cls._of(tuple(values)) if max(values) <= MAX_COUNT else cls._counted(values, field)
        for token in re.split(r"[\s,]+", text.strip()):
            if not token:
                continue
            match = _TOKEN.match(token.upper())
            if match is None:
                raise ReadError(field, f"{token[:20]!r} is not a card; cards are "
                                f"{' '.join(c.value for c in CARDS)}")
            code, count = match.groups()
            values[_INDEX[parse_card(code, field)]] += int(count or 1)
        return cls._counted(values, field)

    @classmethod
    def _counted(cls, values: list[int], field: str) -> Cards:
        """The cards a card string counted, each kind at most ``MAX_COUNT`` (the object form's bound,
        so a deal read from a card string reads again once stored)."""
        for card, n in zip(CARDS, values, strict=True):
            if n > MAX_COUNT:
                raise ReadError(field, f"holds {n:,} {card.noun}; no pack holds more than {MAX_COUNT:,}")
        return cls._of(tuple(values))

    @classmethod
    def from_json(cls, data: object, field: str = "") -> Cards:
        """Read the object form ``{"K": 2}``, the card-string form, or ``None`` (no cards).

        Counts must be whole numbers; a negative count is read (the referee reports it).
        """
        if data is None:
            return EMPTY
        canonical = canonical_cards(data)
        if canonical is not None:
            return canonical
        if isinstance(data, str):
            return cls.parse(data, field)
        if not isinstance(data, Mapping):
            raise ReadError(field, "must be an object of counts by card, such as "
                            '{"K": 2, "JK": 1}, or a card string such as "K K JK"')
        values = [0] * len(CARDS)
        for key, count in data.items():
            where = f"{field}.{key}" if field else str(key)
            if not isinstance(key, str):
                raise ReadError(where, "a card code must be text")
            card = parse_card(key, where)
            values[_INDEX[card]] += read_count(count, where)
        return cls._of(tuple(values))

    def to_json(self) -> dict[str, int]:
        """The canonical object form, leaving out the cards not held."""
        return {card.value: n for card, n in zip(CARDS, self._counts, strict=True) if n}

    def __str__(self) -> str:
        """The card-string form: ``K K 2``."""
        return " ".join(card.value for card, n in zip(CARDS, self._counts, strict=True) for _ in range(n))

    def __getitem__(self, card: Card) -> int:
        return self._counts[_INDEX[card]]

    def items(self) -> Iterator[tuple[Card, int]]:
        """(card, count) for each kind held, in rank order."""
        return ((card, n) for card, n in zip(CARDS, self._counts, strict=True) if n)

    def counts(self) -> tuple[int, ...]:
        """Every count, in the order of :data:`CARDS`."""
        return self._counts

    @property
    def total(self) -> int:
        return sum(self._counts)

    def __add__(self, other: Cards) -> Cards:
        return Cards._of(tuple(a + b for a, b in zip(self._counts, other._counts, strict=True)))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Cards) and self._counts == other._counts

    def __hash__(self) -> int:
        return hash(self._counts)

    def __bool__(self) -> bool:
        return any(self._counts)

    def __repr__(self) -> str:
        return f"Cards({str(self)!r})"


EMPTY = Cards()


def canonical_cards(data: object) -> Cards | None:
    """The cards of the canonical object form, as every stored deal holds it (exact codes, whole
    counts within bounds), read without building a single message or field path; None for
    anything else, which :meth:`Cards.from_json` reads the long way (the same, or says what is
    wrong)."""
    if type(data) is not dict:
        return None
    if not data:
        return EMPTY
    values = [0] * len(CARDS)
    place = _PLACE.get
    for code, count in data.items():
        i = place(code)
        if i is None or type(count) is not int or not -MAX_COUNT <= count <= MAX_COUNT:
            return None
        values[i] = count
    return Cards._of(tuple(values))


_PLACE = {card.value: i for i, card in enumerate(CARDS)}  # each card's code -> its place in CARDS


def read_count(value: object, field: str) -> int:
    """A count from JSON: a whole number (``True`` and ``2.0`` are refused).

    >>> read_count(3, "naturals")
    3
    >>> read_count("3", "naturals")
    Traceback (most recent call last):
    ...
    scorepad.rules.errors.ReadError: naturals: must be a whole number, not '3'
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise ReadError(field, f"must be a whole number, not {value!r:.40}")
    if not -MAX_COUNT <= value <= MAX_COUNT:
        raise ReadError(field, f"must be from -{MAX_COUNT:,} to {MAX_COUNT:,}; no pack holds more")
    return value


class Rank(str, Enum):
    """What a meld is a meld of: a natural rank, wild cards only, red or black threes (legal
    only where the sheet's ``three_books`` names them), or threes of both colours (never legal)."""

    ACE = "A"
    KING = "K"
    QUEEN = "Q"
    JACK = "J"
    TEN = "10"
    NINE = "9"
    EIGHT = "8"
    SEVEN = "7"
    SIX = "6"
    FIVE = "5"
    FOUR = "4"
    THREE = "3"
    WILD = "wild"
    RED_THREE = "3R"
    BLACK_THREE = "3B"

    def __str__(self) -> str:
        return self.value

    @property
    def card(self) -> Card:
        """The card of this rank; a meld of threes of both colours counts as black threes."""
        return _RANK_CARD[self]

    @property
    def is_threes(self) -> bool:
        """A meld of threes: red, black or both."""
        return self in _THREES

    @property
    def noun(self) -> str:
        return _RANK_NOUNS[self]


_RANK_CARD = {rank: Card(rank.value) for rank in Rank if rank.value not in ("3", "wild")}
_RANK_CARD[Rank.THREE] = Card.BLACK_THREE
_RANK_CARD[Rank.WILD] = Card.JOKER  # never used for points: a wild meld holds no naturals
_RANK_NOUNS = {rank: rank.card.noun for rank in Rank}
_RANK_NOUNS.update({Rank.WILD: "wild cards", Rank.THREE: "threes"})
_THREES = frozenset((Rank.THREE, Rank.RED_THREE, Rank.BLACK_THREE))


def parse_rank(value: object, field: str) -> Rank:
    """A meld's rank from its JSON form: red threes (3R) and black threes (3B) apart, "3"
    threes of either colour (never a legal meld).

    >>> parse_rank("k", "rank"), parse_rank("Wild", "rank"), parse_rank("3R", "rank"), parse_rank("3", "rank")
    (<Rank.KING: 'K'>, <Rank.WILD: 'wild'>, <Rank.RED_THREE: '3R'>, <Rank.THREE: '3'>)
    """
    if not isinstance(value, str):
        raise ReadError(field, "must be a rank: A K Q J 10 9 8 7 6 5 4, or wild")
    text = value.strip().upper()
    if text in ("WILD", "2", "JK"):
        return Rank.WILD
    if text == "T":
        return Rank.TEN
    try:
        return Rank(text)
    except ValueError:
        raise ReadError(field, f"{value!r} is not a rank: A K Q J 10 9 8 7 6 5 4, or wild") from None
