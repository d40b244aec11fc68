"""Heavy documents are built one at a time (issue 8, item 1: a stranger asking for PDFs and
rescores must not take every server thread from the phones recording deals): one request
builds, one more may wait its turn, any other is told at once to ask again (503)."""

from __future__ import annotations

import threading
import time

import pytest
from hardening import api_game, bearer, valid_deal

from scorepad.app import create_app
from scorepad.cache import Busy, ByteCache


def test_one_builds_one_waits_and_a_third_is_refused_at_once():
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
    waiter_got: list[bytes] = []
    waiter = threading.Thread(target=lambda: waiter_got.append(kept.built("a", lambda: b"never built")))
    waiter.start()
    time.sleep(0.1)  # the waiter now holds the one place in the queue
    started = time.monotonic()
    with pytest.raises(Busy):
        kept.built("b", lambda: b"other")
    assert time.monotonic() - started < 0.5  # refused at once, not after a wait
    release.set()
    first.join(5)
    waiter.join(5)
    assert built == ["slow"] and waiter_got == [b"pdf"]  # the waiter found what the first built
    assert kept.built("b", lambda: b"other") == b"other"  # the turn is free again


def test_a_waiter_gives_up_after_its_wait_and_the_turn_is_not_lost():
    kept = ByteCache(1024)
    with kept.gate():
        started = time.monotonic()
        with pytest.raises(Busy):
            with kept.gate(wait=0.2):
                pass
        assert 0.15 < time.monotonic() - started < 2
    with kept.gate(wait=0):  # released: free at once
        pass


def test_while_the_build_turn_is_taken_pages_and_the_api_answer_503_with_retry_after(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "s.sqlite"), "SECRET_KEY": "t"})
    client = app.test_client()
    game_id, key = api_game(client)
    assert client.post(f"/api/v1/games/{game_id}/deals", json=valid_deal(), headers=bearer(key)).status_code == 201
    kept = app.extensions["scorepad.cache"]
    release = threading.Event()
    holding = threading.Event()

    def hold_turn_and_queue() -> None:
        with kept.gate():
            holding.set()
            release.wait(10)

    holder = threading.Thread(target=hold_turn_and_queue)
    holder.start()
    assert holding.wait(5)

    def wait_for_turn() -> None:
        with kept.gate(wait=10):  # takes the one waiting place until the holder lets go
            pass

    queued = threading.Thread(target=wait_for_turn)
    queued.start()
    time.sleep(0.1)
    try:
        page = client.get(f"/games/{game_id}/results.pdf")
        assert page.status_code == 503 and page.headers["Retry-After"] == "1"
        assert "ask again in a moment" in page.get_data(as_text=True)
        answer = client.get(f"/api/v1/referee/games/{game_id}/rescore?sheet=pagat")
        assert answer.status_code == 503 and answer.headers["Retry-After"] == "1"
        assert answer.get_json()["error"]["status"] == 503
        desk = client.get(f"/games/{game_id}/rescore?sheet=pagat")
        assert desk.status_code == 503
        # Recording a deal never waits for the build turn.
        deal = valid_deal(2)
        assert client.post(f"/api/v1/games/{game_id}/deals", json=deal, headers=bearer(key)).status_code == 201
    finally:
        release.set()
        holder.join(5)
        queued.join(15)
    assert client.get(f"/games/{game_id}/results.pdf").status_code == 200
    assert client.get(f"/api/v1/referee/games/{game_id}/rescore?sheet=pagat").status_code == 200
