"""The seating movements of a club night (an event, issue 27): who sits where each round.

Every table seats four players as two sides of two (the 4-hand partnership game). Each
function gives the *next* round, numbered ``len(before) + 1``, from the current roster (which
may have grown since: late arrivals) and the rounds already played:

* :func:`north_stays`: progressive tables. North stays; South moves down one table, East up
  one, West up two, the tables wrapping round. Sides are (North, South) v (East, West).
* :func:`generic`: progressive tables seated by a bounded search (``MOVEMENT_SEARCH_TRIES``
  greedy builds from seeded shuffles) that keeps the seating with the fewest repeated
  partnerships (1000 each) and repeated opponents (1 each) against every earlier round.
* :func:`partners_round`: fixed partnerships playing each other two to a table, by the circle
  method (each pairing once before any repeats), or a bounded search when the roster changed.
* :func:`repeats`: how many partnerships and opponents the rounds repeat.

With more players than seats, the ones past the tables sit out (byes), spread evenly: those
with the fewest byes so far sit out, ties taken in roster order from an offset that moves on
each round, so nobody sits out twice before everyone has sat out once. A late arrival counts
as having as many byes as the fewest anyone has. Everything is deterministic: the one source
of chance is a ``random.Random`` seeded from the roster and the round's number.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

from .errors import ReadError
from .limits import MAX_EVENT_PLAYERS, MAX_EVENT_ROUNDS, MAX_EVENT_TABLES, MOVEMENT_SEARCH_TRIES

SEATS = 4  # players at a table: two sides of two
PARTNER_COST = 1_000  # what the search charges for a repeated partnership
OPPONENT_COST = 1  # ... and for a repeated pair of opponents
# How each seat moves between rounds in north_stays: North, South, East, West (tables wrap).
NORTH_STAYS_MOVES = (0, -1, +1, +2)

Sides = tuple[tuple[str, ...], tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class TableSeats:
    """One table in one round. Progressive: ``((North, South), (East, West))``; partners:
    ``((partnership A,), (partnership B,))``."""

    table: int
    sides: Sides

    @property
    def players(self) -> tuple[str, ...]:
        """Everyone at the table, side by side (North, South, East, West when progressive)."""
        return self.sides[0] + self.sides[1]


@dataclass(frozen=True, slots=True)
class RoundSeats:
    """One round: its number (from 1), its tables in order, and who sits it out."""

    round: int
    tables: tuple[TableSeats, ...]
    byes: tuple[str, ...]

    @property
    def seated(self) -> tuple[str, ...]:
        """Everyone at a table this round, table by table."""
        return tuple(name for table in self.tables for name in table.players)


@dataclass(frozen=True, slots=True)
class Repeats:
    """Repeats over some rounds: each extra time a pair partnered (``partners``) or met as
    opponents (``opponents``) counts one.

    >>> str(Repeats(2, 5)), str(Repeats(1, 0)), str(Repeats(0, 0))
    ('2 repeated partnerships, 5 repeated opponents', '1 repeated partnership, 0 repeated opponents', 'no repeats')
    """

    partners: int
    opponents: int

    def __str__(self) -> str:
        if not self.partners and not self.opponents:
            return "no repeats"
        return (f"{self.partners} repeated partnership{'' if self.partners == 1 else 's'}, "
                f"{self.opponents} repeated opponent{'' if self.opponents == 1 else 's'}")


# -- the roster and its byes ------------------------------------------------------------------------


def _check_roster(names: Sequence[str], field: str, least: int, most: int, what: str) -> list[str]:
    roster = list(names)
    listed = ", ".join(roster) if roster else "nobody"
    if len(roster) < least:
        raise ReadError(field, f"{what} needs at least {least}; the roster has {len(roster)}: {listed}")
    if len(roster) > most:
        raise ReadError(field, f"at most {most} can be seated; the roster has {len(roster)}")
    seen: set[str] = set()
    for name in roster:
        if not name.strip():
            raise ReadError(field, "a name on the roster is blank")
        if name in seen:
            raise ReadError(field, f"{name} is on the roster twice")
        seen.add(name)
    return roster


def _check_before(before: Sequence[RoundSeats]) -> None:
    if len(before) >= MAX_EVENT_ROUNDS:
        raise ReadError("rounds", f"an event has at most {MAX_EVENT_ROUNDS} rounds; {len(before)} are played")
    for number, played in enumerate(before, start=1):
        if played.round != number:
            raise ReadError(f"rounds[{number - 1}].round", f"must be {number}, not {played.round}")


def _bye_counts(roster: Sequence[str], before: Sequence[RoundSeats]) -> dict[str, int]:
    """Each player's byes so far, counting only the rounds they were on the roster: a newcomer
    starts with as many as the fewest anyone had when they came."""
    counts: dict[str, int] = {}
    for played in before:
        floor = min(counts.values(), default=0)
        for name in (*played.seated, *played.byes):
            counts.setdefault(name, floor)
        for name in played.byes:
            counts[name] += 1
    floor = min((counts[name] for name in roster if name in counts), default=0)
    return {name: counts.get(name, floor) for name in roster}


def _choose_byes(roster: Sequence[str], before: Sequence[RoundSeats], seats: int) -> tuple[str, ...]:
    """Who sits the next round out when ``seats`` of the roster can play: the fewest byes first,
    ties in roster order from an offset that moves on each round (round 1: the players past the
    seats), given in roster order."""
    count = len(roster) - seats
    if count <= 0:
        return ()
    counts = _bye_counts(roster, before)
    start = (seats + len(before) * count) % len(roster)
    order = sorted(range(len(roster)), key=lambda i: (counts[roster[i]], (i - start) % len(roster)))
    return tuple(roster[i] for i in sorted(order[:count]))


def _seed(kind: str, roster: Sequence[str], number: int) -> random.Random:
    return random.Random("\x1f".join((kind, str(number), *roster)))


def _tables_for(players: Sequence[str]) -> int:
    return max(1, len(players) // SEATS)


# -- progressive: north stays -------------------------------------------------------------------------


def _moved(table: int, seat: int, tables: int) -> int:
    """The table the player in ``seat`` (0 North ... 3 West) at ``table`` moves to."""
    return (table - 1 + NORTH_STAYS_MOVES[seat]) % tables + 1


def _as_round(number: int, grid: Sequence[Sequence[str]], byes: tuple[str, ...]) -> RoundSeats:
    tables = tuple(TableSeats(t, ((seats[0], seats[1]), (seats[2], seats[3]))) for t, seats in enumerate(grid, 1))
    return RoundSeats(number, tables, byes)


def _progressive(players: Sequence[str], before: Sequence[RoundSeats]) -> tuple[list[str], tuple[str, ...], int]:
    """The checked roster, the next round's byes and its number of tables."""
    roster = _check_roster(players, "players", SEATS, MAX_EVENT_PLAYERS, "a table of two sides of two")
    _check_before(before)
    tables = _tables_for(roster)
    return roster, _choose_byes(roster, before, tables * SEATS), tables


