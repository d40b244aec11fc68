"""The rule-sheet editor: every option of the catalogue (:data:`~scorepad.rules.sheet.OPTIONS`)
as real controls, and the form that amends a game's sheet.

Each option's controls are laid out from its JSON Schema (:meth:`Option.schema`), so an
option added later gets controls with no code here: an integer is a number box with the
schema's bounds (blank for none when it may be null), one of a few words a select, yes/no a
checkbox, an array of unique items a checkbox for each item it may hold (players per side,
what blocks the pile), an object with fixed properties one box per property (card values,
special books; a blank box leaves that property out), a value or an array of it ("one value
or one per deal") a row for each deal (a blank row is the deal before's value), an array of
free text one text area, an item a line (house rules), and any other array a row per item
with a blank one to add (bands). The one thing a schema cannot tell, how many deals the
rows cover, comes from the sheet's number of deals. How a schema becomes controls is in
:mod:`.option_controls`; this module fills and reads them.

The boxes are read back into the option's JSON, which ``load_sheet`` checks, so every rule
stays in the rules core; a box that cannot be read keeps what was typed and carries a
message naming it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypedDict

from wtforms import HiddenField, SelectField, StringField

from ...rules import OPTIONS, PRESETS, RuleSheet, SheetError, load_sheet
from ...rules.catalogue import OPTION_BY_NAME, Option, options_by_group
from ...rules.limits import MAX_SHEET_DEALS
from ...rules.read import JSON
from ...rules.usual import Unusual, unusual_values
from . import FlaskForm, PlainText, preset_choices
from .option_controls import LAYOUTS, Layout, Props, Rows, Scalar, SetOf, Shown, Unreadable, part_label

AnOption = Option[Any]  # Any: the editor lays out options of every type of value alike (as rules.catalogue.OPTIONS)


CONFIRM = "confirm_unusual"  # the "Yes, keep these values" box: the unusual values it keeps


class AmendForm(FlaskForm):
    preset = SelectField("Start from the sheet", choices=lambda: [("", "no preset")] + preset_choices())
    reason = StringField("Why the table changes the sheet", [PlainText(multiline=True)])
    revision = HiddenField()


# -- one option's boxes --------------------------------------------------------------------------


@dataclass
class Box:
    """One input: its id (also its name), label, what it shows and the preset's value."""

    id: str
    label: str
    scalar: Scalar
    value: Shown
    preset: Shown | None
    where: str  # how a message names it: "deal 2", "K", "row 1, below"
    placeholder: str = ""
    error: str | None = None

    @property
    def kind(self) -> str:
        return self.scalar.kind


@dataclass
class Row:
    label: str
    boxes: list[Box]


def _shown(lay: Layout, prefix: str, value: JSON, rows: int) -> dict[str, Shown]:
    """What each box of an option shows for its JSON value (``rows`` rows for an array)."""
    if isinstance(lay, Scalar):
        return {prefix: lay.show(value)}
    if isinstance(lay, Props):
        # one word (for each part alike) shows in every box; None: no property given
        given = {k: value for k, _ in lay.props} if isinstance(value, str) else value if isinstance(value, dict) else {}
        return {f"{prefix}-{key}": sub.show(given.get(key)) for key, sub in lay.props}
    if isinstance(lay, SetOf):
        held = {str(v) for v in (value if isinstance(value, list) else [value])}
        return {f"{prefix}-{m}": m in held for m in lay.members}
    items = value if isinstance(value, list) else [value]
    out: dict[str, Shown] = {}
    for i in range(rows):
        out.update(_shown(lay.item, f"{prefix}-{i + 1}", items[i] if i < len(items) else None, 0))
    return out


def _rows(lay: Layout, prefix: str, label: str, rows: int) -> list[tuple[str, list[tuple[str, str, Scalar, str]]]]:
    """The option's rows of boxes: (row label, [(id, label, scalar, where)])."""
    if isinstance(lay, Scalar):
        return [("", [(prefix, label, lay, "")])]
    if isinstance(lay, Props):
        return [("", [(f"{prefix}-{key}", part_label(key), sub, part_label(key)) for key, sub in lay.props])]
    if isinstance(lay, SetOf):
        scalar = Scalar("bool")
        return [("", [(f"{prefix}-{m}", part_label(m), scalar, part_label(m)) for m in lay.members])]
    out = []
    for i in range(1, rows + 1):
        name = f"Deal {i}" if lay.per_deal else f"Row {i}"
        if isinstance(lay.item, Scalar):
            out.append((name, [(f"{prefix}-{i}", name, lay.item, name.lower())]))
        else:
            out.append((name, [(f"{prefix}-{i}-{key}", part_label(key), sub,
                                f"{name.lower()}, {part_label(key).lower()}") for key, sub in lay.item.props]))
    return out


