"""What every route of the JSON API reads and writes the same way: the error the API raises
(:class:`ApiError`, answered as a problem by :mod:`scorepad.api`), the request's body (:func:`body`, with
:func:`scorepad.rules.read.check_values`), a change's base revision (from the body or ``If-Match``:
:func:`conditional`), a write made once per ``Idempotency-Key`` (:func:`write_once`), the
game an id names and whether the request may change it, and a game's links and the answer
to a new game.

Plain helpers, with no routes: the routes are :mod:`.games`, :mod:`.referee` and
:mod:`.exchange`, on the one blueprint of :mod:`scorepad.api`.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Callable, Iterable
from typing import NoReturn, TypeVar

from flask import current_app, jsonify, request
from flask.typing import ResponseReturnValue
from flask_limiter.util import get_remote_address
from werkzeug.routing import Rule

from .. import keyed_writes, links
from ..access import bearer_key, key_matches, session_client
from ..rules import read
from ..rules.limits import MAX_IDEMPOTENCY_KEY
from ..rules.read import JSON
from ..storage import idempotency, reading
from ..storage.errors import Conflict
from ..storage.reading import GameRecord
from . import nulls

T = TypeVar("T")


class ApiError(Exception):
    """A request the API refuses before it reaches the store; ``headers`` go with the answer.
    ``problem`` names its problem type (a slug of :data:`scorepad.api.problems.TYPES`) when
    the status alone does not say which, and ``extensions`` the members that type carries."""

    def __init__(self, status: int, field: str | None, message: str,
                 headers: dict[str, str] | None = None, *, problem: str | None = None, **extensions: object) -> None:
        super().__init__(message)
        self.status, self.field, self.message, self.headers = status, field, message, headers or {}
        self.problem, self.extensions = problem, extensions


# -- reading requests ---------------------------------------------------------------------------


def body(allowed: Iterable[str]) -> dict[str, JSON]:
    """The request's JSON object, holding only ``allowed`` keys; a 400 naming what is wrong."""
    raw = request.get_data(cache=True)
    if not raw.strip():
        raise ApiError(400, None, "the body is empty: send a JSON object")
    if not request.is_json:
        raise ApiError(400, None, "send the body as JSON, with the header Content-Type: application/json")
    try:  # an integer-valued number (84.0) is read as the integer: JSON Schema's integer
        data: JSON = json.loads(raw, parse_float=read.json_number)
    except RecursionError:
        raise ApiError(400, None, "the body is nested too deeply") from None
    except ValueError as err:
        where = f" at line {err.lineno}, column {err.colno}" if isinstance(err, json.JSONDecodeError) else ""
        reason = err.msg if isinstance(err, json.JSONDecodeError) else "it is not UTF-8 text"
        raise ApiError(400, None, f"the body is not valid JSON: {reason}{where}") from None
    if not isinstance(data, dict):
        raise ApiError(400, None, f"the body must be a JSON object, not {_json_kind(data)}")
    read.check_values(data)  # what it cannot use is a 400 naming the field (errors.unreadable)
    allowed = tuple(allowed)
    for key in data:
        if key not in allowed:
            raise ApiError(400, key, f"is not a field here; expected {', '.join(allowed)}" if allowed
                           else "is not a field here: this route takes no fields (send an empty body, or {})")
    # A null comes only from the literal null, which a UTF-8 body without one does not hold
    # (one in UTF-16 or UTF-32 holds zero bytes): such a body is not walked for nulls.
    schema = nulls.request_schema() if b"null" in raw or b"\x00" in raw else None
    if schema is not None and (null_at := nulls.null_field(data, schema)) is not None:
        raise ApiError(400, null_at, "is null, which it may not be here: leave the field out, or give it a value")
    return data


def _json_kind(value: JSON) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "a list"


