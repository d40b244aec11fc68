"""One recorded deal, as data: each side's melds and red threes, each player's cards left.

A side is itemised (``melds``) or counted (``books`` by kind and ``meld_points``, as a paper
score pad keeps it); a player gives the cards left (``cards_left``) or their points
(``cards_left_points``, with ``red_threes_left``). Each pair is one or the other, never both.

What the referee needs beyond the score may come too: a side's (or, where each player meets the
minimum, a player's) ``opening`` (:class:`Opening`: its first melds and the pile's top card if
it used one), a side's ``running_total`` before a standalone deal, and the deal's ``last_card``
and ``permission``. Absent, they are left out of the canonical form and the verdict lists them as
not checked.

:meth:`Deal.from_json` reads the canonical JSON form (see README) and raises
:class:`~scorepad.rules.errors.ReadError` only for input it cannot read; anything that can
be read but breaks a rule (a negative count, a meld of threes) is left for
:func:`~scorepad.rules.validate.validate` to report.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

from .book_counts import BookCounts
from .cards import CARDS, EMPTY, Card, Cards, Rank, canonical_cards, parse_card, parse_rank, read_count
from .choices import LastCard
from .errors import ReadError
from .limits import MAX_COUNT, MAX_MELDS, MAX_NAME, MAX_PER_SIDE, MAX_POINTS, MAX_SIDES
from .presets import load_sheet
from .read import JSON, at, only, read_choice, read_list, read_points
from .sheet import RuleSheet
from .text import check_text, read_name, untyped

_RANK_CODES = {rank: rank.value for rank in Rank}  # looked up once: enum attributes are slow


class BookKind(str, Enum):
    CLEAN = "clean"
    DIRTY = "dirty"
    WILD = "wild"


# Looked up once for the methods every deal calls meld by meld and player by player (enum
# attributes are slow).
_CLEAN, _DIRTY, _WILD, _WILD_RANK = BookKind.CLEAN, BookKind.DIRTY, BookKind.WILD, Rank.WILD
_RED_THREE_PLACE = CARDS.index(Card.RED_THREE)


@dataclass(frozen=True, slots=True)
class Meld:
    """A meld on the table: its rank and how many naturals, 2s and jokers it holds.

    >>> Meld.from_json("Q Q Q Q Q 2 2")
    Meld(rank=<Rank.QUEEN: 'Q'>, naturals=5, twos=2, jokers=0)
    >>> Meld.from_json({"rank": "wild", "twos": 4, "jokers": 3}).size
    7
    """

    rank: Rank
    naturals: int = 0
    twos: int = 0
    jokers: int = 0

    @property
    def wilds(self) -> int:
        return self.twos + self.jokers

    @property
    def size(self) -> int:
        return self.naturals + self.twos + self.jokers

    def book_kind(self, sheet: RuleSheet) -> BookKind | None:
        """Clean, dirty or wild once the meld has reached the sheet's book size, else None."""
        if self.naturals + self.twos + self.jokers < sheet.book_size:
            return None
        if self.rank is _WILD_RANK:
            return _WILD
        return _DIRTY if self.twos or self.jokers else _CLEAN

    def cards(self) -> Cards:
        """The meld's cards as counts (a meld of threes of both colours counted as black threes)."""
        counts = {Card.TWO: self.twos, Card.JOKER: self.jokers}
        if self.rank is not Rank.WILD:
            counts[self.rank.card] = self.naturals
        return Cards(counts)

    def plus(self, added: Meld) -> Meld:
        """This meld with more cards added to it."""
        return Meld(self.rank, self.naturals + added.naturals, self.twos + added.twos,
                    self.jokers + added.jokers)

    @classmethod
    def from_cards(cls, cards: Cards, field: str = "", rank: Rank | None = None) -> Meld:
        """The meld these cards make; its rank is the rank of its naturals (or wild)."""
        ranks = {card for card, _ in cards.items() if not card.is_wild}
        found = None
        if len(ranks) > 1:
            if ranks != {Card.RED_THREE, Card.BLACK_THREE}:
                raise ReadError(field, "a meld holds natural cards of one rank only, besides 2s and jokers")
            found = Rank.THREE
        elif ranks:
            (card,) = ranks
            found = Rank(card.value)
        if rank is not None and found is not None and found is not rank:
            raise ReadError(field, f"the cards are {found.noun}, but the rank says {rank.noun}")
        rank = rank or found or Rank.WILD
        naturals = read_count(sum(n for card, n in cards.items() if not card.is_wild), field)
        return cls(rank, naturals, cards[Card.TWO], cards[Card.JOKER])

    @classmethod
    def from_json(cls, data: object, field: str = "") -> Meld:
        """A meld from ``{"rank", "naturals", "twos", "jokers"}``, ``{"rank", "cards"}`` or a card string."""
        canonical = _canonical_meld(data)
        if canonical is not None:
            return canonical
        if isinstance(data, str):
            return cls.from_cards(Cards.parse(data, field), field)
        if not isinstance(data, Mapping):
            raise ReadError(field, 'must be an object such as {"rank": "K", "naturals": 5, "twos": 1} '
                            'or a card string such as "K K K K K 2"')
        only(data, ("rank", "naturals", "twos", "jokers", "cards"), field)
        rank = parse_rank(data["rank"], at(field, "rank")) if "rank" in data else None
        if "cards" in data:
            if set(data) & {"naturals", "twos", "jokers"}:
                raise ReadError(at(field, "cards"), "give the cards, or the counts, not both")
            return cls.from_cards(Cards.from_json(data["cards"], at(field, "cards")), at(field, "cards"), rank)
        if rank is None:
            raise ReadError(at(field, "rank"), "is missing")
        counts = [read_count(data.get(key, 0), at(field, key)) for key in ("naturals", "twos", "jokers")]
        return cls(rank, *counts)

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {"rank": _RANK_CODES[self.rank]}
        if self.naturals:
            out["naturals"] = self.naturals
        if self.twos:
            out["twos"] = self.twos
        if self.jokers:
            out["jokers"] = self.jokers
        return out

    def __str__(self) -> str:
        parts = [f"{self.naturals} {self.rank.noun}" if self.rank is not Rank.WILD or self.naturals else ""]
        parts += [f"{n} {name}" for n, name in ((self.twos, "2s" if self.twos != 1 else "2"),
                                                (self.jokers, "jokers" if self.jokers != 1 else "joker")) if n]
        return ", ".join(p for p in parts if p) or f"an empty meld of {self.rank.noun}"


