"""A club night as one document: the event and every table's game (:func:`export_event`), and
a new event made from such a document (:func:`import_event`).

**The document** (``format`` ``scorepad.event``, ``version`` 1) holds what the organiser set
up and what the tables played, and never a key (the organiser's, or a game's edit key)::

    {"format": "scorepad.event", "version": 1, "name": "Tuesday club", "date": "2026-12-04",
     "club": "Lakemont",                          # or null
     "sheet": {"preset": "common", "preset_version": 1},   # the event's frozen sheet
     "plan": {"format": "progressive", "movement": "north_stays", "rounds": 3, "round_length": "game",
              "ranking": "wins", "bye_score": "winners_average", "standings": "live"},
     "players": [{"name": "Ann", "member": "1042"}, ...],   # the roster, late arrivals too
     "partnerships": [["Ann", "Ben"], ...],                 # a partners event's; else []
     "created_at": "...", "exported_at": "...",
     "rounds": [{"number": 1, "started_at": "...", "byes": ["Ivy"],
                 "tables": [{"number": 1, "seats": [["Ann", "Ben"], ["Cat", "Dan"]],  # each side's entrants
                             "closed_at": null,               # when the organiser closed it as played
                             "game": {...}}]}]}               # the table's game, as a game's export has it

A table's ``game`` is the game's own export document (:mod:`.document`). An import makes a
NEW event (new id and organiser key) with the same roster, rounds, seats and byes, and each
table's game imported as a game's export is (:func:`.document.read_document`: read and
judged, a deal the referee will not let in refused naming it), each a new game (new id and
edit key) of the new event. Everything is read and judged first; then the event, its rounds,
its tables and every game are written in ONE transaction (:func:`.writing.write_import`
writes a game's rows inside it), so a document that fails anywhere, even a game too large
to keep, leaves nothing of the new event behind.

What cannot be read is :class:`~.errors.Invalid` naming the field, a game's within its table
(``rounds[1].tables[0].game.deals[2]``); a refused deal is :class:`~.errors.ImportRefused`,
named the same way. An event has at most :data:`MAX_EVENT_ROUNDS` rounds (no more than its
plan's), :data:`MAX_EVENT_TABLES` tables a round and :data:`MAX_EVENT_PLAYERS` players; the
text of a document at most :data:`MAX_EVENT_IMPORT_BYTES` (:func:`parse_event_text`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime

from ..rules import ReadError, load_sheet
from ..rules.club_night import PLAN_KEYS, EventPlan, Format, entrants_of, read_partnerships, read_roster
from ..rules.limits import MAX_EVENT_IMPORT_BYTES, MAX_EVENT_TABLES, MAX_NAME
from ..rules.read import JSON
from ..rules.text import read_name
from . import checks, db, document, writing
from .club_night_input import NewEvent, read_date
from .club_nights import NO_EVENT, EventRecord, check_new_event, load_event
from .errors import Full, ImportRefused, Invalid, NotFound
from .idempotency import Kind, Made, Once, keep, stop_if_kept
from .reading import new_id, stamp_now

FORMAT = "scorepad.event"
VERSION = 1
EVENT_KEYS = ("format", "version", "name", "date", "club", "sheet", "plan", "players", "partnerships",
              "withdrawn", "created_at", "exported_at", "rounds")
ROUND_KEYS = ("number", "started_at", "byes", "tables")
TABLE_KEYS = ("number", "seats", "closed_at", "game")


# -- export ---------------------------------------------------------------------------------------


def export_event(event: EventRecord) -> dict[str, JSON]:
    """The event as a version-1 document, every table's game as its export; read as of one
    moment. :class:`NotFound` when the event was deleted since ``event`` was read."""
    rounds: list[JSON] = []
    with db.snapshot():
        for played in event.rounds:
            tables: list[JSON] = []
            for table in played.tables:
                game = document.export_game(table.game_id)
                if game is None:  # a game of an event goes only with it: the event is gone
                    raise NotFound("", NO_EVENT)
                tables.append({"number": table.number, "seats": [list(side) for side in table.sides],
                               "closed_at": table.closed_at, "game": game})
            rounds.append({"number": played.number, "started_at": played.started_at,
                           "byes": list(played.byes), "tables": tables})
    return {"format": FORMAT, "version": VERSION, "name": event.name, "date": event.held_on, "club": event.club,
            "sheet": event.sheet.to_json(), "plan": event.plan.to_json(),
            "players": [entrant.to_json() for entrant in event.roster],
            "partnerships": [list(p.players) for p in event.partnerships], "withdrawn": list(event.withdrawn),
            "created_at": event.created_at, "exported_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "rounds": rounds}


# -- import ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Table:
    number: int
    seats: tuple[tuple[str, ...], ...]
    closed_at: str | None
    game: document.Imported
    game_name: str


@dataclass(frozen=True, slots=True)
class _Round:
    number: int
    started_at: str
    byes: tuple[str, ...]
    tables: tuple[_Table, ...]


@dataclass(frozen=True, slots=True)
class ReadEvent:
    """An event document read and judged, ready to be written (:func:`import_event`)."""

    new: NewEvent
    created_at: str
    exported_at: str | None
    rounds: tuple[_Round, ...]
    withdrawn: tuple[str, ...] = ()  # entrants who left the evening


@contextmanager
def _invalid(prefix: str = "") -> Iterator[None]:
    """The rules core's :class:`ReadError` as storage's :class:`Invalid`, its field under ``prefix``."""
    try:
        yield
    except ReadError as err:
        raise Invalid(err.within(prefix).field, err.reason) from None


def _under(prefix: str, field: str) -> str:
    return f"{prefix}.{field}" if field and not field.startswith("[") else f"{prefix}{field}"


def parse_event_text(text: str | bytes, where: str = "") -> JSON:
    """The JSON document in ``text`` (an upload or a body), within :data:`MAX_EVENT_IMPORT_BYTES`
    and the API's bounds on any JSON (:func:`.document.parse_text`)."""
    size = len(text.encode("utf-8", "replace") if isinstance(text, str) else text)
    if size > MAX_EVENT_IMPORT_BYTES:
        raise Invalid(where, f"is {size / 2**20:.1f} MB; an event's export imports at most "
                      f"{MAX_EVENT_IMPORT_BYTES / 2**20:g} MB")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise Invalid(where, "is not UTF-8 text: an event's export is a JSON file") from None
    return document.parse_text(text, where)


