"""The largest game the limits allow, read through every GET route of a game, cold.

Run from the repository root::

    python bench/large.py [--sides 2] [--server-threads 4] [--only .pdf]

It builds the largest game (``largest_game`` in ``tests/helpers.py``: deals saved as played
with 60 melds a side and hundreds of violations each, corrected until the game's stored deal
and history JSON is just under 2 MB) in a temporary SQLite file, through the JSON API of an
in-process app. Then, for each GET route on that game, it starts the production server::

    python -m flask --app scorepad serve --host 127.0.0.1 --port P --threads T

afresh, so the route's first request is cold (nothing read, judged or built yet), and prints
that request's time and the server's CPU time for it (a figure other processes on the machine
do not inflate), a second request's time (under another Host, as a different phone would
ask), and the answer's size. Targets (printed, never enforced: timings depend on the machine):
every GET cold under 300 ms (issue 25; it was 1 s), the game's JSON under 1 MB.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from helpers import largest_game, stored_bytes  # noqa: E402  (tests/helpers.py: the one builder)
from load import cpu_seconds  # noqa: E402  (bench/load.py)
from web import Server, request  # noqa: E402  (bench/web.py: the same server harness)

TARGET_COLD_S = 0.3
TARGET_JSON_BYTES = 1_000_000


def routes(game_id: str, key: str) -> list[tuple[str, bool]]:
    """Every GET route on a game: (path, whether it needs the edit rights of a session)."""
    g = f"/games/{game_id}"
    a = f"/api/v1/games/{game_id}"
    viewer = [g, f"{g}/history", f"{g}/sheet", f"{g}/deals/1", f"{g}/deals/100",
              f"{g}/referee", f"{g}/referee?ask=meld&rank=K&naturals=3&twos=1&jokers=0",
              f"{g}/rescore", f"{g}/rescore?sheet=pagat", f"{g}/rescore?sheet=bicycle",
              f"{g}/rescore?sheet=gather-together", f"{g}/rescore?sheet=pagat&deal=1",
              f"{g}/results.pdf", f"{g}/results.pdf?paper=a4", f"{g}/sheet.pdf", f"{g}/sheet.pdf?paper=a4",
              f"{g}/pad.pdf", f"{g}/pad.pdf?paper=a4", f"{g}/export.json", f"{g}/scores.csv",
              a, f"{a}/revision", f"{a}/history", f"{a}/deals/1", f"{a}/export", f"{a}/scores.csv",
              f"/api/v1/referee/games/{game_id}/rescore?sheet=pagat",
              f"/api/v1/referee/games/{game_id}/deals/1/explain"]
    editor = [g, f"{g}/deals/new", f"{g}/deals/1/edit", f"{g}/deals/1/delete", f"{g}/sheet/amend"]
    return [(path, False) for path in viewer] + [(path, True) for path in editor]


def build(database: Path, sides: int) -> tuple[str, str]:
    from scorepad.app import create_app

    app = create_app({"TESTING": True, "DATABASE": str(database), "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False,
                      "RATELIMIT_ENABLED": False})
    return largest_game(app.test_client(), sides=sides)


def import_line(game_id: str, env: dict[str, str], folder: Path, threads: int) -> str:
    """The game's export imported back (POST /api/v1/games/import) on a fresh server: a
    line of the table. Not a GET, so not held to the target; a client may send 20 a minute."""
    server = Server("large", "scorepad:create_app", env, folder, threads)
    try:
        server.wait_ready("/api/v1/sheets")
        _status, _h, exported = request(server.port, "GET", f"/api/v1/games/{game_id}/export")
        document = json.loads(exported)
        t0, cpu0 = time.perf_counter(), cpu_seconds(*server.pids())
        status, _h, _body = request(server.port, "POST", "/api/v1/games/import", document)
        took, cpu = time.perf_counter() - t0, cpu_seconds(*server.pids()) - cpu0
    finally:
        server.stop()
    label = f"POST /api/v1/games/import ({len(exported) / 1024:,.0f} KB export)"
    return f"{label:66} {status:>6} {took * 1000:>8.0f} {cpu * 1000:>7.0f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sides", type=int, default=2, help="sides of one player (default 2)")
    parser.add_argument("--server-threads", type=int, default=4, help="the server's --threads (default 4)")
    parser.add_argument("--only", default="", help="only the routes whose path holds this text, e.g. .pdf")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        database = folder / "large.sqlite"
        started = time.perf_counter()
        game_id, key = build(database, args.sides)
        print(f"built the largest game ({args.sides} sides) in {time.perf_counter() - started:.1f} s: "
              f"{stored_bytes(str(database), game_id):,} bytes of stored deal and history JSON")
        env = {"SCOREPAD_DATABASE": str(database), "SCOREPAD_SECRET_KEY": "bench"}
        print(f"\n{'route':66} {'status':>6} {'cold ms':>8} {'cpu ms':>7} {'again ms':>8} {'size KB':>8}")
        worst, failures = 0.0, []
        for path, as_editor in [(p, e) for p, e in routes(game_id, key) if args.only in p]:
            server = Server("large", "scorepad:create_app", env, folder, args.server_threads)
            try:
                server.wait_ready("/api/v1/sheets")
                headers = {}
                if as_editor:
                    _status, got, _body = request(server.port, "GET", f"/games/{game_id}/edit/{key}")
                    headers["Cookie"] = got["set-cookie"].split(";")[0]
                t0, cpu0 = time.perf_counter(), cpu_seconds(*server.pids())
                status, _h, body = request(server.port, "GET", path, headers={**headers, "Host": "cold.example"})
                cold, cpu = time.perf_counter() - t0, cpu_seconds(*server.pids()) - cpu0
                t0 = time.perf_counter()
                request(server.port, "GET", path, headers={**headers, "Host": "again.example"})
                again = time.perf_counter() - t0
            finally:
                server.stop()
            label = path.replace(game_id, "<id>").replace(key, "<key>") + ("  (editor)" if as_editor else "")
            print(f"{label:66} {status:>6} {cold * 1000:>8.0f} {cpu * 1000:>7.0f} {again * 1000:>8.0f} "
                  f"{len(body) / 1024:>8.0f}")
            worst = max(worst, cold)
            if status >= 500 or cold >= TARGET_COLD_S:
                failures.append(f"{label}: {status}, {cold:.2f} s cold")
            if path == f"/api/v1/games/{game_id}" and len(body) >= TARGET_JSON_BYTES:
                failures.append(f"{label}: {len(body):,} bytes, over {TARGET_JSON_BYTES:,}")
        if not args.only or args.only in "/api/v1/games/import":
            print(import_line(game_id, env, folder, args.server_threads))
        print(f"\nslowest cold GET: {worst * 1000:.0f} ms (target under {TARGET_COLD_S * 1000:.0f} ms)")
        print("targets met" if not failures else "targets missed:\n  " + "\n  ".join(failures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
