"""Writes made once per idempotency key (:func:`scorepad.storage.idempotency.once`), in storage
alone, with no web framework: the key is kept with what its write made (a :class:`Made`,
never an answer nor a secret) in the write's own transaction, given again within 24 hours,
refused for another request or while the first is being written, and forgotten (by its
time's index) once expired. A real database (a SQLite file in the test's folder, and a
PostgreSQL database)."""

from __future__ import annotations

import dataclasses
import inspect
import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from scorepad.storage import backends, db, document, idempotency, reading
from scorepad.storage.errors import RuleViolations
from scorepad.storage.idempotency import KeyTaken, Kind, Made, Once
from tests import json_writes as writing
from tests.helpers import ANN_BEA, sql, valid_deal

pytestmark = pytest.mark.backends  # each test on a database of its own: on SQLite and on PostgreSQL


@pytest.fixture
def database(database_setting: str) -> Iterator[str]:
    """This test's database in use (its setting: a file, or a PostgreSQL URL)."""
    with db.using(backends.database(database_setting)) as found:
        yield database_setting
    found.close()


def rows(database: str, statement: str, *params: Any) -> list[tuple[Any, ...]]:
    return [tuple(row) for row in sql(database, statement, params)]


def run(database: str, statement: str, *params: Any) -> None:
    sql(database, statement, params)


def refusing_keys(database: str) -> str:
    """A trigger that fails every key kept after its row is in; the statement that drops it."""
    if backends.is_url(database):
        run(database, "CREATE FUNCTION no_keys() RETURNS trigger LANGUAGE plpgsql AS "
                      "$$ BEGIN RAISE EXCEPTION 'no keys'; END $$")
        run(database, "CREATE TRIGGER no_keys AFTER INSERT ON idempotency_key FOR EACH ROW EXECUTE FUNCTION no_keys()")
        return "DROP TRIGGER no_keys ON idempotency_key"
    run(database, "CREATE TRIGGER no_keys AFTER INSERT ON idempotency_key BEGIN SELECT RAISE(FAIL, 'no keys'); END")
    return "DROP TRIGGER no_keys"


def game_once(key: str = "k", digest: str = "d", client: str = "client A") -> Once[reading.GameRecord]:
    return Once("create", "", key, digest, client=client)


def deal_once(game_id: str, key: str = "k", digest: str = "d", client: str = "client A") -> Once[reading.DealRecord]:
    return Once("deals", game_id, key, digest, client=client)


def create(keyed: Once[reading.GameRecord] | None) -> reading.GameRecord:
    return writing.create_game("Friday", "common", ANN_BEA, keyed)


def test_a_write_made_once_is_answered_the_same_again_and_writes_nothing(database):
    """The first request gets what its write returns; the same request again, what that write
    made (the game, at its revision), and nothing is written."""
    first = idempotency.once(game_once(), create)
    again = idempotency.once(game_once(), create)
    assert isinstance(first, reading.GameRecord)
    assert again == Made(Kind.GAME_CREATED, first.id, None, first.revision)
    assert rows(database, "SELECT id FROM game") == [(first.id,)]


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
        assert isinstance(written, (reading.DealRecord, reading.GameRecord))  # made now, not made before
    assert len(rows(database, "SELECT * FROM idempotency_key")) == 3


def test_the_same_key_from_another_client_is_another_key_and_makes_its_own_write(database):
    mine = idempotency.once(game_once(client="session A"), create)
    theirs = idempotency.once(game_once(client="address B"), create)
    assert isinstance(mine, reading.GameRecord) and isinstance(theirs, reading.GameRecord)  # each made now
    assert mine.id != theirs.id
    assert rows(database, "SELECT COUNT(*) FROM game") == [(2,)]
    again = idempotency.once(game_once(client="session A"), create)
    assert again == Made(Kind.GAME_CREATED, mine.id, None, 0)
    assert sorted(rows(database, "SELECT client, key FROM idempotency_key")) == [("address B", "k"), ("session A", "k")]


FACT_COLUMNS = ["route", "game_id", "client", "key", "digest", "kind", "made_game", "deal", "revision", "at"]


def test_every_kind_of_keyed_write_keeps_its_fact_and_no_secret_nor_any_http_text(database):
    """Each write made once (a game created, imported, a deal recorded, corrected, the edit key
    replaced) keeps its key with what it made: its kind, its game, its deal, the revision it
    made. Read whole after each, the table holds only those columns (no status, no body),
    no edit key the game had or has, and no JSON text (no answer)."""
    def table() -> list[tuple[Any, ...]]:
        return rows(database, "SELECT route, game_id, client, key, digest, kind, made_game, deal, revision, at "
                              "FROM idempotency_key ORDER BY at, key")

    columns = [row[1] for row in sql(database, "SELECT * FROM pragma_table_info('idempotency_key')")] \
        if not backends.is_url(database) else [row[0] for row in sql(
            database, "SELECT column_name FROM information_schema.columns WHERE table_name = 'idempotency_key' "
                      "ORDER BY ordinal_position")]
    assert columns == FACT_COLUMNS
    def check(key: str, fact: tuple[Any, ...]) -> None:
        kept = table()
        assert [row[5:9] for row in kept if row[3] == key] == [fact]
        everything = json.dumps(rows(database, "SELECT * FROM idempotency_key"))
        for (secret,) in rows(database, "SELECT edit_key FROM game"):
            assert secret not in everything
        for row in kept:
            for value in row:
                assert not (isinstance(value, str) and value.lstrip().startswith(("{", "["))), value  # no JSON body

    made = idempotency.once(game_once("create"), create)
    assert isinstance(made, reading.GameRecord)
    check("create", ("game created", made.id, None, 0))
    exported = document.export_game(made.id)
    imported = idempotency.once(game_once("import"), lambda k: document.import_document(exported, k))
    assert isinstance(imported, reading.GameRecord)
    check("import", ("game imported", imported.id, None, imported.revision))
    client = reading.key_digest(made.edit_key)
    idempotency.once(Once("record", made.id, "record", "d", client=client),
                     lambda k: writing.record_deal(made.id, valid_deal(1), once=k))
    check("record", ("deal recorded", made.id, 1, 1))
    corrected = valid_deal(1)
    corrected["sides"][1]["melds"] = ["J J J J J J J"]
    idempotency.once(Once("correct", made.id, "correct", "d", client=client),
                     lambda k: writing.update_deal(made.id, 1, corrected, once=k))
    check("correct", ("deal corrected", made.id, 1, 2))
    rekeyed = idempotency.once(Once("rekey", made.id, "rekey", "d", client=client),
                               lambda k: writing.replace_edit_key(made.id, k))
    assert isinstance(rekeyed, reading.GameRecord) and rekeyed.edit_key != made.edit_key
    check("rekey", ("edit key replaced", made.id, None, 3))
    everything = json.dumps(rows(database, "SELECT * FROM idempotency_key"))
    assert made.edit_key not in everything and rekeyed.edit_key not in everything  # the replaced key too


