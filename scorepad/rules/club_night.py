"""A club night (an event): its settings and its roster, read once from JSON.

An organiser runs an evening of several tables on one rule sheet. :class:`EventPlan` is what
they chose: the format (``partners``: fixed partnerships play each other; ``progressive``:
individuals change partners every round by a movement), how many rounds and whether each is a
game of the sheet's length or ``open`` (the organiser ends it), how the standings rank, what a
bye scores and whether the standings stay hidden until the end. :class:`Entrant` is one player
of the roster (a member number tells two of the same name apart in a club's season);
:class:`Partnership` two of them playing together all evening. The seats of each round are
:mod:`.movements`'; the standings, :mod:`.standings`'.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from .choices import Choice
from .errors import ReadError
from .limits import MAX_EVENT_PLAYERS, MAX_EVENT_ROUNDS, MAX_MEMBER, MAX_NAME, MAX_POINTS
from .read import JSON, at, only, read_list
from .text import read_name


class Format(Choice):
    PARTNERS = "partners"  # fixed partnerships play each other, a round robin
    PROGRESSIVE = "progressive"  # individuals change partners every round by the movement


class Movement(Choice):
    NORTH_STAYS = "north_stays"  # North stays, South down one table, East up one, West up two
    GENERIC = "generic"  # a bounded search that avoids repeated partners and opponents


class RoundLength(Choice):
    GAME = "game"  # each round is a game of the sheet's length
    OPEN = "open"  # the organiser ends the round (a time-limited round): its games are open-ended


class Ranking(Choice):
    WINS = "wins"  # most wins first, then most points
    POINTS = "points"  # most points first, then most wins


class Standings(Choice):
    LIVE = "live"  # shown as the tables play
    HIDDEN = "hidden"  # "no standings before the end": shown once the last round is over


# A bye scores the average of the round's winners (``bye_score``: this word), or a stated number
# of points; either way it is neither a win nor a loss.
WINNERS_AVERAGE = "winners_average"

C = TypeVar("C", bound=Choice)

PLAN_KEYS = ("format", "movement", "rounds", "round_length", "ranking", "bye_score", "standings")


@dataclass(frozen=True, slots=True)
class EventPlan:
    """How the evening is run (everything but the sheet and the roster)."""

    format: Format
    rounds: int
    movement: Movement = Movement.NORTH_STAYS  # progressive only
    round_length: RoundLength = RoundLength.GAME
    ranking: Ranking = Ranking.WINS
    bye_points: int | None = None  # None: a bye scores the average of its round's winners
    standings: Standings = Standings.LIVE

    @property
    def tie_break(self) -> str:
        """The order the standings rank in, in words."""
        first, then = ("wins", "points") if self.ranking is Ranking.WINS else ("points", "wins")
        return f"most {first}, then most {then}; entrants equal on both share a place"

    @property
    def bye_words(self) -> str:
        if self.bye_points is None:
            return "a bye scores the average of that round's winners, and is neither a win nor a loss"
        return f"a bye scores {self.bye_points:,} points, and is neither a win nor a loss"

    def to_json(self) -> dict[str, JSON]:
        return {"format": self.format.value, "movement": self.movement.value, "rounds": self.rounds,
                "round_length": self.round_length.value, "ranking": self.ranking.value,
                "bye_score": WINNERS_AVERAGE if self.bye_points is None else self.bye_points,
                "standings": self.standings.value}

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> EventPlan:
        """The plan's fields of an event's JSON (the others are read elsewhere)."""
        rounds = data.get("rounds")
        if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_EVENT_ROUNDS:
            raise ReadError("rounds", f"must be a whole number of rounds from 1 to {MAX_EVENT_ROUNDS}")
        bye = data.get("bye_score", WINNERS_AVERAGE)
        if bye != WINNERS_AVERAGE and (isinstance(bye, bool) or not isinstance(bye, int)
                                       or not 0 <= bye <= MAX_POINTS):
            raise ReadError("bye_score", f"must be {WINNERS_AVERAGE!r} or a whole number of points from 0 "
                            f"to {MAX_POINTS:,}")
        return cls(_choice(data, "format", Format, None), rounds,
                   _choice(data, "movement", Movement, Movement.NORTH_STAYS), _choice(data, "round_length",
                   RoundLength, RoundLength.GAME), _choice(data, "ranking", Ranking, Ranking.WINS),
                   None if bye == WINNERS_AVERAGE else int(str(bye)),
                   _choice(data, "standings", Standings, Standings.LIVE))


def _choice(data: Mapping[str, object], key: str, kind: type[C], default: C | None) -> C:
    value = data.get(key)
    if value is None and default is not None:
        return default
    words = tuple(member.value for member in kind)
    if not isinstance(value, str) or value not in words:
        raise ReadError(key, f"must be {' or '.join(repr(w) for w in words)}"
                        + (", and is missing" if value is None else f", not {value!r:.40}"))
    return kind(value)


@dataclass(frozen=True, slots=True)
class Entrant:
    """One player of the roster: a name unique in the event, and an optional member number."""

    name: str
    member: str | None = None

    def to_json(self) -> dict[str, JSON]:
        return {"name": self.name, "member": self.member}


@dataclass(frozen=True, slots=True)
class Partnership:
    """Two players of the roster playing together all evening (the ``partners`` format)."""

    players: tuple[str, str]

    @property
    def name(self) -> str:
        return pair_name(*self.players)

    def to_json(self) -> dict[str, JSON]:
        return {"name": self.name, "players": list(self.players)}


def pair_name(first: str, second: str) -> str:
    """Two players' name as one side of a table (a game's side name, at most MAX_NAME
    characters, as every name): "Ann and Ben"; "Ann & Ben" where that is too long; past that,
    each name cut to fit and marked so.

    >>> pair_name("Ann", "Ben")
    'Ann and Ben'
    >>> len(pair_name("A" * 30, "B" * 30)) <= MAX_NAME
    True
    """
    for joined in (f"{first} and {second}", f"{first} & {second}"):
        if len(joined) <= MAX_NAME:
            return joined
    room = (MAX_NAME - 3) // 2 - 1  # each name's characters, besides its mark
    return f"{first[:room].rstrip()}… & {second[:room].rstrip()}…"


def read_entrant(value: object, field: str) -> Entrant:
    """``"Ann"`` or ``{"name": "Ann", "member": "1042"}``."""
    if isinstance(value, str):
        return Entrant(read_name(value, field, MAX_NAME))
    if not isinstance(value, dict):
        raise ReadError(field, 'must be a name, or an object such as {"name": "Ann", "member": "1042"}')
    only(value, ("name", "member"), field)
    member = value.get("member")
    if member is not None:
        member = read_name(member, at(field, "member"), MAX_MEMBER)
    return Entrant(read_name(value.get("name"), at(field, "name"), MAX_NAME), member)


def read_roster(value: object, field: str = "players", before: Sequence[Entrant] = ()) -> tuple[Entrant, ...]:
    """Players added to ``before`` (none, for a new event): each name unique in the event
    (told apart regardless of case), at most :data:`MAX_EVENT_PLAYERS` in all."""
    items = read_list(value, field, MAX_EVENT_PLAYERS - len(before), "players")
    taken = {entrant.name.casefold() for entrant in before}
    added = []
    for i, item in enumerate(items):
        entrant = read_entrant(item, f"{field}[{i}]")
        if entrant.name.casefold() in taken:
            raise ReadError(f"{field}[{i}]", f"{entrant.name!r} is in the event already: names are unique in an "
                            "event (add a member number or an initial to tell two apart)")
        taken.add(entrant.name.casefold())
        added.append(entrant)
    return (*before, *added)


def read_partnerships(value: object, roster: Sequence[Entrant], before: Sequence[Partnership] = (),
                      field: str = "partnerships") -> tuple[Partnership, ...]:
    """Partnerships of two roster players each, added to ``before``; nobody in two."""
    items = read_list(value, field, MAX_EVENT_PLAYERS // 2 - len(before), "partnerships")
    names = {entrant.name.casefold(): entrant.name for entrant in roster}
    paired = {player.casefold() for partnership in before for player in partnership.players}
    added = []
    for i, item in enumerate(items):
        pair = read_list(item, f"{field}[{i}]", 2, "players")
        if len(pair) != 2:
            raise ReadError(f"{field}[{i}]", "must name the two players of the partnership")
        players = []
        for j, player in enumerate(pair):
            name = read_name(player, f"{field}[{i}][{j}]", MAX_NAME)
            if name.casefold() not in names:
                raise ReadError(f"{field}[{i}][{j}]", f"{name!r} is not on the event's roster")
            if name.casefold() in paired:
                raise ReadError(f"{field}[{i}][{j}]", f"{name!r} is in another partnership already")
            paired.add(name.casefold())
            players.append(names[name.casefold()])
        added.append(Partnership((players[0], players[1])))
    return (*before, *added)


def entrants_of(plan: EventPlan, roster: Sequence[Entrant], partnerships: Sequence[Partnership]) -> list[str]:
    """Who the movement seats and the standings rank: the players of a progressive event, the
    partnerships of a partners one."""
    if plan.format is Format.PROGRESSIVE:
        return [entrant.name for entrant in roster]
    return [partnership.name for partnership in partnerships]

