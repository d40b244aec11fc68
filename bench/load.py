"""A table-full of phones at once: N clients each play whole games through the JSON API;
then an abuse phase: phones record deals while four clients hammer the costliest reads of
the largest game the limits allow.

Run from the repository root::

    python bench/load.py [--clients 16] [--games 10] [--server-threads 4] [--compare 4,8]
                         [--phases load,abuse] [--runs 3] [--phase-seconds 20]
                         [--database postgresql://...|temporary] [--servers 2]

It starts the production server command in a subprocess, on a free loopback port, with a
fresh SQLite file in a temporary folder::

    python -m flask --app scorepad serve --host 127.0.0.1 --port P --threads T

(``SCOREPAD_DATABASE`` and ``SCOREPAD_SECRET_KEY`` in its environment, and the rate limits
on, at their defaults). Each simulated phone connects from its own loopback address
(127.0.0.10, 127.0.0.11, ...: the client socket is bound to it), so the limits apply per
phone, as they would to phones on a real network.

**load**: ``clients`` threads, each on its own keep-alive connection (``http.client``),
each play ``games`` games of the ``common`` preset for two, one after another, as a
scoring phone would:

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
machine). ``--compare 4,8`` runs the whole thing once per server thread count.
``--servers N`` starts N servers (each its own process on a free port, all on the same
database); phone ``i`` talks to server ``i mod N`` (each server gets its own warm-up game).
On one SQLite file, processes queue for its write lock: on a busy machine a write may wait
past ``BUSY_TIMEOUT`` and be refused (503), which this reports as an error.

**load on PostgreSQL** (``--database URL``): three runs on a fresh SQLite file on one
server and three on the PostgreSQL database the URL names on ``--servers`` servers,
interleaved (SQLite, PostgreSQL, SQLite, ...: on a shared, noisy machine a slow spell then
falls on both, not on one backend's three runs). Each run prints what the load phase
prints, then a line of record p50 / p99, throughput (requests a second), errors, lost and
doubled; the end prints the medians and the target: "PostgreSQL median record p99 X ms vs
SQLite Y ms: within 2x: yes/no" (printed, never enforced). The database may hold other
data: the check reads only the games this run created, through the store's named queries
(on either backend, ``db.using(backends.database(setting))``): each acknowledged deal must be
stored with the body answered (else lost); a deal number with more than one ``record``
entry in the history, more deals or history entries in a game than deals acknowledged,
or a revision beyond the writes its phone made, is doubled. A throwaway PostgreSQL::

    python bench/load.py --phases load --database temporary --servers 2

starts a cluster of its own (``initdb`` into a temporary folder, ``pg_ctl start`` on a free
loopback port, as the ``postgres`` user when run as root; PostgreSQL's durable defaults,
fsync and synchronous_commit on, as SQLite's ``synchronous=FULL``: the tests' cluster,
with fsync off, would flatter it) and removes it after. By hand, the same::

    initdb -D /tmp/pg -U postgres --auth=trust -E UTF8 --locale=C
    pg_ctl -D /tmp/pg -o "-p 5433 -k /tmp/pg -c listen_addresses=127.0.0.1" -l /tmp/pg/log -w start
    psql -h 127.0.0.1 -p 5433 -U postgres -c 'CREATE DATABASE load'
    python bench/load.py --phases load --database postgresql://postgres@127.0.0.1:5433/load --servers 2

**abuse**: first the largest game the limits allow is built, through the store, in a file
of its own: a two-player game played to a target, 100 deals (the most such a game has) of
60 melds a side, each meld breaking the sheet (saved as played), then corrections until
the store refuses one for the game's size bound (2 MB). Then ``runs`` times, each against
a fresh production server, ``flask --app scorepad serve`` (:func:`production_server`, the
one place the bench names it),
on a copy of that file, with the rate limits on and ``PROXIES=1``, behind nginx as the
README hosts it (``tests.helpers.Nginx``: it sets ``X-Forwarded-For`` and clears
``X-Forwarded-Prefix``); every client talks to nginx. ``clients`` phones (16), each from
its own address, start a game and record one deal every 1.1 s (read, record, poll; under
the 60 writes a minute per game), for ``phase-seconds`` without strangers, then as long
again with them:

* 4 abusers, each from its own address, loop over ``GET /games/<big>/results.pdf?paper=a4``
  and ``?paper=letter``, ``/games/<big>/rescore?sheet=<preset>`` for every preset, and
  ``GET /api/v1/games/<big>`` with 100 different ``Host`` headers;
* a poisoner sends ``X-Forwarded-Prefix: //evil.example/<n>`` (and ``Host: evil-<n>.example``)
  with the viewer's game page of each phone's game, its rescore page and ``/sw.js``;
* keyless writers post deals with only the view link (no edit key) to the games of the first
  4 phones, each from the address of the phone it harasses (one club Wi-Fi's NAT), 5 a second;
* rescorers (8, at once) ask for rescores no cache holds: the big game under a sheet of their own
  (the target moved on by one each time) and a deal of it, by the API and by the page;
* 300 idle connections to nginx, each sending half a request and then nothing, held all
  phase long.

Each run prints the phones' record p99 (and every phone request's) without and with
strangers, the 429s and 5xx the phones saw, the server's RSS (from /proc: granian's worker)
at the start and the end, the latency of one request while the 300 idle connections are
held, whether a viewer's page or the worker came back poisoned, what each stranger got, and
errors (5xx, timeouts, refused connections; a stranger's refusals, 401/429/503, are what it
asked for, not errors; a stranger sends no new request once the phase ends; one still running
30 s later is reported as unfinished). Targets, printed and never enforced: phones see no 429
and no 5xx; p99 with strangers at most 2 x the same run's p99 without them + 20 ms; RSS
within 200 MB of the start.

Loopback only; bounded: at most 64 clients, 20 games each (the create limit is 20 a
minute per address), and ``--max-seconds`` (default 120) after which no client starts
another game. Exit status 1 on any error, lost or doubled deal.
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import json
import os
import shlex
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from web import HOST, ROOT, Server, _quantile, request  # noqa: E402  (bench/web.py: the same server harness)

sys.path.insert(1, str(ROOT))  # this checkout's scorepad (and tests.postgres), not an installed one
import paced  # noqa: E402  (bench/paced.py: --paced)
from acked import check_database, server_env  # noqa: E402  (bench/acked.py)

from tests.helpers import Nginx, ProductionServer  # noqa: E402  (the production server and nginx, as tested)

TARGET_P99_MS = 50.0
TARGET_CLOSED_RATIO = 1.8  # --against the commit before the speed issue (d0e821c), at 16 clients
ROUTES = ("create", "read", "record", "poll", "view")
WARM_ADDRESS = "127.0.0.2"


def phone_address(i: int) -> str:
    """Phone ``i``'s own loopback address: 127.0.0.10, .11, ... (all of 127/8 is loopback)."""
    return f"127.0.0.{10 + i}"


