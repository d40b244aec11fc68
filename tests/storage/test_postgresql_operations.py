"""Running on PostgreSQL, as a host serving many tables does: a game moved between SQLite and
PostgreSQL by export and import, backups (``flask backup`` points to pg_dump; a pg_dump
restored serves the same games), a game's row locked by another program (503, nothing
written), and a server that cannot be reached at start-up or goes away meanwhile.

Each test runs on a database of its own in the session's throwaway cluster
(:mod:`tests.postgres`), or on a cluster of its own when it stops the server.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scorepad.app import StartupError, create_app
from tests import postgres
from tests.conftest import TEST_CONFIG
from tests.helpers import api_game, assert_error_shape, bearer, db_state, dump, form_fields, free_port, grant
from tests.paper.test_pdf import text_of
from tests.storage.test_exchange import deal, export, full_game, import_, post_deal
from tests.storage.test_two_phones import _page_deal

ROOT = Path(__file__).resolve().parents[2]
API = "/api/v1"
# Names a table writes: accents, another script, a quote; each side one player.
WORLD = [{"name": "Zoë", "players": ["Zoë"]}, {"name": "Łucja 李", "players": ["Łucja 李"]}]


@pytest.fixture
def on_postgresql(postgresql: Any, migrated_postgresql: str, make_app: Any) -> Any:
    """An app on a new migrated PostgreSQL database of this test's own (BUSY_TIMEOUT 0.5 s)."""
    return make_app(DATABASE=postgresql.new_database(template=migrated_postgresql), BUSY_TIMEOUT=0.5)


# -- export from SQLite, import into PostgreSQL, and back -----------------------------------------------


def world_game(client) -> tuple[str, str]:
    """A game of names outside ASCII, with a deal saved as played, one corrected, one
    deleted, and an amendment of the sheet between them."""
    names = tuple(side["name"] for side in WORLD)
    game_id, key = api_game(client, name="Soirée à l'Ōtsuka — «tous»", sides=WORLD)
    post_deal(client, game_id, key, deal(ann=("K K K K K K K", "Q Q Q Q Q 2 2"), bea=("J J J",), bea_left="A 3B",
                                         went_out=names[0], names=names))
    post_deal(client, game_id, key, deal(bea=("Q Q 2 2",), names=names), reason="On a laissé « Q Q 2 2 » — 李")
    post_deal(client, game_id, key, deal(ann=("8 8 8",), bea=("9 9 9 9",), names=names))
    response = client.put(f"{API}/games/{game_id}/deals/1", headers=bearer(key),
                          json={**deal(ann=("K K K K K K K", "Q Q Q Q Q 2 2"), bea=("J J J",), bea_left="A",
                                       went_out=names[0], names=names), "deal": 1})
    assert response.status_code == 200, response.get_json()
    response = client.put(f"{API}/games/{game_id}/sheet", headers=bearer(key),
                          json={"sheet": {"preset": "common", "clean_book_bonus": 550}, "reason": "règle maison"})
    assert response.status_code == 200, response.get_json()
    assert client.delete(f"{API}/games/{game_id}/deals/3", headers=bearer(key)).status_code == 200
    return game_id, key


def _without_exported_at(document: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in document.items() if k != "exported_at"}


def _history(client, game_id: str) -> list[dict[str, Any]]:
    keep = ("deal_number", "action", "at", "before", "after", "old_totals", "new_totals", "reason")
    entries = client.get(f"{API}/games/{game_id}/history").get_json()["history"]
    return [{k: e[k] for k in keep} for e in entries]


GAME_FIELDS = ("name", "sheet", "sides", "created_at", "deals", "running_totals", "standings", "over", "winner",
               "tie", "problems", "next_deal", "sheet_changes")


@pytest.mark.parametrize("make", [full_game, world_game], ids=["corrected-deleted-amended", "non-ascii"])
def test_a_game_exported_from_sqlite_imports_into_postgresql_and_back_the_same(make_app, on_postgresql, make):
    """SQLite → PostgreSQL → SQLite through the real app on each: every export is the same
    document but for ``exported_at``; each copy shows the same game, and the same history but
    for the import's own last entry; only the id and edit key are new."""
    sqlite, pg = make_app().test_client(), on_postgresql.test_client()
    original, _ = make(sqlite)
    first = export(sqlite, original)
    moved = import_(pg, first)
    second = export(pg, moved["id"])
    back = import_(sqlite, second)
    third = export(sqlite, back["id"])
    assert _without_exported_at(second) == _without_exported_at(first)
    assert _without_exported_at(third) == _without_exported_at(first)
    assert len({original, moved["id"], back["id"]}) == 3
    old = sqlite.get(f"{API}/games/{original}").get_json()
    for client, copy in ((pg, moved), (sqlite, back)):
        new = client.get(f"{API}/games/{copy['id']}").get_json()
        assert {field: new[field] for field in GAME_FIELDS} == {field: old[field] for field in GAME_FIELDS}
        history = _history(client, copy["id"])
        assert history[:-1] == _history(sqlite, original)
        assert history[-1]["action"] == "import" and history[-1]["deal_number"] is None
        assert new["revision"] == len(history)


