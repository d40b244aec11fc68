"""Every stored sheet written in full, with its ``schema``, ``preset`` and ``preset_version``.

Sheets were stored as a preset and what the table changed against the preset's values of
the day, so changing a preset's default would have changed every game on it; and a sheet
without a preset, stored before an option existed, no longer loaded. Each game's sheet, and
each amendment's sheets before and after, is read as stored data (a missing option takes
its default; the preset is the version every preset had before versions were recorded,
today's values) and written back with every option. A sheet that cannot be read at all is
left as it was: its game fails as it did before, and the others start.
"""

from __future__ import annotations

import json

from ...rules import ReadError, load_sheet
from ..db import Connection


def upgrade(conn: Connection) -> None:
    for game_id, text in conn.execute("SELECT id, sheet FROM game").fetchall():
        conn.execute("UPDATE game SET sheet = ? WHERE id = ?", (_full(text), game_id))
    for entry_id, before, after in conn.execute(
            "SELECT id, before, after FROM history WHERE action = 'amend'").fetchall():
        conn.execute("UPDATE history SET before = ?, after = ? WHERE id = ?", (_full(before), _full(after), entry_id))


def _full(text: str | None) -> str | None:
    if text is None:
        return None
    try:
        return json.dumps(load_sheet(json.loads(text), stored=True).to_stored_json())
    except (ValueError, ReadError):  # not JSON, or not a sheet this scorepad can read
        return text
