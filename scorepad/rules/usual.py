"""The values the shipped sheets use, and a sheet's values outside them.

A number in a sheet (a card's points, a bonus, a deal's minimum) far from every value the
shipped presets give that place, in any version of any of them, is unusual: legal, but
likely a slip of the thumb (a red three worth 99,999). The presets' range for the place,
lowest to highest, is widened by its own size, or by its largest value's size when that is
more (and by 1 at least), on each side (all presets giving 100: 0 to 200; 50 to 180: -130
to 360; 1: 0 to 2), so that a table's own amount near the published ones is taken without a
question. The range is read from the presets themselves, so a preset added or revised moves
it; the sheet editor asks once whether an unusual value is right before it takes it. A place
no preset gives a number (an option every preset leaves unset), or where every preset gives
0 (an amount no preset charges or pays, such as a failed take of the pile: the presets say
nothing of its size, while published sheets charge 100 or more), has no range, so nothing
there is unusual.

>>> from scorepad.rules import preset
>>> [u.field for u in unusual_values(preset("common").replace(red_three_bonus=99_999))]
['red_three_bonus']
>>> unusual_values(preset("pagat"))
[]
>>> unusual_values(preset("common").replace(pile_take_penalty=100))  # no preset charges for it
[]
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass

from .catalogue import OPTIONS
from .read import JSON
from .sheet import PRESETS, RuleSheet


@dataclass(frozen=True)
class Unusual:
    """A number of a sheet outside the shipped presets' range for its place: ``field`` names
    the place as the rules' messages do (``card_values.K``, ``opening_minimums[1]``)."""

    option: str
    field: str
    value: int
    lo: int
    hi: int

    @property
    def published(self) -> str:
        """What the shipped presets give the place: ``100``, or ``50 to 180``."""
        return f"{self.lo:,}" if self.lo == self.hi else f"{self.lo:,} to {self.hi:,}"

    @property
    def key(self) -> str:
        """The value as a confirmation names it, so that a confirmed value is not asked again
        while a new unusual value is."""
        return f"{self.field}={self.value}"


def _numbers(value: JSON, path: str) -> Iterator[tuple[str, int]]:
    """Each whole number in an option's JSON with its field path (yes/no is no number)."""
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _numbers(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _numbers(item, f"{path}[{i}]")


def _place(field: str) -> str:
    """A field path with its rows pooled: every deal's minimum shares one range, with the
    minimum given once for every deal."""
    return re.sub(r"\[\d+\]", "", field)


def _sheet_numbers(sheet: RuleSheet) -> Iterator[tuple[str, str, int]]:
    for option in OPTIONS:
        for field, n in _numbers(option.write(getattr(sheet, option.name)), option.name):
            yield option.name, field, n


@functools.cache
def usual_ranges() -> dict[str, tuple[int, int]]:
    """The lowest and highest number every version of every shipped preset gives each place."""
    ranges: dict[str, tuple[int, int]] = {}
    for found in PRESETS.values():
        for sheet in (found.sheet, *found.versions.values()):
            for _, field, n in _sheet_numbers(sheet):
                lo, hi = ranges.get(_place(field), (n, n))
                ranges[_place(field)] = (min(lo, n), max(hi, n))
    return {place: found for place, found in ranges.items() if found != (0, 0)}


def unusual_values(sheet: RuleSheet) -> list[Unusual]:
    """The sheet's numbers far outside the shipped presets' range for their place (widened as
    the module says), in the catalogue's order."""
    ranges = usual_ranges()
    out = []
    for option, field, n in _sheet_numbers(sheet):
        usual = ranges.get(_place(field))
        if usual is None:
            continue
        lo, hi = usual
        margin = max(hi - lo, abs(lo), abs(hi), 1)
        if not lo - margin <= n <= hi + margin:
            out.append(Unusual(option, field, n, lo, hi))
    return out
