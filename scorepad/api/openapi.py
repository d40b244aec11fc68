"""The API's own description, OpenAPI 3.1, at ``GET /api/v1/openapi.json``: every route of
:data:`scorepad.api.bp` and the game's PDFs (:data:`.openapi_paper.PAPER_PATHS`), their
parameters, bodies, answers and headers.

Written as data: :data:`PATHS` (each route and method), each operation's name and tag
(:data:`NAMES`), the schemas of what they read and write (:mod:`.openapi_schemas`), their
examples (:mod:`.openapi_examples`) and the error answers (:data:`.schema.ERRORS`, each an RFC
9457 problem of the one ``Problem`` schema). Every bound is a constant of
:mod:`scorepad.rules.limits`, and a sheet's options are the catalogue's own schemas, so the
description follows the code. Built once per app, on the first request; tests/api/test_openapi.py
holds it to the app's routes both ways. See ``docs/api.md``.
"""

from __future__ import annotations

import json

from flask import Response, current_app

from ..rules.limits import MAX_EVENT_LISTENERS, MAX_EVENT_STREAM_SECONDS, MAX_IDEMPOTENCY_KEY
from ..rules.read import JSON
from .blueprint import bp
from .openapi_club_nights import EVENT_NAMES, EVENT_PATHS
from .openapi_examples import with_examples
from .openapi_open import OPEN_PATHS
from .openapi_paper import PAPER_PATHS
from .openapi_schemas import QUESTION_SCHEMAS, schemas
from .schema import (
    DEAL_NUMBER,
    ERRORS,
    GAME_ID,
    HEADERS,
    IF_NONE_MATCH,
    INTEGER,
    NUMBER,
    REVISION,
    SAVED,
    SHEET_TEXT,
    STRING,
    Schema,
    answer,
    error_responses,
    obj,
    op,
    query,
    ref,
)
from .watcher import HEARTBEAT_SECONDS, RETRY_MS

