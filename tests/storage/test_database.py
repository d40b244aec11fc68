"""The database file under real processes: several servers starting at once, another process
holding the write lock, a file written by a newer version, a damaged or read-only file.

Every test here runs the real thing in subprocesses (``create_app`` in a fresh interpreter,
``flask --app scorepad serve``, other ``flask --app scorepad ...`` commands) on a SQLite file in the test's folder.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from scorepad.storage import db
from tests.helpers import api_game, dump, form_fields, grant
from tests.storage.test_crash import HOST, call, free_port, serve
from tests.storage.test_two_phones import OPEN_ENDED, TWO, _page_deal, deal_body, marker_of

ROOT = Path(__file__).resolve().parents[2]
NEWEST = db.migrations()[-1][0]
# A process that imports the app once, then starts it on each file named on its stdin, at
# once with its siblings, and says how it went: "ok", or the traceback on one line.
STARTER = """
import json, sys, traceback
from scorepad import create_app
for line in sys.stdin:
    try:
        create_app({"DATABASE": line.strip(), "SECRET_KEY": "x"})
        print(json.dumps("ok"), flush=True)
    except BaseException:
        print(json.dumps(traceback.format_exc()), flush=True)
"""


def _env(**extra: str) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "SCOREPAD_SECRET_KEY": "x", **extra}


def _schema(path: Path) -> tuple[int, list[tuple[str, str]]]:
    """The file's version and every table and index with its columns, to compare two files."""
    conn = sqlite3.connect(path)
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' "
                                            "ORDER BY name")]
        shape = [(name, ",".join(r[1] for r in conn.execute(f"PRAGMA table_xinfo({name!r})"))) for name in names]
        return version, shape
    finally:
        conn.close()


def _older(path: Path) -> None:
    """A database at schema 1, with a game and its history, as an older scorepad left it."""
    conn = sqlite3.connect(path, isolation_level=None)
    number, _, sql = db.migrations()[0]
    for statement in db.statements(sql):
        conn.execute(statement)
    conn.execute(f"PRAGMA user_version = {number}")
    conn.execute("INSERT INTO game VALUES ('g', 'k', 'n', '\"common\"', '[]', 0, 'a', 'a')")
    conn.execute("INSERT INTO history (game_id, deal_number, action, at) VALUES ('g', 1, 'record', 'a')")
    conn.close()


# -- item 8: starting at once -----------------------------------------------------------------------


@pytest.mark.parametrize("start_from", ["new", "older"])
def test_processes_starting_at_once_all_start_and_leave_the_newest_schema(tmp_path, start_from):
    reference = tmp_path / "reference.sqlite"
    _migrated(reference).close()
    expected = _schema(reference)
    assert expected[0] == NEWEST
    starters = [subprocess.Popen([sys.executable, "-c", STARTER], cwd=ROOT, env=_env(), text=True,
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE) for _ in range(4)]
    try:
        for round_ in range(40):
            path = tmp_path / f"{start_from}-{round_}.sqlite"
            if start_from == "older":
                _older(path)
            for proc in starters:  # all at once: each is waiting on its stdin, the app imported
                proc.stdin.write(f"{path}\n")
                proc.stdin.flush()
            said = [json.loads(proc.stdout.readline()) for proc in starters]
            assert said == ["ok"] * len(starters), "\n".join(s for s in said if s != "ok")
            assert _schema(path) == expected
            if start_from == "older":  # the game kept before is still there, numbered by migration 0002
                conn = sqlite3.connect(path)
                assert conn.execute("SELECT game_id, revision FROM history").fetchall() == [("g", 1)]
                conn.close()
    finally:
        for proc in starters:
            proc.stdin.close()
            proc.wait(timeout=30)


# -- item 9: another process holds the write lock -----------------------------------------------------


