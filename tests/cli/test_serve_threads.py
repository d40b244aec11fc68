"""``flask serve``'s threads (scorepad/cli/serve_threads.py): ``--threads`` requests run at
once, each holding its slot until its answer is sent whole, and the event streams take none."""

from __future__ import annotations

import threading
import time

from scorepad.cli.serve_threads import RequestSlots


def streaming_app(environ, start_response):
    """A WSGI app answering in two chunks (not a list), so its slot is held until it is closed."""
    start_response("200 OK", [("Content-Type", "text/plain")])
    return iter([b"one", b"two"])


def test_a_request_beyond_the_slots_waits_until_an_answer_is_closed():
    slots = RequestSlots(streaming_app, 1)
    first = slots({"PATH_INFO": "/api/v1/games/abc"}, lambda *a: None)
    assert list(first) == [b"one", b"two"]  # sent, but not yet closed: its slot is held
    answered = threading.Event()
    waiting = threading.Thread(target=lambda: (slots({"PATH_INFO": "/"}, lambda *a: None).close(), answered.set()))
    waiting.start()
    time.sleep(0.3)
    assert not answered.is_set()
    first.close()
    first.close()  # the server closing it twice frees one slot, once
    waiting.join(5)
    assert answered.is_set()
    assert slots.slots._value == 1


def test_event_streams_take_no_slot():
    slots = RequestSlots(streaming_app, 1)
    held = slots({"PATH_INFO": "/api/v1/games/abc"}, lambda *a: None)
    streams = [slots({"PATH_INFO": f"/hf/api/v1/games/g{n}/events"}, lambda *a: None) for n in range(5)]
    assert all(list(stream) == [b"one", b"two"] for stream in streams)
    held.close()
    assert slots.slots._value == 1


def test_an_answer_sent_as_a_list_frees_its_slot_at_once():
    def listed(environ, start_response):
        start_response("200 OK", [])
        return [b"whole"]

    slots = RequestSlots(listed, 1)
    assert [slots({"PATH_INFO": "/"}, lambda *a: None) for _ in range(3)] == [[b"whole"]] * 3