# Each path (Flask's <game_id> written {game_id}) with its methods; the game's id and a deal's
# number are declared once for the path.
PATHS: dict[str, Schema] = {
    "/api/v1/openapi.json": {"get": op("this description", {"200": answer({"type": "object"}, "OpenAPI 3.1")})},
    "/api/v1/problems/{slug}": {
        "parameters": [{"name": "slug", "in": "path", "required": True, "schema": STRING,
                        "description": "a problem type's slug: the `slug` of the `type` enum of `Problem`"}],
        "get": op("what a problem type means", {"200": answer(ref("ProblemType"))}, 404)},
    "/api/v1/sheets": {"get": op("the preset sheets", {"200": answer(ref("Presets"))})},
    "/api/v1/score": {"post": op("check and score one deal; nothing is saved", {"200": answer(ref("Report"))},
                                 body=ref("ScoreRequest"))},
    "/api/v1/sheets/{sheet_id}": {
        "parameters": [{"name": "sheet_id", "in": "path", "required": True, "schema": STRING}],
        "get": op("one preset: every option, in full and in words", {"200": answer(ref("PresetSheet"))}, 404)},
    "/api/v1/games": {"post": op(
        "create a game", {"201": answer(ref("Created"), "the game, its links and its edit key", "Location",
                                        "Cache-Control", "ETag")},
        429, 503, body=ref("NewGame"),
        idempotent=True)},
    "/api/v1/games/import": {"post": op(
        "a new game from an export document", {"201": answer(ref("Created"), "the new game", "Location",
                                                             "Cache-Control", "ETag")},
        409, 422, 429, 503, body=ref("Export"), idempotent=True)},
    "/api/v1/games/{game_id}": {"parameters": [GAME_ID], "get": op(
        "the game: its deals, scores, standings, the next deal",
        {"200": answer(ref("Game"), "the game", "ETag", "Cache-Control"),
         "304": answer(None, "not modified since the If-None-Match's ETag", "ETag")}, 404,
        params=(IF_NONE_MATCH,)),
        "delete": op("delete the game, for good", {"200": answer(ref("DeletedGame"))}, 400, write=True,
                     params=(query("revision", REVISION, "the game's revision the deletion is based on"),))},
    "/api/v1/games/{game_id}/revision": {"parameters": [GAME_ID], "get": op(
        "the game's revision, and when it last changed",
        {"200": answer(ref("Revision"), "the revision", "Cache-Control")}, 404)},
    "/api/v1/games/{game_id}/events": {"parameters": [GAME_ID], "get": {**op(
        "the game's revision each time it moves, as Server-Sent Events",
        # The schema of one event, as OpenAPI 3.1 readers (schemathesis) take a text/event-stream's
        # schema (3.2's itemSchema): its fields, data a GameEvent as JSON text.
        {"200": answer(obj(("data",), False, id={**STRING, "description": "the revision"}, event=STRING,
                           retry=INTEGER, data={**STRING, "contentMediaType": "application/json",
                                                "contentSchema": ref("GameEvent")}),
                       "the event stream: each event `id: <revision>` and `data:` a GameEvent", "Cache-Control",
                       media="text/event-stream")},
        400, 404, 503, params=(
            {"name": "Last-Event-ID", "in": "header", "schema": {"type": "string", "pattern": "^[0-9]{0,18}$"},
             "description": "the last revision seen: the current one is sent at once only if the game moved past "
                            "it (empty: as left out)"},
            query("last_event_id", {"type": "string", "pattern": "^[0-9]{0,18}$"},
                  "as Last-Event-ID, for a client that cannot send headers (empty: as left out)"))),
        "description": f"An event when the revision or the open deal's counter moves (`id:` the revision, `data:` a "
                       f"GameEvent), the current one first unless Last-Event-ID is it, a comment every "
                       f"{HEARTBEAT_SECONDS:g} s; the stream ends after {MAX_EVENT_STREAM_SECONDS} s (`retry:` "
                       f"{RETRY_MS} ms), and after a deleted game's event (`deleted: true`). A server holds "
                       f"{MAX_EVENT_LISTENERS} streams at most: past them a 503 says to poll /revision."}},
    "/api/v1/games/{game_id}/history": {"parameters": [GAME_ID], "get": op(
        "every change to the game",
        {"200": answer(ref("History"), "the history", "ETag", "Cache-Control"),
         "304": answer(None, "not modified since the If-None-Match's ETag", "ETag")}, 404, 429,
        params=(IF_NONE_MATCH,))},
    "/api/v1/games/{game_id}/sheet": {"parameters": [GAME_ID], "put": op(
        "amend the game's sheet", {"200": answer(ref("Game"), "the game under its new sheet")},
        body=ref("SheetAmendment"), write=True)},
    "/api/v1/games/{game_id}/edit-key": {"parameters": [GAME_ID], "post": {**op(
        "replace the game's edit key (a leaked edit link): the key sent is refused from now on",
        {"200": answer(ref("Created"), "the game, its new edit key and edit link", "Cache-Control")},
        400, 401, 403, 404, 409, 429, 503, idempotent=True), "security": [{"editKey": []}]}},
    **{f"/api/v1/games/{{game_id}}/{name}": {"parameters": [GAME_ID], "post": {**op(
        summary, {"200": answer(ref("Ended"), "the game's result and next deal as the write left it")},
        400, write=True, idempotent=True),
        "requestBody": {"required": False, "content": {"application/json": {"schema": ref("Based")}}}}}
       for name, summary in (("end", "end a game its table ends (game length `open`) here: its result then names "
                                     "the winner, and no deal is recorded until it is reopened"),
                             ("reopen", "reopen a game its table ended: it goes on, and the next deal may be "
                                        "recorded"))},
    "/api/v1/games/{game_id}/deals": {"parameters": [GAME_ID], "post": op(
        "record a deal: the one `deal` names, else the next; never another number", {"201": SAVED}, 422,
        body=ref("NewDeal"), write=True, idempotent=True)},
    "/api/v1/games/{game_id}/deals/{number}": {
        "parameters": [GAME_ID, NUMBER],
        "get": op("one deal, its report and its history", {"200": answer(ref("RecordedDeal"))}, 404),
        "put": op("correct a deal", {"200": SAVED}, 422, body=ref("DealWrite"), write=True),
        "delete": op("delete a deal", {"200": answer(ref("DeletedDeal"))}, 400, write=True,
                     params=(query("revision", REVISION, "the game's revision the deletion is based on"),))},
    **OPEN_PATHS,
    "/api/v1/games/{game_id}/export": {"parameters": [GAME_ID], "get": op(
        "the game as a versioned JSON document", {"200": answer(ref("Export"), "a download", "Content-Disposition")},
        404)},
    "/api/v1/games/{game_id}/scores.csv": {"parameters": [GAME_ID], "get": op(
        "the score table as CSV",
        {"200": answer(STRING, "a download", "Content-Disposition", "ETag", "Cache-Control", media="text/csv"),
         "304": answer(None, "not modified since the If-None-Match's ETag", "ETag")}, 404, params=(IF_NONE_MATCH,))},
    **{f"/api/v1/referee/{name}": {"post": op(summary, {"200": answer(ref("Answer"), "the referee's answer")}, 404,
                                              body=ref(QUESTION_SCHEMAS[name]))}
       for name, summary in (("meld", "is this meld legal?"), ("go-out", "may we go out now?"),
                             ("pile", "may I take the pile?"), ("minimum", "do these first melds meet the minimum?"))},
    "/api/v1/referee/explain": {"post": op(
        "a deal's score, each line with its rule", {"200": answer(ref("Explained"))},
        body=ref("ExplainRequest"))},
    "/api/v1/referee/games/{game_id}/deals/{number}/explain": {"parameters": [GAME_ID, NUMBER], "get": op(
        "a recorded deal's score, each line with its rule", {"200": answer(ref("Explained"))}, 404)},
    "/api/v1/referee/rescore": {"post": op(
        "a deal or a game under another sheet", {"200": answer(ref("Rescored"))},
        body=ref("RescoreRequest"))},
    "/api/v1/referee/games/{game_id}/rescore": {"parameters": [GAME_ID], "get": op(
        "a recorded game (or one deal) under another sheet", {"200": answer(ref("Rescored"))}, 400, 404, 429, 503,
        params=(query("sheet", SHEET_TEXT, "the other sheet", True),
                query("number", DEAL_NUMBER, "only this deal"),
                {**query("deal", DEAL_NUMBER, "deprecated: as number"), "deprecated": True}))},
    "/api/v1/referee/compare": {"get": op(
        "where two sheets differ", {"200": answer(ref("Compared"))}, 400,
        params=(query("a", SHEET_TEXT, "one sheet", True), query("b", SHEET_TEXT, "the other", True)))},
    **EVENT_PATHS,
}

