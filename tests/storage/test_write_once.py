"""Writes made once per idempotency key (:func:`scorepad.storage.idempotency.once`), in storage
alone, with no web framework: the key is kept with the answer in the write's own
transaction, replayed within 24 hours, refused for another request or while the first is
being written, and forgotten (by its time's index) once expired. A real database (a SQLite
file in the test's folder, and a PostgreSQL database); the answers are the test's own."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from scorepad.storage import db, idempotency, reading
from scorepad.storage import sent as writing
from scorepad.storage.errors import Rejected
from scorepad.storage.idempotency import KeptAnswer, KeyTaken, Once
from tests.hardening import ANN_BEA, sql, valid_deal

pytestmark = pytest.mark.backends  # each test on a database of its own: on SQLite and on PostgreSQL


@pytest.fixture
def database(database_setting: str) -> Iterator[str]:
    """This test's database in use (its setting: a file, or a PostgreSQL URL)."""
    with db.using(db.database(database_setting)) as found:
        yield database_setting
    found.close()


def rows(database: str, statement: str, *params: Any) -> list[tuple[Any, ...]]:
    return [tuple(row) for row in sql(database, statement, params)]


def run(database: str, statement: str, *params: Any) -> None:
    sql(database, statement, params)


def refusing_keys(database: str) -> str:
    """A trigger that fails every key kept after its row is in; the statement that drops it."""
    if db.is_url(database):
        run(database, "CREATE FUNCTION no_keys() RETURNS trigger LANGUAGE plpgsql AS "
                      "$$ BEGIN RAISE EXCEPTION 'no keys'; END $$")
        run(database, "CREATE TRIGGER no_keys AFTER INSERT ON idempotency_key FOR EACH ROW EXECUTE FUNCTION no_keys()")
        return "DROP TRIGGER no_keys ON idempotency_key"
    run(database, "CREATE TRIGGER no_keys AFTER INSERT ON idempotency_key BEGIN SELECT RAISE(FAIL, 'no keys'); END")
    return "DROP TRIGGER no_keys"


def game_once(key: str = "k", digest: str = "d", client: str = "client A") -> Once[reading.GameRecord]:
    return Once("create", "", key, digest, lambda game: (201, json.dumps({"id": game.id, "revision": game.revision})),
                client=client)


def deal_once(game_id: str, key: str = "k", digest: str = "d", client: str = "client A") -> Once[reading.DealRecord]:
    return Once("deals", game_id, key, digest,
                lambda deal: (201, json.dumps({"number": deal.number, "revision": deal.revision})), client=client)


def create(keyed: Once[reading.GameRecord] | None) -> reading.GameRecord:
    return writing.create_game("Friday", "common", ANN_BEA, keyed)


def test_a_write_made_once_is_answered_the_same_again_and_writes_nothing(database):
    first = idempotency.once(game_once(), create)
    again = idempotency.once(game_once(), create)
    assert isinstance(first, KeptAnswer) and isinstance(again, KeptAnswer)
    assert (first.status, first.replayed) == (201, False)
    assert (again.status, again.body, again.replayed) == (first.status, first.body, True)
    game_id = json.loads(first.body)["id"]
    assert rows(database, "SELECT id FROM game") == [(game_id,)]


def test_a_key_kept_for_another_request_is_refused_and_nothing_is_written(database):
    idempotency.once(game_once(digest="one"), create)
    before = rows(database, "SELECT * FROM game") + rows(database, "SELECT * FROM idempotency_key")
    assert idempotency.once(game_once(digest="another"), create) is KeyTaken.REUSED
    assert rows(database, "SELECT * FROM game") + rows(database, "SELECT * FROM idempotency_key") == before


def test_a_key_is_one_routes_and_one_games(database):
    game = create(None)
    other = create(None)
    for keyed in (deal_once(game.id), deal_once(other.id), game_once()):
        written = idempotency.once(keyed, lambda k: writing.record_deal(k.game_id, valid_deal(1), once=k)
                             if k.route == "deals" else create(k))
        assert isinstance(written, KeptAnswer) and not written.replayed
    assert len(rows(database, "SELECT * FROM idempotency_key")) == 3


def test_the_same_key_from_another_client_is_another_key_and_makes_its_own_write(database):
    mine = idempotency.once(game_once(client="session A"), create)
    theirs = idempotency.once(game_once(client="address B"), create)
    assert isinstance(mine, KeptAnswer) and isinstance(theirs, KeptAnswer) and not theirs.replayed
    assert json.loads(mine.body)["id"] != json.loads(theirs.body)["id"]
    assert rows(database, "SELECT COUNT(*) FROM game") == [(2,)]
    again = idempotency.once(game_once(client="session A"), create)
    assert isinstance(again, KeptAnswer) and again.replayed and again.body == mine.body
    assert sorted(rows(database, "SELECT client, key FROM idempotency_key")) == [("address B", "k"), ("session A", "k")]


