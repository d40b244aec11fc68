"""The database: one SQLite file, migrated by numbered SQL files, and every query by name.

Every statement the app runs is in :data:`QUERIES`, with ``?`` parameters. Migrations are
``migrations/NNNN_name.sql``, applied in order inside a transaction, and
``PRAGMA user_version`` records the last one applied. Connections use WAL mode, foreign
keys, and ``synchronous=FULL`` (a write acknowledged to a player survives a power cut).
"""

from __future__ import annotations

import sqlite3
import threading
from importlib import resources
from pathlib import Path
from typing import Any, Iterator

from flask import Flask, current_app, g

QUERIES: dict[str, str] = {
    "game_insert": "INSERT INTO game (id, edit_key, name, sheet, sides, revision, created_at, updated_at) "
                   "VALUES (?, ?, ?, ?, ?, 0, ?, ?)",
    "game_get": "SELECT * FROM game WHERE id = ?",
    "game_all_recent": "SELECT * FROM game ORDER BY updated_at DESC LIMIT ?",
    "game_touch": "UPDATE game SET revision = revision + 1, updated_at = ? WHERE id = ?",
    "game_set_sheet": "UPDATE game SET sheet = ? WHERE id = ?",
    "deals_of_game": "SELECT * FROM deal WHERE game_id = ? ORDER BY number",
    "deal_get": "SELECT * FROM deal WHERE game_id = ? AND number = ?",
    "deal_insert": "INSERT INTO deal (game_id, number, body, as_played) VALUES (?, ?, ?, ?)",
    "deal_update": "UPDATE deal SET body = ?, as_played = ? WHERE game_id = ? AND number = ?",
    "deal_delete": "DELETE FROM deal WHERE game_id = ? AND number = ?",
    # The entry's revision is the one its write produces: run it before "game_touch".
    "history_insert": "INSERT INTO history (game_id, deal_number, action, at, before, after, old_totals, "
                      "new_totals, reason, revision) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, "
                      "(SELECT revision + 1 FROM game WHERE id = ?1))",
    "history_since": "SELECT id, deal_number, action, at, old_totals, new_totals, reason, revision FROM history "
                     "WHERE game_id = ? AND revision > ? ORDER BY revision, id",
    "game_revision": "SELECT revision, updated_at FROM game WHERE id = ?",
    # A write moves the revision on only from the revision it was prepared against.
    "game_touch_at": "UPDATE game SET revision = revision + 1, updated_at = ? WHERE id = ? AND revision = ?",
    "history_add": "INSERT INTO history (game_id, deal_number, action, at, before, after, old_totals, new_totals, "
                   "reason, revision) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "history_of_game": "SELECT * FROM history WHERE game_id = ? ORDER BY id",
    "history_of_deal": "SELECT * FROM history WHERE game_id = ? AND deal_number = ? ORDER BY id",
    "history_count_of_deal": "SELECT COUNT(*) FROM history WHERE game_id = ? AND deal_number = ?",
    "history_counts": "SELECT deal_number, COUNT(*) AS n FROM history "
                      "WHERE game_id = ? AND deal_number IS NOT NULL GROUP BY deal_number",
}


def connect(path: str | Path) -> sqlite3.Connection:
    """A connection with the app's settings; the file is created if missing."""
    conn = sqlite3.connect(path, timeout=10, isolation_level=None, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA busy_timeout = 10000")
    return conn


def migrations() -> list[tuple[int, str, str]]:
    """(number, name, sql) of every migration file, in order."""
    found = []
    for entry in resources.files("scorepad.migrations").iterdir():
        name = entry.name
        if name.endswith(".sql") and name[:4].isdigit():
            found.append((int(name[:4]), name, entry.read_text(encoding="utf-8")))
    return sorted(found)


def migrate(conn: sqlite3.Connection) -> int:
    """Apply the migrations the database has not had; returns its version afterwards."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    for number, _name, sql in migrations():
        if number <= version:
            continue
        conn.execute("BEGIN IMMEDIATE")
        try:
            for statement in _statements(sql):
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {number:d}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        version = number
    return version


def _statements(sql: str) -> Iterator[str]:
    buffer = ""
    for line in sql.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            yield buffer.strip()
            buffer = ""
    if buffer.strip() and not buffer.strip().startswith("--"):
        yield buffer.strip()


def path() -> str:
    """The app's database file."""
    return current_app.config["DATABASE"]


def get_db() -> sqlite3.Connection:
    """This thread's connection to the app's database, opened once and kept.

    Opening a connection (and setting its pragmas) costs more than most queries, so each
    server thread keeps one for the app's life instead of one per request.
    """
    local = current_app.extensions["scorepad.db"]
    conn = getattr(local, "conn", None)
    if conn is None:
        conn = local.conn = connect(path())
    if "db" not in g:
        g.db = conn
    return conn


def close_db(_error: BaseException | None = None) -> None:
    """At the end of a request, leave no transaction open on the kept connection."""
    conn = g.pop("db", None)
    if conn is not None and conn.in_transaction:
        conn.execute("ROLLBACK")


def query(name: str, *params: Any, **fmt: str) -> list[sqlite3.Row]:
    """Run a named query and return its rows."""
    sql = QUERIES[name].format(**fmt) if fmt else QUERIES[name]
    return get_db().execute(sql, params).fetchall()


def one(name: str, *params: Any) -> sqlite3.Row | None:
    return get_db().execute(QUERIES[name], params).fetchone()


def run(name: str, *params: Any) -> int:
    """Run a named write and return how many rows it changed."""
    return get_db().execute(QUERIES[name], params).rowcount


_write_locks: dict[str, threading.Lock] = {}
_write_locks_guard = threading.Lock()


def _write_lock(database: str) -> threading.Lock:
    with _write_locks_guard:
        return _write_locks.setdefault(database, threading.Lock())


class transaction:
    """``with transaction():`` runs the block as one write transaction (BEGIN IMMEDIATE).

    Writers in this process first queue on a lock of their own: SQLite's busy handler
    makes a blocked writer sleep in growing steps (up to 100 ms), which under a burst of
    writes costs far more than the writes themselves. ``busy_timeout`` still covers
    writers in other processes (a second server, the CLI).
    """

    def __enter__(self) -> sqlite3.Connection:
        self.conn = get_db()
        self.lock = _write_lock(path())
        self.lock.acquire()
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except BaseException:
            self.lock.release()
            raise
        return self.conn

    def __exit__(self, kind, value, tb) -> None:
        try:
            self.conn.execute("COMMIT" if kind is None else "ROLLBACK")
        finally:
            self.lock.release()


def init_app(app: Flask) -> None:
    """Create and migrate the database file, and close connections after each request."""
    Path(app.config["DATABASE"]).parent.mkdir(parents=True, exist_ok=True)
    conn = connect(app.config["DATABASE"])
    try:
        migrate(conn)
    finally:
        conn.close()
    app.extensions["scorepad.db"] = threading.local()
    app.teardown_appcontext(close_db)
