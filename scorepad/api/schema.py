"""The pieces the API's OpenAPI description is written with (:mod:`.openapi`, :mod:`.openapi_open`):
schema builders (:func:`obj`, :func:`array`, ...), the common schemas (a revision, a deal's
number, points), the error answers (:data:`ERRORS`, each an RFC 9457 problem) and headers, and
one operation (:func:`op`). Every bound is a constant of :mod:`scorepad.rules.limits`.
"""

from __future__ import annotations

from ..rules.limits import (
    MAX_CARD_STRING,
    MAX_COUNT,
    MAX_COUNTED_POINTS,
    MAX_DEALS,
    MAX_GAME_ID,
    MAX_POINTS,
)
from ..rules.read import JSON

Schema = dict[str, JSON]  # a JSON Schema, or any other object of the description



def ref(name: str, kind: str = "schemas") -> Schema:
    return {"$ref": f"#/components/{kind}/{name}"}


def obj(required: tuple[str, ...] = (), closed: bool = True, /, **properties: JSON) -> Schema:
    """An object schema: its ``properties``, which are ``required``, and whether no others may be sent."""
    out: Schema = {"type": "object", "properties": properties}
    if required:
        out["required"] = list(required)
    if closed:
        out["additionalProperties"] = False
    return out


def array(items: Schema, most: int | None = None, least: int | None = None) -> Schema:
    bounds = {"minItems": least} if least is not None else {}
    return {"type": "array", "items": items, **bounds, **({"maxItems": most} if most is not None else {})}


def nullable(schema: Schema) -> Schema:
    return {"anyOf": [schema, {"type": "null"}]}


def between(lo: int, hi: int) -> Schema:
    return {"type": "integer", "minimum": lo, "maximum": hi}


STRING: Schema = {"type": "string"}
INTEGER: Schema = {"type": "integer"}
BOOLEAN: Schema = {"type": "boolean"}
TIME: Schema = {"type": "string", "format": "date-time"}
URL: Schema = {"type": "string", "format": "uri"}
COUNT = between(-MAX_COUNT, MAX_COUNT)
COUNTED = between(-MAX_COUNTED_POINTS, MAX_COUNTED_POINTS)
POINTS = between(-MAX_POINTS, MAX_POINTS)
REVISION: Schema = {"type": "integer", "minimum": 0, "description": "the game's revision the write is based on"}
TOTALS: Schema = {"type": "object", "additionalProperties": POINTS, "description": "points by side"}
DEAL_NUMBER = between(1, MAX_DEALS)
# Text a person types: no control character (:func:`scorepad.rules.text.untyped`), and not only spaces.
_TYPED = "[^\\u0000-\\u001f\\u007f-\\u009f]"
NAME_PATTERN = f"^{_TYPED}*[^\\s\\u0000-\\u001f\\u007f-\\u009f]{_TYPED}*$"
# A list whose items' names are unique (ignoring case): JSON Schema's uniqueItems compares whole
# items, so the key is stated (x-unique-by) and the server refuses a repeat with a 400.
UNIQUE_NAMES: Schema = {"x-unique-by": "name"}
GAME_TEXT: Schema = {"type": "string", "minLength": 1, "maxLength": MAX_GAME_ID, "pattern": "\\S"}
CARD_STRING: Schema = {"type": "string", "maxLength": MAX_CARD_STRING,
                       "description": 'cards one by one, such as "K K 2 JK"'}


# -- errors: RFC 9457 problems, each with the headers it carries ------------------------------------


def header(description: str) -> Schema:
    return {"description": description, "schema": STRING}


HEADERS: Schema = {
    "ETag": header('the game\'s entity tag, `"<id>.<revision>"` (after the write, on a write\'s answer): send it as '
                   "If-None-Match, or If-Match on the next write"),
    "Location": header("the absolute URL of what was created or saved (from the same base as every `*_url`)"),
    # draft-ietf-httpapi-ratelimit-headers-10 (scorepad/ratelimit_fields.py)
    "RateLimit-Policy": header('each limit that counted this request: its name, quota and window in seconds, '
                               'such as `"write";q=60;w=60`'),
    "RateLimit": header('what is left of each limit for this client and the seconds until its window starts '
                        'again, such as `"write";r=59;t=42`'),
    "Idempotent-Replayed": header("`true` when the answer is the first answer to this Idempotency-Key, sent again: "
                                  "nothing was done this time"),
    "Retry-After": {"description": "seconds to wait before sending the same request again", "schema": INTEGER},
    "WWW-Authenticate": header("the Bearer challenge (RFC 6750)"),
    "Allow": header("the methods the route takes"),
    "Cache-Control": header("`no-store` on answers holding an edit key, `no-cache` on a game"),
    "Content-Disposition": header("`attachment`, named after the game"),
}