def abuser_address(j: int) -> str:
    return f"127.0.0.{200 + j}"


class Client:
    """One phone: a keep-alive connection from its own address, its latencies by route, its
    errors, its acknowledged deals, and the writes it sent to each game it created."""

    def __init__(self, port: int, address: str) -> None:
        self.port, self.address = port, address
        self.conn = self.connect()
        self.times: dict[str, list[float]] = defaultdict(list)
        self.errors: list[str] = []
        self.acked: list[tuple[str, int, int, dict[str, Any]]] = []  # (game, number, revision, deal)
        self.writes: dict[str, int] = {}  # game id -> deals sent to it (answered or not)

    def connect(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection(HOST, self.port, timeout=30, source_address=(self.address, 0))

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
            self.conn = self.connect()
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
        self.writes[game_id] = 0
        base = f"/api/v1/games/{game_id}"
        for deal in deals:
            _, now = self.call("read", "GET", base)
            if now is None:
                return False
            body = {k: v for k, v in deal.items() if k != "deal"}  # the next deal: the server numbers it
            self.writes[game_id] += 1
            _, saved = self.call("record", "POST", f"{base}/deals", {**body, "revision": now["revision"]}, key)
            if saved is None:
                return False
            self.acked.append((game_id, saved["number"], saved["revision"], saved["deal"]))
            self.call("poll", "GET", f"{base}/revision")
        self.call("view", "GET", f"/games/{game_id}")
        return True


def run(threads: int, clients: int, games: int, max_seconds: float, folder: Path,
        setting: str | None = None, servers: int = 1, label: str | None = None, root: Path = ROOT) -> dict[str, Any]:
    """One run against ``servers`` fresh servers with ``threads`` server threads each, on
    ``setting`` (a PostgreSQL URL), or on a fresh SQLite file when it is None; the servers
    serve the checkout ``root`` (this one, unless a comparison names another)."""
    label = label or f"threads-{threads}"
    database = setting or str(folder / f"load-{label}.sqlite")
    started = [Server(f"scorepad-{label}-{k}", "scorepad:create_app", server_env(database, root), folder, threads,
                      root=root) for k in range(servers)]
    for server in started:
        print(f"\n$ {shlex.join(server.command)}", flush=True)
    deals = json.loads((ROOT / "tests" / "data" / "game-four-deals.json").read_text())["deals"]
    try:
        warm = warm_up(started, deals)
        phones = [Client(started[i % servers].port, phone_address(i)) for i in range(clients)]
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
        pids = [pid for server in started for pid in server.pids()]  # granian's watcher and worker
        t0, cpu0, server0 = time.perf_counter(), time.process_time(), cpu_seconds(*pids)
        for w in workers:
            w.join()
        elapsed = time.perf_counter() - t0
        cpu = (time.process_time() - cpu0, cpu_seconds(*pids) - server0)
        for p in phones + warm:
            p.conn.close()
    finally:
        for server in started:
            server.stop()
    times: dict[str, list[float]] = defaultdict(list)
    for p in phones:
        for route, values in p.times.items():
            times[route] += values
    errors = [e for p in phones for e in p.errors]
    acked = [a for p in warm + phones for a in p.acked]
    lost, doubled = check_database(database, acked, {g: n for p in warm + phones for g, n in p.writes.items()})
    requests = sum(len(v) for v in times.values())
    return {"threads": threads, "elapsed": elapsed, "requests": requests, "games": sum(played),
            "times": {r: sorted(v) for r, v in times.items()}, "errors": errors, "acked": len(acked),
            "lost": lost, "doubled": doubled, "logs": [server.log for server in started], "cpu": cpu,
            "servers": servers}


def warm_up(servers: list[Server], deals: list[dict[str, Any]]) -> list[Client]:
    """Wait for each server, then play one game on each, so that imports and first
    connections are not measured."""
    for server in servers:
        server.wait_ready("/api/v1/sheets")
    warm = [Client(server.port, WARM_ADDRESS) for server in servers]
    for client in warm:
        client.play(deals, 0)
    return warm


def cpu_seconds(*pids: int) -> float:
    """CPU time (user + system) the processes have used so far, summed; NaN where /proc is missing."""
    try:
        fields = [Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split() for pid in pids]
        return sum(int(f[11]) + int(f[12]) for f in fields) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return float("nan")


def report(result: dict[str, Any], clients: int) -> bool:
    times, elapsed = result["times"], result["elapsed"]
    print(f"  {clients} clients, {result['games']} games, {result['requests']} requests in {elapsed:.2f} s: "
          f"{result['requests'] / elapsed:.0f} req/s, {result['acked'] / elapsed:.0f} deals/s recorded")
    client_cpu, server_cpu = result["cpu"]
    servers = "server" if result["servers"] == 1 else f"{result['servers']} servers"
    print(f"  CPU used: {servers} {server_cpu:.2f} s ({server_cpu / result['requests'] * 1000:.2f} ms a request), "
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

# -- the abuse phase --------------------------------------------------------------------------------

ABUSERS = 4
HOSTS = 100  # distinct Host headers the abusers send for the game's JSON
PACE_S = 1.1  # a phone records one deal this often: under 60 writes a minute to its game
TARGET_SHEET = {"preset": "common", "game_length": "target", "target_score": 1_000_000}
TWO = [{"name": "Ann", "players": ["Ann"]}, {"name": "Bea", "players": ["Bea"]}]
REASON = "the table let every meld stand"
RSS_TARGET_MB = 200.0
ABUSER_TIMEOUT_S = 120.0  # an abuser's request answered later is a timeout (an error)
GRACE_S = 30.0  # after the phones stop, how long the abusers' last requests may still run


def big_deal(variant: int) -> dict[str, Any]:
    """60 melds a side, each breaking the common sheet (too many wilds, a second meld of a
    rank, more cards than the decks hold): as many problems as a deal can carry."""
    ranks = "456789"
    return {"ending": "stock_out",
            "sides": [{"name": "Ann", "melds": [f"{ranks[i % 6]} {ranks[i % 6]} 2 2 2" for i in range(60)],
                       "players": [{"name": "Ann", "foot_picked_up": True, "cards_left": "K " * (variant % 7)}]},
                      {"name": "Bea", "melds": [f"{ranks[i % 6]} {ranks[i % 6]} JK JK" for i in range(60)],
                       "players": [{"name": "Bea", "foot_picked_up": True, "cards_left": ""}]}]}


def build_largest_game(database: Path) -> tuple[str, str]:
    """The largest game the limits allow, written through the store (as the API would, without
    its rate limits): as many deals as a game to a target has, then corrections until the
    store refuses one for the game's size. Returns its id and a line saying what it holds."""
    sys.path.insert(0, str(ROOT))
    from scorepad.app import create_app
    from scorepad.rules.limits import MAX_DEALS as MAX_DEALS_TO_TARGET
    from scorepad.storage import db
    from scorepad.storage.errors import Full
    from tests import json_writes as writing

    t0 = time.perf_counter()
    app = create_app({"DATABASE": str(database), "SECRET_KEY": "build", "RATELIMIT_ENABLED": False})
    with app.app_context():
        game = writing.create_game("The largest game", TARGET_SHEET, TWO)
        deals = corrections = 0
        try:
            while True:
                if deals < MAX_DEALS_TO_TARGET:
                    writing.record_deal(game.id, big_deal(deals), as_played=REASON)
                    deals += 1
                else:
                    writing.update_deal(game.id, 1 + corrections % deals, {**big_deal(corrections + 1),
                                      "deal": 1 + corrections % deals}, as_played=REASON)
                    corrections += 1
        except Full as err:
            if err.field != "game":
                raise
            refusal = f"Full {err.field}"
        size = db.one("game_stored_bytes", game.id, writing.ENTRY_BYTES)[0]
        db.get_db().execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return game.id, (f"{deals} deals, {corrections} corrections, {size:,} bytes stored of "
                     f"{writing.MAX_GAME_BYTES:,}; the next write refused ({refusal}); built in "
                     f"{time.perf_counter() - t0:.1f} s")


def rss_mb(pid: int) -> float:
    """The process's resident memory (VmRSS), in MB; NaN where /proc is missing."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        pass
    return float("nan")


class Recorder(Client):
    """A phone that records one deal every PACE_S seconds into its own game, until told to stop."""

    def start(self, n: int) -> bool:
        _, game = self.call("create", "POST", "/api/v1/games", {"name": f"Table {n}", "sheet": TARGET_SHEET,
                                                                 "sides": TWO})
        if game is None:
            return False
        self.game_id, self.key = game["id"], game["edit_key"]
        self.writes[self.game_id] = 0
        return True

    def record_until(self, deals: list[dict[str, Any]], stop: float) -> None:
        base = f"/api/v1/games/{self.game_id}"
        n = 0
        while time.monotonic() < stop:
            t0 = time.monotonic()
            _, now = self.call("read", "GET", base)
            if now is not None:
                body = {k: v for k, v in deals[n % len(deals)].items() if k != "deal"}
                self.writes[self.game_id] += 1
                _, saved = self.call("record", "POST", f"{base}/deals", {**body, "revision": now["revision"]},
                                     self.key)
                if saved is not None:
                    self.acked.append((self.game_id, saved["number"], saved["revision"], saved["deal"]))
                    n += 1
                self.call("poll", "GET", f"{base}/revision")
            time.sleep(max(0.0, t0 + PACE_S - time.monotonic()))

    def take(self) -> tuple[dict[str, list[float]], list[str]]:
        """The latencies and errors so far, leaving none behind."""
        times, errors = self.times, self.errors
        self.times, self.errors = defaultdict(list), []
        return times, errors


class Abuser(threading.Thread):
    """A client from its own address looping over the costliest reads of one game until ``stop``."""

    def __init__(self, port: int, j: int, plan: list[tuple[str, str]], hosts: Any, stop: float) -> None:
        super().__init__(daemon=True)
        self.port, self.address, self.stop = port, abuser_address(j), stop
        self.plan = plan[j * 2 % len(plan):] + plan[:j * 2 % len(plan)]  # each starts elsewhere in the plan
        self.hosts = hosts
        self.done: dict[str, list[float]] = defaultdict(list)
        self.statuses: dict[int, int] = defaultdict(int)
        self.errors: list[str] = []
        self.running: str | None = None
        self.counting = True  # False once the run is over: the server's stop is no error

    def run(self) -> None:
        for kind, path in itertools.cycle(self.plan):
            if time.monotonic() >= self.stop:
                break
            headers = {"Host": f"abuse-{next(self.hosts) % HOSTS}.example"} if kind == "json" else {}
            conn = http.client.HTTPConnection(HOST, self.port, timeout=ABUSER_TIMEOUT_S,
                                              source_address=(self.address, 0))
            self.running = kind
            t0 = time.perf_counter()
            try:
                conn.request("GET", path, headers=headers)
                resp = conn.getresponse()
                resp.read()
            except (OSError, http.client.HTTPException) as err:
                if self.counting:
                    self.errors.append(f"{kind}: {err!r}")
                continue
            finally:
                conn.close()
                self.running = None
            if not self.counting:
                break
            self.done[kind].append(time.perf_counter() - t0)
            self.statuses[resp.status] += 1
            if resp.status not in (200, 304, 503):  # 503: the build turn was busy, ask again (the gate at work)
                self.errors.append(f"{kind}: HTTP {resp.status}")


# -- the strangers ---------------------------------------------------------------------------------

POISON = "//evil.example"  # what the poisoner sends as the site root; a page holding it is poisoned
KEYLESS_PHONES = 4  # the phones whose address (one club Wi-Fi's NAT) a keyless writer shares
KEYLESS_PACE_S = 0.2  # a keyless writer's pace: 300 a minute, five times the write limit
RESCORERS = 8  # as many as the issue found took a phone from 0.01 s to 2.4 s
IDLE = 300  # half-open connections held to nginx
IDLE_SOURCES = 10  # spread over this many loopback addresses (127.0.1.x)
STRANGER_REQUESTS = 20_000  # a stranger's requests, at most, however long the phase
REFUSALS = (401, 403, 429, 503)  # what a stranger is meant to get: not an error


def stranger_address(j: int) -> str:
    return f"127.0.0.{230 + j}"


class Stranger(threading.Thread):
    """A client from ``address`` sending ``plan``'s requests (kind, method, path, headers, body)
    in turn, one at a time, each on a fresh connection, every ``pace`` seconds at most, until
    ``stop`` or :data:`STRANGER_REQUESTS`. Statuses are counted by kind; what is not 2xx, 304
    or a refusal (:data:`REFUSALS`) is an error."""

    def __init__(self, port: int, address: str, plan: Any, stop: float, pace: float = 0.0) -> None:
        super().__init__(daemon=True)
        self.port, self.address, self.plan, self.stop, self.pace = port, address, plan, stop, pace
        self.statuses: dict[str, Counter[int]] = defaultdict(Counter)
        self.errors: list[str] = []
        self.running: str | None = None
        self.counting = True

    def run(self) -> None:
        for _, (kind, method, path, headers, body) in zip(range(STRANGER_REQUESTS), self.plan, strict=False):
            t0 = time.monotonic()
            if t0 >= self.stop:
                break
            conn = http.client.HTTPConnection(HOST, self.port, timeout=ABUSER_TIMEOUT_S,
                                              source_address=(self.address, 0))
            self.running = kind
            try:
                data = None if body is None else json.dumps(body).encode()
                conn.request(method, path, body=data, headers={
                    **headers, **({"Content-Type": "application/json"} if data else {})})
                resp = conn.getresponse()
                resp.read()
            except (OSError, http.client.HTTPException) as err:
                if self.counting:
                    self.errors.append(f"{kind}: {err!r}")
                continue
            finally:
                conn.close()
                self.running = None
            if not self.counting:
                break
            self.statuses[kind][resp.status] += 1
            if not (200 <= resp.status < 300 or resp.status == 304 or resp.status in REFUSALS):
                self.errors.append(f"{kind}: HTTP {resp.status}")
            time.sleep(max(0.0, t0 + self.pace - time.monotonic()))


def poison_plan(games: list[str]) -> Any:
    """The viewer's page of each game, its rescore page and the service worker, each asked
    with a forged site root and host."""
    for n in itertools.count():
        game_id = games[n % len(games)]
        forged = {"X-Forwarded-Prefix": f"{POISON}/{n}", "Host": f"evil-{n % 50}.example"}
        yield from [("poison page", "GET", f"/games/{game_id}", forged, None),
                    ("poison rescore", "GET", f"/games/{game_id}/rescore?sheet=pagat", forged, None),
                    ("poison worker", "GET", "/sw.js", forged, None)]


def keyless_plan(game_id: str, deals: list[dict[str, Any]]) -> Any:
    """Deals posted to ``game_id`` with the view link alone: no edit key."""
    body = {k: v for k, v in deals[0].items() if k != "deal"}
    while True:
        yield "keyless write", "POST", f"/api/v1/games/{game_id}/deals", {}, body


def rescore_plan(game_id: str, j: int) -> Any:
    """Rescores of the big game no cache holds: under a sheet of the stranger's own (its target
    moved on by one each time), the whole game and one deal, by the API and by the page."""
    for n in itertools.count():
        target = 999_999 - (n * RESCORERS + j) % 900_000  # never the game's own 1,000,000
        sheet = urllib.parse.quote(json.dumps({**TARGET_SHEET, "target_score": target}))
        deal = 1 + (n * 7 + j) % 100
        query = f"deal={deal}&x={n}"
        yield from [("rescore api", "GET", f"/api/v1/referee/games/{game_id}/rescore?sheet={sheet}&{query}", {}, None),
                    ("rescore page", "GET", f"/games/{game_id}/rescore?sheet_json={sheet}&{query}", {}, None)]


class IdleConnections:
    """``count`` connections to ``port``, each sending half a request (a request line and a
    header, never the blank line that ends them) and then nothing, held until closed."""

    def __init__(self, port: int, count: int = IDLE) -> None:
        self.port, self.count = port, count
        self.sockets: list[socket.socket] = []
        self.refused = 0

    def open(self) -> IdleConnections:
        for i in range(self.count):
            try:
                sock = socket.create_connection((HOST, self.port), timeout=5,
                                                source_address=(f"127.0.1.{1 + i % IDLE_SOURCES}", 0))
                sock.sendall(b"GET /api/v1/sheets HTTP/1.1\r\nHost: idle.example\r\n")
                self.sockets.append(sock)
            except OSError:
                self.refused += 1
        return self

    def still_open(self) -> int:
        """How many nginx has not closed (a closed one reads as end of file)."""
        held = 0
        for sock in self.sockets:
            try:
                sock.setblocking(False)
                held += sock.recv(1, socket.MSG_PEEK) != b""
            except BlockingIOError:
                held += 1
            except OSError:
                pass
        return held

    def close(self) -> None:
        for sock in self.sockets:
            sock.close()
        self.sockets = []


def production_server(name: str, database: Path, folder: Path, threads: int) -> Any:
    """The production server as the README hosts it, ``flask --app scorepad serve`` (granian,
    one worker, ``threads`` threads) on loopback, with the bench's environment, the rate limits
    on and ``PROXIES=1`` (nginx in front), started and watched as the tests do
    (``tests.helpers.ProductionServer``): the one place the abuse phase names its server."""
    def command(port: int) -> list[str]:
        return [sys.executable, "-m", "flask", "--app", "scorepad", "serve", "--host", HOST, "--port", str(port),
                "--threads", str(threads)]
    env = {**server_env(database), "SCOREPAD_PROXIES": "1", "SCOREPAD_INSTANCE_PATH": str(folder)}
    return ProductionServer(str(database), str(folder / f"{name}.log"), threads, env, command=command)


STRANGERS = ("abusers", "poison", "keyless", "rescore", "idle")  # --strangers: which come, all by default


def strangers_for(kinds: tuple[str, ...], port: int, plan: list[tuple[str, str]], games: list[str], game_id: str,
                  deals: list[dict[str, Any]], stop: float) -> tuple[list[Abuser], list[Stranger]]:
    """The abusers and strangers of ``kinds`` (not started): on the big game ``game_id``, and on
    the phones' ``games`` (the first :data:`KEYLESS_PHONES` harassed from their own addresses)."""
    hosts = itertools.count()
    abusers = [Abuser(port, j, plan, hosts, stop) for j in range(ABUSERS * ("abusers" in kinds))]
    strangers = [*[Stranger(port, stranger_address(0), poison_plan(games), stop) for _ in range("poison" in kinds)],
                 *[Stranger(port, phone_address(i), keyless_plan(games[i], deals), stop, KEYLESS_PACE_S)
                   for i in range(min(KEYLESS_PHONES, len(games)) * ("keyless" in kinds))],
                 *[Stranger(port, stranger_address(1 + j), rescore_plan(game_id, j), stop)
                   for j in range(RESCORERS * ("rescore" in kinds))]]
    return abusers, strangers


def abuse_run(n: int, runs: int, source: Path, game_id: str, clients: int, threads: int, seconds: float,
              folder: Path, kinds: tuple[str, ...] = STRANGERS) -> dict[str, Any]:
    """One run: a fresh server on a copy of ``source`` behind nginx; phones alone, then
    phones with strangers."""
    database = folder / f"abuse-{n}.sqlite"
    with sqlite3.connect(source) as src, sqlite3.connect(database) as dst:
        src.backup(dst)
    server = production_server(f"abuse-{n}", database, folder, threads)
    print(f"\nrun {n} of {runs}: $ {shlex.join(server.proc.args)}  (behind nginx, PROXIES=1)", flush=True)
    deals = json.loads((ROOT / "tests" / "data" / "game-four-deals.json").read_text())["deals"]
    result: dict[str, Any] = {"log": Path(server.log)}
    idle = None
    try:
        with server, Nginx(folder / f"nginx-{n}", server.port, tls=False) as proxy:
            port = proxy.http_port
            presets = [p["id"] for p in json.loads(request(port, "GET", "/api/v1/sheets")[2])["sheets"]]
            plan = [("pdf a4", f"/games/{game_id}/results.pdf?paper=a4"),
                    ("pdf letter", f"/games/{game_id}/results.pdf?paper=letter"),
                    *[(f"rescore {p}", f"/games/{game_id}/rescore?sheet={p}") for p in presets],
                    ("json", f"/api/v1/games/{game_id}")]
            warm = Client(port, WARM_ADDRESS)  # imports and first connections are not measured
            warm.play(deals, 0)
            phones = [Recorder(port, phone_address(i)) for i in range(clients)]
            if not all(p.start(i) for i, p in enumerate(phones)):
                raise SystemExit("a phone could not start its game: " + "; ".join(e for p in phones for e in p.errors))
            result["rss_start"] = server.rss_kb() / 1024
            games = [p.game_id for p in phones]
            for phase in ("alone", "abused"):
                stop = time.monotonic() + seconds
                abusers: list[Abuser] = []
                strangers: list[Stranger] = []
                loops: list[Abuser | Stranger] = []
                if phase == "abused":
                    idle = IdleConnections(port, IDLE * ("idle" in kinds)).open()
                    status, _, _ = request(port, "GET", "/api/v1/sheets")  # warm: the probe below is timed
                    t0 = time.perf_counter()
                    status, _, _ = request(port, "GET", "/api/v1/sheets")
                    result["idle_probe"] = (status, time.perf_counter() - t0, idle.still_open(), idle.refused)
                    abusers, strangers = strangers_for(kinds, port, plan, games, game_id, deals, stop)
                    loops = [*abusers, *strangers]
                    for thread in loops:
                        thread.start()
                workers = [threading.Thread(target=p.record_until, args=(deals, stop)) for p in phones]
                for w in workers:
                    w.start()
                for w in workers:
                    w.join()
                taken = [p.take() for p in phones]
                result[phase] = {"record": sorted(x for times, _ in taken for x in times.get("record", [])),
                                 "all": sorted(x for times, _ in taken for values in times.values() for x in values),
                                 "errors": [e for _, errors in taken for e in errors]}
                if phase == "abused":  # no new request after the phase; the last ones may finish
                    for thread in loops:
                        thread.join(timeout=max(0.0, stop + GRACE_S - time.monotonic()))
                    result["idle_held"] = idle.still_open() if idle else 0
                    result["rss_end"] = server.rss_kb() / 1024
                    result["unfinished"] = [a.running for a in loops if a.running]
                    result["abusers"], result["strangers"] = abusers, strangers
                    for thread in loops:
                        thread.counting = False
                    viewed = (f"/games/{games[0]}", f"/games/{games[0]}/rescore?sheet=pagat", "/sw.js")
                    result["poisoned"] = [path for path in viewed if POISON.encode() in request(port, "GET", path)[2]]
            for p in phones + [warm]:
                p.conn.close()
            result["acked"] = [a for p in phones for a in p.acked]
            result["writes"] = {g: n for p in phones for g, n in p.writes.items()}
    finally:
        if idle is not None:
            idle.close()
        server.stop()
    result["lost"], result["doubled"] = check_database(database, result.get("acked", []), result.get("writes", {}))
    return result


def abuse_report(result: dict[str, Any]) -> bool:
    for what, key in (("record", "record"), ("every phone request", "all")):
        alone, abused = result["alone"][key], result["abused"][key]
        p99_alone, p99_abused = _quantile(alone, 0.99) * 1000, _quantile(abused, 0.99) * 1000
        limit = 2 * p99_alone + 20
        print(f"  {what} p99: without strangers {p99_alone:.1f} ms ({len(alone)}), with strangers "
              f"{p99_abused:.1f} ms ({len(abused)}); target <= 2 x {p99_alone:.1f} + 20 = {limit:.1f} ms: "
              f"{'met' if p99_abused <= limit else 'MISSED'}")
    phone_errors = result["alone"]["errors"] + result["abused"]["errors"]
    for phase in ("alone", "abused"):
        seen = Counter(e.split("HTTP ")[1][:3] for e in result[phase]["errors"] if "HTTP " in e)
        refused, failed = seen.get("429", 0), sum(c for code, c in seen.items() if code.startswith("5"))
        print(f"  phones {'without' if phase == 'alone' else 'with'} strangers: {refused} x 429, {failed} x 5xx; "
              f"target none: {'met' if not refused and not failed else 'MISSED'}")
    start, end = result["rss_start"], result["rss_end"]
    print(f"  server RSS: start {start:.0f} MB, end {end:.0f} MB ({end - start:+.0f} MB); target within "
          f"{RSS_TARGET_MB:.0f} MB: {'met' if end - start <= RSS_TARGET_MB else 'MISSED'}")
    status, seconds, held, refused = result["idle_probe"]
    print(f"  with {held} idle connections held ({refused} refused; {result['idle_held']} still held at the end): "
          f"GET /api/v1/sheets answered {status} in {seconds * 1000:.1f} ms")
    print(f"  poisoned after the strangers: {', '.join(result['poisoned']) or 'nothing'}")
    abusers = result["abusers"]
    kinds: dict[str, list[float]] = defaultdict(list)
    statuses: dict[int, int] = defaultdict(int)
    for a in abusers:
        for kind, values in a.done.items():
            kinds[kind] += values
        for status, count in a.statuses.items():
            statuses[status] += count
    unfinished = result["unfinished"]
    print(f"  abusers ({ABUSERS}, {HOSTS} Host values): " + ", ".join(
        f"{kind} {len(v)} (max {max(v):.2f} s)" for kind, v in sorted(kinds.items())) +
        f"; statuses {dict(sorted(statuses.items()))}; unfinished at the end: {', '.join(unfinished) or 'none'}")
    got: dict[str, Counter[int]] = defaultdict(Counter)
    for stranger in result["strangers"]:
        for kind, counts in stranger.statuses.items():
            got[kind].update(counts)
    print("  strangers: " + "; ".join(f"{kind} {dict(sorted(c.items()))}" for kind, c in sorted(got.items())))
    errors = phone_errors + [e for a in (*abusers, *result["strangers"]) for e in a.errors]
    fives = [e for e in errors if "HTTP 5" in e]
    shown = sorted(set(fives)) + sorted(set(errors) - set(fives))  # the 5xx first
    print(f"  errors: {len(errors)} ({len(fives)} 5xx; target no 5xx: {'met' if not fives else 'MISSED'})" +
          "".join(f"\n    {e[:300]}" for e in shown[:10]))
    if fives:  # what the server said about it
        log = result["log"].read_text(errors="replace")
        last = log.rfind("Traceback")
        if last >= 0:
            print("    the server's last traceback:\n      " + "\n      ".join(log[last:].splitlines()[:40]))
    print(f"  database check: {len(result['acked'])} deals acknowledged; lost {len(result['lost'])}, "
          f"doubled or extra {len(result['doubled'])}", flush=True)
    return not errors and not result["lost"] and not result["doubled"]


def abuse(runs: int, clients: int, threads: int, seconds: float, folder: Path,
          kinds: tuple[str, ...] = STRANGERS) -> bool:
    print(f"\nabuse phase, behind nginx with PROXIES=1: {clients} phones record a deal every {PACE_S} s each, "
          f"{seconds:.0f} s alone, then {seconds:.0f} s while {ABUSERS} abusers loop over results.pdf (a4, letter), "
          f"rescore under every preset and the game's JSON with {HOSTS} Host values, on the largest game the "
          f"limits allow, and strangers poison the site root, write without a key from {KEYLESS_PHONES} phones' "
          f"addresses, ask for {RESCORERS} x uncached rescores and hold {IDLE} idle connections", flush=True)
    if not Nginx.available():
        raise SystemExit("the abuse phase runs behind nginx: apt-get install nginx openssl")
    source = folder / "largest.sqlite"
    game_id, built = build_largest_game(source)
    print(f"largest game: {built}; strangers: {', '.join(kinds)}", flush=True)
    ok = True
    for n in range(1, runs + 1):
        result = abuse_run(n, runs, source, game_id, clients, threads, seconds, folder, kinds)
        ok = abuse_report(result) and ok
    return ok


# -- the load phase on SQLite and PostgreSQL ------------------------------------------------------

BACKEND_RUNS = 3  # runs of each backend
P99_RATIO_TARGET = 2.0  # PostgreSQL's median record p99 at most this times SQLite's


def summary_line(result: dict[str, Any]) -> tuple[float, float, float]:
    """The run's record p50 and p99 (ms) and its throughput (requests a second)."""
    record = result["times"].get("record", [])
    return (_quantile(record, 0.5) * 1000, _quantile(record, 0.99) * 1000, result["requests"] / result["elapsed"])


def show_logs(result: dict[str, Any]) -> None:
    """The servers' last words, after an error, a lost or a doubled deal."""
    if result["errors"] or result["lost"] or result["doubled"]:
        for log in result["logs"]:
            print(f"  {log.name}:\n{log.read_text(errors='replace')[-3000:]}")


def backends(url: str, servers: int, threads: int, clients: int, games: int, max_seconds: float,
             folder: Path) -> bool:
    """Three runs each, interleaved: SQLite (a fresh file) on one server, PostgreSQL (``url``)
    on ``servers``; each run's figures, then the medians and the target."""
    from scorepad.storage.backends import database

    print(f"\nSQLite (a fresh file each run) on one server, PostgreSQL ({database(url).path}) on {servers}; "
          f"{BACKEND_RUNS} runs each, interleaved", flush=True)
    plan = [("SQLite", None, 1), ("PostgreSQL", url, servers)] * BACKEND_RUNS
    rows: list[tuple[str, int, float, float, float, int, int, int]] = []
    ok = True
    for n, (backend, setting, count) in enumerate(plan, 1):
        print(f"\nrun {n} of {len(plan)}: {backend} on {count} server{'s' * (count > 1)}", flush=True)
        result = run(threads, clients, games, max_seconds, folder, setting, count, f"{backend.lower()}-{n}")
        ok = report(result, clients) and ok
        show_logs(result)
        p50, p99, rps = summary_line(result)
        errors, lost, doubled = len(result["errors"]), len(result["lost"]), len(result["doubled"])
        print(f"  {backend} run {(n + 1) // 2}: record p50 {p50:.2f} ms, p99 {p99:.2f} ms; {rps:.0f} requests/s; "
              f"errors {errors}, lost {lost}, doubled {doubled}", flush=True)
        rows.append((backend, count, p50, p99, rps, errors, lost, doubled))
    print(f"\n{'backend':10} {'servers':>7} {'record p50':>11} {'record p99':>11} {'req/s':>7} "
          f"{'errors':>6} {'lost':>5} {'doubled':>7}")
    for backend, count, p50, p99, rps, errors, lost, doubled in rows:
        print(f"{backend:10} {count:7d} {p50:8.2f} ms {p99:8.2f} ms {rps:7.0f} {errors:6d} {lost:5d} {doubled:7d}")
    medians = {}
    for backend in ("SQLite", "PostgreSQL"):
        mine = [r for r in rows if r[0] == backend]
        medians[backend] = [statistics.median(r[i] for r in mine) for i in (2, 3, 4)]
        p50, p99, rps = medians[backend]
        print(f"median {backend}: record p50 {p50:.2f} ms, p99 {p99:.2f} ms; {rps:.0f} requests/s")
    pg, lite = medians["PostgreSQL"][1], medians["SQLite"][1]
    print(f"PostgreSQL median record p99 {pg:.1f} ms vs SQLite {lite:.1f} ms: "
          f"within {P99_RATIO_TARGET:.0f}x: {'yes' if pg <= P99_RATIO_TARGET * lite else 'no'}")
    print(f"required: 0 errors, 0 lost, 0 doubled: {'met' if ok else 'MISSED'}", flush=True)
    return ok


def temporary_postgresql() -> Any:
    """``--database temporary``: a PostgreSQL cluster of its own (the tests' ``Cluster``, see
    the module's docstring), with PostgreSQL's durable defaults; stopped and removed after."""
    from tests.postgres import INSTALL, Cluster, programs

    bin_dir = programs()
    if bin_dir is None:
        raise SystemExit(INSTALL)
    cluster = Cluster(bin_dir, durable=True)
    try:
        cluster.start()
    except (RuntimeError, OSError, subprocess.TimeoutExpired) as err:
        cluster.stop()
        raise SystemExit(f"PostgreSQL could not be started: {err}") from None
    return cluster


@contextmanager
def checkout_of(rev: str, folder: Path) -> Iterator[Path]:
    """A detached ``git worktree`` of ``rev`` in ``folder``, removed after."""
    where = folder / f"checkout-{rev}"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(where), rev], check=True)
    try:
        yield where
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(where)], check=False)