def _progressive_seats(played: RoundSeats) -> Iterator[tuple[int, int, str]]:
    """(table, seat, player) of a progressive round, seats 0 North, 1 South, 2 East, 3 West."""
    for number, table in enumerate(played.tables, start=1):
        where = f"rounds[{played.round - 1}].tables[{number - 1}]"
        if len(table.players) != SEATS or len(table.sides[0]) != 2:
            raise ReadError(where, "a progressive table seats two sides of two")
        if table.table != number:
            raise ReadError(f"{where}.table", f"must be {number}, not {table.table}")
        for seat, name in enumerate(table.players):
            yield table.table, seat, name


def north_stays(players: Sequence[str], before: Sequence[RoundSeats]) -> RoundSeats:
    """The next round of the north-stays movement.

    Round 1 seats the roster in order, four to a table (North, South, East, West). After each
    round North stays, South moves down one table, East up one and West up two, wrapping. A
    player back from a bye (or a late arrival) takes a seat left by one going to a bye; when
    the number of tables changes, the seats of tables that survive are kept and the new or
    empty seats filled in roster order.
    """
    roster, byes, tables = _progressive(players, before)
    out = set(byes)
    playing = [name for name in roster if name not in out]
    grid: list[list[str | None]] = [[None] * SEATS for _ in range(tables)]
    placed: set[str] = set()
    if before:
        last = before[-1]
        moved_over = len(last.tables)
        for table, seat, name in _progressive_seats(last):
            to = _moved(table, seat, moved_over)
            if name in out or name not in roster or to > tables:
                continue
            grid[to - 1][seat] = name
            placed.add(name)
    waiting = iter([name for name in playing if name not in placed])
    full = [[name if name is not None else next(waiting) for name in seats] for seats in grid]
    return _as_round(len(before) + 1, full, byes)