def test_an_answer_holding_the_edit_key_is_never_kept_and_nothing_is_written(database):
    before = rows(database, "SELECT COUNT(*) FROM game")
    leaky = Once("create", "", "k", "d", lambda game: (201, json.dumps({"id": game.id, "edit_key": game.edit_key})),
                 client="session A")
    with pytest.raises(RuntimeError, match="edit key"):
        idempotency.once(leaky, create)
    assert rows(database, "SELECT COUNT(*) FROM game") == before
    assert rows(database, "SELECT * FROM idempotency_key") == []


def test_replacing_the_edit_key_refuses_the_old_one_and_says_so_in_the_history(database):
    game = create(None)
    replaced = writing.replace_edit_key(game.id)
    assert replaced.edit_key != game.edit_key and replaced.revision == game.revision + 1
    assert reading.load_game(game.id).edit_key == replaced.edit_key  # the cached game too
    assert reading.replaced_at(game.id, game.edit_key) is not None
    assert reading.replaced_at(game.id, replaced.edit_key) is None and reading.replaced_at(game.id, "never") is None
    entries = reading.history(game.id)
    assert [(e["action"], e["deal_number"], e["revision"]) for e in entries] == [("rekey", None, 1)]
    stored = json.dumps(rows(database, "SELECT * FROM history") + rows(database, "SELECT * FROM replaced_edit_key"))
    assert game.edit_key not in stored and replaced.edit_key not in stored  # a digest only, in its own table
    assert [c["message"] for c in reading.changes_since(game.id, 0)] == ["the edit link was replaced"]


def test_a_replaced_edit_key_made_once_keeps_an_answer_without_the_new_key(database):
    game = create(None)
    keyed = Once("rekey", game.id, "k", "d", lambda found: (200, json.dumps({"id": found.id,
                                                                             "revision": found.revision})),
                 client=reading.key_digest(game.edit_key))
    first = idempotency.once(keyed, lambda k: writing.replace_edit_key(game.id, k))
    again = idempotency.once(keyed, lambda k: writing.replace_edit_key(game.id, k))
    assert isinstance(first, KeptAnswer) and isinstance(again, KeptAnswer) and again.replayed
    assert reading.load_game(game.id).revision == 1  # replaced once
    new_key = reading.load_game(game.id).edit_key
    assert new_key not in json.dumps(rows(database, "SELECT * FROM idempotency_key"))
    leaky = dataclasses.replace(keyed, key="k2", answer=lambda found: (200, json.dumps({"key": found.edit_key})),
                                client=reading.key_digest(new_key))
    with pytest.raises(RuntimeError, match="edit key"):
        idempotency.once(leaky, lambda k: writing.replace_edit_key(game.id, k))
    assert reading.load_game(game.id).edit_key == new_key  # the failed write wrote nothing


@pytest.mark.backends("sqlite")  # SQLite's trace of statements
def test_the_write_and_its_key_are_one_transaction(database):
    """Every statement of a keyed deal runs between one BEGIN IMMEDIATE and its COMMIT: the
    deal, its history entry, the revision and the key with its answer."""
    game = create(None)
    statements: list[str] = []
    db.get_db().set_trace_callback(statements.append)
    try:
        idempotency.once(deal_once(game.id), lambda k: writing.record_deal(game.id, valid_deal(1), once=k))
    finally:
        db.get_db().set_trace_callback(None)
    begins = [i for i, s in enumerate(statements) if s.startswith("BEGIN")]
    writes = [i for i, s in enumerate(statements) if s.startswith(("INSERT", "UPDATE", "DELETE"))]
    assert len([s for s in statements if s.startswith("BEGIN IMMEDIATE")]) == 1
    start = next(i for i in begins if statements[i] == "BEGIN IMMEDIATE")
    end = next(i for i in range(start, len(statements)) if statements[i] in ("COMMIT", "ROLLBACK"))
    assert statements[end] == "COMMIT"
    assert writes and all(start < i < end for i in writes), statements
    written = " ".join(statements[start:end])
    for table in ("INTO deal", "INTO history", "UPDATE game", "INTO idempotency_key"):
        assert table in written, table


