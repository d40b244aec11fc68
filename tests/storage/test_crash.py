"""Crashes and restarts: the production server killed with SIGKILL in the middle of a burst
of writes keeps every write it acknowledged, and comes back serving.

The server is the production command, in a subprocess, on a free loopback port::

    python -m flask --app scorepad serve --host 127.0.0.1 --port P

(granian: a process watching the one worker process that serves) with ``SCOREPAD_DATABASE``
(a file in the test's folder) and ``SCOREPAD_SECRET_KEY`` in its environment; the kill is
sent to both. A write is acknowledged when the client has read its 2xx answer; SQLite has
committed it (WAL, ``synchronous=FULL``) before the answer is sent.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests.storage.test_two_phones import OPEN_ENDED, TWO, deal_body, marker_of

ROOT = Path(__file__).resolve().parents[2]
HOST = "127.0.0.1"

if not hasattr(signal, "SIGKILL"):
    pytest.skip("needs SIGKILL (POSIX)", allow_module_level=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def serve(database: Path, port: int, log: Path) -> subprocess.Popen:
    command = [sys.executable, "-m", "flask", "--app", "scorepad", "serve", "--host", HOST, "--port", str(port)]
    env = {**os.environ, "SCOREPAD_DATABASE": str(database), "SCOREPAD_SECRET_KEY": "x",
           "PYTHONPATH": str(ROOT)}
    with log.open("ab") as out:
        proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)  # its group: it and its worker
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            break
        try:
            if call(port, "GET", "/api/v1/sheets")[0] == 200:
                return proc
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise AssertionError(f"the server did not start:\n{log.read_text()}")


def call(port: int, method: str, path: str, body: Any = None, key: str | None = None,
         conn: http.client.HTTPConnection | None = None) -> tuple[int, Any]:
    own = conn is None
    conn = conn or http.client.HTTPConnection(HOST, port, timeout=10)
    try:
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        data = None
        if body is not None:
            data, headers["Content-Type"] = json.dumps(body).encode(), "application/json"
        conn.request(method, path, body=data, headers=headers)
        response = conn.getresponse()
        raw = response.read()
        is_json = (response.getheader("Content-Type") or "").startswith("application/json")
        return response.status, json.loads(raw) if is_json else raw
    finally:
        if own:
            conn.close()


def test_a_server_killed_mid_burst_keeps_every_acknowledged_write_and_serves_again(tmp_path):
    database, log = tmp_path / "crash.sqlite", tmp_path / "server.log"
    port = free_port()
    proc = serve(database, port, log)
    games: list[tuple[str, str]] = []
    acked: list[dict[str, Any]] = []  # every write answered 2xx: game, marker, revision, number
    lock = threading.Lock()
    stop = threading.Event()
    try:
        for n in range(8):
            status, body = call(port, "POST", "/api/v1/games", {"name": f"Crash {n}", "sheet": OPEN_ENDED,
                                                                "sides": TWO})
            assert status == 201
            games.append((body["id"], body["edit_key"]))

        def burst(n: int) -> None:
            """One game's phone: record deals (and correct one now and then), each based on
            the revision its last answer gave, until the server is gone."""
            game_id, key = games[n]
            conn = http.client.HTTPConnection(HOST, port, timeout=10)
            revision, recorded, marker = 0, 0, n * 500
            try:
                while not stop.is_set():
                    marker += 1
                    base = f"/api/v1/games/{game_id}/deals"
                    if recorded and marker % 4 == 0:
                        method, path = "PUT", f"{base}/{1 + marker % recorded}"
                    else:
                        method, path = "POST", base
                    status, body = call(port, method, path, {**deal_body(marker), "revision": revision}, key, conn)
                    assert status in (200, 201), (status, body)
                    revision, recorded = body["revision"], max(recorded, body["number"])
                    with lock:
                        acked.append({"game": game_id, "marker": marker, "revision": revision,
                                      "number": body["number"]})
            except (OSError, http.client.HTTPException):
                return  # the server was killed under this phone
            finally:
                conn.close()

        with ThreadPoolExecutor(len(games)) as pool:
            futures = [pool.submit(burst, n) for n in range(len(games))]
            deadline = time.monotonic() + 30
            while len(acked) < 150 and time.monotonic() < deadline and not any(f.done() for f in futures):
                time.sleep(0.01)
            # mid-burst, the server and its worker at once: every phone has a write in flight
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
            stop.set()
            for f in futures:
                f.result(timeout=30)  # a phone's assertion failing shows here
        assert proc.returncode == -signal.SIGKILL
        print(f"{len(acked)} writes acknowledged before the kill")
        assert len(acked) >= 150, f"only {len(acked)} writes before the kill:\n{log.read_text()[-2000:]}"

        proc = serve(database, port, log)  # the restart

        conn = sqlite3.connect(database)
        try:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            for game_id, _ in games:
                history = conn.execute("SELECT revision, action, deal_number, after FROM history WHERE game_id = ? "
                                       "ORDER BY id", (game_id,)).fetchall()
                (revision,) = conn.execute("SELECT revision FROM game WHERE id = ?", (game_id,)).fetchone()
                deals = dict(conn.execute("SELECT number, body FROM deal WHERE game_id = ?", (game_id,)).fetchall())
                # Each write whole or not at all: one history entry per revision, and the deals
                # are what the history says was written last.
                assert [h[0] for h in history] == list(range(1, revision + 1))
                last = {number: after for _, _, number, after in history}
                assert {n: json.loads(b) for n, b in deals.items()} == {n: json.loads(a) for n, a in last.items()}
                stored = {marker_of(json.loads(after)): rev for rev, _, _, after in history}
                assert len(stored) == len(history)  # never doubled
                mine = [a for a in acked if a["game"] == game_id]
                assert mine, game_id
                for a in mine:  # never lost: every acknowledged write, at the revision it was answered
                    assert stored.get(a["marker"]) == a["revision"], a
        finally:
            conn.close()

        # The restarted server serves the games and takes new writes.
        game_id, key = games[0]
        status, game = call(port, "GET", f"/api/v1/games/{game_id}")
        assert status == 200 and game["revision"] >= max(a["revision"] for a in acked if a["game"] == game_id)
        status, body = call(port, "POST", f"/api/v1/games/{game_id}/deals",
                            {**deal_body(4000), "revision": game["revision"]}, key)
        assert status == 201 and body["revision"] == game["revision"] + 1
        assert call(port, "GET", f"/games/{game_id}")[0] == 200
    finally:
        stop.set()
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
