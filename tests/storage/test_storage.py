"""Storage on its own (issue 9, sections 1 and 4): a database object with no web framework
behind it, one per app, and one error vocabulary every interface maps in one table."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from scorepad.api.errors import ERROR_STATUS
from scorepad.cli.errors import EXIT_CODES
from scorepad.storage import backup, cache, checks, db, document, errors, idempotency, reading
from scorepad.web.errors import STATUS
from tests import json_writes as writing
from tests.helpers import ANN_BEA, valid_deal

pytestmark = pytest.mark.backends  # each test on a database of its own: on SQLite and on PostgreSQL

ROOT = Path(__file__).resolve().parents[2]
STORAGE = ROOT / "scorepad" / "storage"

WITHOUT_FLASK = """
import json, sys
from scorepad.storage import backends, db, document, reading
from tests import json_writes as writing

database = backends.database(sys.argv[1], busy_timeout=1.0)
database.open()
with db.using(database):
    game = writing.create_game("Friday", "common", json.loads(sys.argv[2]))
    writing.record_deal(game.id, json.loads(sys.argv[3]))
with db.using(backends.database(sys.argv[1])):  # another object on the same database, its cache empty
    again = reading.load_game(game.id)
    csv = document.scores_csv(again)
loaded = sorted({name.split(".")[0] for name in sys.modules} & {"flask", "click", "werkzeug", "wtforms"})
print(json.dumps({"deals": [d.number for d in again.deals], "totals": again.totals_before(2),
                  "revision": again.revision, "csv": csv, "loaded": loaded}))
"""


def test_storage_keeps_a_game_with_no_web_framework_imported(tmp_path, backend, request):
    """A script opens a database (a new file, or a new PostgreSQL database), creates a game,
    records a deal and reads it back through storage alone: Flask, click and werkzeug are
    never imported."""
    where = (request.getfixturevalue("postgresql").new_database() if backend == "postgresql"
             else str(tmp_path / "alone.sqlite"))
    done = subprocess.run([sys.executable, "-c", WITHOUT_FLASK, where, json.dumps(ANN_BEA),
                           json.dumps(valid_deal(None))], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["loaded"] == []
    assert found["deals"] == [1] and found["revision"] == 1
    assert found["totals"]["Ann"] > found["totals"]["Bea"]
    assert found["csv"].splitlines()[1].startswith("1,")


def test_the_amendments_of_a_game_are_its_sheet_changes_with_their_reasons_oldest_first(database):
    with db.using(database):
        game = writing.create_game("Friday", "common", ANN_BEA)
        writing.record_deal(game.id, valid_deal(1))
        writing.amend_sheet(game.id, {"preset": "common", "going_out_bonus": 150}, "we always paid 150", based_on=1)
        writing.amend_sheet(game.id, {"preset": "common", "going_out_bonus": 200}, "a fairer bonus")
        found = reading.amendments(game.id)
        assert [(a["reason"], a["revision"]) for a in found] == [("we always paid 150", 2), ("a fairer bonus", 3)]
        assert found[0]["before"] == {"preset": "common", "preset_version": 1}
        assert found[1]["before"] == found[0]["after"] == {"preset": "common", "preset_version": 1,
                                                           "going_out_bonus": 150}
        assert reading.load_game(game.id).sheet.to_json()["going_out_bonus"] == 200


def test_outside_any_app_or_using_block_there_is_no_database(app):
    with pytest.raises(RuntimeError, match="no database is in use"):
        db.current()
    with app.app_context():
        assert db.current() is app.extensions["scorepad.database"]
    with pytest.raises(RuntimeError, match="no database is in use"):
        reading.load_game("x")


def test_two_apps_never_share_a_database_or_a_cache(make_app, tmp_path, backend, request):
    """Each app context uses its own app's database, even nested in another app's, and the
    outer one's comes back after; a thread started inside an app context uses none."""
    other = (request.getfixturevalue("postgresql").new_database(request.getfixturevalue("migrated_postgresql"))
             if backend == "postgresql" else tmp_path / "second.sqlite")
    first, second = make_app(), make_app(DATABASE=other)
    with first.app_context():
        game = writing.create_game("Friday", "common", ANN_BEA)
        with second.app_context():
            assert db.path() == second.extensions["scorepad.database"].path
            assert cache.current() is second.extensions["scorepad.cache"]
            assert reading.load_game(game.id) is None
        assert db.path() == first.extensions["scorepad.database"].path
        assert reading.load_game(game.id) is not None
        seen: list[BaseException] = []
        thread = threading.Thread(target=lambda: seen.append(pytest.raises(RuntimeError, db.current).value))
        thread.start()
        thread.join()
        assert "no database is in use" in str(seen[0])
    assert first.extensions["scorepad.cache"] is not second.extensions["scorepad.cache"]


