"""The JSON API's club nights (``/api/v1/events``): an event created, read with its rounds,
its next round's seats and its standings, its roster grown, its rounds started, a table closed,
an open round ended, and the event deleted with its games (:mod:`scorepad.storage.club_nights`).

The organiser's writes need the event's organiser key as ``Authorization: Bearer <key>``:
none is a 401, another key (a table's edit key among them) a 403, as a game's writes answer.
That key also grants every right on the event's games, so the organiser records a deal at any
table through the game routes (:mod:`.games`), as each table's phone does with its own edit
key. A write based on a ``revision`` the event has moved past is a 409 with the event's
revision now (the event keeps no list of changes: ``changes`` is empty). Creating an event
takes an ``Idempotency-Key`` (:func:`.http.write_once`); starting a round counts as one
create against the rate limit, however many tables it seats (:mod:`scorepad.ratelimit`).

While the plan hides the standings until the end, ``overall`` and ``by_round`` are null for
anyone but the organiser. See ``docs/api.md`` (Club nights).
"""

from __future__ import annotations

import hmac
from collections.abc import Iterator
from contextlib import contextmanager

from flask import jsonify, request
from flask.typing import ResponseReturnValue

from .. import links
from ..access import bearer_key
from ..rules import ReadError
from ..rules.read import JSON
from ..storage import club_nights, idempotency
from ..storage.club_night_input import EVENT_KEYS, read_arrivals, read_new_event
from ..storage.club_nights import EventRecord, EventStandings
from ..storage.errors import Conflict
from ..storage.idempotency import Once
from ..storage.reading import could_be_an_id, load_games
from . import http
from .blueprint import bp
from .http import ApiError

NO_EVENT = "there is no event with this id: check the link, or ask the organiser for it again"

# -- reading requests ---------------------------------------------------------------------------


def event(event_id: str) -> EventRecord:
    """The event ``event_id`` names; a 404 when there is none (or it was deleted). An id no event
    could have (too long; NUL, which PostgreSQL cannot even compare) is not looked for."""
    found = club_nights.load_event(event_id) if could_be_an_id(event_id) else None
    if found is None:
        raise ApiError(404, None, NO_EVENT)
    return found


def _same(key: str, expected: str) -> bool:
    return hmac.compare_digest(key.encode("utf-8", "replace"), expected.encode())


def is_organiser(found: EventRecord) -> bool:
    """Whether the request carries the event's organiser key."""
    key = bearer_key()
    return key is not None and _same(key, found.organiser_key)


def organised(event_id: str) -> EventRecord:
    """The event, when the request carries its organiser key; otherwise a 404 (no such event),
    a 401 (no key) or a 403 (a key, but not the organiser's: a table's edit key changes only
    its own game), each with the challenge a game's writes give."""
    found = event(event_id)
    if bearer_key() is None:
        raise ApiError(401, None, "changing an event needs its organiser key: send "
                       "'Authorization: Bearer <organiser_key>'", {"WWW-Authenticate": 'Bearer realm="scorepad"'})
    if not is_organiser(found):
        raise ApiError(403, None, "that is not this event's organiser key: a table's edit key changes only its own "
                       "game, and the board and standings links only show the event",
                       {"WWW-Authenticate": 'Bearer error="insufficient_scope"'})
    return found


def _revision(data: dict[str, JSON]) -> int | None:
    value = data.get("revision")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ApiError(400, "revision", f"must be the event's revision, a whole number, not {value!r:.40}")
    return value


@contextmanager
def _event_write() -> Iterator[None]:
    """A write to the event: a stale revision is the game routes' 409 (``stale-revision``), in
    the event's words, with its revision now; the event keeps no list of changes."""
    try:
        yield
    except Conflict as stale:
        raise ApiError(409, "revision", f"the event changed since you loaded it (revision {stale.based_on}, now "
                       f"{stale.revision}): reload it and try again", problem="stale-revision",
                       revision=stale.revision, changes=[]) from None


def _based_on() -> int | None:
    """The revision a write with an optional body (``{"revision": n}``) is based on."""
    data = http.body(("revision",)) if request.get_data(cache=True).strip() else {}
    return _revision(data)


# -- answers ------------------------------------------------------------------------------------


def _page(shape: str, *values: str) -> str:
    return http.page_url(shape, *values)


