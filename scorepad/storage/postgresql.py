"""PostgreSQL as the database, for a host serving many tables from several app servers.

The DATABASE setting ``postgresql://user:password@host:port/name`` chooses it (see
:func:`scorepad.storage.backends.database`); it needs the ``postgresql`` extra (psycopg 3 and
psycopg-pool). It answers the same calls as SQLite's :class:`~scorepad.storage.db.Database`,
so storage's queries, its write path and its revision check run unchanged:

- **Connections** come from one pool a process (psycopg-pool), at most ``pool_size``; a
  thread takes one at its first query and gives it back at the end of its request
  (:meth:`PostgreSQL.release`). Each is checked as it is taken, so a restarted server costs
  no request. Named queries run as SQL with ``?`` rewritten to psycopg's parameters once.
- **Writes** are PostgreSQL's own transactions (READ COMMITTED): two writes to one game meet
  at its row in ``game``, where the revision check (``game_touch_at``) lets one through and
  finds the other stale, whichever server each came to. Writes to different games do not
  wait for each other. A write waits ``BUSY_TIMEOUT`` seconds for a lock
  (``lock_timeout``), then :class:`~scorepad.storage.errors.Busy`; no statement runs longer
  than :data:`STATEMENT_TIMEOUT` seconds.
- **Reads** of a game, its deals and history are one REPEATABLE READ snapshot.
- **Migrations** run as SQLite's do, one transaction each, holding an advisory lock
  (``pg_advisory_xact_lock``): of several servers starting at once, one migrates, the others
  wait, then find it done.
- A server that cannot be reached is :class:`~scorepad.storage.errors.Unusable` at start-up,
  naming it and saying why; during a request it is :class:`~scorepad.storage.errors.Unreachable` (nothing was
  saved, try again), and the first request after it is back is served.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Protocol

import psycopg
import psycopg.errors
from psycopg import Column, conninfo
from psycopg.pq import TransactionStatus
from psycopg.rows import TupleRow
from psycopg_pool import ConnectionPool

from . import db
from .cache import ByteCache
from .errors import Busy, Unreachable, Unusable

POOL_SIZE = 10  # connections a process keeps at most (setting POOL_SIZE): one per server thread, and some
STATEMENT_TIMEOUT = 30.0  # seconds any one statement may run: every request's cost is bounded
CONNECT_TIMEOUT = 5  # seconds to connect (libpq): a host that drops packets holds no pool worker for minutes
MIGRATION_LOCK = 0x5C07E9AD  # pg_advisory_xact_lock's key: scorepad migrating this database


class Row:
    """A row by column name or position (as ``sqlite3.Row``): ``row["id"]``, ``row[0]``,
    ``keys()``, ``dict(row)`` and unpacking."""

    __slots__ = ("_names", "_values")

    def __init__(self, names: dict[str, int], values: Sequence[object]) -> None:
        self._names, self._values = names, values

    def __getitem__(self, key: int | str) -> object:
        return self._values[self._names[key] if isinstance(key, str) else key]

    def keys(self) -> list[str]:
        return list(self._names)

    def __iter__(self) -> Iterator[object]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return f"Row({dict(zip(self._names, self._values, strict=True))!r})"


class _Described(Protocol):
    """What the row factory reads of a cursor: its columns."""

    @property
    def description(self) -> list[Column] | None: ...


def _rows(cursor: _Described) -> Callable[[Sequence[object]], db.Row]:
    """psycopg's row factory for :class:`Row`: the column names read once a statement."""
    names = {column.name: i for i, column in enumerate(cursor.description or ())}
    return lambda values: Row(names, values)


_PARAMETER = re.compile(r"\?(\d*)")


def translate(sql: str) -> str:
    """A statement with SQLite's parameters (``?``, and ``?N`` for the N-th again) in
    psycopg's (``%(pN)s``), given as :func:`parameters`.

    >>> translate("SELECT * FROM t WHERE a = ? AND b LIKE '5%' AND c = ?1")
    "SELECT * FROM t WHERE a = %(p1)s AND b LIKE '5%%' AND c = %(p1)s"
    """
    count = 0

    def named(match: re.Match[str]) -> str:
        nonlocal count
        number = int(match.group(1)) if match.group(1) else count + 1
        count = max(count, number)
        return f"%(p{number})s"

    return _PARAMETER.sub(named, sql.replace("%", "%%"))