def revision(value: JSON, field: str = "revision") -> int | None:
    """The revision a change is based on, when the client gives one."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ApiError(400, field, f"must be the game's revision, a whole number, not {value!r}")
    return value


# -- conditional writes: If-Match ---------------------------------------------------------------

_ENTITY_TAG = re.compile(r'(W/)?"([^"\x00-\x20\x7f]*)"')


class PreconditionFailed(Conflict):
    """A stale write whose base revision came from ``If-Match``: a :class:`Conflict` with the
    same ``revision`` and ``changes``, naming the header, answered with its own ``status``
    (the error table names storage's kinds only)."""

    status = 412

    def __init__(self, stale: Conflict) -> None:
        super().__init__(stale.based_on, stale.revision, stale.changes)
        self.field = "If-Match"


def if_match(game_id: str) -> int | None:
    """The revision the request's ``If-Match`` names: None without one or for ``*``; a 400
    naming ``If-Match`` for anything but one strong ETag of this game, as GET sent it."""
    sent = request.headers.get("If-Match")
    if sent is None or sent.strip() == "*":
        return None
    tag = _ENTITY_TAG.fullmatch(sent.strip())
    example = f'send one ETag as GET {request.script_root}/api/v1/games/{game_id} gave it, such as "{game_id}.3", or *'
    if tag is None:
        raise ApiError(400, "If-Match", f"is not an entity tag: {example}")
    if tag.group(1):
        raise ApiError(400, "If-Match", f"a weak ETag (W/) never matches, as If-Match compares strongly: {example}")
    found = re.fullmatch(re.escape(game_id) + r"\.([0-9]{1,18})", tag.group(2))
    if found is None:
        raise ApiError(400, "If-Match", f"is not an ETag of this game: {example}")
    return int(found.group(1))


def conditional(game_id: str, sent: int | None, write: Callable[[int | None], T]) -> T:
    """``write(base)``, based on the revision ``If-Match`` names or else the one the request
    ``sent`` (in its body, or ``?revision=``): the store checks it in the write transaction.
    A stale ``If-Match`` is a 412 (:class:`PreconditionFailed`); one disagreeing with ``sent`` a 400."""
    named = if_match(game_id)
    if named is None:
        return write(sent)
    if sent is not None and sent != named:
        raise ApiError(400, "If-Match", f"names revision {named}, but the request's revision is {sent}: "
                       "send one of them, or the same in both")
    try:
        return write(named)
    except Conflict as stale:
        raise PreconditionFailed(stale) from None


# -- writes made once: Idempotency-Key ----------------------------------------------------------

def idempotency_key() -> str | None:
    """The request's ``Idempotency-Key``: None without one; a 400 naming it unless it is 1 to
    :data:`MAX_IDEMPOTENCY_KEY` printable ASCII characters."""
    sent = request.headers.get("Idempotency-Key")
    if sent is None:
        return None
    if not keyed_writes.is_key(sent):
        raise ApiError(400, "Idempotency-Key", f"must be 1 to {MAX_IDEMPOTENCY_KEY} printable ASCII characters, "
                       "such as a UUID: a new one for each new request")
    return sent


def request_digest() -> str:
    """The request in a digest: its method, path and JSON body (keys sorted, so their order
    does not count)."""
    return keyed_writes.digest_of([request.method, request.path, request.get_json(silent=True)], compact=True)


def client_scope(game_id: str) -> str:
    """Whose the request's ``Idempotency-Key`` is (:class:`scorepad.storage.idempotency.Once`'s
    ``client``), so that one client's key never answers another's request. A write to a
    game: a digest of the edit key it sends (:func:`scorepad.storage.reading.key_digest`), so
    a key replaced since answers nothing. A new game (create, import): a digest of this
    browser's own id when its session holds one (:func:`scorepad.access.session_client`, given
    with the page before any write, never during one), else of the client's address (the
    one the rate limits count by: behind a proxy, as ``PROXIES`` reads it); HMAC-SHA256
    under ``SECRET_KEY``, so no address is kept."""
    if game_id:
        return reading.key_digest(bearer_key() or "")
    token = session_client()
    said = f"session {token}" if token else f"address {get_remote_address()}"
    secret = current_app.secret_key or ""
    digest = hmac.new(secret.encode() if isinstance(secret, str) else bytes(secret), said.encode(), hashlib.sha256)
    return f"{said.split(' ', 1)[0]} {digest.hexdigest()}"


def write_once(write: Callable[[idempotency.Once[T] | None], T],
               answer: Callable[[T | idempotency.Made], tuple[int, dict[str, JSON]]],
               headers: Callable[[dict[str, JSON]], dict[str, str]],
               reveal: Callable[[T | idempotency.Made, dict[str, JSON]], dict[str, JSON]] | None = None
               ) -> ResponseReturnValue:
    """The request's write, ``write(once)``, answered with ``answer(result)`` (its status and
    JSON body), ``reveal(result, body)`` when given (:func:`with_edit_key`) and ``headers(body)``.
    Without an ``Idempotency-Key``, ``once`` is None. With one, the write is made at most
    once per key, client (:func:`client_scope`), route and game
    (:func:`scorepad.storage.idempotency.once`): the same request sent again by the same
    client writes nothing and is answered from what the first one made (``answer`` is given
    that :class:`~scorepad.storage.idempotency.Made`), as the first was, with
    ``Idempotent-Replayed: true``; the key sent with another request is a 422, and while the
    first request with it is still being written here, a 409 (both naming the header). Only
    what the write made is kept with the key, never an answer, so never an edit key:
    ``reveal`` adds it to every answer sent, the first and each replay."""
    key = idempotency_key()
    if key is None:
        found: T | idempotency.Made = write(None)
    else:
        game_id = (request.view_args or {}).get("game_id", "")
        made = keyed_writes.make_once(game_id, key, request_digest(), client_scope(game_id), write)
        if made is idempotency.KeyTaken.REUSED:
            raise ApiError(422, "Idempotency-Key", "was sent before with another request (another body, method or "
                           "path): send a new key with each new request", problem="idempotency-key-reused")
        if made is idempotency.KeyTaken.IN_PROGRESS:
            raise ApiError(409, "Idempotency-Key", "the first request with this key is still being processed; "
                           "send it again in a moment for its answer", {"Retry-After": "1"},
                           problem="request-in-progress")
        found = made
    status, body = answer(found)
    body = reveal(found, body) if reveal else body
    response = jsonify(body)
    response.status_code = status
    response.headers.update(headers(body))
    if isinstance(found, idempotency.Made):
        response.headers["Idempotent-Replayed"] = "true"
    return response


def game(game_id: str) -> GameRecord:
    """The game ``game_id`` names; a 404 when there is none."""
    found = reading.load_game(game_id)
    if found is None:
        missing(game_id)
    return found


def missing(game_id: str) -> NoReturn:
    """There is no game ``game_id``: a 410 (``gone``) when it was deleted, else a 404."""
    deleted = reading.gone(game_id)
    if deleted is not None:
        raise deleted
    raise ApiError(404, None, "there is no game with this id")


def query_revision() -> int | None:
    """The revision a write without a body is based on: ``?revision=``, when given."""
    text = request.args.get("revision")
    if text is None:
        return None
    if not text.isascii() or not text.isdigit() or len(text) > 18:
        raise ApiError(400, "revision", f"must be the game's revision, a whole number, not {text[:20]!r}")
    return int(text)


def editable(game_id: str) -> GameRecord:
    """The game, when the request carries its edit key; otherwise a 404 (no such game), a 401
    (no key: ask for one) or a 403 (a key, but not this game's), each with the
    ``WWW-Authenticate`` challenge RFC 6750 gives it."""
    found = game(game_id)
    key = bearer_key()
    if key is None:
        raise ApiError(401, None, "changing a game needs its edit key: send 'Authorization: Bearer <edit_key>'",
                       {"WWW-Authenticate": 'Bearer realm="scorepad"'})
    if not key_matches(found, key):
        replaced = reading.replaced_at(found.id, key)
        if replaced is not None:
            raise replaced_key(found, replaced)
        raise ApiError(403, None, "that is not this game's edit key; the view link cannot change the game",
                       {"WWW-Authenticate": 'Bearer error="insufficient_scope"'})
    return found


def replaced_key(found: GameRecord, replaced: str) -> ApiError:
    """The refusal of an edit key the game no longer has (:func:`scorepad.storage.writing.replace_edit_key`):
    a 401 (RFC 6750's revoked token) saying when, with the view link, which still shows the game."""
    return ApiError(401, None, f"this edit key was replaced at {replaced} and can no longer change the game: "
                    "ask whoever keeps the score for the new edit link; the view link (view_url) still shows "
                    "the game", {"WWW-Authenticate": 'Bearer realm="scorepad", error="invalid_token", '
                                 'error_description="the edit key was replaced"'},
                    problem="edit-key-replaced", view_url=view_url(found))


# -- links ---------------------------------------------------------------------------------------

_ARG = re.compile(r"<(?:[^:<>]+:)?([^<>]+)>")
PAGE_ROUTES = "scorepad.page_routes"  # where page_url keeps the app's page routes by shape (app.extensions)


def page_routes(rules: Iterable[Rule]) -> dict[tuple[str, int], tuple[str, list[str]]]:
    """The GET routes by shape and number of values (``("/games/{}", 1)``): the first of
    each shape's endpoint and the names of its values, in the order they come."""
    routes: dict[tuple[str, int], tuple[str, list[str]]] = {}
    for rule in rules:
        names = _ARG.findall(rule.rule)
        if "GET" in (rule.methods or ()):
            routes.setdefault((_ARG.sub("{}", rule.rule).rstrip("/"), len(names)), (rule.endpoint, names))
    return routes


def page_url(shape: str, *values: str) -> str:
    """The absolute URL of a page route shaped like ``shape`` (``/games/{}``), from the app's
    routes when the pages blueprint has one, else built from the site's root. The routes are
    read once per app, by its first request's link (Flask takes no route after one)."""
    routes = current_app.extensions.get(PAGE_ROUTES)
    if routes is None:
        routes = current_app.extensions[PAGE_ROUTES] = page_routes(current_app.url_map.iter_rules())
    found = routes.get((shape, len(values)))
    if found is not None:
        endpoint, names = found
        return links.external_url(endpoint, **dict(zip(names, values, strict=True)))
    return links.absolute(request.script_root + shape.format(*values))


def view_url(found: GameRecord) -> str:
    """The absolute URL of the game's page, the view link."""
    return page_url("/games/{}", found.id)


def game_answer(found: GameRecord | idempotency.Made) -> dict[str, JSON]:
    """What a new game's creator, or whoever replaced its edit key, is answered, the game as
    the write left it (or as the first request with the ``Idempotency-Key`` made it): its
    id, view and API links and revision, without the edit key (:func:`with_edit_key` adds it
    to what is sent)."""
    game_id = found.game_id if isinstance(found, idempotency.Made) else found.id
    return {"id": game_id, "view_url": page_url("/games/{}", game_id),
            "api_url": links.external_url("api.get_game", game_id=game_id), "revision": found.revision}


def new_game(found: GameRecord | idempotency.Made) -> tuple[int, dict[str, JSON]]:
    """The answer to a new game, created or imported: 201 and :func:`game_answer`."""
    return 201, game_answer(found)


def with_edit_key(made: GameRecord | idempotency.Made, body: dict[str, JSON]) -> dict[str, JSON]:
    """``body`` (:func:`game_answer`) with the game's edit key as it is now and the edit
    link holding it: the first answer, or a replay to the client that sent the request (its
    ``Idempotency-Key`` is scoped to that client). A replay is only found until the game's
    key is next replaced (which forgets every key kept for the game before it), so it never
    hands out a key made after the request it replays. A replay reads the game again; the
    first answer is given the key its write (``made``) just gave the game, unread, when no one
    else can have replaced it since: no one but this answer's client holds that key yet, and
    only a game that is a club night's table has another (its organiser's)."""
    found = made if isinstance(made, GameRecord) and made.event_id is None else game(str(body["id"]))
    return {**body, "edit_url": page_url("/games/{}/edit/{}", found.id, found.edit_key), "edit_key": found.edit_key}


def new_game_headers(body: dict[str, JSON]) -> dict[str, str]:
    """Where the new game of ``body`` is (absolute, as its ``api_url``), its ETag, and no-store:
    the body holds the edit key."""
    return {"Location": str(body["api_url"]), "Cache-Control": "no-store", **revision_tag(str(body["id"]), body)}


def revision_tag(game_id: str, body: dict[str, JSON]) -> dict[str, str]:
    """The ``ETag`` of an answer that carries the game's ``revision`` (``"<id>.<revision>"``,
    as GET gives it), so that the next write's ``If-Match`` is the header just received;
    none for an answer without one."""
    revision = body.get("revision")
    return {"ETag": game_etag(game_id, revision)} if isinstance(revision, int) else {}


def game_etag(game_id: str, revision: int) -> str:
    """The game's entity tag at ``revision``, quoted: ``"<id>.<revision>"``."""
    return f'"{game_id}.{revision}"'
