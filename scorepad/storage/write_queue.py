"""The SQLite writers of one database in this process: queued first come, first served, and
committed in batches (:class:`WriteQueue`; :class:`Write` is one write, ``db.transaction()``).

A write's turn comes in the order writers came. The first writer of a batch takes SQLite's
write lock (``BEGIN IMMEDIATE``); each later write runs inside a savepoint of its own, so one
that fails (a conflict, a stale revision) is undone alone (the first is alone in the
transaction until its block ends: rolling that back undoes it alone); then, if other
writers are waiting, the turn and the open transaction pass to the next, and the writer waits for the batch's commit.
The last writer of a batch commits it: one ``COMMIT``, one fsync, for every write in it, with
full durability kept (``synchronous=FULL``): no writer is answered before its write is on disk.
A batch holds at most :data:`WriteQueue.MOST` writes and never waits for a writer to come.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections import deque
from types import TracebackType
from typing import Protocol

from .errors import Busy, OutOfSpace


class Store(Protocol):
    """What a write needs of its SQLite database (:class:`.db.Database`)."""

    path: str
    busy_timeout: float

    def connection(self) -> sqlite3.Connection: ...

    def write_on(self, conn: sqlite3.Connection | None) -> None: ...

    def out_of_space(self, err: Exception) -> OutOfSpace: ...


class Batch:
    """Writes committed in one transaction on ``conn`` (its first writer's connection, which that
    writer does not use again before the batch is closed): ``size`` writes so far; ``closed``
    is set once it is committed or rolled back, with ``failure`` (what made it fail) if it was."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.size = 0
        self.closed = threading.Event()
        self.failure: BaseException | None = None


class WriteQueue:
    """The writers of one database in this process, queued first come, first served: each
    waiting writer waits on a lock of its own, which the writer before it hands over on leaving,
    so a writer never overtakes one that came before it (a plain lock polled with timeouts lets
    any of them in, and more threads lengthen the tail). The turn's holder holds the open
    :attr:`batch`, if any."""

    STUCK = 0.1  # seconds the lock's holder may wait for another process before the queue gives up
    MOST = 64  # writes in one batch at most: the first of them waits for the others' savepoints

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._held = False
        self._queue: deque[threading.Lock] = deque()  # each waiting writer's own lock, in order of coming
        self.waiting_since: float | None = None  # when the holder began waiting for SQLite's write lock
        self.batch: Batch | None = None

    def acquire(self, deadline: float) -> None:
        """Take the turn by ``deadline``, or raise :class:`Busy`: at once when the holder has
        been waiting for another process's lock, so that one server thread waits, not all."""
        with self._guard:
            if not self._held:
                self._held = True
                return
            turn = threading.Lock()
            turn.acquire()
            self._queue.append(turn)
        while not turn.acquire(timeout=min(0.05, max(0.0, deadline - time.monotonic()))):
            since, now = self.waiting_since, time.monotonic()
            if now >= deadline or (since is not None and now - since > self.STUCK):
                with self._guard:
                    if turn in self._queue:  # not handed over yet: leave the queue
                        self._queue.remove(turn)
                        raise Busy()
                turn.acquire()  # handed over in the moment between: it is this writer's turn

    def release(self) -> None:
        """Hand the turn to the writer that came first after this one, if any."""
        with self._guard:
            if self._queue:
                self._queue.popleft().release()  # the turn passes on; the queue stays held
            else:
                self._held = False

    def waiting(self) -> int:
        """How many writers wait for their turn."""
        with self._guard:
            return len(self._queue)

    def pass_on(self) -> Batch | None:
        """With the turn held and a write of the open batch done (its savepoint released or
        rolled back): hand the turn, and the batch, to the next writer waiting, and return the
        batch to wait for (:meth:`Batch.closed`); or, if none is waiting, or the batch is full or
        was rolled back, return None: the caller then commits it and calls :meth:`close`."""
        with self._guard:
            batch = self.batch
            if batch is None or not self._queue or batch.size >= self.MOST or not batch.conn.in_transaction:
                return None
            self._queue.popleft().release()
            return batch

    def close(self, failure: BaseException | None) -> None:
        """The open batch is committed (or, with ``failure``, rolled back): tell its writers, and
        release the turn."""
        batch, self.batch = self.batch, None
        try:
            if batch is not None:
                batch.failure = failure
                batch.closed.set()
        finally:
            self.release()


_writers: dict[str, WriteQueue] = {}
_writers_guard = threading.Lock()


def queue_of(database: str) -> WriteQueue:
    with _writers_guard:
        return _writers.setdefault(database, WriteQueue())


def is_full(err: sqlite3.Error) -> bool:
    """Whether SQLite failed for want of space: its disk is full, or the file reached its
    ``max_page_count`` (``SQLITE_FULL``)."""
    return isinstance(err, sqlite3.OperationalError) and err.sqlite_errorcode & 0xFF == sqlite3.SQLITE_FULL