def _read(lay: Layout, prefix: str, get: Callable[[str], Shown], rows: int, errors: dict[str, str]) -> JSON:
    """The option's JSON value from its boxes; each box that cannot be read goes in ``errors``."""
    if isinstance(lay, Scalar):
        try:
            return lay.read(get(prefix))
        except Unreadable as err:
            errors[prefix] = str(err)
            return None
    if isinstance(lay, Props):
        out: dict[str, JSON] = {}
        for key, sub in lay.props:
            raw = get(f"{prefix}-{key}")
            if isinstance(raw, str) and not raw.strip():
                continue
            try:
                out[key] = sub.read(raw)
            except Unreadable as err:
                errors[f"{prefix}-{key}"] = str(err)
        return out
    if isinstance(lay, SetOf):
        held: list[JSON] = [int(m) if lay.numbers else m for m in lay.members if get(f"{prefix}-{m}")]
        return held
    return _read_rows(lay, prefix, get, rows, errors)


def _read_rows(lay: Rows, prefix: str, get: Callable[[str], Shown], rows: int, errors: dict[str, str]) -> JSON:
    """An array's items, blank rows left out; for a per-deal option a blank deal is the deal
    before, and one value stands for every deal when all later deals are blank."""
    items: list[JSON] = []
    for i in range(1, rows + 1):
        row = f"{prefix}-{i}"
        if not _blank(lay.item, row, get):
            items.append(_read(lay.item, row, get, 0, errors))
        elif lay.per_deal and items:
            items.append(items[-1])  # a blank deal: as the deal before
        elif lay.per_deal:
            errors[_first_id(lay.item, row)] = "needs a value for the first deal"
    if lay.per_deal and items and _later_blank(lay.item, prefix, get, rows):
        return items[0]  # every later deal blank: one value for all
    return items


def _blank(item: Scalar | Props, row: str, get: Callable[[str], Shown]) -> bool:
    ids = [row] if isinstance(item, Scalar) else [f"{row}-{key}" for key, _ in item.props]
    return all(not str(get(i)).strip() for i in ids)


def _later_blank(item: Scalar | Props, prefix: str, get: Callable[[str], Shown], rows: int) -> bool:
    """Whether every deal after the first is left blank: then one value holds for all."""
    return all(_blank(item, f"{prefix}-{i}", get) for i in range(2, rows + 1))


def _first_id(item: Scalar | Props, row: str) -> str:
    return row if isinstance(item, Scalar) else f"{row}-{item.props[0][0]}"


def _posted_rows(prefix: str, form: Mapping[str, str], most: int) -> int:
    """How many rows of an array the form posted (one past the bound at most, so that a list
    too long is refused by the rules core, naming it)."""
    found = 0
    pattern = re.compile(rf"{re.escape(prefix)}-(\d{{1,4}})(?:-|$)")
    for key in form:
        match = pattern.match(key)
        if match:
            found = max(found, int(match.group(1)))
    return min(found, most + 1)


def _box_id(lay: Layout, prefix: str, sub: str) -> str:
    """The id of the box an error's field path (past the option's name) names:
    ``[1]`` -> ``-2`` (the second row), ``.K`` -> ``-K``; for a per-deal option given one
    value, ``.clean`` is the first deal's ``-1-clean``."""
    rest = re.sub(r"\[(\d+)\]", lambda m: f"-{int(m.group(1)) + 1}", sub).replace(".", "-")
    if isinstance(lay, Rows) and lay.per_deal and re.match(r"-\d", rest) is None:
        rest = "-1" + rest
    return prefix + rest


