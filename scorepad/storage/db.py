"""The database: one SQLite file, migrated by numbered migration files, and every query by name.

Every statement the app runs is in :data:`QUERIES`, with ``?`` parameters. Migrations are
``migrations/NNNN_name.sql``, or ``migrations/NNNN_name.py`` with ``upgrade(conn)`` where
data must be rewritten by the rules core; each is applied in order inside a transaction,
and ``PRAGMA user_version`` records the last one applied. Connections use WAL mode, foreign
keys, and ``synchronous=FULL`` (a write acknowledged to a player survives a power cut).

Another process (a second server, the CLI, a sqlite3 shell) may hold the write lock: a write
waits for it at most ``BUSY_TIMEOUT`` seconds, then raises :class:`Busy`, and nothing was
written. Reads never wait for writers (WAL). A file this app cannot use (written by a newer
version, damaged, not writable) raises :class:`Unusable` at start-up, naming the file.
"""

from __future__ import annotations

import errno
import importlib
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

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
    "amendments_of_game": "SELECT * FROM history WHERE game_id = ? AND action = 'amend' ORDER BY id",
    "history_count_of_deal": "SELECT COUNT(*) FROM history WHERE game_id = ? AND deal_number = ?",
    "history_counts": "SELECT deal_number, COUNT(*) AS n FROM history "
                      "WHERE game_id = ? AND deal_number IS NOT NULL GROUP BY deal_number",
    # What a game holds, in bytes: its deals' and history's JSON and reasons, and ?2 for each
    # row besides (see MAX_GAME_BYTES).
    "game_stored_bytes": "SELECT (SELECT COALESCE(SUM(length(CAST(body AS BLOB)) + COALESCE(length(CAST(as_played "
                         "AS BLOB)), 0) + ?2), 0) FROM deal WHERE game_id = ?1) + (SELECT COALESCE(SUM("
                         "COALESCE(length(CAST(before AS BLOB)), 0) + COALESCE(length(CAST(after AS BLOB)), 0) "
                         "+ COALESCE(length(CAST(old_totals AS BLOB)), 0) "
                         "+ COALESCE(length(CAST(new_totals AS BLOB)), 0) "
                         "+ COALESCE(length(CAST(reason AS BLOB)), 0) + ?2), 0) FROM history WHERE game_id = ?1)",
}


BUSY_TIMEOUT = 2.0  # seconds a write waits for another process's write lock (setting BUSY_TIMEOUT)
START_TIMEOUT = 30.0  # seconds start-up waits for it (another process may be migrating)


class Busy(Exception):
    """Another process held the database's write lock for longer than a write may wait:
    nothing was written, and the same write may be sent again in a moment."""

    def __init__(self) -> None:
        super().__init__("the database is busy with another program's write; nothing was saved, "
                         "try again in a moment")


class Unusable(Exception):
    """The database file cannot be used: the message names the file, says why and what to do."""