def test_a_write_while_another_process_holds_the_lock_is_a_503_and_reads_answer_at_once(tmp_path):
    """Six phones write while another program holds the write lock, more than the server's
    four threads: every write answers 503 with Retry-After within BUSY_TIMEOUT (2 s by
    default) and the API's error body; reads meanwhile answer at once; once the lock is let
    go the same write is saved, and every acknowledged write is still there."""
    database = tmp_path / "busy.sqlite"
    port = free_port()
    proc = serve(database, port, tmp_path / "server.log")
    try:
        status, game = call(port, "POST", "/api/v1/games", {"name": "Busy", "sheet": OPEN_ENDED, "sides": TWO})
        assert status == 201
        path, key = f"/api/v1/games/{game['id']}", game["edit_key"]
        status, body = call(port, "POST", f"{path}/deals", {**deal_body(1), "revision": 0}, key)
        assert status == 201
        holder = sqlite3.connect(database, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            writes: list[tuple[int, Any, float, str | None]] = []

            def write() -> None:
                started = time.monotonic()
                conn = http.client.HTTPConnection(HOST, port, timeout=30)
                conn.request("POST", f"{path}/deals", body=json.dumps({**deal_body(2), "revision": 1}),
                             headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"})
                response = conn.getresponse()
                writes.append((response.status, json.loads(response.read()), time.monotonic() - started,
                               response.getheader("Retry-After")))
                conn.close()

            threads = [threading.Thread(target=write) for _ in range(6)]
            for thread in threads:
                thread.start()
            time.sleep(0.3)  # the writes are in: waiting, or already refused
            for read in (path, f"/games/{game['id']}", "/api/v1/sheets", f"{path}/revision"):
                started = time.monotonic()
                assert call(port, "GET", read)[0] == 200
                assert time.monotonic() - started < 1.0, read  # not behind the writes' 2 s
            for thread in threads:
                thread.join(30)
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        for status, body, took, retry_after in writes:
            assert (status, retry_after) == (503, "1"), body
            assert body["type"] == "/api/v1/problems/busy" and body["error"]["message"] == body["detail"]
            assert "busy" in body["error"]["message"] and "nothing was saved" in body["error"]["message"]
            assert took < 2 + 1.5
        assert len(writes) == 6
        status, body = call(port, "POST", f"{path}/deals", {**deal_body(2), "revision": 1}, key)
        assert status == 201 and body["revision"] == 2
        status, body = call(port, "GET", path)
        assert [marker_of(d["deal"]) for d in body["deals"]] == [1, 2]
    finally:
        proc.terminate()
        proc.wait(30)


def test_a_page_write_while_the_database_is_busy_keeps_the_form_and_saves_nothing(tmp_path):
    from scorepad import create_app

    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "page.sqlite"), "SECRET_KEY": "t",
                      "WTF_CSRF_ENABLED": False, "BUSY_TIMEOUT": 0.3})
    client = app.test_client()
    game_id, key = api_game(client, sheet=OPEN_ENDED)
    grant(client, game_id, key)
    blank = form_fields(client.get(f"/games/{game_id}/deals/new").get_data(as_text=True), f"/games/{game_id}/deals/new")
    form = _page_deal(blank, 5)
    before = dump(app.config["DATABASE"])
    holder = sqlite3.connect(app.config["DATABASE"], isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        started = time.monotonic()
        response = client.post(f"/games/{game_id}/deals/new", data=form)
        assert time.monotonic() - started < 0.3 + 1.0
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    page = response.get_data(as_text=True)
    assert response.status_code == 503 and response.headers["Retry-After"] == "1", page[:500]
    assert response.headers["Cache-Control"] == "no-store"
    assert "busy" in page and "Send it again" in page
    again = form_fields(page, f"/games/{game_id}/deals/new")
    assert again.pop("csrf_token") and again == form  # everything typed, to send again
    assert dump(app.config["DATABASE"]) == before
    assert client.post(f"/games/{game_id}/deals/new", data=again).status_code == 303  # sent again: saved


def test_the_cli_says_the_database_is_busy_and_exits_3(tmp_path):
    database = tmp_path / "cli.sqlite"
    _migrated(database).close()
    holder = sqlite3.connect(database, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        done = subprocess.run([sys.executable, "-m", "flask", "--app", "scorepad", "game", "new", "--name", "Late",
                               "--sheet", "common", "--side", "A=Ann", "--side", "B=Bea"], cwd=ROOT, text=True,
                              capture_output=True, timeout=120,
                              env=_env(SCOREPAD_DATABASE=str(database), SCOREPAD_BUSY_TIMEOUT="0.5"))
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert done.returncode == 3, done.stderr
    assert "busy" in done.stderr and "nothing was saved" in done.stderr and "Traceback" not in done.stderr
    conn = sqlite3.connect(database)
    assert conn.execute("SELECT COUNT(*) FROM game").fetchone()[0] == 0
    conn.close()


def test_busy_timeout_is_a_setting_of_2_seconds_by_default(tmp_path, monkeypatch):
    from scorepad import create_app

    assert create_app({"DATABASE": str(tmp_path / "a.sqlite"), "SECRET_KEY": "t"}).config["BUSY_TIMEOUT"] == 2
    monkeypatch.setenv("SCOREPAD_BUSY_TIMEOUT", "0.5")
    assert create_app({"DATABASE": str(tmp_path / "a.sqlite"), "SECRET_KEY": "t"}).config["BUSY_TIMEOUT"] == 0.5


# -- item 12: a file this version cannot use ------------------------------------------------------------

# Each way of starting the app, on a free port where it serves.
STARTS = {
    "flask run": lambda port: [sys.executable, "-m", "flask", "--app", "scorepad", "run", "--port", str(port)],
    "flask serve": lambda port: [sys.executable, "-m", "flask", "--app", "scorepad", "serve", "--host", HOST,
                                 "--port", str(port)],
    "flask game list": lambda port: [sys.executable, "-m", "flask", "--app", "scorepad", "game", "list"],
}
# Drops root's power to write any file, so that a read-only file is read-only to the test too.
AS_OWNER_ONLY = ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner"] if os.geteuid() == 0 else []


def _migrated(path: Path) -> sqlite3.Connection:
    conn = db.connect(path)
    db.migrate(conn)
    return conn


def _newer(path: Path) -> str:
    _migrated(path).close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {NEWEST + 1}")
    conn.close()
    return "written by a newer version of scorepad"


def _random(path: Path) -> str:
    path.write_bytes(os.urandom(3 * 4096))
    return "not a SQLite database, or it is damaged"


def _truncated(path: Path) -> str:
    conn = _migrated(path)
    conn.executemany("INSERT INTO game (id, edit_key, name, sheet, sides, revision, created_at, updated_at)"
                     " VALUES (?, 'k', 'n', '\"common\"', '[]', 0, 'a', 'a')",
                     [(f"g{i}" + "x" * 500,) for i in range(200)])
    conn.close()
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    return "not a SQLite database, or it is damaged"


def _read_only_file(path: Path) -> str:
    _migrated(path).close()
    path.chmod(0o444)
    return "read-only"


def _read_only_folder(path: Path) -> str:
    _migrated(path).close()  # closed: no -wal or -shm beside it, and none can be made
    path.parent.chmod(0o555)
    return "cannot be opened for writing"


PROBLEMS = {"newer": _newer, "random bytes": _random, "truncated": _truncated,
            "read-only file": _read_only_file, "read-only folder": _read_only_folder}


def _start(command: list[str], database: Path) -> subprocess.CompletedProcess:
    """Run a start-up command; one that is still running after a while started serving: a failure."""
    proc = subprocess.Popen(AS_OWNER_ONLY + command, cwd=ROOT, env=_env(SCOREPAD_DATABASE=str(database)),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        raise AssertionError(f"{command[2:5]} started on a file it cannot use:\n{err}") from None
    return subprocess.CompletedProcess(command, proc.returncode, out, err)


@pytest.fixture
def folder():
    """A folder the test may make read-only, and always gives back writable to remove."""
    path = Path(tempfile.mkdtemp(prefix="scorepad-db-"))
    path.chmod(0o755)  # reachable when the test drops root's powers
    try:
        yield path
    finally:
        path.chmod(0o755)
        for child in path.iterdir():
            child.chmod(0o644)
        shutil.rmtree(path)


@pytest.mark.skipif(os.geteuid() == 0 and not shutil.which("setpriv"), reason="needs setpriv to test as root")
@pytest.mark.parametrize("problem, start", [
    ("newer", "flask run"), ("newer", "flask serve"), ("newer", "flask game list"),
    ("random bytes", "flask serve"), ("truncated", "flask run"),
    ("read-only file", "flask serve"), ("read-only folder", "flask game list"),
])
def test_a_file_this_version_cannot_use_stops_start_up_with_a_message_naming_it(folder, problem, start):
    database = folder / "scorepad.sqlite"
    says = PROBLEMS[problem](database)
    before = database.read_bytes()
    done = _start(STARTS[start](free_port()), database)
    assert done.returncode == 1, done.stderr
    assert f"cannot use the database {database}: " in done.stderr and says in done.stderr, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    assert database.read_bytes() == before  # left as it was found
    assert not (folder / "scorepad.sqlite-wal").exists() or problem != "read-only folder"


@pytest.mark.parametrize("problem", ["newer", "random bytes", "truncated"])
def test_create_app_raises_startup_error_on_a_file_it_cannot_use(tmp_path, problem):
    from scorepad.app import StartupError, create_app

    database = tmp_path / "scorepad.sqlite"
    says = PROBLEMS[problem](database)
    with pytest.raises(StartupError) as raised:
        create_app({"DATABASE": str(database), "SECRET_KEY": "t"})
    assert str(raised.value).startswith(f"cannot use the database {database}: ") and says in str(raised.value)


def test_an_instance_folder_that_cannot_be_made_stops_start_up_with_a_message_naming_it(tmp_path, monkeypatch):
    """The secret key is written into the instance folder on first start: a path that is a
    file, not a folder, is refused with the app's one-line start-up error, not a traceback."""
    from scorepad.app import StartupError, create_app

    blocked = tmp_path / "instance"
    blocked.write_text("not a folder")
    monkeypatch.setenv("SCOREPAD_INSTANCE_PATH", str(blocked))
    with pytest.raises(StartupError) as raised:
        create_app({"DATABASE": str(tmp_path / "scorepad.sqlite")})
    assert str(raised.value).startswith(f"cannot use the instance folder {blocked}: ")
    assert "SCOREPAD_SECRET_KEY" in str(raised.value)


# -- item 6: what a backup may be written over -------------------------------------------------------


def test_backup_refuses_the_live_database_its_own_files_and_what_is_not_a_regular_file(tmp_path):
    """While the server runs with acknowledged games, ``flask backup TARGET --force`` is
    refused (exit 2, saying why) for the database, its -wal, -shm and -journal, each also
    through a symlink or a hard link, and for a device, a pipe or a link to a device; the
    server keeps every game, and so does the file once the server has stopped."""
    database = tmp_path / "live.sqlite"
    port = free_port()
    proc = serve(database, port, tmp_path / "server.log")
    try:
        acked: dict[str, list[int]] = {}
        for n in range(3):
            status, game = call(port, "POST", "/api/v1/games", {"name": f"G{n}", "sheet": OPEN_ENDED, "sides": TWO})
            assert status == 201
            for revision, marker in enumerate((10 * n + 1, 10 * n + 2)):
                status, _ = call(port, "POST", f"/api/v1/games/{game['id']}/deals",
                                 {**deal_body(marker), "revision": revision}, game["edit_key"])
                assert status == 201
            acked[game["id"]] = [10 * n + 1, 10 * n + 2]
        wal = Path(f"{database}-wal")
        assert wal.exists()  # the acknowledged deals may be there only
        own = [database, wal, Path(f"{database}-shm"), Path(f"{database}-journal"),
               tmp_path / "elsewhere" / ".." / "live.sqlite-wal"]
        (tmp_path / "elsewhere").mkdir()
        (tmp_path / "to-wal").symlink_to(wal)
        (tmp_path / "to-folder").symlink_to(tmp_path)
        os.link(database, tmp_path / "hard-link.sqlite")
        own += [tmp_path / "to-wal", tmp_path / "to-folder" / "live.sqlite-shm", tmp_path / "hard-link.sqlite"]
        os.mkfifo(tmp_path / "pipe")
        (tmp_path / "to-null").symlink_to("/dev/null")
        odd = [tmp_path / "pipe", tmp_path / "to-null"]
        if os.geteuid() == 0:  # a device of our own: never the machine's /dev/null
            os.mknod(tmp_path / "null", 0o666 | stat.S_IFCHR, os.makedev(1, 3))
            odd.append(tmp_path / "null")
        from scorepad import create_app

        runner = create_app({"DATABASE": str(database), "SECRET_KEY": "x", "TESTING": True}).test_cli_runner()
        for target in own + odd:
            result = runner.invoke(args=["backup", str(target), "--force"])
            says = "is the live database or one of its own files" if target in own else "is not a regular file"
            assert result.exit_code == 2 and says in result.output, (target, result.output)
            assert "Traceback" not in result.output
        done = subprocess.run([sys.executable, "-m", "flask", "--app", "scorepad", "backup", str(wal), "--force"],
                              cwd=ROOT, env=_env(SCOREPAD_DATABASE=str(database)), capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 2 and "is the live database" in done.stderr and "Traceback" not in done.stderr
        assert stat.S_ISFIFO((tmp_path / "pipe").stat().st_mode)
        assert os.geteuid() != 0 or stat.S_ISCHR((tmp_path / "null").stat().st_mode)
        assert not list(tmp_path.glob(".*.tmp"))
        for game_id, markers in acked.items():
            status, body = call(port, "GET", f"/api/v1/games/{game_id}")
            assert status == 200 and [marker_of(d["deal"]) for d in body["deals"]] == markers
    finally:
        proc.terminate()
        proc.wait(30)
    conn = sqlite3.connect(database)
    assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    kept = {g: [marker_of(json.loads(body)) for (body,) in conn.execute(
        "SELECT body FROM deal WHERE game_id = ? ORDER BY number", (g,))] for g in acked}
    conn.close()
    assert kept == acked


def test_backup_beside_the_database_under_another_name_is_written(app, tmp_path):
    """Only the database's own names are refused: a file beside it is a backup like any other."""
    beside = Path(app.config["DATABASE"] + "-backup")
    result = app.test_cli_runner().invoke(args=["backup", str(beside)])
    assert result.exit_code == 0, result.output
    assert sqlite3.connect(beside).execute("PRAGMA integrity_check").fetchall() == [("ok",)]
