"""The JSON API's open deals (issue 24): a deal entered part by part, by whichever phones
enter the parts (:mod:`scorepad.storage.open_deals`).

- ``PUT /games/<id>/deals/<n>/parts/<side>``: side ``<side>``'s part (its 1-based position;
  the body is the deal's side object, its ``name`` may be left out);
- ``PUT /games/<id>/deals/<n>/ending``: the ending (``ending``, ``went_out``, ``last_card``,
  ``permission``, ``first_meld``, and ``as_played`` and ``repeat`` for the whole deal);
- ``POST /games/<id>/deals/<n>/parts/<side>/confirmation``: a phone of another side confirms
  the part (``{"by_side": 2, "version": 1}``), on a game whose ``confirm`` is ``opponents``;
- ``GET /games/<id>/deals/<n>/open``: the open deal, each part with who entered it;
- ``DELETE /games/<id>/deals/<n>/open``: abandon it.

Each write needs the edit key, says whose phone sends it in ``Scorepad-Phone`` (a label,
not a permission) and takes an ``Idempotency-Key``. A part another phone entered is replaced
only with ``If-Match: "part-<version>"`` (409 ``part-entered`` otherwise, with the part as it
stands). The write that completes a clean deal answers 201 with its ``Location``, as a deal
sent whole; any other answers 200 with the open deal (and, when every part is in but the
deal has problems, those problems).
"""

from __future__ import annotations

import re
from urllib.parse import unquote

from flask import Response, jsonify, request
from flask.typing import ResponseReturnValue

from ..access import bearer_key
from ..rules.read import JSON
from ..storage import idempotency, open_deals
from ..storage.errors import DealOpen, Invalid, NotNext, PartEntered, SameAsPrevious
from ..storage.idempotency import Kind, Once
from ..storage.open_deals import OpenDeal
from ..storage.parts import OpenPart
from ..storage.reading import DealRecord
from . import http, problems
from .blueprint import bp
from .errors import error_kind
from .games import as_recorded, saved_body, saved_headers
from .http import ApiError

PHONE_HEADER = "Scorepad-Phone"
SIDE_FIELDS = ("name", "melds", "books", "meld_points", "red_threes", "players", "opening", "failed_takes")
ENDING_FIELDS = ("ending", "went_out", "last_card", "permission", "first_meld", "as_played", "repeat")

# -- answers ------------------------------------------------------------------------------------


def part_json(part: OpenPart, names: tuple[str, ...]) -> dict[str, JSON]:
    """One part as the API shows it: its name (a side's position, or ``ending``), the side's
    position and name, its body, who entered it and when, its version (and the If-Match that
    replaces it), who confirmed it and when."""
    position = part.position
    return {"part": part.part, "side": position, "name": names[position - 1] if position else None,
            "body": part.body(), "entered_by": part.phone, "at": part.entered_at, "version": part.version,
            "if_match": f'"part-{part.version}"', "confirmed_by": part.confirmed_by,
            "confirmed_at": part.confirmed_at}


def open_json(opened: OpenDeal) -> dict[str, JSON]:
    """The open deal: its number, the game's ``confirm`` setting, the open ``counter``, each
    part, the parts ``missing`` and ``unconfirmed``, whether it is ``complete``, and, when it
    is complete but was not written, ``problems`` (each with its side), ``may_save_as_played``
    and the ``report`` (null otherwise)."""
    refused = opened.refused
    problems_json: JSON = None
    report: JSON = None
    may: JSON = None
    if isinstance(refused, SameAsPrevious):
        problems_json = [{**refused.problem.to_json(), "never_as_played": False}]
        report, may = refused.verdict.to_json(), False
    elif refused is not None:
        never = set(refused.never_as_played)
        problems_json = [{**p.to_json(), "never_as_played": p in never} for p in refused.problems]
        report, may = refused.verdict.to_json(), refused.may_save_as_played
    return {"number": opened.number, "confirm": opened.confirm.value, "counter": opened.counter,
            "sides": list(opened.side_names), "parts": [part_json(p, opened.side_names) for p in opened.parts],
            "missing": list(opened.missing), "unconfirmed": list(opened.unconfirmed),
            "complete": opened.complete, "problems": problems_json, "may_save_as_played": may, "report": report}


def _answer(game_id: str, found: OpenDeal | DealRecord | idempotency.Made) -> tuple[int, dict[str, JSON]]:
    """201 and the deal recorded (a deal completed clean), else 200 and the open deal; a replay
    answers what the first request made: the deal it recorded, or the open deal as it stands."""
    if isinstance(found, idempotency.Made) and found.kind is not Kind.DEAL_RECORDED:
        number = found.deal
        try:
            found = open_deals.read_open(game_id, number)
        except NotNext:  # completed since: the deal as recorded
            record = http.game(game_id).deal(number or 0)
            if record is None:
                raise
            return 201, saved_body(record)
    if isinstance(found, OpenDeal):
        return 200, open_json(found)
    return 201, saved_body(as_recorded(found))


def _headers(game_id: str, body: dict[str, JSON]) -> dict[str, str]:
    return {} if "parts" in body else saved_headers(game_id, body)  # an open deal, or the deal recorded


# -- reading requests ---------------------------------------------------------------------------


