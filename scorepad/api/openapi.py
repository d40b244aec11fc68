"""The API's own description, OpenAPI 3.1, at ``GET /api/v1/openapi.json``: every route of
:data:`scorepad.api.bp`, its parameters, bodies, answers and their headers.

Written as data: :data:`PATHS` (each route and method), the schemas of what they read and
write (:func:`schemas`) and the error answers (:data:`ERRORS`, each an RFC 9457 problem
of the one ``Problem`` schema). Every bound is a constant of :mod:`scorepad.rules.limits`,
and a sheet's options are the catalogue's own schemas (:meth:`scorepad.rules.sheet.Option.schema`),
so the description follows the code. Built once per app, on the first request;
tests/api/test_openapi.py holds it to the app's routes both ways. See ``docs/api.md``.
"""

from __future__ import annotations

import json

from flask import Response, current_app

from ..rules import PRESETS
from ..rules.cards import CARDS, Rank
from ..rules.catalogue import OPTION_BY_NAME, OPTIONS
from ..rules.limits import (
    MAX_COUNT,
    MAX_DEALS,
    MAX_EVENT_LISTENERS,
    MAX_EVENT_STREAM_SECONDS,
    MAX_IDEMPOTENCY_KEY,
    MAX_MELDS,
    MAX_NAME,
    MAX_PER_SIDE,
    MAX_PROBLEMS_LISTED,
    MAX_REASON,
    MAX_SIDES,
    MIN_SIDES,
)
from ..rules.problems import UNCHECKED
from ..rules.published import GROUPS
from ..rules.questions import BOOK_KINDS, BY_RANK, QUESTIONS
from .blueprint import bp
from .events import HEARTBEAT_SECONDS, RETRY_MS
from .openapi_open import OPEN_PATHS, open_schemas
from .schema import (
    BOOLEAN,
    CARD_STRING,
    COUNT,
    COUNTED,
    DEAL_NUMBER,
    ERRORS,
    GAME_ID,
    HEADERS,
    IF_NONE_MATCH,
    INTEGER,
    NUMBER,
    POINTS,
    REVISION,
    SAVED,
    SHEET_TEXT,
    STRING,
    TIME,
    TOTALS,
    URL,
    Schema,
    answer,
    array,
    between,
    error_responses,
    nullable,
    obj,
    op,
    query,
    ref,
)


