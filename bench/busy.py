"""How the server answers while another program holds the database's write lock.

Run from the repository root::

    python bench/busy.py [--writes 6] [--threads 4] [--busy-timeout 2]

It starts ``python -m flask --app scorepad serve --threads N`` on a fresh SQLite
file in a temporary folder, makes a game through the API, then, from this process, holds
the file's write lock (``BEGIN IMMEDIATE``) while ``writes`` clients each record a deal at
once, more than the server has threads. It prints each write's status, ``Retry-After`` and
time (target: every one a 503 within ``BUSY_TIMEOUT``), the time of four reads made
meanwhile next to the same reads with no lock held (target: about the same), and whether
a write succeeds once the lock is let go. Timings are printed, not enforced.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TWO = [{"name": "Ann", "players": ["Ann"]}, {"name": "Bea", "players": ["Bea"]}]


def call(port: int, method: str, path: str, body: object = None) -> tuple[int, float, str | None]:
    """(status, seconds, Retry-After) of one request on its own connection."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    started = time.monotonic()
    conn.request(method, path, body=None if body is None else json.dumps(body),
                 headers={"Content-Type": "application/json"})
    response = conn.getresponse()
    response.read()
    conn.close()
    return response.status, time.monotonic() - started, response.getheader("Retry-After")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writes", type=int, default=6)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--busy-timeout", type=float, default=2.0)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="scorepad-busy-"))
    database = folder / "busy.sqlite"
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {**os.environ, "SCOREPAD_DATABASE": str(database), "SCOREPAD_SECRET_KEY": "bench",
           "SCOREPAD_BUSY_TIMEOUT": str(args.busy_timeout), "PYTHONPATH": str(ROOT)}
    server = subprocess.Popen([sys.executable, "-m", "flask", "--app", "scorepad", "serve", "--host", "127.0.0.1",
                               "--port", str(port), "--threads", str(args.threads)],
                              cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(600):
            try:
                call(port, "GET", "/api/v1/sheets")
                break
            except OSError:
                time.sleep(0.1)
        conn = http.client.HTTPConnection("127.0.0.1", port)
        conn.request("POST", "/api/v1/games", json.dumps({"name": "Busy", "sheet": "common", "sides": TWO}),
                     {"Content-Type": "application/json"})
        game_id = json.loads(conn.getresponse().read())["id"]
        reads = [f"/api/v1/games/{game_id}", f"/games/{game_id}", "/api/v1/sheets", "/"]
        usual = {path: call(port, "GET", path)[1] for path in reads}
        holder = sqlite3.connect(database, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        answers: list[tuple[int, float, str | None]] = []
        writers = [threading.Thread(target=lambda: answers.append(
            call(port, "POST", "/api/v1/games", {"name": "Late", "sheet": "common", "sides": TWO})))
            for _ in range(args.writes)]
        for writer in writers:
            writer.start()
        time.sleep(0.3)
        meanwhile = {path: call(port, "GET", path)[1] for path in reads}
        for writer in writers:
            writer.join()
        holder.execute("ROLLBACK")
        holder.close()
        after = call(port, "POST", "/api/v1/games", {"name": "After", "sheet": "common", "sides": TWO})
    finally:
        server.terminate()
        server.wait(30)
    print(f"{args.writes} writes, {args.threads} server threads, BUSY_TIMEOUT {args.busy_timeout:g} s, "
          "another process holding the write lock:")
    for status, took, retry_after in sorted(answers, key=lambda a: a[1]):
        print(f"  write: {status} in {took * 1000:7.0f} ms, Retry-After {retry_after}")
    print("reads, with no lock held / meanwhile:")
    for path in reads:
        print(f"  GET {path:42} {usual[path] * 1000:7.0f} ms / {meanwhile[path] * 1000:7.0f} ms")
    print(f"a write once the lock was let go: {after[0]} in {after[1] * 1000:.0f} ms")
    ok = all(a[0] == 503 and a[2] == "1" for a in answers) and after[0] == 201
    for child in folder.iterdir():
        child.unlink()
    folder.rmdir()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
