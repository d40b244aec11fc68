"""The examples of the description's schemas (JSON Schema's ``examples``): real requests and
answers of docs/api.md's examples, as tests/api/test_docs_examples.py replays them on a fresh
server, with the doc's ids, keys and host put back. They are kept in ``examples.json`` beside
this module, one a schema (the first the story sends or gets); the replay checks that the file
still holds what the server answers, and writes it anew when asked
(``SCOREPAD_WRITE_EXAMPLES=1``), so an example is never typed by hand and stays true.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..rules.read import JSON
from .schema import Schema

EXAMPLES_FILE = Path(__file__).with_name("examples.json")


def examples() -> dict[str, JSON]:
    """Each schema's example, by the schema's name."""
    found = json.loads(EXAMPLES_FILE.read_text(encoding="utf-8"))
    assert isinstance(found, dict)
    return found


def with_examples(schemas: Schema) -> Schema:
    """``schemas``, each with its example where the doc's story has one."""
    found = examples()
    return {name: {**schema, "examples": [found[name]]} if name in found and isinstance(schema, dict) else schema
            for name, schema in schemas.items()}