def test_the_history_page_and_the_results_pdf_read_the_same_game_alike_on_postgresql(make_app, on_postgresql):
    """The history page (corrections' deals and amendments' sheets read, no other entry's) and
    the results PDF (only the corrections read) of one game, made alike on each backend:
    the same page and the same text but for the game's own id and link."""
    pages = []
    for client in (make_app().test_client(), on_postgresql.test_client()):
        game_id, _ = world_game(client)
        history = client.get(f"/games/{game_id}/history")
        results = client.get(f"/games/{game_id}/results.pdf")
        assert history.status_code == 200 and results.status_code == 200
        page, text = history.get_data(as_text=True), text_of(results.data)
        pages.append((page.replace(game_id, "ID"), text.replace(game_id, "ID")))
    (sqlite_page, sqlite_text), (pg_page, pg_text) = pages
    assert "Deal 1 corrected" in pg_text and "Deal 3 deleted" in pg_text and "Changed: Clean book: 500" in pg_text
    assert pg_text == sqlite_text
    # the times each game was played at, in the attribute and as shown (the two games are made
    # one after the other, a second apart under a loaded machine), are the only words that differ
    times = r"\d{4}-\d\d-\d\dT[\d:.+]+|\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC"
    assert re.sub(times, "T", pg_page) == re.sub(times, "T", sqlite_page)


# -- backups ------------------------------------------------------------------------------------------------


def _password_url(url: str) -> str:
    """The same database's URL with a password in it, which no message may show."""
    return url.replace("postgresql://postgres@", "postgresql://postgres:hunter2@", 1)


def test_flask_backup_on_postgresql_points_to_pg_dump_and_copies_nothing(postgresql, migrated_postgresql,
                                                                         make_app, tmp_path):
    url = postgresql.new_database(template=migrated_postgresql)
    app = make_app(DATABASE=_password_url(url))  # trust authentication: the password is not asked for
    api_game(app.test_client())
    (tmp_path / "backups").mkdir()
    target = tmp_path / "backups" / "backup.sqlite"
    result = app.test_cli_runner().invoke(args=["backup", str(target)])
    assert result.exit_code == 2, result.output
    said = result.output
    assert "Traceback" not in said and "hunter2" not in said
    assert "PostgreSQL" in said and "pg_dump" in said
    assert f"pg_dump --format=custom --file=scorepad.dump '{url}'" in said
    assert f"pg_restore --clean --if-exists --dbname '{url}' scorepad.dump" in said
    assert list(target.parent.iterdir()) == []  # nothing written, not even a temporary file