def schemas() -> Schema:
    """The component schemas: what the routes read and answer."""
    cards: Schema = {"anyOf": [CARD_STRING, {"type": "object", "propertyNames": {"enum": [c.value for c in CARDS]},
                                             "additionalProperties": COUNT, "description": "counts by card"}]}
    meld: Schema = {"anyOf": [CARD_STRING, obj(rank={"enum": [r.value for r in Rank]}, naturals=COUNT, twos=COUNT,
                                               jokers=COUNT, cards=cards)]}
    opening = obj(("melds",), melds=array(ref("Meld"), MAX_MELDS), pile_top={
        "anyOf": [BOOLEAN, {"enum": [c.value for c in CARDS]}],
        "description": "the pile's top card when the first melds used it (true: the card not said)"})
    opening["description"] = ("first melds, laid together to meet the opening minimum: the side's, or each "
                              "player's where the sheet's minimum is each player's")
    player = obj(("name", "foot_picked_up"), name=ref("Name"), foot_picked_up=BOOLEAN, cards_left=cards, foot=cards,
                 cut_bonus=BOOLEAN, opening=opening,
                 foot_played={**nullable(BOOLEAN), "description": "whether the player played from the foot; "
                              "absent or null: as foot_picked_up"},
                 knee_picked_up={**nullable(BOOLEAN), "description": "in a deal with a knee (the sheet's "
                                 "knee_size): whether the player picked up the knee; absent or null: as "
                                 "foot_picked_up. A deal without a knee leaves it out"},
                 knee={**cards, "description": "the unopened knee's cards, when knee_picked_up is false"},
                 cards_left_points={**COUNTED, "description": "counted entry: the hand's points, not cards_left"},
                 red_threes_left={**COUNT, "description": "counted entry: red threes still in the hand"})
    player["not"] = {"required": ["cards_left", "cards_left_points"]}
    player["dependentRequired"] = {"red_threes_left": ["cards_left_points"]}
    ranks: Schema = {"enum": [r.value for r in list(Rank)[:11]]}
    books = obj(clean=COUNT, dirty=COUNT, wild=COUNT,
                special={"type": "object", "propertyNames": ranks,
                         "additionalProperties": COUNT, "description": "clean books of a rank the sheet's "
                         "special_books names, by rank; not also in clean"},
                special_dirty={"type": "object", "propertyNames": ranks, "additionalProperties": COUNT,
                               "description": "dirty books of a rank the sheet's special_books_dirty names, by "
                               "rank; not also in dirty"},
                threes={"type": "object", "propertyNames": {"enum": [Rank.RED_THREE.value, Rank.BLACK_THREE.value]},
                        "additionalProperties": COUNT, "description": "books of threes the sheet's three_books "
                        "allows, by colour"},
                wild_mixed={**COUNT, "description": "wild books mixing 2s and jokers, where the sheet's "
                            "wild_book_mixed_bonus prices them; not also in wild"})
    deal_side = obj(("name",), name=ref("Name"), melds=array(ref("Meld"), MAX_MELDS),
                    books={**books, "description": "counted entry: books by kind (a missing key is 0), instead of "
                           "melds"},
                    meld_points={**COUNTED, "description": "counted entry: the points of every card melded"},
                    red_threes=COUNT, players=array(player, MAX_PER_SIDE), opening=opening,
                    running_total={**POINTS, "description": "a standalone deal: the side's total before it, where "
                                   "the minimum follows the running total (a game knows its own)"},
                    failed_takes={**COUNT, "description": "times a player of the side took the pile and could not "
                                  "meld its top card as the sheet asks, each costing the sheet's pile_take_penalty"})
    deal_side["oneOf"] = [  # itemised (melds, or nothing melded) or counted (books with meld_points)
        {"not": {"anyOf": [{"required": ["books"]}, {"required": ["meld_points"]}]}},
        {"required": ["books", "meld_points"], "not": {"required": ["melds"]}}]
    deal: Schema = {"deal": DEAL_NUMBER, "ending": {"enum": ["went_out", "stock_out"]},
                    "went_out": nullable(ref("Name")),
                    "sides": array(deal_side, MAX_SIDES, MIN_SIDES),
                    "last_card": {"enum": ["discard", "meld"],
                                  "description": "how the player who went out played the last card"},
                    "permission": {"enum": ["asked-yes", "asked-no", "not-asked"],
                                   "description": "whether the player who went out asked a partner, and the answer"},
                    "first_meld": {**nullable(ref("Name")), "description": "the player who laid down first, where "
                                   "the sheet has a first_meld_bonus (to that player's side)"}}
    said: Schema = {"code": STRING, "message": STRING, "option": nullable(STRING), "where": nullable(STRING),
                    "side": nullable(STRING), "player": nullable(STRING), "meld": nullable(INTEGER)}
    rule_problem = obj(("code", "message"), **said)
    not_checked = array(obj(("what", "option", "reason", "where", "side", "player"),
                            what={"enum": list(UNCHECKED)}, option=STRING, reason=STRING, where=STRING,
                            side=nullable(STRING), player=nullable(STRING)))
    not_checked["description"] = "rules of the sheet the deal gave nothing to judge by: neither violations nor warnings"
    line = obj(("code", "label", "count", "each", "points", "option"), code=STRING, label=STRING, count=INTEGER,
               each=INTEGER, points=INTEGER, option=STRING, player=nullable(STRING))
    side_score = obj(("name", "total", "lines"), name=STRING, total=POINTS, lines=array(line))
    standing = obj(("name", "total"), name=STRING, total=POINTS)
    game_deal: Schema = {"number": DEAL_NUMBER, "deal": ref("Deal"), "report": ref("Report"),
                         "as_played": nullable(STRING), "history_size": INTEGER}
    entry = obj((), False, id=INTEGER, game_id=STRING, deal_number=nullable(INTEGER), action=ref("Action"), at=TIME,
                before=nullable({"type": "object"}), after=nullable({"type": "object"}), old_totals=nullable(TOTALS),
                new_totals=nullable(TOTALS), reason=nullable(STRING), revision=INTEGER, seq=INTEGER,
                entered_by=nullable({"type": "object", "description": "a deal entered part by part: by part, the "
                                     "phone that entered it and the one that confirmed it"}))
    created = ("id", "edit_key", "revision", "view_url", "edit_url", "api_url")
    preset: Schema = {"id": ref("PresetId"), "title": STRING, "source": STRING, "source_url": nullable(STRING),
                      "preset_version": INTEGER,
                      "not_stated": {"type": "object", "additionalProperties": STRING},
                      "house_rules": {**OPTION_BY_NAME["house_rules"].schema(),
                                      "description": "the preset's own rules of play that no other option says and "
                                                     "no recorded deal can break (its sheet's house_rules): printed, "
                                                     "never checked"},
                      "group": {"type": "string", "enum": [group for group, _ in GROUPS],
                                "description": "where its source was published: books and rules pages, card rooms "
                                               "and house sheets, apps and online"}}
    write: Schema = {**deal, "revision": REVISION, "as_played": obj(  # a deal sent to record or correct
        ("reason",), reason={"type": "string", "minLength": 1, "maxLength": MAX_REASON})}
    return {
        "OpenSide": {**{k: v for k, v in deal_side.items() if k != "required"},
                     "description": "a side's part of an open deal: the deal's side object (its name may be left out)"},
        **open_schemas(),
        "Problem": obj(
            ("type", "title", "status", "detail", "field", "error"), False,
            type={"type": "string", "format": "uri-reference",
                  "description": "`about:blank`, or `/api/v1/problems/<slug>`, whose GET documents it"},
            title=STRING, status=between(400, 599), detail=STRING,
            field={"type": ["string", "null"], "description": "a dotted path into the request, or a header's name"},
            error=obj(("status", "field", "message"), status=INTEGER, field={"type": ["string", "null"]},
                      message=STRING),
            revision={**INTEGER, "description": "409, 412: the game's revision now"},
            changes={**array(ref("Change")), "description": "409, 412: every change since the request's revision"},
            report={**ref("Report"), "description": "422 (a deal): the referee's report"},
            may_save_as_played={**BOOLEAN, "description": "422 (a deal): whether it would be saved as played"},
            view_url={**URL, "description": "401 (edit-key-replaced): the view link, which still shows the game"},
            problems={**array(obj(("code", "message", "never_as_played"), **said, never_as_played=BOOLEAN)),
                      "description": "422: every problem, each saying whether it can ever be saved as played"},
            deal={**INTEGER, "description": "422 (an import): the number of the deal refused; 409 deal-open: the "
                                            "deal being entered part by part"},
            parts={**INTEGER, "description": "409 deal-open: how many of its parts are saved"},
            next={**nullable(INTEGER), "description": "409 not-next-deal: the game's next deal"},
            part={**ref("OpenPart"), "description": "409 part-entered: the part as another phone entered it"},
            recorded={"anyOf": [ref("RecordedDeal"), BOOLEAN],
                      "description": "409 deal-recorded: the deal as recorded, as GET gives it; 409 not-next-deal: "
                                     "whether the deal is recorded already"},
            yours={**obj(("number", "deal", "report", "as_played"), number=DEAL_NUMBER, deal=ref("Deal"),
                         report=ref("Report"), as_played=nullable(STRING)),
                   "description": "409 deal-recorded: the deal sent, judged as that deal of the game"},
            previous={**DEAL_NUMBER, "description": "422 same-as-previous: the deal recorded just before it, "
                                                    "which it repeats"},
            deleted_at={**TIME, "description": "410 gone: when the game was deleted"}),
        "ProblemType": obj(("type", "slug", "title", "status", "description", "extensions"), False,
                           type=STRING, slug=STRING, title=STRING, status=INTEGER, description=STRING,
                           extensions=array(STRING)),
        "Name": {"type": "string", "minLength": 1, "maxLength": MAX_NAME},
        "Sides": array(obj(("name", "players"), name=ref("Name"), players=array(ref("Name"), MAX_PER_SIDE, 1)),
                       MAX_SIDES, MIN_SIDES),
        "Sheet": {"anyOf": [ref("PresetId"), ref("SheetObject")]},
        "PresetId": {"type": "string", "enum": [*sorted(PRESETS)]},
        "SheetObject": obj(preset=ref("PresetId"), preset_version={"type": "integer", "minimum": 1},
                           **{option.name: option.schema() for option in OPTIONS}),
        "Meld": meld,
        "Melds": {"anyOf": [array(ref("Meld"), MAX_MELDS),
                            {"type": "string", "description": "melds as card strings split by `;`"}]},
        "Deal": obj((), **deal),
        "ScoreRequest": obj(("sheet", "deal", "ending", "sides"), sheet=ref("Sheet"), **deal),
        "DealWrite": obj(("ending", "sides"), **write),
        "NewDeal": obj(("ending", "sides"), **write,
                       repeat={**BOOLEAN, "description": "record it even if every side and the ending equal the "
                                                         "deal recorded just before it (the table played it again)"}),
        "RuleProblem": rule_problem,
        "Report": obj(("ok", "violations", "warnings", "not_checked", "sides"), ok=BOOLEAN,
                      violations=array(rule_problem), warnings=array(rule_problem), not_checked=not_checked,
                      sides=array(side_score),
                      problems_omitted={"type": "integer", "minimum": 0,
                                        "description": f"in a game: problems past the {MAX_PROBLEMS_LISTED} listed"}),
        "GameDeal": obj(tuple(game_deal), **game_deal),
        "SavedDeal": obj((*game_deal, "revision"), **game_deal, revision=INTEGER),
        "RecordedDeal": obj((*game_deal, "history"), **game_deal, history=array(ref("HistoryEntry"))),
        "Standing": standing,
        "Game": obj(("id", "name", "view_url", "sheet", "sheet_changes", "sides", "revision", "created_at",
                     "updated_at", "deals", "running_totals", "problems", "standings", "over", "winner", "tie",
                     "next_deal"),
                    id=STRING, name=STRING, view_url=URL, sheet=ref("SheetObject"),
                    sheet_changes=array(obj(("option", "label", "preset_value", "value"), option=STRING,
                                            label=STRING, preset_value=STRING, value=STRING)),
                    sides=ref("Sides"), revision=INTEGER, created_at=TIME, updated_at=TIME,
                    confirm={"enum": ["none", "opponents"], "description": "whether a side's part of a deal entered "
                             "part by part waits for a phone of another side to confirm it"},
                    deals=array(ref("GameDeal"), MAX_DEALS),
                    running_totals=array(obj(("deal", "totals"), deal=DEAL_NUMBER, totals=TOTALS), MAX_DEALS),
                    problems=array(rule_problem), standings=array(standing), over=BOOLEAN,
                    winner=nullable(STRING), tie=BOOLEAN, next_deal=nullable(obj(
                        ("number", "opening_minimums", "opening_who", "going_out_books", "going_out_bonus",
                         "draws", "totals_before"),
                        number=DEAL_NUMBER, opening_minimums=TOTALS, opening_who={"enum": ["player", "side"]},
                        going_out_books=obj(("clean", "dirty", "wild"), clean=INTEGER, dirty=INTEGER, wild=INTEGER,
                                            special={"anyOf": [INTEGER, {"type": "object", "additionalProperties":
                                                                         INTEGER}],
                                                     "description": "special books: a number, or by rank"}),
                        going_out_bonus=INTEGER, draws=INTEGER, totals_before=TOTALS,
                        opening_book={**BOOLEAN, "description": "true (else left out) when the deal's first melds "
                                      "must include a complete book instead of a number of points; the minimums "
                                      "are then 0"}))),
        "Created": obj(created, id=STRING, edit_key=STRING, revision=INTEGER, view_url=URL, edit_url=URL, api_url=URL),
        "Action": {"enum": ["record", "edit", "delete", "amend", "import", "rekey", "end", "reopen"]},
        "Ended": obj(("id", "revision", "ended_at", "standings", "over", "winner", "tie", "next_deal"), False,
                     id=STRING, revision=INTEGER,
                     ended_at={**nullable(TIME), "description": "when the table ended the game; null while it goes on"},
                     standings=array(standing), over=BOOLEAN, winner=nullable(STRING), tie=BOOLEAN,
                     next_deal=nullable({"type": "object"})),
        "HistoryEntry": entry,
        "GameEvent": obj(("revision",), revision=INTEGER, open=INTEGER, updated_at=TIME,
                         deleted={"const": True, "description": "the game was deleted: the stream ends"}),
        "Change": obj(("revision", "action", "deal", "at", "totals", "reason", "message"), revision=INTEGER,
                      action=ref("Action"), deal=nullable(INTEGER), at=TIME, totals=nullable(TOTALS),
                      reason=nullable(STRING), message=STRING),
        "Export": obj(("format", "version", "name", "sheet", "sides"), False, format={"const": "scorepad.game"},
                      version={"const": 1}, name=ref("Name"), sheet=ref("Sheet"), sides=ref("Sides"),
                      confirm={"enum": ["none", "opponents"], "description": "whether a side's part of a deal "
                               "entered part by part waits for another side's phone; none when left out"},
                      created_at=TIME, exported_at=TIME,
                      deals=array(obj(("number", "deal"), False, number=DEAL_NUMBER, deal=ref("Deal"),
                                      as_played=nullable(STRING), history=array(entry)), MAX_DEALS),
                      deleted_deals=array(obj(("number",), False, number=DEAL_NUMBER, history=array(entry))),
                      amendments=array(entry),
                      ended_at={**TIME, "description": "when the table ended the game (game length `open`)"}),
        "Answer": obj(("yes", "reasons"), yes=BOOLEAN, reasons=array(obj(
            ("ok", "message", "option", "label", "sheet_says"), ok=BOOLEAN, message=STRING, option=nullable(STRING),
            label=nullable(STRING), sheet_says=nullable(STRING)))),
        "Explained": obj(("deal", "ok", "sides", "violations", "warnings", "not_checked"), False, deal=INTEGER,
                         ok=BOOLEAN, sides=array(obj(("name", "total", "lines"), False, name=STRING, total=POINTS,
                                                     lines=array({"type": "object"}))),
                         violations=array({"type": "object"}), warnings=array({"type": "object"}),
                         not_checked=not_checked),
        "Rescored": {"type": "object", "description": "a deal (`deal`, `old_ok`, `new_ok`, `sides`…) or a game "
                     "(`deals`, `totals`, `old_result`, `new_result`, `winner_changes`…) under two sheets",
                     "required": ["old_sheet", "new_sheet", "sides"]},
        "Compared": obj(("a", "b", "same", "count", "groups"), False, a={"type": "object"}, b={"type": "object"},
                        same=BOOLEAN, count=INTEGER, groups=array({"type": "object"})),
        "Preset": obj(tuple(preset), **preset),
        "PresetSheet": obj((*preset, "sheet", "groups"), **preset, sheet=ref("SheetObject"), groups=array(obj(
            ("id", "title", "options"), id=STRING, title=STRING, options=array(obj(
                ("name", "label", "help", "value", "words", "not_stated"), name=STRING, label=STRING, help=STRING,
                value={}, words=STRING, not_stated=nullable(STRING)))))),
    }


