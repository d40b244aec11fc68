"""``GET /api/v1/games/<id>/events``: a game followed as Server-Sent Events (scorepad/api/events.py).

Through Flask's test client, the stream read chunk by chunk as a client would (``buffered=False``),
with a watcher of short heartbeat and lifetime put in the app before the first stream; a
second app on the same database stands for another server (its write is not nudged here,
so the watcher's own read finds it). tests/api/test_events_served.py runs real servers.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from scorepad.api.watcher import Watcher
from tests.helpers import REPEAT, api_game, assert_error_shape, bearer, valid_deal

API = "/api/v1"


def fast_watcher(app: Any, most: int = 8, heartbeat: float = 0.3, lifetime: float = 30) -> Watcher:
    watcher = Watcher(app.extensions["scorepad.database"], most, heartbeat=heartbeat, lifetime=lifetime,
                      poll_seconds=0.1)
    app.extensions["scorepad.events"] = watcher
    return watcher


def parsed(chunk: bytes) -> list[dict[str, Any]]:
    """The events and comments of a chunk of the stream: each a dict of its fields (``data`` as JSON)."""
    found = []
    for block in chunk.decode().split("\n\n"):
        if not block:
            continue
        fields: dict[str, Any] = {}
        for line in block.split("\n"):
            name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            fields[name or "comment"] = json.loads(value) if name == "data" else value
        found.append(fields)
    return found


class Reader:
    """A stream opened through the test client, read one chunk at a time (each ``next`` waits for one)."""

    def __init__(self, client: Any, path: str, **kwargs: Any) -> None:
        self.response = client.get(path, buffered=False, **kwargs)
        self.chunks = iter(self.response.response)

    def next(self) -> list[dict[str, Any]]:
        return parsed(next(self.chunks))

    def next_event(self, within: float = 5) -> dict[str, Any]:
        """The next event, past any heartbeat comments."""
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            for item in self.next():
                if "data" in item:
                    return item
        raise AssertionError("no event in time")

    def close(self) -> None:
        self.response.close()


def record(client: Any, game_id: str, key: str, number: int) -> None:
    saved = client.post(f"{API}/games/{game_id}/deals", json={**REPEAT, **valid_deal(number)}, headers=bearer(key))
    assert saved.status_code == 201, saved.get_data(as_text=True)


def test_the_stream_opens_with_retry_advice_and_the_game_s_revision_with_its_headers(app, client):
    fast_watcher(app)
    game_id, key = api_game(client, deals=[valid_deal(1)])
    reader = Reader(client, f"{API}/games/{game_id}/events")
    try:
        assert reader.response.status_code == 200
        assert reader.response.mimetype == "text/event-stream"
        assert reader.response.headers["Cache-Control"] == "no-cache"
        assert reader.response.headers["X-Accel-Buffering"] == "no"
        first = reader.next()
        assert first[0] == {"retry": "2000"}
        polled = client.get(f"{API}/games/{game_id}/revision").get_json()
        assert first[1] == {"id": "1", "data": {"revision": 1, "open": polled["open"],
                                                "updated_at": polled["updated_at"]}}
    finally:
        reader.close()


def test_a_write_through_this_server_reaches_the_stream_as_the_next_revision(app, client):
    fast_watcher(app, heartbeat=10)
    game_id, key = api_game(client)
    reader = Reader(client, f"{API}/games/{game_id}/events")
    try:
        assert reader.next_event()["id"] == "0"
        started = time.monotonic()
        record(client, game_id, key, 1)
        assert reader.next_event()["data"]["revision"] == 1
        assert time.monotonic() - started < 2  # nudged: not a heartbeat of 10 s later
        record(client, game_id, key, 2)
        assert reader.next_event()["id"] == "2"
    finally:
        reader.close()


def test_a_write_through_another_server_on_the_same_database_reaches_the_stream(app, client, make_app):
    fast_watcher(app, heartbeat=10)
    game_id, key = api_game(client)
    other = make_app().test_client()
    reader = Reader(client, f"{API}/games/{game_id}/events")
    try:
        assert reader.next_event()["id"] == "0"
        record(other, game_id, key, 1)
        assert reader.next_event()["data"]["revision"] == 1  # read by the watcher (0.1 s here), no nudge
    finally:
        reader.close()


def test_a_client_resuming_at_the_current_revision_gets_heartbeats_until_the_game_moves(app, client):
    fast_watcher(app, heartbeat=0.2)
    game_id, key = api_game(client, deals=[valid_deal(1)])
    reader = Reader(client, f"{API}/games/{game_id}/events", headers={"Last-Event-ID": "1"})
    try:
        assert reader.next() == [{"retry": "2000"}]
        assert reader.next() == [{"comment": "still here"}]
        record(client, game_id, key, 2)
        assert reader.next_event()["id"] == "2"
    finally:
        reader.close()


@pytest.mark.parametrize("resume", [{"headers": {"Last-Event-ID": "1"}}, {"query_string": {"last_event_id": "1"}}])
def test_a_client_resuming_behind_gets_the_current_revision_at_once(app, client, resume):
    fast_watcher(app, heartbeat=10)
    game_id, key = api_game(client, deals=[valid_deal(1), valid_deal(2), valid_deal(3)])
    reader = Reader(client, f"{API}/games/{game_id}/events", **resume)
    try:
        assert reader.next()[1]["id"] == "3"
    finally:
        reader.close()


@pytest.mark.parametrize(("resume", "field"), [({"headers": {"Last-Event-ID": "five"}}, "Last-Event-ID"),
                                               ({"query_string": {"last_event_id": "-1"}}, "last_event_id")])
def test_a_last_event_id_that_is_no_revision_is_a_400_naming_it(client, resume, field):
    game_id, _ = api_game(client)
    assert_error_shape(client.get(f"{API}/games/{game_id}/events", **resume), 400, field)


def test_an_unknown_game_is_a_404_and_a_deleted_one_a_410(client):
    assert_error_shape(client.get(f"{API}/games/nosuchgame/events"), 404, None)
    game_id, key = api_game(client)
    assert client.delete(f"{API}/games/{game_id}", headers=bearer(key)).status_code == 200
    assert_error_shape(client.get(f"{API}/games/{game_id}/events"), 410, None)


def test_deleting_the_game_sends_deleted_and_ends_the_stream(app, client):
    watcher = fast_watcher(app, heartbeat=10)
    game_id, key = api_game(client, deals=[valid_deal(1)])
    reader = Reader(client, f"{API}/games/{game_id}/events")
    try:
        assert reader.next_event()["id"] == "1"
        assert client.delete(f"{API}/games/{game_id}", headers=bearer(key)).status_code == 200
        assert reader.next_event() == {"id": "1", "data": {"revision": 1, "deleted": True}}
        with pytest.raises(StopIteration):
            reader.next()
        assert watcher.streams == 0 and watcher.games == {}
    finally:
        reader.close()


def test_past_the_bound_a_stream_is_a_503_saying_to_poll_the_revision_until_one_closes(app, client):
    watcher = fast_watcher(app, most=2)
    game_id, _ = api_game(client)
    readers = [Reader(client, f"{API}/games/{game_id}/events") for _ in range(2)]
    try:
        refused = client.get(f"{API}/games/{game_id}/events")
        assert_error_shape(refused, 503, None)
        assert refused.headers["Retry-After"] == "30"
        assert f"/api/v1/games/{game_id}/revision" in refused.get_json()["detail"]
        readers[0].close()  # closed before a byte was read: its place is free all the same
        assert watcher.streams == 1
        readers.append(Reader(client, f"{API}/games/{game_id}/events"))
        assert readers[-1].response.status_code == 200
    finally:
        for reader in readers:
            reader.close()
    assert watcher.streams == 0


def test_a_stream_ends_after_its_lifetime(app, client):
    watcher = fast_watcher(app, heartbeat=0.2, lifetime=0.5)
    game_id, _ = api_game(client)
    reader = Reader(client, f"{API}/games/{game_id}/events")
    started = time.monotonic()
    try:
        rest = list(reader.chunks)
        assert 0.4 < time.monotonic() - started < 3
        assert all(item == {"comment": "still here"} for chunk in rest[1:] for item in parsed(chunk))
        assert watcher.streams == 0
    finally:
        reader.close()


def test_a_change_to_the_open_deal_is_an_event_at_the_same_revision(app, client):
    fast_watcher(app, heartbeat=10)
    game_id, key = api_game(client)
    reader = Reader(client, f"{API}/games/{game_id}/events")
    try:
        assert reader.next_event()["data"]["open"] == 0
        part = client.put(f"{API}/games/{game_id}/deals/1/parts/1", json=valid_deal(1)["sides"][0],
                          headers={**bearer(key), "Scorepad-Phone": "Dan's phone"})
        assert part.status_code == 200, part.get_data(as_text=True)
        moved = reader.next_event()
        assert moved["id"] == "0" and moved["data"]["open"] == 1
    finally:
        reader.close()