def test_a_request_leaves_no_transaction_open_on_its_thread(app):
    database = app.extensions["scorepad.database"]
    with app.app_context():
        db.get_db().execute("BEGIN")
        assert database.in_transaction()
    assert not database.in_transaction()


# -- one error vocabulary ---------------------------------------------------------------------------


def _storage_errors() -> set[type[BaseException]]:
    """Every public exception class of storage's modules (a private one never leaves its module)."""
    found: set[type[BaseException]] = set()
    for module in (backup, cache, checks, db, document, errors, idempotency, reading, writing):
        found |= {v for name, v in vars(module).items() if not name.startswith("_")
                  and isinstance(v, type) and issubclass(v, Exception) and v.__module__.startswith("scorepad.storage")}
    return found


@pytest.mark.parametrize("table", [ERROR_STATUS, STATUS, EXIT_CODES], ids=["api", "pages", "cli"])
def test_each_interface_answers_every_storage_error_from_its_one_table(table):
    kinds = _storage_errors()
    assert set(errors.ERRORS) <= kinds and backup.BackupError in kinds and cache.BuildBusy in kinds
    every = [kind for kind in kinds if kind is not errors.StorageError]
    assert all(any(k in table for k in kind.__mro__) for kind in every), [
        kind for kind in every if not any(k in table for k in kind.__mro__)]
    assert set(table) == set(errors.ERRORS)  # the table names storage's kinds, and only those


def test_the_api_and_the_pages_answer_each_storage_error_with_the_same_status():
    assert ERROR_STATUS == STATUS


def test_no_http_status_number_in_storage():
    statuses = re.compile(r"\b(?:400|401|403|404|405|409|410|413|415|422|429|500|503)\b")
    found = [f"{path.relative_to(ROOT)}:{n}" for path in sorted(STORAGE.rglob("*.*")) if path.suffix in (".py", ".sql")
             for n, line in enumerate(path.read_text().splitlines(), 1) if statuses.search(line)]
    assert found == []


def test_storage_imports_no_web_framework_and_nothing_above_it():
    above = ("flask", "werkzeug", "click", "wtforms", "flask_wtf", "scorepad.web", "scorepad.api", "scorepad.cli",
             "scorepad.paper", "scorepad.app", "scorepad.access")
    found = []
    for path in sorted(STORAGE.rglob("*.py")):
        package = list(path.relative_to(ROOT).parent.parts)  # scorepad, storage (, migrations)
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = package[:len(package) - node.level + 1] if node.level else []
                names = [".".join([*base, node.module] if node.module else base)]
            else:
                continue
            found += [f"{path.name}: {name}" for name in names if name.startswith(above)]
    assert found == []


def test_an_id_the_database_cannot_hold_names_no_game(app, client):
    """A game id read from JSON may hold a lone surrogate ("\\udc00"), which SQLite cannot
    encode, and one from a URL may hold NUL, which PostgreSQL's text cannot: each names no
    game (a 404 upstream), never an error (the fuzz test found a 500)."""
    with app.app_context():
        for game_id in ("\udc00", "é", "a\x00b"):
            assert reading.load_game(game_id) is None and reading.revision(game_id) is None
    for path in ("/api/v1/games/a%00b", "/api/v1/games/a%00b/revision", "/games/a%00b", "/games/a%00b/deals/new"):
        assert client.get(path).status_code == 404, path
