"""Migrations on both backends: one list of numbers, each a file both read or a pair (one a
backend); the version kept in a ``schema_version`` table on both; on PostgreSQL, servers
starting at once migrate once (``pg_advisory_xact_lock``), and a database a newer scorepad
wrote is refused. SQLite's own start-up races are in test_database.py."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from scorepad.app import StartupError, create_app
from scorepad.storage import backends, db, idempotency, reading
from scorepad.storage.idempotency import Kind, Made
from tests import json_writes as writing
from tests.helpers import sql, valid_deal

ROOT = Path(__file__).resolve().parents[2]
NEWEST = db.migrations()[-1][0]
STARTER = """
import json, sys, traceback
from scorepad import create_app
for line in sys.stdin:
    try:
        create_app({"DATABASE": line.strip(), "SECRET_KEY": "x"}).extensions["scorepad.database"].close()
        print(json.dumps("ok"), flush=True)
    except BaseException:
        print(json.dumps(traceback.format_exc()), flush=True)
"""


def test_each_migration_number_has_one_migration_for_each_backend():
    folder = ROOT / "scorepad" / "storage" / "migrations"
    names = sorted(p.name for p in folder.iterdir() if p.name[:4].isdigit())
    sqlite, postgresql = db.migrations("sqlite"), db.migrations("postgresql")
    assert [n for n, _, _ in sqlite] == [n for n, _, _ in postgresql] == list(range(1, NEWEST + 1))
    for (_, mine, _), (_, theirs, _) in zip(sqlite, postgresql, strict=True):
        if mine != theirs:  # a pair: NNNN_name.sqlite.sql and NNNN_name.postgresql.sql
            assert mine.endswith(".sqlite.sql") and theirs.endswith(".postgresql.sql"), (mine, theirs)
            assert mine.removesuffix(".sqlite.sql") == theirs.removesuffix(".postgresql.sql")
    assert {name for _, name, _ in sqlite + postgresql} == {n for n in names if n.endswith((".sql", ".py"))}


def test_a_number_with_two_migrations_for_one_backend_is_refused(tmp_path, monkeypatch):
    import importlib.resources

    folder = tmp_path / "migrations"
    folder.mkdir()
    for name in ("0001_a.sql", "0001_a.sqlite.sql"):
        (folder / name).write_text("CREATE TABLE t (x INTEGER);")
    monkeypatch.setattr(importlib.resources, "files", lambda _package: folder)
    with pytest.raises(db.Unusable, match="migration 0001 has"):
        db.migrations("sqlite")


@pytest.mark.backends
def test_the_schema_version_table_lists_every_migration_applied(database_setting):
    rows = sql(database_setting, "SELECT version, name FROM schema_version ORDER BY version")
    assert [tuple(r) for r in rows] == [(n, name) for n, name, _ in db.migrations(
        "postgresql" if backends.is_url(database_setting) else "sqlite")]


def test_a_file_from_before_schema_version_is_given_the_table_with_what_it_had(tmp_path):
    """Files kept their version in PRAGMA user_version only: the table is made with the
    migrations they had, marked as applied before it, and the rest are applied after."""
    path = tmp_path / "old.sqlite"
    conn = sqlite3.connect(path, isolation_level=None)
    for number, _, text in db.migrations()[:2]:
        for statement in db.statements(text):
            conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {number}")
    conn.close()
    assert backends.open_database(path) == NEWEST
    rows = sql(str(path), "SELECT version, applied_at FROM schema_version ORDER BY version")
    assert [v for v, _ in rows] == list(range(1, NEWEST + 1))
    assert [at for _, at in rows[:2]] == ["before schema_version"] * 2
    assert all(at[:2] == "20" for _, at in rows[2:])  # applied now, a UTC time
    assert sql(str(path), "PRAGMA user_version") == [(NEWEST,)]  # still kept there, for older versions to read


def _shape(url: str) -> list[tuple[str, ...]]:
    return [tuple(r) for r in sql(url, "SELECT table_name, column_name, data_type FROM information_schema.columns "
                                       "WHERE table_schema = 'public' ORDER BY table_name, ordinal_position")]


def test_servers_starting_at_once_on_postgresql_migrate_it_once(postgresql):
    """Four processes start the app on one new PostgreSQL database at once, ten times: all
    start, and each database ends with every migration applied once and the same tables."""
    reference = postgresql.new_database()
    backends.open_database(reference)
    expected = _shape(reference)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    starters = [subprocess.Popen([sys.executable, "-c", STARTER], cwd=ROOT, env=env, text=True,
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE) for _ in range(4)]
    try:
        for _ in range(10):
            url = postgresql.new_database()
            for proc in starters:  # all at once: each is waiting on its stdin, the app imported
                proc.stdin.write(f"{url}\n")
                proc.stdin.flush()
            said = [json.loads(proc.stdout.readline()) for proc in starters]
            assert said == ["ok"] * len(starters), "\n".join(s for s in said if s != "ok")
            assert _shape(url) == expected
            assert [v for (v,) in sql(url, "SELECT version FROM schema_version ORDER BY version")] == \
                list(range(1, NEWEST + 1))
    finally:
        for proc in starters:
            proc.stdin.close()
            proc.wait(timeout=30)


def test_a_postgresql_database_a_newer_scorepad_wrote_stops_start_up(postgresql, migrated_postgresql):
    url = postgresql.new_database(migrated_postgresql)
    sql(url, "INSERT INTO schema_version (version, name, applied_at) VALUES (?, 'from the future', 'x')",
        (NEWEST + 1,))
    secret = url.replace("postgres@", "postgres:hunter2@")
    with pytest.raises(StartupError) as stopped:
        create_app({"DATABASE": secret, "SECRET_KEY": "x"})
    said = str(stopped.value)
    assert "newer version of scorepad" in said and f"schema {NEWEST + 1}" in said
    assert url.rsplit("/", 1)[1] in said and "hunter2" not in said


@pytest.mark.parametrize("size", ["lots", "0", "-2", True])
def test_a_pool_size_that_is_not_a_count_of_connections_stops_start_up_naming_it(tmp_path, size):
    with pytest.raises(StartupError, match=r"POOL_SIZE \(SCOREPAD_POOL_SIZE\) must be"):
        create_app({"DATABASE": str(tmp_path / "x.sqlite"), "SECRET_KEY": "x", "POOL_SIZE": size})


def test_pool_size_caps_the_connections_a_process_holds(postgresql, migrated_postgresql):
    app = create_app({"DATABASE": postgresql.new_database(migrated_postgresql), "SECRET_KEY": "x",
                      "POOL_SIZE": "3"})
    try:
        assert app.extensions["scorepad.database"].pool_size == 3
    finally:
        app.extensions["scorepad.database"].close()


def test_a_sqlite_file_whose_schema_version_is_past_this_version_is_refused(tmp_path, migrated_database):
    """SQLite reads its version from the table too: a newer scorepad's row there is enough."""
    path = tmp_path / "newer.sqlite"
    path.write_bytes(migrated_database.read_bytes())
    sql(str(path), "INSERT INTO schema_version (version, name, applied_at) VALUES (?, 'from the future', 'x')",
        (NEWEST + 1,))
    with pytest.raises(db.Unusable, match=f"newer version of scorepad \\(schema {NEWEST + 1}"):
        backends.open_database(path)


