"""A table-full of phones at once: N clients each play whole games through the JSON API.

Run from the repository root::

    python bench/load.py [--clients 16] [--games 10] [--server-threads 4] [--compare 4,8]

It starts the production server command in a subprocess, on a free loopback port, with a
fresh SQLite file in a temporary folder::

    python -m waitress --host 127.0.0.1 --port P --threads T --call scorepad:create_app

(``SCOREPAD_DATABASE`` and ``SCOREPAD_SECRET_KEY`` in its environment). Then ``clients``
threads, each on its own keep-alive connection (``http.client``), each play ``games``
games of the ``common`` preset for two, one after another, as a scoring phone would:

* ``create``  ``POST /api/v1/games``;
* then for each of the four deals (``tests/data/game-four-deals.json``):
  ``read``    ``GET /api/v1/games/<id>`` (the revision and the next deal),
  ``record``  ``POST /api/v1/games/<id>/deals`` with ``"revision"`` (what was read),
  ``poll``    ``GET /api/v1/games/<id>/revision`` (what a watching phone asks every few seconds);
* ``view``    ``GET /games/<id>``, the finished game's page, as the view link shows it.

It prints throughput, p50 / p99 / max latency per route, every error, and then opens the
SQLite file itself: every deal the server acknowledged (2xx) must be in the database, with
the body the server answered, once (its history too). Target: 0 errors, 0 lost, p99 of
``record`` under 50 ms at 16 clients (reported, never enforced: timings depend on the
machine). ``--compare 4,8`` runs the whole thing once per waitress thread count.

Loopback only; bounded: at most 64 clients, 50 games each, and ``--max-seconds`` (default
120) after which no client starts another game. Exit status 1 on any error or lost deal.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shlex
import sqlite3
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from web import HOST, ROOT, Server, _quantile  # noqa: E402  (bench/web.py: the same server harness)

TARGET_P99_MS = 50.0
ROUTES = ("create", "read", "record", "poll", "view")


class Client:
    """One phone: a keep-alive connection, its latencies by route, its errors, its acknowledged deals."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn = http.client.HTTPConnection(HOST, port, timeout=30)
        self.times: dict[str, list[float]] = defaultdict(list)
        self.errors: list[str] = []
        self.acked: list[tuple[str, int, int, dict[str, Any]]] = []  # (game, number, revision, deal)

    def call(self, route: str, method: str, path: str, body: Any = None,
             key: str | None = None) -> tuple[int, Any]:
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        t0 = time.perf_counter()
        try:
            self.conn.request(method, path, body=data, headers=headers)
            resp = self.conn.getresponse()
            raw = resp.read()
        except (OSError, http.client.HTTPException) as err:
            self.conn.close()
            self.conn = http.client.HTTPConnection(HOST, self.port, timeout=30)
            self.errors.append(f"{route}: {err!r}")
            return 0, None
        self.times[route].append(time.perf_counter() - t0)
        if not 200 <= resp.status < 300:
            self.errors.append(f"{route}: HTTP {resp.status} {raw[:200]!r}")
            return resp.status, None
        is_json = resp.getheader("Content-Type", "").startswith("application/json")
        return resp.status, json.loads(raw) if is_json else raw

    def play(self, deals: list[dict[str, Any]], n: int) -> bool:
        """One whole game; False when it could not be finished."""
        sides = [{"name": "Ann", "players": ["Ann"]}, {"name": "Bea", "players": ["Bea"]}]
        _, game = self.call("create", "POST", "/api/v1/games", {"name": f"Load {n}", "sheet": "common",
                                                                 "sides": sides})
        if game is None:
            return False
        game_id, key = game["id"], game["edit_key"]
        base = f"/api/v1/games/{game_id}"
        for deal in deals:
            _, now = self.call("read", "GET", base)
            if now is None:
                return False
            body = {k: v for k, v in deal.items() if k != "deal"}  # the next deal: the server numbers it
            _, saved = self.call("record", "POST", f"{base}/deals", {**body, "revision": now["revision"]}, key)
            if saved is None:
                return False
            self.acked.append((game_id, saved["number"], saved["revision"], saved["deal"]))
            self.call("poll", "GET", f"{base}/revision")
        self.call("view", "GET", f"/games/{game_id}")
        return True


