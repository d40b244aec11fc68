"""What a rule sheet's options hold: the choices (an option whose value is one of a few
words, each a :class:`Choice`) and the small values some options are (a value per deal,
books by kind, opening bands, card values).

They sit below the sheet (:mod:`.sheet`) and the catalogue (:mod:`.catalogue`): a new
option with choices adds its enum here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from functools import cached_property
from operator import itemgetter
from typing import Generic, TypeVar

from .cards import CARDS, Card
from .read import JSON

T = TypeVar("T")


class Choice(str, Enum):
    """An option whose value is one of a few words; ``words`` puts it in plain English."""

    def __str__(self) -> str:
        return str(self.value)


class Confirm(Choice):
    """A game's setting: whether a side's part of a deal entered part by part is final as
    entered (``none``), or only once a phone of another side confirms it (``opponents``)."""

    NONE = "none"
    OPPONENTS = "opponents"


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


@dataclass(frozen=True)
class GrowthByKind:
    """How books grow past full size, by kind: a meld over the book size is judged by the rule
    of the kind it is now (a clean book that took a wild card is a dirty one); a wild book
    holds wild cards, so it follows the dirty books' rule. Read from ``{"clean": G, "dirty":
    G}``; the same word for both is that word (:class:`BookGrowth`), as sheets always wrote it."""

    clean: BookGrowth
    dirty: BookGrowth

    def to_json(self) -> dict[str, str]:
        return {"clean": self.clean.value, "dirty": self.dirty.value}


def growth_of(growth: BookGrowth | GrowthByKind, dirty: bool) -> BookGrowth:
    """The rule a book grows by past full size: a clean book's, or (``dirty``) a dirty or wild book's.

    >>> growth_of(GrowthByKind(BookGrowth.NATURALS, BookGrowth.CLOSED), dirty=True)
    <BookGrowth.CLOSED: 'closed'>
    >>> growth_of(BookGrowth.ANY, dirty=False)
    <BookGrowth.ANY: 'any'>
    """
    if isinstance(growth, BookGrowth):
        return growth
    return growth.dirty if dirty else growth.clean


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
    NATURAL_PAIR = "natural-pair"          # two naturals of the top card's rank, from the hand
    MELD_TOP_CARD = "meld-top-card"        # any way of melding the top card at once
    NATURAL_AND_WILD = "natural-and-wild"  # two naturals, or a natural and a wild card, from the hand
    ONE_NATURAL = "one-natural"            # one natural of the top card's rank, from the hand


class PileBlocker(Choice):
    BLACK_THREE = "black-three"
    RED_THREE = "red-three"
    WILD = "wild"


class OpeningBook(Choice):
    """An opening minimum that is no number of points: the first melds include a complete book."""

    BOOK = "book"


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


class RedThreeMode(Choice):
    """What a red three is on a sheet: laid at once for its bonus, or held, never laid."""

    LAID = "laid"  # laid at once, replaced, red_three_bonus each
    HELD = "held"  # never laid: a red three still in a hand or an unopened foot costs its penalty


class FootWhen(Choice):
    """When a red three costs its penalty: in a foot never picked up
    (``red_three_penalty_foot_when``), or still in a hand (``red_three_penalty_hand_when``)."""

    OPPONENTS_OUT = "opponents-out"
    ANY_ENDING = "any-ending"


class PartnerFoot(Choice):
    """What every partner must have done with their foot before a player may go out."""

    NO = "no"
    PICKED_UP = "picked-up"
    PLAYED = "played"


class GameLength(Choice):
    DEALS = "deals"    # the sheet's number of deals
    TARGET = "target"  # until a side's running total reaches the target score
    OPEN = "open"      # until the table ends the game (a time limit, the evening's end)


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
    """Books of each kind, as a going-out requirement: ``special`` books of any rank the sheet
    names in ``special_books`` (a number), and ``named`` books of each rank by name (a book of
    sevens and a book of fives: ``((Card.SEVEN, 1), (Card.FIVE, 1))``), of a rank
    ``special_books`` or ``three_books`` names. In JSON both are ``special``: a number, or
    counts by rank.

    >>> str(Books(clean=1, dirty=1, named=((Card.SEVEN, 1), (Card.FIVE, 2))))
    '1 clean + 1 dirty + a book of sevens + 2 books of fives'
    """

    clean: int = 0
    dirty: int = 0
    wild: int = 0
    special: int = 0
    named: tuple[tuple[Card, int], ...] = ()

    def __str__(self) -> str:
        parts = [f"{n} {kind}" for kind, n in
                 (("clean", self.clean), ("dirty", self.dirty), ("wild", self.wild), ("special", self.special)) if n]
        parts += [book_of(card, n) for card, n in self.named if n]
        return " + ".join(parts) or "no books"

    @property
    def books(self) -> str:
        """The requirement in a sentence: "2 clean + 2 dirty books", "1 clean + a book of sevens"."""
        return str(self) if any(n for _, n in self.named) else f"{self} books"

    def named_count(self, card: Card) -> int:
        return dict(self.named).get(card, 0)

    def to_json(self) -> dict[str, JSON]:
        """Clean, dirty and wild always; ``special`` only when asked for (sheets before it never were),
        as counts by rank when asked for by name."""
        out: dict[str, JSON] = {"clean": self.clean, "dirty": self.dirty, "wild": self.wild}
        if self.named:
            out["special"] = {card.value: n for card, n in self.named}
        elif self.special:
            out["special"] = self.special
        return out


def book_of(card: Card, n: int) -> str:
    """``n`` books of a rank in words: "a book of sevens", "2 books of fives"."""
    return f"a book of {rank_words(card)}" if n == 1 else f"{n} books of {rank_words(card)}"


def rank_words(card: Card) -> str:
    """A rank spelt out, as a requirement for a book of it says it: "sevens", "red threes"."""
    return _SPELT.get(card, card.noun)


_SPELT = {Card.TEN: "tens", Card.NINE: "nines", Card.EIGHT: "eights", Card.SEVEN: "sevens", Card.SIX: "sixes",
          Card.FIVE: "fives", Card.FOUR: "fours"}


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

    @cached_property
    def held_order(self) -> tuple[int, ...]:
        """The places in CARDS in the order cards held are listed: by value, highest first, then
        as in CARDS (red threes left out: cards held price them on lines of their own); made once
        for these values."""
        valued = [i for i, card in enumerate(CARDS) if card is not Card.RED_THREE]
        return tuple(sorted(valued, key=lambda i: -self.points[i]))  # stable: as in CARDS within a value

    @cached_property
    def in_held_order(self) -> Callable[[tuple[int, ...]], tuple[int, ...]]:
        """Reads a count by card (in the order of CARDS) in :attr:`held_order`, at once."""
        return itemgetter(*self.held_order)

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