def _tool(name: str, *args: str, stdin: bytes | None = None) -> bytes:
    """Run one of PostgreSQL's programs from the cluster's folder; its output."""
    folder = postgres.programs()
    assert folder is not None
    done = subprocess.run([str(folder / name), *args], input=stdin, capture_output=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout


def test_a_pg_dump_restored_into_a_new_database_serves_the_same_games(postgresql, migrated_postgresql, make_app):
    """The README's backup: ``pg_dump --format=custom`` while the app runs, ``pg_restore
    --clean --if-exists`` into another database; the app there serves every game as it was
    and goes on writing."""
    url = postgresql.new_database(template=migrated_postgresql)
    client = make_app(DATABASE=url).test_client()
    game_id, key = full_game(client)
    before = export(client, game_id)
    dumped = _tool("pg_dump", "--format=custom", url)
    copy = postgresql.new_database()
    _tool("pg_restore", "--clean", "--if-exists", "--dbname", copy, stdin=dumped)
    restored = make_app(DATABASE=copy).test_client()
    assert _without_exported_at(export(restored, game_id)) == _without_exported_at(before)
    post_deal(restored, game_id, key, deal(ann=("7 7 7",)))  # the key still writes, and the sequences go on
    assert len(restored.get(f"{API}/games/{game_id}").get_json()["deals"]) == 3


# -- a game's row locked by another program ------------------------------------------------------------------


class RowLock:
    """Another program's transaction holding the game's row (``SELECT ... FOR UPDATE``)."""

    def __init__(self, url: str, game_id: str) -> None:
        self.url, self.game_id = url, game_id

    def __enter__(self) -> RowLock:
        import psycopg  # the test extra's; imported here, so that without it the tests skip (tests.postgres)

        self.conn = psycopg.connect(self.url)  # not autocommit: the first statement begins a transaction
        self.conn.execute("SELECT * FROM game WHERE id = %s FOR UPDATE", (self.game_id,))
        return self

    def __exit__(self, *exc: Any) -> None:
        self.conn.rollback()
        self.conn.close()


def test_a_deal_sent_while_another_program_holds_the_games_row_is_a_503_and_saves_nothing(on_postgresql):
    app = on_postgresql
    client = app.test_client()
    game_id, key = api_game(client)
    post_deal(client, game_id, key, deal())
    before = db_state(app)
    with RowLock(app.config["DATABASE"], game_id):
        started = time.monotonic()
        response = client.post(f"{API}/games/{game_id}/deals", json=deal(ann=("7 7 7",)), headers=bearer(key))
        took = time.monotonic() - started
        assert db_state(app) == before  # read while the lock is held: reads do not wait
    assert "nothing was saved" in assert_error_shape(response, 503, None)["message"]
    assert response.headers["Retry-After"] == "1" and response.get_json()["type"] == "/api/v1/problems/busy"
    assert 0.4 < took < 0.5 + 1.0
    assert db_state(app) == before
    post_deal(client, game_id, key, deal(ann=("7 7 7",)))  # the lock let go: the same deal is saved


def test_a_page_deal_sent_while_the_games_row_is_locked_keeps_the_form_and_saves_nothing(on_postgresql):
    app = on_postgresql
    client = app.test_client()
    game_id, key = api_game(client)
    grant(client, game_id, key)
    action = f"/games/{game_id}/deals/new"
    form = _page_deal(form_fields(client.get(action).get_data(as_text=True), action), 2 << 3)  # 2 fives left
    before = db_state(app)
    with RowLock(app.config["DATABASE"], game_id):
        started = time.monotonic()
        response = client.post(action, data=form)
        assert time.monotonic() - started < 0.5 + 1.0
    page = response.get_data(as_text=True)
    assert response.status_code == 503 and response.headers["Retry-After"] == "1", page[:500]
    assert response.headers["Cache-Control"] == "no-store"
    assert "busy" in page and "Send it again" in page
    again = form_fields(page, action)
    assert again.pop("csrf_token") and again == form  # everything typed, to send again
    assert db_state(app) == before
    assert client.post(action, data=again).status_code == 303  # sent again: saved
    assert len(client.get(f"{API}/games/{game_id}").get_json()["deals"]) == 1


# -- a server that cannot be reached ------------------------------------------------------------------------


def _closed_port_url() -> str:
    return f"postgresql://scorepad:hunter2@127.0.0.1:{free_port()}/scorepad"


def _says_cannot_reach(message: str, url: str) -> None:
    public = url.replace(":hunter2@", "@")
    assert f"cannot use the database {public}: " in message, message
    assert "hunter2" not in message and "Traceback" not in message
    assert "check the DATABASE setting" in message and "PostgreSQL is running" in message


def test_create_app_on_a_server_that_cannot_be_reached_names_it_without_its_password():
    url = _closed_port_url()
    started = time.monotonic()
    with pytest.raises(StartupError) as raised:
        create_app({**TEST_CONFIG, "DATABASE": url})
    assert time.monotonic() - started < 15
    _says_cannot_reach(str(raised.value), url)


STARTS = {
    "flask serve": lambda port: [sys.executable, "-m", "flask", "--app", "scorepad", "serve", "--host", "127.0.0.1",
                                 "--port", str(port)],
}


@pytest.mark.parametrize("start", sorted(STARTS))
def test_a_server_started_on_a_database_that_cannot_be_reached_says_so_and_stops(start):
    url = _closed_port_url()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SCOREPAD_SECRET_KEY": "x", "SCOREPAD_DATABASE": url}
    done = subprocess.run(STARTS[start](free_port()), cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 1, done.stderr
    _says_cannot_reach(done.stderr, url)


@pytest.fixture
def own_cluster() -> Iterator[postgres.Cluster]:
    """A PostgreSQL server of this test's own, which it may stop: never the session's."""
    cluster = postgres.start_cluster()
    try:
        yield cluster
    finally:
        cluster.stop()


def test_a_server_gone_meanwhile_is_a_503_saying_so_and_it_is_used_again_once_back(own_cluster, make_app):
    url = own_cluster.new_database()
    app = make_app(DATABASE=url, BUSY_TIMEOUT=0.5)
    client = app.test_client()
    game_id, key = api_game(client)
    post_deal(client, game_id, key, deal())
    before = dump(url)
    own_cluster.halt()
    try:
        for _ in range(2):  # the connection in the pool is gone; then no new one can be made
            started = time.monotonic()
            response = client.post(f"{API}/games/{game_id}/deals", json=deal(ann=("7 7 7",)), headers=bearer(key))
            assert time.monotonic() - started < 0.5 + 2.0
            said = assert_error_shape(response, 503, None)["message"]
            assert response.headers["Retry-After"] == "1"
            assert "cannot be reached" in said and "nothing was saved" in said
        page = client.get(f"/games/{game_id}")
        assert page.status_code == 503 and "cannot be reached" in page.get_data(as_text=True)
    finally:
        own_cluster.resume()
    assert dump(url) == before
    post_deal(client, game_id, key, deal(ann=("7 7 7",)))
    assert client.get(f"/games/{game_id}").status_code == 200
    assert len(client.get(f"{API}/games/{game_id}").get_json()["deals"]) == 2