def phone() -> str:
    """Whose phone sends the request: its ``Scorepad-Phone`` label (required on every write)."""
    sent = request.headers.get(PHONE_HEADER)
    if sent is None:
        raise ApiError(400, PHONE_HEADER, "say whose phone this is, such as Scorepad-Phone: Dan's phone (a label "
                       "shown with the part, not a permission)")
    try:
        return open_deals.read_phone_label(_header_text(sent))
    except Invalid as err:
        raise ApiError(400, PHONE_HEADER, err.message) from None


def _header_text(sent: str) -> str:
    """A header's text as the phone meant it: sent as UTF-8 bytes (which arrive read as Latin-1)
    or percent-encoded (``Zo%C3%AB's phone``), it reads "Zoë's phone"."""
    try:
        sent = sent.encode("latin-1").decode("utf-8")
    except UnicodeError:
        pass  # not UTF-8 bytes: Latin-1 it is
    try:
        return unquote(sent, errors="strict")
    except UnicodeError:
        raise ApiError(400, PHONE_HEADER, "percent-encode the label as UTF-8 (Zo%C3%AB's phone), or send "
                       "it as UTF-8") from None


_PART_TAG = re.compile(r'"part-([0-9]{1,9})"')


def replaces() -> int | None:
    """The version of the part a save replaces: ``If-Match: "part-<version>"``, or None."""
    sent = request.headers.get("If-Match")
    if sent is None:
        return None
    found = _PART_TAG.fullmatch(sent.strip())
    if found is None:
        raise ApiError(400, "If-Match", 'must name the version of the part this replaces, such as "part-2", as '
                       "GET .../open gives it (if_match)")
    return int(found.group(1))


# -- routes -------------------------------------------------------------------------------------


@bp.put("/games/<game_id>/deals/<int:number>/parts/<int:side>")
def save_part(game_id: str, number: int, side: int) -> ResponseReturnValue:
    """Side ``side``'s part of deal ``number``."""
    game = http.editable(game_id)
    data = http.body(SIDE_FIELDS)
    label, version = phone(), replaces()

    def write(once: Once[object] | None) -> OpenDeal | DealRecord:
        read = open_deals.read_side(game, side, data)
        return open_deals.save_side(game_id, number, side, read, label, version, once, bearer_key())

    return http.write_once(write, lambda found: _answer(game_id, found), lambda body: _headers(game_id, body))


@bp.put("/games/<game_id>/deals/<int:number>/ending")
def save_ending(game_id: str, number: int) -> ResponseReturnValue:
    """The ending of deal ``number``."""
    game = http.editable(game_id)
    data = http.body(ENDING_FIELDS)
    label, version = phone(), replaces()

    def write(once: Once[object] | None) -> OpenDeal | DealRecord:
        read = open_deals.read_ending(game, data)
        return open_deals.save_ending(game_id, number, read, label, version, once, bearer_key())

    return http.write_once(write, lambda found: _answer(game_id, found), lambda body: _headers(game_id, body))


@bp.post("/games/<game_id>/deals/<int:number>/parts/<int:side>/confirmation")
def confirm_part(game_id: str, number: int, side: int) -> ResponseReturnValue:
    """A phone of side ``by_side`` confirms side ``side``'s part at ``version``, having seen it."""
    http.editable(game_id)
    data = http.body(("by_side", "version"))
    label = phone()
    by_side, version = _whole(data.get("by_side"), "by_side"), _whole(data.get("version"), "version")

    def write(once: Once[object] | None) -> OpenDeal | DealRecord:
        return open_deals.confirm_part(game_id, number, side, label, by_side, version, once, bearer_key())

    return http.write_once(write, lambda found: _answer(game_id, found), lambda body: _headers(game_id, body))


def _whole(value: JSON, field: str) -> int:
    if value is None:
        raise ApiError(400, field, "is missing")
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 10**9:
        raise ApiError(400, field, f"must be a whole number from 1, not {value!r}")
    return value


@bp.get("/games/<game_id>/deals/<int:number>/open")
def get_open(game_id: str, number: int) -> ResponseReturnValue:
    """The open deal ``number`` (the game's next): each part, and who entered it."""
    http.game(game_id)
    response = jsonify(open_json(open_deals.read_open(game_id, number)))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.delete("/games/<game_id>/deals/<int:number>/open")
def abandon(game_id: str, number: int) -> ResponseReturnValue:
    """Abandon the open deal ``number``: its parts go, nothing is written of it."""
    http.editable(game_id)
    removed = open_deals.abandon(game_id, number, bearer_key())
    return jsonify(number=number, abandoned=removed)


# -- errors -------------------------------------------------------------------------------------


@bp.errorhandler(DealOpen)
def deal_open(err: DealOpen) -> Response:
    """A whole deal for a number being entered part by part (409): its number and how many parts are saved."""
    status, slug = error_kind(err)
    return problems.answer(status, err.message, err.field, slug, number=err.number, deal=err.number,
                           parts=err.parts)


@bp.errorhandler(NotNext)
def not_next(err: NotNext) -> Response:
    """A part of a deal that is not the next (409): the next deal's number, and whether this one is recorded."""
    status, slug = error_kind(err)
    return problems.answer(status, err.message, err.field, slug, next=err.next_number, recorded=err.recorded)


@bp.errorhandler(PartEntered)
def part_entered(err: PartEntered) -> Response:
    """A part another phone entered, not replaced (409): the part as it stands."""
    status, slug = error_kind(err)
    names = http.game(str((request.view_args or {}).get("game_id", ""))).side_names
    return problems.answer(status, err.message, "If-Match", slug, part=part_json(err.part, names))