# Each operation's name (its operationId: a generated client's function) and tag, by path and
# method; tests/api/test_openapi.py checks that every operation has one, each name once.
NAMES: dict[tuple[str, str], tuple[str, str]] = {
    ("/api/v1/openapi.json", "get"): ("get_description", "description"),
    ("/api/v1/problems/{slug}", "get"): ("get_problem_type", "problems"),
    ("/api/v1/score", "post"): ("score_deal", "referee"),
    ("/api/v1/sheets", "get"): ("list_sheets", "sheets"),
    ("/api/v1/sheets/{sheet_id}", "get"): ("get_sheet", "sheets"),
    ("/api/v1/games", "post"): ("create_game", "games"),
    ("/api/v1/games/import", "post"): ("import_game", "exchange"),
    ("/api/v1/games/{game_id}", "get"): ("get_game", "games"),
    ("/api/v1/games/{game_id}", "delete"): ("delete_game", "games"),
    ("/api/v1/games/{game_id}/revision", "get"): ("get_revision", "games"),
    ("/api/v1/games/{game_id}/events", "get"): ("follow_game", "games"),
    ("/api/v1/games/{game_id}/history", "get"): ("get_history", "games"),
    ("/api/v1/games/{game_id}/sheet", "put"): ("amend_sheet", "games"),
    ("/api/v1/games/{game_id}/edit-key", "post"): ("replace_edit_key", "games"),
    ("/api/v1/games/{game_id}/end", "post"): ("end_game", "games"),
    ("/api/v1/games/{game_id}/reopen", "post"): ("reopen_game", "games"),
    ("/api/v1/games/{game_id}/deals", "post"): ("record_deal", "deals"),
    ("/api/v1/games/{game_id}/deals/{number}", "get"): ("get_deal", "deals"),
    ("/api/v1/games/{game_id}/deals/{number}", "put"): ("correct_deal", "deals"),
    ("/api/v1/games/{game_id}/deals/{number}", "delete"): ("delete_deal", "deals"),
    ("/api/v1/games/{game_id}/deals/{number}/parts/{side}", "put"): ("save_part", "open deals"),
    ("/api/v1/games/{game_id}/deals/{number}/ending", "put"): ("save_ending", "open deals"),
    ("/api/v1/games/{game_id}/deals/{number}/parts/{side}/confirmation", "post"): ("confirm_part", "open deals"),
    ("/api/v1/games/{game_id}/deals/{number}/open", "get"): ("get_open_deal", "open deals"),
    ("/api/v1/games/{game_id}/deals/{number}/open", "delete"): ("abandon_open_deal", "open deals"),
    ("/api/v1/games/{game_id}/export", "get"): ("export_game", "exchange"),
    ("/api/v1/games/{game_id}/scores.csv", "get"): ("get_scores_csv", "exchange"),
    ("/api/v1/referee/meld", "post"): ("ask_meld", "referee"),
    ("/api/v1/referee/go-out", "post"): ("ask_go_out", "referee"),
    ("/api/v1/referee/pile", "post"): ("ask_pile", "referee"),
    ("/api/v1/referee/minimum", "post"): ("ask_minimum", "referee"),
    ("/api/v1/referee/explain", "post"): ("explain_deal", "referee"),
    ("/api/v1/referee/games/{game_id}/deals/{number}/explain", "get"): ("explain_recorded_deal", "referee"),
    ("/api/v1/referee/rescore", "post"): ("rescore", "referee"),
    ("/api/v1/referee/games/{game_id}/rescore", "get"): ("rescore_game", "referee"),
    ("/api/v1/referee/compare", "get"): ("compare_sheets", "referee"),
    **EVENT_NAMES,
}
TAGS: list[JSON] = [{"name": name, "description": description} for name, description in (
    ("games", "a game: create it, read it, its revision and history, its sheet, its edit key, end and reopen it"),
    ("deals", "a game's deals: record one, read it, correct it, delete it"),
    ("open deals", "a deal entered part by part, each side's phone its own part"),
    ("exchange", "a game as a document (export, import) and its score table as CSV"),
    ("sheets", "the preset sheets and their options"),
    ("club nights", "a club night (an event): its roster, its rounds of tables (each an ordinary game), its "
                    "standings; the organiser's key changes it"),
    ("referee", "questions answered, deals scored and explained, sheets compared; nothing is saved"),
    ("problems", "what each problem type (an error's `type`) means"),
    ("paper", "PDFs to print: page routes, outside /api/v1"),
    ("description", "this OpenAPI description"))]