def run(threads: int, clients: int, games: int, max_seconds: float, folder: Path) -> dict[str, Any]:
    """One run against a fresh server with ``threads`` waitress threads."""
    database = folder / f"load-{threads}.sqlite"
    server = Server(f"scorepad-{threads}", "scorepad:create_app",
                    {"SCOREPAD_DATABASE": str(database),
                     "SCOREPAD_SECRET_KEY": "load-" + os.urandom(16).hex(), "PYTHONPATH": str(ROOT)},
                    folder, threads)
    print(f"\n$ {shlex.join(server.command)}", flush=True)
    deals = json.loads((ROOT / "tests" / "data" / "game-four-deals.json").read_text())["deals"]
    try:
        server.wait_ready("/api/v1/sheets")
        warm = Client(server.port)  # one game first, so imports and first connections are not measured
        warm.play(deals, 0)
        phones = [Client(server.port) for _ in range(clients)]
        deadline = time.monotonic() + max_seconds
        barrier = threading.Barrier(clients + 1)
        played = [0] * clients

        def phone(i: int) -> None:
            barrier.wait()
            for g in range(games):
                if time.monotonic() > deadline or not phones[i].play(deals, i * games + g + 1):
                    break
                played[i] += 1

        workers = [threading.Thread(target=phone, args=(i,)) for i in range(clients)]
        for w in workers:
            w.start()
        barrier.wait()
        t0, cpu0, server0 = time.perf_counter(), time.process_time(), cpu_seconds(server.proc.pid)
        for w in workers:
            w.join()
        elapsed = time.perf_counter() - t0
        cpu = (time.process_time() - cpu0, cpu_seconds(server.proc.pid) - server0)
        for p in phones + [warm]:
            p.conn.close()
    finally:
        server.stop()
    times: dict[str, list[float]] = defaultdict(list)
    errors: list[str] = []
    acked = list(warm.acked)
    for p in phones:
        for route, values in p.times.items():
            times[route] += values
        errors += p.errors
        acked += p.acked
    lost, doubled = check_database(database, acked)
    requests = sum(len(v) for v in times.values())
    return {"threads": threads, "elapsed": elapsed, "requests": requests, "games": sum(played),
            "times": {r: sorted(v) for r, v in times.items()}, "errors": errors, "acked": len(acked),
            "lost": lost, "doubled": doubled, "log": server.log, "cpu": cpu}


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a process has used so far; NaN where /proc is missing."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return float("nan")


def check_database(database: Path, acked: list[tuple[str, int, int, dict[str, Any]]]) -> tuple[list[str], list[str]]:
    """Open the SQLite file: each acknowledged deal is there with the body answered, recorded once."""
    conn = sqlite3.connect(database)
    try:
        lost, doubled = [], []
        for game_id, number, revision, deal in acked:
            row = conn.execute("SELECT body FROM deal WHERE game_id = ? AND number = ?", (game_id, number)).fetchone()
            if row is None or json.loads(row[0]) != deal:
                lost.append(f"{game_id} deal {number} (revision {revision})")
            n = conn.execute("SELECT COUNT(*) FROM history WHERE game_id = ? AND deal_number = ? AND action = 'record'",
                             (game_id, number)).fetchone()[0]
            if n != 1:
                doubled.append(f"{game_id} deal {number}: {n} records in the history")
        games = {a[0] for a in acked}
        stored = sum(conn.execute("SELECT COUNT(*) FROM deal WHERE game_id = ?", (g,)).fetchone()[0] for g in games)
        if stored != len(acked):
            doubled.append(f"{stored} deals stored in the clients' games, {len(acked)} acknowledged")
        return lost, doubled
    finally:
        conn.close()


