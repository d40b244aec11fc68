"""Taking games out and bringing them back: a game as a versioned JSON document, its score
table as CSV, and a consistent copy of the whole database.

**The document** (``format`` ``scorepad.game``, ``version`` 1) holds everything anyone with
the view link may see, and never the edit key::

    {"format": "scorepad.game", "version": 1, "name": "Friday",
     "sheet": {"preset": "common", "preset_version": 1}, # the game's frozen sheet: preset + changes
     "sides": [{"name": "Ann", "players": ["Ann"]}, ...],
     "created_at": "...", "exported_at": "...",
     "deals": [{"number": 1, "deal": {...},             # canonical, without a sheet
                "as_played": "reason" or null,
                "history": [{"seq", "action", "at", "before", "after", "old_totals", "new_totals", "reason"}]}],
     "deleted_deals": [{"number": 4, "history": [...]}], # deals deleted and not recorded again
     "amendments": [{"seq", "at", "before", "after", "reason"}]}

``seq`` is the entry's place in the game's whole history (1, 2, ...), so deals' histories
and amendments interleave again as they happened. An import makes a NEW game (new id and
key) with the same deals, history and amendments, and one more history entry (``import``)
saying when it came in; exports leave ``import`` entries out, so export, import and export
again give the same document but for ``exported_at``.

An import is read and judged by the rules core: the sheet by ``load_sheet`` as stored data
(an option an older export lacks takes its default; a sheet without ``preset_version``
was made before presets had versions, from version 1), the sides as
a new game's, each deal by ``Deal.from_json`` under the game's sheet and sides. A deal
with violations needs its ``as_played`` reason, unless it was legal under the sheet in
force when it was saved (a later amendment made it illegal); otherwise the import is
refused with a 422 naming the deal. Anything unreadable is a 400 naming the field.

**Backup**: ``flask --app scorepad backup PATH`` copies the database with SQLite's online
backup API, in one step (one read transaction, so one consistent moment) while the server
keeps writing. It never writes over the database or the files SQLite keeps beside it, nor
over anything that is not a regular file.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import sqlite3
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import click
from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    current_app,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.cli import with_appcontext
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import TextAreaField

from .. import access, downloads
from ..api import games as api
from ..rules import Deal, Problem, ReadError, RuleSheet, Verdict, judge, load_sheet
from ..rules.limits import MAX_DEALS, MAX_GAME_ID, MAX_IMPORT_BYTES, MAX_POINTS, MAX_REASON
from ..rules.text import check_text, read_reason
from ..storage import db, store
from ..storage.store import GameRecord, StoreError

FORMAT = "scorepad.game"
VERSION = 1
DOCUMENT_KEYS = ("format", "version", "name", "sheet", "sides", "created_at", "exported_at", "deals",
                 "deleted_deals", "amendments")
DEAL_KEYS = ("number", "deal", "as_played", "history")
ENTRY_KEYS = ("seq", "action", "at", "before", "after", "old_totals", "new_totals", "reason")
AMENDMENT_KEYS = ("seq", "at", "before", "after", "reason")
DEAL_ACTIONS = ("record", "edit", "delete")

bp = Blueprint("exchange", __name__)
api_bp = Blueprint("exchange_api", __name__, url_prefix="/api/v1")


def init_app(app: Flask) -> None:
    """Register the pages, the JSON routes (exempt from CSRF, like the API) and ``flask backup``."""
    app.register_blueprint(bp)
    app.register_blueprint(api_bp)
    csrf = app.extensions.get("csrf")
    if csrf is not None:
        csrf.exempt(api_bp)
    app.cli.add_command(backup_command)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


# -- export ---------------------------------------------------------------------------------------


@contextmanager
def _snapshot() -> Iterator[None]:
    """Reads inside one read transaction: the game and its history from the same moment."""
    conn = db.get_db()
    conn.execute("BEGIN")
    try:
        yield
    finally:
        conn.execute("COMMIT")


def _history_entry(entry: Mapping[str, Any], seq: int) -> dict[str, Any]:
    return {"seq": seq, "action": entry["action"], "at": entry["at"], "before": entry["before"],
            "after": entry["after"], "old_totals": entry["old_totals"], "new_totals": entry["new_totals"],
            "reason": entry["reason"]}


def export_document(game: GameRecord, entries: list[dict[str, Any]]) -> dict[str, Any]:
    """The game as a version-1 document; ``entries`` is its history (:func:`store.history`)."""
    kept = [e for e in entries if (e["action"] == "amend" and e["deal_number"] is None)
            or (e["action"] in DEAL_ACTIONS and e["deal_number"] is not None)]
    by_deal: dict[int, list[dict[str, Any]]] = {}
    amendments = []
    for seq, entry in enumerate(kept, 1):
        if entry["action"] == "amend":
            amendments.append({"seq": seq, "at": entry["at"], "before": entry["before"], "after": entry["after"],
                               "reason": entry["reason"]})
        else:
            by_deal.setdefault(entry["deal_number"], []).append(_history_entry(entry, seq))
    deals = [{"number": r.number, "deal": r.deal.to_json(with_sheet=False), "as_played": r.as_played,
              "history": by_deal.pop(r.number, [])} for r in game.deals]
    return {
        "format": FORMAT, "version": VERSION, "name": game.name, "sheet": game.sheet.to_json(),
        "sides": game.sides, "created_at": game.created_at, "exported_at": _now(), "deals": deals,
        "deleted_deals": [{"number": n, "history": h} for n, h in sorted(by_deal.items())],
        "amendments": amendments,
    }


def export_game(game_id: str) -> dict[str, Any] | None:
    """The export document of a game, or None when there is no such game."""
    with _snapshot():
        game = store.load_game(game_id) if len(game_id) <= MAX_GAME_ID else None
        if game is None:
            return None
        return export_document(game, store.history(game.id))


# -- the score table as CSV -----------------------------------------------------------------------

# A formula's first character, at the start of a cell or right after a separator a
# spreadsheet may split a pasted cell on (a comma, a semicolon where ';' separates lists, a tab).
FORMULA_START = re.compile(r"(?:^|[,;\t])[=+\-@\t\r]")


def spreadsheet_safe(value: Any) -> Any:
    """A cell a spreadsheet will not run: text with a formula's start anywhere it could
    begin one gets a leading apostrophe. Numbers are never text, so stay numbers.

    >>> spreadsheet_safe("=HYPERLINK(1)"), spreadsheet_safe("-Ann"), spreadsheet_safe(-120), spreadsheet_safe("Bea")
    ("'=HYPERLINK(1)", "'-Ann", -120, 'Bea')
    >>> spreadsheet_safe("a;=1+1;"), spreadsheet_safe("Ann, Bea"), spreadsheet_safe("x,@y")
    ("'a;=1+1;", 'Ann, Bea', "'x,@y")
    """
    if isinstance(value, str) and FORMULA_START.search(value):
        return "'" + value
    return value


def scores_csv(game: GameRecord) -> str:
    """One row per deal (each side's points in it and running total, and a note), then the totals."""
    out = io.StringIO()
    writer = csv.writer(out)
    names = game.side_names
    header: list[Any] = ["Deal"]
    for name in names:
        header += [f"{name} points", f"{name} total"]
    rows: list[list[Any]] = [header + ["Note"]]
    running_all = game.game.running_totals()
    for record, running in zip(game.deals, running_all, strict=True):
        points = record.verdict.breakdown.totals()
        row: list[Any] = [record.number]
        for name in names:
            row += [points.get(name, 0), running.get(name, 0)]
        if record.as_played:
            note = f"saved as played: {record.as_played}"
        elif not record.verdict.ok:
            note = "breaks the sheet as amended"
        else:
            note = ""
        rows.append(row + [note])
    final = running_all[-1] if running_all else {name: 0 for name in names}
    result = game.game.result()
    total: list[Any] = ["Total"]
    for name in names:
        total += [final.get(name, 0), final.get(name, 0)]
    rows.append(total + [("tie" if result.tie else f"{result.winner} wins") if result.over else ""])
    writer.writerows([[spreadsheet_safe(cell) for cell in row] for row in rows])
    return out.getvalue()


# -- responses ------------------------------------------------------------------------------------


def _filename(name: str, what: str) -> str:
    """``<game name> - <what>``, with nothing a file system or a header could trip on."""
    return downloads.file_name(name, what)


def _attachment(body: str, mimetype: str, filename: str) -> Response:
    response = current_app.response_class(body, mimetype=mimetype)  # sends even a bad stored name
    response.headers["Content-Disposition"] = downloads.content_disposition(filename, "attachment")
    response.headers["Cache-Control"] = "no-cache"
    return response


def _export_response(document: dict[str, Any]) -> Response:
    body = json.dumps(document, ensure_ascii=False) + "\n"  # compact: see MAX_IMPORT_BYTES
    return _attachment(body, "application/json", _filename(document["name"], "scorepad.json"))


def _csv_response(game: GameRecord) -> Response:
    # A byte-order mark, so a spreadsheet reads the names as UTF-8.
    response = _attachment("\ufeff" + scores_csv(game), "text/csv", _filename(game.name, "scores.csv"))
    response.mimetype = "text/csv"  # Werkzeug adds "; charset=utf-8" to a text/ type
    return response


# -- import ---------------------------------------------------------------------------------------


class Refused(StoreError):
    """A document whose deal the referee will not let in (422): ``problems`` say why."""

    def __init__(self, field: str, message: str, number: int, problems: list[Problem]) -> None:
        super().__init__(422, field, message)
        self.number, self.problems = number, problems


@dataclass
class _Table:
    """What :func:`store.game_problems` reads of a game: its sides."""

    sides: list[dict[str, Any]]


@dataclass
class Imported:
    """A document read and judged, ready for :func:`store.import_game`."""

    name: Any
    sheet: RuleSheet
    sides: list[dict[str, Any]]
    created_at: str
    exported_at: str | None
    deals: list[tuple[int, str, str | None]] = field(default_factory=list)
    entries: list[tuple[Any, ...]] = field(default_factory=list)
    verdicts: dict[str, Verdict] = field(default_factory=dict)  # each deal's, by its body in ``deals``


def _fail(where: str, message: str) -> StoreError:
    return StoreError(400, where, message)


def _only(data: Any, keys: tuple[str, ...], where: str, what: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise _fail(where, f"must be {what}, an object")
    for key in data:
        if key not in keys:
            raise _fail(f"{where}.{key}" if where else key, f"is not a field here; expected {', '.join(keys)}")
    return data


def _list(data: Any, where: str, most: int | None = None) -> list[Any]:
    if data is None:
        return []
    if not isinstance(data, list):
        raise _fail(where, "must be a list")
    if most is not None and len(data) > most:
        raise _fail(where, f"lists {len(data):,}; a game has at most {most}")
    return data


def _time(value: Any, where: str) -> str:
    if not isinstance(value, str) or len(value) > 40:
        raise _fail(where, "must be a date and time such as 2026-11-29T11:13:35+00:00")
    try:
        datetime.fromisoformat(value)
    except ValueError:
        raise _fail(where, f"{value!r} is not a date and time such as 2026-11-29T11:13:35+00:00") from None
    return value


def _whole(value: Any, where: str, lowest: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lowest <= value <= MAX_POINTS:
        raise _fail(where, f"must be a whole number from {lowest}, not {value!r:.40}")
    return value


def _reason(value: Any, where: str, required: bool = False) -> str | None:
    if value is None and not required:
        return None
    try:
        read_reason(value, where, MAX_REASON)
        return check_text(value, where, multiline=True)  # kept as written: export, import, export agree
    except ReadError as err:
        raise _fail(err.field, err.reason) from None


def _totals(value: Any, where: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise _fail(where, 'must be each side\'s points, such as {"Ann": 120}, or null')
    for name, points in value.items():
        try:
            check_text(name, f"{where}.{name}")
        except ReadError as err:
            raise _fail(err.field, err.reason) from None
        if isinstance(points, bool) or not isinstance(points, int) or abs(points) > MAX_POINTS:
            raise _fail(f"{where}.{name}", f"must be a whole number of points, not {points!r:.40}")
    return json.dumps(value)


def _deal(data: Any, sheet: RuleSheet, number: int, where: str) -> Deal:
    try:
        deal = Deal.from_json(data, sheet, number=number)
    except ReadError as err:
        raise _fail(err.within(where).field, err.reason) from None
    if deal.number != number:
        raise _fail(f"{where}.deal", f"this is deal {number}, not {deal.number}")
    return deal


def _sheet(data: Any, where: str) -> RuleSheet:
    try:
        return load_sheet(data, where, stored=True)  # what scorepad wrote, perhaps before an option existed
    except ReadError as err:
        raise _fail(err.field or where, err.reason) from None


@dataclass
class _Entry:
    seq: int | None
    at: str
    row: tuple[Any, ...]  # deal_number, action, at, before, after, old_totals, new_totals, reason
    sheet_before: RuleSheet | None = None  # an amendment's sheet before it


def _deal_entry(item: Any, sheet: RuleSheet, number: int, where: str) -> _Entry:
    item = _only(item, ENTRY_KEYS, where, "a history entry")
    action = item.get("action")
    if action not in DEAL_ACTIONS:
        raise _fail(f"{where}.action", f"must be one of {', '.join(DEAL_ACTIONS)}, not {action!r:.40}")
    seq = None if item.get("seq") is None else _whole(item["seq"], f"{where}.seq")
    at = _time(item.get("at"), f"{where}.at")
    bodies = []
    for key, wanted in (("before", action != "record"), ("after", action != "delete")):
        value = item.get(key)
        if wanted and value is None:
            raise _fail(f"{where}.{key}", f"is missing: a '{action}' entry holds the deal {key} the change")
        if not wanted and value is not None:
            raise _fail(f"{where}.{key}", f"must be null in a '{action}' entry")
        body = _deal(value, sheet, number, f"{where}.{key}").to_json(with_sheet=False) if wanted else None
        bodies.append(json.dumps(body) if body is not None else None)
    row = (number, action, at, *bodies, _totals(item.get("old_totals"), f"{where}.old_totals"),
           _totals(item.get("new_totals"), f"{where}.new_totals"), _reason(item.get("reason"), f"{where}.reason"))
    return _Entry(seq, at, row)


def _amendment(item: Any, where: str) -> _Entry:
    item = _only(item, AMENDMENT_KEYS, where, "an amendment")
    seq = None if item.get("seq") is None else _whole(item["seq"], f"{where}.seq")
    at = _time(item.get("at"), f"{where}.at")
    before = _sheet(item.get("before"), f"{where}.before")
    after = _sheet(item.get("after"), f"{where}.after")
    reason = _reason(item.get("reason"), f"{where}.reason", required=True)
    row = (None, "amend", at, json.dumps(before.to_stored_json()), json.dumps(after.to_stored_json()), None, None,
           reason)
    return _Entry(seq, at, row, before)


def _order(entries: list[tuple[str, _Entry]]) -> list[_Entry]:
    """Entries in the order they happened: by ``seq`` when every entry has one, else by time."""
    given = [(where, e) for where, e in entries if e.seq is not None]
    if not given:
        return [e for _, e in sorted(entries, key=lambda pair: pair[1].at)]
    if len(given) != len(entries):
        where = next(w for w, e in entries if e.seq is None)
        raise _fail(f"{where}.seq", "is missing: give seq on every history entry and amendment, or on none")
    seen: dict[int, str] = {}
    for where, entry in entries:
        if entry.seq in seen:
            raise _fail(f"{where}.seq", f"{entry.seq} is also the seq of {seen[entry.seq]}")
        seen[entry.seq] = where  # type: ignore[index]
    return [e for _, e in sorted(entries, key=lambda pair: pair[1].seq)]  # type: ignore[arg-type, return-value]


def _acceptable(deal: Deal, table: _Table, as_played: str | None) -> tuple[bool, list[Problem], Verdict]:
    """Whether the store would have saved this deal, the problems found, and its verdict."""
    verdict = judge(deal)
    refused = store.refusal(table, deal, verdict)
    if refused is None:
        return True, [], verdict
    return bool(as_played) and refused.may_save_as_played, refused.problems, verdict


def _sheet_when_saved(number: int, ordered: list[_Entry], sheet: RuleSheet) -> RuleSheet:
    """The sheet in force when deal ``number`` was last recorded or corrected."""
    last = max((i for i, e in enumerate(ordered) if e.row[0] == number and e.row[1] in ("record", "edit")),
               default=None)
    if last is None:
        return sheet
    later = next((e for e in ordered[last + 1:] if e.row[1] == "amend"), None)
    return later.sheet_before if later is not None and later.sheet_before is not None else sheet


def read_document(data: Any) -> Imported:  # noqa: C901 (every section of the export document; issue 9 splits it when moving to storage/)
    """Read and judge an export document; :class:`StoreError` (400) naming the field, or
    :class:`Refused` (422) naming the deal the referee will not let in."""
    if not isinstance(data, dict):
        raise _fail("", "the document must be a JSON object, as exported by scorepad")
    if "format" not in data:
        raise _fail("format", f"is missing: a scorepad export says \"format\": \"{FORMAT}\"")
    if data["format"] != FORMAT:
        raise _fail("format", f"must be {FORMAT!r}, not {data['format']!r:.60}: this is not a scorepad game export")
    version = data.get("version")
    if version != VERSION or isinstance(version, bool):
        raise _fail("version", f"this scorepad reads version {VERSION} of the format, not {version!r:.40}")
    _only(data, DOCUMENT_KEYS, "", "a document")
    for key in ("name", "sheet", "sides"):
        if key not in data:
            raise _fail(key, "is missing")
    sheet = _sheet(data["sheet"], "sheet")
    sides = store.read_sides(data["sides"], sheet)
    table = _Table(sides)
    created_at = _time(data["created_at"], "created_at") if data.get("created_at") is not None else _now()
    exported_at = _time(data["exported_at"], "exported_at") if data.get("exported_at") is not None else None
    doc = Imported(data["name"], sheet, sides, created_at, exported_at)

    entries: list[tuple[str, _Entry]] = []
    deals: list[tuple[int, Deal, str | None, str]] = []
    numbers: dict[int, str] = {}
    for i, item in enumerate(_list(data.get("deals"), "deals", MAX_DEALS)):
        where = f"deals[{i}]"
        item = _only(item, DEAL_KEYS, where, "a deal")
        if "number" not in item:
            raise _fail(f"{where}.number", "is missing")
        number = _whole(item["number"], f"{where}.number")
        if number in numbers:
            raise _fail(f"{where}.number", f"deal {number} is also {numbers[number]}")
        numbers[number] = where
        if "deal" not in item:
            raise _fail(f"{where}.deal", "is missing: the deal as recorded")
        deal = _deal(item["deal"], sheet, number, f"{where}.deal")
        as_played = _reason(item.get("as_played"), f"{where}.as_played")
        deals.append((number, deal, as_played, where))
        for j, entry in enumerate(_list(item.get("history"), f"{where}.history")):
            entries.append((f"{where}.history[{j}]", _deal_entry(entry, sheet, number, f"{where}.history[{j}]")))
    for i, item in enumerate(_list(data.get("deleted_deals"), "deleted_deals", MAX_DEALS)):
        where = f"deleted_deals[{i}]"
        item = _only(item, ("number", "history"), where, "a deleted deal")
        number = _whole(item.get("number"), f"{where}.number")
        if number in numbers:
            raise _fail(f"{where}.number", f"deal {number} is also {numbers[number]}; its history goes there")
        numbers[number] = where
        for j, entry in enumerate(_list(item.get("history"), f"{where}.history")):
            entries.append((f"{where}.history[{j}]", _deal_entry(entry, sheet, number, f"{where}.history[{j}]")))
    for i, item in enumerate(_list(data.get("amendments"), "amendments")):
        entries.append((f"amendments[{i}]", _amendment(item, f"amendments[{i}]")))
    ordered = _order(entries)

    for number, deal, as_played, where in sorted(deals, key=lambda d: d[0]):
        ok, problems, verdict = _acceptable(deal, table, as_played)
        if not ok:
            then = _sheet_when_saved(number, ordered, sheet)
            if then != sheet:
                ok = _acceptable(Deal.from_json(deal.to_json(with_sheet=False), then, number), table, as_played)[0]
        if not ok:
            first = problems[0]
            never = [p for p in problems if store.never_as_played(p)]
            if any(p.code.startswith("game.") for p in problems):
                message = f"deal {number} does not fit this game: {first.message}"
            elif never or as_played:
                message = f"deal {number} cannot be saved even as played: {(never or problems)[0].message}"
            else:
                n = len(problems)
                message = (f"deal {number} breaks the rules in {n} place{'s' if n != 1 else ''} and has no "
                           f"as_played reason: {first.message}")
            raise Refused(where, message, number, problems)
        body = json.dumps(deal.to_json(with_sheet=False))
        doc.deals.append((number, body, as_played))
        doc.verdicts[body] = verdict
    doc.entries = [entry.row for entry in ordered]
    return doc


def import_document(data: Any) -> GameRecord:
    """Read, judge and save a document as a new game."""
    doc = read_document(data)
    note = "Imported from a scorepad export" + (f" made {doc.exported_at}" if doc.exported_at else "")
    return store.import_game(doc.name, doc.sheet, doc.sides, doc.created_at, doc.deals, doc.entries, note,
                             doc.verdicts)


def parse_text(text: str, where: str) -> Any:
    """The JSON document in ``text`` (a paste or an uploaded file), with the API's limits."""
    try:
        data = json.loads(text)
    except RecursionError:
        raise _fail(where, "is nested too deeply") from None
    except ValueError as err:
        at = f" at line {err.lineno}, column {err.colno}" if isinstance(err, json.JSONDecodeError) else ""
        reason = err.msg if isinstance(err, json.JSONDecodeError) else str(err)
        raise _fail(where, f"is not valid JSON: {reason}{at}") from None
    try:
        api._check_values(data)
    except api.ApiError as err:
        raise _fail(err.field or where, err.message) from None
    return data


# -- the pages ------------------------------------------------------------------------------------


@bp.get("/games/<game_id>/export.json")
def export_page(game_id: str):
    document = export_game(game_id)
    if document is None:
        abort(404, access.NO_GAME)
    return _export_response(document)


@bp.get("/games/<game_id>/scores.csv")
def scores_page(game_id: str):
    return _csv_response(access.game_or_404(game_id))


@bp.url_value_preprocessor
@api_bp.url_value_preprocessor
def _import_body_limit(endpoint: str | None, _values: Any) -> None:
    """An import may be as large as :data:`MAX_IMPORT_BYTES`. Set before the request's
    ``before_request`` functions run, as the CSRF check reads the form there."""
    if endpoint in ("exchange.import_page", "exchange_api.import_api"):
        request.max_content_length = request.max_form_memory_size = MAX_IMPORT_BYTES


class ImportForm(FlaskForm):
    file = FileField("The exported file")
    document = TextAreaField("Or paste the export here")


@bp.route("/import", methods=["GET", "POST"])
def import_page():
    form = ImportForm()
    if request.method == "GET":
        return render_template("exchange/import.html", form=form, error=None)
    if not form.validate():
        abort(400, "; ".join(f"{form[k].label.text}: {' '.join(v)}" for k, v in form.errors.items()))
    problems: list[Problem] = []
    try:
        upload = form.file.data
        raw = upload.read() if upload is not None and getattr(upload, "filename", "") else b""
        if raw.strip():
            try:
                text = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                raise _fail("file", "is not text: choose the .json file scorepad exported") from None
            data = parse_text(text, "file")
        elif (form.document.data or "").strip():
            data = parse_text(form.document.data, "document")
        else:
            raise _fail("file", "choose the exported file, or paste its text")
        game = import_document(data)
    except StoreError as err:
        if isinstance(err, Refused):
            problems = err.problems
        error = {"status": err.status, "field": err.field or None, "message": err.message}
        return render_template("exchange/import.html", form=form, error=error, problems=problems), err.status
    access.grant(game)
    flash(f"“{game.name}” is imported as a new game, with its own view and edit links. "
          "This phone may record and correct its deals.", "ok")
    return redirect(url_for("games.game", game_id=game.id), 303)


# -- the JSON routes ------------------------------------------------------------------------------

api_bp.register_error_handler(api.ApiError, api._refused)
api_bp.register_error_handler(StoreError, api._refused)


@api_bp.errorhandler(Refused)
def _refused(err: Refused):
    body = api.error_body(422, err.field, err.message)
    body["deal"] = err.number
    body["problems"] = [{**p.to_json(), "never_as_played": store.never_as_played(p)} for p in err.problems]
    return jsonify(body), 422


@api_bp.get("/games/<game_id>/export")
def export_api(game_id: str):
    document = export_game(game_id)
    if document is None:
        raise api.ApiError(404, None, "there is no game with this id")
    return _export_response(document)


@api_bp.get("/games/<game_id>/scores.csv")
def scores_api(game_id: str):
    return _csv_response(api._game(game_id))


@api_bp.post("/games/import")
def import_api():
    # The API's body checks (a JSON object, nesting, number range); the document's own keys
    # are checked after its format and version, so a newer document is named as such.
    try:
        peek = request.get_json(silent=True)
    except RecursionError:  # nested past the parser's depth: api._body says so
        peek = None
    data = api._body(tuple(peek) if isinstance(peek, dict) else ())
    game = import_document(data)
    body = {"id": game.id, **api.game_links(game), "edit_key": game.edit_key, "revision": game.revision}
    return jsonify(body), 201, {"Location": url_for("api.get_game", game_id=game.id),
                                "Cache-Control": "no-store"}  # the body holds the edit key


# -- backup ---------------------------------------------------------------------------------------


class BackupError(click.ClickException):
    """A backup PATH (or database) that cannot be used: exit status 2, like the other commands' input."""

    exit_code = 2


@dataclass
class BackupResult:
    path: Path
    games: int
    deals: int
    size: int


def backup(source: str | Path, target: str | Path, force: bool = False) -> BackupResult:
    """Copy the database at ``source`` to ``target`` with SQLite's online backup API.

    The copy is made in one step, inside one read transaction: it is the database as it
    stood at one moment, and writers (in WAL mode) carry on meanwhile. It is written to a
    temporary file beside ``target``, checked (``PRAGMA integrity_check``), switched to a
    single self-contained file (no ``-wal``), and only then put in place; an existing
    ``target`` is refused unless ``force``. A ``target`` that is the database or one of the
    files SQLite keeps beside it, or that exists and is not a regular file, is always refused.
    """
    source, target = Path(source), Path(target)
    if not source.is_file():
        raise BackupError(f"there is no database at {source}")
    if _is_the_database(target, source):
        raise BackupError(f"{target} is the live database or one of its own files ({source} and its -wal, "
                          "-shm and -journal); writing there would destroy it. Give another file's name")
    if target.is_dir():
        raise BackupError(f"{target} is a folder; give the backup file's name")
    if target.exists() and not target.is_file():
        raise BackupError(f"{target} is not a regular file (a device, a pipe or a socket); give the backup "
                          "file's name")
    if target.exists() and not force:
        raise BackupError(f"{target} already exists; choose another name, or pass --force to overwrite it")
    if not target.parent.is_dir():
        raise BackupError(f"there is no folder {target.parent}")
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    temporary = Path(name)
    try:
        src = db.connect(source)
        try:
            dst = sqlite3.connect(temporary, isolation_level=None)
            try:
                src.backup(dst)  # pages=-1: every page in one step, one consistent snapshot
                dst.execute("PRAGMA journal_mode = DELETE")
                check = [row[0] for row in dst.execute("PRAGMA integrity_check")]
                if check != ["ok"]:
                    raise click.ClickException(f"the copy failed its integrity check: {'; '.join(check[:5])}")
                games = dst.execute("SELECT COUNT(*) FROM game").fetchone()[0]
                deals = dst.execute("SELECT COUNT(*) FROM deal").fetchone()[0]
            finally:
                dst.close()
        finally:
            src.close()
        _put_in_place(temporary, target, force)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return BackupResult(target, games, deals, target.stat().st_size)


def _is_the_database(target: Path, database: Path) -> bool:
    """Whether ``target`` names the database file or a file SQLite keeps beside it (``-wal``,
    ``-shm``, ``-journal``), through any symlink or hard link."""
    names = {database, database.resolve()}
    own = [Path(f"{name}{suffix}") for name in names for suffix in ("", "-wal", "-shm", "-journal")]
    try:
        resolved = target.resolve()
    except RuntimeError:  # a symlink loop
        raise BackupError(f"{target} is a symlink that leads back to itself; give the backup file's name") from None
    return any(resolved == path.resolve() or (target.exists() and path.exists() and os.path.samefile(target, path))
               for path in own)


def _put_in_place(temporary: Path, target: Path, force: bool) -> None:
    if force:
        os.replace(temporary, target)
        return
    try:
        os.link(temporary, target)  # fails if target appeared meanwhile: never overwrite by accident
    except FileExistsError:
        raise BackupError(f"{target} already exists; choose another name, or pass --force to overwrite it") from None
    except OSError:  # a file system without hard links
        if target.exists():
            raise BackupError(f"{target} already exists; choose another name, or pass --force to overwrite it") \
                from None
        os.replace(temporary, target)
        return
    temporary.unlink()


@click.command("backup")
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--force", is_flag=True, help="Overwrite PATH if it exists.")
@with_appcontext
def backup_command(path: Path, force: bool) -> None:
    """Copy the database to PATH, consistently, while the server runs.

    To restore: stop the server, delete instance/scorepad.sqlite-wal and -shm if present,
    copy the backup over instance/scorepad.sqlite, and start the server.

    Exit status 2 when PATH cannot be used: it exists (without --force), it is a folder or
    not a regular file, or it is the database itself or one of its -wal, -shm, -journal.
    """
    result = backup(current_app.config["DATABASE"], path, force)
    click.echo(f"Wrote {result.path}: {result.games} game{'s' if result.games != 1 else ''}, "
               f"{result.deals} deal{'s' if result.deals != 1 else ''} ({result.size:,} bytes).")