# A meld's canonical form, as every stored deal holds it, is read without building a single
# message or field path; anything else (card strings, other spellings, bad input) takes the
# long way, which reads it the same or says what is wrong.
_CANONICAL_RANKS = {rank.value: rank for rank in Rank}
_CANONICAL_KEYS = frozenset(("rank", "naturals", "twos", "jokers"))


def _canonical_meld(data: object) -> Meld | None:
    """The meld ``{"rank": "K", "naturals": 5, "twos": 1}`` holds (exact rank codes, whole
    counts within bounds), or None for anything else."""
    if type(data) is not dict or not data.keys() <= _CANONICAL_KEYS:
        return None
    code = data.get("rank")
    rank = _CANONICAL_RANKS.get(code) if type(code) is str else None
    naturals, twos, jokers = data.get("naturals", 0), data.get("twos", 0), data.get("jokers", 0)
    if rank is None or type(naturals) is not int or type(twos) is not int or type(jokers) is not int \
            or not (-MAX_COUNT <= naturals <= MAX_COUNT and -MAX_COUNT <= twos <= MAX_COUNT
                    and -MAX_COUNT <= jokers <= MAX_COUNT):
        return None
    return _meld(rank, naturals, twos, jokers)


@lru_cache(maxsize=4096)
def _meld(rank: Rank, naturals: int, twos: int, jokers: int) -> Meld:
    """One shared (immutable) meld for each rank and counts: a deal repeats a few kinds many times."""
    return Meld(rank, naturals, twos, jokers)


