"""The rule-sheet editor: every option of the catalogue (:data:`~scorepad.rules.sheet.OPTIONS`)
as one input, read back through ``load_sheet``; an option that cannot be read keeps its text
and carries a message naming it. And the form that amends a game's sheet.
"""

from __future__ import annotations

import json
import re
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask_wtf import FlaskForm
from wtforms import HiddenField, SelectField, StringField

from ...rules import OPTIONS, PRESETS, RuleSheet, SheetError, load_sheet
from ...rules.sheet import Choice, Option, options_by_group
from . import PlainText, preset_choices


class AmendForm(FlaskForm):
    preset = SelectField("Start from the sheet", choices=lambda: [("", "no preset")] + preset_choices())
    reason = StringField("Why the table changes the sheet", [PlainText(multiline=True)])
    revision = HiddenField()


# -- the rule-sheet editor ---------------------------------------------------------------------

_HINTS = typing.get_type_hints(RuleSheet)


def option_kind(option: Option) -> tuple[str, tuple[str, ...]]:
    """How an option is edited: ``choice`` (with its values), ``bool``, ``int``,
    ``optional_int`` (blank for none) or ``json`` (its JSON form as text)."""
    hint = _HINTS[option.name]
    if isinstance(hint, type) and issubclass(hint, Choice):
        return "choice", tuple(c.value for c in hint)
    if hint is bool:
        return "bool", ()
    if hint is int:
        return "int", ()
    if hint == (int | None):
        return "optional_int", ()
    return "json", ()


KINDS: dict[str, tuple[str, tuple[str, ...]]] = {o.name: option_kind(o) for o in OPTIONS}

# What a blank box means for a structured option, where blank can mean something.
_BLANK_JSON: dict[str, Any] = {"special_books": {}, "special_books_dirty": {}, "three_books": {},
                               "decks_by_players": {}, "pile_blocked_by": []}


def display_value(option: Option, value: Any) -> str | bool:
    """What an option's input shows for a value of the sheet."""
    kind, _ = KINDS[option.name]
    if kind == "bool":
        return bool(value)
    if kind == "choice":
        return value.value
    if kind == "optional_int":
        return "" if value is None else str(value)
    if kind == "int":
        return str(value)
    return json.dumps(option.write(value))


def preset_displays() -> dict[str, dict[str, str | bool]]:
    """Every preset's inputs, for the script that loads a preset without a round trip."""
    return {pid: {o.name: display_value(o, getattr(p.sheet, o.name)) for o in OPTIONS}
            for pid, p in PRESETS.items()}


def _lenient_json(text: str) -> Any:
    """JSON, or a bare comma-separated list of numbers or words (``50, 90, 120``)."""
    try:
        return json.loads(text)
    except RecursionError:  # nested past the parser's depth: no option's value is
        raise ValueError("nested too deeply") from None
    except ValueError:
        pass
    parts = [p.strip() for p in re.split(r"[,\s]+", text.strip().strip("[]")) if p.strip()]
    if parts and all(re.fullmatch(r"-?\d+", p) for p in parts):
        numbers = [int(p) for p in parts]
        return numbers[0] if len(numbers) == 1 else numbers
    if parts and all(re.fullmatch(r"[A-Za-z][\w-]*", p) for p in parts):
        return [p.lower() for p in parts]
    raise ValueError


@dataclass
class OptionField:
    """One option's input: what it shows, the preset's value, whether it differs, its error."""

    option: Option
    kind: str
    choices: tuple[str, ...]
    value: str | bool
    preset_value: str | bool | None
    changed: bool = False
    error: str | None = None
    words: str = ""

    @property
    def name(self) -> str:
        return self.option.name


