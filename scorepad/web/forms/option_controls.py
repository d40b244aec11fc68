"""How an option's JSON Schema (:meth:`~scorepad.rules.catalogue.Option.schema`) becomes the
sheet editor's controls: a :data:`Layout` per option (:data:`LAYOUTS`), each box a
:class:`Scalar` that shows a JSON value as text and reads the text back. The editor
(:mod:`.sheet_editor`) lays out, fills and reads the boxes from these."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass

from ...rules import OPTIONS
from ...rules.cards import Card
from ...rules.limits import MAX_SHEET_DEALS
from ...rules.read import JSON

Shown = str | bool  # what one box holds: its text, or whether a checkbox is ticked


class Unreadable(Exception):
    """A box whose text is no value: the reason, for the message naming the box."""


@dataclass(frozen=True)
class Scalar:
    """One box: ``int`` (a number box within bounds, also taking the words of ``choices``),
    ``choice`` (a select), ``bool`` (a checkbox), ``lines`` (a text area, a list of text an item
    a line, each of at most ``hi`` characters) or ``counts`` (a text box: a number, or counts by
    key such as "7: 1, 5: 1"); ``optional`` when blank means none (null)."""

    kind: str
    lo: int | None = None
    hi: int | None = None
    choices: tuple[str, ...] = ()
    optional: bool = False

    def show(self, value: JSON) -> Shown:
        if self.kind == "bool":
            return bool(value)
        if self.kind == "lines":
            return "\n".join(str(line) for line in value) if isinstance(value, list) else ""
        if self.kind == "counts" and isinstance(value, dict):
            return ", ".join(f"{key}: {n}" for key, n in value.items())
        return "" if value is None else str(value)

    def read(self, raw: Shown) -> JSON:
        """The JSON value of the box's text (None for a blank that may be blank)."""
        if self.kind == "bool":
            return bool(raw)
        if self.kind == "lines":  # a blank line is no item; the rules core reads each line
            return [line.strip() for line in str(raw).splitlines() if line.strip()]
        text = str(raw).strip()
        if self.kind == "choice" or text.lower() in self.choices:
            return text.lower() if self.kind == "int" else text
        if self.kind == "counts" and ":" in text:
            return _counts(text)
        if not text:
            if self.optional:
                return None
            raise Unreadable("needs a number")
        plain = text.replace(",", "").replace(" ", "")
        if not re.fullmatch(r"[+-]?\d{1,9}", plain):
            words = "".join(f" or {word!r}" for word in self.choices)
            raise Unreadable(f"must be a whole number{words}, not {text if len(text) <= 20 else text[:19] + '…'!r}")
        return int(plain)


def _counts(text: str) -> JSON:
    """ "7: 1, 5: 1" as ``{"7": 1, "5": 1}`` (the rules core checks each key and count)."""
    pairs = [part.partition(":") for part in text.split(",") if part.strip()]
    if any(not key.strip() or not re.fullmatch(r"\s*\d{1,3}\s*", n) for key, _, n in pairs):
        raise Unreadable("gives counts by rank, such as 7: 1, 5: 1")
    return {key.strip().upper(): int(n) for key, _, n in pairs}


@dataclass(frozen=True)
class Props:
    """An object with fixed properties: a box each, a blank box leaving its property out."""

    props: tuple[tuple[str, Scalar], ...]


@dataclass(frozen=True)
class SetOf:
    """An array of unique items from a short list: a checkbox each."""

    members: tuple[str, ...]
    numbers: bool


@dataclass(frozen=True)
class Rows:
    """An array: a row per item. ``per_deal`` when the option is one value or one per deal."""

    item: Scalar | Props
    most: int
    per_deal: bool = False


Layout = Scalar | Props | SetOf | Rows


class NoControl(ValueError):
    """A schema shape the editor has no control for (a new option needs one here)."""