@dataclass(frozen=True, slots=True)
class Opening:
    """First melds, laid together to meet the opening minimum, and the pile's top card when
    they used it: ``pile_top`` is that card (its value matters where no pile card counts), True
    when the card is not said, or False when the pile was not taken.

    >>> Opening.from_json({"melds": ["K K K", "Q Q Q"], "pile_top": "q"}).to_json()
    {'melds': [{'rank': 'K', 'naturals': 3}, {'rank': 'Q', 'naturals': 3}], 'pile_top': 'Q'}
    """

    melds: tuple[Meld, ...]
    pile_top: Card | bool = False

    @classmethod
    def from_json(cls, data: object, field: str = "") -> Opening:
        if not isinstance(data, Mapping):
            raise ReadError(field, 'must be an object such as {"melds": ["K K K", "Q Q Q"], "pile_top": "Q"}')
        only(data, ("melds", "pile_top"), field)
        melds = tuple(_canonical_meld(m) or Meld.from_json(m, f"{at(field, 'melds')}[{i}]")
                      for i, m in enumerate(read_list(data.get("melds"), at(field, "melds"), MAX_MELDS, "melds")))
        top = data.get("pile_top", False)
        if isinstance(top, str):
            top = parse_card(top, at(field, "pile_top"))
        elif not isinstance(top, bool):
            raise ReadError(at(field, "pile_top"), "must be the pile's top card (such as \"9\"), true, or false")
        return cls(melds, top)

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {"melds": [m.to_json() for m in self.melds]}
        if self.pile_top is not False:
            out["pile_top"] = self.pile_top.value if isinstance(self.pile_top, Card) else True
        return out


def _opening(data: Mapping[str, object], field: str) -> Opening | None:
    return Opening.from_json(data["opening"], at(field, "opening")) if "opening" in data else None