def report(result: dict[str, Any], clients: int) -> bool:
    times, elapsed = result["times"], result["elapsed"]
    print(f"  {clients} clients, {result['games']} games, {result['requests']} requests in {elapsed:.2f} s: "
          f"{result['requests'] / elapsed:.0f} req/s, {result['acked'] / elapsed:.0f} deals/s recorded")
    client_cpu, server_cpu = result["cpu"]
    print(f"  CPU used: server {server_cpu:.2f} s ({server_cpu / result['requests'] * 1000:.2f} ms a request), "
          f"clients {client_cpu:.2f} s, of {os.cpu_count()} x {elapsed:.2f} s")
    print(f"  {'route':8} {'count':>6} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for route in ROUTES:
        values = times.get(route, [])
        if values:
            print(f"  {route:8} {len(values):6d} {_quantile(values, 0.5) * 1000:8.2f} "
                  f"{_quantile(values, 0.99) * 1000:8.2f} {values[-1] * 1000:8.2f}")
    p99 = _quantile(times.get("record", []), 0.99) * 1000
    print(f"  errors: {len(result['errors'])}" + "".join(f"\n    {e}" for e in sorted(set(result['errors']))[:10]))
    print(f"  database check: {result['acked']} deals acknowledged; lost {len(result['lost'])}, "
          f"doubled or extra {len(result['doubled'])}" +
          "".join(f"\n    {x}" for x in (result["lost"] + result["doubled"])[:10]))
    print(f"  record p99 {p99:.2f} ms; target < {TARGET_P99_MS:.0f} ms at 16 clients: "
          f"{'met' if p99 < TARGET_P99_MS else 'MISSED'}", flush=True)
    return not result["errors"] and not result["lost"] and not result["doubled"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=16, help="concurrent phones (default 16)")
    parser.add_argument("--games", type=int, default=10, help="games each phone plays, one after another (default 10)")
    parser.add_argument("--server-threads", type=int, default=4, help="waitress --threads (default 4)")
    parser.add_argument("--compare", help="comma-separated waitress thread counts to run one after another, e.g. 4,8")
    parser.add_argument("--max-seconds", type=float, default=120.0, help="no new game after this (default 120)")
    args = parser.parse_args(argv)
    counts = [int(x) for x in args.compare.split(",")] if args.compare else [args.server_threads]
    if not 0 < args.clients <= 64 or not 0 < args.games <= 50 or not 0 < args.max_seconds <= 600 \
            or not all(0 < t <= 64 for t in counts):
        parser.error("keep it bounded: clients 1..64, games 1..50, max-seconds (0, 600], threads 1..64")

    print("$ " + shlex.join([Path(sys.executable).name, *sys.argv]), flush=True)
    print(f"{os.cpu_count()} CPU(s); each phone: create a game, then per deal read + record + poll, then view")
    folder = Path(tempfile.mkdtemp(prefix="scorepad-load-"))
    ok = True
    summary = []
    try:
        for threads in counts:
            result = run(threads, args.clients, args.games, args.max_seconds, folder)
            ok = report(result, args.clients) and ok
            record = result["times"].get("record", [])
            summary.append((threads, result["requests"] / result["elapsed"], _quantile(record, 0.5) * 1000,
                            _quantile(record, 0.99) * 1000))
            if result["errors"] or result["lost"] or result["doubled"]:
                print(f"  server log:\n{result['log'].read_text()[-3000:]}")
        if len(summary) > 1:
            print("\nwaitress threads   req/s   record p50   record p99")
            for threads, rps, p50, p99 in summary:
                print(f"  {threads:16d} {rps:7.0f} {p50:9.2f} ms {p99:9.2f} ms")
    finally:
        for path in sorted(folder.iterdir(), reverse=True):
            path.unlink()
        folder.rmdir()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