def connect(path: str | Path, busy_timeout: float = BUSY_TIMEOUT) -> sqlite3.Connection:
    """A connection with the app's settings; the file is created if missing.

    ``busy_timeout`` (seconds) is how long a statement waits for a lock another process holds.
    """
    conn = sqlite3.connect(path, timeout=busy_timeout, isolation_level=None, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    _wal(conn, busy_timeout)
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


def _wal(conn: sqlite3.Connection, wait: float) -> None:
    """Put the file in WAL mode. A new file's first connections race to switch it, and the
    losers are told "locked" at once, without SQLite's busy wait: try again for ``wait`` s."""
    deadline = time.monotonic() + wait
    while True:
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as err:
            if err.sqlite_errorcode & 0xFF != sqlite3.SQLITE_BUSY or time.monotonic() >= deadline:
                raise
            time.sleep(0.01)


def migrations() -> list[tuple[int, str, str]]:
    """(number, name, text) of every migration file (SQL or Python), in order."""
    found = []
    for entry in resources.files("scorepad.storage.migrations").iterdir():
        name = entry.name
        if name.endswith((".sql", ".py")) and name[:4].isdigit():
            found.append((int(name[:4]), name, entry.read_text(encoding="utf-8")))
    return sorted(found)


def migrate(conn: sqlite3.Connection) -> int:
    """Apply the migrations the database has not had; returns its version afterwards.

    Each migration takes the write lock, then reads the version again: of several processes
    starting at once, one applies it and the others, having waited, find it applied. An
    up-to-date database is not locked at all. A database written by a newer version than
    this one is refused (:class:`Unusable`).
    """
    known = migrations()
    version = _version(conn, known[-1][0])
    for number, _name, sql in known:
        if number <= version:
            continue
        conn.execute("BEGIN IMMEDIATE")
        try:
            version = _version(conn, known[-1][0])
            if number > version:
                _apply(conn, _name, sql)
                conn.execute(f"PRAGMA user_version = {number:d}")
                version = number
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    return version


def _version(conn: sqlite3.Connection, newest: int) -> int:
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > newest:
        raise Unusable(f"it was written by a newer version of scorepad (schema {version}; this version knows "
                       f"up to {newest}): run the newer version, or restore a backup this version made")
    return version


def _apply(conn: sqlite3.Connection, name: str, text: str) -> None:
    """Run one migration inside the caller's transaction: its SQL, or its ``upgrade(conn)``."""
    if name.endswith(".py"):
        importlib.import_module(f"scorepad.storage.migrations.{name[:-3]}").upgrade(conn)
        return
    for statement in _statements(text):
        conn.execute(statement)


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


def busy_timeout() -> float:
    """Seconds a write waits for another process's write lock (the setting BUSY_TIMEOUT)."""
    return float(current_app.config.get("BUSY_TIMEOUT", BUSY_TIMEOUT))


def get_db() -> sqlite3.Connection:
    """This thread's connection to the app's database, opened once and kept.

    Opening a connection (and setting its pragmas) costs more than most queries, so each
    server thread keeps one for the app's life instead of one per request.
    """
    local = current_app.extensions["scorepad.db"]
    conn = getattr(local, "conn", None)
    if conn is None:
        conn = local.conn = connect(path(), busy_timeout())
    if "db" not in g:
        g.db = conn
    return conn


def close_db(_error: BaseException | None = None) -> None:
    """At the end of a request, leave no transaction open on the kept connection."""
    conn = g.pop("db", None)
    if conn is not None and conn.in_transaction:
        conn.execute("ROLLBACK")


def query(name: str, *params: Any) -> list[sqlite3.Row]:
    """Run a named query and return its rows."""
    return get_db().execute(QUERIES[name], params).fetchall()


def one(name: str, *params: Any) -> sqlite3.Row | None:
    return get_db().execute(QUERIES[name], params).fetchone()


def value(name: str, *params: Any) -> Any:
    """The first column of a named query that always returns one row (an aggregate)."""
    return get_db().execute(QUERIES[name], params).fetchone()[0]


def run(name: str, *params: Any) -> int:
    """Run a named write and return how many rows it changed."""
    return get_db().execute(QUERIES[name], params).rowcount


class _Writers:
    """The writers of one database in this process, queued on one lock (see :class:`transaction`)."""

    STUCK = 0.1  # seconds the lock's holder may wait for another process before the queue gives up

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.waiting_since: float | None = None  # when the holder began waiting for SQLite's write lock

    def acquire(self, deadline: float) -> None:
        """Take the lock by ``deadline``, or raise :class:`Busy`: at once when the holder has
        been waiting for another process's lock, so that one server thread waits, not all."""
        while not self.lock.acquire(timeout=min(0.05, max(0.0, deadline - time.monotonic()))):
            since, now = self.waiting_since, time.monotonic()
            if now >= deadline or (since is not None and now - since > self.STUCK):
                raise Busy()


_writers: dict[str, _Writers] = {}
_writers_guard = threading.Lock()


def _writers_of(database: str) -> _Writers:
    with _writers_guard:
        return _writers.setdefault(database, _Writers())


class transaction:
    """``with transaction():`` runs the block as one write transaction (BEGIN IMMEDIATE).

    Writers in this process first queue on a lock of their own: SQLite's busy handler
    makes a blocked writer sleep in growing steps (up to 100 ms), which under a burst of
    writes costs far more than the writes themselves. SQLite's ``busy_timeout`` covers
    writers in other processes (a second server, the CLI): a write waits for them at most
    :func:`busy_timeout` seconds in all, and the writers queued behind it not at all; then
    :class:`Busy` is raised and nothing is written. So another program holding the lock
    holds up one server thread, and reads keep the others.
    """

    def __enter__(self) -> sqlite3.Connection:
        self.conn = get_db()
        self.writers = _writers_of(path())
        wait = busy_timeout()
        deadline = time.monotonic() + wait
        self.writers.acquire(deadline)
        self.writers.waiting_since = time.monotonic()
        try:
            _begin_immediate(self.conn, deadline - time.monotonic(), wait)
        except BaseException:
            self.writers.waiting_since = None
            self.writers.lock.release()
            raise
        self.writers.waiting_since = None
        return self.conn

    def __exit__(self, kind, value, tb) -> None:
        try:
            self.conn.execute("COMMIT" if kind is None else "ROLLBACK")
        finally:
            self.writers.lock.release()


def _begin_immediate(conn: sqlite3.Connection, wait: float, usual: float) -> None:
    """Take the write lock, waiting at most ``wait`` seconds for another process to let it
    go (:class:`Busy` if it does not); statements after it wait ``usual`` seconds again."""
    conn.execute(f"PRAGMA busy_timeout = {max(0, int(wait * 1000)):d}")
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as err:
        if err.sqlite_errorcode & 0xFF == sqlite3.SQLITE_BUSY:
            raise Busy() from None
        raise
    finally:
        conn.execute(f"PRAGMA busy_timeout = {int(usual * 1000):d}")


def open_database(database: str | Path) -> int:
    """Create the file if missing, migrate it, and check this process can write it; returns
    its schema version. A file it cannot use raises :class:`Unusable`, naming the file."""
    database = Path(database)
    try:
        database.parent.mkdir(parents=True, exist_ok=True)
        if database.exists() and not os.access(database, os.W_OK):  # SQLite would open it read-only
            raise PermissionError(errno.EACCES, "it is read-only")
        conn = connect(database, START_TIMEOUT)
        try:
            version = migrate(conn)
        finally:
            conn.close()
    except (OSError, sqlite3.Error, Unusable) as err:
        raise Unusable(f"cannot use the database {database}: {_why(err)}") from None
    return version


def _why(err: BaseException) -> str:
    """What went wrong with the file, in words, and what to do about it."""
    if isinstance(err, PermissionError):
        return f"{err.strerror}; the file and its folder must be writable by the user running scorepad"
    if isinstance(err, OSError):
        return f"{err.strerror or err}; check the setting DATABASE"
    if not isinstance(err, sqlite3.Error):
        return str(err)
    name = getattr(err, "sqlite_errorname", "") or ""
    if name.startswith(("SQLITE_NOTADB", "SQLITE_CORRUPT")):
        return f"it is not a SQLite database, or it is damaged ({err}); restore it from a backup"
    if name.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH")):
        return (f"it cannot be opened for writing ({err}); the file and its folder must be writable by the "
                "user running scorepad")
    if name.startswith("SQLITE_BUSY"):
        return f"another program held its write lock for over {START_TIMEOUT:.0f} s; try again"
    return str(err)


def init_app(app: Flask) -> None:
    """Create and migrate the database file, and close connections after each request."""
    open_database(app.config["DATABASE"])
    app.extensions["scorepad.db"] = threading.local()
    app.teardown_appcontext(close_db)
