"""A club on one server, paced as phones at tables are: ``python bench/load.py --paced``.

Run from the repository root::

    python bench/load.py --paced [--phones 64,256,1024] [--seconds 60] [--server-threads 4]
                         [--against d0e821c] [--closed-runs 2]

(``--against``: see ``bench/load.py``.)
For each N of ``--phones``, a fresh production server (``flask --app scorepad serve``, rate
limits on) on a fresh SQLite file, and N phones at N / 4 tables (each table one game of the
``common`` preset, Ann against Bea as in ``tests/data/game-four-deals.json``, created through
the API before the clock starts).
Each phone has its own keep-alive connection from its own loopback address (127.1.x.y), and
for ``--seconds`` seconds:

* ``poll``    ``GET /api/v1/games/<id>/revision`` every 4 s, as ``static/live.js`` does
  (each phone from a random moment in its first 4 s);
* ``record``  ``POST /api/v1/games/<id>/deals`` once every 60 s, the table's next deal with
  the revision last polled and an ``Idempotency-Key``: the four phones of a table 15 s apart,
  the tables spread evenly over the minute. A 409 (another phone of the table wrote first)
  is counted as a conflict, the revision read again and the deal sent again; a deal the
  table's game cannot take (four already) is not sent.

The phones are one asyncio loop in this process (a thread a phone would measure the bench's
own GIL). It prints, per N: polls/s and writes/s, p50 / p99 / max of each, errors (any
answer but 2xx and the conflicts, and any broken connection), then opens the database:
every deal answered 2xx must be stored once with the body answered (``lost``, ``doubled``:
``bench/load.py``'s check). Target at 1,024 phones (256 tables): poll and record p99 under
50 ms, 0 errors, 0 lost, 0 doubled (printed, never enforced).

Bounded: at most 1,024 phones (ulimit permitting: the soft limit on open files is raised to
the hard one), 120 s a round. Exit status 1 on any error, lost or doubled deal.
"""

from __future__ import annotations

import asyncio
import json
import random
import resource
import shlex
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from web import HOST, ROOT, Server, _quantile  # noqa: E402  (bench/web.py: the same server harness)

sys.path.insert(1, str(ROOT))  # this checkout's scorepad, not an installed one
from acked import check_database, server_env  # noqa: E402  (bench/acked.py)

TARGET_P99_MS = 50.0
POLL_EVERY = 4.0  # seconds, as static/live.js
RECORD_EVERY = 60.0
PHONES_AT_A_TABLE = 4
MOST_PHONES = 1024
DEALS = json.loads((ROOT / "tests" / "data" / "game-four-deals.json").read_text())["deals"]


def paced_address(i: int) -> str:
    """Phone ``i``'s own loopback address: 127.1.0.1, 127.1.0.2, ... (all of 127/8 is loopback)."""
    return f"127.1.{i // 250}.{i % 250 + 1}"


