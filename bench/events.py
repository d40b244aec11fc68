"""How many event streams (``GET /api/v1/games/<id>/events``) one server holds, and how soon a
write reaches them.

Run from the repository root::

    python bench/events.py [--listeners 1,10,100,256] [--writes 5] [--threads 4] [--across]

It starts ``python -m flask --app scorepad serve --threads N`` on a fresh SQLite file (with
``--across``, a second one on the same file, which the writes go through: the listeners'
server hears of them by reading the database, within a second, not at once), makes a game,
and for each number of listeners opens that many streams on the game, makes ``writes``
writes one after another (deal 1 recorded, deleted, recorded...), and times each event
from sending the write to each listener reading it. It prints, per number: the latency
(median, 99th percentile, most), the serving worker's threads and resident memory with the streams open, the time of a
``GET /revision`` meanwhile, and then whether one stream past MAX_EVENT_LISTENERS is a 503.
Timings are printed, not enforced.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorepad.rules.limits import MAX_EVENT_LISTENERS  # noqa: E402  (after the checkout is on the path)

TWO = [{"name": "Ann", "players": ["Ann"]}, {"name": "Bea", "players": ["Bea"]}]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def serve(database: Path, threads: int) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    env = {**os.environ, "SCOREPAD_DATABASE": str(database), "SCOREPAD_SECRET_KEY": "bench", "PYTHONPATH": str(ROOT)}
    server = subprocess.Popen([sys.executable, "-m", "flask", "--app", "scorepad", "serve", "--host", "127.0.0.1",
                               "--port", str(port), "--threads", str(threads)],
                              cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              start_new_session=True)
    for _ in range(600):
        try:
            call(port, "GET", "/api/v1/sheets")
            return server, port
        except OSError:
            time.sleep(0.1)
    raise SystemExit("the server did not start")


def call(port: int, method: str, path: str, body: object = None, key: str | None = None) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {key}"} if key else {})}
    conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
    response = conn.getresponse()
    data = response.read()
    conn.close()
    return response.status, json.loads(data) if data else {}


def deal(number: int) -> dict:
    """A legal deal on the common sheet (tests/helpers.py's valid_deal), sent as the table played it."""
    return {"deal": number, "repeat": True, "ending": "went_out", "went_out": "Ann", "sides": [
        {"name": "Ann", "melds": ["K K K K K K K", "Q Q Q Q Q 2 2"],
         "players": [{"name": "Ann", "foot_picked_up": True, "cards_left": {}}]},
        {"name": "Bea", "melds": ["J J J"],
         "players": [{"name": "Bea", "foot_picked_up": True, "cards_left": "A 3B"}]}]}


class Listener(threading.Thread):
    """One stream, read on a thread of its own; ``heard[revision]`` is when each event was read."""

    def __init__(self, port: int, game_id: str) -> None:
        super().__init__(daemon=True)
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.conn.request("GET", f"/api/v1/games/{game_id}/events")
        self.sock = self.conn.sock
        self.response = self.conn.getresponse()
        self.heard: dict[int, float] = {}
        self.first = threading.Event()

    def run(self) -> None:
        try:
            while line := self.response.readline():
                if line.startswith(b"id: "):
                    self.heard[int(line[4:])] = time.monotonic()
                    self.first.set()
        except (OSError, ValueError, AttributeError):  # closed by close(), from the other thread
            pass

    def close(self) -> None:
        """The connection shut (the reading thread then finds its end): the response would hold it open."""
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.conn.close()


def worker_status(server: subprocess.Popen[bytes]) -> tuple[int, int]:
    """The serving worker's threads and resident memory (KB): granian's child of ``server``."""
    try:
        with open(f"/proc/{server.pid}/task/{server.pid}/children") as children:
            pid = int(children.read().split()[0])
        with open(f"/proc/{pid}/status") as status:
            fields = dict(line.split(":", 1) for line in status)
        return int(fields["Threads"]), int(fields["VmRSS"].split()[0])
    except (OSError, IndexError, KeyError):
        return 0, 0


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def measure(port: int, write_port: int, server: subprocess.Popen[bytes], count: int, writes: int) -> str:
    status, made = call(write_port, "POST", "/api/v1/games", {"name": "Events", "sheet": "common", "sides": TWO})
    assert status == 201, made
    game_id, key = made["id"], made["edit_key"]
    listeners = [Listener(port, game_id) for _ in range(count)]
    for listener in listeners:
        listener.start()
    for listener in listeners:
        assert listener.first.wait(30), "a stream sent no first event"
    threads, rss = worker_status(server)
    latencies: list[float] = []
    for number in range(1, writes + 1):
        written = time.monotonic()  # from sending the write: its event may be read before its answer is
        if number % 2:  # deal 1 recorded, then deleted, and again: each moves the revision (the game never ends)
            status, body = call(write_port, "POST", f"/api/v1/games/{game_id}/deals", deal(1), key)
        else:
            status, body = call(write_port, "DELETE", f"/api/v1/games/{game_id}/deals/1", None, key)
        assert status in (200, 201), body
        deadline = written + 10
        while time.monotonic() < deadline and any(number not in listener.heard for listener in listeners):
            time.sleep(0.002)
        latencies += [listener.heard.get(number, deadline) - written for listener in listeners]
        time.sleep(0.2)
    started = time.monotonic()
    call(port, "GET", f"/api/v1/games/{game_id}/revision")
    poll = time.monotonic() - started
    for listener in listeners:
        listener.close()
    ms = [latency * 1000 for latency in latencies]
    return (f"{count:4} listeners: write to event median {percentile(ms, 0.5):6.1f} ms, p99 {percentile(ms, 0.99):6.1f}"
            f" ms, most {max(ms):6.1f} ms; worker {threads} threads, {rss / 1024:.0f} MB; GET /revision meanwhile "
            f"{poll * 1000:.1f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--listeners", default=f"1,10,100,{MAX_EVENT_LISTENERS}")
    parser.add_argument("--writes", type=int, default=5)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--across", action="store_true", help="write through a second server on the same database")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="scorepad-events-"))
    database = folder / "events.sqlite"
    print(f"flask serve --threads {args.threads}, MAX_EVENT_LISTENERS {MAX_EVENT_LISTENERS}; writes through "
          f"{'another server' if args.across else 'the same server'}; fresh servers for each number of listeners")
    for count in [int(n) for n in args.listeners.split(",")] + [0]:
        # fresh servers each time: the streams closed by the last round hold their threads until a heartbeat finds them
        server, port = serve(database, args.threads)
        other, write_port = serve(database, args.threads) if args.across else (None, port)
        try:
            if count:
                print(measure(port, write_port, server, count, args.writes), flush=True)
                continue
            idle_threads, idle_rss = worker_status(server)
            status, made = call(port, "POST", "/api/v1/games", {"name": "Full", "sheet": "common", "sides": TWO})
            held = [Listener(port, made["id"]) for _ in range(MAX_EVENT_LISTENERS)]
            refused = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            refused.request("GET", f"/api/v1/games/{made['id']}/events")
            answer = refused.getresponse()
            print(f"worker idle: {idle_threads} threads, {idle_rss / 1024:.0f} MB; with {MAX_EVENT_LISTENERS} streams "
                  f"open, stream {MAX_EVENT_LISTENERS + 1}: {answer.status}, Retry-After "
                  f"{answer.getheader('Retry-After')}")
            for listener in held:
                listener.close()
        finally:
            for proc in (server, other):
                if proc is not None:
                    os.killpg(proc.pid, 15)
                    proc.wait(60)
    for child in folder.iterdir():
        child.unlink()
    folder.rmdir()
    return 0


if __name__ == "__main__":
    sys.exit(main())
