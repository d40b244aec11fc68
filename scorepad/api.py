"""The JSON API, ``/api/v1``: the same rules core and the same store as the pages.

Every write goes through :mod:`scorepad.store` and needs the game's edit key as
``Authorization: Bearer <key>``. Every error has one shape::

    {"error": {"status": 400, "field": "sides[0].melds[1].naturals", "message": "..."}}

``field`` is a dotted path into the request body, or null when the error is not about one
field (a body that is not JSON, a missing key, an unknown game). A deal the referee rejects
is a 422 with the verdict and the problems besides the error. A write based on a revision
the game has moved past is a 409 with the game's ``revision`` now and the ``changes`` since.
See ``docs/api.md``.

A game's JSON is built once per revision and kept in the app's cache (:mod:`scorepad.cache`)
without its links: ``view_url`` is added as each response is written (:mod:`scorepad.links`).
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterable
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, url_for

from . import cache, db, links, store
from .access import bearer_key, key_matches
from .rules import PRESETS, Deal, ReadError, judge
from .rules.limits import MAX_DEPTH, MAX_GAME_ID, MAX_GAME_PROBLEMS_LISTED, MAX_NUMBER, MAX_PROBLEMS_LISTED
from .rules.sheet import options_by_group
from .store import Conflict, DealRecord, GameRecord, Rejected, StoreError

bp = Blueprint("api", __name__, url_prefix="/api/v1")


class ApiError(Exception):
    """A request the API refuses before it reaches the store."""

    def __init__(self, status: int, field: str | None, message: str) -> None:
        super().__init__(message)
        self.status, self.field, self.message = status, field, message


def error_body(status: int, field: str | None, message: str) -> dict[str, Any]:
    return {"error": {"status": status, "field": field or None, "message": message}}


@bp.errorhandler(ApiError)
@bp.errorhandler(StoreError)
def _refused(err: ApiError | StoreError) -> tuple[Response, int]:
    return jsonify(error_body(err.status, err.field, err.message)), err.status


@bp.errorhandler(Conflict)
def _conflict(err: Conflict) -> tuple[Response, int]:
    """A stale write (409): the error, the game's revision now, and every change since the
    revision the write was based on."""
    return jsonify({**error_body(409, err.field, err.message), "revision": err.revision,
                    "changes": err.changes}), 409


@bp.errorhandler(Rejected)
def _rejected(err: Rejected) -> tuple[Response, int]:
    """A deal not saved (422): the report, every problem (each saying whether it can
    ever be saved as played), and ``may_save_as_played`` for the deal as a whole."""
    n = len(err.problems)
    named = err.never_as_played or err.problems  # the first problem to correct
    first = named[0] if named else None
    message = (f"the deal breaks the rules in {n} place{'s' if n != 1 else ''} and was not saved: "
               f"{first.message if first else ''} Correct it, or save it as played with "
               '"as_played": {"reason": "..."}.')
    if first is not None and first.code.startswith(("game.", "deal.number")):
        message = f"the deal does not fit this game and was not saved: {first.message}"
    elif first is not None and not err.may_save_as_played:
        message = (f"the deal was not saved, and cannot be saved as played until this is corrected: "
                   f"{first.message}")
    body = error_body(422, first.where if first else None, message)
    body["report"] = err.verdict.to_json()
    body["may_save_as_played"] = err.may_save_as_played
    never = set(err.never_as_played)
    body["problems"] = [{**p.to_json(), "never_as_played": p in never} for p in err.problems]
    return jsonify(body), 422


# -- reading requests ---------------------------------------------------------------------------


def _body(allowed: Iterable[str]) -> dict[str, Any]:
    """The request's JSON object, holding only ``allowed`` keys; a 400 naming what is wrong."""
    raw = request.get_data(cache=True)
    if not raw.strip():
        raise ApiError(400, None, "the body is empty: send a JSON object")
    if not request.is_json:
        raise ApiError(400, None, "send the body as JSON, with the header Content-Type: application/json")
    try:
        data = request.get_json(silent=True)
        if data is None:
            data = json.loads(raw)  # either valid JSON null, or this says why it is not JSON
    except RecursionError:
        raise ApiError(400, None, "the body is nested too deeply") from None
    except ValueError as err:
        where = f" at line {err.lineno}, column {err.colno}" if isinstance(err, json.JSONDecodeError) else ""
        reason = err.msg if isinstance(err, json.JSONDecodeError) else "it is not UTF-8 text"
        raise ApiError(400, None, f"the body is not valid JSON: {reason}{where}") from None
    if not isinstance(data, dict):
        raise ApiError(400, None, f"the body must be a JSON object, not {_json_kind(data)}")
    _check_values(data)
    allowed = tuple(allowed)
    for key in data:
        if key not in allowed:
            raise ApiError(400, key, f"is not a field here; expected {', '.join(allowed)}")
    return data