class Write:
    """A write transaction on SQLite: one write of a batch (see :mod:`.write_queue`).

    Writers in this process queue first come, first served, and those waiting at once are
    committed together: the first takes the write lock (``BEGIN IMMEDIATE``), each after it
    runs in a savepoint of its own on the batch's connection (undone alone if its block
    raises; the first, alone in the transaction while its block runs, by rolling it back), and
    the last commits; each waits for that commit, so none is answered before its write is on
    disk. SQLite's busy handler makes a blocked writer sleep in growing steps (up to 100 ms),
    which under a burst of writes costs far more than the writes themselves. SQLite's
    ``busy_timeout`` covers writers in other processes (a second server, the CLI): a write
    waits for them at most :func:`busy_timeout` seconds in all, and the writers queued behind
    it not at all; then :class:`Busy` is raised and nothing is written. So another program
    holding the lock holds up one server thread, and reads keep the others.
    """

    def __init__(self, database: Store) -> None:
        self.database = database

    def __enter__(self) -> sqlite3.Connection:
        database = self.database
        self.writers = writers = queue_of(database.path)
        wait = database.busy_timeout
        deadline = time.monotonic() + wait
        writers.acquire(deadline)
        if writers.batch is None:
            conn = database.connection()
            writers.waiting_since = time.monotonic()
            try:
                _begin_immediate(conn, deadline - time.monotonic(), wait)
            except BaseException:
                writers.release()
                raise
            finally:
                writers.waiting_since = None
            writers.batch = Batch(conn)
        self.batch = batch = writers.batch
        batch.size += 1
        # The batch's first write needs no savepoint: no other joins it before its block ends,
        # so undoing the transaction undoes it alone (two statements fewer for most writes).
        self.first = batch.size == 1
        if not self.first:
            try:
                batch.conn.execute("SAVEPOINT write")
            except BaseException as err:
                self._finish(err)
                raise
        database.write_on(batch.conn)
        return batch.conn

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.database.write_on(None)
        conn = self.batch.conn
        failure: BaseException | None = None
        if self.first:  # its block failed: the transaction, which holds it alone, is rolled back
            failure = value
        else:
            try:
                if kind is None:
                    conn.execute("RELEASE write")
                elif conn.in_transaction:  # SQLite rolls back by itself after some errors (a full disk)
                    conn.execute("ROLLBACK TO write")
                    conn.execute("RELEASE write")
            except sqlite3.Error as err:
                failure = err
        if not conn.in_transaction:  # the batch is lost: the writes before this one too
            failure = failure or value or sqlite3.OperationalError("the write transaction was rolled back")
        self._finish(failure, own=kind is None)

    def _finish(self, failure: BaseException | None, own: bool = False) -> None:
        """After this write: pass the batch on and wait for its commit, or commit it (or roll
        it back, with ``failure``) and release the turn, whatever happens. With ``own`` (the
        write's block ended well), raise what made the batch fail, if anything did: nothing
        of it was written."""
        writers, batch = self.writers, self.batch
        waiting = writers.pass_on() if failure is None else None
        if waiting is not None:
            waiting.closed.wait()
            failure = waiting.failure
        else:
            try:
                if failure is None:
                    failure = self._commit(batch.conn)
                elif batch.conn.in_transaction:
                    batch.conn.execute("ROLLBACK")
            finally:
                writers.close(failure)
        if own and failure is not None:
            raise self._again(failure)

    def _commit(self, conn: sqlite3.Connection) -> BaseException | None:
        """COMMIT; one that fails (a full disk may fail it) is rolled back, nothing written,
        and what failed it returned."""
        try:
            conn.execute("COMMIT")
        except sqlite3.Error as err:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            return err
        return None

    def _again(self, failure: BaseException) -> BaseException:
        """What to raise in a writer whose batch ``failure`` lost: :class:`OutOfSpace` for want
        of room, else an error saying so (each writer its own exception)."""
        if isinstance(failure, OutOfSpace) or (isinstance(failure, sqlite3.Error) and is_full(failure)):
            return OutOfSpace() if isinstance(failure, OutOfSpace) else self.database.out_of_space(failure)
        return sqlite3.OperationalError(f"nothing written: the write transaction failed ({failure})")


SLACK_MS = 50  # a write that has waited in the queue less than this keeps the connection's busy timeout as it is


def _begin_immediate(conn: sqlite3.Connection, wait: float, usual: float) -> None:
    """Take the write lock, waiting at most ``wait`` seconds for another process to let it
    go (:class:`Busy` if it does not); statements after it wait ``usual`` seconds again.
    ``PRAGMA busy_timeout`` is set only when ``wait`` is :data:`SLACK_MS` or more short of
    what the connection has (a write that waited long in the queue): not on every write."""
    wanted, kept = max(0, int(wait * 1000)), getattr(conn, "busy_ms", None)
    change = kept is None or kept - wanted > SLACK_MS
    if change:
        conn.execute(f"PRAGMA busy_timeout = {wanted:d}")
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as err:
        if err.sqlite_errorcode & 0xFF == sqlite3.SQLITE_BUSY:
            raise Busy() from None
        raise
    finally:
        if change:
            conn.execute(f"PRAGMA busy_timeout = {int(usual * 1000):d}")
            if kept is not None:
                conn.busy_ms = int(usual * 1000)  # type: ignore[attr-defined]