INFO: Schema = {
    "title": "scorepad", "version": "1",
    "description": "A score pad and rules referee for Hand and Foot, as JSON. Every error is an RFC 9457 problem "
                   "(`application/problem+json`, the `Problem` schema); a 405 (`MethodNotAllowed`) carries `Allow`. "
                   "See docs/api.md.",
}


def _with_gone_and_full(paths: dict[str, Schema]) -> Schema:
    """Every route of a game may answer that it was deleted (410), and every write (those
    taking the edit key or an Idempotency-Key) that the server is out of space (507)."""
    out: Schema = {}
    for path, item in paths.items():
        out[path] = methods = dict(item)
        for method, operation in item.items():
            if method == "parameters" or not isinstance(operation, dict):
                continue
            params, given = operation.get("parameters", []), operation["responses"]
            writes = "security" in operation or (isinstance(params, list)
                                                 and ref("IdempotencyKey", "parameters") in params)
            extra = ([410] if "{game_id}" in path else []) + ([507] if writes else [])
            responses = {**(given if isinstance(given, dict) else {}),
                         **{str(s): ref(ERRORS[s][0], "responses") for s in extra}}
            methods[method] = {**operation, "responses": dict(sorted(responses.items()))}
    return out


def _named(paths: Schema) -> Schema:
    """Each operation with its name and tag (:data:`NAMES`), and the headers its answers carry:
    ``Idempotent-Replayed`` where it takes an Idempotency-Key, ``ETag`` (the game's revision)
    where it writes, and ``RateLimit-Policy``, ``RateLimit`` where it is limited (may answer 429)."""
    out: Schema = {}
    for path, item in paths.items():
        assert isinstance(item, dict)
        out[path] = methods = dict(item)
        for method, operation in item.items():
            if method == "parameters" or not isinstance(operation, dict) or (path, method) not in NAMES:
                continue
            name, tag = NAMES[path, method]
            params, given = operation.get("parameters", []), operation["responses"]
            assert isinstance(params, list) and isinstance(given, dict)
            extra = ((["Idempotent-Replayed"] if ref("IdempotencyKey", "parameters") in params else [])
                     + (["ETag"] if "security" in operation else [])
                     + (["RateLimit-Policy", "RateLimit"] if "429" in given else []))
            responses = {status: _with_headers(response, extra) if status.startswith("2") else response
                         for status, response in given.items()}
            methods[method] = {"operationId": name, "tags": [tag], **operation, "responses": responses}
    return out


