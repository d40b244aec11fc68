"""Idempotency keys kept with what their write made, not with an HTTP answer.

A key was kept with the status and body (JSON text) its door answered the write with. It is
now kept with the fact (:class:`scorepad.storage.idempotency.Made`): ``kind`` (a game created
or imported, a deal recorded or corrected, an edit key replaced), ``made_game`` (the game
written to, or the new game), ``deal`` (for a deal's writes) and ``revision`` (the game's,
once the write was made); each door answers a replay from it. The table is made again with
those columns in place of ``status`` and ``body``.

The rows kept so far (24 hours' worth at most) are converted where their body tells the
fact, by the route (the door's endpoint) that kept it:

* ``api.create_game``, ``api.import_api``, ``api.replace_edit_key``: the game's ``id`` and
  ``revision`` (the API's answer about a game);
* ``api.record_deal``: the deal's ``number`` and the ``revision`` (the deal as recorded);
* ``deals.new_deal``, ``deals.edit_deal`` (the deal form: ``number`` and the message flashed)
  and ``games.replace_edit_link`` (the game's ``id``): the body holds no revision, so it is
  the revision of the game's history entry that write made (a ``record``, ``edit`` or
  ``rekey`` of that deal or game, the latest written by the time the key was kept).

Any other row (a body that is not such JSON, a route no door uses now, a write whose history
entry is no more) is dropped: a retry of it within the hours it had left is judged again as a
new request, as one sent after its key expired is.
"""

from __future__ import annotations

import json
from typing import TypeGuard

from ..db import Connection

GAME_ROUTES = {"api.create_game": "game created", "api.import_api": "game imported",
               "api.replace_edit_key": "edit key replaced"}
PAGE_ROUTES = {"deals.new_deal": ("deal recorded", "record"), "deals.edit_deal": ("deal corrected", "edit"),
               "games.replace_edit_link": ("edit key replaced", "rekey")}

Fact = tuple[str, str, int | None, int]  # kind, made_game, deal, revision


def upgrade(conn: Connection) -> None:
    conn.execute("CREATE TABLE idempotency_key_0007 (route TEXT NOT NULL, game_id TEXT NOT NULL, "
                 "client TEXT NOT NULL, key TEXT NOT NULL, digest TEXT NOT NULL, kind TEXT NOT NULL, "
                 "made_game TEXT NOT NULL, deal INTEGER, revision INTEGER NOT NULL, at TEXT NOT NULL, "
                 "PRIMARY KEY (route, game_id, client, key))")
    for route, game_id, client, key, digest, body, at in conn.execute(
            "SELECT route, game_id, client, key, digest, body, at FROM idempotency_key").fetchall():
        fact = _fact(conn, route, game_id, body, at)
        if fact is not None:
            conn.execute("INSERT INTO idempotency_key_0007 (route, game_id, client, key, digest, kind, made_game, "
                         "deal, revision, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                         (route, game_id, client, key, digest, *fact, at))
    conn.execute("DROP TABLE idempotency_key")
    conn.execute("ALTER TABLE idempotency_key_0007 RENAME TO idempotency_key")
    conn.execute("CREATE INDEX idempotency_key_by_time ON idempotency_key (at)")


def _fact(conn: Connection, route: str, game_id: str, body: str, at: str) -> Fact | None:
    """What the write that kept ``body`` on ``route`` made; None when the body does not tell."""
    try:
        data = json.loads(body)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    if route in GAME_ROUTES:
        made, revision = data.get("id"), data.get("revision")
        return (GAME_ROUTES[route], made, None, revision) if isinstance(made, str) and _whole(revision) else None
    if route == "api.record_deal":
        number, revision = data.get("number"), data.get("revision")
        return ("deal recorded", game_id, number, revision) if _whole(number) and _whole(revision) else None
    if route not in PAGE_ROUTES:
        return None
    kind, action = PAGE_ROUTES[route]
    made, number = game_id, data.get("number")
    if action == "rekey":
        if data.get("id") != game_id:
            return None
        number = None
    elif not _whole(number):
        return None
    revision = conn.execute("SELECT MAX(revision) FROM history WHERE game_id = ? AND action = ? AND at <= ? AND "
                            + ("deal_number IS NULL" if number is None else "deal_number = ?"),
                            (made, action, at) + (() if number is None else (number,))).fetchall()[0][0]
    return (kind, made, number, revision) if _whole(revision) else None


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
