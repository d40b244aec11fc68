"""Writers of one SQLite file in one process take their turns first come, first served
(``write_queue.WriteQueue``), on a real file in tmp_path, from threads; a write sets no PRAGMA when it
did not wait in the queue."""

from __future__ import annotations

import threading
import time

import pytest

from scorepad.storage import db, write_queue

pytestmark = pytest.mark.backends("sqlite")


def _database(tmp_path) -> db.Database:
    database = db.Database(tmp_path / "queue.sqlite")
    database.open()
    return database


def test_writers_queued_behind_a_write_take_their_turns_in_the_order_they_came(tmp_path):
    database = _database(tmp_path)
    holding, go = threading.Event(), threading.Event()
    order: list[int] = []

    def first() -> None:
        with db.using(database), db.transaction():
            holding.set()
            go.wait(10)

    def writer(n: int) -> None:
        with db.using(database), db.transaction():
            order.append(n)

    threads = [threading.Thread(target=first)]
    threads[0].start()
    assert holding.wait(10)
    for n in range(8):
        thread = threading.Thread(target=writer, args=(n,))
        thread.start()
        threads.append(thread)
        time.sleep(0.02)  # this one is queued before the next comes
    go.set()
    for thread in threads:
        thread.join(10)
    assert order == list(range(8))


def test_a_writer_that_gives_up_leaves_the_queue_and_the_others_go_on(tmp_path):
    database = _database(tmp_path)
    writers = write_queue.queue_of(database.path)
    writers.acquire(time.monotonic() + 1)
    try:
        with pytest.raises(db.Busy):
            writers.acquire(time.monotonic() + 0.1)  # waits its 0.1 s, then leaves
    finally:
        writers.release()
    writers.acquire(time.monotonic() + 0.1)  # free again: taken at once
    writers.release()


def test_concurrent_writes_from_threads_are_each_saved_once(tmp_path):
    database = _database(tmp_path)
    with db.using(database):
        db.get_db().execute("CREATE TABLE t (n INTEGER PRIMARY KEY)")

    def writer(base: int) -> None:
        with db.using(database):
            for n in range(base, base + 25):
                with db.transaction():
                    db.get_db().execute("INSERT INTO t VALUES (?)", (n,))

    threads = [threading.Thread(target=writer, args=(k * 100,)) for k in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    with db.using(database):
        found = [row[0] for row in db.get_db().execute("SELECT n FROM t ORDER BY n")]
    assert found == sorted(k * 100 + i for k in range(8) for i in range(25))


def test_a_write_that_did_not_wait_sets_no_pragma(tmp_path):
    database = _database(tmp_path)
    statements: list[str] = []
    with db.using(database):
        db.get_db().set_trace_callback(statements.append)
        try:
            with db.transaction():
                pass
        finally:
            db.get_db().set_trace_callback(None)
    assert statements == ["BEGIN IMMEDIATE", "COMMIT"]