def _json_kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "a list"


def _check_values(data: Any) -> None:
    """Refuse bodies no deal or sheet needs: nesting past :data:`MAX_DEPTH`, and numbers
    past :data:`MAX_NUMBER` (a count that large could only break scoring, never be real)."""
    if _values_fit(data):
        return
    stack: list[tuple[Any, str, int]] = [(data, "", 1)]
    while stack:
        value, where, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ApiError(400, None, f"the body is nested more than {MAX_DEPTH} levels deep")
        if isinstance(value, dict):
            stack.extend((v, f"{where}.{k}" if where else str(k), depth + 1) for k, v in reversed(value.items()))
        elif isinstance(value, list):
            stack.extend((v, f"{where}[{i}]", depth + 1) for i, v in reversed(list(enumerate(value))))
        elif isinstance(value, (int, float)) and not isinstance(value, bool) and not abs(value) <= MAX_NUMBER:
            raise ApiError(400, where or None, f"is out of range: numbers here are at most {MAX_NUMBER:,}")


def _values_fit(data: Any) -> bool:
    """Whether :func:`_check_values` would pass ``data``, found level by level without
    writing any value's path: a large body (an import) holds a hundred thousand values."""
    level, depth = [data], 1
    while level:
        if depth > MAX_DEPTH:
            return False
        below: list[Any] = []
        for value in level:
            kind = type(value)
            if kind is dict:
                below.extend(value.values())
            elif kind is list:
                below.extend(value)
            elif (kind is int or kind is float) and not -MAX_NUMBER <= value <= MAX_NUMBER:
                return False
            elif kind not in _PLAIN:
                return False  # not what JSON decodes to: let the full check judge it
        level, depth = below, depth + 1
    return True


_PLAIN = frozenset((dict, list, str, int, float, bool, type(None)))


def _revision(value: Any, field: str = "revision") -> int | None:
    """The revision a change is based on, when the client gives one."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ApiError(400, field, f"must be the game's revision, a whole number, not {value!r}")
    return value


def _as_played(value: Any) -> str | None:
    """The reason from ``{"reason": "..."}``; the store checks the reason itself."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise ApiError(400, "as_played", 'must be an object such as {"reason": "we agreed to let it stand"}')
    for key in value:
        if key != "reason":
            raise ApiError(400, f"as_played.{key}", "is not a field here; expected reason")
    return value.get("reason", "")  # an empty reason is refused by the store, naming as_played.reason


def _deal_body() -> tuple[dict[str, Any], str | None, int | None]:
    """A game's deal from the body: the deal itself, the as-played reason, the revision."""
    data = _body(("deal", "ending", "went_out", "sides", "as_played", "revision", "sheet"))
    deal = {k: v for k, v in data.items() if k not in ("as_played", "revision")}
    return deal, _as_played(data.get("as_played")), _revision(data.get("revision"))


def _game(game_id: str) -> GameRecord:
    game = store.load_game(game_id)
    if game is None:
        raise ApiError(404, None, "there is no game with this id")
    return game


def _editable(game_id: str) -> GameRecord:
    """The game, when the request carries its edit key; 404 or 403 otherwise."""
    game = _game(game_id)
    key = bearer_key()
    if key is None:
        raise ApiError(403, None, "changing a game needs its edit key: send 'Authorization: Bearer <edit_key>'")
    if not key_matches(game, key):
        raise ApiError(403, None, "that is not this game's edit key; the view link cannot change the game")
    return game


# -- writing responses ---------------------------------------------------------------------------

_ARG = re.compile(r"<(?:[^:<>]+:)?([^<>]+)>")


def _page_url(shape: str, *values: str) -> str:
    """The absolute URL of a page route shaped like ``shape`` (``/games/{}``), from the app's
    routes when the pages blueprint has one, else built from the site's root."""
    for rule in current_app.url_map.iter_rules():
        names = _ARG.findall(rule.rule)
        if "GET" in (rule.methods or ()) and len(names) == len(values) \
                and _ARG.sub("{}", rule.rule).rstrip("/") == shape:
            return links.external_url(rule.endpoint, **dict(zip(names, values, strict=True)))
    return links.absolute(request.script_root + shape.format(*values))


