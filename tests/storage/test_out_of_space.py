"""A full disk is storage's own error (issue 21, item 8): SQLite's ``SQLITE_FULL`` and
PostgreSQL's ``53100 disk_full`` are :class:`~scorepad.storage.errors.OutOfSpace`, a 507
("out-of-space") that says the server is out of space, saves nothing and keeps the form; the
log gets one line a minute, never a traceback per write.

Both are made for real: on SQLite, the file's page count capped (``DATABASE_MAX_BYTES``, a
``PRAGMA max_page_count`` on each of the app's connections) at its size; on PostgreSQL, the
game tables moved to a tablespace on a tmpfs of a few hundred KB (mounted by the test, as
root), which fills.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from scorepad.app import StartupError
from scorepad.storage import db
from tests import json_writes as writing
from tests.helpers import api_game, assert_error_shape, bearer, dump, form_fields, grant, sql, text_of
from tests.storage.test_two_phones import OPEN_ENDED, TWO, _page_deal

API = "/api/v1"


def big_deal() -> dict[str, Any]:
    """A deal of the open-ended game that takes many pages: sixty melds, saved as played."""
    return {"ending": "stock_out", "as_played": {"reason": "the table let it stand " * 8},
            "sides": [{"name": "Ann", "melds": ["K 2 2 2 2"] * 60,
                       "players": [{"name": "Ann", "foot_picked_up": True, "cards_left": {}}]},
                      {"name": "Bea", "melds": ["J J J"] * 60,
                       "players": [{"name": "Bea", "foot_picked_up": True, "cards_left": {}}]}]}


def out_of_space_lines(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "scorepad.storage" and "out of space" in r.getMessage()]


def fill_through_the_page(client, game_id: str) -> tuple[dict[str, str], Any]:
    """Record deals on the deal form until the database has no room for one: the form of the
    deal that was refused, and the refusal. Each refusal wrote nothing (revision unchanged)."""
    for _ in range(100):
        revision = client.get(f"{API}/games/{game_id}/revision").get_json()["revision"]
        blank = form_fields(client.get(f"/games/{game_id}/deals/new").get_data(as_text=True),
                            f"/games/{game_id}/deals/new")
        form = _page_deal(blank, revision + 1)
        response = client.post(f"/games/{game_id}/deals/new", data=form)
        if response.status_code != 303:
            assert client.get(f"{API}/games/{game_id}/revision").get_json()["revision"] == revision
            return form, response
    raise AssertionError("a hundred deals fitted: the database never filled")


def assert_out_of_space_form_kept(response, form: dict[str, str]) -> None:
    """The 507 deal page: the form itself, as it was typed, saying the server is out of space."""
    page = response.get_data(as_text=True)
    assert response.status_code == 507, (response.status_code, text_of(page)[:400])
    assert 'id="deal-form"' in page
    assert "Not saved: the server is out of space." in text_of(page)
    kept = form_fields(page, response.request.path)
    for name, value in form.items():  # every entry typed (a box left blank may come back otherwise)
        if value and name not in ("action", "csrf_token"):
            assert kept.get(name) == value, (name, kept.get(name), value)


def assert_the_api_and_cli_are_told_so(app: Flask, client, game_id: str, key: str, tmp_path: Path) -> None:
    response = client.post(f"{API}/games/{game_id}/deals", json=big_deal(), headers=bearer(key))
    error = assert_error_shape(response, 507, None)
    assert response.get_json()["type"] == "/api/v1/problems/out-of-space"
    assert "out of space" in error["message"] and "nothing was saved" in error["message"]
    deal = tmp_path / "deal.json"
    body = big_deal()
    reason = body.pop("as_played")["reason"]
    deal.write_text(json.dumps(body))
    done = app.test_cli_runner().invoke(args=["deal", "record", game_id, str(deal), "--as-played", reason])
    assert done.exit_code == 5 and "out of space" in done.output, done.output


def assert_another_form_is_kept_to_send_again(client, game_id: str) -> None:
    """A form other than the deal's (here, importing the game again as a new one): the 507
    page of "Send it again", holding what was sent."""
    document = client.get(f"/games/{game_id}/export.json").get_data(as_text=True)
    response = client.post("/import", data={"document": document})
    page = response.get_data(as_text=True)
    assert response.status_code == 507, (response.status_code, text_of(page)[:300])
    assert "The server is out of space" in text_of(page) and "Nothing was saved" in text_of(page)
    assert form_fields(page, "/import")["document"] == document and "Send it again" in page


# -- SQLite ----------------------------------------------------------------------------------------


def test_a_full_sqlite_file_answers_507_keeps_the_form_saves_nothing_and_logs_one_line(make_app, database_setting,
                                                                                          tmp_path, caplog):
    caplog.set_level(logging.WARNING)
    game_id, key = api_game(make_app().test_client(), sheet=OPEN_ENDED, sides=TWO)  # made before the cap
    (pages,), (page,) = sql(database_setting, "PRAGMA page_count")[0], sql(database_setting, "PRAGMA page_size")[0]
    size = pages * page  # the database as it now stands: no page more
    app = make_app(DATABASE_MAX_BYTES=size)
    client = app.test_client()
    grant(client, game_id, key)

    form, refused = fill_through_the_page(client, game_id)
    assert_out_of_space_form_kept(refused, form)
    before = dump(database_setting)
    for _ in range(3):  # the same form sent again: refused again, nothing written
        assert_out_of_space_form_kept(client.post(f"/games/{game_id}/deals/new", data=form), form)
    assert_the_api_and_cli_are_told_so(app, client, game_id, key, tmp_path)
    assert_another_form_is_kept_to_send_again(client, game_id)
    assert dump(database_setting) == before  # nothing saved

    lines = out_of_space_lines(caplog)
    assert len(lines) == 1, [r.getMessage() for r in lines]  # one line for the six refusals
    assert database_setting in lines[0].getMessage() and "database or disk is full" in lines[0].getMessage()
    assert not [r for r in caplog.records if r.exc_info], "no traceback is logged"

    freed = make_app(DATABASE_MAX_BYTES=size + 4 * 1024 * 1024).test_client()  # space freed
    grant(freed, game_id, key)
    assert freed.post(f"/games/{game_id}/deals/new", data=form).status_code == 303  # the kept form, saved


def test_sqlite_full_is_told_apart_from_other_operational_errors(tmp_path):
    database = db.Database(tmp_path / "tiny.sqlite", max_bytes=1)  # no page more than migrating made
    database.open()
    with db.using(database):
        with pytest.raises(db.OutOfSpace):
            for _ in range(1000):  # the pages' room left, then none
                writing.create_game("Friday", "common", TWO)
        assert not database.in_transaction()  # rolled back: the next write may come
        with pytest.raises(Exception, match="no such table") as other:
            database.connection().execute("SELECT * FROM nothing_here")
        assert not isinstance(other.value, db.OutOfSpace)


def test_database_max_bytes_is_a_whole_number_and_only_for_a_sqlite_file(make_app):
    with pytest.raises(StartupError, match="DATABASE_MAX_BYTES"):
        make_app(DATABASE_MAX_BYTES="lots")
    with pytest.raises(StartupError, match="DATABASE_MAX_BYTES.*SQLite"):
        make_app(DATABASE="postgresql://nobody@127.0.0.1:1/none", DATABASE_MAX_BYTES=10_000_000)


# -- PostgreSQL --------------------------------------------------------------------------------------

TABLESPACE_BYTES = 256 * 1024  # the tmpfs: the game tables' first pages, and a few dozen deals more
GAME_TABLES = ("game", "deal", "history", "idempotency_key", "deleted_game")


@pytest.fixture
def tiny_tablespace(postgresql) -> Iterator[str]:
    """A tablespace on a tmpfs of :data:`TABLESPACE_BYTES` (in the cluster's own folder, which
    its server may enter): its name. Skips where a tmpfs cannot be mounted (mount needs root,
    and a container allowed to)."""
    folder = Path(postgresql.folder) / f"tiny-{uuid.uuid4().hex[:8]}"
    folder.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a tmpfs for a full PostgreSQL tablespace needs root")
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={TABLESPACE_BYTES}", "tmpfs", str(folder)],
                             capture_output=True, text=True, check=False)
    if mounted.returncode:
        pytest.skip(f"a tmpfs cannot be mounted here: {mounted.stderr.strip()}")
    name = f"tiny_{uuid.uuid4().hex[:8]}"
    try:
        (folder / "space").mkdir()
        if postgresql.as_postgres:
            shutil.chown(folder / "space", "postgres", "postgres")
        postgresql.sql(f"CREATE TABLESPACE {name} LOCATION '{folder / 'space'}'")
        yield name
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True, check=False)


def test_a_full_postgresql_disk_answers_507_keeps_the_form_saves_nothing_and_logs_one_line(
        postgresql, migrated_postgresql, tiny_tablespace, make_app, tmp_path, caplog):
    caplog.set_level(logging.WARNING)
    url = postgresql.new_database(template=migrated_postgresql)
    for table in GAME_TABLES:  # the game tables and their indexes on the tiny disk; the catalogue stays
        sql(url, f"ALTER TABLE {table} SET TABLESPACE {tiny_tablespace}")
        for (index,) in sql(url, "SELECT indexname FROM pg_indexes WHERE tablename = ?", (table,)):
            sql(url, f"ALTER INDEX {index} SET TABLESPACE {tiny_tablespace}")
    app = make_app(DATABASE=url)
    client = app.test_client()
    game_id, key = api_game(client, sheet=OPEN_ENDED, sides=TWO)
    grant(client, game_id, key)

    form, refused = fill_through_the_page(client, game_id)
    assert_out_of_space_form_kept(refused, form)
    before = dump(url)
    for _ in range(3):
        assert_out_of_space_form_kept(client.post(f"/games/{game_id}/deals/new", data=form), form)
    assert_the_api_and_cli_are_told_so(app, client, game_id, key, tmp_path)
    assert_another_form_is_kept_to_send_again(client, game_id)
    assert dump(url) == before  # nothing saved

    lines = out_of_space_lines(caplog)
    assert len(lines) == 1, [r.getMessage() for r in lines]
    assert "No space left on device" in lines[0].getMessage()
    assert not [r for r in caplog.records if r.exc_info], "no traceback is logged"

    for table in GAME_TABLES:  # space freed: the tables back on the cluster's own disk
        sql(url, f"ALTER TABLE {table} SET TABLESPACE pg_default")
    assert client.post(f"/games/{game_id}/deals/new", data=form).status_code == 303  # the kept form, saved
    app.extensions["scorepad.database"].close()
    postgresql.sql(f"DROP DATABASE {url.rsplit('/', 1)[1]} WITH (FORCE)")
    postgresql.sql(f"DROP TABLESPACE {tiny_tablespace}")