def read_event_document(data: JSON) -> ReadEvent:
    """Read and judge an event document, in the order it is written, so the first thing wrong
    is the one named: :class:`Invalid`, or :class:`ImportRefused` for a table's deal."""
    data = _header(data)
    with _invalid():
        name = read_name(data.get("name"), "name", MAX_NAME)
        held_on = read_date(data.get("date"))
        club = None if data.get("club") in (None, "") else read_name(data.get("club"), "club", MAX_NAME)
        sheet = load_sheet(data.get("sheet"), "sheet", stored=True)
    plan = _plan(data.get("plan"))
    with _invalid():
        roster = read_roster(data.get("players"), "players")
        given = data.get("partnerships")  # left out: none; false or 0 is no list of them
        partnerships = read_partnerships([] if given is None else given, roster)
    if plan.format is Format.PROGRESSIVE and partnerships:
        raise Invalid("partnerships", "only a partners event has partnerships: a progressive one changes "
                      "partners every round")
    new = NewEvent(name, held_on, club, sheet, plan, roster, partnerships)
    check_new_event(new)
    created_at = _moment(data.get("created_at"), "created_at") or stamp_now()
    exported_at = _moment(data.get("exported_at"), "exported_at")
    items = data.get("rounds")
    if items is None:  # left out: no round started
        items = []
    if not isinstance(items, list):
        raise Invalid("rounds", "must be a list of the event's rounds")
    if len(items) > plan.rounds:
        raise Invalid("rounds", f"lists {len(items):,} rounds; the event's plan has {plan.rounds}")
    rounds = tuple(_round(item, i, new) for i, item in enumerate(items))
    return ReadEvent(new, created_at, exported_at, rounds, _withdrawn(data.get("withdrawn"), new))


def _withdrawn(value: JSON, new: NewEvent) -> tuple[str, ...]:
    """The entrants who left the evening: each one of the event's, once."""
    entrants = entrants_of(new.plan, new.roster, new.partnerships)
    items = _items(value or [], "withdrawn", len(entrants))
    out: list[str] = []
    for i, item in enumerate(items):
        if item not in entrants or item in out:
            raise Invalid(f"withdrawn[{i}]", f"{item!r:.60} is not one of the event's entrants, or is listed twice")
        out.append(str(item))
    return tuple(out)