@dataclass(frozen=True, slots=True)
class Player:
    """A player when the deal ends: the cards still in hand and, if never picked up, the foot
    (and, in a deal with a knee, whether the knee was picked up and, if not, its cards).

    A counted player gives the hand's points instead of its cards (``cards_left_points``, None
    for an itemised hand) and how many red threes it still held (``red_threes_left``).
    """

    name: str
    foot_picked_up: bool
    cards_left: Cards = EMPTY
    foot: Cards = EMPTY
    cut_bonus: bool = False
    cards_left_points: int | None = None
    red_threes_left: int = 0
    foot_played: bool | None = None  # None: as foot_picked_up (deals recorded before it was asked)
    opening: Opening | None = None
    knee_picked_up: bool | None = None  # None: not said (a deal without a knee, see RuleSheet.knee_size)
    knee: Cards = EMPTY  # the knee never picked up, as the foot

    @property
    def picked_knee(self) -> bool:
        """Whether the player picked up the knee: ``knee_picked_up``, else as the foot (a foot
        picked up means the knee was)."""
        return self.foot_picked_up if self.knee_picked_up is None else self.knee_picked_up

    @property
    def played_foot(self) -> bool:
        """Whether the player played from the foot: ``foot_played``, else ``foot_picked_up``."""
        return self.foot_picked_up if self.foot_played is None else self.foot_played

    @property
    def counted(self) -> bool:
        """Whether the hand is recorded as points rather than cards."""
        return self.cards_left_points is not None

    @property
    def holds_cards(self) -> bool:
        """Whether the player still held any card in hand when the deal ended."""
        if self.cards_left_points is None:
            return bool(self.cards_left.total)
        return bool(self.cards_left_points or self.red_threes_left)

    @property
    def red_threes_in_hand(self) -> int:
        """Red threes still in hand, itemised or counted."""
        if self.cards_left_points is not None:
            return self.red_threes_left
        return 0 if self.cards_left is EMPTY else self.cards_left.counts()[_RED_THREE_PLACE]  # by place: a call less

    @classmethod
    def from_json(cls, data: object, field: str = "") -> Player:
        if not isinstance(data, Mapping):
            raise ReadError(field, 'must be an object such as '
                                   '{"name": "Ann", "foot_picked_up": true, "cards_left": {}}')
        only(data, ("name", "foot_picked_up", "foot_played", "cards_left", "cards_left_points", "red_threes_left",
                     "foot", "cut_bonus", "opening", "knee_picked_up", "knee"), field)
        name = _name(data.get("name"), at(field, "name"))
        if "foot_picked_up" not in data:
            raise ReadError(at(field, "foot_picked_up"), "is missing: say true or false")
        picked = data["foot_picked_up"]
        cut = data.get("cut_bonus", False)
        played = data.get("foot_played")
        knee_picked = data.get("knee_picked_up")
        for key, value in (("foot_picked_up", picked), ("cut_bonus", cut), ("foot_played", played),
                           ("knee_picked_up", knee_picked)):
            if not isinstance(value, bool) and not (key in _MAY_BE_NULL and value is None):
                raise ReadError(at(field, key), f"must be true or false, not {value!r}")
        foot = Cards.from_json(data.get("foot"), at(field, "foot"))
        knee = Cards.from_json(data.get("knee"), at(field, "knee")) if "knee" in data else EMPTY
        opening = _opening(data, field)
        if "cards_left_points" in data:
            _one_of(data, "cards_left", "cards_left_points", field)
            return cls(name, picked, EMPTY, foot, cut,
                       read_points(data["cards_left_points"], at(field, "cards_left_points")),
                       read_count(data.get("red_threes_left", 0), at(field, "red_threes_left")), played, opening,
                       knee_picked, knee)
        if "red_threes_left" in data:
            raise ReadError(at(field, "red_threes_left"), "goes with cards_left_points; with cards_left, "
                            "list the red threes there (3R)")
        return cls(name, picked, Cards.from_json(data.get("cards_left"), at(field, "cards_left")), foot, cut,
                   foot_played=played, opening=opening, knee_picked_up=knee_picked, knee=knee)

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {"name": self.name, "foot_picked_up": self.foot_picked_up}
        if self.foot_played is not None:
            out["foot_played"] = self.foot_played
        if self.cards_left_points is None:
            out["cards_left"] = {**self.cards_left.to_json()}
        else:
            out["cards_left_points"] = self.cards_left_points
            if self.red_threes_left:
                out["red_threes_left"] = self.red_threes_left
        if self.foot:
            out["foot"] = {**self.foot.to_json()}
        if self.knee_picked_up is not None:
            out["knee_picked_up"] = self.knee_picked_up
        if self.knee:
            out["knee"] = {**self.knee.to_json()}
        if self.cut_bonus:
            out["cut_bonus"] = True
        if self.opening is not None:
            out["opening"] = self.opening.to_json()
        return out


_MAY_BE_NULL = ("foot_played", "knee_picked_up")  # true, false, or null: not said


def _canonical_player(data: object) -> Player | None:
    """The player ``{"name": "Ann", "foot_picked_up": true, "cards_left": {"K": 2}}`` holds (a name
    as read, true or false where asked, cards in the object form; no counted hand, no opening),
    or None for anything else: read, as a stored deal's melds are, without building a single
    message or field path; anything else takes the long way (:meth:`Player.from_json`)."""
    if type(data) is not dict or not data.keys() <= _CANONICAL_PLAYER_KEYS:
        return None
    name, picked, cut = data.get("name"), data.get("foot_picked_up"), data.get("cut_bonus", False)
    played, knee_picked = data.get("foot_played"), data.get("knee_picked_up")
    if type(name) is not str or not _read_already(name) or type(picked) is not bool or type(cut) is not bool \
            or (played is not None and type(played) is not bool) \
            or (knee_picked is not None and type(knee_picked) is not bool):
        return None
    left, foot, knee = _canonical_cards(data.get("cards_left")), _canonical_cards(data.get("foot")), \
        _canonical_cards(data.get("knee"))
    if left is None or foot is None or knee is None:
        return None
    return Player(name, picked, left, foot, cut, foot_played=played, knee_picked_up=knee_picked, knee=knee)