# -- the referee's questions: one schema per field, each question's body from QUESTIONS ------------


# The go-out question's special books: a count, or counts by rank.
BY_RANK_COUNT: Schema = {"anyOf": [between(0, MAX_MELDS), {
    "type": "object", "additionalProperties": between(0, MAX_MELDS),
    "description": "by rank, such as {\"7\": 1, \"5\": 1} (3R and 3B: books of threes)"}]}
QUESTION_FIELDS: dict[str, Schema] = {
    "meld": ref("Meld"), "adding_to": ref("Meld"), "table": ref("Melds"), "melds": ref("Melds"),
    "deal": DEAL_NUMBER, "books": obj(**{kind: BY_RANK_COUNT if kind in BY_RANK else between(0, MAX_MELDS)
                                         for kind in BOOK_KINDS}),
    "foot_played": BOOLEAN, "knee_played": BOOLEAN, "partners_picked_up": array(BOOLEAN, MAX_PER_SIDE - 1),
    "partners_played": nullable(array(BOOLEAN, MAX_PER_SIDE - 1)), "permission": nullable(BOOLEAN),
    "last_card": nullable({"enum": ["meld", "discard"]}), "top_card": {"enum": [c.value for c in CARDS]},
    "pair": {**between(0, MAX_COUNT), "description": "natural cards of the top card's rank in the hand"},
    "wilds": {**between(0, MAX_COUNT), "description": "wild cards in the hand"}, "pile_size": between(0, MAX_COUNT),
    "opened": BOOLEAN, "pile_has_wild": BOOLEAN, "buried": CARD_STRING, "running_total": POINTS, "side": ref("Name"),
}