def parameters(values: Sequence[object]) -> dict[str, object]:
    """Positional values as :func:`translate`'s statements take them."""
    return {f"p{i}": value for i, value in enumerate(values, 1)}


class Qmark:
    """A psycopg connection taking SQLite's ``?`` parameters: what a Python migration's
    ``upgrade(conn)`` is given, so one migration runs on both backends."""

    def __init__(self, conn: psycopg.Connection[TupleRow]) -> None:
        self.conn = conn

    def execute(self, sql: str, values: Sequence[object] = ()) -> psycopg.Cursor[TupleRow]:
        return self.conn.execute(translate(sql), parameters(values))


def _public(url: str) -> str:
    """The database's URL without its password, for messages and cache keys."""
    try:
        parts = conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "the DATABASE setting (a postgresql:// URL that cannot be read)"
    user = f"{parts['user']}@" if parts.get("user") else ""
    port = f":{parts['port']}" if parts.get("port") else ""
    return f"postgresql://{user}{parts.get('host', '')}{port}/{parts.get('dbname', '')}"


def _options(busy_timeout: float) -> str:
    """Each connection's settings: how long a statement waits for a lock, and runs at most."""
    return (f"-c lock_timeout={max(1, int(busy_timeout * 1000))} "
            f"-c statement_timeout={int(STATEMENT_TIMEOUT * 1000)} "
            f"-c idle_in_transaction_session_timeout={int(STATEMENT_TIMEOUT * 2000)}")


@contextmanager
def _answers(database: db.Database) -> Iterator[None]:
    """psycopg's errors as storage's: a lock not had in time, a statement stopped for its
    time, a write that met another (deadlock, serialisation) are :class:`Busy`; a full disk
    (``53100 disk_full``) is :class:`~scorepad.storage.errors.OutOfSpace` (logged once a
    minute by ``database``); a server not reached (or lost) is
    :class:`~scorepad.storage.errors.Unreachable`. In each, nothing was written."""
    try:
        yield
    except (psycopg.errors.LockNotAvailable, psycopg.errors.QueryCanceled,
            psycopg.errors.TransactionRollback):
        raise Busy() from None
    except psycopg.errors.DiskFull as err:  # an OperationalError too: before the server is taken as lost
        raise database.out_of_space(err) from None
    except psycopg.OperationalError:
        raise Unreachable() from None