def test_a_write_whose_key_cannot_be_kept_is_not_written_at_all(database):
    """Keeping the key fails after its row is in (RAISE(FAIL) keeps the row the statement
    wrote): the whole write is rolled back with it, the deal, its history and the revision;
    once the key can be kept, the same write is made."""
    game = create(None)
    drop = refusing_keys(database)
    before = rows(database, "SELECT * FROM deal") + rows(database, "SELECT * FROM history")
    with pytest.raises(Exception, match="no keys"):
        idempotency.once(deal_once(game.id), lambda k: writing.record_deal(game.id, valid_deal(1), once=k))
    assert rows(database, "SELECT * FROM deal") + rows(database, "SELECT * FROM history") == before
    assert rows(database, "SELECT revision FROM game WHERE id = ?", game.id) == [(0,)]
    assert rows(database, "SELECT * FROM idempotency_key") == []
    run(database, drop)
    written = idempotency.once(deal_once(game.id), lambda k: writing.record_deal(game.id, valid_deal(1), once=k))
    assert isinstance(written, KeptAnswer) and json.loads(written.body) == {"number": 1, "revision": 1}


def test_a_create_whose_key_cannot_be_kept_makes_no_game(database):
    refusing_keys(database)
    with pytest.raises(Exception, match="no keys"):
        idempotency.once(game_once(), create)
    assert rows(database, "SELECT * FROM game") == [] and rows(database, "SELECT * FROM idempotency_key") == []


def test_a_refused_write_keeps_no_key_and_runs_again_when_sent_again(database):
    game = create(None)
    broken = valid_deal(1)
    broken["sides"][1]["melds"] = ["A A 2 2"]
    for _ in range(2):  # not IN_PROGRESS, nor a replay: judged again, refused again
        with pytest.raises(Rejected):
            idempotency.once(deal_once(game.id), lambda k: writing.record_deal(game.id, broken, once=k))
        assert rows(database, "SELECT * FROM idempotency_key") == []


def test_while_a_key_is_being_written_the_same_key_is_in_progress(database):
    """The write's own code asks again with its key while it is being made: in progress.
    Another key, or the same key once the write is done, is not."""
    seen: dict[str, Any] = {}

    def write(keyed: Once[reading.GameRecord]) -> reading.GameRecord:
        seen["same"] = idempotency.once(game_once(), create)
        seen["other"] = idempotency.once(game_once("other key"), create)
        return create(keyed)

    first = idempotency.once(game_once(), write)
    assert seen["same"] is KeyTaken.IN_PROGRESS
    assert isinstance(seen["other"], KeptAnswer) and not seen["other"].replayed
    assert isinstance(first, KeptAnswer) and not first.replayed
    again = idempotency.once(game_once(), create)
    assert isinstance(again, KeptAnswer) and again.replayed and again.body == first.body


def test_an_expired_key_is_ignored_and_forgotten_by_the_next_keyed_write(database):
    idempotency.once(game_once("old"), create)
    idempotency.once(game_once("recent"), create)
    now = datetime.now(UTC)
    expired = (now - timedelta(hours=24, seconds=5)).isoformat(timespec="seconds")
    recent = (now - timedelta(hours=23, minutes=55)).isoformat(timespec="seconds")
    run(database, "UPDATE idempotency_key SET at = ? WHERE key = 'old'", expired)
    run(database, "UPDATE idempotency_key SET at = ? WHERE key = 'recent'", recent)
    replayed = idempotency.once(game_once("recent"), create)
    assert isinstance(replayed, KeptAnswer) and replayed.replayed
    again = idempotency.once(game_once("old", digest="another request"), create)  # expired: a new write, not REUSED
    assert isinstance(again, KeptAnswer) and not again.replayed
    assert len(rows(database, "SELECT * FROM game")) == 3
    kept = dict(rows(database, "SELECT key, at FROM idempotency_key"))
    assert kept["recent"] == recent and kept["old"] >= now.isoformat(timespec="seconds")  # the expired row forgotten
    assert len(kept) == 2


def plan(name: str, *params: str) -> str:
    return " ".join(str(row[-1]) for row in db.get_db().execute("EXPLAIN QUERY PLAN " + db.QUERIES[name], params))


@pytest.mark.backends("sqlite")  # SQLite's query plans
def test_expired_keys_are_forgotten_by_the_index_on_their_time_and_a_key_is_found_by_its_own(database):
    """Forgetting costs what expired, not every key kept: a search of the time's index."""
    forget = plan("idempotency_forget", "x")
    assert "SEARCH" in forget and "idempotency_key_by_time" in forget, forget
    found = plan("idempotency_get", "r", "g", "c", "k", "x")
    assert "SEARCH" in found and "SCAN" not in found, found