def _view_url(game: GameRecord) -> str:
    return _page_url("/games/{}", game.id)


def game_links(game: GameRecord) -> dict[str, str]:
    """The links a new game's creator gets: view, edit (with the key) and its API URL."""
    return {"view_url": _view_url(game), "edit_url": _page_url("/games/{}/edit/{}", game.id, game.edit_key),
            "api_url": links.external_url("api.get_game", game_id=game.id)}


def _deal_json(record: DealRecord, most: int | None = None) -> dict[str, Any]:
    """A recorded deal; with ``most``, its report lists at most that many problems
    (violations first, then warnings) and counts the rest in ``problems_omitted``."""
    report = record.verdict.report
    short = most is not None and len(report.violations) + len(report.warnings) > most
    return {"number": record.number, "deal": record.deal.to_json(with_sheet=False),
            "report": _short_report(record, most) if short else record.verdict.to_json(),  # type: ignore[arg-type]
            "as_played": record.as_played, "history_size": record.history_size}


def _short_report(record: DealRecord, most: int) -> dict[str, Any]:
    verdict = record.verdict
    violations = verdict.report.violations[:most]
    warnings = verdict.report.warnings[:most - len(violations)]
    omitted = len(verdict.report.violations) + len(verdict.report.warnings) - len(violations) - len(warnings)
    return {"ok": verdict.report.ok, "violations": [p.to_json() for p in violations],
            "warnings": [p.to_json() for p in warnings], "problems_omitted": omitted,
            "sides": [side.to_json() for side in verdict.breakdown.sides]}


def _next_deal(game: GameRecord) -> dict[str, Any] | None:
    upcoming = game.game.upcoming()
    return None if upcoming is None else upcoming.to_json()


