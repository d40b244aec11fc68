"""Reading a sheet: a shipped preset's by its id (:func:`preset`), or a sheet's JSON form
(:func:`load_sheet`): a preset id, or a preset and the options a table changed.

The presets themselves (:class:`~.sheet.Preset`, :data:`~.sheet.PRESETS`) are beside the
sheet that compares itself with them; their values, version by version, are data in
:mod:`.published`. Presets carry a version; every version stays, so a sheet made from
version 1 keeps being compared with version 1. Stored sheets are written in full
(:meth:`RuleSheet.to_stored_json`); read back with ``stored=True``, an option missing
from them (added since) takes its declared default.

>>> sheet = load_sheet({"preset": "pagat", "hand_size": 11, "foot_size": 11})
>>> [change.option for change in sheet.changes()]
['hand_size', 'foot_size']
>>> sheet.to_json()
{'preset': 'pagat', 'preset_version': 2, 'hand_size': 11, 'foot_size': 11}
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .catalogue import OPTION_BY_NAME, OPTIONS
from .errors import SheetError
from .sheet import PRESETS, SHEET_SCHEMA, UNVERSIONED, RuleSheet


def preset(preset_id: object, field: str = "preset") -> RuleSheet:
    """The sheet of a shipped preset.

    >>> preset("pagat").hand_size
    13
    >>> preset("house")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    scorepad.rules.errors.SheetError: preset: 'house' is not a preset; presets are bga, bicycle, common, ...
    """
    found = PRESETS.get(preset_id) if isinstance(preset_id, str) else None
    if found is None:
        raise SheetError(field, f"{preset_id!r} is not a preset; presets are {', '.join(sorted(PRESETS))}")
    return found.sheet


_META = ("schema", "preset", "preset_version")


def load_sheet(data: object, field: str = "sheet", stored: bool = False) -> RuleSheet:
    """A sheet from its JSON form: a preset id, or an object with ``preset`` and options.

    ``preset_version`` picks the preset's version the options change (today's when not
    given). Without ``preset``, the object must give every option. ``stored`` reads what
    scorepad itself wrote before (the database, an export): an option missing from it did
    not exist then and takes its declared default, and a sheet without ``preset_version``
    was made before versions were recorded. Errors name the option.

    >>> load_sheet("bicycle").last_card
    <LastCard.DISCARD: 'discard'>
    >>> load_sheet({"preset": "common", "book_size": 2})
    Traceback (most recent call last):
    ...
    scorepad.rules.errors.SheetError: sheet.book_size: must be from 3 to 13, not 2
    """
    if isinstance(data, RuleSheet):
        return data
    if isinstance(data, str):
        return preset(data, field)
    if not isinstance(data, Mapping):
        raise SheetError(field, "must be a preset id such as 'pagat', or a sheet object")
    base = _base_of(data, field, stored)
    values: dict[str, Any] = {}  # Any: each option its own type of value, checked by RuleSheet
    for key, value in data.items():
        if key in _META:
            continue
        option = OPTION_BY_NAME.get(key)
        if option is None:
            raise SheetError(f"{field}.{key}", "is not an option of a rule sheet")
        values[key] = option.read(value, f"{field}.{key}", getattr(base, key) if base else None)
    if base is None:
        missing = [o.name for o in OPTIONS if o.name not in values]
        if stored:
            values.update({name: OPTION_BY_NAME[name].default for name in missing})
        elif missing:
            raise SheetError(f"{field}.{missing[0]}", "is missing; a sheet without a preset gives every option")
        try:
            return RuleSheet(**values)
        except SheetError as err:
            raise err.within(field) from None
    try:
        return dataclasses.replace(base, **values)
    except SheetError as err:
        raise err.within(field) from None


def _base_of(data: Mapping[str, object], field: str, stored: bool) -> RuleSheet | None:
    """The preset version a sheet object starts from, its ``schema`` checked."""
    schema = data.get("schema", SHEET_SCHEMA)
    if isinstance(schema, bool) or schema not in range(1, SHEET_SCHEMA + 1):
        raise SheetError(f"{field}.schema", f"{schema!r:.20} is not a sheet schema this scorepad reads "
                         f"(1 to {SHEET_SCHEMA}); it was written by a newer version")
    preset_id, version = data.get("preset"), data.get("preset_version")
    if preset_id is None:
        return None  # the sheet gives every option itself: a preset_version left behind says nothing
    preset(preset_id, f"{field}.preset")  # refuses an unknown preset, naming the field
    found = PRESETS[str(preset_id)]
    if version is None:
        version = UNVERSIONED if stored else found.version
    if not isinstance(version, int) or isinstance(version, bool) or version not in found.versions:
        raise SheetError(f"{field}.preset_version", f"{preset_id} has versions 1 to {found.version}, "
                         f"not {version!r:.20}")
    return found.versions[version]