@dataclass
class OptionField:
    """One option's controls: its rows of boxes, whether it differs from the preset, its errors."""

    option: AnOption
    shape: str  # scalar, props, set, rows, per_deal
    rows: list[Row]
    preset_words: str | None = None
    changed: bool = False
    errors: list[tuple[str, str]] = field(default_factory=list)  # (box id, message)
    words: str = ""

    @property
    def name(self) -> str:
        return self.option.name

    @property
    def id(self) -> str:
        return f"opt-{self.option.name}"

    @property
    def boxes(self) -> list[Box]:
        return [b for row in self.rows for b in row.boxes]

    @property
    def box(self) -> Box:
        """The first box: a scalar option's only one, and where a link to the option goes."""
        return self.rows[0].boxes[0]

    def place(self, path: str, reason: str) -> None:
        """Put the rules core's message for ``path`` (``opening_minimums[1]``) on the box it
        names, naming the box (``deal 2``); one on the whole option goes on its first box."""
        path = path[len("sheet."):] if path.startswith("sheet.") else path
        sub = path[len(self.name):] if path.startswith(self.name) else ""
        box, where = self.box, self.name
        line = re.fullmatch(r"\[(\d+)\]", sub) if self.box.kind == "lines" else None
        if line:  # a text area's item: the rule on that line, blank lines not counted
            where, sub = f"rule {int(line.group(1)) + 1}", ""
        if sub:
            wanted = _box_id(LAYOUTS[self.name], self.id, sub)
            exact = [b for b in self.boxes if b.id == wanted]
            inside = [b for b in self.boxes if b.id.startswith(wanted + "-")]
            if exact:
                box, where = exact[0], exact[0].where or self.name
            elif inside:
                box, where = inside[0], inside[0].where.split(",")[0]
        self.add_error(box, _message(self.option, "" if where == self.name else where, reason))

    def add_error(self, box: Box, message: str) -> None:
        box.error = message
        self.errors.append((box.id, message))


# Option names as the rules' messages give them (those of more than one word, so no plain word matches).
_OPTION_NAMES = re.compile(r"\b(" + "|".join(sorted((re.escape(o.name) for o in OPTIONS if "_" in o.name),
                                                    key=len, reverse=True)) + r")\b")


def in_labels(text: str) -> str:
    """A message with every option it names by its internal name named by its label instead:
    ``opening_minimums: lists 4 deals`` -> ``Opening minimum by deal: lists 4 deals``."""
    return _OPTION_NAMES.sub(lambda m: OPTION_BY_NAME[m.group(1)].label, text)


def _message(option: AnOption, where: str, reason: str) -> str:
    """A box's message: the option's label, the box where the option has more than one, the reason."""
    return f"{option.label}{f' ({where})' if where else ''}: {in_labels(reason)}"


def _unusual_message(found: Unusual) -> str:
    return (f"Is this right? {found.value:,} is far from what any published sheet gives "
            f"({found.published}). Tick “Yes, keep these values” to keep it.")


def _make_field(option: AnOption, shown: Mapping[str, Shown], preset: Mapping[str, Shown] | None,
                rows: int) -> OptionField:
    lay = LAYOUTS[option.name]
    shape = ("per_deal" if isinstance(lay, Rows) and lay.per_deal else
             {Scalar: "scalar", Props: "props", SetOf: "set", Rows: "rows"}[type(lay)])
    out = []
    for row_label, boxes in _rows(lay, f"opt-{option.name}", option.label, rows):
        row = Row(row_label, [])
        for i, label, scalar, where in boxes:
            blank: Shown = False if scalar.kind == "bool" else ""
            row.boxes.append(Box(i, label, scalar, shown.get(i, blank),
                                 None if preset is None else preset.get(i, blank), where))
        out.append(row)
    if shape == "per_deal":
        for row in out[1:]:
            for box in row.boxes:
                box.placeholder = "same"
    return OptionField(option, shape, out)


def _rows_for(option: AnOption, value: JSON, deals: int) -> int:
    """How many rows an array option shows for its JSON value: a row per deal (or per item
    when there are more) for a per-deal option, else a row per item and a blank one to add."""
    lay = LAYOUTS[option.name]
    if not isinstance(lay, Rows):
        return 0
    count = len(value) if isinstance(value, list) else 1
    if lay.per_deal:
        return min(max(count, deals), MAX_SHEET_DEALS)
    return min(count + 1, lay.most)


def sheet_boxes(sheet: RuleSheet, rows: Mapping[str, int] | None = None) -> dict[str, Shown]:
    """Every box of the editor as it shows ``sheet`` (with ``rows`` rows of each array option)."""
    out: dict[str, Shown] = {}
    for option in OPTIONS:
        value = option.write(getattr(sheet, option.name))
        count = rows[option.name] if rows is not None else _rows_for(option, value, sheet.deals)
        out.update(_shown(LAYOUTS[option.name], f"opt-{option.name}", value, count))
    return out


