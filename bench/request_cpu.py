"""Where one request's CPU goes, in process: the closed loop's request mix (bench/load.py's
load phase) sent straight to the WSGI callable ``flask serve`` serves, its middleware and
rate limits included, with no server and no sockets.

Run from the repository root::

    python bench/request_cpu.py [--games 10] [--profile 40] [--checkout PATH]

It builds the app as granian's worker does (:func:`scorepad.cli.flask_serve.served_app`,
rate limits on, a fresh SQLite file in a temporary folder), plays one warm-up game from
each of 16 phone addresses, then ``--games`` games from each, one request at a time
(create; per deal read, record, poll; then the view link's page), and prints the CPU time
(``time.thread_time``: user and system, the commit's fsync included) per route, their
median and share, and the SQL statements each route runs (SQLite's trace). ``--profile N``
also prints the N functions of most CPU under ``cProfile`` (on ``time.process_time``; the
profiler's own cost inflates small functions, so read shares, not times). ``--checkout``
measures another checkout's ``scorepad`` (``git worktree add`` one) with this script.

The server's figure (bench/load.py's "ms a request") is higher: granian, and each trip into
SQLite letting go of the GIL for the other threads, cost a request more than here.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PHONES = 16


class Mix:
    """The closed loop's requests sent to ``app``: each route's CPU times and SQL statement counts."""

    def __init__(self, app: Any, statements: list[str], profile: cProfile.Profile | None) -> None:
        self.app, self.statements, self.profile = app, statements, profile
        self.deals = json.loads((ROOT / "tests" / "data" / "game-four-deals.json").read_text())["deals"]
        self.cpu: dict[str, list[float]] = defaultdict(list)
        self.sql: dict[str, list[int]] = defaultdict(list)

    def call(self, route: str, method: str, path: str, address: str, body: Any = None, key: str | None = None) -> Any:
        data = json.dumps(body).encode() if body is not None else b""
        environ = {"REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": "", "SERVER_NAME": "127.0.0.1",
                   "SERVER_PORT": "8000", "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": address,
                   "REMOTE_PORT": "50000", "SCRIPT_NAME": "", "HTTP_HOST": "127.0.0.1:8000",
                   "HTTP_ACCEPT_ENCODING": "identity", "wsgi.input": io.BytesIO(data), "wsgi.errors": sys.stderr,
                   "wsgi.url_scheme": "http", "wsgi.version": (1, 0), "wsgi.multithread": True,
                   "wsgi.multiprocess": False, "wsgi.run_once": False}
        if body is not None:
            environ.update(CONTENT_TYPE="application/json", CONTENT_LENGTH=str(len(data)))
        if key:
            environ["HTTP_AUTHORIZATION"] = f"Bearer {key}"
        status: list[str] = []
        self.statements.clear()
        if self.profile:
            self.profile.enable()
        started = time.thread_time()
        answer = self.app(environ, lambda given, headers, exc_info=None: status.append(given))
        raw = b"".join(answer)
        getattr(answer, "close", lambda: None)()
        self.cpu[route].append(time.thread_time() - started)
        if self.profile:
            self.profile.disable()
        self.sql[route].append(len(self.statements))
        if not status or not status[0].startswith(("200", "201")):
            raise SystemExit(f"{route} {path}: {status} {raw[:300]!r}")
        return json.loads(raw) if raw.startswith(b"{") else raw

    def play(self, n: int, address: str) -> None:
        """One game, as a phone of the closed loop plays it."""
        sides = [{"name": "Ann", "players": ["Ann"]}, {"name": "Bea", "players": ["Bea"]}]
        game = self.call("create", "POST", "/api/v1/games", address,
                         {"name": f"Load {n}", "sheet": "common", "sides": sides})
        base = f"/api/v1/games/{game['id']}"
        for deal in self.deals:
            now = self.call("read", "GET", base, address)
            sent = {k: v for k, v in deal.items() if k != "deal"}
            self.call("record", "POST", f"{base}/deals", address, {**sent, "revision": now["revision"]},
                      game["edit_key"])
            self.call("poll", "GET", f"{base}/revision", address)
        self.call("view", "GET", f"/games/{game['id']}", address)

    def report(self) -> None:
        total = sum(sum(times) for times in self.cpu.values())
        requests = sum(len(times) for times in self.cpu.values())
        print(f"{requests} requests, {total:.2f} s CPU: {total / requests * 1000:.3f} ms a request, "
              f"{sum(sum(n) for n in self.sql.values()) / requests:.1f} SQL statements a request")
        print(f"  {'route':8} {'count':>6} {'median ms':>10} {'share':>6} {'statements':>11}")
        for route, times in self.cpu.items():
            print(f"  {route:8} {len(times):6d} {statistics.median(times) * 1000:10.3f} {sum(times) / total:6.0%} "
                  f"{statistics.median(self.sql[route]):11.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10, help="games each phone plays (default 10; at most 19)")
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="print cProfile's top N functions")
    parser.add_argument("--checkout", type=Path, default=ROOT, help="the checkout whose scorepad is measured")
    args = parser.parse_args()
    sys.path.insert(0, str(args.checkout.resolve()))
    folder = tempfile.mkdtemp(prefix="scorepad-request-cpu-")
    os.environ.update({"SCOREPAD_DATABASE": f"{folder}/cpu.sqlite", "SCOREPAD_SECRET_KEY": "request-cpu",
                       "SCOREPAD_RATELIMIT_ENABLED": "true", "SCOREPAD_INSTANCE_PATH": folder})
    from scorepad.cli.flask_serve import served_app
    from scorepad.storage import db

    statements: list[str] = []
    connect = db.connect

    def traced(*given: Any, **named: Any) -> Any:
        conn = connect(*given, **named)
        conn.set_trace_callback(statements.append)
        return conn

    db.connect = traced  # type: ignore[assignment]
    warm = Mix(served_app("scorepad", None), statements, None)
    for phone in range(PHONES):  # imports, first connections, compiled statements: not measured
        warm.play(0, f"127.0.0.{10 + phone}")
    mix = Mix(warm.app, statements, cProfile.Profile(time.process_time) if args.profile else None)
    for n in range(1, min(args.games, 19) + 1):  # LIMIT_CREATE: 20 games a minute per address
        for phone in range(PHONES):
            mix.play(n, f"127.0.0.{10 + phone}")
    mix.report()
    if mix.profile:
        pstats.Stats(mix.profile).sort_stats("cumulative").print_stats(args.profile)


if __name__ == "__main__":
    main()