# -- progressive: a generic search -------------------------------------------------------------------


class _Met:
    """How often each pair of the roster partnered and met as opponents, as flat n*n tables."""

    def __init__(self, roster: Sequence[str], before: Sequence[RoundSeats]) -> None:
        self.index = {name: i for i, name in enumerate(roster)}
        n = self.n = len(roster)
        self.partners = [0] * (n * n)
        self.opponents = [0] * (n * n)
        for played in before:
            for table in played.tables:
                first, second = ([self.index[p] for p in side if p in self.index] for side in table.sides)
                for side in (first, second):
                    for a, b in combinations(side, 2):
                        self._add(self.partners, a, b)
                for a in first:
                    for b in second:
                        self._add(self.opponents, a, b)

    def _add(self, table: list[int], a: int, b: int) -> None:
        table[a * self.n + b] += 1
        table[b * self.n + a] += 1

    def build(self, order: list[int]) -> tuple[int, list[tuple[int, int, int, int]]]:
        """One greedy seating of ``order`` (indexes, four a table) and what it costs: each table
        takes the first player left, the partner they met least, then the two opponents."""
        n, partners, opponents = self.n, self.partners, self.opponents
        left = list(order)
        cost, tables = 0, []
        while left:
            p = left.pop(0)
            q = min(left, key=lambda x: partners[p * n + x])
            left.remove(q)
            r = min(left, key=lambda x: opponents[p * n + x] + opponents[q * n + x])
            left.remove(r)
            s = min(left, key=lambda x: PARTNER_COST * partners[r * n + x] + opponents[p * n + x]
                    + opponents[q * n + x])
            left.remove(s)
            cost += PARTNER_COST * (partners[p * n + q] + partners[r * n + s]) + OPPONENT_COST * (
                opponents[p * n + r] + opponents[p * n + s] + opponents[q * n + r] + opponents[q * n + s])
            tables.append((p, q, r, s))
        return cost, tables


def generic(players: Sequence[str], before: Sequence[RoundSeats]) -> RoundSeats:
    """The next round seated by a bounded search against repeats.

    ``MOVEMENT_SEARCH_TRIES`` attempts, each a greedy build of the tables from a shuffle seeded
    by the roster and the round; each costs 1000 a repeated partnership and 1 a repeated pair
    of opponents against all earlier rounds. The cheapest is kept; one costing nothing ends the
    search at once. Byes as for every movement (:func:`north_stays`).
    """
    roster, byes, _ = _progressive(players, before)
    out = set(byes)
    met = _Met(roster, before)
    playing = [met.index[name] for name in roster if name not in out]
    rng = _seed("generic", roster, len(before) + 1)
    best: tuple[int, list[tuple[int, int, int, int]]] | None = None
    for _ in range(MOVEMENT_SEARCH_TRIES):
        rng.shuffle(playing)
        found = met.build(playing)
        if best is None or found[0] < best[0]:
            best = found
        if best[0] == 0:
            break
    assert best is not None  # MOVEMENT_SEARCH_TRIES is at least 1
    grid = [[roster[i] for i in seats] for seats in best[1]]
    return _as_round(len(before) + 1, grid, byes)


# -- partnerships --------------------------------------------------------------------------------------


