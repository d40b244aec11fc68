"""Heavy documents are built one at a time (issue 8, item 1: a stranger asking for PDFs and
rescores must not take every server thread from the phones recording deals): one request
builds, the others wait their turn (at most BUILD_WAIT seconds, then 503) and find what it built."""

from __future__ import annotations

import threading
import time

import pytest

from scorepad.app import create_app
from scorepad.storage.cache import BUILD_WAIT, BUILD_WAITERS, BuildBusy, ByteCache
from tests.helpers import api_game, bearer, valid_deal


def test_one_builds_at_a_time_and_those_that_waited_find_what_it_built():
    kept = ByteCache(1024)
    building, release = threading.Event(), threading.Event()
    built: list[str] = []

    def slow() -> bytes:
        building.set()
        release.wait(5)
        built.append("slow")
        return b"pdf"

    first = threading.Thread(target=lambda: kept.built("a", slow))
    first.start()
    assert building.wait(5)
    got: list[bytes] = []
    waiters = [threading.Thread(target=lambda: got.append(kept.built("a", lambda: b"never built")))
               for _ in range(3)]
    for waiter in waiters:
        waiter.start()
    other: list[bytes] = []
    third = threading.Thread(target=lambda: other.append(kept.built("b", lambda: b"other")))
    third.start()
    time.sleep(0.1)
    assert got == [] and other == []  # all wait for the one build under way
    release.set()
    for thread in (first, *waiters, third):
        thread.join(5)
    assert built == ["slow"] and got == [b"pdf"] * 3  # built once; the waiters found it
    assert other == [b"other"]


def test_a_waiter_gives_up_after_its_wait_and_the_turn_is_not_lost():
    kept = ByteCache(1024)
    with kept.gate():
        started = time.monotonic()
        with pytest.raises(BuildBusy):
            with kept.gate(wait=0.2):
                pass
        assert 0.15 < time.monotonic() - started < 2
    with kept.gate(wait=0):  # released: free at once
        pass


def test_a_request_that_waited_too_long_gets_503_with_retry_after_and_writes_never_wait(tmp_path):
    wait = 0.5
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "s.sqlite"), "SECRET_KEY": "t", "BUILD_WAIT": wait})
    client = app.test_client()
    game_id, key = api_game(client)
    assert client.post(f"/api/v1/games/{game_id}/deals", json=valid_deal(), headers=bearer(key)).status_code == 201
    kept = app.extensions["scorepad.cache"]
    release, holding = threading.Event(), threading.Event()

    def hold_turn() -> None:
        with kept.gate():
            holding.set()
            release.wait(30)

    holder = threading.Thread(target=hold_turn)
    holder.start()
    assert holding.wait(5)
    try:
        started = time.monotonic()
        page = client.get(f"/games/{game_id}/results.pdf")
        assert page.status_code == 503 and page.headers["Retry-After"] == "1"
        assert "ask again in a moment" in page.get_data(as_text=True)
        assert time.monotonic() - started >= wait * 0.9  # it waited its turn first
        answer = client.get(f"/api/v1/referee/games/{game_id}/rescore?sheet=pagat")
        assert answer.status_code == 503 and answer.headers["Retry-After"] == "1"
        assert answer.get_json()["error"]["status"] == 503
        # Recording a deal never waits for the build turn.
        started = time.monotonic()
        assert client.post(f"/api/v1/games/{game_id}/deals", json={**valid_deal(2), "repeat": True},
                           headers=bearer(key)).status_code == 201
        assert time.monotonic() - started < BUILD_WAIT / 2  # far below a build's wait
    finally:
        release.set()
        holder.join(5)
    assert client.get(f"/games/{game_id}/results.pdf").status_code == 200
    assert client.get(f"/api/v1/referee/games/{game_id}/rescore?sheet=pagat").status_code == 200


def test_past_build_waiters_waiting_for_other_documents_a_request_is_told_at_once():
    """Each request waiting for the turn holds a server thread: a stranger asking for many
    uncached rescores at once would hold them all and leave the phones none (issue 21, item
    10). At most BUILD_WAITERS wait for other documents than the one being built; the next is
    told at once (the wait here is far longer than the test runs), and those asking for the
    document being built still wait and find it."""
    kept = ByteCache(1024, build_wait=60)
    building, release = threading.Event(), threading.Event()

    def slow() -> bytes:
        building.set()
        release.wait(30)
        return b"pdf"

    first = threading.Thread(target=lambda: kept.built("a", slow))
    first.start()
    assert building.wait(5)
    got: dict[str, bytes | str] = {}

    def ask(key: str) -> None:
        try:
            got[key] = kept.built(key, lambda: key.encode())
        except BuildBusy:
            got[key] = "busy"

    waiters = [threading.Thread(target=ask, args=(key,)) for key in ("b", "c")]
    for waiter in waiters:
        waiter.start()
    deadline = time.monotonic() + 5
    while kept.waiting < BUILD_WAITERS and time.monotonic() < deadline:  # both have begun to wait
        time.sleep(0.01)
    same = [threading.Thread(target=ask, args=("a",)) for _ in range(3)]
    for thread in same:
        thread.start()
    ask("d")  # one waiter too many: refused without waiting
    assert got == {"d": "busy"} and not release.is_set()
    release.set()
    for thread in (first, *waiters, *same):
        thread.join(10)
    assert got == {"a": b"pdf", "b": b"b", "c": b"c", "d": "busy"}
