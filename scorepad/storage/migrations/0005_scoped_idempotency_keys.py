"""Idempotency keys scoped to the client that sent them, kept answers without edit keys, and
the digests of replaced edit keys.

A key was kept per (route, game, key): anyone sending the same key and body got the first
answer, a new game's ``edit_key`` included. The table is made again with a ``client``
column in its primary key (:func:`scorepad.storage.idempotency.once`). The rows kept so far:

* a game write's (``game_id`` not empty) is scoped to the game's edit key, as the doors now
  scope it (:func:`scorepad.storage.reading.key_digest`), so a retry across the upgrade still
  finds its answer;
* a new game's (create, import) loses ``edit_key`` and every value holding it (``edit_url``)
  and is scoped to no client (``''``, which no request has): who sent it cannot be told now,
  so it is replayed to nobody, and forgotten within 24 hours like any key.

Every kept answer is also stripped of any copy of its game's edit key. ``replaced_edit_key``
holds the digest of each edit key a game had before ``replace_edit_key``, and when it was
replaced, so a phone still holding one is told so rather than refused without a word.
"""

from __future__ import annotations

import json

from ...rules.read import JSON
from ..db import Connection
from ..reading import key_digest


def upgrade(conn: Connection) -> None:
    conn.execute("CREATE TABLE idempotency_key_0005 (route TEXT NOT NULL, game_id TEXT NOT NULL, "
                 "client TEXT NOT NULL, key TEXT NOT NULL, digest TEXT NOT NULL, status INTEGER NOT NULL, "
                 "body TEXT NOT NULL, at TEXT NOT NULL, PRIMARY KEY (route, game_id, client, key))")
    edit_keys: dict[str, str] = {}
    for game_id, edit_key in conn.execute(
            "SELECT id, edit_key FROM game WHERE id IN (SELECT game_id FROM idempotency_key)").fetchall():
        edit_keys[game_id] = edit_key
    for route, game_id, key, digest, status, body, at in conn.execute(
            "SELECT route, game_id, key, digest, status, body, at FROM idempotency_key").fetchall():
        edit_key = edit_keys.get(game_id)
        client = key_digest(edit_key) if edit_key else ""
        conn.execute("INSERT INTO idempotency_key_0005 (route, game_id, client, key, digest, status, body, at) "
                     "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                     (route, game_id, client, key, digest, status, without_edit_keys(body, edit_key), at))
    conn.execute("DROP TABLE idempotency_key")
    conn.execute("ALTER TABLE idempotency_key_0005 RENAME TO idempotency_key")
    conn.execute("CREATE INDEX idempotency_key_by_time ON idempotency_key (at)")
    conn.execute("CREATE TABLE replaced_edit_key (game_id TEXT NOT NULL REFERENCES game (id) ON DELETE CASCADE, "
                 "digest TEXT NOT NULL, at TEXT NOT NULL, PRIMARY KEY (game_id, digest))")


def without_edit_keys(body: str, edit_key: str | None) -> str:
    """A kept answer (JSON text) without ``edit_key`` and without any value holding an edit
    key: its own ``edit_key``'s, or ``edit_key`` (its game's). Text that is not a JSON
    object is kept as it is unless it holds a key, then it is emptied to ``{}``."""
    try:
        data = json.loads(body)
    except ValueError:
        data = None
    secrets = {edit_key} if edit_key else set()
    if isinstance(data, dict) and isinstance(data.get("edit_key"), str) and data["edit_key"]:
        secrets.add(data["edit_key"])
    if not isinstance(data, dict):
        return "{}" if any(s in body for s in secrets) else body
    if not secrets or not any(s in body for s in secrets):
        return body
    return json.dumps(_dropped(data, secrets), sort_keys=True, separators=(",", ":"))


def _dropped(value: JSON, secrets: set[str]) -> JSON:
    """``value`` with every entry or item holding one of ``secrets`` left out, and ``edit_key``."""
    if isinstance(value, dict):
        return {k: _dropped(v, secrets) for k, v in value.items() if k != "edit_key" and not _holds(v, secrets)}
    if isinstance(value, list):
        return [_dropped(v, secrets) for v in value if not _holds(v, secrets)]
    return value


def _holds(value: JSON, secrets: set[str]) -> bool:
    return isinstance(value, str) and any(s in value for s in secrets)
