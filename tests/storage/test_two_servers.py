"""Two app servers, one PostgreSQL database: what a host serving many tables runs.

Both servers are the production server (granian) in processes of their own
(:class:`tests.helpers.ProductionServer`), on one new database of the test worker's throwaway
PostgreSQL cluster. Phones race across them through the JSON API: every write is applied
once or refused (409, or 412 for ``If-Match``), never lost and never doubled, whichever
server each write came to; an ``Idempotency-Key`` sent to both at the same moment makes
one write, both answered alike. Whatever a server keeps per revision (the game, its JSON,
its page, its PDFs, a rescoring) is keyed on the stored revision: a write through one
server is seen at once through the other, and an ETag from one is answered by the other.
The database is then read through the store, as the app reads it.

Without PostgreSQL the tests skip (the ``postgresql`` fixture; under CI they fail).
"""

from __future__ import annotations

import http.client
import io
import json
import random
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from pypdf import PdfReader

from scorepad.storage import backends, db
from scorepad.storage.reading import history, load_game
from tests.helpers import ProductionServer, bearer, text_of
from tests.storage.test_two_phones import OPEN_ENDED, TWO, deal_body, marker_of

API = "/api/v1"
Answer = tuple[int, dict[str, str], bytes]  # status, headers (lower-case names), body


class Servers:
    """The two servers (``a`` and ``b``) and the URL of the database they share."""

    def __init__(self, url: str, a: ProductionServer, b: ProductionServer) -> None:
        self.url, self.a, self.b = url, a, b

    @property
    def both(self) -> tuple[ProductionServer, ProductionServer]:
        return self.a, self.b


@pytest.fixture(scope="module")
def servers(postgresql: Any, migrated_postgresql: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Servers]:
    """Two servers on one new, migrated PostgreSQL database, started together. A write
    waits up to 30 s for a lock (the idempotency test holds one while both servers queue).
    Both have the one PUBLIC_URL, as the README hosts them behind one address: the links each
    answer adds (a replay's too, which never keeps the edit link) are the same whichever answers."""
    url = postgresql.new_database(template=migrated_postgresql)
    folder = tmp_path_factory.mktemp("two-servers")
    env = {"SCOREPAD_BUSY_TIMEOUT": "30", "SCOREPAD_PUBLIC_URL": "https://cards.example"}
    # both processes start before either is awaited
    a = ProductionServer(url, str(folder / "a.log"), threads=4, env=env)
    b = ProductionServer(url, str(folder / "b.log"), threads=4, env=env)
    with a, b:
        yield Servers(url, a, b)


def request(server: ProductionServer, method: str, path: str, body: Any = None,
            headers: dict[str, str] | None = None) -> Answer:
    """One request on a connection of its own."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    try:
        return _send(conn, method, path, body, headers)
    finally:
        conn.close()


def _send(conn: http.client.HTTPConnection, method: str, path: str, body: Any,
          headers: dict[str, str] | None) -> Answer:
    headers = dict(headers or {})
    data = None
    if body is not None:
        data, headers["Content-Type"] = json.dumps(body).encode(), "application/json"
    conn.request(method, path, body=data, headers=headers)
    response = conn.getresponse()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()


class Phone:
    """A phone with a keep-alive connection to each server."""

    def __init__(self, servers: Servers) -> None:
        self.conns = {s.port: http.client.HTTPConnection("127.0.0.1", s.port, timeout=60) for s in servers.both}

    def send(self, server: ProductionServer, method: str, path: str, body: Any = None,
             headers: dict[str, str] | None = None) -> Answer:
        return _send(self.conns[server.port], method, path, body, headers)

    def close(self) -> None:
        for conn in self.conns.values():
            conn.close()


def new_game(server: ProductionServer, name: str) -> tuple[str, str]:
    status, _, raw = request(server, "POST", f"{API}/games", {"name": name, "sheet": OPEN_ENDED, "sides": TWO})
    assert status == 201, raw
    body = json.loads(raw)
    return body["id"], body["edit_key"]


@contextmanager
def reading(url: str) -> Iterator[None]:
    """The store, on the servers' database, as the app reads it (not from their caches)."""
    database = backends.database(url)
    try:
        with db.using(database):
            yield
    finally:
        database.close()


# -- phones racing across the two servers --------------------------------------------------------


