"""How much one client address can grow the database in a day, with the default limits.

Run from the repository root::

    python bench/growth.py [--postgresql]

A client address may start ``LIMIT_CREATE`` games a day (by default 200: 20 a minute, 200 a
day), each holding at most ``MAX_GAME_BYTES`` of deals and history as the store counts them
(2 MB); ``LIMIT_WRITE`` bounds writes per game and minute, not per address, so it does not
bound the day. What a game takes on disk is more than what the store counts (rows, indexes,
pages not full), and writes sent with an ``Idempotency-Key`` keep their answers for 24 hours
besides. This script measures, on a SQLite file (and with ``--postgresql`` on a throwaway
PostgreSQL server, ``tests/postgres.py``'s), the bytes on disk that each of these adds:

- the largest game written deal by deal (``largest_game`` in ``tests/helpers.py``), without
  keys, and again with an ``Idempotency-Key`` on every write;
- that game imported from its export (one request per game: what a stranger would send);

and prints each, and the worst case a day: the largest times the games a day. Figures, not
assertions.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from limits import parse_many

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from scorepad.app import create_app  # noqa: E402
from scorepad.ratelimit import DEFAULTS  # noqa: E402
from scorepad.rules.limits import MAX_GAME_BYTES  # noqa: E402
from tests.helpers import largest_game, sql  # noqa: E402  (tests/helpers.py: the one builder)
from tests.postgres import Cluster, programs  # noqa: E402  (a throwaway PostgreSQL server, with --postgresql)

MB = 1024 * 1024


class Keyed:
    """A test client that sends a new ``Idempotency-Key`` with every write."""

    def __init__(self, client: Any) -> None:
        self.client, self.application = client, client.application

    def get(self, *args: Any, **kwargs: Any) -> Any:
        return self.client.get(*args, **kwargs)

    def _keyed(self, method: Callable[..., Any], *args: Any, headers: dict[str, str] | None = None,
               **kwargs: Any) -> Any:
        return method(*args, headers={**(headers or {}), "Idempotency-Key": str(uuid.uuid4())}, **kwargs)

    def post(self, *args: Any, **kwargs: Any) -> Any:
        return self._keyed(self.client.post, *args, **kwargs)

    def put(self, *args: Any, **kwargs: Any) -> Any:
        return self._keyed(self.client.put, *args, **kwargs)


def on_disk(database: str) -> int:
    """The database's bytes on disk: a SQLite file once its WAL is checkpointed into it, or
    PostgreSQL's ``pg_database_size`` once a checkpoint has written everything."""
    if database.startswith("postgresql://"):
        sql(database, "CHECKPOINT")
        return int(sql(database, "SELECT pg_database_size(current_database())")[0][0])
    sql(database, "PRAGMA wal_checkpoint(TRUNCATE)")
    return Path(database).stat().st_size


def games_a_day() -> int:
    """The most games one address may start in a day under the default LIMIT_CREATE."""
    day = 86_400
    return min(item.amount * max(1, day // item.get_expiry()) for item in parse_many(DEFAULTS["LIMIT_CREATE"]))


def app_on(database: str) -> Any:
    return create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False,
                       "RATELIMIT_ENABLED": False})


def written(database: str) -> tuple[dict[str, int], bytes]:
    """On a SQLite file (``largest_game`` reads the file to know when to stop): the largest
    game written deal by deal, without keys and with them; and its export."""
    app = app_on(database)
    client = app.test_client()
    found: dict[str, int] = {}
    start = on_disk(database)
    game_id, _ = largest_game(client, database=database)
    found["largest game, written deal by deal"] = on_disk(database) - start
    document = client.get(f"/api/v1/games/{game_id}/export").get_data()
    start = on_disk(database)
    largest_game(Keyed(client), database=database)
    found["the same, an Idempotency-Key on every write (kept 24 h)"] = on_disk(database) - start
    return found, document


def imported(database: str, document: bytes, times: int = 3) -> dict[str, int]:
    """The export of the largest game imported ``times`` times (each with a key): bytes per game."""
    app = app_on(database)
    client = app.test_client()
    start = on_disk(database)
    for _ in range(times):
        made = client.post("/api/v1/games/import", data=document, content_type="application/json",
                           headers={"Idempotency-Key": str(uuid.uuid4())})
        assert made.status_code == 201, made.get_data(as_text=True)[:300]
    size = (on_disk(database) - start) // times
    app.extensions["scorepad.database"].close()
    return {f"that game imported ({len(document) / MB:.2f} MB export, one request; mean of {times})": size}


def report(name: str, found: dict[str, int]) -> None:
    most = max(found.values())
    per_day = games_a_day()
    print(f"{name}:")
    for what, size in found.items():
        print(f"  {what}: {size:,} bytes ({size / MB:.2f} MB, {size / MAX_GAME_BYTES:.2f} x MAX_GAME_BYTES)")
    print(f"  worst case a day from one address: {per_day} games x {most / MB:.2f} MB = {per_day * most / 2**30:.2f} GB"
          f" (LIMIT_CREATE {DEFAULTS['LIMIT_CREATE']!r})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgresql", action="store_true", help="measure PostgreSQL too (initdb, pg_ctl)")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        database = str(Path(folder) / "growth.sqlite")
        found, document = written(database)
        report("SQLite", {**found, **imported(database, document)})
    if options.postgresql:
        bin_dir = programs()
        if bin_dir is None:
            raise SystemExit("PostgreSQL is not installed (no initdb)")
        cluster = Cluster(bin_dir, durable=True)
        cluster.start()
        try:
            report("PostgreSQL", imported(cluster.new_database(), document))
        finally:
            cluster.stop()


if __name__ == "__main__":
    main()
