"""Shared rate limits (issue 14): with ``RATELIMIT_STORAGE_URI=redis://...`` two app servers
(separate processes, one database) count one client's creates and writes together, so a
client cannot pass a limit by landing on another server; with ``memory://`` each server
counts on its own. A Redis that is down, or stops answering, lets requests through.

The servers share one PostgreSQL database, as a host serving many tables runs them
(``database_setting`` in tests/conftest.py). The Redis is a throwaway ``redis-server``
(``redis_url`` in tests/conftest.py), emptied before each test.
"""

from __future__ import annotations

import http.client
import json
import logging
import socket
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest

from scorepad.app import StartupError
from scorepad.ratelimit import REDIS_TIMEOUT, OneLineAMinute
from tests.helpers import (
    ANN_BEA,
    ProductionServer,
    RedisServer,
    api_game,
    bearer,
    free_port,
    redis_command,
    valid_deal,
)

API = "/api/v1"
GAME = {"name": "Friday", "sheet": "common", "sides": ANN_BEA}


pytestmark = pytest.mark.backends("postgresql")


@pytest.fixture
def database(database_setting: str) -> str:
    """The one database both servers serve: a migrated PostgreSQL database of this test's own."""
    return database_setting


@pytest.fixture
def redis(redis_url: str) -> str:
    """The session's Redis, emptied: no test sees another's counts."""
    assert redis_command(redis_url, "FLUSHALL") == b"+OK"
    return redis_url


@contextmanager
def two_servers(database: str, storage: str, folder: Path,
                **limits: str) -> Iterator[tuple[ProductionServer, ProductionServer]]:
    """Two production server processes on ``database``, their rate limits on and counted in ``storage``,
    ``limits`` (LIMIT_CREATE, LIMIT_WRITE) as their settings. Both start at once."""
    env = {"SCOREPAD_RATELIMIT_ENABLED": "true", "SCOREPAD_RATELIMIT_STORAGE_URI": storage,
           **{f"SCOREPAD_{name}": rate for name, rate in limits.items()}}
    with ExitStack() as stack:
        servers = [ProductionServer(database, str(folder / f"server-{i}.log"), env=env) for i in (1, 2)]
        for server in servers:
            stack.callback(server.stop)
        yield stack.enter_context(servers[0]), stack.enter_context(servers[1])