def closed_loop(rev: str, runs: int, threads: int, clients: int, games: int, folder: Path) -> bool:
    """Closed-loop deals/s (the load phase, ``clients`` phones), this checkout against ``rev``, interleaved."""
    rates: dict[str, list[float]] = {"this checkout": [], rev: []}
    with checkout_of(rev, folder) as other:
        for root in (ROOT, other):  # what each server will import, run as they are
            found = subprocess.run([sys.executable, "-c", "import scorepad; print(scorepad.__file__)"], cwd=root,
                                   env={**os.environ, "PYTHONPATH": str(root)}, capture_output=True, text=True)
            print(f"serving {found.stdout.strip() or found.stderr.strip()}")
        for k in range(runs):
            for name, root in (("this checkout", ROOT), (rev, other)):
                print(f"\n## closed loop, run {k + 1} of {runs}: {name} ({root})", flush=True)
                label = f"closed-{k}-{'ours' if root == ROOT else 'theirs'}"
                result = run(threads, clients, games, 120.0, folder, label=label, root=root)
                report(result, clients)
                deals = result["acked"] / result["elapsed"]
                rates[name].append(deals)
                p50, p99, _ = summary_line(result)
                print(f"  {name}: {deals:.1f} deals/s, record p50 {p50:.2f} ms, p99 {p99:.2f} ms", flush=True)
    ours, theirs = statistics.median(rates["this checkout"]), statistics.median(rates[rev])
    ratio = ours / theirs
    met = "met" if ratio >= TARGET_CLOSED_RATIO else "MISSED"
    print(f"\nclosed loop, {clients} phones: this checkout {ours:.1f} deals/s, {rev} {theirs:.1f} deals/s (medians of "
          f"{runs}): {ratio:.2f}x; target >= {TARGET_CLOSED_RATIO}: {met}")
    return ratio >= TARGET_CLOSED_RATIO


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=16, help="concurrent phones (default 16)")
    parser.add_argument("--games", type=int, default=10, help="games each phone plays, one after another (default 10)")
    parser.add_argument("--server-threads", type=int, default=4, help="the server's --threads (default 4)")
    parser.add_argument("--compare", help="comma-separated server thread counts to run one after another, e.g. 4,8")
    parser.add_argument("--max-seconds", type=float, default=120.0, help="no new game after this (default 120)")
    parser.add_argument("--phases", default="load,abuse", help="which to run: load, abuse or both (default)")
    parser.add_argument("--runs", type=int, default=3, help="runs of the abuse phase (default 3)")
    parser.add_argument("--phase-seconds", type=float, default=20.0,
                        help="seconds the phones record without abusers, then with them (default 20)")
    parser.add_argument("--strangers", default=",".join(STRANGERS),
                        help=f"the abuse phase's strangers, of {','.join(STRANGERS)} (default all)")
    parser.add_argument("--database", help="a postgresql:// URL, or 'temporary' (a cluster of its own): the load "
                                           f"phase runs {BACKEND_RUNS} times on SQLite, {BACKEND_RUNS} on it")
    parser.add_argument("--servers", type=int, default=1,
                        help="servers (processes) on the one database; with --database, PostgreSQL's (default 1)")
    parser.add_argument("--paced", action="store_true", help="a club paced as phones at tables are (bench/paced.py), "
                                                              "instead of the phases")
    parser.add_argument("--phones", default="64,256,1024", help="with --paced: phones per round (default 64,256,1024)")
    parser.add_argument("--seconds", type=float, default=60.0, help="with --paced: seconds a round (default 60)")
    parser.add_argument("--against", help="a commit to compare the load phase's deals/s with, interleaved (e.g. "
                                          "d0e821c, the commit before the speed issue: target 1.8x at 16 clients)")
    parser.add_argument("--closed-runs", type=int, default=2, help="with --against: runs of each (default 2)")
    args = parser.parse_args(argv)
    if args.paced or args.against:
        return paced_and_closed(parser, args)
    counts = [int(x) for x in args.compare.split(",")] if args.compare else [args.server_threads]
    phases = set(args.phases.split(","))
    kinds = tuple(k for k in STRANGERS if k in args.strangers.split(","))
    if set(args.strangers.split(",")) - set(STRANGERS) - {""}:
        parser.error(f"--strangers takes some of {','.join(STRANGERS)}")
    if not 0 < args.clients <= 64 or not 0 < args.games <= 20 or not 0 < args.max_seconds <= 600 \
            or not all(0 < t <= 64 for t in counts) or not 0 < args.runs <= 10 \
            or not 0 < args.phase_seconds <= 300 or not phases or not phases <= {"load", "abuse"} \
            or not 0 < args.servers <= 8:
        parser.error("keep it bounded: clients 1..64, games 1..20 (the create limit is 20 a minute per address), "
                     "max-seconds (0, 600], threads 1..64, runs 1..10, phase-seconds (0, 300], "
                     "phases load and/or abuse, servers 1..8")
    if args.database and not (args.database == "temporary" or args.database.startswith(("postgresql://",
                                                                                        "postgres://"))):
        parser.error("--database takes a postgresql:// URL or 'temporary'")
    if args.database and args.compare:
        parser.error("--database compares backends at one thread count: leave out --compare")

    print("$ " + shlex.join([Path(sys.executable).name, *sys.argv]), flush=True)
    print(f"{os.cpu_count()} CPU(s); each phone from its own loopback address (127.0.0.10, ...)")
    folder = Path(tempfile.mkdtemp(prefix="scorepad-load-"))
    cluster = temporary_postgresql() if args.database == "temporary" and "load" in phases else None
    ok = True
    summary = []
    try:
        if args.database and "load" in phases:
            url = cluster.new_database() if cluster else args.database
            ok = backends(url, args.servers, counts[0], args.clients, args.games, args.max_seconds, folder)
        for threads in counts if "load" in phases and not args.database else []:
            result = run(threads, args.clients, args.games, args.max_seconds, folder, servers=args.servers)
            ok = report(result, args.clients) and ok
            p50, p99, rps = summary_line(result)
            summary.append((threads, rps, p50, p99))
            show_logs(result)
        if len(summary) > 1:
            print("\nserver threads     req/s   record p50   record p99")
            for threads, rps, p50, p99 in summary:
                print(f"  {threads:16d} {rps:7.0f} {p50:9.2f} ms {p99:9.2f} ms")
        if "abuse" in phases:
            ok = abuse(args.runs, args.clients, counts[0], args.phase_seconds, folder, kinds) and ok
    finally:
        if cluster:
            cluster.stop()
        shutil.rmtree(folder)  # the bench's own temporary folder (its files, nginx's prefix)
    return 0 if ok else 1


