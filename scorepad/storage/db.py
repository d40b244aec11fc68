"""The database: SQLite by default, or PostgreSQL; migrated by numbered files; every query by name.

The setting DATABASE names it: a file (SQLite, built in: :class:`Database`, here) or a
``postgresql://`` URL (:mod:`.postgresql`, with the ``postgresql`` extra: psycopg and its
pool). :func:`.backends.database` builds the one a setting names; both kinds answer the same calls.

Every statement the app runs is in :data:`QUERIES` (:mod:`.queries`), with ``?`` parameters,
in SQL both backends read; :data:`POSTGRESQL` holds the few written otherwise there.
Migrations are ``migrations/NNNN_name.sql`` (SQL both read), a pair ``NNNN_name.sqlite.sql``
/ ``NNNN_name.postgresql.sql``, or ``NNNN_name.py`` with ``upgrade(conn)`` where data must
be rewritten by the rules core (``conn.execute`` takes ``?`` parameters on both). Each is
applied in order inside a transaction and recorded in
the ``schema_version`` table (on SQLite also in ``PRAGMA user_version``, which is where
versions before the table kept it, and which they read to refuse a newer file).

SQLite connections use WAL mode, foreign keys, and ``synchronous=FULL`` (a write
acknowledged to a player survives a power cut). Another process (a second server, the CLI,
a sqlite3 shell) may hold the write lock: a write waits for it at most ``BUSY_TIMEOUT``
seconds, then raises :class:`Busy`, and nothing was written. Reads never wait for writers
(WAL). A database this app cannot use (written by a newer version, damaged, not writable,
not reachable) raises :class:`Unusable` at start-up, naming it.

The functions here (and those of :mod:`.reading` and :mod:`.writing`) work on the database in use, a :class:`Database`
(its setting, its connections and its cache) found through a context variable: ``with
using(database):``, or, in the app, each app context's own (see :func:`scorepad.app.create_app`).
"""

from __future__ import annotations

import errno
import importlib
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar, Token
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from . import cache, queries, write_queue
from .cache import ByteCache
from .errors import Busy as Busy  # raised here, defined with storage's other errors
from .errors import OutOfSpace as OutOfSpace
from .errors import Unreachable as Unreachable
from .errors import Unusable as Unusable
from .throttled_log import ThrottledLog
from .write_queue import is_full as is_full

if TYPE_CHECKING:  # PostgreSQL's connection, for get_db()'s type: psycopg is an optional extra
    import psycopg

# Every statement by name: .queries (re-exported here, where the functions that run them are).
QUERIES: dict[str, str] = queries.QUERIES
POSTGRESQL: dict[str, str] = queries.POSTGRESQL


BUSY_TIMEOUT = 2.0  # seconds a write waits for another process's write lock (setting BUSY_TIMEOUT)
START_TIMEOUT = 30.0  # seconds start-up waits for it (another process may be migrating)