def test_phones_racing_across_two_servers_get_each_write_applied_once_or_refused(servers):  # noqa: C901 (one race checked as a whole)
    """Two games, four phones on each, eight rounds. In each round every phone reads its
    game, all wait for each other, then each records the next deal or corrects one, based
    on the revision it read (in the body, or as the ETag in ``If-Match``), through one
    server; each phone goes to the other server the next round, and half of the phones of
    a game are on each. A recorded deal is then sent again with its Idempotency-Key to the
    other server, which must answer it the same and write nothing. Afterwards the database
    holds exactly the writes answered 2xx, each once, in revision order, as answered."""
    games = [new_game(servers.a, "Race A"), new_game(servers.b, "Race B")]
    rounds, phones_a_game = 8, 4
    barrier = threading.Barrier(len(games) * phones_a_game)
    lock = threading.Lock()
    outcomes: list[dict[str, Any]] = []
    markers = iter(range(1, 4096))

    def phone(g: int, n: int) -> None:
        game_id, key = games[g]
        base, me, rng = f"{API}/games/{game_id}", Phone(servers), random.Random(10 * g + n)
        try:
            for r in range(rounds):
                server, other = servers.both[(n + r) % 2], servers.both[(n + r + 1) % 2]
                status, answered, raw = me.send(server, "GET", base)
                assert status == 200, raw
                game = json.loads(raw)
                assert answered["etag"] == f'"{game_id}.{game["revision"]}"'
                with lock:
                    marker = next(markers)
                barrier.wait()
                headers = bearer(key)
                body = deal_body(marker)
                if n % 2:
                    headers["If-Match"] = answered["etag"]
                else:
                    body["revision"] = game["revision"]
                numbers = [d["number"] for d in game["deals"]]
                if numbers and rng.random() < 0.4:
                    method, path = "PUT", f"{base}/deals/{rng.choice(numbers)}"
                else:
                    method, path = "POST", f"{base}/deals"
                    headers["Idempotency-Key"] = f"deal-{marker}"
                status, answered, raw = me.send(server, method, path, body, headers)
                outcome = {"game": g, "phone": n, "round": r, "server": "ab"[(n + r) % 2], "marker": marker,
                           "based_on": game["revision"], "method": method, "status": status,
                           "answer": json.loads(raw), "problem": answered.get("content-type")}
                if method == "POST" and status == 201:  # the same request again, to the other server
                    again = me.send(other, method, path, body, headers)
                    outcome["again"] = again[0], again[1].get("idempotent-replayed"), again[2] == raw
                with lock:
                    outcomes.append(outcome)
                barrier.wait()
        finally:
            me.close()

    errors: list[BaseException] = []

    def guarded(g: int, n: int) -> None:
        try:
            phone(g, n)
        except BaseException as err:  # noqa: BLE001  (reported below; the barrier frees the others)
            errors.append(err)
            barrier.abort()

    threads = [threading.Thread(target=guarded, args=(g, n)) for g in range(len(games)) for n in range(phones_a_game)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors

    applied = [o for o in outcomes if o["status"] < 300]
    refused = [o for o in outcomes if o["status"] >= 300]
    counts = {s: (sum(o["server"] == s for o in applied), sum(o["server"] == s for o in refused)) for s in "ab"}
    print(f"two servers: {len(applied)} applied, {len(refused)} refused; per server (applied, refused): {counts}")

    # Applied (201 recorded, 200 corrected) or refused as stale: 409 for a body's revision, 412 for If-Match.
    for o in outcomes:
        expected = {"POST": 201, "PUT": 200}[o["method"]]
        assert o["status"] in (expected, 412 if o["phone"] % 2 else 409), o
        if o["status"] >= 300:
            assert o["problem"] == "application/problem+json", o
            error = o["answer"]["error"]
            assert error["field"] == ("If-Match" if o["phone"] % 2 else "revision"), o
            changes = o["answer"]["changes"]
            assert changes and all(c["revision"] > o["based_on"] for c in changes), o
        elif "again" in o:  # sent again with its key to the other server: the same answer, written once
            assert o["again"] == (201, "true", True), o
    # Every round, the phones of a game were all based on one revision: exactly one write won.
    for g in range(len(games)):
        for r in range(rounds):
            assert sum(1 for o in applied if (o["game"], o["round"]) == (g, r)) == 1, (g, r)
    assert refused, "the phones never collided"
    assert all(counts[s][0] and counts[s][1] for s in "ab"), counts  # each server applied and refused some

    with reading(servers.url):
        for g, (game_id, _) in enumerate(games):
            mine = sorted((o for o in applied if o["game"] == g), key=lambda o: o["round"])
            record = load_game(game_id)
            entries = history(game_id)
            # One history entry per applied write, in order, one revision each: nothing lost, nothing doubled.
            assert record is not None and record.revision == len(mine) == rounds
            assert [e["revision"] for e in entries] == list(range(1, len(mine) + 1))
            assert [marker_of(e["after"]) for e in entries] == [o["marker"] for o in mine]
            for entry, o in zip(entries, mine, strict=True):
                answer = o["answer"]
                assert answer["revision"] == entry["revision"] == o["based_on"] + 1
                assert answer["deal"] == entry["after"]  # stored exactly as answered
                assert entry["deal_number"] == answer["number"]
                assert entry["action"] == {"POST": "record", "PUT": "edit"}[o["method"]]
                assert answer["history_size"] == sum(1 for e in entries[:entry["revision"]]
                                                     if e["deal_number"] == answer["number"])
            refused_markers = {o["marker"] for o in refused if o["game"] == g}
            assert not refused_markers & {marker_of(e["after"]) for e in entries}
            # Each deal once, numbered from 1, holding the last write to it.
            last: dict[int, dict[str, Any]] = {}
            for entry in entries:
                last[entry["deal_number"]] = entry["after"]
            assert [d.number for d in record.deals] == list(range(1, len(last) + 1))
            assert {d.number: d.deal.to_json(with_sheet=False) for d in record.deals} == last


# -- one Idempotency-Key, sent to both servers at the same moment --------------------------------


def to_both(servers: Servers, path: str, body: Any, headers: dict[str, str], locked: bool = False) -> list[Answer]:
    """The same POST to each server, from threads started together: their answers (A's,
    then B's). ``locked``: another program's transaction holds the ``game`` table locked
    against writes (reads go on) until both requests wait for that lock; then they go on
    together."""
    import psycopg

    answers: list[Any] = [None, None]
    start = threading.Barrier(2)

    def run(i: int) -> None:
        start.wait()
        answers[i] = request(servers.both[i], "POST", path, body, headers)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    if not locked:
        for thread in threads:
            thread.start()
    else:
        with psycopg.connect(servers.url) as holder, psycopg.connect(servers.url, autocommit=True) as watcher:
            holder.execute("LOCK TABLE game IN EXCLUSIVE MODE")
            for thread in threads:
                thread.start()
            deadline = time.monotonic() + 20
            while _waiting(watcher) < 2:
                assert time.monotonic() < deadline, "the servers did not both reach the lock"
                time.sleep(0.02)
            holder.rollback()
    for thread in threads:
        thread.join(timeout=60)
    assert all(a is not None for a in answers), answers
    return answers


def _waiting(conn: Any) -> int:
    """How many of the servers' connections wait for a lock now."""
    row = conn.execute("SELECT COUNT(*) FROM pg_stat_activity WHERE application_name = 'scorepad' "
                       "AND wait_event_type = 'Lock'").fetchone()
    return int(row[0])


def assert_one_write_answered_alike(answers: list[Answer], status: int) -> dict[str, Any]:
    """Both servers answered ``status`` with the same body, one of them as a replay."""
    assert [a[0] for a in answers] == [status, status], answers
    assert answers[0][2] == answers[1][2]
    assert sorted(a[1].get("idempotent-replayed", "") for a in answers) == ["", "true"], answers
    return json.loads(answers[0][2])  # type: ignore[no-any-return]


def test_one_key_sent_to_both_servers_at_once_makes_one_game_and_one_deal(servers):
    """Creating a game and recording a deal, each sent with one Idempotency-Key to both
    servers while another program holds the game table locked, so both requests wait
    there together: once it lets go, one server writes, the other waits for that write's
    transaction (at the key's row; at the game's row), finds the key kept and replays its
    answer (not a second game, nor a stale revision's 409). Then more games and deals sent
    to both at once without any lock: each written once, both answered alike."""
    import psycopg

    new = {"name": "Keyed", "sheet": OPEN_ENDED, "sides": TWO}
    for n in range(4):  # the first with the lock held, the others as they come
        answers = to_both(servers, f"{API}/games", new, {"Idempotency-Key": f"create-{n}"}, locked=n == 0)
        game = assert_one_write_answered_alike(answers, 201)
        if n == 0:
            game_id, auth = game["id"], bearer(game["edit_key"])

    path = f"{API}/games/{game_id}/deals"
    for n in range(1, 8):  # the first two with the lock held, the others as they come
        answers = to_both(servers, path, {**deal_body(n), "revision": n - 1},
                          {**auth, "Idempotency-Key": f"deal-{n}"}, locked=n <= 2)
        saved = assert_one_write_answered_alike(answers, 201)
        assert (saved["number"], saved["revision"]) == (n, n)

    with reading(servers.url):
        record = load_game(game_id)
        entries = history(game_id)
    assert record is not None and record.revision == 7
    assert [d.number for d in record.deals] == list(range(1, 8))
    assert [(e["revision"], e["action"], marker_of(e["after"])) for e in entries] == \
           [(n, "record", n) for n in range(1, 8)]
    with psycopg.connect(servers.url) as conn:
        assert conn.execute("SELECT COUNT(*) FROM game WHERE name = 'Keyed'").fetchone()[0] == 4  # type: ignore[index]
        keys = conn.execute("SELECT key FROM idempotency_key WHERE key LIKE 'create-%%' OR game_id = %s",
                            (game_id,)).fetchall()
    assert sorted(k for (k,) in keys) == sorted([*(f"create-{n}" for n in range(4)),
                                                 *(f"deal-{n}" for n in range(1, 8))])


# -- what each server keeps per revision -----------------------------------------------------------


def test_a_write_through_one_server_is_seen_at_once_through_the_other(servers):
    """Each view a server keeps per revision (the game, its JSON, the viewer's page, the
    results PDF, the game rescored, as JSON and as a page) and the revision the live view
    polls, read through both servers, then a deal recorded through B: A shows it at once;
    then a deal corrected through A (the deals' count unchanged): B shows it at once."""
    a, b = servers.both
    game_id, key = new_game(a, "Cached")
    auth = bearer(key)
    views = {"json": f"{API}/games/{game_id}", "poll": f"{API}/games/{game_id}/revision",
             "page": f"/games/{game_id}", "results": f"/games/{game_id}/results.pdf",
             "rescore": f"{API}/referee/games/{game_id}/rescore?sheet=pagat",
             "rescore page": f"/games/{game_id}/rescore?sheet=pagat"}

    def assert_current(server: ProductionServer) -> None:
        """Every view through ``server`` shows the game as stored now (read through the store)."""
        with reading(servers.url):
            record = load_game(game_id)
        assert record is not None
        revision, deals, (ann, bea) = record.revision, len(record.deals), record.view.totals.values()
        seen = {name: request(server, "GET", path) for name, path in views.items()}
        assert all(status == 200 for status, _, _ in seen.values()), seen
        body = json.loads(seen["json"][2])
        assert (body["revision"], body["running_totals"][-1]["totals"]) == (revision, {"Ann": ann, "Bea": bea})
        assert [marker_of(d["deal"]) for d in body["deals"]] == [marker_of(d.deal.to_json()) for d in record.deals]
        assert seen["json"][1]["etag"] == seen["page"][1]["etag"] == f'"{game_id}.{revision}"'
        assert json.loads(seen["poll"][2])["revision"] == revision
        page = seen["page"][2].decode()
        assert f'data-revision="{revision}"' in page
        assert f"Total {ann:,} {bea:,}" in text_of(page)
        printed = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(seen["results"][2])).pages)
        assert f"{deals} deal{'s' if deals > 1 else ''} recorded" in printed and f"Total {ann:,} {bea:,}" in printed
        rescored = json.loads(seen["rescore"][2])
        assert len(rescored["deals"]) == deals
        assert [(t["name"], t["old"]) for t in rescored["totals"]] == [("Ann", ann), ("Bea", bea)]
        assert re.search(rf"The totals .* Ann {ann:,} \S+ \S+ Bea {bea:,} ", text_of(seen["rescore page"][2].decode()))

    assert request(a, "POST", f"{API}/games/{game_id}/deals", deal_body(1), auth)[0] == 201
    assert_current(a)
    assert_current(b)  # both servers keep revision 1 of everything
    assert request(b, "POST", f"{API}/games/{game_id}/deals", deal_body(9), auth)[0] == 201  # deal 2
    assert_current(a)
    assert request(a, "PUT", f"{API}/games/{game_id}/deals/1", deal_body(3), auth)[0] == 200  # same count of deals
    assert_current(b)
    assert_current(a)


