"""A game's events (``GET /api/v1/games/<id>/events``) from the production server (granian,
``flask serve``): a write through one server reaches a listener on another on the same
database (SQLite file or PostgreSQL), more streams than ``--threads`` stay open while the
other requests are answered, and nginx with the README's ``location`` passes each event on
as it comes (``proxy_buffering off``), and a server asked to stop does, streams open or not.
"""

from __future__ import annotations

import http.client
import json
import time
from typing import Any

import pytest

from scorepad.cli.flask_serve import STOP_TIMEOUT
from tests.helpers import ANN_BEA, REPEAT, Nginx, valid_deal

API = "/api/v1"


def post(port: int, path: str, body: Any, key: str | None = None) -> tuple[int, dict[str, Any]]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {key}"} if key else {})}
        conn.request("POST", path, body=json.dumps(body), headers=headers)
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


def new_game(port: int) -> tuple[str, str]:
    status, body = post(port, f"{API}/games", {"name": "Friday", "sheet": "common", "sides": ANN_BEA})
    assert status == 201, body
    return body["id"], body["edit_key"]


def record(port: int, game_id: str, key: str, number: int) -> None:
    status, body = post(port, f"{API}/games/{game_id}/deals", {**REPEAT, **valid_deal(number)}, key)
    assert status == 201, body


class Listener:
    """An event stream read over HTTP as EventSource reads it: line by line, an event at each blank line."""

    def __init__(self, port: int, game_id: str, headers: dict[str, str] | None = None) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.conn.request("GET", f"{API}/games/{game_id}/events", headers=headers or {})
        self.response = self.conn.getresponse()

    def event(self) -> dict[str, Any]:
        """The next event (heartbeat comments skipped)."""
        fields: dict[str, Any] = {}
        while True:
            line = self.response.readline().decode()
            if line == "":
                raise AssertionError("the stream ended")
            line = line.rstrip("\n")
            if line == "" and "data" in fields:
                return fields
            name, _, value = line.partition(": ")
            if name == "data":
                fields[name] = json.loads(value)
            elif name in ("id", "retry"):
                fields[name] = value

    def close(self) -> None:
        self.response.close()  # the response holds the socket open, past the connection's close
        self.conn.close()


@pytest.mark.backends
def test_a_write_through_one_server_reaches_a_listener_on_another(production_server, database_setting):
    one, other = production_server(database_setting), production_server(database_setting)
    game_id, key = new_game(one.port)
    listener = Listener(other.port, game_id)
    try:
        assert listener.response.status == 200
        assert listener.response.getheader("Content-Type").startswith("text/event-stream")
        assert listener.event()["id"] == "0"
        started = time.monotonic()
        record(one.port, game_id, key, 1)
        event = listener.event()
        assert event["id"] == "1" and event["data"]["revision"] == 1
        assert time.monotonic() - started < 3  # the other server's watcher reads every second
    finally:
        listener.close()


def test_more_streams_than_threads_stay_open_while_the_other_requests_are_answered(production_server):
    server = production_server(threads=2)
    game_id, key = new_game(server.port)
    listeners = [Listener(server.port, game_id) for _ in range(6)]
    try:
        assert all(listener.event()["id"] == "0" for listener in listeners)
        started = time.monotonic()
        assert server.get(f"{API}/games/{game_id}")[0] == 200
        record(server.port, game_id, key, 1)
        assert time.monotonic() - started < 5
        assert all(listener.event()["id"] == "1" for listener in listeners)
    finally:
        for listener in listeners:
            listener.close()


def test_behind_nginx_each_event_comes_through_as_it_is_sent(production_server, nginx_proxy):
    server = production_server(SCOREPAD_PROXIES="1")
    proxy: Nginx = nginx_proxy(server.port, tls=False)
    game_id, key = new_game(server.port)
    listener = Listener(proxy.http_port, game_id, {"Last-Event-ID": "0"})
    try:
        assert listener.response.status == 200
        record(server.port, game_id, key, 1)
        started = time.monotonic()
        assert listener.event()["id"] == "1"  # not held in nginx's buffer
        assert time.monotonic() - started < 3
    finally:
        listener.close()


def test_a_server_asked_to_stop_with_a_stream_open_stops_within_its_stop_timeout(production_server):
    """granian waits for every open connection as it stops, and a stream stays open for minutes:
    ``serve`` gives the answers in flight STOP_TIMEOUT (10 s), then stops its worker."""
    server = production_server()
    game_id, _ = new_game(server.port)
    listener = Listener(server.port, game_id)
    try:
        assert listener.event()["id"] == "0"
        started = time.monotonic()
        server.proc.terminate()
        server.proc.wait(STOP_TIMEOUT + 20)
        assert time.monotonic() - started < STOP_TIMEOUT + 10
    finally:
        listener.close()