def paced_and_closed(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """``--paced`` (bench/paced.py's rounds) and/or ``--against`` (the load phase against another commit)."""
    counts = [int(x) for x in args.phones.split(",") if x] if args.paced else []
    if not all(paced.PHONES_AT_A_TABLE <= c <= paced.MOST_PHONES and c % paced.PHONES_AT_A_TABLE == 0 for c in counts) \
            or not 0 < args.seconds <= 120 or not 0 < args.server_threads <= 64 or not 0 < args.closed_runs <= 5 \
            or not 0 < args.clients <= 64 or not 0 < args.games <= 20:
        parser.error(f"keep it bounded: phones multiples of {paced.PHONES_AT_A_TABLE} up to {paced.MOST_PHONES}, "
                     "seconds (0, 120], threads 1..64, closed-runs 1..5, clients 1..64, games 1..20")
    print("$ " + shlex.join([Path(sys.executable).name, *sys.argv]), flush=True)
    print(f"{os.cpu_count()} CPU(s)")
    folder = Path(tempfile.mkdtemp(prefix="scorepad-paced-"))
    try:
        ok = paced.rounds(counts, args.seconds, args.server_threads, folder)
        if args.against:
            ok = closed_loop(args.against, args.closed_runs, args.server_threads, args.clients, args.games,
                             folder) and ok
    finally:
        shutil.rmtree(folder)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