class SheetEditor:
    """Every option of a sheet as form inputs, grouped as the catalogue groups them."""

    def __init__(self, preset_id: str | None, fields: list[OptionField], sheet: RuleSheet | None,
                 errors: list[str] | None = None) -> None:
        self.preset_id = preset_id
        self.fields = fields
        self.by_name = {f.name: f for f in fields}
        self.sheet = sheet
        self.errors = errors or []

    @property
    def ok(self) -> bool:
        return self.sheet is not None and not self.errors and not any(f.error for f in self.fields)

    @property
    def changed(self) -> list[OptionField]:
        return [f for f in self.fields if f.changed]

    def groups(self) -> list[tuple[str, str, list[OptionField], bool]]:
        """(group id, title, fields, whether any is changed or wrong) in reading order."""
        out = []
        for group, title, options in options_by_group():
            fields = [self.by_name[o.name] for o in options]
            out.append((group, title, fields, any(f.changed or f.error for f in fields)))
        return out

    def sheet_json(self) -> dict[str, Any]:
        assert self.sheet is not None
        return self.sheet.to_json()

    # -- building ------------------------------------------------------------------------

    @classmethod
    def from_sheet(cls, sheet: RuleSheet) -> SheetEditor:
        base = PRESETS[sheet.preset].sheet if sheet.preset in PRESETS else None
        fields = []
        for option in OPTIONS:
            kind, choices = KINDS[option.name]
            value = getattr(sheet, option.name)
            base_value = getattr(base, option.name) if base is not None else None
            fields.append(OptionField(
                option, kind, choices, display_value(option, value),
                display_value(option, base_value) if base is not None else None,
                changed=base is not None and value != base_value, words=sheet.describe(option.name)))
        return cls(sheet.preset, fields, sheet)

    @classmethod
    def for_preset(cls, preset_id: str) -> SheetEditor:
        return cls.from_sheet(PRESETS[preset_id].sheet)

    @classmethod
    def from_form(cls, form: Mapping[str, str], preset_id: str | None) -> SheetEditor:
        """Read every option's input; each one that cannot be read keeps a message naming it."""
        base = PRESETS[preset_id].sheet if preset_id in PRESETS else None
        fields: list[OptionField] = []
        data: dict[str, Any] = {"preset": preset_id} if base is not None else {}
        for option in OPTIONS:
            kind, choices = KINDS[option.name]
            key = f"opt-{option.name}"
            base_value = getattr(base, option.name) if base is not None else None
            shown_base = display_value(option, base_value) if base is not None else None
            raw: str | bool = (key in form) if kind == "bool" else str(form.get(key, "")).strip()
            f = OptionField(option, kind, choices, raw, shown_base)
            fields.append(f)
            try:
                value = _read_input(option, kind, raw)
                read = option.read(value, option.name, base_value)
            except SheetError as err:
                f.error = _option_message(option, err.field, err.reason)
                f.changed = base is not None and raw != shown_base
                continue
            if base is None or read != base_value:
                data[option.name] = value
                f.changed = base is not None
        if any(f.error for f in fields):
            return cls(preset_id, fields, None)
        try:
            sheet = load_sheet(data)
        except SheetError as err:
            name = _option_of(err.field)
            editor = cls(preset_id, fields, None)
            if name in editor.by_name:
                editor.by_name[name].error = _option_message(OPTION_BY_NAME[name], err.field, err.reason)
            else:
                editor.errors.append(f"{err.field}: {err.reason}" if err.field else err.reason)
            return editor
        for f in fields:
            f.words = sheet.describe(f.name)
        return cls(preset_id, fields, sheet)


OPTION_BY_NAME = {o.name: o for o in OPTIONS}


def _read_input(option: Option, kind: str, raw: str | bool) -> Any:
    """An input's text as the JSON value the catalogue reads."""
    if kind in ("bool", "choice"):
        return raw
    assert isinstance(raw, str)
    if kind in ("int", "optional_int"):
        if not raw:
            if kind == "optional_int":
                return None
            raise SheetError(option.name, "needs a number")
        if not re.fullmatch(r"[+-]?\d{1,9}", raw.replace(",", "").replace(" ", "")):
            raise SheetError(option.name, f"must be a whole number, not {raw!r}")
        return int(raw.replace(",", "").replace(" ", ""))
    if not raw:
        if option.name in _BLANK_JSON:
            return _BLANK_JSON[option.name]
        raise SheetError(option.name, "needs a value")
    try:
        return _lenient_json(raw)
    except ValueError:
        example = json.dumps(option.write(getattr(PRESETS["pagat"].sheet, option.name)))
        raise SheetError(option.name, f"cannot be read; write it as JSON, such as {example}") from None


def _option_of(field_path: str) -> str:
    """The option an error's field names: ``sheet.opening_bands[1].below`` -> ``opening_bands``."""
    path = field_path[len("sheet."):] if field_path.startswith("sheet.") else field_path
    return re.split(r"[.\[]", path, maxsplit=1)[0]


def _option_message(option: Option, field_path: str, reason: str) -> str:
    path = field_path[len("sheet."):] if field_path.startswith("sheet.") else field_path
    where = f" ({path})" if path and path != option.name else f" ({option.name})"
    return f"{option.label}{where}: {reason}"

