"""One save of a deal runs at most 7 SQL statements (issue 22): the game's revision, the
idempotency key looked for, the revision moved on, the deal, its history entry, the key kept
and the game's size checked. Counted from SQLite's own trace of the connection the request
uses (``sqlite3.Connection.set_trace_callback``), BEGIN, COMMIT, ROLLBACK, savepoints and
PRAGMAs left out, on a real SQLite file, for a save from the phone's deal form and one
through the API, each with its idempotency key as its door sends it (``bench/trace.py``
prints the same)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from scorepad.storage import db, idempotency, reading
from tests.helpers import api_game, bearer, valid_deal
from tests.web.test_counted import BENCH_FORM, counted_game, new_form

pytestmark = pytest.mark.backends("sqlite")  # SQLite's trace of statements

MOST = 7
LEFT_OUT = re.compile(r"\s*(BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE|PRAGMA)\b", re.IGNORECASE)
PICKED = {f"s{side}-p{player}-picked": "1" for side in (0, 1) for player in (0, 1)}


@contextmanager
def traced(app) -> Iterator[list[str]]:
    """The statements that count, run on this thread's connection (the test client serves a
    request on the thread that sends it) while the block runs."""
    statements: list[str] = []
    with app.app_context():
        conn = db.get_db()
        conn.set_trace_callback(statements.append)
        try:
            yield statements
        finally:
            conn.set_trace_callback(None)
    statements[:] = [s for s in statements if not LEFT_OUT.match(s)]


def saved_by_page_and_api(app, client) -> dict[str, list[str]]:
    game_id = counted_game(client)
    found = {}
    url = f"/games/{game_id}/deals/new"
    form = {**new_form(client, game_id), **BENCH_FORM, **PICKED, "action": "save"}
    assert form["idempotency_key"]
    with traced(app) as found["page"]:
        assert client.post(url, data=form).status_code == 303
    with app.app_context():
        key = reading.load_game(game_id).edit_key
    deal = {**client.get(f"/api/v1/games/{game_id}/deals/1").get_json()["deal"], "deal": 2, "repeat": True}
    with traced(app) as found["api"]:
        saved = client.post(f"/api/v1/games/{game_id}/deals", json=deal,
                            headers={**bearer(key), "Idempotency-Key": "count-2"})
        assert saved.status_code == 201, saved.get_data(as_text=True)
    return found


def test_a_save_from_the_page_and_one_from_the_api_each_run_at_most_7_statements(app, client):
    for door, statements in saved_by_page_and_api(app, client).items():
        assert len(statements) <= MOST, (door, statements)
        written = " ".join(statements)
        for part in ("INSERT INTO deal", "INSERT INTO history", "UPDATE game", "INSERT INTO idempotency_key"):
            assert part in written, (door, part)
        assert len([s for s in statements if s.startswith("SELECT digest")]) == 1, (door, statements)


def test_expired_keys_are_forgotten_by_one_save_a_minute_not_by_each(app, client, monkeypatch):
    """The one save a minute that forgets what expired runs one statement more; the others do not."""
    game_id, key = api_game(client)
    monkeypatch.setattr(idempotency, "_forgot_at", {})  # this process has made no keyed write yet
    counts = []
    for number in (1, 2, 3):
        if number == 3:  # a minute on
            monkeypatch.setattr(idempotency, "_forgot_at", {path: at - idempotency.FORGET_EVERY
                                                      for path, at in idempotency._forgot_at.items()})
        with traced(app) as statements:
            saved = client.post(f"/api/v1/games/{game_id}/deals", json={**valid_deal(number), "repeat": True},
                                headers={**bearer(key), "Idempotency-Key": f"count-{number}"})
            assert saved.status_code == 201, saved.get_data(as_text=True)
        counts.append((len(statements), any(s.startswith("DELETE FROM idempotency_key") for s in statements)))
    assert counts == [(MOST, False), (MOST, False), (MOST + 1, True)], counts


def test_a_revision_poll_is_one_statement_through_the_route_and_below_it(app, client):
    """What a watching phone asks every 4 s reads the game's revision, open counter and last
    change in one statement, one moment without a transaction, whether the route answers or
    :class:`~scorepad.web.revision_polls.RevisionPolls` does (the phone's second poll)."""
    game_id, _ = api_game(client)
    for _ in range(2):
        with traced(app) as statements:
            assert client.get(f"/api/v1/games/{game_id}/revision").status_code == 200
        assert statements == [f"SELECT revision, open_counter, updated_at FROM game WHERE id = '{game_id}'"]


@pytest.mark.parametrize("path", ["/api/v1/games/{}", "/games/{}"])
def test_a_phone_reading_the_game_it_just_changed_reads_its_revision_once(app, client, path):
    """The watchers' answers kept below Flask (:mod:`scorepad.web.replay`) are known stale once
    this process holds the game at a later revision (it wrote it): the route answers, reading
    the revision once, and uses the game it holds at that revision (the page, the API's JSON)."""
    game_id, key = api_game(client)
    url = path.format(game_id)
    assert client.get(url).status_code == 200
    assert client.get(url).status_code == 200  # now kept for this phone
    assert client.post(f"/api/v1/games/{game_id}/deals", json=valid_deal(), headers=bearer(key)).status_code == 201
    with traced(app) as statements:
        answer = client.get(url)
    assert answer.status_code == 200 and answer.headers["ETag"] == f'"{game_id}.1"'
    assert statements == [f"SELECT revision, updated_at FROM game WHERE id = '{game_id}'"]


def test_a_new_game_is_not_read_back_for_its_answer_but_its_replay_reads_it(app, client):
    """Creating a game with an Idempotency-Key looks for the key, then writes the game and the
    key: the answer's edit key is the one the write just gave it (no one else holds it yet),
    not read back; a replay of the key reads the game again, and answers the same key."""
    body = {"name": "Counted", "sheet": "common", "sides": [{"name": "Ann", "players": ["Ann"]},
                                                            {"name": "Bea", "players": ["Bea"]}]}
    answers = []
    for _ in range(2):
        with traced(app) as statements:
            answer = client.post("/api/v1/games", json=body, headers={"Idempotency-Key": "count-new-game"})
            assert answer.status_code == 201, answer.get_data(as_text=True)
        answers.append((answer.get_json(), statements))
    (first, written), (replayed, read) = answers
    assert [s.split(" (")[0].split(" FROM")[0] for s in written] == [
        "SELECT digest, kind, made_game, deal, revision", "INSERT INTO game", "INSERT INTO idempotency_key"], written
    with app.app_context():
        assert first["edit_key"] == reading.load_game(first["id"]).edit_key
    assert replayed == first
    assert any(s.startswith("SELECT revision, updated_at FROM game") for s in read), read