RATE_LIMIT_FIELDS = ("RateLimit-Policy", "RateLimit")  # on the answers of a route a limit counts (429)
ERRORS: dict[int, tuple[str, str, tuple[str, ...]]] = {  # status: (name, when, headers)
    400: ("BadRequest", "the request cannot be read: `field` names what is wrong (`If-Match` for that header)", ()),
    401: ("Unauthorized", "a write without the game's edit key (an event's: its organiser key), or with a key "
          "replaced since (`edit-key-replaced`, with `view_url`)", ("WWW-Authenticate",)),
    403: ("Forbidden", "a key that is not this game's (an event's: not its organiser key)", ("WWW-Authenticate",)),
    404: ("NotFound", "no such game, deal, preset or event", ()),
    410: ("Gone", "the game was deleted (with `deleted_at`)", ()),
    405: ("MethodNotAllowed", "a method the route does not take", ("Allow",)),
    409: ("Conflict", "a stale revision (with `revision` and `changes`), a deal already recorded (deal-recorded, "
          "with `recorded`, `yours` and `revision`), the game over (ended by its table: reopen it first) or "
          "full, a game whose sheet ends it ended by hand, a request with the same Idempotency-Key still "
          "running; a deal being entered part by part (deal-open), a part for a deal not the next "
          "(not-next-deal), a part another phone entered (part-entered, with `part`), a confirmation refused "
          "(confirmation-refused)", ()),
    412: ("PreconditionFailed", "the If-Match is stale (with `revision` and `changes`)", ()),
    413: ("TooLarge", "the body is over the server's bound", ()),
    422: ("Unprocessable", "a deal breaking the sheet's rules, not saved (with `report`, `problems`, "
          "`may_save_as_played`); a deal the same as the one before it (same-as-previous, with `previous`, "
          "`report`, `problems`: send `\"repeat\": true` if it was played again); an import refused (with `deal` "
          "and `problems`); an Idempotency-Key reused for another body", ()),
    429: ("TooManyRequests", "too many requests from this address", ("Retry-After", *RATE_LIMIT_FIELDS)),
    503: ("Busy", "the database or a heavy document was busy: nothing was saved; send it again", ("Retry-After",)),
    507: ("OutOfSpace", "the server's database is out of space: nothing was saved; send it again later", ()),
}


def error_responses() -> Schema:
    return {name: {"description": when, "headers": {h: ref(h, "headers") for h in headers},
                   "content": {"application/problem+json": {"schema": ref("Problem")}}}
            for name, when, headers in ERRORS.values()}


# -- the routes -----------------------------------------------------------------------------------


def answer(schema: Schema | None, description: str = "done", *headers: str,
           media: str = "application/json") -> Schema:
    out: Schema = {"description": description}
    if headers:
        out["headers"] = {h: ref(h, "headers") for h in headers}
    if schema is not None:
        out["content"] = {media: {"schema": schema}}
    return out


def op(summary: str, ok: Schema, *errors: int, body: Schema | None = None,
       params: tuple[Schema, ...] = (), write: bool = False, idempotent: bool = False) -> Schema:
    """One operation: ``ok`` its answers, ``errors`` the statuses it may refuse with. A ``write``
    needs the edit key and may send If-Match; an ``idempotent`` one takes an Idempotency-Key."""
    statuses = set(errors) | ({400, 413} if body else set())
    if write:
        statuses |= {401, 403, 404, 409, 412, 429, 503}
        params = (*params, ref("IfMatch", "parameters"))
    if idempotent:
        statuses |= {409, 422}
        params = (*params, ref("IdempotencyKey", "parameters"))
    if 429 in statuses:  # a limited route: its answers tell the limits
        ok = {status: _telling_limits(done) if status.startswith("2") else done for status, done in ok.items()}
    out: Schema = {"summary": summary,
                           "responses": {**ok, **{str(s): ref(ERRORS[s][0], "responses") for s in sorted(statuses)}}}
    if params:
        out["parameters"] = list(params)
    if body is not None:
        out["requestBody"] = {"required": True, "content": {"application/json": {"schema": body}}}
    if write:
        out["security"] = [{"editKey": []}]
    return out


def _telling_limits(done: JSON) -> JSON:
    """An answer of a limited route, with the RateLimit fields among its headers."""
    if not isinstance(done, dict):
        return done
    headers = done.get("headers")
    return {**done, "headers": {**(headers if isinstance(headers, dict) else {}),
                                **{h: ref(h, "headers") for h in RATE_LIMIT_FIELDS}}}


def query(name: str, schema: Schema, description: str, required: bool = False) -> Schema:
    return {"name": name, "in": "query", "required": required, "schema": schema, "description": description}


GAME_ID: Schema = {"name": "game_id", "in": "path", "required": True,
                   "schema": {"type": "string", "minLength": 1, "maxLength": MAX_GAME_ID}}
NUMBER: Schema = {"name": "number", "in": "path", "required": True, "schema": DEAL_NUMBER}
IF_NONE_MATCH: Schema = {"name": "If-None-Match", "in": "header", "schema": STRING,
                         "description": "an ETag of the game"}
SHEET_TEXT: Schema = {"type": "string", "minLength": 1, "pattern": "\\S",
                      "description": "a preset id, or a sheet object as JSON text"}
SAVED = answer(ref("SavedDeal"), "the deal as saved, and the game's revision", "Location", "ETag")
