"""How fast the web app answers under each server, next to a bare Flask "hello"; how heavy
the deal page is; and whether a request is answered while connections are held half-open.

Run from the repository root::

    python bench/web.py [--seconds 5] [--procs 2] [--threads 4] [--rounds 3]
                        [--servers granian,waitress,gunicorn]

For each server compared (granian, the production server, first; then waitress and gunicorn
with threads, ``-k gthread``, those installed: ``pip install waitress gunicorn``) it starts
two servers with ``--server-threads`` threads (4) in one process, each in its own subprocess
on a free loopback port:

* scorepad itself, on a fresh SQLite file in a temporary folder given as
  ``SCOREPAD_DATABASE``, with no route added for the benchmark; under granian this is the
  production command, ``flask --app scorepad serve``;
* a bare Flask app with one route returning a short text (``web:hello_app``, the
  :func:`hello_app` below), the floor any Flask page stands on.

Through each scorepad's JSON API it creates a two-player game of the ``common`` preset and
records its four deals (``tests/data/game-four-deals.json``). Then, with ``procs`` client
processes of ``threads`` keep-alive connections each (``http.client``), for ``seconds``
seconds each after half a second of warm-up, it measures requests per second and the p50 /
p99 latencies of

* ``GET /games/<id>``: the game page (score table, chart, winner), as a viewer sees it;
* ``POST /api/v1/score``: scoring ``examples/deal.json``;
* ``GET /hello`` on the bare app;

interleaved: each of ``rounds`` rounds measures every route on every server, the servers'
order turned by one each round, so what else the machine does falls on all alike. It prints
each measurement, then the rounds' medians with each server's speed against waitress's, and
the ratios game page / hello on waitress (target at least 1.0) and on each server (target at
least 0.8 for the first, the production server); the game page is asked as a watching phone
asks, with the session cookie its first visit set (by the page's watch mark) and
``Accept-Encoding: gzip, deflate, br``. It also fetches the record-a-deal page
(``/games/<id>/deals/new``, with the edit rights the edit link ``/games/<id>/edit/<key>`` grants)
and everything it loads (stylesheets, scripts, the icon, the web app manifest and the icons it
names, the service worker its script installs), asked as a browser asks them
(``Accept-Encoding: gzip, deflate, br``), prints their sizes uncompressed and as sent, with
their totals (target: under 40 KB in all, uncompressed) and checks that no URL the page or its
stylesheets refer to (resources, links, form targets) is on another host. Last, for each
scorepad, it holds 300 connections that sent part of a request line and nothing more
(slowloris) and times one GET meanwhile (client timeout 5 s).

Exit status: 0 when every request succeeded and no URL is on another host (the
two size and speed targets are reported, not enforced: timings depend on the machine),
1 otherwise. Only loopback is used; the servers are stopped and the folder removed at the end.
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import json
import multiprocessing
import os
import re
import shlex
import socket
import subprocess
import sys
import tempfile
import threading
import time
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlparse

import brotli

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
RATIO_TARGET = 0.8  # the game page against a hello on the same server (issue 25)
WAITRESS_TARGET = 1.0  # the game page against a hello, both on waitress (issue 25)
SIZE_TARGET_KB = 40.0
WARMUP_S = 0.5
HALF_OPEN = 300  # connections a stranger holds open half-way (slowloris), in the last check


def hello_app():  # -> flask.Flask
    """The bare comparison app: one route, a short text (``web:hello_app``)."""
    from flask import Flask

    app = Flask("hello")

    @app.get("/hello")
    def hello() -> str:
        return "Hello, world!"

    return app


# -- servers ----------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


PRODUCTION = "scorepad:create_app"  # under granian: the production command itself, flask serve
KINDS = ("granian", "waitress", "gunicorn")


def command(kind: str, call: str, port: int, threads: int) -> list[str]:
    """How ``kind`` serves the WSGI factory ``call`` (``module:function``) with ``threads``
    threads in one process. scorepad under granian is ``flask --app scorepad serve``, what
    ships; anything else under granian is its CLI with the settings serve gives it."""
    py = [sys.executable, "-m"]
    if kind == "granian" and call == PRODUCTION:
        return py + ["flask", "--app", "scorepad", "serve", "--host", HOST, "--port", str(port),
                     "--threads", str(threads)]
    if kind == "granian":
        return py + ["granian", "--interface", "wsgi", "--factory", "--host", HOST, "--port", str(port),
                     "--workers", "1", "--blocking-threads", str(threads), "--backpressure", "1024",
                     "--http", "1", "--no-ws", "--http1-header-read-timeout", "10000", call]
    if kind == "waitress":
        return py + ["waitress", f"--host={HOST}", f"--port={port}", f"--threads={threads}", "--call", call]
    if kind == "gunicorn":  # gthread: one worker process, a thread pool
        return py + ["gunicorn", "--worker-class", "gthread", "--workers", "1", "--threads", str(threads),
                     "--bind", f"{HOST}:{port}", "--log-level", "warning", f"{call}()"]
    raise ValueError(kind)


def installed(kind: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(kind) is not None


class Server:
    """A server of ``kind`` (granian, the production server, unless told) in a subprocess,
    serving the factory ``call`` of the checkout ``root`` (this one unless told); its output
    goes to a log file."""

    def __init__(self, name: str, call: str, env: dict[str, str], folder: Path, threads: int,
                 kind: str = "granian", root: Path = ROOT) -> None:
        self.name, self.kind, self.port = name, kind, free_port()
        self.command = command(kind, call, self.port, threads)
        self.log = folder / f"{name}.log"
        with self.log.open("wb") as log:  # run in root: ``python -m`` imports from its folder first
            self.proc = subprocess.Popen(self.command, env={**os.environ, **env}, cwd=root,
                                         stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)

    def pids(self) -> list[int]:
        """The server's process and its children (granian's worker, gunicorn's): where its
        CPU time and memory go. Just the process where /proc is missing."""
        try:
            children = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children").read_text().split()
        except OSError:
            children = []
        return [self.proc.pid, *map(int, children)]

    def serving_pid(self) -> int:
        """The process that runs the app: the last child (the worker), else the process itself."""
        return self.pids()[-1]

    def wait_ready(self, path: str, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                break
            try:
                status, _, _ = request(self.port, "GET", path)
                if status < 500:
                    return
            except OSError:
                time.sleep(0.1)
        raise SystemExit(f"{self.name} server did not start; its log:\n{self.log.read_text()}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def request(port: int, method: str, path: str, body: Any = None,
            headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """One request on a fresh connection: (status, headers with lower-case names, body)."""
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    try:
        headers = dict(headers or {})
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        conn.request(method, path, body=data, headers=headers)
        resp = conn.getresponse()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read()
    finally:
        conn.close()


def api(port: int, method: str, path: str, body: Any = None, key: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    status, _, data = request(port, method, path, body, headers)
    if not 200 <= status < 300:
        raise SystemExit(f"{method} {path}: HTTP {status}: {data[:500]!r}")
    return json.loads(data)


# -- the load ---------------------------------------------------------------------------------------


def _client(port: int, method: str, path: str, body: bytes | None, headers: dict[str, str],
            start: float, stop: float, out: list[float], failures: list[str]) -> None:
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    clock = time.perf_counter
    try:
        while True:
            t0 = clock()
            if t0 >= stop:
                break
            conn.request(method, path, body=body, headers=headers)
            resp = conn.getresponse()
            resp.read()
            t1 = clock()
            if resp.status != 200:
                failures.append(f"HTTP {resp.status}")
                if len(failures) > 20:
                    break
            if t0 >= start:
                out.append(t1 - t0)
    except (OSError, http.client.HTTPException) as err:
        failures.append(repr(err))
    finally:
        conn.close()


def _process(args: tuple) -> tuple[list[float], list[str]]:
    """One client process: ``threads`` connections hammering the same request until ``stop``."""
    port, method, path, body, headers, threads, start, stop = args
    # perf_counter is not shared across processes: rebase the wall-clock window on it.
    now_wall, now_perf = time.time(), time.perf_counter()
    start, stop = now_perf + (start - now_wall), now_perf + (stop - now_wall)
    latencies: list[list[float]] = [[] for _ in range(threads)]
    failures: list[str] = []
    workers = [threading.Thread(target=_client, args=(port, method, path, body, headers, start, stop,
                                                      latencies[i], failures)) for i in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return [x for part in latencies for x in part], failures


def load(pool: Any, procs: int, threads: int, seconds: float, port: int, method: str, path: str,
         body: Any = None, sent: dict[str, str] | None = None) -> dict[str, Any]:
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json"} if data is not None else {}
    headers.update(sent or {})
    start = time.time() + 0.2 + WARMUP_S  # 0.2 s for the processes to pick the job up
    stop = start + seconds
    parts = pool.map(_process, [(port, method, path, data, headers, threads, start, stop)] * procs)
    latencies = sorted(x for lat, _ in parts for x in lat)
    failures = [f for _, fail in parts for f in fail]
    return {"count": len(latencies), "rps": len(latencies) / seconds, "failures": failures,
            "p50": _quantile(latencies, 0.50) * 1000, "p99": _quantile(latencies, 0.99) * 1000}


def _quantile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


# -- the deal page's weight -------------------------------------------------------------------------


class _Refs(HTMLParser):
    """What a page refers to: ``loads`` (kind, url) it fetches to show itself, and every URL
    in it at all (``urls``: links and form targets too), for the other-host check."""

    LOADS = {("link", "href"), ("script", "src"), ("img", "src"), ("img", "srcset"), ("source", "src"),
             ("source", "srcset"), ("iframe", "src"), ("video", "src"), ("audio", "src"),
             ("video", "poster"), ("embed", "src"), ("object", "data"), ("input", "src"),
             ("script", "data-worker")}  # the service worker static/install.js registers
    URL_ATTRS = {"href", "src", "srcset", "action", "formaction", "poster", "data", "cite", "ping", "data-worker"}

    def __init__(self) -> None:
        super().__init__()
        self.loads: list[tuple[str, str]] = []
        self.urls: list[str] = []
        self.inline_styles: list[str] = []
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for name, value in attrs:
            if not value:
                continue
            if name == "style":
                self.inline_styles.append(value)
            if name not in self.URL_ATTRS:
                continue
            urls = [part.split()[0] for part in value.split(",") if part.split()] if name == "srcset" else [value]
            self.urls += urls
            if (tag, name) in self.LOADS:
                kind = tag
                if tag == "link":
                    rel = (values.get("rel") or "").lower()
                    kind = "css" if "stylesheet" in rel else f"link[{rel}]"
                elif tag == "script":
                    kind = "worker" if name == "data-worker" else "js"
                self.loads += [(kind, url) for url in urls]
        self._in_style = tag == "style"

    def handle_endtag(self, tag: str) -> None:
        self._in_style = False

    def handle_data(self, data: str) -> None:
        if self._in_style:
            self.inline_styles.append(data)


CSS_URL = re.compile(r"""url\(\s*['"]?([^'")\s]+)['"]?\s*\)|@import\s+['"]([^'"]+)['"]""")


def _css_refs(css: str) -> list[str]:
    return [a or b for a, b in CSS_URL.findall(css) if not (a or b).startswith("data:")]


ASKED_CODINGS = {"Accept-Encoding": "gzip, deflate, br"}  # what a phone's browser sends
DECODERS = {"": lambda body: body, "gzip": gzip.decompress, "br": brotli.decompress}


def fetched(port: int, path: str, headers: dict[str, str] | None = None) -> tuple[int, bytes, bytes, str]:
    """GET ``path`` as a browser asks it (taking gzip and brotli): (status, the body decoded,
    the body as sent, its coding or "")."""
    status, answer, sent = request(port, "GET", path, headers={**ASKED_CODINGS, **(headers or {})})
    coding = answer.get("content-encoding", "")
    return status, DECODERS[coding](sent), sent, coding


def page_weight(port: int, page: str, cookie: str) -> dict[str, Any]:
    base = f"http://{HOST}:{port}"
    status, html, sent, coding = fetched(port, page, headers={"Cookie": cookie})
    if status != 200:
        raise SystemExit(f"GET {page}: HTTP {status}")
    parser = _Refs()
    parser.feed(html.decode("utf-8", "replace"))
    files = [("html", page, html, sent, coding)]
    here = f"{HOST}:{port}"
    offsite = [url for url in (urljoin(base + page, u) for u in parser.urls)
               if urlparse(url).scheme not in ("data", "") and urlparse(url).netloc != here]
    queue = [(kind, urljoin(base + page, url)) for kind, url in parser.loads]
    queue += [("css-url", urljoin(base + page, u)) for css in parser.inline_styles for u in _css_refs(css)]
    seen: set[str] = set()
    while queue:
        kind, url = queue.pop(0)
        if url in seen:
            continue
        seen.add(url)
        parts = urlparse(url)
        if parts.scheme == "data":
            continue
        if parts.scheme not in ("http", "https") or parts.netloc != here:
            if url not in offsite:
                offsite.append(url)
            continue
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        status, body, sent, coding = fetched(port, path)
        if status != 200:
            raise SystemExit(f"GET {path} (referenced by {page}): HTTP {status}")
        files.append((kind.removeprefix("link[").rstrip("]"), path, body, sent, coding))
        if kind == "link[manifest]":  # its icons: the browser fetches them to install the app
            queue += [("icon", urljoin(url, icon["src"])) for icon in json.loads(body).get("icons", [])]
        if kind == "css":
            queue += [("css" if ref.split("?")[0].endswith(".css") else "css-url", urljoin(url, ref))
                      for ref in _css_refs(body.decode("utf-8", "replace"))]
    total = sum(len(body) for _, _, body, _, _ in files)
    sent_total = sum(len(sent) for _, _, _, sent, _ in files)
    return {"files": [(kind, path, len(body), len(sent), coding) for kind, path, body, sent, coding in files],
            "total": total, "sent": sent_total, "offsite": offsite, "urls": parser.urls}


# -- the run ----------------------------------------------------------------------------------------


def half_open(port: int, count: int = HALF_OPEN, timeout: float = 5.0) -> float | None:
    """Hold ``count`` connections that sent part of a request line and nothing more, and time
    one ordinary GET meanwhile (client timeout ``timeout``): its latency in ms, or None when it
    got no answer in time."""
    held: list[socket.socket] = []
    try:
        for _ in range(count):
            sock = socket.create_connection((HOST, port), timeout=timeout)
            held.append(sock)
            sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
        time.sleep(0.2)
        conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
        t0 = time.perf_counter()
        try:
            conn.request("GET", "/api/v1/sheets")
            response = conn.getresponse()
            response.read()
            return (time.perf_counter() - t0) * 1000 if response.status == 200 else None
        except OSError:
            return None
        finally:
            conn.close()
    except OSError:
        return None
    finally:
        for sock in held:
            sock.close()


def setup_game(port: int) -> tuple[str, str, dict[str, Any], list[dict[str, Any]]]:
    """A game of three deals (the fourth left to record), through the API: (id, key, the
    bench deal for /api/v1/score, the game's deals)."""
    data = json.loads((ROOT / "tests" / "data" / "game-four-deals.json").read_text())
    sides = [{"name": name, "players": [name]} for name in data["sides"]]
    game = api(port, "POST", "/api/v1/games", {"name": "Bench", "sheet": data["sheet"], "sides": sides})
    for deal in data["deals"][:3]:
        api(port, "POST", f"/api/v1/games/{game['id']}/deals", deal, game["edit_key"])
    deal_body = json.loads((ROOT / "examples" / "deal.json").read_text())
    api(port, "POST", "/api/v1/score", deal_body)
    return game["id"], game["edit_key"], deal_body, data["deals"]


def watcher(port: int, game_id: str) -> dict[str, str]:
    """What a watching phone sends with each look at the game page: the session cookie its
    first visit set (a phone keeps it: the page's watch mark, which the browser loads with
    it, sets it) and the encodings every browser takes."""
    status, _, html = request(port, "GET", f"/games/{game_id}")
    marks = re.findall(r'<img src="([^"]+/watching)"', html.decode("utf-8", "replace"))
    if status != 200 or len(marks) != 1:
        raise SystemExit(f"the view link answered HTTP {status} without its watch mark")
    status, headers, _ = request(port, "GET", marks[0])
    if status != 204 or "set-cookie" not in headers:
        raise SystemExit(f"the watch mark answered HTTP {status} without a cookie")
    return {"Cookie": headers["set-cookie"].split(";", 1)[0], "Accept-Encoding": "gzip, deflate, br"}


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[len(ordered) // 2] if ordered else float("nan")


def main(argv: list[str] | None = None) -> int:  # noqa: C901 (arguments, runs and report in one script entry point)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="measuring time per request kind (default 5)")
    parser.add_argument("--procs", type=int, default=2, help="client processes (default 2)")
    parser.add_argument("--threads", type=int, default=4, help="keep-alive connections per client process (default 4)")
    parser.add_argument("--server-threads", type=int, default=4, help="each server's threads (default 4)")
    parser.add_argument("--servers", default=",".join(KINDS),
                        help="servers to compare, the first the one whose page weight is shown "
                             "(default granian,waitress,gunicorn; those not installed are left out)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the interleaved measurements (default 3)")
    args = parser.parse_args(argv)
    if not 0 < args.seconds <= 60 or not 0 < args.procs <= 8 or not 0 < args.threads <= 32 \
            or not 0 < args.rounds <= 10:
        parser.error("keep it bounded: seconds in (0, 60], procs in 1..8, threads in 1..32, rounds in 1..10")
    kinds = [kind.strip() for kind in args.servers.split(",") if kind.strip()]
    if not kinds or any(kind not in KINDS for kind in kinds):
        parser.error(f"--servers: a comma-separated list of {', '.join(KINDS)}")
    missing = [kind for kind in kinds if not installed(kind)]
    kinds = [kind for kind in kinds if kind not in missing]
    if not kinds:
        parser.error(f"none of the servers is installed: {', '.join(missing)}")

    print("$ " + shlex.join([Path(sys.executable).name, *sys.argv]), flush=True)
    for kind in missing:
        print(f"  {kind}: not installed (pip install {kind}), left out", flush=True)
    folder = Path(tempfile.mkdtemp(prefix="scorepad-bench-"))
    servers: list[Server] = []
    failed = False
    try:
        apps: dict[str, Server] = {}
        hellos: dict[str, Server] = {}
        for kind in kinds:
            apps[kind] = Server(f"scorepad-{kind}", PRODUCTION,
                                {"SCOREPAD_DATABASE": str(folder / f"bench-{kind}.sqlite"),
                                 "SCOREPAD_SECRET_KEY": "bench-" + os.urandom(16).hex(), "PYTHONPATH": str(ROOT)},
                                folder, args.server_threads, kind)
            hellos[kind] = Server(f"hello-{kind}", "web:hello_app", {"PYTHONPATH": str(ROOT / "bench")}, folder,
                                  args.server_threads, kind)
            servers += [apps[kind], hellos[kind]]
        for server in servers:
            print(f"  {server.name}: {shlex.join(server.command)}", flush=True)
        for kind in kinds:
            apps[kind].wait_ready("/")
            hellos[kind].wait_ready("/hello")
        games = {kind: setup_game(apps[kind].port) for kind in kinds}
        watchers = {kind: watcher(apps[kind].port, games[kind][0]) for kind in kinds}

        # The deal page's weight (with the edit rights; the game must not be over yet for it).
        first = kinds[0]
        game_id, key, deal_body, deals = games[first]
        app = apps[first]
        status, headers, _ = request(app.port, "GET", f"/games/{game_id}/edit/{key}")
        if status not in (302, 303) or "set-cookie" not in headers:
            raise SystemExit(f"the edit link answered HTTP {status} without a cookie")
        cookie = headers["set-cookie"].split(";", 1)[0]
        weight = page_weight(app.port, f"/games/{game_id}/deals/new", cookie)
        for kind in kinds:  # every game over: the page a viewer sees at the end
            game_k, key_k, _, deals_k = games[kind]
            api(apps[kind].port, "POST", f"/api/v1/games/{game_k}/deals", deals_k[3], key_k)

        print(f"\nthe deal page /games/<id>/deals/new and what it loads (bytes uncompressed, and as sent to "
              f"Accept-Encoding: {ASKED_CODINGS['Accept-Encoding']}; {first}):")
        for kind, path, size, sent_size, coding in weight["files"]:
            print(f"  {kind:5} {size:7,d} {sent_size:7,d} {coding or '-':4}  {path.replace(game_id, '<id>')}")
        total_kb = weight["total"] / 1024
        print(f"  total {total_kb:.1f} KB uncompressed, {weight['sent'] / 1024:.1f} KB as sent; target < "
              f"{SIZE_TARGET_KB:.0f} KB uncompressed: {'met' if total_kb < SIZE_TARGET_KB else 'MISSED'}")
        if weight["offsite"]:
            failed = True
            print("  FAIL: refers to another host: " + ", ".join(weight["offsite"]))
        else:
            print(f"  every URL the page and its stylesheets refer to is on this host: yes "
                  f"({len(weight['urls'])} URLs)")

        # Throughput, interleaved: each round measures every route on every server, the
        # servers' order turned by one each round, so that what the machine does meanwhile
        # falls on all of them alike.
        print(f"\nload: {args.procs} client process(es) x {args.threads} keep-alive connections, "
              f"{args.seconds:g} s each after {WARMUP_S:g} s warm-up; {args.server_threads} server threads; "
              f"{args.rounds} interleaved round(s); {os.cpu_count()} CPU(s)")
        routes = [("hello", "GET /hello"), ("game", "GET /games/<id>"), ("score", "POST /api/v1/score")]
        results: dict[tuple[str, str], list[dict[str, Any]]] = {}
        ctx = multiprocessing.get_context("spawn")
        with ctx.Pool(args.procs) as pool:
            for n in range(args.rounds):
                order = kinds[n % len(kinds):] + kinds[:n % len(kinds)]
                for route, words in routes:
                    for kind in order:
                        game_k, _, body_k, _ = games[kind]
                        port, method, path, body = {
                            "hello": (hellos[kind].port, "GET", "/hello", None),
                            "game": (apps[kind].port, "GET", f"/games/{game_k}", None),
                            "score": (apps[kind].port, "POST", "/api/v1/score", body_k)}[route]
                        sent = watchers[kind] if route == "game" else None
                        res = load(pool, args.procs, args.threads, args.seconds, port, method, path, body, sent)
                        results.setdefault((route, kind), []).append(res)
                        print(f"  round {n + 1}  {kind:8} {route:5} {words:20} {res['rps']:8.0f} req/s   "
                              f"p50 {res['p50']:7.2f} ms   p99 {res['p99']:7.2f} ms   ({res['count']} requests)",
                              flush=True)
                        if res["failures"]:
                            failed = True
                            print(f"    FAIL: {len(res['failures'])} failed: {', '.join(sorted(set(res['failures'])))}")

        print("\nmedians of the rounds (req/s; p50 / p99 ms)" + (", and x waitress" if "waitress" in kinds else ""))
        for route, words in routes:
            base = _median([r["rps"] for r in results.get((route, "waitress"), [])]) if "waitress" in kinds else None
            for kind in kinds:
                runs = results[(route, kind)]
                rps = _median([r["rps"] for r in runs])
                times = f"{_median([r['p50'] for r in runs]):6.2f} / {_median([r['p99'] for r in runs]):6.2f}"
                versus = f"   {rps / base:4.2f}x" if base else ""
                print(f"  {route:5} {words:20} {kind:8} {rps:8.0f} req/s   {times} ms{versus}")
        def rps(route: str, kind: str) -> float:
            return _median([r["rps"] for r in results[(route, kind)]])
        if "waitress" in kinds:
            ratio = rps("game", "waitress") / rps("hello", "waitress")
            print(f"  game page / hello on waitress: {ratio:.2f}; target >= "
                  f"{WAITRESS_TARGET}: {'met' if ratio >= WAITRESS_TARGET else 'MISSED'}")
        for kind in kinds:
            ratio = rps("game", kind) / rps("hello", kind)
            print(f"  game page / hello on the same server ({kind}): {ratio:.2f}" + (
                f"; target >= {RATIO_TARGET}: {'met' if ratio >= RATIO_TARGET else 'MISSED'}" if kind == first else ""))

        print(f"\n{HALF_OPEN} half-open connections held (each sent part of a request line), then one GET "
              "(client timeout 5 s):")
        for kind in kinds:
            took = half_open(apps[kind].port)
            print(f"  {kind:8} " + ("no answer in 5 s" if took is None else f"answered in {took:.1f} ms"), flush=True)
    finally:
        for server in servers:
            server.stop()
        for server in servers:
            if server.proc.returncode not in (0, -15) or failed:
                print(f"\n{server.name} server log:\n{server.log.read_text()[-3000:]}")
        for path in sorted(folder.iterdir(), reverse=True):
            path.unlink()
        folder.rmdir()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
