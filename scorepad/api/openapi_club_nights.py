"""The OpenAPI description of the club nights' routes (:mod:`.club_nights`): an event, its
rounds, its tables and its standings; its export, its import and a club's season ladder
(:mod:`.club_night_exchange`). :mod:`.openapi` puts :data:`EVENT_PATHS` among its paths,
:data:`EVENT_NAMES` among its operations' names and :func:`event_schemas` among its schemas.
Every bound is a constant of :mod:`scorepad.rules.limits`.
"""

from __future__ import annotations

from ..rules.choices import Choice
from ..rules.club_night import WINNERS_AVERAGE, Format, Movement, Ranking, RoundLength, Standings
from ..rules.limits import (
    MAX_EVENT_IMPORT_BYTES,
    MAX_EVENT_PLAYERS,
    MAX_EVENT_ROUNDS,
    MAX_EVENT_TABLES,
    MAX_GAME_ID,
    MAX_MEMBER,
    MAX_NAME,
    MAX_POINTS,
)
from ..rules.read import JSON
from .schema import (
    BOOLEAN,
    INTEGER,
    NAME_PATTERN,
    POINTS,
    STRING,
    TIME,
    URL,
    Schema,
    answer,
    array,
    between,
    nullable,
    obj,
    op,
    query,
    ref,
)

EVENT_ID: Schema = {"name": "event_id", "in": "path", "required": True,
                    "schema": {"type": "string", "minLength": 1, "maxLength": MAX_GAME_ID}}
ROUND: Schema = {"name": "number", "in": "path", "required": True, "schema": between(1, MAX_EVENT_ROUNDS),
                 "description": "the round's number, from 1"}
CLUB: Schema = {"name": "club", "in": "path", "required": True,
                "schema": {"type": "string", "minLength": 1, "maxLength": MAX_NAME},
                "description": "the club's name, as its events give it (its case too)"}
TABLE: Schema = {"name": "table", "in": "path", "required": True, "schema": between(1, MAX_EVENT_TABLES),
                 "description": "the table's number in its round, from 1"}
REVISION: Schema = {"type": "integer", "minimum": 0, "description": "the event's revision the write is based on"}
ORGANISER_WRITES = (400, 401, 403, 404, 409, 503)
EVENT_ANSWER = ("the event as the write left it, as its organiser sees it", "Cache-Control")


def _choice(kind: type[Choice], default: str | None, description: str) -> Schema:
    return {"enum": [member.value for member in kind], **({"default": default} if default else {}),
            "description": description}


def _organiser(summary: str, ok: Schema, *errors: int, body: Schema | None = None, optional: bool = False,
               params: tuple[Schema, ...] = ()) -> Schema:
    """An organiser's write: the organiser key as a bearer token; ``optional``, its body may be left out."""
    operation = op(summary, ok, *ORGANISER_WRITES, *errors, body=body, params=params)
    if optional and body is not None:
        operation["requestBody"] = {"required": False, "content": {"application/json": {"schema": body}}}
    return {**operation, "security": [{"organiserKey": []}]}


