"""Bounds on decoded JSON before anything reads it as a deal, a sheet or a game.

A body no deal or sheet could need is refused before it is read: nesting deeper than
:data:`~scorepad.rules.limits.MAX_DEPTH` levels, or a number past
:data:`~scorepad.rules.limits.MAX_NUMBER` (a count that large could only break scoring,
never be real). The API checks every request body with :func:`check_values`, and an
import's document (:mod:`scorepad.storage.document`) the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Any, TypeAlias, TypeVar

from .errors import ReadError
from .limits import MAX_COUNTED_POINTS, MAX_DEPTH, MAX_NUMBER

# A JSON value as the rules core writes it (``to_json``): what ``json.dumps`` takes and
# ``json.loads`` gives back. Input is read as ``object`` and narrowed where it is read.
JSON: TypeAlias = "None | bool | int | float | str | list[JSON] | dict[str, JSON]"

E = TypeVar("E", bound=Enum)

_PLAIN = frozenset((dict, list, str, int, float, bool, type(None)))


def json_number(text: str) -> int | float:
    """A JSON number written with a fraction or an exponent, as ``json.loads(parse_float=)``
    hands it over: the integer it equals when it has no fractional part (JSON Schema calls
    ``84.0`` and ``8.4e1`` integers), else the float, which every whole-number field refuses.
    A bool is never made (``true`` is no number).

    >>> json_number("84.0"), json_number("8.4e1"), json_number("84.5"), json_number("1e400")
    (84, 84, 84.5, inf)
    """
    value = float(text)
    return int(value) if value.is_integer() else value


def check_values(data: object) -> None:
    """Refuse ``data`` when it nests too deep or holds a number out of range.

    >>> check_values({"sides": [{"melds": [{"naturals": 7}]}]})
    >>> check_values({"sides": [{"melds": [{"naturals": 10 ** 12}]}]})
    Traceback (most recent call last):
    ...
    scorepad.rules.errors.ReadError: sides[0].melds[0].naturals: is out of range: numbers here are at most 1,000,000,000
    """
    if _values_fit(data):
        return
    stack: list[tuple[object, str, int]] = [(data, "", 1)]
    while stack:
        value, where, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ReadError("", f"the body is nested more than {MAX_DEPTH} levels deep")
        if isinstance(value, dict):
            stack.extend((v, f"{where}.{k}" if where else str(k), depth + 1) for k, v in reversed(value.items()))
        elif isinstance(value, list):
            stack.extend((v, f"{where}[{i}]", depth + 1) for i, v in reversed(list(enumerate(value))))
        elif isinstance(value, (int, float)) and not isinstance(value, bool) and not abs(value) <= MAX_NUMBER:
            raise ReadError(where, f"is out of range: numbers here are at most {MAX_NUMBER:,}")


def _values_fit(data: object) -> bool:
    """Whether :func:`check_values` would pass ``data``, found level by level without
    writing any value's path: a large body (an import) holds a hundred thousand values."""
    level: list[Any] = [data]  # Any: read by exact type (a dict, a list...), faster than isinstance
    depth = 1
    while level:
        if depth > MAX_DEPTH:
            return False
        below: list[Any] = []  # as level
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


# -- reading the fields of a decoded JSON object ----------------------------------------------


def at(field: str, key: str) -> str:
    return f"{field}.{key}" if field else key


def only(data: Mapping[object, object], keys: tuple[str, ...], field: str) -> None:
    for key in data:
        if key not in keys:
            raise ReadError(at(field, str(key)), f"is not a field here; expected {', '.join(keys)}")


def read_list(value: object, field: str, most: int | None = None, what: str = "items") -> list[object]:
    if value is None:
        raise ReadError(field, "is missing")
    if not isinstance(value, list):
        raise ReadError(field, "must be a list")
    if most is not None and len(value) > most:
        raise ReadError(field, f"lists {len(value):,} {what}; at most {most}")
    return value


def read_choice(data: Mapping[str, object], key: str, kind: type[E], values: tuple[str, ...]) -> E | None:
    """An optional word of ``values`` (None when absent)."""
    value = data.get(key)
    if value is None:
        return None
    if value not in values:
        raise ReadError(key, f"must be {' or '.join(repr(v) for v in values)}, not {value!r:.40}")
    return kind(value)


def read_points(value: object, field: str) -> int:
    """Points counted at the table (``meld_points``, ``cards_left_points``): a whole number;
    a negative one is read (the referee reports it).

    >>> read_points(415, "meld_points")
    415
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise ReadError(field, f"must be a whole number of points, not {value!r:.40}")
    if not -MAX_COUNTED_POINTS <= value <= MAX_COUNTED_POINTS:
        raise ReadError(field, f"must be from -{MAX_COUNTED_POINTS:,} to {MAX_COUNTED_POINTS:,}; no pack holds more")
    return value
