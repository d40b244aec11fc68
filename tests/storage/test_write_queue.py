"""Writers of one SQLite file in one process take their turns first come, first served
(``write_queue.WriteQueue``), on a real file in tmp_path, from threads; a write sets no PRAGMA when it
did not wait in the queue."""

from __future__ import annotations

import sqlite3
import threading
import time

import pytest

from scorepad.storage import db, write_queue
from tests.helpers import api_game, bearer, valid_deal

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
    assert statements == ["BEGIN IMMEDIATE", "COMMIT"]  # the first of its batch: no savepoint


def test_the_first_write_of_a_batch_that_fails_is_rolled_back_alone_and_the_next_goes_on(tmp_path):
    """The batch's first write runs in no savepoint (it is alone in the transaction while its
    block runs): when it fails, its transaction is rolled back, its error is the one raised,
    and the next write starts a batch of its own."""
    database = _table(tmp_path)
    with db.using(database):
        with pytest.raises(ValueError, match="refused after writing"):
            with db.transaction():
                db.get_db().execute("INSERT INTO t VALUES (1, 'refused')")
                raise ValueError("refused after writing")
        assert not db.current().in_transaction()
        with db.transaction():
            db.get_db().execute("INSERT INTO t VALUES (2, 'saved')")
    assert _rows(database) == [(2, "saved")]


def _queue_behind_a_held_write(database: db.Database, writers: list[threading.Thread]) -> None:
    """Start ``writers`` while a first write holds the turn, and let it go once all wait."""
    holding, go = threading.Event(), threading.Event()

    def first() -> None:
        with db.using(database):
            db.get_db().set_trace_callback(_traced.append)
            with db.transaction():
                db.get_db().execute("INSERT INTO t VALUES (?, ?)", (-1, "first"))
                holding.set()
                go.wait(10)

    threads = [threading.Thread(target=first), *writers]
    threads[0].start()
    assert holding.wait(10)
    queue = write_queue.queue_of(database.path)
    for thread in writers:
        thread.start()
    deadline = time.monotonic() + 10
    while queue.waiting() < len(writers) and time.monotonic() < deadline:
        time.sleep(0.005)
    assert queue.waiting() == len(writers)
    go.set()
    for thread in threads:
        thread.join(20)


_traced: list[str] = []


def _table(tmp_path) -> db.Database:
    database = _database(tmp_path)
    with db.using(database):
        db.get_db().execute("CREATE TABLE t (n INTEGER PRIMARY KEY, said TEXT)")
    _traced.clear()
    return database


def _rows(database: db.Database) -> list[tuple[int, str]]:
    with db.using(database):
        return [(row[0], row[1]) for row in db.get_db().execute("SELECT n, said FROM t ORDER BY n")]


def test_writes_waiting_at_once_are_committed_together_in_one_transaction(tmp_path):
    database = _table(tmp_path)

    def writer(n: int) -> None:
        with db.using(database):
            db.get_db().set_trace_callback(_traced.append)
            with db.transaction():
                db.get_db().execute("INSERT INTO t VALUES (?, ?)", (n, "queued"))

    _queue_behind_a_held_write(database, [threading.Thread(target=writer, args=(n,)) for n in range(8)])
    assert _traced.count("BEGIN IMMEDIATE") == 1  # 1 batch
    assert _traced.count("SAVEPOINT write") == 8  # the 8 queued; the held one, first, needs none
    assert _traced.count("COMMIT") == 1  # 1 fsync for the 9
    assert _rows(database) == [(-1, "first")] + [(n, "queued") for n in range(8)]


def test_a_batch_holds_at_most_its_bound_and_the_rest_go_in_the_next(tmp_path):
    database = _table(tmp_path)
    most = write_queue.WriteQueue.MOST

    def writer(n: int) -> None:
        with db.using(database):
            db.get_db().set_trace_callback(_traced.append)
            with db.transaction():
                db.get_db().execute("INSERT INTO t VALUES (?, ?)", (n, "queued"))

    _queue_behind_a_held_write(database, [threading.Thread(target=writer, args=(n,)) for n in range(most + 5)])
    assert _traced.count("COMMIT") == 2  # MOST (the held one and MOST - 1 queued), then the other 6
    assert len(_rows(database)) == 1 + most + 5