def send(server: ProductionServer, method: str, path: str, body: Any = None,
         headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], Any]:
    """One JSON request to ``server`` from this machine's one address: status, headers, body."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    try:
        conn.request(method, path, body=None if body is None else json.dumps(body),
                     headers={"Content-Type": "application/json", **(headers or {})})
        response = conn.getresponse()
        data = response.read()
        return response.status, {k.title(): v for k, v in response.getheaders()}, json.loads(data) if data else None
    finally:
        conn.close()


def assert_refused(answer: tuple[int, dict[str, str], Any], says: str) -> None:
    """A 429 problem saying why, with a Retry-After within the minute."""
    status, headers, body = answer
    assert status == 429, (status, body)
    assert body["type"] == f"{API}/problems/rate-limited" and says in body["detail"], body
    assert 0 < int(headers["Retry-After"]) <= 61, headers


def test_two_servers_share_one_create_limit_through_redis(database, redis, tmp_path):
    with two_servers(database, redis, tmp_path, LIMIT_CREATE="4 per minute") as (one, two):
        made = []
        for server in (one, two, one, two):  # 1..4, alternately
            status, _, body = send(server, "POST", f"{API}/games", GAME)
            assert status == 201, body
            made.append(body["id"])
        for server in (one, two):  # the 5th overall, whichever server answers
            assert_refused(send(server, "POST", f"{API}/games", GAME), "4 per minute")
        assert all(send(two, "GET", f"{API}/games/{game_id}")[0] == 200 for game_id in made)  # one database


def test_two_servers_share_one_write_limit_a_game_through_redis(database, redis, tmp_path):
    with two_servers(database, redis, tmp_path, LIMIT_WRITE="3 per minute") as (one, two):
        _, _, game = send(one, "POST", f"{API}/games", GAME)
        _, _, other = send(two, "POST", f"{API}/games", GAME)
        deals, key = f"{API}/games/{game['id']}/deals", bearer(game["edit_key"])
        assert send(one, "POST", deals, valid_deal(), key)[0] == 201  # 1 (the same deal again counts too)
        assert send(two, "PUT", f"{deals}/1", valid_deal(), key)[0] == 200  # 2
        status, headers, _ = send(one, "PUT", f"{deals}/1", valid_deal(), key)  # 3
        assert status == 200 and headers["Ratelimit"].startswith('"write";r=0;t=')  # told the count both share
        for server in (two, one):  # the 4th write to this game, whichever server answers
            assert_refused(send(server, "PUT", f"{deals}/1", valid_deal(), key),
                           "3 per minute")
        # Another game of the same client is counted on its own.
        assert send(two, "POST", f"{API}/games/{other['id']}/deals", valid_deal(), bearer(other["edit_key"]))[0] == 201


def test_with_memory_storage_each_server_counts_on_its_own(database, tmp_path):
    with two_servers(database, "memory://", tmp_path, LIMIT_CREATE="4 per minute") as (one, two):
        for server in (one, two) * 4:  # 4 on each: 8 in all
            status, _, body = send(server, "POST", f"{API}/games", GAME)
            assert status == 201, body
        for server in (one, two):
            assert_refused(send(server, "POST", f"{API}/games", GAME), "4 per minute")


def test_a_redis_that_is_down_lets_games_and_deals_through_and_the_log_says_so(make_app, caplog):
    closed = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    client = make_app(RATELIMIT_ENABLED=True, RATELIMIT_STORAGE_URI=closed, LIMIT_CREATE="1 per minute").test_client()
    with caplog.at_level(logging.ERROR, logger="flask-limiter"):
        for _ in range(3):  # past the limit: nothing counts while Redis is away
            game_id, key = api_game(client)
        saved = client.post(f"{API}/games/{game_id}/deals", json=valid_deal(), headers=bearer(key))
        assert saved.status_code == 201 and "RateLimit" not in saved.headers  # nothing counted, nothing told
    assert any("Failed to rate limit" in record.getMessage() for record in caplog.records), caplog.text


def test_a_redis_that_goes_down_is_logged_in_one_line_not_a_traceback_a_request(make_app, caplog, tmp_path):
    """A Redis stopped under a running server: every count fails, and Flask-Limiter logged
    each failure with its traceback, 4 KB a request. Now one line (issue 21, item 13)."""
    with RedisServer(tmp_path) as url:
        app = make_app(RATELIMIT_ENABLED=True, RATELIMIT_STORAGE_URI=url, LIMIT_CREATE="2 per minute")
        client = app.test_client()
        game_id, key = api_game(client)
        api_game(client)
        assert client.post(f"{API}/games", json=GAME).status_code == 429  # counted while it runs
        assert client.post(f"{API}/games/{game_id}/deals", json=valid_deal(), headers=bearer(key)).status_code == 201
    with caplog.at_level(logging.INFO, logger="flask-limiter"):
        for _ in range(5):
            assert client.post(f"{API}/games", json=GAME).status_code == 201
            assert client.put(f"{API}/games/{game_id}/sheet", json={"sheet": "common"}).status_code == 401
            assert client.put(f"{API}/games/{game_id}/deals/1", json=valid_deal(),
                              headers=bearer(key)).status_code == 200
    logged = [record for record in caplog.records if record.name == "flask-limiter"]
    assert len(logged) == 1, [record.getMessage()[:200] for record in logged]
    line = caplog.text.strip()
    assert "\n" not in line and "Traceback" not in line and len(line) < 1000, line
    assert "Failed to rate limit" in line and "ConnectionError" in line, line


def test_the_limiter_s_log_lets_one_error_a_minute_through_and_counts_the_others():
    now = [1000.0]
    line = OneLineAMinute(60.0, clock=lambda: now[0])
    logger = logging.getLogger("tests.one-line-a-minute")

    def record(level: int = logging.ERROR) -> logging.LogRecord:
        try:
            raise ConnectionError("Error 111 connecting to 127.0.0.1:6379.\nConnection refused.")
        except ConnectionError:
            import sys

            return logger.makeRecord(logger.name, level, __file__, 1, "Failed to rate limit. %s", ("Swallowing error",),
                                     sys.exc_info())

    first = record()
    assert line.filter(first) and first.exc_info is None
    assert first.getMessage() == ("Failed to rate limit. Swallowing error: ConnectionError: Error 111 connecting to "
                                  "127.0.0.1:6379. Connection refused.")
    now[0] += 59
    assert not any(line.filter(record()) for _ in range(3))
    assert line.filter(record(logging.INFO))  # information is not held back
    now[0] += 1
    later = record()
    assert line.filter(later) and later.getMessage().endswith("(3 more like it in the last 60 s not logged)")


def test_a_redis_that_stops_answering_holds_a_request_only_for_its_timeout(make_app):
    with socket.socket() as silent:  # accepts connections (the kernel does) and never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen(16)
        client = make_app(RATELIMIT_ENABLED=True,
                          RATELIMIT_STORAGE_URI=f"redis://127.0.0.1:{silent.getsockname()[1]}/0").test_client()
        started = time.monotonic()
        response = client.post(f"{API}/games", json=GAME)
        waited = time.monotonic() - started
    assert response.status_code == 201, response.get_data(as_text=True)
    assert REDIS_TIMEOUT <= waited < 3 * REDIS_TIMEOUT, waited  # one timed-out count, then through


@pytest.mark.parametrize("uri", ["rdis://localhost:6379/0", "redis://localhost:port/0"])
def test_a_storage_uri_that_cannot_be_used_stops_start_up_naming_the_setting(make_app, uri):
    with pytest.raises(StartupError, match="RATELIMIT_STORAGE_URI"):
        make_app(RATELIMIT_ENABLED=True, RATELIMIT_STORAGE_URI=uri)