class SheetEditor:
    """Every option of a sheet as form controls, grouped as the catalogue groups them."""

    def __init__(self, preset_id: str | None, fields: list[OptionField], sheet: RuleSheet | None,
                 errors: list[str] | None = None) -> None:
        self.preset_id = preset_id
        self.fields = fields
        self.by_name = {f.name: f for f in fields}
        self.sheet = sheet
        self.errors = errors or []
        # Values no published sheet comes near, asked about once (:mod:`scorepad.rules.usual`):
        # ``confirm`` is what the "Yes, keep these values" box sends; ``confirmed``, whether it was sent.
        self.confirm = ""
        self.confirmed = False

    @property
    def ok(self) -> bool:
        return self.sheet is not None and not self.errors and not any(f.errors for f in self.fields)

    @property
    def changed(self) -> list[OptionField]:
        return [f for f in self.fields if f.changed]

    def problems(self) -> list[tuple[str, str]]:
        """(box id, message) for every box with an error, in reading order: the error summary."""
        asked = ([("confirm-unusual", "Is this right? A value is far from what any published sheet gives: check "
                   "each one marked, then tick “Yes, keep these values”.")]
                 if self.confirm and not self.confirmed else [])
        return asked + [("sheet-errors", e) for e in self.errors] + [pair for f in self.fields for pair in f.errors]

    def words(self) -> dict[str, str | None]:
        """Each option's words as the boxes read now (None for one that cannot be read, or
        for all while the sheet cannot be read): what the "Now:" hints say as typed."""
        read = self.sheet is not None or bool(self.confirm)
        return {f.name: f.words if read and f.words and not f.errors else None for f in self.fields}

    def choice_words(self, option: AnOption, value: str) -> str:
        """What a select's choice says to players: the option's words for that value, under this
        sheet (or the preset's, while the form cannot be read); the value is the choice's JSON."""
        sheet = self.sheet or (PRESETS[self.preset_id].sheet if self.preset_id in PRESETS else PRESETS["common"].sheet)
        try:
            return option.words(option.read(value, option.name), sheet)
        except (SheetError, KeyError):
            return value

    def groups(self) -> list[tuple[str, str, list[OptionField], bool]]:
        """(group id, title, fields, whether any is changed or wrong) in reading order."""
        out = []
        for group, title, options in options_by_group():
            fields = [self.by_name[o.name] for o in options]
            out.append((group, title, fields, any(f.changed or f.errors for f in fields)))
        return out

    def sheet_json(self) -> dict[str, JSON]:
        assert self.sheet is not None
        return self.sheet.to_json()

    # -- building ------------------------------------------------------------------------

    @classmethod
    def from_sheet(cls, sheet: RuleSheet) -> SheetEditor:
        base = PRESETS[sheet.preset].sheet if sheet.preset in PRESETS else None
        rows = {o.name: _rows_for(o, o.write(getattr(sheet, o.name)), sheet.deals) for o in OPTIONS}
        shown = sheet_boxes(sheet, rows)
        preset = sheet_boxes(base, rows) if base is not None else None
        fields = []
        for option in OPTIONS:
            f = _make_field(option, shown, preset, rows[option.name])
            f.changed = base is not None and getattr(sheet, option.name) != getattr(base, option.name)
            f.words = sheet.describe(option.name)
            f.preset_words = base.describe(option.name) if base is not None else None
            fields.append(f)
        editor = cls(sheet.preset, fields, sheet)
        # A sheet shown as it stands (a game's, a link's) was taken with its values: sent back
        # unchanged, they are not asked about again.
        editor.confirm = ";".join(u.key for u in unusual_values(sheet))
        editor.confirmed = bool(editor.confirm)
        return editor

    @classmethod
    def for_preset(cls, preset_id: str) -> SheetEditor:
        return cls.from_sheet(PRESETS[preset_id].sheet)

    @classmethod
    def from_form(cls, form: Mapping[str, str], preset_id: str | None) -> SheetEditor:
        """Read every option's boxes; each one that cannot be read keeps a message naming it."""
        base = PRESETS[preset_id].sheet if preset_id in PRESETS else None
        rows = _posted_row_counts(form)
        shown = _posted_boxes(form, rows)
        preset = sheet_boxes(base, rows) if base is not None else None
        data: dict[str, JSON] = {"preset": preset_id} if base is not None else {}
        editor = cls(preset_id, [_read_option(o, shown, rows[o.name], base, preset, data) for o in OPTIONS], None)
        if any(f.errors for f in editor.fields):
            return editor
        try:
            sheet = load_sheet(data)
        except SheetError as err:
            name = _option_of(err.field)
            if name in editor.by_name:
                editor.by_name[name].place(err.field, err.reason)
            else:
                editor.errors.append(in_labels(f"{err.field}: {err.reason}" if err.field else err.reason))
            return editor
        for f in editor.fields:
            f.words = sheet.describe(f.name)
        unusual = unusual_values(sheet)
        editor.confirm = ";".join(u.key for u in unusual)
        editor.confirmed = bool(unusual) and form.get(CONFIRM, "") == editor.confirm
        if unusual and not editor.confirmed:
            for found in unusual:
                editor.by_name[found.option].place(found.field, _unusual_message(found))
            return editor
        editor.sheet = sheet
        return editor