def _circle(roster: Sequence[str], number: int) -> list[tuple[str | None, str | None]]:
    """Round ``number`` of the circle method over ``roster`` (a bye slot, None, added to an odd
    count): the first stays, the others turn one place a round."""
    slots: list[str | None] = [*roster, None] if len(roster) % 2 else list(roster)
    others = slots[1:]
    turn = (number - 1) % len(others)
    ring = [slots[0], *others[len(others) - turn:], *others[:len(others) - turn]]
    return [(ring[i], ring[-1 - i]) for i in range(len(ring) // 2)]


def _pairings(played: RoundSeats) -> tuple[frozenset[frozenset[str]], frozenset[str]]:
    return frozenset(frozenset(table.players) for table in played.tables), frozenset(played.byes)


def _circle_round(roster: Sequence[str], number: int) -> RoundSeats:
    pairs = _circle(roster, number)
    tables = [(a, b) for a, b in pairs if a is not None and b is not None]
    byes = tuple(a or b or "" for a, b in pairs if a is None or b is None)
    return RoundSeats(number, tuple(TableSeats(t, ((a,), (b,))) for t, (a, b) in enumerate(tables, 1)), byes)


def _opponent_cost(met: _Met, pairs: Sequence[tuple[int, int]]) -> int:
    return sum(OPPONENT_COST * met.opponents[a * met.n + b] for a, b in pairs)


def _search_pairs(met: _Met, playing: list[int], rng: random.Random) -> tuple[int, list[tuple[int, int]]]:
    """The fewest repeated opponents found in ``MOVEMENT_SEARCH_TRIES`` greedy pairings."""
    best: tuple[int, list[tuple[int, int]]] | None = None
    n, opponents = met.n, met.opponents
    for _ in range(MOVEMENT_SEARCH_TRIES):
        rng.shuffle(playing)
        left, pairs = list(playing), []
        while left:
            a = left.pop(0)
            b = min(left, key=lambda x: opponents[a * n + x])
            left.remove(b)
            pairs.append((a, b))
        cost = _opponent_cost(met, pairs)
        if best is None or cost < best[0]:
            best = (cost, pairs)
        if cost == 0:
            break
    assert best is not None  # MOVEMENT_SEARCH_TRIES is at least 1
    return best


def partners_round(partnerships: Sequence[str], before: Sequence[RoundSeats]) -> RoundSeats:
    """The next round of fixed partnerships playing each other, two to a table.

    The circle method over the roster order (round r is its rotation r - 1) meets every
    pairing once before any repeats, an odd count giving one partnership a bye each round.
    When the rounds before are not the circle's (the roster changed: late entries), or the
    circle's round would repeat opponents where the search finds fewer repeats, a bounded
    search (as :func:`generic`'s) pairs them instead, byes spread evenly as for every movement.
    """
    roster = _check_roster(partnerships, "partnerships", 2, 2 * MAX_EVENT_TABLES, "a table of two partnerships")
    _check_before(before)
    number = len(before) + 1
    met = _Met(roster, before)
    circle_ok = all(_pairings(played) == _pairings(_circle_round(roster, played.round)) for played in before)
    circle = _circle_round(roster, number)
    circle_cost = _opponent_cost(met, [(met.index[t.sides[0][0]], met.index[t.sides[1][0]]) for t in circle.tables])
    if circle_ok and circle_cost == 0:
        return circle
    byes = _choose_byes(roster, before, len(roster) - len(roster) % 2)
    out = set(byes)
    playing = [met.index[name] for name in roster if name not in out]
    cost, pairs = _search_pairs(met, playing, _seed("partners", roster, number))
    if circle_ok and circle_cost <= cost:
        return circle
    tables = tuple(TableSeats(t, ((roster[a],), (roster[b],))) for t, (a, b) in enumerate(pairs, 1))
    return RoundSeats(number, tables, byes)


# -- repeats ------------------------------------------------------------------------------------------


def repeats(rounds: Sequence[RoundSeats]) -> Repeats:
    """The repeated partnerships and opponents of ``rounds``: partners are the players of one
    side (none when a side is one partnership), opponents each of one side with each of the
    other; each time a pair meets again counts one."""
    partners: dict[frozenset[str], int] = {}
    opponents: dict[frozenset[str], int] = {}
    for played in rounds:
        for table in played.tables:
            first, second = table.sides
            for side in (first, second):
                for a, b in combinations(side, 2):
                    key = frozenset((a, b))
                    partners[key] = partners.get(key, 0) + 1
            for a in first:
                for b in second:
                    key = frozenset((a, b))
                    opponents[key] = opponents.get(key, 0) + 1
    return Repeats(sum(c - 1 for c in partners.values()), sum(c - 1 for c in opponents.values()))