def question(name: str) -> Schema:
    return obj(sheet=ref("Sheet"), game={"type": "string", "description": "a game's id: its sheet, its deal"},
               **{f: QUESTION_FIELDS[f] for f in QUESTIONS[name][1]})


# Each path (Flask's <game_id> written {game_id}) with its methods; the game's id and a deal's
# number are declared once for the path.
PATHS: dict[str, Schema] = {
    "/api/v1/openapi.json": {"get": op("this description", {"200": answer({"type": "object"}, "OpenAPI 3.1")})},
    "/api/v1/problems/{slug}": {
        "parameters": [{"name": "slug", "in": "path", "required": True, "schema": STRING}],
        "get": op("what a problem type means", {"200": answer(ref("ProblemType"))}, 404)},
    "/api/v1/score": {"post": op("check and score one deal; nothing is saved", {"200": answer(ref("Report"))},
                                 body=ref("ScoreRequest"))},
    "/api/v1/sheets": {"get": op("the preset sheets", {"200": answer(obj(("sheets",), sheets=array(ref("Preset"))))})},
    "/api/v1/sheets/{sheet_id}": {
        "parameters": [{"name": "sheet_id", "in": "path", "required": True, "schema": STRING}],
        "get": op("one preset: every option, in full and in words", {"200": answer(ref("PresetSheet"))}, 404)},
    "/api/v1/games": {"post": op(
        "create a game", {"201": answer(ref("Created"), "the game, its links and its edit key", "Location",
                                        "Cache-Control")},
        429, 503, body=obj(("name", "sheet", "sides"), name=ref("Name"), sheet=ref("Sheet"), sides=ref("Sides"),
                           confirm={"enum": ["none", "opponents"], "default": "none",
                                    "description": "opponents: a side's part of a deal entered part by part is "
                                                   "final once a phone of another side confirms it"}),
        idempotent=True)},
    "/api/v1/games/import": {"post": op(
        "a new game from an export document", {"201": answer(ref("Created"), "the new game", "Location",
                                                             "Cache-Control")},
        409, 422, 429, 503, body=ref("Export"), idempotent=True)},
    "/api/v1/games/{game_id}": {"parameters": [GAME_ID], "get": op(
        "the game: its deals, scores, standings, the next deal",
        {"200": answer(ref("Game"), "the game", "ETag", "Cache-Control"),
         "304": answer(None, "not modified since the If-None-Match's ETag", "ETag")}, 404,
        params=(IF_NONE_MATCH,)),
        "delete": op("delete the game, for good", {"200": answer(obj(("deleted", "deleted_at"), deleted=STRING,
                                                                     deleted_at=TIME))}, 400, write=True,
                     params=(query("revision", REVISION, "the game's revision the deletion is based on"),))},
    "/api/v1/games/{game_id}/revision": {"parameters": [GAME_ID], "get": op(
        "the game's revision, and when it last changed",
        {"200": answer(obj(("id", "revision", "updated_at", "open"), id=STRING, revision=INTEGER, updated_at=TIME,
                           open={**INTEGER, "description": "the changes to the game's open deal, which the "
                                 "revision does not count"}),
                       "the revision", "Cache-Control")}, 404)},
    "/api/v1/games/{game_id}/events": {"parameters": [GAME_ID], "get": {**op(
        "the game's revision each time it moves, as Server-Sent Events",
        {"200": answer({"type": "string", "description": "events, each `id: <revision>` and `data:` a GameEvent"},
                       "the event stream", "Cache-Control", media="text/event-stream")},
        400, 404, 503, params=(
            {"name": "Last-Event-ID", "in": "header", "schema": {"type": "string", "pattern": "^[0-9]{1,18}$"},
             "description": "the last revision seen: the current one is sent at once only if the game moved past it"},
            query("last_event_id", {"type": "string", "pattern": "^[0-9]{1,18}$"},
                  "as Last-Event-ID, for a client that cannot send headers"))),
        "description": f"An event when the revision or the open deal's counter moves (`id:` the revision, `data:` a "
                       f"GameEvent), the current one first unless Last-Event-ID is it, a comment every "
                       f"{HEARTBEAT_SECONDS:g} s; the stream ends after {MAX_EVENT_STREAM_SECONDS} s (`retry:` "
                       f"{RETRY_MS} ms), and after a deleted game's event (`deleted: true`). A server holds "
                       f"{MAX_EVENT_LISTENERS} streams at most: past them a 503 says to poll /revision."}},
    "/api/v1/games/{game_id}/history": {"parameters": [GAME_ID], "get": op(
        "every change to the game",
        {"200": answer(obj(("history",), history=array(ref("HistoryEntry"))), "the history", "ETag", "Cache-Control"),
         "304": answer(None, "not modified since the If-None-Match's ETag", "ETag")}, 404, params=(IF_NONE_MATCH,))},
    "/api/v1/games/{game_id}/sheet": {"parameters": [GAME_ID], "put": op(
        "amend the game's sheet", {"200": answer(ref("Game"), "the game under its new sheet")},
        body=obj(("sheet", "reason"), sheet=ref("Sheet"), reason={"type": "string", "maxLength": MAX_REASON},
                 revision=REVISION), write=True)},
    "/api/v1/games/{game_id}/edit-key": {"parameters": [GAME_ID], "post": {**op(
        "replace the game's edit key (a leaked edit link): the key sent is refused from now on",
        {"200": answer(ref("Created"), "the game, its new edit key and edit link", "Cache-Control")},
        400, 401, 403, 404, 409, 429, 503, idempotent=True), "security": [{"editKey": []}]}},
    **{f"/api/v1/games/{{game_id}}/{name}": {"parameters": [GAME_ID], "post": {**op(
        summary, {"200": answer(ref("Ended"), "the game's result and next deal as the write left it")},
        400, write=True, idempotent=True),
        "requestBody": {"required": False, "content": {"application/json": {"schema": obj((), revision=REVISION)}}}}}
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
        "delete": op("delete a deal", {"200": answer(obj(("deleted", "revision"), deleted=DEAL_NUMBER,
                                                         revision=INTEGER))}, 400, write=True,
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
                                              body=question(name))}
       for name, summary in (("meld", "is this meld legal?"), ("go-out", "may we go out now?"),
                             ("pile", "may I take the pile?"), ("minimum", "do these first melds meet the minimum?"))},
    "/api/v1/referee/explain": {"post": op(
        "a deal's score, each line with its rule", {"200": answer(ref("Explained"))},
        body=obj(("deal",), deal=ref("ScoreRequest")))},
    "/api/v1/referee/games/{game_id}/deals/{number}/explain": {"parameters": [GAME_ID, NUMBER], "get": op(
        "a recorded deal's score, each line with its rule", {"200": answer(ref("Explained"))}, 404)},
    "/api/v1/referee/rescore": {"post": op(
        "a deal or a game under another sheet", {"200": answer(ref("Rescored"))},
        body=obj(("sheet",), sheet=ref("Sheet"), deal=ref("ScoreRequest"), game=obj(
            ("sheet", "sides", "deals"), sheet=ref("Sheet"),
            sides={"anyOf": [ref("Sides"), array(ref("Name"), MAX_SIDES, MIN_SIDES)]},
            deals=array(ref("Deal"), MAX_DEALS))))},
    "/api/v1/referee/games/{game_id}/rescore": {"parameters": [GAME_ID], "get": op(
        "a recorded game (or one deal) under another sheet", {"200": answer(ref("Rescored"))}, 400, 404, 503,
        params=(query("sheet", SHEET_TEXT, "the other sheet", True),
                query("deal", DEAL_NUMBER, "only this deal")))},
    "/api/v1/referee/compare": {"get": op(
        "where two sheets differ", {"200": answer(ref("Compared"))}, 400,
        params=(query("a", SHEET_TEXT, "one sheet", True), query("b", SHEET_TEXT, "the other", True)))},
}

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