def connect(path: str | Path, busy_timeout: float = BUSY_TIMEOUT, max_bytes: int | None = None) -> sqlite3.Connection:
    """A connection with the app's settings; the file is created if missing.

    ``busy_timeout`` (seconds) is how long a statement waits for a lock another process holds.
    ``max_bytes`` (the setting DATABASE_MAX_BYTES) caps the file this connection may grow
    (``PRAGMA max_page_count``, per connection): a write past it fails as on a full disk.
    """
    conn = sqlite3.connect(path, timeout=busy_timeout, isolation_level=None, check_same_thread=False,
                           factory=_Connection)
    conn.busy_ms = int(busy_timeout * 1000)
    conn.row_factory = sqlite3.Row
    _wal(conn, busy_timeout)
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("PRAGMA foreign_keys = ON")
    if max_bytes is not None:
        page: int = conn.execute("PRAGMA page_size").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count = {max(1, max_bytes // page):d}")
    return conn


class _Connection(sqlite3.Connection):
    """The app's SQLite connection: it knows its busy timeout (``busy_ms``), so a write sets
    ``PRAGMA busy_timeout`` only when it must wait less than that (see :func:`_begin_immediate`)."""

    busy_ms: int


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


class Row(Protocol):
    """A row as both backends give it: by column name or position, ``keys()`` and ``dict(row)``."""

    # Any: a column's value has its column's type (TEXT, INTEGER...), which the code that
    # named the query knows and reads it as; this protocol serves every query.
    def __getitem__(self, key: int | str) -> Any: ...

    def keys(self) -> list[str]: ...


class Cursor(Protocol):
    """What a statement gives back, on either backend."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Row | None: ...

    def fetchall(self) -> list[Row]: ...


class Rows(Protocol):
    """What a migration's statement gives back: its rows, each its columns' values in order."""

    # Any: a column's value has its column's type, which the migration reads it as (see Row).
    def fetchall(self) -> Sequence[Sequence[Any]]: ...


class Connection(Protocol):
    """What a Python migration's ``upgrade(conn)`` is given: ``execute`` with ``?`` parameters."""

    def execute(self, sql: str, parameters: Sequence[object] = ..., /) -> Rows: ...


def migrations(backend: str = "sqlite") -> list[tuple[int, str, str]]:
    """(number, name, text) of every migration ``backend`` runs, in order: each number's
    common SQL file, its file for this backend, or its Python file. A number with none for
    this backend, or with more than one, is a packaging mistake (:class:`Unusable`)."""
    found: dict[int, list[tuple[str, str]]] = {}
    for entry in resources.files("scorepad.storage.migrations").iterdir():
        name = entry.name
        if not (name[:4].isdigit() and name.endswith((".sql", ".py"))):
            continue
        parts = name.split(".")
        if len(parts) == 3 and parts[1] != backend:
            continue  # the other backend's half of a pair
        found.setdefault(int(name[:4]), []).append((name, entry.read_text(encoding="utf-8")))
    numbers = sorted(found)
    if numbers != list(range(1, len(numbers) + 1)):
        raise Unusable(f"scorepad's migrations are numbered {numbers}: each number from 1 up once")
    for number in numbers:
        if len(found[number]) != 1:
            raise Unusable(f"migration {number:04d} has {[n for n, _ in found[number]]} for {backend}: it must "
                           "have one file both backends read, or one file for each backend")
    return [(number, *found[number][0]) for number in numbers]


def newer(version: int, newest: int) -> Unusable:
    """The refusal of a database written by a newer version of scorepad than this one."""
    return Unusable(f"it was written by a newer version of scorepad (schema {version}; this version knows "
                    f"up to {newest}): run the newer version, or restore a backup this version made")


SCHEMA_VERSION = ("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL, "
                  "applied_at TEXT NOT NULL)")


def applied_now() -> str:
    """When a migration was applied, as ``schema_version`` keeps it (UTC, to the second)."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def migrate(conn: sqlite3.Connection) -> int:
    """Apply the migrations the SQLite database has not had; returns its version afterwards.

    Each migration takes the write lock, then reads the version again: of several processes
    starting at once, one applies it and the others, having waited, find it applied. An
    up-to-date database is not locked at all. A database written by a newer version than
    this one is refused (:class:`Unusable`). A file from before ``schema_version`` has its
    versions (``PRAGMA user_version``) written there first.
    """
    known = migrations("sqlite")
    version = _version(conn, known)
    for number, name, sql in known:
        if number <= version:
            continue
        conn.execute("BEGIN IMMEDIATE")
        try:
            version = _version(conn, known)
            if number > version:
                apply(conn, name, sql)
                conn.execute("INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                             (number, name, applied_now()))
                conn.execute(f"PRAGMA user_version = {number:d}")
                version = number
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    return version


def _version(conn: sqlite3.Connection, known: list[tuple[int, str, str]]) -> int:
    """The file's version, as its ``schema_version`` table keeps it (made first, from
    ``PRAGMA user_version``, for a file from before the table); either one past what this
    version knows is a newer scorepad's file."""
    newest = known[-1][0]
    kept: int = conn.execute("PRAGMA user_version").fetchone()[0]
    if kept > newest:  # refused before anything is written to it
        raise newer(kept, newest)
    if conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'schema_version'").fetchone() is None:
        _adopt(conn, known, kept)
    version: int = conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()[0]
    if version > newest:
        raise newer(version, newest)
    return version


def _adopt(conn: sqlite3.Connection, known: list[tuple[int, str, str]], version: int) -> None:
    """Make the ``schema_version`` table, holding the migrations a file had before it (by
    ``PRAGMA user_version``); another process may be doing the same, so under the write lock."""
    nested = conn.in_transaction
    if not nested:
        conn.execute("BEGIN IMMEDIATE")
    try:
        if conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'schema_version'").fetchone() is None:
            conn.execute(SCHEMA_VERSION)
            conn.executemany("INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                             [(n, name, "before schema_version") for n, name, _ in known if n <= version])
        if not nested:
            conn.execute("COMMIT")
    except BaseException:
        if not nested:
            conn.execute("ROLLBACK")
        raise


def apply(conn: Connection, name: str, text: str) -> None:
    """Run one migration inside the caller's transaction: its SQL, or its ``upgrade(conn)``."""
    if name.endswith(".py"):
        importlib.import_module(f"scorepad.storage.migrations.{name[:-3]}").upgrade(conn)
        return
    for statement in statements(text):
        conn.execute(statement)


def statements(sql: str) -> Iterator[str]:
    """A migration's statements one by one (they hold no ``;`` but at their ends)."""
    buffer = ""
    for line in sql.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            yield buffer.strip()
            buffer = ""
    if buffer.strip() and not all(line.strip().startswith("--") or not line.strip() for line in buffer.splitlines()):
        yield buffer.strip()


class Database:
    """A database and what the app keeps of it: ``path`` (its setting: a file, or a URL),
    ``busy_timeout`` (seconds a write waits for another's lock) and the ``cache`` of what is
    built from it once per revision. Each thread holds one connection at a time
    (:meth:`connection`), until :meth:`release`. This class is SQLite's; :mod:`.postgresql`'s
    answers the same calls. Build either with :func:`.backends.database`.

    The app factory builds one per app from its settings and puts it in use for each app
    context (:func:`using`); a script or a test may do the same without any app.
    """

    def __init__(self, path: str | Path, busy_timeout: float = BUSY_TIMEOUT, cache: ByteCache | None = None,
                 max_bytes: int | None = None) -> None:
        self.path = str(path)
        self.busy_timeout = float(busy_timeout)
        self.cache = ByteCache() if cache is None else cache
        self.max_bytes = max_bytes
        self._local = threading.local()
        self._out_of_space = ThrottledLog(logging.getLogger("scorepad.storage"))

    def __repr__(self) -> str:
        return f"Database({self.path!r})"

    def open(self) -> int:
        """Create the file if missing and migrate it (see :func:`open_file`)."""
        return open_file(Path(self.path))

    def close(self) -> None:
        """Let go of what the database holds open (nothing to do for a file: connections close with their threads)."""

    def connection(self) -> sqlite3.Connection:
        """This thread's connection to the file, opened on first use and kept: opening one
        (and setting its pragmas) costs more than most queries."""
        local = self._local
        conn: sqlite3.Connection | None = getattr(local, "writing", None) or getattr(local, "conn", None)
        if conn is None:
            conn = local.conn = connect(self.path, self.busy_timeout, self.max_bytes)
        return conn

    def execute(self, name: str, params: Sequence[object]) -> Cursor:
        """Run the named query on this thread's connection."""
        try:
            return self.connection().execute(QUERIES[name], params)
        except sqlite3.OperationalError as err:
            if is_full(err):
                raise self.out_of_space(err) from None
            raise

    def out_of_space(self, err: Exception) -> OutOfSpace:
        """The error to raise for a write that found no room (``err``, the driver's), logged
        in one line at most once a minute (:class:`ThrottledLog`), never with a traceback."""
        said = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        self._out_of_space.warning(f"the database {self.path} is out of space ({said}): every write is refused, "
                                   "nothing saved, until space is freed")
        return OutOfSpace()

    def in_transaction(self) -> bool:
        local = self._local
        conn: sqlite3.Connection | None = getattr(local, "writing", None) or getattr(local, "conn", None)
        return conn is not None and conn.in_transaction

    def transaction(self) -> AbstractContextManager[object]:
        """One write transaction (see :class:`.write_queue.Write`)."""
        return write_queue.Write(self)

    def write_on(self, conn: sqlite3.Connection | None) -> None:
        """This thread's statements go to ``conn`` (a write batch's connection) until called with None."""
        self._local.writing = conn

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """Reads as of one moment (inside a write transaction, that one's)."""
        if self.in_transaction():
            yield
            return
        conn = self.connection()
        conn.execute("BEGIN")
        try:
            yield
        finally:
            conn.execute("COMMIT")

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
                           "`with db.using(backends.database(setting)):`") from None


@dataclass(frozen=True)
class InUse:
    """What :func:`use` gives, for :func:`done`: the tokens of the database and of its cache put in use."""

    database: Token[Database]
    cache: Token[ByteCache]


def use(database: Database) -> InUse:
    """Put ``database`` (and its cache, :func:`scorepad.storage.cache.current`) in use in this
    context until :func:`done` is called with what this returns."""
    return InUse(_in_use.set(database), cache.use(database.cache))


def done(token: InUse) -> None:
    """Stop using the database :func:`use` put in use (leaving no transaction open), and go
    back to the one in use before it, if any."""
    try:
        _in_use.get().release()
    finally:
        cache.done(token.cache)
        _in_use.reset(token.database)


@contextmanager
def using(database: Database) -> Iterator[Database]:
    """``with using(database):`` the functions of this module, :mod:`.reading` and :mod:`.writing` use it."""
    token = use(database)
    try:
        yield database
    finally:
        done(token)


def path() -> str:
    """The setting of the database in use (a file, or a URL): what cache keys name it by."""
    return current().path


def busy_timeout() -> float:
    """Seconds a write waits for another process's write lock (the setting BUSY_TIMEOUT)."""
    return current().busy_timeout


def get_db() -> sqlite3.Connection | psycopg.Connection[Row]:
    """This thread's connection to the database in use (sqlite3's or psycopg's)."""
    return current().connection()


def query(name: str, *params: object) -> list[Row]:
    """Run a named query and return its rows."""
    rows: list[Row] = current().execute(name, params).fetchall()
    return rows


def one(name: str, *params: object) -> Row | None:
    row: Row | None = current().execute(name, params).fetchone()
    return row


def value(name: str, *params: object) -> int | Decimal:
    """The first column of a named query that always returns one row (an aggregate: a count,
    a sum; PostgreSQL gives a sum of big integers as a Decimal)."""
    row = current().execute(name, params).fetchone()
    assert row is not None, f"{name} returned no row: value() is for an aggregate"
    found: int | Decimal = row[0]
    return found


def run(name: str, *params: object) -> int:
    """Run a named write and return how many rows it changed."""
    return current().execute(name, params).rowcount


def transaction() -> AbstractContextManager[object]:
    """``with transaction():`` runs the block as one write transaction on the database in use."""
    return current().transaction()


def snapshot() -> AbstractContextManager[None]:
    """``with snapshot():`` the block's reads see the database as of one moment."""
    return current().snapshot()


def open_file(database: Path) -> int:
    """Create the file if missing, migrate it, and check this process can write it; returns
    its schema version. A file it cannot use raises :class:`Unusable`, naming the file."""
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

