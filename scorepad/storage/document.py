"""A game as a document and as a table: the export document (JSON) and the scores as CSV rows.

**The document** (``format`` ``scorepad.game``, ``version`` 1) holds everything anyone with
the view link may see, and never the edit key::

    {"format": "scorepad.game", "version": 1, "name": "Friday",
     "sheet": {"preset": "common", "preset_version": 1}, # the game's frozen sheet: preset + changes
     "sides": [{"name": "Ann", "players": ["Ann"]}, ...],
     "confirm": "none",                                  # or "opponents": a part waits for another side's phone
     "created_at": "...", "exported_at": "...",
     "deals": [{"number": 1, "deal": {...},             # canonical, without a sheet
                "as_played": "reason" or null,
                "history": [{"seq", "action", "at", "before", "after", "old_totals", "new_totals", "reason",
                             "entered_by"}]}],              # entered_by: a record entry's parts' phones, or null
     "deleted_deals": [{"number": 4, "history": [...]}], # deals deleted and not recorded again
     "amendments": [{"seq", "at", "before", "after", "reason"}],
     "ended_at": "..."}                                  # only when the table ended the game (an open sheet's)

``seq`` is the entry's place in the game's whole history (1, 2, ...), so deals' histories
and amendments interleave again as they happened. An import makes a NEW game (new id and
key) with the same deals, history and amendments, and one more history entry (``import``)
saying when it came in; exports leave ``import`` entries out, so export, import and export
again give the same document but for ``exported_at``. A document without ``confirm`` (made
before games had it) imports as ``none``; an entry without ``entered_by``, as a deal sent whole.

An import is read and judged by the rules core: the sheet by ``load_sheet`` as stored data
(an option an older export lacks takes its default; a sheet without ``preset_version``
was made before presets had versions, from version 1), the sides as
a new game's, each deal by ``Deal.from_json`` under the game's sheet and sides. A deal
with violations needs its ``as_played`` reason, unless it was legal under the sheet in
force when it was saved (a later amendment made it illegal); otherwise the import is
refused (:class:`~scorepad.storage.errors.ImportRefused`, naming the deal). Anything unreadable
is :class:`~scorepad.storage.errors.Invalid`, naming the field. The referee rescores a
document as it stands (:func:`read_game`): read the same way, but not judged.

**The scores as CSV** (:func:`scores_csv`): one row per deal, then the totals, every cell
safe to open in a spreadsheet (:func:`spreadsheet_safe`).
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from ..rules import Deal, Problem, ReadError, RuleSheet, Verdict, judge, load_sheet
from ..rules.choices import Confirm, GameLength
from ..rules.game import DEAL_ENTRY_KEYS, Game
from ..rules.limits import MAX_DEALS, MAX_PHONE, MAX_POINTS, MAX_REASON, MAX_SIDES
from ..rules.read import JSON, check_values, json_number
from ..rules.text import check_text, read_reason
from . import checks, db, idempotency, reading, writing
from .errors import ImportRefused, Invalid
from .reading import GameRecord, GameSide

FORMAT = "scorepad.game"
VERSION = 1
DOCUMENT_KEYS = ("format", "version", "name", "sheet", "confirm", "sides", "created_at", "exported_at", "deals",
                 "deleted_deals", "amendments", "ended_at")
ENTRY_KEYS = ("seq", "action", "at", "before", "after", "old_totals", "new_totals", "reason", "entered_by")
AMENDMENT_KEYS = ("seq", "at", "before", "after", "reason")
DEAL_ACTIONS = ("record", "edit", "delete")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


# -- export ---------------------------------------------------------------------------------------


def _history_entry(entry: Mapping[str, JSON], seq: int) -> dict[str, JSON]:
    return {"seq": seq, "action": entry["action"], "at": entry["at"], "before": entry["before"],
            "after": entry["after"], "old_totals": entry["old_totals"], "new_totals": entry["new_totals"],
            "reason": entry["reason"], "entered_by": entry.get("entered_by")}


def export_document(game: GameRecord, entries: Sequence[Mapping[str, JSON]]) -> dict[str, JSON]:
    """The game as a version-1 document; ``entries`` is its history (:func:`reading.history`)."""
    kept = [e for e in entries if (e["action"] == "amend" and e["deal_number"] is None)
            or (e["action"] in DEAL_ACTIONS and e["deal_number"] is not None)]
    by_deal: dict[int, list[JSON]] = {}
    amendments: list[JSON] = []
    for seq, entry in enumerate(kept, 1):
        number = entry["deal_number"]  # a deal's entry: its number, an int
        if entry["action"] == "amend":
            amendments.append({"seq": seq, "at": entry["at"], "before": entry["before"], "after": entry["after"],
                               "reason": entry["reason"]})
        elif isinstance(number, int):
            by_deal.setdefault(number, []).append(_history_entry(entry, seq))
    deals: list[JSON] = [{"number": r.number, "deal": r.deal.to_json(with_sheet=False), "as_played": r.as_played,
                          "history": by_deal.pop(r.number, [])} for r in game.deals]
    return {
        "format": FORMAT, "version": VERSION, "name": game.name, "sheet": game.sheet.to_json(),
        "confirm": game.confirm.value,
        "sides": [{"name": side["name"], "players": [*side["players"]]} for side in game.sides],
        "created_at": game.created_at, "exported_at": _now(), "deals": deals,
        "deleted_deals": [{"number": n, "history": h} for n, h in sorted(by_deal.items())],
        "amendments": amendments,
        **({"ended_at": game.ended_at} if game.ended_at is not None else {}),
    }


def export_game(game_id: str) -> dict[str, JSON] | None:
    """The export document of a game, or None when there is no such game."""
    with db.snapshot():
        game = reading.load_game(game_id)
        if game is None:
            return None
        return export_document(game, reading.history(game.id))


# -- the score table as CSV -----------------------------------------------------------------------

# A formula's first character at the start of a piece of a cell: the cell's start, or right
# after a separator a spreadsheet may split the cell or its line on (a comma, a semicolon
# where ';' separates lists, a tab, a line feed or carriage return: a reason may hold line
# feeds, and a reader that is not a CSV one splits rows on them).
FORMULA_START = re.compile(r"(^|[,;\t\r\n])(?=[=+\-@\t\r])")


Cell = str | int  # a cell of the score table: text, or a number of points


def spreadsheet_safe(value: Cell) -> Cell:
    """A cell a spreadsheet will not run: text gets an apostrophe before each formula start,
    wherever a piece of it could begin one (:data:`FORMULA_START`), so the cell read whole
    and each piece split off it are text. Numbers are never text, so stay numbers.

    >>> spreadsheet_safe("=HYPERLINK(1)"), spreadsheet_safe("-Ann"), spreadsheet_safe(-120), spreadsheet_safe("Bea")
    ("'=HYPERLINK(1)", "'-Ann", -120, 'Bea')
    >>> spreadsheet_safe("a;=1+1;"), spreadsheet_safe("Ann, Bea"), spreadsheet_safe("ok\\n=1+1")
    ("a;'=1+1;", 'Ann, Bea', "ok\\n'=1+1")
    """
    if isinstance(value, str):
        return FORMULA_START.sub(r"\1'", value)
    return value


def scores_csv(game: GameRecord) -> str:
    """One row per deal (each side's points in it and running total, and a note), then the totals."""
    out = io.StringIO()
    writer = csv.writer(out)
    view = game.view
    header: list[Cell] = ["Deal"]
    for name in view.sides:
        header += [f"{name} points", f"{name} total"]
    rows: list[list[Cell]] = [[*header, "Note"]]
    for deal in view.rows:
        row: list[Cell] = [deal.number]
        for name in view.sides:
            row += [deal.points[name], deal.running[name]]
        note = (f"saved as played: {deal.as_played}" if deal.as_played
                else "breaks the sheet as amended" if deal.breaks_sheet else "")
        rows.append([*row, note])
    result = view.result
    total: list[Cell] = ["Total"]
    for name in view.sides:
        total += [view.totals[name], view.totals[name]]
    rows.append([*total, ("tie" if result.tie else f"{result.winner} wins") if result.over else ""])
    writer.writerows([[spreadsheet_safe(cell) for cell in row] for row in rows])
    return out.getvalue()


# -- import ---------------------------------------------------------------------------------------


@dataclass
class _Table:
    """What :func:`checks.game_problems` reads of a game: its sides."""

    sides: list[GameSide]


EntryRow = writing.HistoryRow  # a history entry or amendment as the store keeps it


@dataclass
class Imported:
    """A document read and judged, ready for :func:`writing.import_game`."""

    name: JSON  # as the document gives it: the store reads it as a new game's name
    sheet: RuleSheet
    sides: list[GameSide]
    created_at: str
    exported_at: str | None
    deals: list[tuple[int, str, str | None]] = field(default_factory=list)
    entries: list[EntryRow] = field(default_factory=list)
    verdicts: dict[str, Verdict] = field(default_factory=dict)  # each deal's, by its body in ``deals``
    ended_at: str | None = None  # when the table ended the game (an open sheet's), None while it goes on
    confirm: Confirm = Confirm.NONE  # whether a side's part of a deal entered part by part waits for another side


def _fail(where: str, message: str) -> Invalid:
    return Invalid(where, message)


def _only(data: JSON, keys: tuple[str, ...], where: str, what: str) -> dict[str, JSON]:
    if not isinstance(data, dict):
        raise _fail(where, f"must be {what}, an object")
    for key in data:
        if key not in keys:
            raise _fail(f"{where}.{key}" if where else key, f"is not a field here; expected {', '.join(keys)}")
    return data


def _list(data: JSON, where: str, most: int | None = None) -> list[JSON]:
    if data is None:
        return []
    if not isinstance(data, list):
        raise _fail(where, "must be a list")
    if most is not None and len(data) > most:
        raise _fail(where, f"lists {len(data):,}; a game has at most {most}")
    return data


def _time(value: JSON, where: str) -> str:
    if not isinstance(value, str) or len(value) > 40:
        raise _fail(where, "must be a date and time such as 2026-11-29T11:13:35+00:00")
    try:
        datetime.fromisoformat(value)
    except ValueError:
        raise _fail(where, f"{value!r} is not a date and time such as 2026-11-29T11:13:35+00:00") from None
    return value


def _whole(value: JSON, where: str, lowest: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lowest <= value <= MAX_POINTS:
        raise _fail(where, f"must be a whole number from {lowest}, not {value!r:.40}")
    return value


def _reason(value: JSON, where: str, required: bool = False) -> str | None:
    if value is None and not required:
        return None
    try:
        read_reason(value, where, MAX_REASON)
        assert isinstance(value, str)  # read_reason refuses anything else
        return check_text(value, where, multiline=True)  # kept as written: export, import, export agree
    except ReadError as err:
        raise _fail(err.field, err.reason) from None


def _totals(value: JSON, where: str) -> str | None:
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


def _confirm(value: JSON) -> Confirm:
    if value is None:
        return Confirm.NONE  # an export made before games had the setting
    try:
        return Confirm(value)
    except ValueError:
        raise _fail("confirm", f"must be 'none' or 'opponents', not {value!r:.40}") from None


PARTS = (*(str(n) for n in range(1, MAX_SIDES + 1)), "ending")  # a side's position, or the ending


def _entered_by(value: JSON, action: str, where: str) -> str | None:
    """A ``record`` entry's ``entered_by`` (``{part: {"phone", "confirmed_by"}}``) as JSON text,
    or None (a deal sent whole); only a ``record`` entry has one."""
    if value is None:
        return None
    if action != "record":
        raise _fail(where, f"must be null in a '{action}' entry: only a recorded deal was entered part by part")
    if not isinstance(value, dict) or not value:
        raise _fail(where, 'must name the phone of each part, such as {"1": {"phone": "Dan\'s phone", '
                           '"confirmed_by": null}}, or be null')
    for part, entry in value.items():
        at = f"{where}.{part}"
        if part not in PARTS:
            raise _fail(at, "is not a part: a side's position (1, 2, ...) or ending")
        entry = _only(entry, ("phone", "confirmed_by"), at, "the phone that entered it")
        for key in ("phone", "confirmed_by"):
            label = entry.get(key)
            if label is None and key == "confirmed_by":
                continue
            if not isinstance(label, str) or not 0 < len(label) <= MAX_PHONE:
                raise _fail(f"{at}.{key}", f"must be a phone's label of 1 to {MAX_PHONE} characters")
            try:
                check_text(label, f"{at}.{key}")
            except ReadError as err:
                raise _fail(err.field, err.reason) from None
    return json.dumps(value)


def _deal(data: JSON, sheet: RuleSheet, number: int, where: str) -> Deal:
    try:
        deal = Deal.from_json(data, sheet, number=number)
    except ReadError as err:
        raise _fail(err.within(where).field, err.reason) from None
    if deal.number != number:
        raise _fail(f"{where}.deal", f"this is deal {number}, not {deal.number}")
    return deal


def _sheet(data: JSON, where: str) -> RuleSheet:
    try:
        return load_sheet(data, where, stored=True)  # what scorepad wrote, perhaps before an option existed
    except ReadError as err:
        raise _fail(err.field or where, err.reason) from None


@dataclass
class _Entry:
    seq: int | None
    at: str
    row: EntryRow
    sheet_before: RuleSheet | None = None  # an amendment's sheet before it


def _deal_entry(item: JSON, sheet: RuleSheet, number: int, where: str) -> _Entry:
    item = _only(item, ENTRY_KEYS, where, "a history entry")
    action = item.get("action")
    if not isinstance(action, str) or action not in DEAL_ACTIONS:
        raise _fail(f"{where}.action", f"must be one of {', '.join(DEAL_ACTIONS)}, not {action!r:.40}")
    seq = None if item.get("seq") is None else _whole(item["seq"], f"{where}.seq")
    at = _time(item.get("at"), f"{where}.at")
    bodies: list[str | None] = []
    for key, wanted in (("before", action != "record"), ("after", action != "delete")):
        value = item.get(key)
        if wanted and value is None:
            raise _fail(f"{where}.{key}", f"is missing: a '{action}' entry holds the deal {key} the change")
        if not wanted and value is not None:
            raise _fail(f"{where}.{key}", f"must be null in a '{action}' entry")
        body = _deal(value, sheet, number, f"{where}.{key}").to_json(with_sheet=False) if wanted else None
        bodies.append(json.dumps(body) if body is not None else None)
    before, after = bodies
    row = (number, action, at, before, after, _totals(item.get("old_totals"), f"{where}.old_totals"),
           _totals(item.get("new_totals"), f"{where}.new_totals"), _reason(item.get("reason"), f"{where}.reason"),
           _entered_by(item.get("entered_by"), action, f"{where}.entered_by"))
    return _Entry(seq, at, row)


def _amendment(item: JSON, where: str) -> _Entry:
    item = _only(item, AMENDMENT_KEYS, where, "an amendment")
    seq = None if item.get("seq") is None else _whole(item["seq"], f"{where}.seq")
    at = _time(item.get("at"), f"{where}.at")
    before = _sheet(item.get("before"), f"{where}.before")
    after = _sheet(item.get("after"), f"{where}.after")
    reason = _reason(item.get("reason"), f"{where}.reason", required=True)
    row: EntryRow = (None, "amend", at, json.dumps(before.to_stored_json()), json.dumps(after.to_stored_json()),
                     None, None, reason, None)
    return _Entry(seq, at, row, before)


def _order(entries: list[tuple[str, _Entry]]) -> list[_Entry]:
    """Entries in the order they happened: by ``seq`` when every entry has one, else by time."""
    given = [(where, e) for where, e in entries if e.seq is not None]
    if not given:
        return [e for _, e in sorted(entries, key=lambda pair: pair[1].at)]
    if len(given) != len(entries):
        where = next(w for w, e in entries if e.seq is None)
        raise _fail(f"{where}.seq", "is missing: give seq on every history entry and amendment, or on none")
    numbered = [(e.seq, where, e) for where, e in entries if e.seq is not None]  # every entry, as given
    seen: dict[int, str] = {}
    for seq, where, _ in numbered:
        if seq in seen:
            raise _fail(f"{where}.seq", f"{seq} is also the seq of {seen[seq]}")
        seen[seq] = where
    return [e for _, _, e in sorted(numbered, key=lambda item: item[0])]


def _acceptable(deal: Deal, table: _Table, as_played: str | None,
                totals: Mapping[str, int]) -> tuple[bool, list[Problem], Verdict]:
    """Whether the store would have saved this deal, the problems found, and its verdict
    (``totals``: each side's total before it, for minimums that follow the running total)."""
    verdict = judge(deal, totals)
    refused = checks.rule_violations(table, deal, verdict)
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


def read_document(data: JSON) -> Imported:
    """Read and judge an export document; :class:`Invalid` naming the field, or
    :class:`ImportRefused` naming the deal the referee will not let in. Its parts are read in
    the order they are written, so the first thing wrong is the one named."""
    doc, deals, ordered = _read(data)
    table = _Table(doc.sides)
    totals = {str(side["name"]): 0 for side in doc.sides}  # before each deal, as the game judged it
    for deal in sorted(deals, key=lambda d: d.number):
        verdict = _admitted(deal, table, ordered, doc.sheet, totals)
        for side in verdict.breakdown.sides:
            if side.name in totals:
                totals[side.name] += side.total
        body = json.dumps(deal.deal.to_json(with_sheet=False))
        doc.deals.append((deal.number, body, deal.as_played))
        doc.verdicts[body] = verdict
    doc.entries = [entry.row for entry in ordered]
    return doc


def read_game(data: JSON) -> Game:
    """A game to score again: a game file (:meth:`Game.from_json`), or a whole export document
    read as :func:`read_document` reads it, without judging whether each deal may be saved
    (the referee scores what was played). What cannot be read is :class:`ReadError`, naming
    the field, as for a game file."""
    if not (isinstance(data, Mapping) and "format" in data):
        return Game.from_json(data)
    try:
        doc, deals, _ = _read(data)
    except Invalid as err:
        raise ReadError(err.field, err.message) from None
    return Game(doc.sheet, tuple(str(side["name"]) for side in doc.sides),
                tuple(d.deal for d in sorted(deals, key=lambda d: d.number)), ended=doc.ended_at is not None)


def _read(data: JSON) -> tuple[Imported, list[_Deal], list[_Entry]]:
    """The document read, not judged: its header, sheet and sides (without deals), its
    deals, and every history entry and amendment in the order they happened."""
    data = _header(data)
    sheet = _sheet(data["sheet"], "sheet")
    sides = checks.read_sides(data["sides"], sheet)
    created_at = _time(data["created_at"], "created_at") if data.get("created_at") is not None else _now()
    exported_at = _time(data["exported_at"], "exported_at") if data.get("exported_at") is not None else None
    doc = Imported(data["name"], sheet, sides, created_at, exported_at, confirm=_confirm(data.get("confirm")))
    if data.get("ended_at") is not None:
        if sheet.game_length is not GameLength.OPEN:
            raise _fail("ended_at", "only a game its table ends (game length 'open') is ended by hand; this sheet "
                        f"plays {sheet.describe('game_length')}")
        doc.ended_at = _time(data["ended_at"], "ended_at")
    numbers: dict[int, str] = {}  # each deal number's place in the document
    deals, entries = _deals(data.get("deals"), sheet, numbers)
    entries += _deleted_deals(data.get("deleted_deals"), sheet, numbers)
    entries += [(f"amendments[{i}]", _amendment(item, f"amendments[{i}]"))
                for i, item in enumerate(_list(data.get("amendments"), "amendments"))]
    return doc, deals, _order(entries)


def _header(data: JSON) -> dict[str, JSON]:
    """The document's top level, once it is known to be this format and version (so a newer
    document is named as such before its keys are checked), holding its required keys."""
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
    return data


@dataclass
class _Deal:
    """A deal of the document, read, with its as-played reason and where it is in the document."""

    number: int
    deal: Deal
    as_played: str | None
    where: str


_Placed = tuple[str, _Entry]  # a history entry or amendment, and where it is in the document


def _deals(items: JSON, sheet: RuleSheet, numbers: dict[int, str]) -> tuple[list[_Deal], list[_Placed]]:
    """The document's ``deals``, and their histories' entries."""
    deals: list[_Deal] = []
    entries: list[_Placed] = []
    for i, item in enumerate(_list(items, "deals", MAX_DEALS)):
        where = f"deals[{i}]"
        item = _only(item, DEAL_ENTRY_KEYS, where, "a deal")
        if "number" not in item:
            raise _fail(f"{where}.number", "is missing")
        number = _number(item["number"], where, numbers)
        if "deal" not in item:
            raise _fail(f"{where}.deal", "is missing: the deal as recorded")
        deal = _deal(item["deal"], sheet, number, f"{where}.deal")
        deals.append(_Deal(number, deal, _reason(item.get("as_played"), f"{where}.as_played"), where))
        entries += _history(item, sheet, number, where)
    return deals, entries


def _deleted_deals(items: JSON, sheet: RuleSheet, numbers: dict[int, str]) -> list[_Placed]:
    """The histories' entries of the document's ``deleted_deals``."""
    entries: list[_Placed] = []
    for i, item in enumerate(_list(items, "deleted_deals", MAX_DEALS)):
        where = f"deleted_deals[{i}]"
        item = _only(item, ("number", "history"), where, "a deleted deal")
        number = _number(item.get("number"), where, numbers, "; its history goes there")
        entries += _history(item, sheet, number, where)
    return entries


def _number(value: JSON, where: str, numbers: dict[int, str], then: str = "") -> int:
    """A deal's number, not given to another deal of the document (``numbers``, noted here)."""
    number = _whole(value, f"{where}.number")
    if number in numbers:
        raise _fail(f"{where}.number", f"deal {number} is also {numbers[number]}{then}")
    numbers[number] = where
    return number


def _history(item: dict[str, JSON], sheet: RuleSheet, number: int, where: str) -> list[_Placed]:
    return [(f"{where}.history[{j}]", _deal_entry(entry, sheet, number, f"{where}.history[{j}]"))
            for j, entry in enumerate(_list(item.get("history"), f"{where}.history"))]


def _admitted(deal: _Deal, table: _Table, ordered: list[_Entry], sheet: RuleSheet,
              totals: Mapping[str, int]) -> Verdict:
    """The deal's verdict, when the store would have saved it (under the sheet in force
    when it was saved, if not under the game's; ``totals`` before it); else :class:`ImportRefused`,
    naming it."""
    ok, problems, verdict = _acceptable(deal.deal, table, deal.as_played, totals)
    if not ok:
        then = _sheet_when_saved(deal.number, ordered, sheet)
        if then != sheet:
            again = Deal.from_json(deal.deal.to_json(with_sheet=False), then, deal.number)
            ok = _acceptable(again, table, deal.as_played, totals)[0]
    if not ok:
        raise ImportRefused(deal.where, _refusal(deal, problems), deal.number, problems)
    return verdict


def _refusal(deal: _Deal, problems: list[Problem]) -> str:
    """Why an import is refused, in words, naming the deal and its first problem to correct."""
    first = problems[0]
    never = [p for p in problems if checks.never_as_played(p)]
    if any(p.code.startswith("game.") for p in problems):
        return f"deal {deal.number} does not fit this game: {first.message}"
    if never or deal.as_played:
        return f"deal {deal.number} cannot be saved even as played: {(never or problems)[0].message}"
    n = len(problems)
    return (f"deal {deal.number} breaks the rules in {n} place{'s' if n != 1 else ''} and has no "
            f"as_played reason: {first.message}")


def import_document(data: JSON, once: idempotency.Once[GameRecord] | None = None) -> GameRecord:
    """Read, judge and save a document as a new game (made once per ``once``'s key:
    :func:`scorepad.storage.idempotency.once`)."""
    doc = read_document(data)
    note = "Imported from a scorepad export" + (f" made {doc.exported_at}" if doc.exported_at else "")
    name = checks.read_game_name(doc.name, "name")
    return writing.import_game(name, doc.sheet, doc.sides, doc.created_at, doc.deals, doc.entries, note,
                             doc.verdicts, once, doc.ended_at, doc.confirm)


def parse_text(text: str, where: str) -> JSON:
    """The JSON document in ``text`` (a paste or an uploaded file), within the API's bounds
    (:func:`scorepad.rules.read.check_values`); what cannot be read is :class:`Invalid`."""
    try:
        data: JSON = json.loads(text, parse_float=json_number)  # 84.0 is the integer 84, as in the API
    except RecursionError:
        raise Invalid(where, "is nested too deeply") from None
    except ValueError as err:
        at = f" at line {err.lineno}, column {err.colno}" if isinstance(err, json.JSONDecodeError) else ""
        reason = err.msg if isinstance(err, json.JSONDecodeError) else str(err)
        raise Invalid(where, f"is not valid JSON: {reason}{at}") from None
    try:
        check_values(data)
    except ReadError as err:
        raise Invalid(err.field or where, err.reason) from None
    return data