def _run_migration(database_setting: str, number: int) -> None:
    """Apply migration ``number`` alone to the database, in a transaction, as start-up does."""
    _, name, text = next(m for m in db.migrations("postgresql" if backends.is_url(database_setting) else "sqlite")
                         if m[0] == number)
    if backends.is_url(database_setting):
        import psycopg

        from scorepad.storage.postgresql import Qmark

        with psycopg.connect(database_setting) as conn, conn.transaction():
            db.apply(Qmark(conn), name, text)
        return
    conn = sqlite3.connect(database_setting, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        db.apply(conn, name, text)
        conn.execute("COMMIT")
    finally:
        conn.close()


@pytest.mark.backends
def test_migration_0005_takes_the_edit_keys_out_of_answers_kept_the_old_way_and_scopes_each_row(database_setting):
    """Kept answers written before 0005 (a new game's held its edit key and edit link) lose
    every copy of the key; a game write's row is scoped to the game's edit key (its holder's
    retry still finds it), a new game's to no client (who sent it cannot be told). Through
    0007 (answers become what the write made) the holder's retry is still given what the
    first request made, and nothing is written."""
    with db.using(backends.database(database_setting)) as found:
        game = writing.create_game("Friday", "common", [{"name": "Ann", "players": ["Ann"]},
                                                      {"name": "Bea", "players": ["Bea"]}])
    found.close()
    for statement in ("DROP TABLE replaced_edit_key", "DROP TABLE idempotency_key",
                      *db.statements(db.migrations()[3][2])):  # the table as 0004 made it
        sql(database_setting, statement)
    created = json.dumps({"api_url": f"http://h/api/v1/games/{game.id}", "edit_key": game.edit_key,
                          "edit_url": f"http://h/games/{game.id}/edit/{game.edit_key}", "id": game.id,
                          "revision": 0, "view_url": f"http://h/games/{game.id}"})
    deal = json.dumps({"number": 1, "revision": 1})
    for route, game_id, body in (("api.create_game", "", created), ("api.record_deal", game.id, deal)):
        sql(database_setting, "INSERT INTO idempotency_key (route, game_id, key, digest, status, body, at) "
            "VALUES (?, ?, 'k', 'd', 201, ?, ?)", (route, game_id, body, db.applied_now()))
    _run_migration(database_setting, 5)
    rows = {route: (client, json.loads(body)) for route, client, body in sql(
        database_setting, "SELECT route, client, body FROM idempotency_key")}
    assert rows["api.create_game"] == ("", {"api_url": f"http://h/api/v1/games/{game.id}", "id": game.id,
                                            "revision": 0, "view_url": f"http://h/games/{game.id}"})
    assert rows["api.record_deal"] == (reading.key_digest(game.edit_key), {"number": 1, "revision": 1})
    assert game.edit_key not in json.dumps(sql(database_setting, "SELECT * FROM idempotency_key"))
    assert sql(database_setting, "SELECT COUNT(*) FROM replaced_edit_key") == [(0,)]
    _run_migration(database_setting, 7)
    with db.using(backends.database(database_setting)) as found:  # the game's key holder's retry is answered from it
        replayed = idempotency.once(idempotency.Once("api.record_deal", game.id, "k", "d",
                                                     client=reading.key_digest(game.edit_key)),
                                    lambda _: pytest.fail("written"))
    found.close()
    assert replayed == Made(Kind.DEAL_RECORDED, game.id, 1, 1)


OLD_KEYS = ("CREATE TABLE idempotency_key (route TEXT NOT NULL, game_id TEXT NOT NULL, client TEXT NOT NULL, "
            "key TEXT NOT NULL, digest TEXT NOT NULL, status INTEGER NOT NULL, body TEXT NOT NULL, at TEXT NOT NULL, "
            "PRIMARY KEY (route, game_id, client, key))")  # the table as 0005 made it


@pytest.mark.backends
def test_migration_0007_keeps_what_each_kept_answer_says_was_made_and_drops_what_cannot_be_read(database_setting):
    """Each answer kept before 0007 becomes the fact its write made, read from its body by its
    route: a game's id and revision (the API's create, import and rekey), a deal's number
    and revision (the API's record), and for the pages' answers, which held no revision, the
    revision of the history entry their write made. A body that cannot be read, or a route
    no door has, is dropped. A retry of each converted one is still given what it made."""
    with db.using(backends.database(database_setting)) as found:
        game = writing.create_game("Friday", "common", [{"name": "Ann", "players": ["Ann"]},
                                                      {"name": "Bea", "players": ["Bea"]}])
        writing.record_deal(game.id, valid_deal(1))  # revision 1
        writing.replace_edit_key(game.id)  # revision 2
    found.close()
    client = reading.key_digest(game.edit_key)
    for statement in ("DROP TABLE idempotency_key", OLD_KEYS):
        sql(database_setting, statement)
    at = db.applied_now()
    kept = [("api.create_game", "", "session s", 201, {"id": game.id, "revision": 0, "view_url": "http://h/g"}),
            ("api.import_api", "", "session s", 201, {"id": game.id, "revision": 0}),
            ("api.record_deal", game.id, client, 201, {"number": 1, "revision": 1, "history_size": 1}),
            ("api.replace_edit_key", game.id, client, 200, {"id": game.id, "revision": 2}),
            ("deals.new_deal", game.id, client, 303, {"number": 1, "message": "Deal 1 saved."}),
            ("deals.edit_deal", game.id, client, 303, {"number": 1, "message": "Deal 1 corrected."}),  # no such edit
            ("games.replace_edit_link", game.id, client, 303, {"id": game.id}),
            ("api.record_deal", "other", client, 201, {"number": "one"}),
            ("old.route", game.id, client, 201, {"id": game.id, "revision": 1})]
    for n, (route, game_id, scope, status, body) in enumerate(kept):
        sql(database_setting, "INSERT INTO idempotency_key (route, game_id, client, key, digest, status, body, at) "
            "VALUES (?, ?, ?, ?, 'd', ?, ?, ?)", (route, game_id, scope, f"k{n}", status, json.dumps(body), at))
    sql(database_setting, "INSERT INTO idempotency_key (route, game_id, client, key, digest, status, body, at) "
        "VALUES ('api.create_game', '', 'session s', 'text', 'd', 201, 'not JSON', ?)", (at,))
    _run_migration(database_setting, 7)
    rows = sql(database_setting, "SELECT key, kind, made_game, deal, revision, at FROM idempotency_key ORDER BY key")
    assert rows == [("k0", "game created", game.id, None, 0, at), ("k1", "game imported", game.id, None, 0, at),
                    ("k2", "deal recorded", game.id, 1, 1, at), ("k3", "edit key replaced", game.id, None, 2, at),
                    ("k4", "deal recorded", game.id, 1, 1, at), ("k6", "edit key replaced", game.id, None, 2, at)]
    with db.using(backends.database(database_setting)) as found:
        replayed = idempotency.once(idempotency.Once("deals.new_deal", game.id, "k4", "d", client=client),
                                    lambda _: pytest.fail("written"))
    found.close()
    assert replayed == Made(Kind.DEAL_RECORDED, game.id, 1, 1)