def _tables(found: EventRecord, organiser: bool, kept: EventStandings) -> list[JSON]:
    """Each round with its tables as their games stand: totals (each side's, in order) and whether
    the table is finished (its game over, or closed); the organiser also gets each table's edit link."""
    out: list[JSON] = []
    games = load_games([t.game_id for r in found.rounds for t in r.tables]) if organiser else {}
    for played_round, play in zip(found.rounds, kept.played, strict=True):
        tables: list[JSON] = []
        for table, standing in zip(played_round.tables, play.tables, strict=True):
            item: dict[str, JSON] = {
                "number": table.number, "game_id": table.game_id,
                "game_url": links.external_url("api.get_game", game_id=table.game_id),
                "view_url": _page("/games/{}", table.game_id), "sides": [list(side) for side in table.sides],
                "closed_at": table.closed_at, "finished": standing.finished, "totals": list(standing.totals)}
            game = games.get(table.game_id)
            if game is not None:
                item["edit_key"] = game.edit_key
                item["edit_url"] = _page("/games/{}/edit/{}", game.id, game.edit_key)
            tables.append(item)
        out.append({"number": played_round.number, "started_at": played_round.started_at,
                    "byes": list(played_round.byes), "tables": tables})
    return out


def _next_round(found: EventRecord, kept: EventStandings) -> dict[str, JSON] | None:
    """The next round's seats as a preview (nothing is written), the tables of the last round it
    waits for, and ``problem`` when the roster cannot be seated; None once every round is started."""
    if len(found.rounds) >= found.plan.rounds:
        return None
    waiting: list[JSON] = list(kept.playing)
    try:
        seats = club_nights.next_seats(found)
    except ReadError as err:
        return {"number": len(found.rounds) + 1, "tables": [], "byes": [], "waiting_for": waiting,
                "problem": {"field": err.field, "message": err.reason}}
    return {"number": len(found.rounds) + 1,
            "tables": [{"number": t.table, "sides": [list(side) for side in t.sides]} for t in seats.tables],
            "byes": list(seats.byes), "waiting_for": waiting, "problem": None}


def standings_json(found: EventRecord, organiser: bool, kept: EventStandings | None = None) -> dict[str, JSON]:
    """The standings: overall and by round (null while hidden, but for the organiser), whether
    they are final, and whether the plan hides them until the end."""
    kept = kept or club_nights.standings_of(found)
    shown = not kept.hidden or organiser
    return {"overall": [s.to_json() for s in kept.overall] if shown else None,
            "by_round": [[s.to_json() for s in r] for r in kept.by_round] if shown else None,
            "final": kept.final, "hidden": kept.hidden,
            "tie_break": found.plan.tie_break, "bye": found.plan.bye_words}


def event_json(found: EventRecord, organiser: bool = False) -> dict[str, JSON]:
    """Everyone with the event's id may see this; the organiser also sees each table's edit link."""
    kept = club_nights.standings_of(found)
    return {
        "id": found.id, "name": found.name, "date": found.held_on, "club": found.club,
        "revision": found.revision, "created_at": found.created_at, "updated_at": found.updated_at,
        "event_url": links.external_url("api.get_event", event_id=found.id),
        "board_url": _page("/events/{}/board", found.id),
        "sheet": found.sheet.to_json(),
        "plan": {**found.plan.to_json(), "tie_break": found.plan.tie_break, "bye": found.plan.bye_words},
        "players": [e.to_json() for e in found.roster],
        "partnerships": [p.to_json() for p in found.partnerships],
        "withdrawn": list(found.withdrawn),
        "rounds": _tables(found, organiser, kept),
        "next_round": _next_round(found, kept),
        "over": kept.final,
        "standings": standings_json(found, organiser, kept),
    }


def _answer(found: EventRecord, status: int = 200) -> ResponseReturnValue:
    """The event as the organiser sees it (a write's answer): never to be kept by a cache."""
    return jsonify(event_json(found, organiser=True)), status, {"Cache-Control": "no-store"}


def created(found: EventRecord | idempotency.Made) -> tuple[int, dict[str, JSON]]:
    """A new event's answer: the event, its organiser key and the organiser's page link."""
    made = event(found.game_id) if isinstance(found, idempotency.Made) else found
    return 201, {**event_json(made, organiser=True), "organiser_key": made.organiser_key,
                 "organiser_url": _page("/events/{}/organise/{}", made.id, made.organiser_key)}