def _read_option(option: AnOption, shown: Mapping[str, Shown], rows: int, base: RuleSheet | None,
                 preset: Mapping[str, Shown] | None, data: dict[str, JSON]) -> OptionField:
    """One option's field as posted; its JSON value goes in ``data`` when it reads and differs
    from the preset's."""
    errors: dict[str, str] = {}
    value = _read(LAYOUTS[option.name], f"opt-{option.name}", lambda i: shown.get(i, ""), rows, errors)
    f = _make_field(option, shown, preset, rows)
    base_value = getattr(base, option.name) if base is not None else None
    if base is not None:
        f.preset_words = base.describe(option.name)
    if not errors:
        try:
            read = option.read(value, option.name, base_value)
        except SheetError as err:
            f.place(err.field, err.reason)
        else:
            if base is None or read != base_value:
                data[option.name] = value
                f.changed = base is not None
            return f
    for box in f.boxes:
        if box.id in errors:
            f.add_error(box, _message(option, box.where, errors[box.id]))
    f.changed = base is not None and any(b.value != b.preset for b in f.boxes)
    return f


def _posted_row_counts(form: Mapping[str, str]) -> dict[str, int]:
    """How many rows each array option shows as posted (at least one, where its messages go):
    a per-deal option one for each deal."""
    deals = _posted_deals(form)
    rows = {}
    for option in OPTIONS:
        lay = LAYOUTS[option.name]
        posted = _posted_rows(f"opt-{option.name}", form, lay.most) if isinstance(lay, Rows) else 0
        per_deal = isinstance(lay, Rows) and lay.per_deal
        rows[option.name] = min(max(posted, deals, 1), MAX_SHEET_DEALS) if per_deal else max(posted, 1)
    return rows


def _posted_boxes(form: Mapping[str, str], rows: Mapping[str, int]) -> dict[str, Shown]:
    """Every box of the editor as posted: its text, or whether a checkbox was ticked."""
    out: dict[str, Shown] = {}
    for option in OPTIONS:
        for _, boxes in _rows(LAYOUTS[option.name], f"opt-{option.name}", "", rows[option.name]):
            for box_id, _, scalar, _ in boxes:
                out[box_id] = (box_id in form) if scalar.kind == "bool" else str(form.get(box_id, "")).strip()
    return out


def _posted_deals(form: Mapping[str, str]) -> int:
    """The number of deals the form gives (the rows of a per-deal option), 0 when unreadable."""
    text = str(form.get("opt-deals", "")).strip()
    return min(int(text), MAX_SHEET_DEALS) if re.fullmatch(r"\d{1,3}", text) else 0


def _option_of(field_path: str) -> str:
    """The option an error's field names: ``sheet.opening_bands[1].below`` -> ``opening_bands``."""
    path = field_path[len("sheet."):] if field_path.startswith("sheet.") else field_path
    return re.split(r"[.\[]", path, maxsplit=1)[0]


class PresetDisplay(TypedDict):
    """A preset as the page's script loads it: every box, and each option's words."""

    boxes: dict[str, Shown]
    words: dict[str, str]


def preset_displays() -> dict[str, PresetDisplay]:
    """Every preset's boxes and each option's words, for the script that loads a preset
    without a round trip (a preset needing rows the page lacks is loaded by the server)."""
    return {pid: {"boxes": sheet_boxes(p.sheet),
                  "words": {o.name: p.sheet.describe(o.name) for o in OPTIONS}}
            for pid, p in PRESETS.items()}
