"""The description's examples taken from docs/api.md's replayed story (tests/api/test_docs_examples.py):
each request body and JSON answer the story sends and gets, under the name of the schema the
description gives it, with this server's ids, keys and host put back to the doc's and times made
one fixed time. :mod:`scorepad.api.openapi_examples` serves them from ``examples.json``.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import urlsplit

TIME = "2026-01-01T12:00:00+00:00"  # every time of an example (the story's differ each run)
TIMES = ("at", "created_at", "updated_at", "exported_at", "deleted_at", "ended_at", "confirmed_at", "started_at",
         "closed_at")


def operation(doc: dict[str, Any], method: str, path: str) -> dict[str, Any] | None:
    """The described operation a request reaches: of the templates that match its path, the one
    with the fewest parameters (``/games/import`` before ``/games/{game_id}``)."""
    found = []
    for template, item in doc["paths"].items():
        pattern = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$"
        if method.lower() in item and re.match(pattern, path):
            found.append((template.count("{"), template))
    if not found:
        return None
    return doc["paths"][min(found)[1]][method.lower()]


def schema_name(doc: dict[str, Any], holder: dict[str, Any] | None, media: str) -> str | None:
    """The components/schemas name of a request body or answer (``holder``), or None when it
    has none (a schema written in place, another media type)."""
    if holder is None:
        return None
    if "$ref" in holder:
        holder = doc["components"]["responses"][holder["$ref"].rsplit("/", 1)[1]]
    schema = holder.get("content", {}).get(media, {}).get("schema", {})
    ref = schema.get("$ref", "")
    return ref.rsplit("/", 1)[1] if ref.startswith("#/components/schemas/") else None


def as_the_doc(value: Any, names: dict[str, str]) -> Any:
    """``value`` with this server's values (``names``: this server's value, the doc's) put back,
    and every time made :data:`TIME`."""
    if isinstance(value, str):
        for served, doc_value in sorted(names.items(), key=lambda item: -len(item[0])):
            value = value.replace(served, doc_value)
        return value
    if isinstance(value, list):
        return [as_the_doc(item, names) for item in value]
    if isinstance(value, dict):
        return {as_the_doc(key, names): TIME if key in TIMES and isinstance(item, str)
                else as_the_doc(item, names) for key, item in value.items()}
    return value


def harvest(doc: dict[str, Any], exchanges: list[tuple[Any, Any]], names: dict[str, str]) -> dict[str, Any]:
    """The first request body (of a request accepted) and answer of each schema the story sent or got."""
    found: dict[str, Any] = {}
    back = {served: doc_value for doc_value, served in names.items()}
    for request, answer in exchanges:
        described = operation(doc, request.method, urlsplit(request.url).path)
        if described is None:
            continue
        accepted = answer.status < 300  # a request refused is no example of what to send
        if accepted and request.data and request.headers.get("Content-Type", "").startswith("application/json"):
            name = schema_name(doc, described.get("requestBody"), "application/json")
            if name is not None:
                found.setdefault(name, as_the_doc(json.loads(request.data), back))
        media = answer.headers.get_content_type()
        if media in ("application/json", "application/problem+json"):
            name = schema_name(doc, described["responses"].get(str(answer.status)), media)
            if name is not None:
                found.setdefault(name, as_the_doc(json.loads(answer.body), back))
    return found