_CANONICAL_PLAYER_KEYS = frozenset(("name", "foot_picked_up", "foot_played", "cards_left", "foot", "cut_bonus",
                                    "knee_picked_up", "knee"))


def _canonical_cards(data: object) -> Cards | None:
    return EMPTY if data is None else canonical_cards(data)


def _read_already(name: str) -> bool:
    """Whether ``name`` is a name as :func:`~.text.read_name` gives it back: some text, no space
    at either end nor two together, nothing nobody types, at most ``MAX_NAME`` characters."""
    return 0 < len(name) <= MAX_NAME and " ".join(name.split()) == name and untyped(name) is None


@dataclass(frozen=True, slots=True)
class Side:
    """A side: one player, or partners who share melds, books and score.

    A counted side gives ``books`` and ``meld_points`` (the points of every card it melded)
    and no melds; an itemised side gives ``melds``, and ``books`` is None. ``failed_takes``
    counts the times one of its players took the pile and could not meld the top card as the
    sheet asks (each costs the sheet's ``pile_take_penalty``).
    """

    name: str
    melds: tuple[Meld, ...]
    players: tuple[Player, ...]
    red_threes: int = 0
    books: BookCounts | None = None
    meld_points: int = 0
    opening: Opening | None = None
    running_total: int | None = None  # the side's total before a standalone deal (a game knows its own)
    failed_takes: int = 0  # times a player took the pile and could not meld its top card (pile_take_penalty)

    @property
    def counted(self) -> bool:
        """Whether the side's melds are recorded as counts rather than one by one."""
        return self.books is not None

    @classmethod
    def from_json(cls, data: object, field: str = "") -> Side:
        if not isinstance(data, Mapping):
            raise ReadError(field, 'must be an object such as {"name": "North-South", "melds": [], "players": []}')
        only(data, ("name", "melds", "books", "meld_points", "red_threes", "players", "opening", "running_total",
                    "failed_takes"), field)
        books, points = _counts(data, field)
        melds = [_canonical_meld(m) or Meld.from_json(m, f"{at(field, 'melds')}[{i}]")
                 for i, m in enumerate(read_list(data.get("melds", []), at(field, "melds"), MAX_MELDS, "melds"))]
        players = [_canonical_player(p) or Player.from_json(p, f"{at(field, 'players')}[{i}]")
                   for i, p in enumerate(read_list(data.get("players", []), at(field, "players"), MAX_PER_SIDE,
                                               "players"))]
        running = data.get("running_total")
        if running is not None and (isinstance(running, bool) or not isinstance(running, int)
                                    or not -MAX_POINTS <= running <= MAX_POINTS):
            raise ReadError(at(field, "running_total"), f"must be a whole number of points from -{MAX_POINTS:,} "
                            f"to {MAX_POINTS:,}")
        return cls(_name(data.get("name"), at(field, "name")), tuple(melds), tuple(players),
                   read_count(data.get("red_threes", 0), at(field, "red_threes")), books, points,
                   _opening(data, field), running, read_count(data.get("failed_takes", 0), at(field, "failed_takes")))

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {"name": self.name}
        if self.books is None:
            out["melds"] = [m.to_json() for m in self.melds]
        else:
            out.update(books=self.books.to_json(), meld_points=self.meld_points)
        out.update(red_threes=self.red_threes, players=[p.to_json() for p in self.players])
        if self.opening is not None:
            out["opening"] = self.opening.to_json()
        if self.running_total is not None:
            out["running_total"] = self.running_total
        if self.failed_takes:
            out["failed_takes"] = self.failed_takes
        return out


