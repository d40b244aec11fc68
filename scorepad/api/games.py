"""The JSON API's games, deals, sheets and scoring (``/api/v1``): the same rules core and
the same store as the pages.

Every write goes through :mod:`scorepad.storage.writing` and needs the game's edit key as
``Authorization: Bearer <key>``. Every error has the one shape of the API (:mod:`scorepad.api`):
``field`` is a dotted path into the request body, or null when the error is not about one
field (a body that is not JSON, a missing key, an unknown game). A deal the referee rejects
is a 422 with the verdict and the problems besides the error. A write based on a revision
the game has moved past is a 409 with the game's ``revision`` now and the ``changes`` since;
a 412 when the revision came as the game's ETag in ``If-Match``. Creating a game, recording
a deal, replacing the edit key and ending or reopening a game take an ``Idempotency-Key``,
which makes them at most once for the client that sent it (:func:`.http.write_once`). An
answer that carries the game's revision sends its ETag (:func:`.http.revision_tag`), and a
``Location`` is absolute, as every ``*_url``. See ``docs/api.md``.

A game's JSON is built once per revision and kept in the app's cache (:mod:`scorepad.storage.cache`)
without its links: ``view_url`` is added as each response is written (:mod:`scorepad.links`).
"""

from __future__ import annotations

import dataclasses
import json

from flask import Response, jsonify, request, url_for
from flask.typing import ResponseReturnValue

from .. import builds, downloads, links
from ..access import bearer_key
from ..rules import PRESETS, Deal, Verdict, judge
from ..rules.catalogue import options_by_group
from ..rules.choices import Confirm
from ..rules.limits import MAX_GAME_PROBLEMS_LISTED, MAX_PROBLEMS_LISTED
from ..rules.read import JSON
from ..rules.sheet import Preset
from ..rules.views import DealRow
from ..storage import cache, checks, db, idempotency, reading, writing
from ..storage.errors import AlreadyRecorded, SameAsPrevious
from ..storage.idempotency import Once
from ..storage.reading import DealRecord, GameRecord
from . import http, problems
from .blueprint import bp
from .errors import error_kind
from .http import ApiError

# -- reading requests ---------------------------------------------------------------------------