def test_a_deal_made_once_is_given_again_as_it_was_recorded_even_once_corrected_since(database):
    """What a deal's write made names the deal and the revision: :func:`idempotency.deal_made`
    gives the deal as recorded then (its body, as-played reason and history size at that
    revision), not as it stands after a later correction."""
    game = create(None)
    keyed = Once("record", game.id, "k", "d", client=reading.key_digest(game.edit_key))
    first = idempotency.once(keyed, lambda k: writing.record_deal(game.id, valid_deal(1), once=k))
    assert isinstance(first, reading.DealRecord)
    corrected = valid_deal(1)
    corrected["sides"][1]["melds"] = ["J J J J J J J"]
    writing.update_deal(game.id, 1, corrected)
    again = idempotency.once(keyed, lambda k: pytest.fail("written again"))
    assert again == Made(Kind.DEAL_RECORDED, game.id, 1, 1)
    made = idempotency.deal_made(again)
    assert made is not None and (made.number, made.revision, made.history_size, made.as_played) == (1, 1, 1, None)
    assert made.deal.to_json(with_sheet=False) == first.deal.to_json(with_sheet=False)
    assert made.verdict.to_json() == first.verdict.to_json()
    assert reading.load_game(game.id).deal(1).history_size == 2  # corrected since


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


def test_a_replaced_edit_key_made_once_keeps_what_it_made_without_the_new_key(database):
    """A replacement made once is not made again: the same request gets what it made (the
    game at the revision it made), and the new key is kept nowhere with the key."""
    game = create(None)
    keyed = Once("rekey", game.id, "k", "d", client=reading.key_digest(game.edit_key))
    first = idempotency.once(keyed, lambda k: writing.replace_edit_key(game.id, k))
    again = idempotency.once(keyed, lambda k: writing.replace_edit_key(game.id, k))
    assert isinstance(first, reading.GameRecord)
    assert again == Made(Kind.EDIT_KEY_REPLACED, game.id, None, 1)
    assert reading.load_game(game.id).revision == 1  # replaced once
    new_key = reading.load_game(game.id).edit_key
    assert new_key == first.edit_key and new_key not in json.dumps(rows(database, "SELECT * FROM idempotency_key"))


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
    assert isinstance(written, reading.DealRecord) and (written.number, written.revision) == (1, 1)
    assert rows(database, "SELECT kind, made_game, deal, revision FROM idempotency_key") == [
        ("deal recorded", game.id, 1, 1)]


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
        with pytest.raises(RuleViolations):
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
    assert isinstance(seen["other"], reading.GameRecord)  # made now
    assert isinstance(first, reading.GameRecord)
    again = idempotency.once(game_once(), create)
    assert again == Made(Kind.GAME_CREATED, first.id, None, 0)


def test_an_expired_key_is_ignored_and_forgotten_by_the_next_keyed_write(database):
    idempotency.once(game_once("old"), create)
    idempotency.once(game_once("recent"), create)
    now = datetime.now(UTC)
    expired = (now - timedelta(hours=24, seconds=5)).isoformat(timespec="seconds")
    recent = (now - timedelta(hours=23, minutes=55)).isoformat(timespec="seconds")
    run(database, "UPDATE idempotency_key SET at = ? WHERE key = 'old'", expired)
    run(database, "UPDATE idempotency_key SET at = ? WHERE key = 'recent'", recent)
    replayed = idempotency.once(game_once("recent"), create)
    assert isinstance(replayed, Made)
    again = idempotency.once(game_once("old", digest="another request"), create)  # expired: a new write, not REUSED
    assert isinstance(again, reading.GameRecord)
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


def test_storage_is_handed_no_answer_to_keep():
    """Storage takes no callback from a door: a write made once (:class:`Once`) holds only the
    route, game, key, digest and client, and no public write of :mod:`.writing` takes a
    callable (an answer, a status, a body to keep), so nothing below the doors builds a reply."""
    assert [(f.name, f.type) for f in dataclasses.fields(Once)] == [
        ("route", "str"), ("game_id", "str"), ("key", "str"), ("digest", "str"), ("client", "str")]
    for name, function in inspect.getmembers(writing, inspect.isfunction):
        if function.__module__ == writing.__name__ and not name.startswith("_"):
            for parameter in inspect.signature(function).parameters.values():
                assert "Callable" not in str(parameter.annotation), (name, parameter)