def game_json(game: GameRecord, with_links: bool = True) -> dict[str, Any]:
    """Everything anyone with the view link may see; never the edit key. Each deal lists
    at most :data:`MAX_PROBLEMS_LISTED` problems, fewer when the game has more than 20
    deals (:data:`MAX_GAME_PROBLEMS_LISTED` in all); its own URL lists them all."""
    played = game.game
    result = played.result()
    most = min(MAX_PROBLEMS_LISTED, MAX_GAME_PROBLEMS_LISTED // max(1, len(game.deals)))
    return {
        "id": game.id,
        "name": game.name,
        **({"view_url": _view_url(game)} if with_links else {}),
        "sheet": game.sheet.to_json(),
        "sheet_changes": [dataclasses.asdict(change) for change in game.sheet.changes()],
        "sides": game.sides,
        "revision": game.revision,
        "created_at": game.created_at,
        "updated_at": game.updated_at,
        "deals": [_deal_json(record, most) for record in game.deals],
        "running_totals": [{"deal": record.number, "totals": totals}
                           for record, totals in zip(game.deals, played.running_totals(), strict=True)],
        "problems": [p.to_json() for p in played.problems()],
        **result.to_json(),
        "next_deal": _next_deal(game),
    }


def _game_url(game_id: str, *rest: Any) -> str:
    return url_for("api.get_game", game_id=game_id) + "".join(f"/{part}" for part in rest)


# -- routes: no game ----------------------------------------------------------------------------


@bp.post("/score")
def score_deal():
    """Validate and score one deal under the sheet it names; nothing is saved."""
    data = _body(("sheet", "deal", "ending", "went_out", "sides"))
    try:
        deal = Deal.from_json(data)
    except ReadError as err:
        raise ApiError(400, err.field, err.reason) from None
    return jsonify(judge(deal).to_json())


def _preset_json(preset: Any) -> dict[str, Any]:
    return {"id": preset.id, "title": preset.title, "source": preset.source, "preset_version": preset.version,
            "not_stated": dict(preset.not_stated)}


@bp.get("/sheets")
def list_sheets():
    return jsonify(sheets=[_preset_json(p) for p in PRESETS.values()])


@bp.get("/sheets/<sheet_id>")
def get_sheet(sheet_id: str):
    found = PRESETS.get(sheet_id)
    if found is None:
        raise ApiError(404, None, f"{sheet_id!r} is not a preset; presets are {', '.join(sorted(PRESETS))}")
    sheet = found.sheet
    groups = []
    for group, title, options in options_by_group():
        groups.append({"id": group, "title": title, "options": [
            {"name": o.name, "label": o.label, "help": o.help, "value": o.write(getattr(sheet, o.name)),
             "words": sheet.describe(o.name), "not_stated": found.not_stated.get(o.name)}
            for o in options]})
    return jsonify(**_preset_json(found), sheet=sheet.to_json(full=True), groups=groups)


# -- routes: games --------------------------------------------------------------------------------


@bp.post("/games")
def create_game():
    data = _body(("name", "sheet", "sides"))
    for key in ("name", "sheet", "sides"):
        if key not in data:
            raise ApiError(400, key, "is missing")
    game = store.create_game(data["name"], data["sheet"], data["sides"])
    body = {"id": game.id, **game_links(game), "edit_key": game.edit_key, "revision": game.revision}
    return jsonify(body), 201, {"Location": _game_url(game.id), "Cache-Control": "no-store"}  # the edit key


@bp.get("/games/<game_id>")
def get_game(game_id: str):
    """The game. Its JSON depends only on the revision, so it is built once per revision
    (without its link, which each response adds) and sent with an ETag: a client that has
    it gets a 304."""
    game = _game(game_id)
    key = ("game.json", db.path(), game.id, game.revision)
    kept = cache.current()
    body = kept.get(key)
    if body is None:
        body = jsonify(game_json(game, with_links=False)).get_data()
        kept.put(key, body)
    link = json.dumps({"view_url": _view_url(game)}).encode()
    response = Response(link[:-1] + b", " + body.lstrip()[1:], mimetype="application/json")
    response.set_etag(f"{game.id}.{game.revision}")
    response.headers["Cache-Control"] = "no-cache"
    return response.make_conditional(request)


@bp.get("/games/<game_id>/revision")
def game_revision(game_id: str):
    """The game's revision, cheaply: what a watching phone polls to know when to reload."""
    found = store.revision(game_id) if len(game_id) <= MAX_GAME_ID else None
    if found is None:
        raise ApiError(404, None, "there is no game with this id")
    response = jsonify(id=game_id, revision=found[0], updated_at=found[1])
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/games/<game_id>/history")
def game_history(game_id: str):
    _game(game_id)
    return jsonify(history=store.history(game_id))


@bp.put("/games/<game_id>/sheet")
def amend_sheet(game_id: str):
    _editable(game_id)
    data = _body(("sheet", "reason", "revision"))
    if "sheet" not in data:
        raise ApiError(400, "sheet", "is missing: a preset id, or a sheet object")
    game = store.amend_sheet(game_id, data["sheet"], data.get("reason"), _revision(data.get("revision")))
    return jsonify(game_json(game))


# -- routes: deals ------------------------------------------------------------------------------


def _saved(game_id: str, record: DealRecord, status: int):
    body = {**_deal_json(record), "revision": record.revision}
    return jsonify(body), status, {"Location": _game_url(game_id, "deals", record.number)}


@bp.post("/games/<game_id>/deals")
def record_deal(game_id: str):
    _editable(game_id)
    deal, as_played, revision = _deal_body()
    return _saved(game_id, store.record_deal(game_id, deal, as_played, revision), 201)


@bp.get("/games/<game_id>/deals/<int:number>")
def get_deal(game_id: str, number: int):
    record = _game(game_id).deal(number)
    if record is None:
        raise ApiError(404, None, f"deal {number} is not recorded (its history, if any, is at "
                       f"{_game_url(game_id, 'history')})")
    return jsonify(**_deal_json(record), history=store.history(game_id, number))


@bp.put("/games/<game_id>/deals/<int:number>")
def correct_deal(game_id: str, number: int):
    _editable(game_id)
    deal, as_played, revision = _deal_body()
    return _saved(game_id, store.update_deal(game_id, number, deal, as_played, revision), 200)


@bp.delete("/games/<game_id>/deals/<int:number>")
def delete_deal(game_id: str, number: int):
    _editable(game_id)
    revision = None
    text = request.args.get("revision")
    if text is not None:
        if not text.isascii() or not text.isdigit() or len(text) > 18:
            raise ApiError(400, "revision", f"must be the game's revision, a whole number, not {text[:20]!r}")
        revision = int(text)
    new_revision = store.delete_deal(game_id, number, revision)
    return jsonify(deleted=number, revision=new_revision)