def _canonical_side(data: object) -> Side | None:
    """The itemised side a stored deal holds (a name as read, melds and players in their canonical
    forms, whole counts of red threes and failed takes; no counted books, opening or running
    total), or None for anything else: read, as its melds and players are, without building a
    message or field path; anything else takes the long way (:meth:`Side.from_json`)."""
    if type(data) is not dict or not data.keys() <= _CANONICAL_SIDE_KEYS:
        return None
    name, melds, players = data.get("name"), data.get("melds", []), data.get("players", [])
    red_threes, failed_takes = data.get("red_threes", 0), data.get("failed_takes", 0)
    if type(name) is not str or not _read_already(name) or type(melds) is not list or len(melds) > MAX_MELDS \
            or type(players) is not list or len(players) > MAX_PER_SIDE \
            or not _canonical_count(red_threes) or not _canonical_count(failed_takes):
        return None
    read_melds, read_players = tuple(map(_canonical_meld, melds)), tuple(map(_canonical_player, players))
    if not all(read_melds) or not all(read_players):  # some meld or player not in its canonical form
        return None
    # checked above: no meld or player None, whole counts of red threes and failed takes
    return Side(name, read_melds, read_players, red_threes, failed_takes=failed_takes)  # type: ignore[arg-type]


_CANONICAL_SIDE_KEYS = frozenset(("name", "melds", "red_threes", "players", "failed_takes"))


def _canonical_count(value: object) -> bool:
    """Whether ``value`` is a count :func:`~.cards.read_count` reads as it is."""
    return type(value) is int and -MAX_COUNT <= value <= MAX_COUNT


def _counts(data: Mapping[str, object], field: str) -> tuple[BookCounts | None, int]:
    """A side's ``books`` and ``meld_points``, each needing the other and neither beside ``melds``."""
    if "books" not in data and "meld_points" not in data:
        return None, 0
    if "melds" in data:
        _one_of(data, "melds", "books" if "books" in data else "meld_points", field)
    for key, other in (("books", "meld_points"), ("meld_points", "books")):
        if key in data and other not in data:
            raise ReadError(at(field, other), "is missing: a counted side gives both books and meld_points")
    return (BookCounts.from_json(data["books"], at(field, "books")),
            read_points(data["meld_points"], at(field, "meld_points")))


def _one_of(data: Mapping[str, object], first: str, second: str, field: str) -> None:
    """Refuse ``second`` beside ``first``: the two say the same thing two ways."""
    if first in data and second in data:
        raise ReadError(at(field, second), f"give {first} or {second}, not both")


class Ending(str, Enum):
    WENT_OUT = "went_out"
    STOCK_OUT = "stock_out"

    def __str__(self) -> str:
        return self.value


class Permission(str, Enum):
    """Whether the player who went out asked a partner "may I go out?", and the answer."""

    ASKED_YES = "asked-yes"
    ASKED_NO = "asked-no"
    NOT_ASKED = "not-asked"