def document() -> Schema:
    """The whole description."""
    return {
        "openapi": "3.1.0", "info": INFO, "paths": _with_gone_and_full(PATHS),
        "components": {
            "schemas": schemas(), "responses": error_responses(), "headers": HEADERS,
            "parameters": {
                "IfMatch": {"name": "If-Match", "in": "header", "schema": STRING,
                            "description": "the game's ETag: the write is based on that revision (412 when stale)"},
                "IdempotencyKey": {
                    "name": "Idempotency-Key", "in": "header",
                    "schema": {"type": "string", "minLength": 1, "maxLength": MAX_IDEMPOTENCY_KEY,
                               "pattern": "^[ -~]+$", "description": "printable ASCII, such as a UUID"},
                    "description": "a retry with the same key gets the first answer again (24 hours)"}},
            "securitySchemes": {"editKey": {"type": "http", "scheme": "bearer",
                                            "description": "the game's edit key, from POST /api/v1/games"}},
        },
    }


@bp.get("/openapi.json")
def openapi() -> Response:
    """The description, built once per app: it does not change while the app runs."""
    body = current_app.extensions.get("scorepad.openapi")
    if body is None:
        body = current_app.extensions["scorepad.openapi"] = json.dumps(document())
    return Response(body, mimetype="application/json")
