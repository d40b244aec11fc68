"""The referee's JSON routes, ``/api/v1/referee``: questions answered, scores explained, sheets compared.

Four questions (is this meld legal, may we go out, may I take the pile, do these first
melds meet the minimum, read by :mod:`scorepad.rules.questions`), each answered as
:meth:`Ruling.to_json` of the rules core (every reason also carries its option's
``label``); a deal's score explained line by line; a deal or a game rescored under another
sheet; two sheets compared. Nothing here writes. Errors have the one shape of the API
(:mod:`scorepad.api`). See ``docs/api.md``, section "Referee".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from flask import Response, jsonify, request

from .. import builds
from ..rules import Deal, ReadError, judge
from ..rules.dispute import compare_sheets, problem_json, rescore_deal, rescore_game, rescore_game_deal, sheet_digest
from ..rules.limits import MAX_DEALS
from ..rules.questions import QUESTIONS, Context, blank, read_int, read_sheet
from ..rules.read import JSON
from ..storage import db
from ..storage.document import read_game
from . import http, names
from .blueprint import bp
from .http import ApiError

T = TypeVar("T")

# -- sheets and games from requests ----------------------------------------------------------------


def _question(name: str) -> Response:
    ask, fields = QUESTIONS[name]
    data = http.body(("sheet", "game", *fields, *(("number",) if "deal" in fields else ())))
    data = names.read_number(data)  # a question's deal number: number, or deal (its old spelling)
    if "sheet" in data and "game" in data:
        raise ApiError(400, "game", "give the sheet, or the game whose sheet to use, not both")
    if "game" in data:
        if not isinstance(data["game"], str) or not data["game"].strip():
            raise ApiError(400, "game", "must be a game's id")
        game = http.game(data["game"].strip())
        sheet, context = game.sheet, Context(game)
    else:
        sheet, context = read_sheet(data.get("sheet")), Context()
    answer = ask(sheet, data, False, context)
    return jsonify(answer.to_json(sheet))


@bp.post("/referee/meld")
def meld() -> Response:
    return _question("meld")


@bp.post("/referee/go-out")
def go_out() -> Response:
    return _question("go-out")


@bp.post("/referee/pile")
def pile() -> Response:
    return _question("pile")


@bp.post("/referee/minimum")
def minimum() -> Response:
    return _question("minimum")


# -- explaining, rescoring, comparing ----------------------------------------------------------


def explain_json(deal: Deal) -> dict[str, JSON]:
    """A deal's score, each line with the option behind it, and every problem, each in the sheet's words."""
    verdict = judge(deal)
    sheet = deal.sheet
    sides: list[JSON] = []
    for side in verdict.breakdown.sides:
        lines: list[JSON] = []
        for line in side.lines:
            cited = sheet.cite(line.option)
            lines.append({**line.to_json(), "rule": cited.label if cited else None,
                          "sheet_says": cited.words if cited else None})
        sides.append({"name": side.name, "total": side.total, "lines": lines})
    return {"deal": deal.number, "ok": verdict.ok, "sides": sides,
            "violations": [problem_json(p, sheet) for p in verdict.report.violations],
            "warnings": [problem_json(p, sheet) for p in verdict.report.warnings],
            "not_checked": [u.to_json() for u in verdict.report.not_checked]}


@bp.post("/referee/explain")
def explain() -> Response:
    data = http.body(("deal",))
    if "deal" not in data:
        raise ApiError(400, "deal", "is missing: a deal with its sheet, as for /api/v1/score")
    deal = _within("deal", lambda: Deal.from_json(data["deal"]))
    return jsonify(explain_json(deal))


@bp.get("/referee/games/<game_id>/deals/<int:number>/explain")
def explain_recorded(game_id: str, number: int) -> Response:
    record = http.game(game_id).deal(number)
    if record is None:
        raise ApiError(404, "deal", f"deal {number} is not recorded")
    return jsonify(explain_json(record.deal))


def _within(prefix: str, fn: Callable[[], T]) -> T:
    """``fn()``, its :class:`ReadError` placed under ``prefix`` (the part of the body it read):
    caught here to add that context, then answered as every other (:func:`.errors.unreadable`)."""
    try:
        return fn()
    except ReadError as err:
        raise err.within(prefix) from None


@bp.post("/referee/rescore")
def rescore() -> Response:
    data = http.body(("sheet", "deal", "game"))
    if ("deal" in data) == ("game" in data):
        raise ApiError(400, "deal", "give a deal (with its own sheet) or a game, one of them")
    other = read_sheet(data.get("sheet"))
    if "deal" in data:
        deal = _within("deal", lambda: Deal.from_json(data["deal"]))
        return jsonify(rescore_deal(deal, other).to_json())
    game = _within("game", lambda: read_game(data["game"]))  # a game file or an export
    return jsonify(rescore_game(game, other).to_json())


@bp.get("/referee/games/<game_id>/rescore")
def rescore_recorded(game_id: str) -> Response:
    """The game (or ``?deal=n``, one deal of it) under another sheet. Rescoring judges every
    deal again, so each answer is built in the build turn and kept for the game's revision
    and the question as read: the sheet's canonical form and the deal's number (any other
    field is ignored), so ``?sheet=pagat&deal=1&x=1`` is ``?deal=01&sheet=pagat``."""
    game = http.game(game_id)
    other = read_sheet(request.args.get("sheet"), "sheet", text=True)
    named = "number" if "number" in request.args else "deal"  # deal: the number's old name, still read
    number = request.args.get(named)
    n = None if blank(number) else read_int(number, named, 1, MAX_DEALS, forms=True)
    if n is not None and game.deal(n) is None:
        raise ApiError(404, "deal", f"deal {n} is not recorded")

    def build() -> bytes:
        if n is None:
            return jsonify(rescore_game(game.rules, other).to_json()).get_data()
        found = rescore_game_deal(game.rules, other, n)  # judged as a deal of the game, as the game judges it
        if found is None:
            raise ApiError(404, "deal", f"deal {n} is not recorded")
        return jsonify(found.to_json()).get_data()
    key = ("rescore.json", db.path(), game.id, game.revision, sheet_digest(other), n)
    return Response(builds.built(key, build), mimetype="application/json")


@bp.get("/referee/compare")
def compare() -> Response:
    a = read_sheet(request.args.get("a"), "a", text=True)
    b = read_sheet(request.args.get("b"), "b", text=True)
    return jsonify(compare_sheets(a, b).to_json())