def _header(data: JSON) -> dict[str, JSON]:
    """The top level, once it is known to be this format and version, holding its required keys."""
    if not isinstance(data, dict):
        raise Invalid("", "the document must be a JSON object, as scorepad exports an event")
    if data.get("format") != FORMAT:
        if data.get("format") == document.FORMAT:
            raise Invalid("format", "this is one game's export: import it as a game, not as an event")
        raise Invalid("format", f"must be {FORMAT!r}, not {data.get('format')!r:.60}: this is not a scorepad "
                      "event export")
    version = data.get("version")
    if version != VERSION or isinstance(version, bool):
        raise Invalid("version", f"this scorepad reads version {VERSION} of the format, not {version!r:.40}")
    for key in data:
        if key not in EVENT_KEYS:
            raise Invalid(key, f"is not a field here; expected {', '.join(EVENT_KEYS)}")
    for key in ("name", "sheet", "plan", "players"):
        if key not in data:
            raise Invalid(key, "is missing")
    return data


def _plan(value: JSON) -> EventPlan:
    if not isinstance(value, dict):
        raise Invalid("plan", f"must be the event's plan, an object of {', '.join(PLAN_KEYS)}")
    for key in value:
        if key not in PLAN_KEYS:
            raise Invalid(f"plan.{key}", f"is not a field here; expected {', '.join(PLAN_KEYS)}")
    with _invalid("plan"):
        return EventPlan.from_json(value)


def _moment(value: JSON, where: str) -> str | None:
    """A time as scorepad writes them, or None when the document gives none."""
    if value is None:
        return None
    if isinstance(value, str) and len(value) <= 40:
        try:
            datetime.fromisoformat(value)
            return value
        except ValueError:
            pass
    raise Invalid(where, f"must be a date and time such as 2026-12-04T19:30:00+00:00, not {value!r:.40}")