def revision_shown(raw: bytes) -> int:
    """The revision the game's JSON, or its page, shows."""
    found = re.search(rb'data-revision="(\d+)"', raw)
    return int(found.group(1)) if found else int(json.loads(raw)["revision"])


@pytest.mark.parametrize("path", ["/api/v1/games/{}", "/games/{}"])
def test_an_etag_from_one_server_is_answered_by_the_other(servers, path):
    """The game's ETag (its JSON's, and the viewer's page's) names its stored revision, so
    whichever server answers: unchanged, the other server answers it 304; after a write
    through either server, 200 with the game as it now stands and its new ETag."""
    a, b = servers.both
    game_id, key = new_game(a, "Tagged")
    path, deals = path.format(game_id), f"{API}/games/{game_id}/deals"
    status, answered, _ = request(a, "GET", path)
    tag = answered["etag"]
    assert (status, tag) == (200, f'"{game_id}.0"')
    for server in (b, a):
        status, answered, raw = request(server, "GET", path, headers={"If-None-Match": tag})
        assert (status, answered["etag"], raw) == (304, tag, b"")
    for n, (writer, reader) in enumerate([(a, b), (b, a), (b, b), (a, a)], 1):
        assert request(writer, "POST", deals, deal_body(n), bearer(key))[0] == 201
        status, answered, raw = request(reader, "GET", path, headers={"If-None-Match": tag})
        assert (status, answered["etag"]) == (200, f'"{game_id}.{n}"'), (n, status)
        assert revision_shown(raw) == n
        tag = answered["etag"]
        for server in (a, b):
            assert request(server, "GET", path, headers={"If-None-Match": tag})[0] == 304
