"""A club's season ladder: every player's figures across the club's events, ranked.

The storage gives each event as plain values (:class:`LadderEvent`): its roster, and each
table it played (:class:`LadderTable`: the table's :class:`~.game.Game`, each of the game's
sides' players, and whether the table is finished: its game over, or closed by the
organiser). A bye counts nothing here: the ladder counts what was played.

**Who is who.** Events are read oldest first; each roster's entrant is matched to a player of
the ladder by member number when both have one (two Anns with different numbers are two
players; one number under two spellings is one player), else by name, regardless of case
(an Ann without a number is the Ann of the ladder, numbered or not). A name-only entrant
who could be either of two numbered players of that name is not guessed at: she is listed
apart. Nobody is matched twice in one event. A player is listed by the name of her latest
event.

**Per player** (:class:`LadderRow`): ``events`` (on the roster), ``games`` (tables played,
finished or not), ``wins`` (finished tables where her side was alone on the highest total,
as the event's standings count them), ``deals`` (deals her side played), ``points`` (her
side's score over those deals), and from them the average deal score, books per deal (every
book her side's score lines count: clean, dirty, wild and any special kind, books past a cap
too) and how often she went out (deals where she went out, over deals played). Ranked by
wins, then average deal score; players equal on both share a place, listed by name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .club_night import Entrant
from .deal import Deal, Ending
from .game import Game
from .read import JSON
from .score import SideScore


@dataclass(frozen=True, slots=True)
class LadderTable:
    """One table of an event: its game, each of the game's sides' players (in the game's
    order of sides), and whether it is finished (over, or closed as played)."""

    game: Game
    players: tuple[tuple[str, ...], ...]
    finished: bool


@dataclass(frozen=True, slots=True)
class LadderEvent:
    """One event of the club: its roster (names unique in it, member numbers where given) and its tables."""

    roster: tuple[Entrant, ...]
    tables: tuple[LadderTable, ...]


@dataclass(frozen=True, slots=True)
class LadderRow:
    place: int
    name: str
    member: str | None
    events: int
    games: int
    wins: int
    deals: int
    points: int  # her side's score over the deals she played
    books: int  # her side's books over those deals
    went_out: int  # deals where she went out

    @property
    def average(self) -> float:
        """Average deal score: her side's score per deal played (0 before any deal)."""
        return self.points / self.deals if self.deals else 0.0

    @property
    def books_per_deal(self) -> float:
        return self.books / self.deals if self.deals else 0.0

    @property
    def went_out_share(self) -> float:
        """How often she went out: deals where she did, over deals played."""
        return self.went_out / self.deals if self.deals else 0.0

    def to_json(self) -> dict[str, JSON]:
        return {"place": self.place, "name": self.name, "member": self.member, "events": self.events,
                "games": self.games, "wins": self.wins, "deals": self.deals, "points": self.points,
                "average_deal_score": round(self.average, 1), "books": self.books,
                "books_per_deal": round(self.books_per_deal, 2), "went_out": self.went_out,
                "went_out_share": round(self.went_out_share, 3)}


@dataclass(eq=False)
class _Player:
    """A player of the ladder as the events are counted (matched by identity, never by value)."""

    name: str
    member: str | None
    names: set[str] = field(default_factory=set)  # every spelling seen, casefolded
    events: int = 0
    games: int = 0
    wins: int = 0
    deals: int = 0
    points: int = 0
    books: int = 0
    went_out: int = 0


def ladder(events: Sequence[LadderEvent]) -> list[LadderRow]:
    """The ladder over ``events``, oldest first, ranked."""
    players: list[_Player] = []
    for event in events:
        who = _roster(event.roster, players)
        for player in who.values():
            player.events += 1
        for table in event.tables:
            _count(table, who, players)
    return _ranked(players)


def _key(text: str | None) -> str | None:
    return None if text is None else text.strip().casefold()


def _roster(roster: Sequence[Entrant], players: list[_Player]) -> dict[str, _Player]:
    """Each entrant of one event (by name, casefolded) as a player of the ladder, matched or new."""
    out: dict[str, _Player] = {}
    for entrant in roster:
        free = [p for p in players if all(p is not q for q in out.values())]
        player = _match(entrant, free)
        if player is None:
            player = _Player(entrant.name, entrant.member)
            players.append(player)
        player.name = entrant.name
        player.member = player.member or entrant.member
        player.names.add(entrant.name.casefold())
        out[entrant.name.casefold()] = player
    return out


def _match(entrant: Entrant, free: list[_Player]) -> _Player | None:
    """The player ``entrant`` is, among those not yet matched in this event; None for a new one."""
    name, member = entrant.name.casefold(), _key(entrant.member)
    if member is not None:
        numbered = [p for p in free if _key(p.member) == member]
        if numbered:
            return numbered[0]
        return next((p for p in free if p.member is None and name in p.names), None)
    named = [p for p in free if name in p.names]
    unnumbered = [p for p in named if p.member is None]
    if unnumbered:
        return unnumbered[0]
    return named[0] if len(named) == 1 else None


def _count(table: LadderTable, who: dict[str, _Player], players: list[_Player]) -> None:
    """One table's figures added to each of its players'."""
    game = table.game
    totals = game.totals()
    side_totals = [totals.get(name, 0) for name in game.sides]
    best = max(side_totals, default=0)
    winner = side_totals.index(best) if table.finished and side_totals.count(best) == 1 else None
    for i, seated in enumerate(table.players):
        side = game.sides[i] if i < len(game.sides) else None
        for name in seated:
            player = who.get(name.casefold())
            if player is None:  # not on the roster (never so for an event's own games): counted alone
                player = who[name.casefold()] = _Player(name, None, {name.casefold()}, events=1)
                players.append(player)
            player.games += 1
            player.wins += winner == i
            for deal, breakdown in zip(game.deals, game.scores, strict=True):
                scored = next((s for s in breakdown.sides if s.name == side), None)
                if scored is not None:
                    _add_deal(player, name, deal, scored)


def _add_deal(player: _Player, name: str, deal: Deal, scored: SideScore) -> None:
    player.deals += 1
    player.points += scored.total
    player.books += sum(line.count for line in scored.lines if line.code.startswith("books."))
    if deal.ending is Ending.WENT_OUT and _key(deal.went_out) == name.casefold():
        player.went_out += 1


def _ranked(players: list[_Player]) -> list[LadderRow]:
    def rank(p: _Player) -> tuple[int, float]:
        return p.wins, (p.points / p.deals if p.deals else 0.0)

    ordered = sorted(players, key=lambda p: (-rank(p)[0], -rank(p)[1], p.name.casefold(), p.member or ""))
    out: list[LadderRow] = []
    for n, p in enumerate(ordered):
        place = out[-1].place if n and rank(ordered[n - 1]) == rank(p) else n + 1
        out.append(LadderRow(place, p.name, p.member, p.events, p.games, p.wins, p.deals, p.points, p.books,
                             p.went_out))
    return out