class PostgreSQL(db.Database):
    """A PostgreSQL database: :class:`~scorepad.storage.db.Database`'s calls, on a pool of
    connections (see the module's docstring)."""

    def __init__(self, url: str, busy_timeout: float = db.BUSY_TIMEOUT, cache: ByteCache | None = None,
                 pool_size: int | None = None) -> None:
        super().__init__(url, busy_timeout, cache)
        self.url, self.path = url, _public(url)  # the key caches name it by carries no password
        self.pool_size = pool_size or POOL_SIZE
        self._pool: ConnectionPool[psycopg.Connection[db.Row]] | None = None
        self._pool_guard = threading.Lock()
        self._sql = {name: translate(db.POSTGRESQL.get(name, sql)) for name, sql in db.QUERIES.items()}

    def __repr__(self) -> str:
        return f"PostgreSQL({self.path!r})"

    def open(self) -> int:
        """Migrate the database (as :func:`~scorepad.storage.db.migrate` does a file); it
        must be reachable, and not written by a newer scorepad, else :class:`Unusable`."""
        try:
            with psycopg.connect(self.url, autocommit=True, connect_timeout=2 * CONNECT_TIMEOUT,
                                 options=f"-c lock_timeout={int(db.START_TIMEOUT * 1000)}") as conn:
                return migrate(conn)
        except psycopg.Error as err:
            raise Unusable(f"cannot use the database {self.path}: {_why(err)}") from None
        except Unusable as err:
            raise Unusable(f"cannot use the database {self.path}: {err}") from None

    def close(self) -> None:
        with self._pool_guard:
            if self._pool is not None:
                self._pool.close()
                self._pool = None

    def _the_pool(self) -> ConnectionPool[psycopg.Connection[db.Row]]:
        with self._pool_guard:
            if self._pool is None:
                # A server gone: the pool tries again, waiting longer each time, for at most half
                # of BUSY_TIMEOUT, then gives up until a request wants a connection and starts
                # again at once. So the first request after the server is back gets one.
                self._pool = ConnectionPool(
                    self.url, min_size=1, max_size=self.pool_size, timeout=self.busy_timeout, open=False,
                    reconnect_timeout=self.busy_timeout / 2,
                    check=ConnectionPool.check_connection, name="scorepad",
                    kwargs={"autocommit": True, "row_factory": _rows, "options": _options(self.busy_timeout),
                            "application_name": "scorepad", "connect_timeout": CONNECT_TIMEOUT})
                self._pool.open(wait=False)
            return self._pool

    def connection(self) -> psycopg.Connection[db.Row]:  # type: ignore[override]  # the base is SQLite's
        """This thread's connection, taken from the pool on first use until :meth:`release`."""
        conn: psycopg.Connection[db.Row] | None = getattr(self._local, "conn", None)
        if conn is None:
            with _answers(self):
                conn = self._local.conn = self._the_pool().getconn()
        return conn

    def execute(self, name: str, params: Sequence[object]) -> db.Cursor:
        with _answers(self):
            return self.connection().execute(self._sql[name], parameters(params))

    def in_transaction(self) -> bool:
        conn: psycopg.Connection[db.Row] | None = getattr(self._local, "conn", None)
        return conn is not None and conn.info.transaction_status != TransactionStatus.IDLE

    def transaction(self) -> AbstractContextManager[psycopg.Connection[db.Row]]:
        """One write transaction (READ COMMITTED): see the module's docstring."""
        return self._within("BEGIN")

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """Reads as of one moment (inside a write transaction, that one's)."""
        if self.in_transaction():
            yield
            return
        with self._within("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY"):
            yield

    @contextmanager
    def _within(self, begin: str) -> Iterator[psycopg.Connection[db.Row]]:
        conn = self.connection()
        with _answers(self):
            conn.execute(begin)
        try:
            yield conn
        except BaseException:
            self._rollback(conn)
            raise
        with _answers(self):
            conn.execute("COMMIT")

    def _rollback(self, conn: psycopg.Connection[db.Row]) -> None:
        if conn.closed:
            return
        try:
            conn.execute("ROLLBACK")
        except psycopg.Error:
            pass  # a connection lost meanwhile: the server rolled it back, and the pool drops it

    def release(self) -> None:
        """Give this thread's connection back to the pool, leaving no transaction open."""
        conn: psycopg.Connection[db.Row] | None = getattr(self._local, "conn", None)
        if conn is None:
            return
        self._local.conn = None
        if conn.info.transaction_status != TransactionStatus.IDLE:
            self._rollback(conn)
        pool = self._pool
        if pool is not None:
            pool.putconn(conn)
        else:
            conn.close()


def migrate(conn: psycopg.Connection[TupleRow]) -> int:
    """Apply the migrations the database has not had, one transaction each, under the
    advisory lock; returns its version afterwards. Refuses one a newer scorepad wrote."""
    known = db.migrations("postgresql")
    version = _version(conn, known[-1][0])
    for number, name, sql in known:
        if number <= version:
            continue
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            conn.execute(db.SCHEMA_VERSION)
            version = _version(conn, known[-1][0])
            if number > version:
                db.apply(Qmark(conn), name, sql)
                conn.execute("INSERT INTO schema_version (version, name, applied_at) VALUES (%s, %s, %s)",
                             (number, name, db.applied_now()))
                version = number
    return version


def _version(conn: psycopg.Connection[TupleRow], newest: int) -> int:
    if conn.execute("SELECT to_regclass('schema_version')").fetchone()[0] is None:  # type: ignore[index]
        return 0
    row = conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()
    version = int(row[0])  # type: ignore[index]
    if version > newest:
        raise db.newer(version, newest)
    return version


def _why(err: psycopg.Error) -> str:
    """Why the database could not be used, in words, and what to do about it."""
    said = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
    if isinstance(err, psycopg.OperationalError):
        return (f"{said}; check the DATABASE setting (host, port, user, password, database name) and that "
                "PostgreSQL is running and accepts connections from here")
    return said