def created_headers(body: dict[str, JSON]) -> dict[str, str]:
    return {"Location": str(body["event_url"]), "Cache-Control": "no-store"}


# -- routes ---------------------------------------------------------------------------------------


@bp.post("/events")
def create_event() -> ResponseReturnValue:
    """A new event (a club night); the answer holds its organiser key, shown only here."""
    data = http.body(EVENT_KEYS)

    def create(once: Once[EventRecord] | None) -> EventRecord:
        return club_nights.create_event(read_new_event(data), once)

    return http.write_once(create, created, created_headers)


@bp.get("/events/<event:event_id>")
def get_event(event_id: str) -> ResponseReturnValue:
    """The event: its rounds and tables as their games stand, the next round's seats, the standings."""
    found = event(event_id)
    organiser = is_organiser(found)
    # No ETag: the answer follows the tables' games as well as the event's revision.
    return jsonify(event_json(found, organiser)), {"Cache-Control": "no-store" if organiser else "no-cache"}


@bp.get("/events/<event_id>/standings")
def get_standings(event_id: str) -> ResponseReturnValue:
    found = event(event_id)
    return jsonify(standings_json(found, is_organiser(found))), {"Cache-Control": "no-cache"}


@bp.post("/events/<event_id>/players")
def add_players(event_id: str) -> ResponseReturnValue:
    """Late arrivals: they play from the next round on."""
    found = organised(event_id)
    data = http.body(("players", "partnerships", "revision"))
    if "players" not in data:
        raise ApiError(400, "players", "is missing: the players who arrived, names or {\"name\", \"member\"}")
    based_on = _revision(data)
    roster, partnerships = read_arrivals(data, found.plan, found.roster, found.partnerships)
    with _event_write():
        return _answer(club_nights.add_players(found, roster, partnerships, based_on))


@bp.post("/events/<event_id>/leaving")
def set_leaving(event_id: str) -> ResponseReturnValue:
    """An entrant leaves the evening (``gone``, true by default), or comes back."""
    found = organised(event_id)
    data = http.body(("name", "gone", "revision"))
    name, gone = data.get("name"), data.get("gone", True)
    if not isinstance(name, str) or not name.strip():
        raise ApiError(400, "name", "must be the entrant's name: a player, or a partnership's name")
    if not isinstance(gone, bool):
        raise ApiError(400, "gone", "must be true (they leave the evening) or false (they come back)")
    based_on = _revision(data)
    with _event_write():
        return _answer(club_nights.set_withdrawn(found, name, gone, based_on))


@bp.post("/events/<event_id>/rounds")
def start_round(event_id: str) -> ResponseReturnValue:
    """The next round: one game per table with the preview's seats (one create against the rate limit)."""
    found = organised(event_id)
    based_on = _based_on()
    with _event_write():
        return _answer(club_nights.start_round(found, based_on), 201)


@bp.post("/events/<event_id>/rounds/<int:number>/tables/<int:table>/close")
def close_table(event_id: str, number: int, table: int) -> ResponseReturnValue:
    """The organiser closes a table as played: its game stands as it is for the standings."""
    found = organised(event_id)
    based_on = _based_on()
    with _event_write():
        return _answer(club_nights.close_table(found, number, table, based_on))


@bp.post("/events/<event_id>/rounds/<int:number>/end")
def end_round(event_id: str, number: int) -> ResponseReturnValue:
    """The organiser ends the last round (an open round, played to the clock): each table's game
    with a deal is ended, and every table is closed as played."""
    found = organised(event_id)
    last = found.rounds[-1].number if found.rounds else 0
    if not 1 <= number <= last:
        raise ApiError(404, "round", f"the event has no round {number}" + ("" if last else ": none is started yet"))
    if number != last:
        raise ApiError(400, "round", f"round {number} is over: only the last round (round {last}) can be ended")
    based_on = _based_on()
    with _event_write():
        return _answer(club_nights.end_round(found, based_on))


@bp.delete("/events/<event:event_id>")
def delete_event(event_id: str) -> ResponseReturnValue:
    """The event and every game of it, for good: its games' links then answer 410 (``gone``).
    Based on ``?revision=`` when given."""
    found = organised(event_id)
    based_on = http.query_revision()
    with _event_write():
        club_nights.delete_event(found, based_on)
    return "", 204
