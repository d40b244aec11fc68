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

The functions here (and :mod:`.store`'s) work on the database in use, a :class:`Database`
(the file, its settings and its cache) found through a context variable: ``with
using(database):``, or, in the app, each app context's own (see :func:`scorepad.app.create_app`).
"""

from __future__ import annotations

import errno
import importlib
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token
from importlib import resources
from pathlib import Path
from types import TracebackType
from typing import Any

from .cache import ByteCache
from .errors import Busy as Busy  # raised here, defined with storage's other errors
from .errors import Unusable as Unusable

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
    # A write made once per idempotency key (store.once): the answer kept for the key, when
    # written at or after ?4; keys written before a time are forgotten (by the index on at).
    "idempotency_get": "SELECT digest, status, body FROM idempotency_key "
                       "WHERE route = ? AND game_id = ? AND key = ? AND at >= ?",
    "idempotency_insert": "INSERT INTO idempotency_key (route, game_id, key, digest, status, body, at) "
                          "VALUES (?, ?, ?, ?, ?, ?, ?)",
    "idempotency_forget": "DELETE FROM idempotency_key WHERE at < ?",
}


BUSY_TIMEOUT = 2.0  # seconds a write waits for another process's write lock (setting BUSY_TIMEOUT)
START_TIMEOUT = 30.0  # seconds start-up waits for it (another process may be migrating)


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
    version: int = conn.execute("PRAGMA user_version").fetchone()[0]
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


class Database:
    """One database file with its settings: ``path``, ``busy_timeout`` (seconds a write waits
    for another process's write lock) and the ``cache`` of what is built from it once per
    revision. Each thread keeps one connection to it, opened on first use and kept: opening
    one (and setting its pragmas) costs more than most queries.

    The app factory builds one per app from its settings and puts it in use for each app
    context (:func:`using`); a script or a test may do the same without any app.
    """

    def __init__(self, path: str | Path, busy_timeout: float = BUSY_TIMEOUT, cache: ByteCache | None = None) -> None:
        self.path = str(path)
        self.busy_timeout = float(busy_timeout)
        self.cache = ByteCache() if cache is None else cache
        self._local = threading.local()

    def __repr__(self) -> str:
        return f"Database({self.path!r})"

    def open(self) -> int:
        """Create the file if missing and migrate it (see :func:`open_database`)."""
        return open_database(self.path)

    def connection(self) -> sqlite3.Connection:
        """This thread's connection to the file."""
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._local.conn = connect(self.path, self.busy_timeout)
        return conn

    def release(self) -> None:
        """Leave no transaction open on this thread's connection (at the end of a request)."""
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is not None and conn.in_transaction:
            conn.execute("ROLLBACK")


# The database in use here: a context variable, so each thread (each request, in a server)
# and each app context sees its own, and two apps in one process never share one by accident.
_in_use: ContextVar[Database] = ContextVar("scorepad.storage.db")


def current() -> Database:
    """The database in use (see :func:`using`)."""
    try:
        return _in_use.get()
    except LookupError:
        raise RuntimeError("no database is in use here: run this inside the app's context, or inside "
                           "`with db.using(Database(path)):`") from None


def use(database: Database) -> Token[Database]:
    """Put ``database`` in use in this context until :func:`done` is called with the token."""
    return _in_use.set(database)


def done(token: Token[Database]) -> None:
    """Stop using the database :func:`use` put in use (leaving no transaction open), and go
    back to the one in use before it, if any."""
    try:
        _in_use.get().release()
    finally:
        _in_use.reset(token)


@contextmanager
def using(database: Database) -> Iterator[Database]:
    """``with using(database):`` the functions of this module and of :mod:`.store` use it."""
    token = use(database)
    try:
        yield database
    finally:
        done(token)


def path() -> str:
    """The file of the database in use."""
    return current().path


def busy_timeout() -> float:
    """Seconds a write waits for another process's write lock (the setting BUSY_TIMEOUT)."""
    return current().busy_timeout


def get_db() -> sqlite3.Connection:
    """This thread's connection to the database in use."""
    return current().connection()


def query(name: str, *params: object) -> list[sqlite3.Row]:
    """Run a named query and return its rows."""
    rows: list[sqlite3.Row] = get_db().execute(QUERIES[name], params).fetchall()
    return rows


def one(name: str, *params: object) -> sqlite3.Row | None:
    row: sqlite3.Row | None = get_db().execute(QUERIES[name], params).fetchone()
    return row


def value(name: str, *params: object) -> Any:
    """The first column of a named query that always returns one row (an aggregate)."""
    return get_db().execute(QUERIES[name], params).fetchone()[0]


def run(name: str, *params: object) -> int:
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
        database = current()
        self.conn = database.connection()
        self.writers = _writers_of(database.path)
        wait = database.busy_timeout
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

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
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