def _whole(value: JSON, where: str, most: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= most:
        raise Invalid(where, f"must be a whole number from 1 to {most}, not {value!r:.40}")
    return value


def _round(item: JSON, i: int, new: NewEvent) -> _Round:
    """Round ``i`` of the document: numbered in turn, its byes and tables seating the event's
    entrants, nobody twice."""
    where = f"rounds[{i}]"
    if not isinstance(item, dict):
        raise Invalid(where, "must be a round, an object of " + ", ".join(ROUND_KEYS))
    for key in item:
        if key not in ROUND_KEYS:
            raise Invalid(f"{where}.{key}", f"is not a field here; expected {', '.join(ROUND_KEYS)}")
    if item.get("number") != i + 1 or isinstance(item.get("number"), bool):
        raise Invalid(f"{where}.number", f"must be {i + 1}: rounds are listed in turn from 1")
    started_at = _moment(item.get("started_at"), f"{where}.started_at") or stamp_now()
    entrants = entrants_of(new.plan, new.roster, new.partnerships)
    seated: dict[str, str] = {}  # who is placed this round, and where
    byes = tuple(_entrant(name, f"{where}.byes[{j}]", entrants, seated)
                 for j, name in enumerate(_items(item.get("byes"), f"{where}.byes", len(entrants))))
    tables: list[_Table] = []
    for j, table in enumerate(_items(item.get("tables"), f"{where}.tables", MAX_EVENT_TABLES)):
        tables.append(_table(table, f"{where}.tables[{j}]", new, entrants, seated))
        if any(t.number == tables[-1].number for t in tables[:-1]):
            raise Invalid(f"{where}.tables[{j}].number", f"table {tables[-1].number} is listed twice in the round")
    return _Round(i + 1, started_at, byes, tuple(tables))


def _items(value: JSON, where: str, most: int) -> list[JSON]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise Invalid(where, "must be a list")
    if len(value) > most:
        raise Invalid(where, f"lists {len(value):,}; at most {most}")
    return value


def _entrant(value: JSON, where: str, entrants: list[str], seated: dict[str, str]) -> str:
    """An entrant of the event (a player, or a partnership of a partners event), placed once a round."""
    if not isinstance(value, str) or value not in entrants:
        raise Invalid(where, f"{value!r:.60} is not an entrant of the event (its players, or its partnerships' "
                      "names in a partners event)")
    if value in seated:
        raise Invalid(where, f"{value!r} is also at {seated[value]} this round")
    seated[value] = where
    return value


def _table(item: JSON, where: str, new: NewEvent, entrants: list[str], seated: dict[str, str]) -> _Table:
    if not isinstance(item, dict):
        raise Invalid(where, "must be a table, an object of " + ", ".join(TABLE_KEYS))
    for key in item:
        if key not in TABLE_KEYS:
            raise Invalid(f"{where}.{key}", f"is not a field here; expected {', '.join(TABLE_KEYS)}")
    number = _whole(item.get("number"), f"{where}.number", MAX_EVENT_TABLES)
    per_side = 1 if new.plan.format is Format.PARTNERS else 2
    sides = _items(item.get("seats"), f"{where}.seats", 2)
    if len(sides) != 2:
        raise Invalid(f"{where}.seats", "must seat the table's two sides")
    seats: list[tuple[str, ...]] = []
    for s, side in enumerate(sides):
        names = _items(side, f"{where}.seats[{s}]", per_side)
        if len(names) != per_side:
            raise Invalid(f"{where}.seats[{s}]", "must name the side's partnership" if per_side == 1
                          else "must name the side's two players")
        seats.append(tuple(_entrant(name, f"{where}.seats[{s}][{k}]", entrants, seated)
                           for k, name in enumerate(names)))
    closed_at = _moment(item.get("closed_at"), f"{where}.closed_at")
    if "game" not in item:
        raise Invalid(f"{where}.game", "is missing: the table's game, as a game's export has it")
    game, game_name = _game(item["game"], f"{where}.game")
    _same_players(game, seats, new, f"{where}.game.sides")
    return _Table(number, tuple(seats), closed_at, game, game_name)


def _game(data: JSON, where: str) -> tuple[document.Imported, str]:
    """A table's game, read and judged as a game's import is, its errors named within the table."""
    try:
        game = document.read_document(data)
        return game, checks.read_game_name(game.name, "name")
    except ImportRefused as err:
        raise ImportRefused(_under(where, err.field), err.message, err.number, err.problems) from None
    except Invalid as err:
        raise Invalid(_under(where, err.field), err.message) from None


def _same_players(game: document.Imported, seats: list[tuple[str, ...]], new: NewEvent, where: str) -> None:
    """The game's sides are the table's seats, in order: each side's players those seated there."""
    pairs = {p.name: p.players for p in new.partnerships}
    if len(game.sides) != len(seats):
        raise Invalid(where, f"the game has {len(game.sides)} sides; the table seats {len(seats)}")
    for s, (side, seat) in enumerate(zip(game.sides, seats, strict=True)):
        wanted = list(pairs[seat[0]]) if new.plan.format is Format.PARTNERS else list(seat)
        if sorted(p.casefold() for p in side["players"]) != sorted(p.casefold() for p in wanted):
            raise Invalid(f"{where}[{s}].players", f"the table seats {', '.join(wanted)} on this side; the game "
                          f"has {', '.join(side['players']) or 'nobody'}")


def import_event(data: JSON, once: Once[EventRecord] | None = None) -> EventRecord:
    """Read and judge an event document, then save it as a new event, in one transaction: a
    new id and organiser key, every table's game a new game of it (new id and edit key); made
    once per ``once``'s key (:func:`.idempotency.once`: what it made is kept as the event's id)."""
    read = read_event_document(data)
    new = read.new
    event_id, key, now = new_id(), new_id(), stamp_now()
    note = "Imported with its club night from a scorepad export" + (
        f" made {read.exported_at}" if read.exported_at else "")
    with db.transaction():
        stop_if_kept(once)  # another process may have made it while this one waited for the write lock
        db.run("event_insert", event_id, key, new.name, new.held_on, new.club,
               json.dumps(new.sheet.to_stored_json()), json.dumps(new.plan.to_json()),
               json.dumps([e.to_json() for e in new.roster]),
               json.dumps([{"players": list(p.players)} for p in new.partnerships]), read.created_at, now)
        if read.withdrawn:
            db.run("event_set_withdrawn", json.dumps(list(read.withdrawn)), event_id)
        for r, played in enumerate(read.rounds):
            db.run("event_round_insert", event_id, played.number, json.dumps(list(played.byes)), played.started_at)
            for t, table in enumerate(played.tables):
                game = table.game
                try:
                    game_id = writing.write_import(table.game_name, game.sheet, game.sides, game.created_at,
                                                   game.deals, game.entries, note, game.ended_at, game.confirm)
                except Full as err:  # the whole event rolls back with it
                    raise Full(f"rounds[{r}].tables[{t}].game", err.message) from None
                db.run("game_set_event", event_id, game_id)
                db.run("event_table_insert", event_id, played.number, table.number, game_id,
                       json.dumps([list(side) for side in table.seats]))
                if table.closed_at is not None:
                    db.run("event_table_close", table.closed_at, event_id, played.number, table.number)
        keep(once, Made(Kind.EVENT_IMPORTED, event_id, None, 0))
    made = load_event(event_id)
    if made is None:  # deleted in the moment since
        raise NotFound("", NO_EVENT)
    return made
