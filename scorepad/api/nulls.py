"""``null`` in a request body only where the API's description allows it.

The readers of the rules core take an absent key and a key set to ``null`` alike (a page's
form leaves a field blank either way), so the API refuses a ``null`` before they read the
body, wherever the request's schema in :func:`scorepad.api.openapi.document` has none: a 400
naming the field (``"permission": null`` on a deal's ending says to leave the key out).
Where the schema says nullable (``went_out``, ``foot_played``, ...) ``null`` still means "not
given".

The body is walked beside its schema: ``$ref`` followed, a union (``anyOf``, ``oneOf``,
``allOf``) read as every branch at once (a key or an item is looked up in each), so a
``null`` passes where any branch the value might take allows it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

from flask import request

from ..rules.read import JSON
from .openapi import document
from .schema import Schema

_PARAMETER = re.compile(r"<(?:[^:<>]+:)?([^<>]+)>")  # Flask's <int:number>, as OpenAPI's {number}


def _mapping(value: JSON) -> Schema:
    """A part of the description read as a schema (an object; anything else as an empty one)."""
    return value if isinstance(value, dict) else {}


@cache
def _bodies() -> dict[tuple[str, str], Schema]:
    """Each operation's JSON request body schema, by (path as OpenAPI writes it, method)."""
    out: dict[tuple[str, str], Schema] = {}
    for path, item in _mapping(document()["paths"]).items():
        for method, operation in _mapping(item).items():
            content = _mapping(_mapping(_mapping(operation).get("requestBody")).get("content"))
            if "application/json" in content:
                out[path, method] = _mapping(_mapping(content["application/json"]).get("schema"))
    return out


@cache
def _components() -> Schema:
    return _mapping(_mapping(document()["components"]).get("schemas"))


def request_schema() -> Schema | None:
    """The schema of this request's body, when its route describes one."""
    rule = request.url_rule
    if rule is None:
        return None
    return _bodies().get((_PARAMETER.sub(r"{\1}", rule.rule), request.method.lower()))


def null_field(data: JSON, schema: Schema) -> str | None:
    """The first field of ``data`` holding a ``null`` that ``schema`` does not allow (its
    dotted path), or None.

    >>> null_field({"a": None, "b": [1, None]}, {"properties": {"a": {"type": ["integer", "null"]},
    ...     "b": {"items": {"type": "integer"}}}})
    'b[1]'
    """
    root = _Node.of((schema,))
    if data is None:
        return None if root.allows_null else ""
    stack: list[tuple[JSON, _Node, _Path]] = [(data, root, None)]
    while stack:  # only objects and lists are pushed: a null is judged where it is met
        value, node, path = stack.pop()
        items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
        for key, item in items:
            if item is None or isinstance(item, (dict, list)):
                inner = node.property(key) if isinstance(key, str) else node.item(key)
                if inner is None:
                    continue
                if item is None:
                    if not inner.allows_null:
                        return _written((path, key))
                else:
                    stack.append((item, inner, (path, key)))
    return None


_Path = tuple["_Path", "str | int"] | None  # a value's place: its parent's, and its key or index


def _written(path: _Path) -> str:
    """A place as a field's dotted path: ``sides[0].melds``."""
    parts: list[str | int] = []
    while path is not None:
        path, key = path
        parts.append(key)
    out = ""
    for key in reversed(parts):
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else key)
    return out


class _Node:
    """The schemas a value may be read under (every ``$ref`` resolved, every union's branches
    taken in), with what each of its keys and items may be read under: made once per set of
    schemas and kept, so a large body (an import) is walked at the cost of a dictionary lookup
    per value."""

    _made: dict[tuple[int, ...], _Node] = {}

    def __init__(self, schemas: tuple[Schema, ...]) -> None:
        self.schemas = schemas
        self.allows_null = any(_allows_null(s) for s in schemas)
        # what is kept is bounded by the description, never by the body: a key no schema names
        # is read as every other key (additionalProperties), an item past every prefixItems alike
        self._names = {key for s in schemas for key in _mapping(s.get("properties"))}
        self._prefix = max((len(p) for s in schemas if isinstance(p := s.get("prefixItems"), list)), default=0)
        self._properties: dict[str, _Node | None] = {}
        self._items: dict[int, _Node | None] = {}

    @classmethod
    def of(cls, schemas: tuple[Schema, ...]) -> _Node:
        resolved = tuple(_branches(list(schemas)))
        key = tuple(sorted(id(s) for s in resolved))
        found = cls._made.get(key)
        if found is None:
            found = cls._made[key] = cls(resolved)
        return found

    def property(self, key: str) -> _Node | None:
        kept = key if key in self._names else ""  # "": any key no schema names (no schema names "")
        if kept not in self._properties:
            inner = tuple(found for s in self.schemas for found in _property(s, key))
            self._properties[kept] = _Node.of(inner) if inner else None
        return self._properties[kept]

    def item(self, i: int) -> _Node | None:
        kept = min(i, self._prefix)
        if kept not in self._items:
            inner = tuple(found for s in self.schemas for found in _item(s, kept))
            self._items[kept] = _Node.of(inner) if inner else None
        return self._items[kept]


def _branches(schemas: list[Schema]) -> Iterator[Schema]:
    """The schemas, with every ``$ref`` resolved and every union's branches taken in."""
    pending = list(schemas)
    seen = 0
    while pending and seen < 1000:  # a recursive schema never loops
        seen += 1
        schema = pending.pop()
        while isinstance(target := schema.get("$ref"), str):
            schema = _mapping(_components().get(target.rsplit("/", 1)[-1]))
        yield schema
        for union in ("anyOf", "oneOf", "allOf"):
            branches = schema.get(union)
            if isinstance(branches, list):
                pending.extend(_mapping(branch) for branch in branches)


def _allows_null(schema: Schema) -> bool:
    if any(union in schema for union in ("anyOf", "oneOf", "allOf")):
        return False  # its branches say
    kind = schema.get("type")
    if kind is not None:
        return kind == "null" or (isinstance(kind, list) and "null" in kind)
    enum = schema.get("enum")
    if isinstance(enum, list):
        return None in enum
    if "const" in schema:
        return schema["const"] is None
    return True  # any value


def _property(schema: Schema, key: str) -> Iterator[Schema]:
    properties = _mapping(schema.get("properties"))
    if isinstance(properties.get(key), dict):
        yield _mapping(properties[key])
    elif isinstance(schema.get("additionalProperties"), dict):
        yield _mapping(schema["additionalProperties"])


def _item(schema: Schema, i: int) -> Iterator[Schema]:
    prefix = schema.get("prefixItems")
    if isinstance(prefix, list) and i < len(prefix):
        yield _mapping(prefix[i])
    elif isinstance(schema.get("items"), dict):
        yield _mapping(schema["items"])