def _as_played(value: JSON) -> JSON:  # the reason as sent: checks reads it, naming as_played.reason
    """The reason from ``{"reason": "..."}``; :func:`.checks.read_reason_field` reads the reason itself."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise ApiError(400, "as_played", 'must be an object such as {"reason": "we agreed to let it stand"}')
    for key in value:
        if key != "reason":
            raise ApiError(400, f"as_played.{key}", "is not a field here; expected reason")
    return value.get("reason", "")  # an empty reason is refused when read, naming as_played.reason


def _deal_body(*extra: str) -> tuple[dict[str, JSON], JSON, int | None, dict[str, JSON]]:
    """A game's deal from the body: the deal itself, the as-played reason, the revision, and
    the ``extra`` fields the route allows besides (``repeat``), as sent."""
    data = http.body(("number", "deal", "ending", "went_out", "sides", "last_card", "permission", "first_meld",
                      "as_played", "revision", "sheet", *extra))
    deal = {k: v for k, v in data.items() if k not in ("as_played", "revision", *extra)}
    return deal, _as_played(data.get("as_played")), http.revision(data.get("revision")), \
        {k: data[k] for k in extra if k in data}


def _repeat(value: JSON) -> bool:
    """``repeat``: true records a deal the same as the one before it (the table played it again)."""
    if value is None:
        return False
    if not isinstance(value, bool):
        raise ApiError(400, "repeat", "must be true (the table played the same deal again) or false")
    return value


def _deal_json(record: DealRecord | DealRow, history_size: int, most: int | None = None) -> dict[str, JSON]:
    """A recorded deal (the store's record or the view's row); with ``most``, its report lists
    at most that many problems (violations first, then warnings, then the rules not checked) and
    counts the rest in ``problems_omitted`` (0 when none is left out)."""
    return {"number": record.number, "deal": record.deal.to_json(with_sheet=False),
            "report": _report(record.verdict, most), "as_played": record.as_played, "history_size": history_size}


def _report(verdict: Verdict, most: int | None) -> dict[str, JSON]:
    """The verdict's JSON with ``problems_omitted``: every problem, or at most ``most`` (violations,
    then warnings, then the rules not checked)."""
    report = verdict.report
    everything = len(report.violations) + len(report.warnings) + len(report.not_checked)
    if most is None:
        most = everything
    violations = report.violations[:most]
    warnings = report.warnings[:most - len(violations)]
    unchecked = report.not_checked[:most - len(violations) - len(warnings)]
    omitted = everything - len(violations) - len(warnings) - len(unchecked)
    return {"ok": report.ok, "violations": [p.to_json() for p in violations],
            "warnings": [p.to_json() for p in warnings], "problems_omitted": omitted,
            "not_checked": [u.to_json() for u in unchecked],
            "sides": [side.to_json() for side in verdict.breakdown.sides]}


def game_json(game: GameRecord, with_links: bool = True) -> dict[str, object]:
    """Everything anyone with the view link may see; never the edit key. Each deal lists
    at most :data:`MAX_PROBLEMS_LISTED` problems, fewer when the game has more than 20
    deals (:data:`MAX_GAME_PROBLEMS_LISTED` in all); its own URL lists them all. The rows,
    totals, result, next deal and problems are the game's view (:attr:`GameRecord.view`)."""
    view = game.view
    most = min(MAX_PROBLEMS_LISTED, MAX_GAME_PROBLEMS_LISTED // max(1, len(view.rows)))
    return {
        "id": game.id,
        "name": game.name,
        **({"view_url": http.view_url(game)} if with_links else {}),
        "sheet": game.sheet.to_json(),
        "sheet_changes": [dataclasses.asdict(change) for change in game.sheet.changes()],
        "sides": game.sides,
        "confirm": game.confirm.value,
        "revision": game.revision,
        "created_at": game.created_at,
        "updated_at": game.updated_at,
        "deals": [_deal_json(row, record.history_size, most)
                  for row, record in zip(view.rows, game.deals, strict=True)],
        "running_totals": [{"number": row.number, "deal": row.number, "totals": row.running} for row in view.rows],
        "problems": [p.to_json() for p in view.problems],
        **view.result.to_json(),
        "next_deal": None if view.next_deal is None else view.next_deal.to_json(),
    }


def _game_url(game_id: str, *rest: object) -> str:
    return url_for("api.get_game", game_id=game_id) + "".join(f"/{part}" for part in rest)


# -- routes: no game ----------------------------------------------------------------------------


@bp.post("/score")
def score_deal() -> ResponseReturnValue:
    """Validate and score one deal under the sheet it names; nothing is saved."""
    data = http.body(("sheet", "number", "deal", "ending", "went_out", "sides", "last_card", "permission",
                      "first_meld"))
    return jsonify(judge(Deal.from_json(data)).to_json())


def _preset_json(preset: Preset) -> dict[str, JSON]:
    return {"id": preset.id, "title": preset.title, "source": preset.source.title, "source_url": preset.source.url,
            "preset_version": preset.version, "not_stated": dict(preset.not_stated),
            "house_rules": list(preset.sheet.house_rules), "group": preset.group}


@bp.get("/sheets")
def list_sheets() -> ResponseReturnValue:
    return jsonify(sheets=[_preset_json(p) for p in PRESETS.values()])


@bp.get("/sheets/<sheet_id>")
def get_sheet(sheet_id: str) -> ResponseReturnValue:
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
def create_game() -> ResponseReturnValue:
    data = http.body(("name", "sheet", "sides", "confirm"))
    for key in ("name", "sheet", "sides"):
        if key not in data:
            raise ApiError(400, key, "is missing")
    confirm = _confirm(data.get("confirm", "none"))

    def create(once: Once[GameRecord] | None) -> GameRecord:
        sheet = checks.read_sheet(data["sheet"])
        sides = checks.read_sides(data["sides"], sheet)  # first: a game named after its sides shows their own error
        return writing.create_game(checks.read_game_name(data["name"], "name"), sheet, sides, once, confirm)

    return http.write_once(create, http.new_game, http.new_game_headers, http.with_edit_key)


def _confirm(value: JSON) -> Confirm:
    """``confirm``: ``none`` (a side's part of a deal entered part by part is final as
    entered) or ``opponents`` (once a phone of another side confirms it)."""
    try:
        return Confirm(value)
    except ValueError:
        raise ApiError(400, "confirm", f"must be 'none' or 'opponents', not {value!r}") from None


@bp.get("/games/<game:game_id>")
def get_game(game_id: str) -> ResponseReturnValue:
    """The game. Its JSON depends only on the revision, so it is built once per revision
    (without its link, which each response adds) and sent with an ETag: a client that has
    it gets a 304."""
    game = http.game(game_id)
    key = ("game.json", db.path(), game.id, game.revision)
    kept = cache.current()
    body = kept.get(key)
    if body is None:
        body = jsonify(game_json(game, with_links=False)).get_data()
        kept.put(key, body)
    link = json.dumps({"view_url": http.view_url(game)}).encode()
    return downloads.per_revision(Response(link[:-1] + b", " + body.lstrip()[1:], mimetype="application/json"), game)


@bp.get("/games/<game_id>/revision")
def game_revision(game_id: str) -> ResponseReturnValue:
    """The game's revision, cheaply: what a watching phone polls to know when to reload; and
    ``open``, the counter of its open deal's changes (a part saved, confirmed or abandoned),
    which the revision does not count."""
    found = reading.moved(game_id)
    if found is None:
        http.missing(game_id)
    response = jsonify(id=game_id, revision=found.revision, updated_at=found.updated_at, open=found.open)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.delete("/games/<game:game_id>")
def delete_game(game_id: str) -> ResponseReturnValue:
    """Delete the game, for good: its deals, history and everything kept of it. Its links
    then answer 410 (``gone``). Based on ``?revision=`` or ``If-Match`` like other writes."""
    http.editable(game_id)
    at = http.conditional(game_id, http.query_revision(), lambda base: writing.delete_game(game_id, base, bearer_key()))
    return jsonify(deleted=game_id, deleted_at=at)


@bp.get("/games/<game_id>/history")
def game_history(game_id: str) -> ResponseReturnValue:
    """Every entry of the game's history: read from the database, and each amendment's sheets
    read, once per revision, in the build turn (:meth:`~scorepad.storage.cache.ByteCache.built`),
    and sent with an ETag, as the game is."""
    game = http.game(game_id)
    key = ("history.json", db.path(), game.id, game.revision)
    body = builds.built(key, lambda: jsonify(history=history_json(reading.history(game.id))).get_data())
    return downloads.per_revision(Response(body, mimetype="application/json"), game)


@bp.put("/games/<game_id>/sheet")
def amend_sheet(game_id: str) -> ResponseReturnValue:
    http.editable(game_id)
    data = http.body(("sheet", "reason", "revision"))
    if "sheet" not in data:
        raise ApiError(400, "sheet", "is missing: a preset id, or a sheet object")

    def amend(base: int | None) -> GameRecord:
        reason = checks.read_amend_reason(data.get("reason"))
        with checks.stale_first(game_id, base):
            sheet = checks.read_sheet(data["sheet"])
        return writing.amend_sheet(game_id, sheet, reason, base, bearer_key())

    game = http.conditional(game_id, http.revision(data.get("revision")), amend)
    return jsonify(game_json(game)), {"ETag": http.game_etag(game.id, game.revision)}


@bp.post("/games/<game_id>/edit-key")
def replace_edit_key(game_id: str) -> ResponseReturnValue:
    """A new edit key for the game; the one sent is refused from now on. With an
    ``Idempotency-Key``, a retry that sends the key just replaced is answered the game's key
    as it is now, as long as no later replacement forgot the answer (:func:`writing.replace_edit_key`):
    the key is scoped to the replaced key, so it answers whoever held that key, and no one else."""
    http.game(game_id)
    if request.get_data(cache=True).strip():
        http.body(())  # nothing to send: an empty body, or {}
    if bearer_key() is None:
        http.editable(game_id)  # the 401 asking for the key

    def write(once: idempotency.Once[GameRecord] | None) -> GameRecord:
        http.editable(game_id)  # not reached by a replay: the key it sent is replaced by now
        return writing.replace_edit_key(game_id, once, bearer_key())

    return http.write_once(write, lambda found: (200, http.game_answer(found)),
                           lambda body: {"Cache-Control": "no-store", **http.revision_tag(game_id, body)},
                           http.with_edit_key)


@bp.post("/games/<game_id>/end")
def end_game(game_id: str) -> ResponseReturnValue:
    """The table ends the game here (a game on an open sheet: ``game_length`` ``open``); from
    then on ``over`` is true and ``winner`` or ``tie`` says how it ended, and a new deal is a
    409 until it is reopened. Refused (409 ``no-room``) on a sheet that ends the game itself,
    and before any deal. Based on ``revision`` (body) or ``If-Match``; an ``Idempotency-Key``
    makes it once. Ending a game ended already changes nothing."""
    return _ending(game_id, True)


@bp.post("/games/<game_id>/reopen")
def reopen_game(game_id: str) -> ResponseReturnValue:
    """Undo the end of a game: it goes on, ``over`` false again, and its next deal may be recorded."""
    return _ending(game_id, False)


def _ending(game_id: str, ending: bool) -> ResponseReturnValue:
    http.editable(game_id)
    data = http.body(("revision",)) if request.get_data(cache=True).strip() else {}
    revision = http.revision(data.get("revision"))

    def write(once: Once[GameRecord] | None) -> GameRecord:
        made = writing.end_game if ending else writing.reopen_game
        return http.conditional(game_id, revision, lambda base: made(game_id, base, once, bearer_key()))

    return http.write_once(write, lambda found: (200, _ended_json(found)),
                           lambda body: http.revision_tag(game_id, body))


def _ended_json(found: GameRecord | idempotency.Made) -> dict[str, JSON]:
    """What ending or reopening answers: the game's id, revision, when the table ended it (or
    null), its result and next deal; for a replay, the game as it stands now."""
    game = http.game(found.game_id) if isinstance(found, idempotency.Made) else found
    view = game.view
    return {"id": game.id, "revision": game.revision, "ended_at": game.ended_at, **view.result.to_json(),
            "next_deal": None if view.next_deal is None else view.next_deal.to_json()}


# -- routes: deals ------------------------------------------------------------------------------


def saved_body(record: DealRecord) -> dict[str, JSON]:
    return {**_deal_json(record, record.history_size), "revision": record.revision}


def saved_headers(game_id: str, body: dict[str, JSON]) -> dict[str, str]:
    """A saved deal's answer's headers: where the deal is (absolute, as every ``*_url``) and the
    game's ETag after the write."""
    return {"Location": links.absolute(_game_url(game_id, "deals", body["number"])),
            **http.revision_tag(game_id, body)}


def _saved(game_id: str, record: DealRecord, status: int) -> ResponseReturnValue:
    body = saved_body(record)
    return jsonify(body), status, saved_headers(game_id, body)


@bp.post("/games/<game_id>/deals")
def record_deal(game_id: str) -> ResponseReturnValue:
    """The deal the body names (``deal``), else the next; never another number. Already recorded:
    a 409 deal-recorded with both deals; the same as the deal before it: a 422 same-as-previous,
    unless ``"repeat": true``."""
    game = http.editable(game_id)
    deal, as_played, revision, extra = _deal_body("repeat")
    repeat = _repeat(extra.get("repeat"))

    def record(once: Once[DealRecord] | None) -> DealRecord:
        def made(base: int | None) -> DealRecord:  # based on the revision sent
            reason = checks.read_reason_field(as_played)
            with checks.stale_first(game_id, base):
                read = checks.read_new_deal(game, deal)
            return writing.record_deal(game_id, read, reason, base, once=once, repeat=repeat, key=bearer_key(),
                                       named=checks.names_its_number(deal))
        return http.conditional(game_id, revision, made)

    return http.write_once(record, lambda saved: (201, saved_body(as_recorded(saved))),
                           lambda body: saved_headers(game_id, body))


def as_recorded(saved: DealRecord | idempotency.Made) -> DealRecord:
    """The deal a save recorded; for a replay, the deal as the first request recorded it
    (:func:`scorepad.storage.idempotency.deal_made`)."""
    if not isinstance(saved, idempotency.Made):
        return saved
    found = idempotency.deal_made(saved)
    if found is None:  # the game was deleted meanwhile (which forgets its keys)
        http.missing(saved.game_id)
    return found


def _deal_with_history(game_id: str, record: DealRecord) -> dict[str, object]:
    """A recorded deal as GET .../deals/<n> gives it: every problem, and its history."""
    return {**_deal_json(record, record.history_size),
            "history": history_json(reading.history(game_id, record.number))}


def history_json(entries: list[reading.Entry]) -> list[dict[str, JSON]]:
    """History entries as the API answers them: the deal's number is ``number`` and the game's id
    ``game``, as elsewhere; ``deal_number`` and ``game_id``, the old names, are kept (deprecated)."""
    return [{**entry, "number": entry["deal_number"], "game": entry["game_id"]} for entry in entries]


@bp.get("/games/<game_id>/deals/<int:number>")
def get_deal(game_id: str, number: int) -> ResponseReturnValue:
    record = http.game(game_id).deal(number)
    if record is None:
        raise ApiError(404, "deal", f"deal {number} is not recorded (its history, if any, is at "
                       f"{_game_url(game_id, 'history')})")
    return jsonify(_deal_with_history(game_id, record))


@bp.errorhandler(AlreadyRecorded)
def already_recorded(err: AlreadyRecorded) -> Response:
    """A new deal whose number another phone recorded first (409): that deal as GET gives it
    (``recorded``), the deal sent (``yours``), and the game's ``revision`` to correct it from."""
    game_id = (request.view_args or {}).get("game_id", "")
    recorded = DealRecord(err.number, err.recorded.deal, err.recorded_as_played, given=err.recorded)
    recorded.history_size = len(reading.history(game_id, err.number))
    yours = {"number": err.number, "deal": err.yours.deal.to_json(with_sheet=False),
             "report": _report(err.yours, None), "as_played": err.as_played}
    status, slug = error_kind(err)
    detail = (f"deal {err.number} is already recorded (another phone, or an earlier request, saved it), so this "
              "one was not saved: "
              f"`recorded` is the deal as saved, `yours` the one sent; to replace it with yours, PUT yours to "
              f"{_game_url(game_id, 'deals', err.number)} with revision {err.revision}")
    return problems.answer(status, detail, err.field, slug, recorded=_deal_with_history(game_id, recorded),
                           yours=yours, revision=err.revision)


@bp.errorhandler(SameAsPrevious)
def same_as_previous(err: SameAsPrevious) -> Response:
    """A new deal the same as the one recorded before it (422): the problem, in the shape of a
    rule violation's, the deal it repeats (``previous``) and the report on the deal sent."""
    status, slug = error_kind(err)
    detail = (f"deal {err.number} is the same as deal {err.previous} (every side and the ending) and was not "
              'saved; if the table really played the same deal again, send it again with "repeat": true')
    return problems.answer(status, detail, err.field, slug, previous=err.previous,
                           report=err.verdict.to_json(), problems=[{**err.problem.to_json(), "never_as_played": True}])


@bp.put("/games/<game_id>/deals/<int:number>")
def correct_deal(game_id: str, number: int) -> ResponseReturnValue:
    game = http.editable(game_id)
    deal, as_played, revision, _ = _deal_body()

    def correct(base: int | None) -> DealRecord:
        reason = checks.read_reason_field(as_played)
        with checks.stale_first(game_id, base):
            read = checks.read_correction(game, deal, number)
        return writing.update_deal(game_id, number, read, reason, base, key=bearer_key())

    record = http.conditional(game_id, revision, correct)
    return _saved(game_id, record, 200)


@bp.delete("/games/<game_id>/deals/<int:number>")
def delete_deal(game_id: str, number: int) -> ResponseReturnValue:
    http.editable(game_id)
    new_revision = http.conditional(game_id, http.query_revision(),
                                    lambda base: writing.delete_deal(game_id, number, base, bearer_key()))
    return jsonify(deleted=number, revision=new_revision), {"ETag": http.game_etag(game_id, new_revision)}