def event_schemas() -> dict[str, Schema]:
    """What the club night routes read and answer."""
    entrant_in: Schema = {"anyOf": [ref("Name"), ref("EntrantObject")],
                          "description": 'a player: a name, or {"name", "member"}'}
    pair: Schema = {**array(ref("Name"), 2, 2), "description": "the two players of a partnership, by name"}
    sides: Schema = {**array(array(STRING), 2, 2), "description": "each side's entrants: two players (progressive), "
                     "or one partnership's name (partners)"}
    plan: dict[str, JSON] = {
        "format": _choice(Format, None, "partners: fixed partnerships play each other, a round robin; progressive: "
                          "individuals change partners every round by the movement"),
        "movement": _choice(Movement, Movement.NORTH_STAYS.value, "progressive only: north_stays (North stays, "
                            "South down one table, East up one, West up two) or generic (a search against repeats)"),
        "rounds": {**between(1, MAX_EVENT_ROUNDS), "description": "how many rounds the evening plays"},
        "round_length": _choice(RoundLength, RoundLength.GAME.value, "game: each round a game of the sheet's "
                                "length; open: the organiser ends the round"),
        "ranking": _choice(Ranking, Ranking.WINS.value, "wins (then points) or points (then wins)"),
        "bye_score": {"anyOf": [{"const": WINNERS_AVERAGE}, between(0, MAX_POINTS)], "default": WINNERS_AVERAGE,
                      "description": "what a bye scores: the average of that round's winners, or these points"},
        "standings": _choice(Standings, Standings.LIVE.value, "live, or hidden from the view links until the end"),
    }
    event: dict[str, JSON] = {
        "id": STRING, "name": STRING, "date": {**STRING, "description": "the evening's date, YYYY-MM-DD"},
        "club": nullable(STRING), "revision": INTEGER, "created_at": TIME, "updated_at": TIME,
        "event_url": URL, "board_url": {**URL, "description": "the wall board's page, for a projector or a TV"},
        "sheet": ref("SheetObject"), "plan": ref("EventPlan"), "players": array(ref("Entrant"), MAX_EVENT_PLAYERS),
        "partnerships": array(ref("Partnership"), MAX_EVENT_PLAYERS // 2),
        "withdrawn": {**array(STRING, MAX_EVENT_PLAYERS), "description": "the entrants who left the evening: seated "
                      "no more, still ranked with what they played"},
        "rounds": array(ref("EventRound"), MAX_EVENT_ROUNDS), "next_round": nullable(ref("NextRound")),
        "over": {**BOOLEAN, "description": "every round is played: each table of the last finished or closed"},
        "standings": ref("EventStandings")}
    member: Schema = {"type": "string", "minLength": 1, "maxLength": MAX_MEMBER, "pattern": NAME_PATTERN,
                      "description": "a member number, telling two of one name apart in a club's season"}
    return {
        "EntrantObject": obj(("name",), name=ref("Name"), member=member),
        "NewEvent": {**obj(("name", "players", "format", "rounds"), name=ref("Name"),
                           date={**STRING, "description": "the evening's date, YYYY-MM-DD; today when left out"},
                           club={"anyOf": [ref("Name"), {"const": ""}],
                                 "description": "the club it belongs to (its season ladder); empty: none"},
                           sheet={**ref("Sheet"), "description": "every table's sheet, frozen; common when left out"},
                           players={**array(entrant_in, MAX_EVENT_PLAYERS),
                                    "description": "the roster: each name unique in the event, ignoring case"},
                           partnerships={**array(pair, MAX_EVENT_PLAYERS // 2),
                                         "description": "partners only: pairs of the roster's players"},
                           **plan),
                     "description": "a club night. What JSON Schema cannot say, the server refuses with a 400 naming "
                                    "the field: a name twice on the roster, a partnership of a player not on it or "
                                    "already paired, too few players or partnerships for the format, a sheet that "
                                    "does not seat two sides of two, a date that is not one"},
        "Arrivals": obj(("players",), players={**array(entrant_in, MAX_EVENT_PLAYERS),
                                               "description": "late arrivals: they play from the next round on"},
                        partnerships={**array(pair, MAX_EVENT_PLAYERS // 2),
                                      "description": "partners only: the new partnerships"}, revision=REVISION),
        "Leaving": obj(("name",), name={**ref("Name"), "description": "the entrant: a player (progressive), or a "
                                        "partnership's name (partners), in any case"},
                       gone={**BOOLEAN, "description": "true (or left out): they leave the evening; false: they "
                             "come back"}, revision=REVISION),
        "EventBased": {**obj((), revision=REVISION), "description": "optionally, the revision the write is based on"},
        "EventPlan": obj((*plan, "tie_break", "bye"), **plan, tie_break={**STRING, "description": "how the standings "
                         "rank, in words"}, bye={**STRING, "description": "what a bye scores, in words"}),
        "Entrant": obj(("name", "member"), name=STRING, member=nullable(STRING)),
        "Partnership": obj(("name", "players"), name=STRING, players=array(STRING, 2, 2)),
        "EventTable": obj(("number", "game_id", "game_url", "view_url", "sides", "closed_at", "finished", "totals"),
                          number=between(1, MAX_EVENT_TABLES), game_id=STRING,
                          game_url={**URL, "description": "the table's game in the API"},
                          view_url={**URL, "description": "the table's game's page (the view link)"}, sides=sides,
                          closed_at={**nullable(TIME), "description": "when the organiser closed it as played"},
                          finished={**BOOLEAN, "description": "its game is over, or the organiser closed it"},
                          totals={**array(POINTS, 2, 2), "description": "each side's total so far, as sides"},
                          edit_key={**STRING, "description": "the organiser alone: the game's edit key (the table's "
                                    "phones hold it)"},
                          edit_url={**URL, "description": "the organiser alone: the game's edit link, as the table "
                                    "card's QR code holds it"}),
        "EventRound": obj(("number", "started_at", "byes", "tables"), number=between(1, MAX_EVENT_ROUNDS),
                          started_at=TIME, byes=array(STRING), tables=array(ref("EventTable"), MAX_EVENT_TABLES)),
        "SeatedTable": obj(("number", "sides"), number=between(1, MAX_EVENT_TABLES), sides=sides),
        "SeatingProblem": obj(("field", "message"), field=STRING, message=STRING),
        "NextRound": obj(("number", "tables", "byes", "waiting_for", "problem"), number=between(1, MAX_EVENT_ROUNDS),
                         tables={**array(ref("SeatedTable"), MAX_EVENT_TABLES),
                                 "description": "the seats the round will have, a preview: nothing is written"},
                         byes=array(STRING),
                         waiting_for={**array(between(1, MAX_EVENT_TABLES)),
                                      "description": "the tables of the last round still playing: the round starts "
                                                     "once each is finished or closed"},
                         problem={**nullable(ref("SeatingProblem")),
                                  "description": "why the roster cannot be seated, naming the field; else null"}),
        "EventStanding": obj(("place", "name", "played", "wins", "losses", "ties", "byes", "points"),
                             place=INTEGER, name=STRING, played=INTEGER, wins=INTEGER, losses=INTEGER, ties=INTEGER,
                             byes=INTEGER, points=INTEGER),
        "EventStandings": obj(("overall", "by_round", "final", "hidden", "tie_break", "bye"),
                              overall={**nullable(array(ref("EventStanding"))),
                                       "description": "per player (progressive) or partnership (partners); null "
                                                      "while hidden, but for the organiser"},
                              by_round={**nullable(array(array(ref("EventStanding")), MAX_EVENT_ROUNDS)),
                                        "description": "each round's alone; null while hidden, but for the organiser"},
                              final={**BOOLEAN, "description": "the event is over"},
                              hidden={**BOOLEAN, "description": "the plan hides them from view links until the end"},
                              tie_break=STRING, bye=STRING),
        "Event": obj(tuple(event), **event),
        "NewEventMade": obj((*event, "organiser_key", "organiser_url"), **event,
                            organiser_key={**STRING, "description": "the organiser's key: keep it, it is shown only "
                                           "here; it grants every right on the event and its games"},
                            organiser_url={**URL, "description": "the organiser's page, holding the key"}),
        **_exchange_schemas(plan, member, pair),
    }


def _exchange_schemas(plan: dict[str, JSON], member: Schema, pair: Schema) -> dict[str, Schema]:
    """An event's export document (what the import reads, ``Export`` each table's game) and a club's ladder."""
    seats: Schema = {**array(array(ref("Name"), 2, 1), 2, 2),
                     "description": "each side's entrants: two players (progressive), or one partnership's name "
                                    "(partners); the table's game's sides are these, in order"}
    figures = {name: {**INTEGER, "description": description} for name, description in (
        ("events", "events on whose roster she is"), ("games", "tables she played, finished or not"),
        ("wins", "finished tables where her side alone had the highest total"), ("deals", "deals her side played"),
        ("points", "her side's score over those deals"), ("books", "her side's books over those deals"),
        ("went_out", "deals where she went out"))}
    return {
        "PlanSettings": {**obj(("format", "rounds"), **plan), "description": "an event's plan, as it was set"},
        "ExportedEntrant": obj(("name",), name=ref("Name"), member=nullable(member)),
        "ExportedTable": obj(("number", "seats", "game"), False, number=between(1, MAX_EVENT_TABLES), seats=seats,
                             closed_at={**nullable(TIME), "description": "when the organiser closed it as played"},
                             game={**ref("Export"), "description": "the table's game, as a game's export has it"}),
        "ExportedRound": obj(("number",), False, number={**between(1, MAX_EVENT_ROUNDS), "description": "in turn, "
                             "from 1"}, started_at=TIME,
                             byes={**array(ref("Name"), MAX_EVENT_PLAYERS), "description": "the entrants who sat out"},
                             tables=array(ref("ExportedTable"), MAX_EVENT_TABLES)),
        "EventExport": {**obj(("format", "version", "name", "sheet", "plan", "players"), False,
                              format={"const": "scorepad.event"}, version={"const": 1}, name=ref("Name"),
                              date={**STRING, "description": "the evening's date, YYYY-MM-DD"},
                              club={"anyOf": [ref("Name"), {"const": ""}, {"type": "null"}],
                                    "description": "the club it belongs to (its season ladder); null: none"},
                              sheet={**ref("Sheet"), "description": "every table's sheet, frozen"},
                              plan=ref("PlanSettings"),
                              players={**array({"anyOf": [ref("Name"), ref("ExportedEntrant")]}, MAX_EVENT_PLAYERS),
                                       "description": "the roster, late arrivals too"},
                              partnerships={**array(pair, MAX_EVENT_PLAYERS // 2),
                                            "description": "a partners event's partnerships; else empty"},
                              withdrawn={**array(ref("Name"), MAX_EVENT_PLAYERS),
                                         "description": "the entrants who left the evening"},
                              created_at=TIME, exported_at=TIME,
                              rounds={**array(ref("ExportedRound"), MAX_EVENT_ROUNDS),
                                      "description": "the rounds started, no more than the plan's"}),
                        "description": "a whole club night as one document, never a key in it. What JSON Schema "
                                       "cannot say, the server refuses with a 400 naming the field (a name twice on "
                                       "the roster, a table seating someone not on it or seated twice in the round, "
                                       "a game whose sides are not its table's seats), and a deal the referee will "
                                       "not let in with a 422 naming the table's game and the deal"},
        "LadderRow": obj(("place", "name", "member", *figures, "average_deal_score", "books_per_deal",
                          "went_out_share"), place=INTEGER, name={**STRING, "description": "as her latest event gives "
                         "it"}, member=nullable(STRING), **figures,
                         average_deal_score={"type": "number", "description": "points per deal played"},
                         books_per_deal={"type": "number"},
                         went_out_share={"type": "number", "description": "deals she went out, over deals played"}),
        "ClubLadder": obj(("club", "players"), club=STRING,
                          players={**array(ref("LadderRow")), "description": "ranked by wins, then average deal "
                                   "score; players equal on both share a place. Matched across events by member "
                                   "number, else by name regardless of case"}),
    }


EVENT_PATHS: dict[str, Schema] = {
    "/api/v1/events": {"post": op(
        "create a club night: its sheet, roster and plan",
        {"201": answer(ref("NewEventMade"), "the event, its organiser key and links", "Location",
                       "Cache-Control")}, 429, 503, body=ref("NewEvent"), idempotent=True)},
    "/api/v1/events/import": {"post": {**op(
        "a new club night from an export document: new ids and keys, every table's game a new game",
        {"201": answer(ref("NewEventMade"), "the event, its organiser key and links", "Location", "Cache-Control")},
        409, 422, 429, 503, body=ref("EventExport"), idempotent=True),
        "description": f"The body is the document as exported, at most {MAX_EVENT_IMPORT_BYTES:,} bytes (a 413 "
                       "past it). It counts as one create against the rate limit, however many games it brings."}},
    "/api/v1/events/{event_id}": {
        "parameters": [EVENT_ID],
        "get": op("the event: its rounds and tables as their games stand, the next round's seats, the standings",
                  {"200": answer(ref("Event"), "the event (each table's edit link only with the organiser key)",
                                 "Cache-Control")}, 404),
        "delete": _organiser("delete the event and every game of it, for good: its games then answer 410",
                             {"204": answer(None, "deleted")},
                             params=(query("revision", REVISION, "the event's revision the deletion is based on"),))},
    "/api/v1/events/{event_id}/export": {"parameters": [EVENT_ID], "get": op(
        "the whole event as a versioned JSON document: its plan, roster, rounds and every table's game (no key)",
        {"200": answer(ref("EventExport"), "a download", "Content-Disposition")}, 404)},
    "/api/v1/clubs/{club}/ladder": {"parameters": [CLUB], "get": op(
        "a club's season ladder: every player of its events, with her figures across them, ranked",
        {"200": answer(ref("ClubLadder"), "the ladder", "Cache-Control")}, 404)},
    "/api/v1/events/{event_id}/standings": {"parameters": [EVENT_ID], "get": op(
        "the standings alone (null lists while hidden, but with the organiser key)",
        {"200": answer(ref("EventStandings"), "the standings", "Cache-Control")}, 404)},
    "/api/v1/events/{event_id}/players": {"parameters": [EVENT_ID], "post": _organiser(
        "add late arrivals to the roster", {"200": answer(ref("Event"), *EVENT_ANSWER)}, body=ref("Arrivals"))},
    "/api/v1/events/{event_id}/leaving": {"parameters": [EVENT_ID], "post": _organiser(
        "an entrant leaves the evening (seated no more from the next round; what they played stands), or comes "
        "back", {"200": answer(ref("Event"), *EVENT_ANSWER)}, body=ref("Leaving"))},
    "/api/v1/events/{event_id}/rounds": {"parameters": [EVENT_ID], "post": _organiser(
        "start the next round: one game a table with the preview's seats, once every table of the last is finished "
        "or closed (one create against the rate limit)", {"201": answer(ref("Event"), *EVENT_ANSWER)}, 429,
        body=ref("EventBased"), optional=True)},
    "/api/v1/events/{event_id}/rounds/{number}/tables/{table}/close": {
        "parameters": [EVENT_ID, ROUND, TABLE], "post": _organiser(
            "close a table as played: its game stands as it is for the standings",
            {"200": answer(ref("Event"), *EVENT_ANSWER)}, body=ref("EventBased"), optional=True)},
    "/api/v1/events/{event_id}/rounds/{number}/end": {
        "parameters": [EVENT_ID, ROUND], "post": _organiser(
            "end the last round (an open round, to the clock): each table's game with a deal ends, every table closes",
            {"200": answer(ref("Event"), *EVENT_ANSWER)}, body=ref("EventBased"), optional=True)},
}

EVENT_NAMES: dict[tuple[str, str], tuple[str, str]] = {
    ("/api/v1/events", "post"): ("create_event", "club nights"),
    ("/api/v1/events/{event_id}", "get"): ("get_event", "club nights"),
    ("/api/v1/events/{event_id}", "delete"): ("delete_event", "club nights"),
    ("/api/v1/events/{event_id}/standings", "get"): ("get_event_standings", "club nights"),
    ("/api/v1/events/import", "post"): ("import_event", "club nights"),
    ("/api/v1/events/{event_id}/export", "get"): ("export_event", "club nights"),
    ("/api/v1/clubs/{club}/ladder", "get"): ("get_club_ladder", "club nights"),
    ("/api/v1/events/{event_id}/players", "post"): ("add_event_players", "club nights"),
    ("/api/v1/events/{event_id}/leaving", "post"): ("set_event_leaving", "club nights"),
    ("/api/v1/events/{event_id}/rounds", "post"): ("start_event_round", "club nights"),
    ("/api/v1/events/{event_id}/rounds/{number}/tables/{table}/close", "post"): ("close_event_table", "club nights"),
    ("/api/v1/events/{event_id}/rounds/{number}/end", "post"): ("end_event_round", "club nights"),
}
