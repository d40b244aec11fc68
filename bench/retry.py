"""What an ``Idempotency-Key`` costs: recording deals with and without one, and a retry.

Run from the repository root::

    python bench/retry.py [--games 40] [--runs 3]

In process, through the Flask test client, on a fresh SQLite file in a temporary folder:
``games`` games of the ``common`` preset for two each get the four deals of
``tests/data/game-four-deals.json`` recorded (``POST /api/v1/games/<id>/deals`` with the
revision), once without the header and once with a new key per deal; then each of those
keyed deals is sent again with its key (a replay: the first answer, nothing written). It
prints the median time per request of each, over ``runs`` runs, and the rows the key table
holds. Timings are printed, not enforced.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorepad import create_app  # noqa: E402

TWO = [{"name": "Ann", "players": ["Ann"]}, {"name": "Bea", "players": ["Bea"]}]
DEALS = json.loads((ROOT / "tests" / "data" / "game-four-deals.json").read_text(encoding="utf-8"))["deals"]


def play(client, games: int, keyed: bool) -> tuple[list[float], list[tuple[str, str, dict, dict]]]:
    """Seconds per record, and (url, key, body, auth) of each record."""
    times, sent = [], []
    for _ in range(games):
        made = client.post("/api/v1/games", json={"name": "Bench", "sheet": "common", "sides": TWO}).get_json()
        auth = {"Authorization": f"Bearer {made['edit_key']}"}
        for revision, deal in enumerate(DEALS):
            url, body = f"/api/v1/games/{made['id']}/deals", {**deal, "revision": revision}
            key = str(uuid.uuid4())
            headers = {**auth, "Idempotency-Key": key} if keyed else auth
            started = time.perf_counter()
            answer = client.post(url, json=body, headers=headers)
            times.append(time.perf_counter() - started)
            assert answer.status_code == 201, answer.get_data(as_text=True)
            sent.append((url, key, body, auth))
    return times, sent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    plain, keyed, replay = [], [], []
    for _ in range(args.runs):
        database = Path(tempfile.mkdtemp(prefix="scorepad-retry-")) / "retry.sqlite"
        client = create_app({"DATABASE": str(database), "RATELIMIT_ENABLED": False}).test_client()
        plain += play(client, args.games, keyed=False)[0]
        times, sent = play(client, args.games, keyed=True)
        keyed += times
        for url, key, body, auth in sent:
            started = time.perf_counter()
            answer = client.post(url, json=body, headers={**auth, "Idempotency-Key": key})
            replay.append(time.perf_counter() - started)
            assert answer.headers.get("Idempotent-Replayed") == "true"
        with sqlite3.connect(database) as conn:
            rows = conn.execute("SELECT count(*) FROM idempotency_key").fetchone()[0]
    ms = lambda xs: f"{statistics.median(xs) * 1000:.2f} ms"  # noqa: E731
    print(f"record without key {ms(plain)}; with key {ms(keyed)}; replay {ms(replay)}; "
          f"{len(plain)} records each way; {rows} keys kept by the last run")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