def _with_headers(response: JSON, names: list[str]) -> JSON:
    if not names or not isinstance(response, dict) or "$ref" in response:
        return response
    headers = response.get("headers", {})
    assert isinstance(headers, dict)
    return {**response, "headers": {**headers, **{h: ref(h, "headers") for h in names}}}


def document() -> Schema:
    """The whole description."""
    return {
        "openapi": "3.1.0", "info": INFO, "tags": TAGS,
        "paths": {**_named(_with_gone_and_full(PATHS)), **PAPER_PATHS},
        "components": {
            "schemas": with_examples(schemas()), "responses": error_responses(), "headers": HEADERS,
            "parameters": {
                "IfMatch": {"name": "If-Match", "in": "header", "schema": {"type": "string", "minLength": 1},
                            "description": "the game's ETag: the write is based on that revision (412 when stale)"},
                "IdempotencyKey": {
                    "name": "Idempotency-Key", "in": "header",
                    "schema": {"type": "string", "minLength": 1, "maxLength": MAX_IDEMPOTENCY_KEY,
                               "pattern": "^[ -~]+$", "description": "printable ASCII, such as a UUID"},
                    "description": "a retry with the same key gets the first answer again (24 hours)"}},
            "securitySchemes": {"editKey": {"type": "http", "scheme": "bearer",
                                            "description": "the game's edit key, from POST /api/v1/games"},
                                "organiserKey": {"type": "http", "scheme": "bearer",
                                                 "description": "a club night's organiser key, from POST "
                                                                "/api/v1/events: it also grants every right on "
                                                                "the event's games"}},
        },
    }


@bp.get("/openapi.json")
def openapi() -> Response:
    """The description, built once per app: it does not change while the app runs."""
    body = current_app.extensions.get("scorepad.openapi")
    if body is None:
        body = current_app.extensions["scorepad.openapi"] = json.dumps(document())
    return Response(body, mimetype="application/json")