def _schemas(value: JSON) -> list[dict[str, JSON]]:
    """The schemas of an ``anyOf``."""
    return [part for part in value if isinstance(part, dict)] if isinstance(value, list) else []


def _schema(value: JSON) -> dict[str, JSON]:
    """A schema inside a schema (its ``items``, one of its ``properties``)."""
    return value if isinstance(value, dict) else {}


def _bound(value: JSON) -> int | None:
    return value if isinstance(value, int) else None


def layout(schema: Mapping[str, JSON]) -> Layout:  # noqa: C901 - one branch per JSON Schema shape
    """The controls that edit a value of this JSON Schema."""
    if "anyOf" in schema:
        parts = [p for p in _schemas(schema["anyOf"]) if p.get("type") != "null"]
        inner = [layout(p) for p in parts]
        if len(parts) == 1 and isinstance(inner[0], Scalar):  # a value or null
            return dataclasses.replace(inner[0], optional=True)
        if len(parts) == 2 and isinstance(inner[1], SetOf):  # one item or a set of them
            return inner[1]
        if len(parts) == 2 and isinstance(inner[1], Rows) and inner[1].item == inner[0]:
            return dataclasses.replace(inner[1], per_deal=True)  # one value, or one per deal
        first, second = (inner[0], inner[1]) if len(parts) == 2 and isinstance(inner[0], Scalar) else (Scalar(""), None)
        if first.kind == "choice" and second == Scalar("bool"):
            return first  # words, or the yes/no an older sheet wrote: the editor writes words
        if first.kind == "choice" and isinstance(second, Props) and all(sub == first for _, sub in second.props):
            return second  # one word, or one for each part: a select each, the word showing in each
        if first.kind == "int" and isinstance(second, Scalar) and second.kind == "choice":
            return dataclasses.replace(first, choices=second.choices)  # a number, or a word
        if first.kind == "int" and isinstance(second, Props):
            return dataclasses.replace(first, kind="counts")  # a number, or counts by key ("7: 1, 5: 1")
        raise NoControl(f"no control for {schema}")
    kind = schema.get("type")
    if kind == "integer":
        return Scalar("int", _bound(schema.get("minimum")), _bound(schema.get("maximum")))
    if kind == "boolean":
        return Scalar("bool")
    enum = schema.get("enum")
    if kind == "string" and isinstance(enum, list):
        return Scalar("choice", choices=tuple(str(word) for word in enum))
    if kind == "object" and "properties" in schema:
        props = tuple((key, layout(_schema(sub))) for key, sub in _schema(schema["properties"]).items())
        scalars = tuple((key, sub) for key, sub in props if isinstance(sub, Scalar))
        if len(scalars) == len(props):
            return Props(scalars)
    if kind == "array":
        items = _schema(schema["items"])
        if items.get("type") == "string" and "enum" not in items:  # free text: a line each
            return Scalar("lines", hi=_bound(items.get("maxLength")))
        item = layout(items)
        if schema.get("uniqueItems") and isinstance(item, Scalar):
            if item.kind == "choice":
                return SetOf(item.choices, numbers=False)
            if item.kind == "int" and item.lo is not None and item.hi is not None and item.hi - item.lo < 20:
                return SetOf(tuple(str(n) for n in range(item.lo, item.hi + 1)), numbers=True)
        if isinstance(item, (Scalar, Props)):
            most = schema.get("maxItems", MAX_SHEET_DEALS)
            return Rows(item, most if isinstance(most, int) else MAX_SHEET_DEALS)
    raise NoControl(f"no control for {schema}")


LAYOUTS: dict[str, Layout] = {o.name: layout(o.schema()) for o in OPTIONS}


def part_label(key: str) -> str:
    """A property's label: a card by its name, else the key in words."""
    if key in {c.value for c in Card}:
        return {"JK": "Joker", "3B": "Black 3", "3R": "Red 3"}.get(key, key)
    return key.replace("_", " ").replace("-", " ").capitalize()