class Connection:
    """One phone's keep-alive HTTP/1.1 connection from its own address (answers with a Content-Length)."""

    def __init__(self, port: int, address: str) -> None:
        self.port, self.address = port, address
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def call(self, method: str, path: str, body: Any = None,
                   headers: dict[str, str] | None = None) -> tuple[int, Any]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(HOST, self.port, local_addr=(self.address, 0))
        assert self.reader is not None
        data = b"" if body is None else json.dumps(body).encode()
        head = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{self.port}", f"Content-Length: {len(data)}"]
        head += [f"{name}: {value}" for name, value in (headers or {}).items()]
        if body is not None:
            head.append("Content-Type: application/json")
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)
        try:
            status_line = await self.reader.readline()
            status = int(status_line.split()[1])
            length = None
            while (line := await self.reader.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode("latin-1").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            if length is None:
                raise ConnectionError("an answer without a Content-Length")
            raw = await self.reader.readexactly(length)
        except (OSError, ValueError, IndexError, asyncio.IncompleteReadError) as err:
            self.close()
            raise ConnectionError(f"{method} {path}: {err!r}") from None
        return status, json.loads(raw) if raw[:1] in (b"{", b"[") else raw

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


@dataclass
class Table:
    game_id: str
    key: str
    sent: int = 0  # deals sent to it (answered or not)
    acked: list[tuple[str, int, int, dict[str, Any]]] = field(default_factory=list)


@dataclass
class Tally:
    times: dict[str, list[float]] = field(default_factory=lambda: {"poll": [], "record": []})
    errors: list[str] = field(default_factory=list)
    conflicts: int = 0
    not_sent: int = 0


class Phone:
    """Phone ``i`` of ``n``, at ``table``: polls every 4 s and records at its moment of each minute."""

    def __init__(self, i: int, n: int, table: Table, port: int, tally: Tally) -> None:
        self.table, self.tally = table, tally
        self.conn = Connection(port, paced_address(i))
        self.base = f"/api/v1/games/{table.game_id}"
        self.revision = 0
        seat, tables = i % PHONES_AT_A_TABLE, n // PHONES_AT_A_TABLE
        self.record_at = (seat * RECORD_EVERY / PHONES_AT_A_TABLE  # the table's phones 15 s apart, tables spread
                          + (i // PHONES_AT_A_TABLE) * RECORD_EVERY / PHONES_AT_A_TABLE / max(1, tables))

    async def evening(self, start: float, seconds: float) -> None:
        loop = asyncio.get_running_loop()
        next_poll, next_record, end = start + random.uniform(0, POLL_EVERY), start + self.record_at, start + seconds
        try:
            while (moment := min(next_poll, next_record)) < end:
                await asyncio.sleep(max(0.0, moment - loop.time()))
                if moment == next_poll:
                    next_poll += POLL_EVERY
                    await self.poll()
                else:
                    next_record += RECORD_EVERY
                    await self.record()
        finally:
            self.conn.close()

    async def timed(self, route: str, method: str, path: str, body: Any = None,
                    headers: dict[str, str] | None = None) -> tuple[int, Any]:
        t0 = time.perf_counter()
        try:
            status, answer = await self.conn.call(method, path, body, headers)
        except ConnectionError as err:
            self.tally.errors.append(f"{route}: {err}")
            return 0, None
        self.tally.times[route].append(time.perf_counter() - t0)
        if not 200 <= status < 300 and status != 409:
            self.tally.errors.append(f"{route}: HTTP {status} {str(answer)[:200]}")
        return status, answer

    async def poll(self) -> bool:
        status, answer = await self.timed("poll", "GET", f"{self.base}/revision")
        if status == 200:
            self.revision = answer["revision"]
        return status == 200

    async def record(self) -> None:
        """The table's next deal, based on the revision last seen; sent again after a conflict."""
        table = self.table
        while self.revision < len(DEALS):
            deal = {k: v for k, v in DEALS[self.revision].items() if k != "deal"}
            table.sent += 1
            status, saved = await self.timed("record", "POST", f"{self.base}/deals",
                                             {**deal, "revision": self.revision},
                                             {"Authorization": f"Bearer {table.key}",
                                              "Idempotency-Key": str(uuid.uuid4())})
            if status == 409:  # another phone of the table wrote first: refused as stale, nothing written
                self.tally.conflicts += 1
                table.sent -= 1
                if await self.poll():
                    continue
            elif 200 <= status < 300:
                table.acked.append((table.game_id, saved["number"], saved["revision"], saved["deal"]))
                self.revision = saved["revision"]
            return
        self.tally.not_sent += 1


async def set_tables(port: int, count: int, first_address: int = 0) -> list[Table]:
    """``count`` games, each created from its own table's first address (the create limit is per client)."""
    sides = [{"name": "Ann", "players": ["Ann"]}, {"name": "Bea", "players": ["Bea"]}]  # as game-four-deals.json

    async def create(t: int) -> Table:
        conn = Connection(port, paced_address(first_address + t * PHONES_AT_A_TABLE))
        try:
            status, game = await conn.call("POST", "/api/v1/games", {"name": f"Table {t + 1}", "sheet": "common",
                                                                     "sides": sides})
        finally:
            conn.close()
        if status != 201:
            raise SystemExit(f"creating table {t + 1}'s game: HTTP {status} {game!r}")
        return Table(game["id"], game["edit_key"])

    tables: list[Table] = []
    for first in range(0, count, 64):
        tables += await asyncio.gather(*(create(t) for t in range(first, min(count, first + 64))))
    return tables


async def warm_up(port: int) -> None:
    """One game played through before the clock starts (not counted), so the server's first
    requests (imports, first connections, caches) are not measured."""
    [table] = await set_tables(port, 1, first_address=MOST_PHONES)
    phone = Phone(MOST_PHONES, MOST_PHONES, table, port, Tally())
    for _ in DEALS:
        await phone.poll()
        await phone.record()
    phone.conn.close()


def club(n: int, seconds: float, threads: int, folder: Path) -> bool:
    """One round of ``n`` phones on a fresh server; prints its figures; True if it met every target."""
    database = folder / f"paced-{n}.sqlite"
    server = Server(f"paced-{n}", "scorepad:create_app", server_env(database), folder, threads)
    print(f"\n$ {shlex.join(server.command)}", flush=True)
    tally = Tally()
    try:
        server.wait_ready("/api/v1/sheets")

        async def evening() -> list[Table]:
            await warm_up(server.port)
            tables = await set_tables(server.port, n // PHONES_AT_A_TABLE)
            start = asyncio.get_running_loop().time() + 0.5
            phones = [Phone(i, n, tables[i // PHONES_AT_A_TABLE], server.port, tally) for i in range(n)]
            await asyncio.gather(*(p.evening(start, seconds) for p in phones))
            return tables

        tables = asyncio.run(evening())
    finally:
        server.stop()
    acked = [a for t in tables for a in t.acked]
    lost, doubled = check_database(database, acked, {t.game_id: t.sent for t in tables})
    print(f"  {n} phones at {len(tables)} tables for {seconds:.0f} s on {threads} server threads:")
    ok = True
    for route in ("poll", "record"):
        values = sorted(tally.times[route])
        if not values:
            print(f"  {route:7s} none")
            ok = False
            continue
        p50, p99 = _quantile(values, 0.5) * 1000, _quantile(values, 0.99) * 1000
        print(f"  {route:7s} {len(values) / seconds:7.1f}/s   p50 {p50:6.2f} ms   p99 {p99:6.2f} ms   "
              f"max {values[-1] * 1000:7.2f} ms   ({len(values)} answered)")
        ok = ok and p99 < TARGET_P99_MS
    print(f"  errors {len(tally.errors)}, lost {len(lost)}, doubled {len(doubled)}; conflicts {tally.conflicts} "
          f"(sent again), deals not sent (game full) {tally.not_sent}, deals stored {len(acked)}")
    for line in (tally.errors[:5] + lost[:5] + doubled[:5]):
        print(f"    {line}")
    ok = ok and not tally.errors and not lost and not doubled
    print(f"  target (p99 < {TARGET_P99_MS:.0f} ms, 0 errors, 0 lost, 0 doubled): {'met' if ok else 'MISSED'}")
    return ok


def rounds(counts: list[int], seconds: float, threads: int, folder: Path) -> bool:
    """A round of each N in ``counts``; True if every one met the targets."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # a socket a phone, here and in the server
    ok = True
    for n in counts:
        ok = club(n, seconds, threads, folder) and ok
    return ok
