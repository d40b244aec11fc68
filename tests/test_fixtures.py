"""The shared fixtures (tests/conftest.py) do what the other tests count on: each app is on a
copy of the migrated template in its own test's folder, and every module that drives a
browser is marked ``browser``, so ``-m "not browser"`` leaves it out."""

from __future__ import annotations

import ast
import sqlite3
from pathlib import Path

from scorepad.storage import db
from tests.helpers import api_game, dump

TESTS = Path(__file__).resolve().parent


def _games(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT COUNT(*) FROM game").fetchone()[0]
    finally:
        conn.close()


def test_each_app_starts_on_its_own_copy_of_the_migrated_template(app, tmp_path, migrated_database):
    database = Path(app.config["DATABASE"])
    assert database.parent == tmp_path and database != migrated_database
    assert dump(str(database)) == dump(str(migrated_database))
    assert dump(str(database))[0] == ("user_version", [(db.migrations()[-1][0],)])  # every migration applied
    api_game(app.test_client())
    assert _games(database) == 1 and _games(migrated_database) == 0  # the template is never written


def test_a_second_app_of_one_test_shares_the_first_ones_database(app, make_app):
    game_id, _ = api_game(app.test_client())
    other = make_app(WTF_CSRF_ENABLED=True)
    assert other.config["DATABASE"] == app.config["DATABASE"]
    assert other.test_client().get(f"/api/v1/games/{game_id}").status_code == 200


def test_a_database_named_in_the_config_is_used_as_it_is(make_app, tmp_path):
    old = tmp_path / "old.sqlite"
    conn = sqlite3.connect(old)
    conn.executescript(db.migrations()[0][2])  # a database from before every later migration
    conn.execute(f"PRAGMA user_version = {db.migrations()[0][0]}")
    conn.close()
    make_app(DATABASE=old)
    conn = sqlite3.connect(old)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == db.migrations()[-1][0]  # migrated by start-up
    conn.close()


def _drives_a_browser(tree: ast.Module) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("playwright"):
            return True
        if isinstance(node, ast.Import) and any(alias.name.startswith("playwright") for alias in node.names):
            return True
    return False


def _marked_browser(tree: ast.Module) -> bool:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "pytestmark"
                                                for t in node.targets):
            return "pytest.mark.browser" in ast.unparse(node.value)
    return False


def test_every_module_that_drives_a_browser_is_marked_browser():
    browsers = {}
    for path in sorted(TESTS.rglob("test_*.py")):
        text = path.read_text(encoding="utf-8")
        if "playwright" in text and _drives_a_browser(tree := ast.parse(text)):
            browsers[path.name] = _marked_browser(tree)
    assert browsers and all(browsers.values()), browsers  # test_e2e.py and test_live.py, at least