def test_a_write_that_fails_in_a_batch_is_undone_alone_and_only_its_writer_is_told(tmp_path):
    database = _table(tmp_path)
    outcome: dict[int, str] = {}

    def writer(n: int) -> None:
        with db.using(database):
            try:
                with db.transaction():
                    db.get_db().execute("INSERT INTO t VALUES (?, ?)", (n, "queued"))
                    if n == 3:
                        raise ValueError("refused after writing")
                outcome[n] = "saved"
            except ValueError:
                outcome[n] = "refused"

    _queue_behind_a_held_write(database, [threading.Thread(target=writer, args=(n,)) for n in range(6)])
    assert outcome == {0: "saved", 1: "saved", 2: "saved", 3: "refused", 4: "saved", 5: "saved"}
    assert _rows(database) == [(-1, "first")] + [(n, "queued") for n in (0, 1, 2, 4, 5)]


def test_each_write_of_a_batch_sees_the_ones_before_it_so_each_gets_its_own_conflict(tmp_path):
    database = _table(tmp_path)
    with db.using(database):
        db.get_db().execute("INSERT INTO t VALUES (0, 'revision 0')")
    moved: dict[int, int] = {}

    def writer(n: int) -> None:  # each based on revision 0, as phones that read at once
        with db.using(database), db.transaction():
            moved[n] = db.get_db().execute("UPDATE t SET said = ? WHERE n = 0 AND said = 'revision 0'",
                                           (f"written by {n}",)).rowcount

    _queue_behind_a_held_write(database, [threading.Thread(target=writer, args=(n,)) for n in range(4)])
    (first,) = [n for n, changed in moved.items() if changed == 1]  # the first to come moved it
    assert sorted(moved.values()) == [0, 0, 0, 1]  # the other three found it moved, as a conflict
    assert (0, f"written by {first}") in _rows(database)


def test_a_writer_is_answered_only_once_its_batch_is_committed(tmp_path):
    database = _table(tmp_path)
    seen: dict[int, bool] = {}

    def writer(n: int) -> None:
        with db.using(database):
            with db.transaction():
                db.get_db().execute("INSERT INTO t VALUES (?, ?)", (n, "queued"))
            other = sqlite3.connect(database.path)  # another program's view of the file
            try:
                seen[n] = other.execute("SELECT count(*) FROM t WHERE n = ?", (n,)).fetchone()[0] == 1
            finally:
                other.close()

    _queue_behind_a_held_write(database, [threading.Thread(target=writer, args=(n,)) for n in range(6)])
    assert seen == {n: True for n in range(6)}


def test_two_phones_recording_the_same_deal_in_one_batch_write_it_once(make_app):
    """Both phones read revision 0 and send deal 1 at once, each with its own key; their writes
    queue behind a held one, so they land in one batch: one is saved, the other is told it is
    stale (409), and the game holds the deal once, with one record in its history."""
    app = make_app()
    game, key = api_game(app.test_client())
    database = app.extensions["scorepad.database"]
    answers: dict[str, int] = {}

    def phone(name: str) -> None:
        sent = app.test_client().post(f"/api/v1/games/{game}/deals", json={**valid_deal(1), "revision": 0},
                                      headers={**bearer(key), "Idempotency-Key": f"{name}-deal-1"})
        answers[name] = sent.status_code

    holding, go = threading.Event(), threading.Event()

    def held() -> None:
        with db.using(database), db.transaction():
            holding.set()
            go.wait(10)

    first = threading.Thread(target=held)
    first.start()
    assert holding.wait(10)
    phones = [threading.Thread(target=phone, args=(name,)) for name in ("Dan", "Eve")]
    for thread in phones:
        thread.start()
    queue = write_queue.queue_of(database.path)
    deadline = time.monotonic() + 10
    while queue.waiting() < 2 and time.monotonic() < deadline:
        time.sleep(0.005)
    assert queue.waiting() == 2  # both prepared, both queued: they go in one batch
    go.set()
    for thread in (first, *phones):
        thread.join(20)
    assert sorted(answers.values()) == [201, 409]
    with db.using(database):
        assert [row["number"] for row in db.query("deals_of_game", game)] == [1]
        records = [h for h in db.query("history_of_game", game) if h["action"] == "record"]
        assert len(records) == 1
