"""Club nights kept: an event created, its roster grown, each round's tables started as
games, a table closed as played, and the event deleted with its games (:class:`EventRecord`).

An event's games are ordinary games (:mod:`.writing` writes their deals); they carry the
event's id, so that they are deleted and purged only with it. The organiser's key grants
every right on them (:func:`.reading.organiser_key_of`). Every write here is one transaction and
moves the event's revision on; a write based on a revision the event has moved past is
refused (:class:`~.errors.Conflict`), as a game's is.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime

from ..rules import ReadError, RuleSheet
from ..rules.choices import GameLength
from ..rules.club_night import Entrant, EventPlan, Format, Partnership, RoundLength, Standings, entrants_of, pair_name
from ..rules.limits import MAX_EVENT_ROUNDS, MAX_EVENT_TABLES, MAX_NAME
from ..rules.movements import RoundSeats, TableSeats, generic, north_stays, partners_round
from ..rules.presets import load_sheet
from ..rules.standings import RoundPlay, Standing, TablePlay, standings
from . import db, writing
from .club_night_input import NewEvent
from .errors import Conflict, Invalid, NotFound
from .idempotency import Kind, Made, Once, keep, stop_if_kept
from .reading import GameSide, could_be_an_id, load_game, load_games, new_id, stamp, stamp_now

NO_EVENT = "there is no event at this address; check the link, or ask the organiser for it again"


@dataclass(frozen=True, slots=True)
class EventTable:
    """One table of one round: its seats (each side's entrants) and its game."""

    number: int
    game_id: str
    sides: tuple[tuple[str, ...], ...]
    closed_at: str | None = None


@dataclass(frozen=True, slots=True)
class EventRound:
    number: int
    tables: tuple[EventTable, ...]
    byes: tuple[str, ...]
    started_at: str


@dataclass(frozen=True)
class EventRecord:
    id: str
    organiser_key: str
    name: str
    held_on: str
    club: str | None
    sheet: RuleSheet
    plan: EventPlan
    roster: tuple[Entrant, ...]
    partnerships: tuple[Partnership, ...]
    revision: int
    created_at: str
    updated_at: str
    rounds: tuple[EventRound, ...] = field(default=())
    withdrawn: tuple[str, ...] = ()  # entrants who left the evening: seated no more, still ranked

    @property
    def entrants(self) -> list[str]:
        """Who the movement seats and the standings rank (players, or partnerships)."""
        return entrants_of(self.plan, self.roster, self.partnerships)

    @property
    def playing(self) -> list[str]:
        """The entrants the next round seats: all but those who left the evening."""
        gone = set(self.withdrawn)
        return [name for name in self.entrants if name not in gone]

    def table_sheet(self) -> RuleSheet:
        """The sheet each table's game is played on: the event's, open-ended in an open round."""
        if self.plan.round_length is RoundLength.OPEN:
            return self.sheet.replace(game_length=GameLength.OPEN)
        return self.sheet


# -- reading ------------------------------------------------------------------------------------


def load_event(event_id: str) -> EventRecord | None:
    """The event as it stands, with its rounds and tables; None if there is none (or if
    ``event_id`` could not be an id: read nothing for it)."""
    if not could_be_an_id(event_id):
        return None
    with db.snapshot():
        row = db.one("event_get", event_id)
        if row is None:
            return None
        rounds = db.query("event_rounds", event_id)
        tables = db.query("event_tables", event_id)
    by_round: dict[int, list[EventTable]] = {}
    for t in tables:
        sides = tuple(tuple(side) for side in json.loads(t["seats"]))
        by_round.setdefault(t["round"], []).append(EventTable(t["number"], t["game_id"], sides, t["closed_at"]))
    plan = EventPlan.from_json(json.loads(row["plan"]))
    roster = tuple(Entrant(e["name"], e.get("member")) for e in json.loads(row["roster"]))
    partnerships = tuple(Partnership((p["players"][0], p["players"][1])) for p in json.loads(row["partnerships"]))
    return EventRecord(row["id"], row["organiser_key"], row["name"], row["held_on"], row["club"],
                       load_sheet(json.loads(row["sheet"]), stored=True), plan, roster, partnerships,
                       row["revision"], row["created_at"], row["updated_at"],
                       tuple(EventRound(r["number"], tuple(by_round.get(r["number"], ())),
                                        tuple(json.loads(r["byes"])), r["started_at"]) for r in rounds),
                       tuple(json.loads(row["withdrawn"])))


def events_of_club(club: str) -> list[str]:
    """The ids of a club's events, oldest evening first."""
    return [row["id"] for row in db.query("events_of_club", club)]


def played(event: EventRecord, rounds: tuple[EventRound, ...] | None = None) -> list[RoundPlay]:
    """Each round's tables as their games stand (for the standings): a table is finished once
    its game is over or the organiser closed it; a game deleted meanwhile counts as no points."""
    out = []
    chosen = event.rounds if rounds is None else rounds
    games = load_games([table.game_id for played_round in chosen for table in played_round.tables])
    for played_round in chosen:
        tables = []
        for table in played_round.tables:
            game = games.get(table.game_id)
            totals = game.rules.totals() if game is not None else {}
            names = [side["name"] for side in game.sides] if game is not None else []
            finished = table.closed_at is not None or (game is not None and game.rules.result().over)
            tables.append(TablePlay(table.number, table.sides,
                                    tuple(totals.get(name, 0) for name in names) or (0,) * len(table.sides),
                                    finished))
        out.append(RoundPlay(played_round.number, tuple(tables), played_round.byes))
    return out


# -- writing ------------------------------------------------------------------------------------


def create_event(new: NewEvent, once: Once[EventRecord] | None = None) -> EventRecord:
    """A new event, with a new id and organiser key, no round started yet; made once per
    ``once``'s key (:func:`.idempotency.once`: what it made is kept as the event's id)."""
    check_new_event(new)
    name, held_on, club, sheet, plan = new.name, new.held_on, new.club, new.sheet, new.plan
    roster, partnerships = new.roster, new.partnerships
    event_id, key, now = new_id(), new_id(), stamp_now()
    with db.transaction():
        stop_if_kept(once)  # another process may have made it while this one waited for the write lock
        db.run("event_insert", event_id, key, name, held_on, club, json.dumps(sheet.to_stored_json()),
               json.dumps(plan.to_json()), json.dumps([e.to_json() for e in roster]),
               json.dumps([{"players": list(p.players)} for p in partnerships]), now, now)
        keep(once, Made(Kind.EVENT_CREATED, event_id, None, 0))
    made = load_event(event_id)
    assert made is not None  # just written
    return made


def check_new_event(new: NewEvent) -> None:
    """What every event must be (:class:`Invalid` naming the field): a sheet seating four at a
    table as two sides of two, and enough partnerships or players to fill one."""
    sheet = new.sheet
    if not sheet.min_players <= 4 <= sheet.max_players or 2 not in sheet.side_sizes:
        raise Invalid("sheet", "an event's tables seat four players as two sides of two; this sheet plays "
                      f"{sheet.describe('side_sizes')} for {sheet.min_players} to {sheet.max_players} players")
    if new.plan.format is Format.PARTNERS and len(new.partnerships) < 2:
        raise Invalid("partnerships", "a partners event needs at least two partnerships")
    if new.plan.format is Format.PROGRESSIVE and len(new.roster) < 4:
        raise Invalid("players", "a progressive event needs at least four players")


def _touch(event: EventRecord, based_on: int | None, now: str) -> None:
    """Move the event's revision on, from ``based_on`` (else the revision it was read at)."""
    at = event.revision if based_on is None else based_on
    if not db.run("event_touch_at", now, event.id, at):
        raise Conflict(at, _revision(event.id), [], "event")


def _revision(event_id: str) -> int:
    row = db.one("event_get", event_id)
    if row is None:
        raise NotFound("", NO_EVENT)
    return int(row["revision"])


def add_players(event: EventRecord, roster: tuple[Entrant, ...], partnerships: tuple[Partnership, ...],
                based_on: int | None = None) -> EventRecord:
    """The roster grown (late arrivals): they play from the next round on."""
    with db.transaction():
        now = stamp_now()
        _touch(event, based_on, now)
        db.run("event_set_roster", json.dumps([e.to_json() for e in roster]),
               json.dumps([{"players": list(p.players)} for p in partnerships]), event.id)
    return _reloaded(event.id)


def set_withdrawn(event: EventRecord, name: str, gone: bool, based_on: int | None = None) -> EventRecord:
    """An entrant (a player of a progressive event, a partnership of a partners one) leaves the
    evening (``gone``), or comes back: from the next round the movement seats them no more, or
    again. What they played stands, in the standings and at the tables. Refused when it would
    leave too few to seat a table."""
    found = next((entrant for entrant in event.entrants if entrant.casefold() == name.strip().casefold()), None)
    if found is None:
        raise NotFound("name", f"{name!r:.60} is not on the event's roster")
    withdrawn = [entrant for entrant in event.withdrawn if entrant != found]
    if gone:
        withdrawn.append(found)
    playing = [entrant for entrant in event.entrants if entrant not in withdrawn]
    least = 2 if event.plan.format is Format.PARTNERS else 4
    if len(playing) < least:
        what = "partnerships" if event.plan.format is Format.PARTNERS else "players"
        raise Invalid("name", f"{found} cannot leave: a table needs {least} {what}, and only {len(playing)} "
                      "would be left")
    with db.transaction():
        now = stamp_now()
        _touch(event, based_on, now)
        db.run("event_set_withdrawn", json.dumps(withdrawn), event.id)
    return _reloaded(event.id)


def next_seats(event: EventRecord) -> RoundSeats:
    """The seats of the event's next round, by its format and movement, from the rounds played."""
    before = [RoundSeats(r.number, tuple(TableSeats(t.number, (t.sides[0], t.sides[1])) for t in r.tables), r.byes)
              for r in event.rounds]
    if event.plan.format is Format.PARTNERS:
        return partners_round(event.playing, before)
    move = north_stays if event.plan.movement.value == "north_stays" else generic
    return move(event.playing, before)


def unfinished_tables(event: EventRecord) -> list[int]:
    """The tables of the last round still playing: neither over nor closed by the organiser."""
    if not event.rounds:
        return []
    last = played(event, event.rounds[-1:])[0]
    return [table.table for table in last.tables if not table.finished]


def start_round(event: EventRecord, based_on: int | None = None) -> EventRecord:
    """The next round: one game per table with its seats, its own edit key, all in one
    transaction. Refused while a table of the last round is still playing, and past the plan's
    rounds."""
    if len(event.rounds) >= event.plan.rounds:
        raise Invalid("round", f"the event's {event.plan.rounds} rounds have all been started")
    playing = unfinished_tables(event)
    if playing:
        raise Invalid("round", f"table{'s' if len(playing) > 1 else ''} {', '.join(map(str, playing))} of round "
                      f"{event.rounds[-1].number} {'are' if len(playing) > 1 else 'is'} still playing: finish "
                      "or close them first")
    try:
        seats = next_seats(event)
    except ReadError as err:  # a roster the movement cannot seat
        raise Invalid(err.field, err.reason) from None
    if len(seats.tables) > MAX_EVENT_TABLES:
        raise Invalid("players", f"the roster seats {len(seats.tables)} tables; an event has at most "
                      f"{MAX_EVENT_TABLES}")
    sheet, number = event.table_sheet(), len(event.rounds) + 1
    stored_sheet = json.dumps(sheet.to_stored_json())
    players = {p.name: p.players for p in event.partnerships}
    with db.transaction():
        now = stamp_now()
        _touch(event, based_on, now)
        db.run("event_round_insert", event.id, number, json.dumps(list(seats.byes)), now)
        for table in seats.tables:
            sides: list[GameSide] = [{"name": _side_name(side), "players": _players(side, players)}
                                     for side in table.sides]
            game_id = new_id()
            db.run("game_insert", game_id, new_id(), _table_name(event.name, number, table.table), stored_sheet,
                   json.dumps(sides), now, now, "none")
            db.run("game_set_event", event.id, game_id)
            db.run("event_table_insert", event.id, number, table.table, game_id,
                   json.dumps([list(side) for side in table.sides]))
    return _reloaded(event.id)


def _side_name(side: tuple[str, ...]) -> str:
    """A table's side as its game names it: its partnership's name, or its two players'."""
    return side[0] if len(side) == 1 else pair_name(side[0], side[1])


def _players(side: tuple[str, ...], partnerships: dict[str, tuple[str, str]]) -> list[str]:
    return list(partnerships[side[0]]) if len(side) == 1 and side[0] in partnerships else list(side)


def _table_name(event: str, round_number: int, table: int) -> str:
    """The table's game's name: the event's, with the round and table, within a name's length."""
    where = f"round {round_number}, table {table}"
    named = f"{event}: {where}"
    return named if len(named) <= MAX_NAME else f"Round {round_number}, table {table}"


def close_table(event: EventRecord, round_number: int, table: int, based_on: int | None = None) -> EventRecord:
    """The organiser closes a table as played (its game stands as it is for the standings)."""
    if not 1 <= round_number <= min(len(event.rounds), MAX_EVENT_ROUNDS):
        raise NotFound("round", f"the event has no round {round_number}")
    if not any(t.number == table for t in event.rounds[round_number - 1].tables):
        raise NotFound("table", f"round {round_number} has no table {table}")
    with db.transaction():
        now = stamp_now()
        _touch(event, based_on, now)
        db.run("event_table_close", now, event.id, round_number, table)
    return _reloaded(event.id)


def end_round(event: EventRecord, based_on: int | None = None) -> EventRecord:
    """The organiser ends the last round (an open round, played to the clock): each table's
    game with a deal recorded is ended through its own end action (:func:`.writing.end_game`,
    with its history entry), and every table of the round is closed as played. The tables are
    closed first, in the event's own write (refused, ending nothing, when ``based_on`` is stale):
    for the standings the round is over from then; each game's end follows."""
    if not event.rounds:
        raise Invalid("round", "no round has been started")
    last = event.rounds[-1]
    with db.transaction():
        now = stamp_now()
        _touch(event, based_on, now)
        for table in last.tables:
            db.run("event_table_close", now, event.id, last.number, table.number)
    for table in last.tables:
        game = load_game(table.game_id)
        if game is not None and game.deals and game.ended_at is None and game.sheet.game_length is GameLength.OPEN:
            writing.end_game(table.game_id, key=game.edit_key)
    return _reloaded(event.id)


@dataclass(frozen=True, slots=True)
class EventStandings:
    """The standings as they stand: overall, and each round's alone; ``final`` once the event is
    over; ``hidden`` while the plan keeps them from the view links until the end; ``played``, the
    rounds' tables as their games stand (:func:`played`), read once for a page or an answer."""

    overall: tuple[Standing, ...]
    by_round: tuple[tuple[Standing, ...], ...]
    final: bool
    hidden: bool
    played: tuple[RoundPlay, ...] = ()

    @property
    def playing(self) -> list[int]:
        """The tables of the last round still playing."""
        return [table.table for table in self.played[-1].tables if not table.finished] if self.played else []


def standings_of(event: EventRecord) -> EventStandings:
    """The event's standings from its tables' games as they stand now."""
    rounds = played(event)
    over = _over(event, rounds)
    return EventStandings(tuple(standings(event.plan, event.entrants, rounds)),
                          tuple(tuple(standings(event.plan, [], [r])) for r in rounds), over,
                          event.plan.standings is Standings.HIDDEN and not over, tuple(rounds))


def _over(event: EventRecord, rounds: list[RoundPlay]) -> bool:
    return len(rounds) == event.plan.rounds and rounds[-1].finished


def is_over(event: EventRecord) -> bool:
    """Every round of the plan has been played: each table of the last finished or closed."""
    return len(event.rounds) == event.plan.rounds and played(event, event.rounds[-1:])[0].finished


def delete_event(event: EventRecord, based_on: int | None = None) -> str:
    """The event and every game of it, in one transaction; the games' ids kept as deleted."""
    with db.transaction():
        now = stamp_now()
        _touch(event, based_on, now)
        _remove(event, now, "event")
    _forget(event)
    return now


def _remove(event: EventRecord, now: str, why: str) -> None:
    """Inside the transaction: the event's games (their ids kept as deleted, ``why``) and the event."""
    for r in event.rounds:
        for t in r.tables:
            db.run("game_delete_of_event", t.game_id, event.id)
            db.run("idempotency_forget_game", t.game_id)
            db.run("deleted_insert", t.game_id, now, why)
    db.run("event_delete", event.id)


def _forget(event: EventRecord) -> None:
    db.current().cache.discard_games(db.path(), {t.game_id for r in event.rounds for t in r.tables})


def purge_events(moment: datetime, dry_run: bool = False) -> list[EventRecord]:
    """Remove every event that, with every game of it, has not changed since ``moment`` (the
    retention ``flask purge`` keeps: an event goes as one unit, its games with it), each in a
    transaction of its own that removes it only if still unchanged; the events removed, oldest
    first. With ``dry_run``, those it would remove, removing none."""
    found = [event for event in (load_event(row["id"]) for row in db.query("events_unchanged_since", stamp(moment)))
             if event is not None]
    if dry_run:
        return found
    removed = []
    for event in found:
        with db.transaction():
            now = stamp_now()
            if db.value("event_games_changed_since", event.id, stamp(moment)) \
                    or not db.run("event_touch_at", now, event.id, event.revision):
                continue  # a game of it, or the event, changed meanwhile: kept
            _remove(event, now, "retention")
            removed.append(event)
        _forget(event)
    return removed


def _reloaded(event_id: str) -> EventRecord:
    event = load_event(event_id)
    if event is None:
        raise NotFound("", NO_EVENT)
    return event

