"""The OpenAPI description of the game's, the presets' and the club nights' paper: page routes of
:mod:`scorepad.web.paper` and :mod:`scorepad.web.club_night_paper` (the event's table cards,
results and players' CSV), outside ``/api/v1`` but reachable from the description, so a client
finds the paper it can print. :mod:`.openapi` puts :data:`PAPER_PATHS` among its paths.

They serve browsers as well as programs, so an error's form follows ``Accept``: the API's
problem (``application/problem+json``) when it prefers JSON, else the page's HTML.
"""

from __future__ import annotations

from ..rules.limits import MAX_EVENT_ROUNDS, MAX_SIDES, MIN_SIDES
from .schema import GAME_ID, Schema, between, query, ref

PAPER: Schema = query("paper", {"type": "string", "enum": ["letter", "a4"], "default": "letter"},
                      "the paper size (ignoring case)")
PRESET: Schema = {"name": "preset_id", "in": "path", "required": True, "schema": {"type": "string", "minLength": 1},
                  "description": "a preset's id, as GET /api/v1/sheets lists them"}
ERROR: Schema = {"application/problem+json": {"schema": ref("Problem")}, "text/html": {"schema": {"type": "string"}}}


EVENT_ID: Schema = {"name": "event_id", "in": "path", "required": True, "schema": {"type": "string", "minLength": 1},
                    "description": "a club night's id"}
ROUND: Schema = query("round", {"type": "integer", "minimum": 1, "maximum": MAX_EVENT_ROUNDS},
                      "the round whose tables are printed (default: the latest round started)")
BUSY: Schema = {"description": "the PDF waited its turn to be built too long: send it again",
                "headers": {"Retry-After": ref("Retry-After", "headers")}, "content": ERROR}
HIDDEN: Schema = {"description": "the organiser keeps the standings hidden until the end, and this is not the "
                                 "organiser", "content": ERROR}


def _pdf(operation_id: str, summary: str, *params: Schema, game: bool = True,
         errors: dict[str, Schema] | None = None) -> Schema:
    return {"get": {
        "operationId": operation_id, "tags": ["paper"], "summary": summary, "parameters": [PAPER, *params],
        "responses": {
            "200": {"description": "the PDF, as a download named after the game, preset or event",
                    "headers": {"Content-Disposition": {"$ref": "#/components/headers/Content-Disposition"}},
                    "content": {"application/pdf": {"schema": {"type": "string", "format": "binary"}}}},
            "400": {"description": "a paper (or sides, or round) it does not print", "content": ERROR},
            "404": {"description": "no such game, preset, event or round", "content": ERROR},
            **({"410": {"description": "the game was deleted", "content": ERROR}} if game else {}),
            **(errors or {}),
            "503": BUSY}}}


# The event's players' rounds as CSV: with the PDFs, since it is the evening's paper too.
PLAYERS_CSV: Schema = {"get": {
    "operationId": "get_event_players_csv", "tags": ["paper"],
    "summary": "every player's rounds of a club night as CSV: one row per player per round",
    "responses": {
        "200": {"description": "a download named after the event",
                "headers": {"Content-Disposition": {"$ref": "#/components/headers/Content-Disposition"}},
                "content": {"text/csv": {"schema": {"type": "string"}}}},
        "403": HIDDEN,
        "404": {"description": "no such event", "content": ERROR}}}}


PAPER_PATHS: dict[str, Schema] = {
    "/games/{game_id}/sheet.pdf": {"parameters": [GAME_ID], **_pdf(
        "get_game_sheet_pdf", "the game's house rules, on one page, with a link to the game")},
    "/games/{game_id}/pad.pdf": {"parameters": [GAME_ID], **_pdf(
        "get_game_pad_pdf", "a blank score pad for the game's sides and sheet")},
    "/games/{game_id}/results.pdf": {"parameters": [GAME_ID], **_pdf(
        "get_game_results_pdf", "the game's results: every deal, its score and its problems, the amendments")},
    "/sheets/{preset_id}.pdf": {"parameters": [PRESET], **_pdf("get_preset_sheet_pdf", "a preset's house rules",
                                                            game=False)},
    "/sheets/{preset_id}/pad.pdf": {"parameters": [PRESET], **_pdf(
        "get_preset_pad_pdf", "a blank score pad for a preset",
        query("sides", between(MIN_SIDES, MAX_SIDES), "how many sides the pad has columns for"), game=False)},
    "/events/{event_id}/table-cards.pdf": {"parameters": [EVENT_ID], **_pdf(
        "get_event_table_cards_pdf", "a club night's table cards, a page a table of a round: its seats, its "
        "game's edit link and QR code; the organiser's only (its key as 'Authorization: Bearer <key>', or the "
        "browser that created the event)", ROUND, game=False,
        errors={"403": {"description": "not the organiser: the cards carry edit links", "content": ERROR}})},
    "/events/{event_id}/results.pdf": {"parameters": [EVENT_ID], **_pdf(
        "get_event_results_pdf", "a club night's results: its plan, the standings, each round's tables, a "
        "line for the recorder to sign", game=False, errors={"403": HIDDEN})},
    "/events/{event_id}/players.csv": {"parameters": [EVENT_ID], **PLAYERS_CSV},
}
