"""The OpenAPI description of the open-deal routes (:mod:`.open_deals`): a deal entered part
by part. :mod:`.openapi` puts :data:`OPEN_PATHS` among its paths and :func:`open_schemas`
among its schemas.
"""

from __future__ import annotations

from ..rules.limits import MAX_PHONE, MAX_SIDES
from .schema import (
    BOOLEAN,
    DEAL_NUMBER,
    GAME_ID,
    INTEGER,
    NUMBER,
    SAVED,
    STRING,
    TIME,
    Schema,
    answer,
    array,
    between,
    nullable,
    obj,
    op,
    ref,
)

PHONE: Schema = {"name": "Scorepad-Phone", "in": "header", "required": True,
                 "schema": {"type": "string", "minLength": 1, "maxLength": MAX_PHONE},
                 "description": "whose phone sends the part (\"Dan's phone\"): a label shown with it, not a "
                                "permission"}
PART_IF_MATCH: Schema = {"name": "If-Match", "in": "header", "schema": {"type": "string", "pattern": '^"part-[0-9]+"$'},
                         "description": 'the version of the part this replaces, `"part-<version>"` (its `if_match`): '
                                        "needed to replace a part another phone entered"}
SIDE: Schema = {"name": "side", "in": "path", "required": True, "schema": between(1, MAX_SIDES),
                "description": "the side's 1-based position in the game"}
WRITES = (400, 401, 403, 404, 409, 429, 503)


def _write(summary: str, body: Schema | None, *params: Schema) -> Schema:
    """A write to the open deal: the edit key, a phone's label, an optional Idempotency-Key."""
    ok: Schema = {"200": answer(ref("OpenDeal"), "the open deal, with its problems once every part is in but it "
                        "is not written"),
          "201": {**SAVED, "description": "the deal as recorded: this write completed it clean"}}
    operation = op(summary, ok, *WRITES, body=body, params=(PHONE, *params), idempotent=True)
    return {**operation, "security": [{"editKey": []}]}


def open_schemas() -> dict[str, Schema]:
    """The open deal and its parts."""
    problem = obj(("code", "message", "never_as_played"), False, code=STRING, message=STRING, side=nullable(STRING),
                  never_as_played=BOOLEAN)
    part = obj(("part", "side", "name", "body", "entered_by", "at", "version", "if_match", "confirmed_by",
                "confirmed_at"),
               part={"type": "string", "description": "a side's position (`1`, `2`, ...), or `ending`"},
               side=nullable(INTEGER), name=nullable(STRING), body={"type": "object"},
               entered_by={**STRING, "description": "the label of the phone that entered it"}, at=TIME,
               version={**INTEGER, "description": "1, then 1 more each time the part changed"},
               if_match={**STRING, "description": "the If-Match that replaces this version"},
               confirmed_by=nullable(STRING), confirmed_at=nullable(TIME))
    return {
        "OpenPart": part,
        "Confirmation": obj(("by_side", "version"), by_side=between(1, MAX_SIDES), version={**INTEGER, "minimum": 1}),
        "Abandoned": obj(("number", "abandoned"), number=DEAL_NUMBER, abandoned=INTEGER),
        "OpenDeal": obj(("number", "confirm", "counter", "sides", "parts", "missing", "unconfirmed", "complete",
                         "problems", "may_save_as_played", "report"),
                        number=DEAL_NUMBER, confirm={"enum": ["none", "opponents"]}, counter=INTEGER,
                        sides=array(STRING), parts=array(ref("OpenPart")), missing=array(STRING),
                        unconfirmed=array(STRING), complete=BOOLEAN, problems=nullable(array(problem)),
                        may_save_as_played=nullable(BOOLEAN), report=nullable(ref("Report"))),
        "Ending": obj(("ending",), ending={"enum": ["went_out", "stock_out"]}, went_out=nullable(ref("Name")),
                      last_card={"enum": ["discard", "meld"]},
                      permission={"enum": ["asked-yes", "asked-no", "not-asked"]}, first_meld=nullable(ref("Name")),
                      as_played=obj(("reason",), reason={"type": "string", "minLength": 1}),
                      repeat={**BOOLEAN, "description": "the table played the same deal as the one before again"}),
    }


OPEN_PATHS: dict[str, Schema] = {
    "/api/v1/games/{game_id}/deals/{number}/parts/{side}": {"parameters": [GAME_ID, NUMBER, SIDE], "put": _write(
        "save one side's part of the open deal (the deal's side object); the part that completes a clean deal "
        "writes it", ref("OpenSide"), PART_IF_MATCH)},
    "/api/v1/games/{game_id}/deals/{number}/ending": {"parameters": [GAME_ID, NUMBER], "put": _write(
        "save the ending of the open deal (and `as_played`, `repeat` for the whole deal)", ref("Ending"),
        PART_IF_MATCH)},
    "/api/v1/games/{game_id}/deals/{number}/parts/{side}/confirmation": {
        "parameters": [GAME_ID, NUMBER, SIDE], "post": _write(
            "a phone of another side confirms the part, having seen its version (a game with confirm `opponents`)",
            ref("Confirmation"))},
    "/api/v1/games/{game_id}/deals/{number}/open": {
        "parameters": [GAME_ID, NUMBER],
        "get": op("the open deal: each part, who entered it, what is missing, and its problems once complete",
                  {"200": answer(ref("OpenDeal"), "the open deal", "Cache-Control")}, 404, 409),
        "delete": {**op("abandon the open deal: its parts go, nothing is written",
                        {"200": answer(ref("Abandoned"))},
                        *WRITES), "security": [{"editKey": []}]}},
}