@dataclass(frozen=True, slots=True)
class Deal:
    """One deal as recorded when play stopped, under one rule sheet."""

    sheet: RuleSheet
    number: int
    ending: Ending
    sides: tuple[Side, ...]
    went_out: str | None = None
    last_card: LastCard | None = None  # how the player who went out played the last card: discard or meld
    permission: Permission | None = None
    first_meld: str | None = None  # the player who laid down first, where the sheet has a bonus for it

    @classmethod
    def from_json(cls, data: object, sheet: RuleSheet | None = None, number: int | None = None) -> Deal:
        """Read a deal. ``sheet`` is the game's sheet for a deal that carries none;
        ``number`` is the deal's place in a game when it gives no ``deal`` of its own.

        >>> deal = Deal.from_json({"sheet": "common", "deal": 1, "ending": "stock_out", "sides": [
        ...     {"name": "Ann", "players": [{"name": "Ann", "foot_picked_up": True}]}]})
        >>> deal.sheet.preset, deal.number, deal.ending
        ('common', 1, <Ending.STOCK_OUT: 'stock_out'>)
        """
        if not isinstance(data, Mapping):
            raise ReadError("", "a deal must be a JSON object")
        only(data, ("sheet", "number", "deal", "ending", "went_out", "sides", "last_card", "permission", "first_meld"),
             "")
        if "sheet" in data:
            if sheet is not None:
                raise ReadError("sheet", "a deal in a game is played under the game's sheet; leave 'sheet' out")
            sheet = load_sheet(data["sheet"], "sheet")
        elif sheet is None:
            raise ReadError("sheet", "is missing: give a preset id such as 'pagat', or a sheet object")
        if "number" in data:  # the deal's number as the API names it; deal, its old name, may stand beside it
            number = read_count(data["number"], "number")
            if "deal" in data and read_count(data["deal"], "deal") != number:
                raise ReadError("number", f"is {number}, but deal (its old name) is {data['deal']!r:.20}: send one")
        elif "deal" in data:
            number = read_count(data["deal"], "deal")
        elif number is None:
            raise ReadError("deal", "is missing: the deal's number, 1 for the first")
        ending_text = data.get("ending")
        try:
            ending = Ending(ending_text)
        except ValueError:
            raise ReadError("ending", f"must be 'went_out' or 'stock_out', not {ending_text!r}") from None
        went_out = _player_named(data, "went_out", "the player who went out")
        sides = tuple(_canonical_side(s) or Side.from_json(s, f"sides[{i}]")
                      for i, s in enumerate(read_list(data.get("sides"), "sides", MAX_SIDES, "sides")))
        return cls(sheet, number, ending, sides, went_out,
                   read_choice(data, "last_card", LastCard, ("discard", "meld")),
                   read_choice(data, "permission", Permission, tuple(p.value for p in Permission)),
                   _player_named(data, "first_meld", "the player who laid down first"))

    def to_json(self, with_sheet: bool = True) -> dict[str, JSON]:
        """The canonical JSON form; without the sheet for a deal stored in a game."""
        out: dict[str, JSON] = {}
        if with_sheet:
            out["sheet"] = self.sheet.brief_json()
        out.update({"deal": self.number, "ending": self.ending.value})
        if self.went_out is not None:
            out["went_out"] = self.went_out
        if self.last_card is not None:
            out["last_card"] = self.last_card.value
        if self.permission is not None:
            out["permission"] = self.permission.value
        if self.first_meld is not None:
            out["first_meld"] = self.first_meld
        out["sides"] = [s.to_json() for s in self.sides]
        return out

    def repeats(self, other: Deal) -> bool:
        """Whether this deal ended just as ``other`` did, whatever their numbers: every side
        (melds, red threes, each player's hand and foot) and the ending the same, as when one
        deal is saved twice."""
        return (self.ending, self.went_out, self.last_card, self.permission, self.first_meld, self.sides) == \
            (other.ending, other.went_out, other.last_card, other.permission, other.first_meld, other.sides)

    def players(self) -> list[tuple[int, int, Player]]:
        """(side index, player index, player) for every player, in seat order."""
        return [(i, j, p) for i, side in enumerate(self.sides) for j, p in enumerate(side.players)]

    def find_player(self, name: str) -> tuple[int, int, Player] | None:
        """The player of this name (names are matched ignoring case, as they are unique so)."""
        key = name.strip().casefold()
        for i, side in enumerate(self.sides):
            for j, player in enumerate(side.players):
                if player.name.casefold() == key:
                    return i, j, player
        return None


def _name(value: object, field: str) -> str:
    return read_name(value, field, MAX_NAME)


def _player_named(data: Mapping[str, object], key: str, who: str) -> str | None:
    """A deal's ``went_out`` or ``first_meld``: a player's name as given, or None (whether the
    deal has such a player is the referee's to say)."""
    name = data.get(key)
    if name is not None and not isinstance(name, str):
        raise ReadError(key, f"must be the name of {who}")
    if name is not None and len(name.strip()) > MAX_NAME:
        raise ReadError(key, f"must be a player's name, at most {MAX_NAME} characters")
    if name is not None:
        check_text(name, key)
    return name


__all__ = ["BookCounts", "BookKind", "Deal", "Ending", "Meld", "Opening", "Permission", "Player", "Side"]
