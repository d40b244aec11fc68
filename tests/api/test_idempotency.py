"""Idempotent retries: an ``Idempotency-Key`` header on ``POST /api/v1/games``,
``POST /api/v1/games/import``, ``POST /api/v1/games/<id>/deals`` and ``POST .../edit-key`` makes
the write at most once per (route, game, client, key) for 24 hours: the client is the edit key
sent, for a game's writes, else the session or the address, so one client's key never answers
another's, and no kept answer holds an edit key. A retry gets the first status, body and
``Location`` again and writes nothing; the key sent with another request is a 422; a retry
while the first is still being written is a 409. Real components throughout: the Flask test
client on a SQLite file of the test's own, and the production server (granian) for requests
that must run at the same time."""

from __future__ import annotations

import http.client
import json
import sqlite3
import threading
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from tests.helpers import (
    ANN_BEA,
    ProductionServer,
    api_game,
    assert_error_shape,
    bearer,
    db_state,
    grant,
    sql,
    valid_deal,
    watch,
)

pytestmark = pytest.mark.backends  # each test on a database of its own: on SQLite and on PostgreSQL

API = "/api/v1"
NEW_GAME = {"name": "Friday", "sheet": "common", "sides": ANN_BEA}


def keys_kept(app) -> list[tuple[Any, ...]]:
    """Every kept key: (route, game_id, key, kind: what its write made), oldest first."""
    return sql(app.config["DATABASE"], "SELECT route, game_id, key, kind FROM idempotency_key ORDER BY at, route, "
               "game_id, key")


def game_count(app) -> int:
    return sql(app.config["DATABASE"], "SELECT COUNT(*) FROM game")[0][0]


def export_of(client, game_id: str) -> dict[str, Any]:
    return json.loads(client.get(f"{API}/games/{game_id}/export").get_data(as_text=True))


def route_request(client, route: str) -> tuple[str, dict[str, Any], dict[str, str]]:
    """For each route taking the header: (path, body, headers) of one write it makes."""
    if route == "create":
        return f"{API}/games", NEW_GAME, {}
    game_id, key = api_game(client, deals=[valid_deal(1)])
    if route == "import":
        return f"{API}/games/import", export_of(client, game_id), {}
    return f"{API}/games/{game_id}/deals", {**valid_deal(2), "repeat": True, "revision": 1}, bearer(key)


ROUTES = ["create", "import", "deal"]


def send(client, path: str, body: Any, headers: dict[str, str], key: str | None = "retry-1"):
    return client.post(path, json=body, headers={**headers, **({"Idempotency-Key": key} if key is not None else {})})


def assert_key_error(response, status: int) -> str:
    """A problem naming the header: ``idempotency-key-reused`` (422) or ``invalid-field`` (400)."""
    assert response.status_code == status, response.get_data(as_text=True)
    error = assert_error_shape(response, status, "Idempotency-Key")
    slug = {422: "idempotency-key-reused", 400: "invalid-field"}[status]
    assert response.get_json()["type"] == f"/api/v1/problems/{slug}"
    return error["message"]


# -- a retry is answered as the first request was, and writes nothing ---------------------------------


@pytest.mark.parametrize("route", ROUTES)
def test_a_retry_gets_the_first_status_body_and_location_and_writes_nothing(app, client, route):
    path, body, headers = route_request(client, route)
    first = send(client, path, body, headers)
    assert first.status_code == 201, first.get_data(as_text=True)
    assert "Idempotent-Replayed" not in first.headers
    after_first = db_state(app)
    again = send(client, path, body, headers)
    assert again.status_code == 201
    assert again.get_data() == first.get_data()  # the very bytes
    assert again.headers["Location"] == first.headers["Location"]
    assert again.headers["Content-Type"] == first.headers["Content-Type"]
    assert again.headers.get("Cache-Control") == first.headers.get("Cache-Control")
    assert again.headers["Idempotent-Replayed"] == "true"
    assert db_state(app) == after_first  # no game, deal, history entry, revision or key besides


def test_a_retried_deal_is_one_deal_one_history_entry_and_one_revision(client):
    game_id, key = api_game(client)
    headers = {**bearer(key), "Idempotency-Key": "deal-1-from-ann"}
    answers = [client.post(f"{API}/games/{game_id}/deals", json={**valid_deal(None), "revision": 0}, headers=headers)
               for _ in range(3)]
    assert [a.status_code for a in answers] == [201, 201, 201]
    assert answers[0].get_json()["number"] == 1 and answers[0].get_json()["revision"] == 1
    game = client.get(f"{API}/games/{game_id}").get_json()
    assert [d["number"] for d in game["deals"]] == [1] and game["revision"] == 1
    assert len(client.get(f"{API}/games/{game_id}/history").get_json()["history"]) == 1


def test_a_retried_create_makes_one_game(app, client):
    answers = [send(client, f"{API}/games", NEW_GAME, {}) for _ in range(3)]
    assert {a.get_json()["id"] for a in answers} == {answers[0].get_json()["id"]}
    assert game_count(app) == 1


def test_a_retry_after_later_writes_still_gets_its_first_answer(client):
    """The game moved on (the retried deal's revision is stale, its number taken): the retry
    is answered from its key, not judged again as a stale write."""
    game_id, key = api_game(client)
    path, headers = f"{API}/games/{game_id}/deals", {**bearer(key), "Idempotency-Key": "k"}
    first = client.post(path, json={**valid_deal(1), "revision": 0}, headers=headers)
    assert client.post(path, json={**valid_deal(2), "repeat": True, "revision": 1},
                       headers=bearer(key)).status_code == 201
    again = client.post(path, json={**valid_deal(1), "revision": 0}, headers=headers)
    assert again.status_code == 201 and again.get_data() == first.get_data()
    assert client.get(f"{API}/games/{game_id}").get_json()["revision"] == 2


def test_the_same_body_with_its_keys_in_another_order_is_the_same_request(client):
    first = client.post(f"{API}/games", data=json.dumps(NEW_GAME), content_type="application/json",
                        headers={"Idempotency-Key": "k"})
    reordered = json.dumps({"sides": ANN_BEA, "sheet": "common", "name": "Friday"}, indent=2)
    again = client.post(f"{API}/games", data=reordered, content_type="application/json",
                        headers={"Idempotency-Key": "k"})
    assert again.status_code == 201 and again.get_data() == first.get_data()
    assert again.headers["Idempotent-Replayed"] == "true"


def test_without_the_header_every_write_is_made_and_no_key_is_kept(app, client):
    first, second = client.post(f"{API}/games", json=NEW_GAME), client.post(f"{API}/games", json=NEW_GAME)
    assert first.status_code == second.status_code == 201
    assert first.get_json()["id"] != second.get_json()["id"]
    assert "Idempotent-Replayed" not in second.headers
    assert keys_kept(app) == []


# -- the key is for one request ------------------------------------------------------------------------


@pytest.mark.parametrize("route", ROUTES)
def test_the_key_sent_with_another_body_is_422_naming_the_header_and_nothing_is_written(app, client, route):
    path, body, headers = route_request(client, route)
    assert send(client, path, body, headers).status_code == 201
    before = db_state(app)
    other = {**body, "as_played": {"reason": "another request"}} if route == "deal" else {**body, "name": "Saturday"}
    message = assert_key_error(send(client, path, other, headers), 422)
    assert "another request" in message
    assert db_state(app) == before


def test_the_same_key_on_another_route_or_game_is_another_key(app, client):
    game_a, key_a = api_game(client, "A")
    game_b, key_b = api_game(client, "B")
    same = {"Idempotency-Key": "shared"}
    deal = {**valid_deal(1), "revision": 0}
    on_a = client.post(f"{API}/games/{game_a}/deals", json=deal, headers={**bearer(key_a), **same})
    on_b = client.post(f"{API}/games/{game_b}/deals", json=deal, headers={**bearer(key_b), **same})
    created = client.post(f"{API}/games", json=NEW_GAME, headers=same)
    imported = client.post(f"{API}/games/import", json=export_of(client, game_a), headers=same)
    for response in (on_a, on_b, created, imported):
        assert response.status_code == 201, response.get_data(as_text=True)
        assert "Idempotent-Replayed" not in response.headers
    assert on_a.headers["Location"] != on_b.headers["Location"]
    assert len({route for route, *_ in keys_kept(app)}) == 3  # the deals, create and import routes
    assert sorted(game for _, game, *_ in keys_kept(app)) == sorted(["", "", game_a, game_b])


def test_an_expired_key_no_longer_replays_and_is_forgotten(app, client):
    first = send(client, f"{API}/games", NEW_GAME, {})
    day_ago = (datetime.now(UTC) - timedelta(hours=24, minutes=1)).isoformat(timespec="seconds")
    sql(app.config["DATABASE"], "UPDATE idempotency_key SET at = ?", (day_ago,))
    again = send(client, f"{API}/games", {**NEW_GAME, "name": "Another body, as a new request may have"}, {})
    assert again.status_code == 201 and "Idempotent-Replayed" not in again.headers
    assert again.get_json()["id"] != first.get_json()["id"]
    assert game_count(app) == 2
    # the expired key forgotten, the new one kept, with the game the new request made
    assert [kind for *_, kind in keys_kept(app)] == ["game created"]
    assert sql(app.config["DATABASE"], "SELECT made_game FROM idempotency_key") == [(again.get_json()["id"],)]
    assert send(client, f"{API}/games", {**NEW_GAME, "name": "Another body, as a new request may have"},
                {}).get_data() == again.get_data()


def test_a_key_kept_23_hours_still_replays(app, client):
    first = send(client, f"{API}/games", NEW_GAME, {})
    earlier = (datetime.now(UTC) - timedelta(hours=23)).isoformat(timespec="seconds")
    sql(app.config["DATABASE"], "UPDATE idempotency_key SET at = ?", (earlier,))
    assert send(client, f"{API}/games", NEW_GAME, {}).get_data() == first.get_data()
    assert game_count(app) == 1


# -- only a write that is made keeps its key -----------------------------------------------------------


def test_a_deal_the_referee_rejects_keeps_no_key_and_the_retry_is_judged_again(app, client):
    game_id, key = api_game(client)
    path, headers = f"{API}/games/{game_id}/deals", {**bearer(key), "Idempotency-Key": "deal-1"}
    broken = valid_deal(1)
    broken["sides"][1]["melds"] = ["A A 2 2"]
    for _ in range(2):
        refused = client.post(path, json={**broken, "revision": 0}, headers=headers)
        assert refused.status_code == 422 and refused.get_json()["error"]["field"] != "Idempotency-Key"
        assert keys_kept(app) == []
    saved = client.post(path, json={**broken, "revision": 0, "as_played": {"reason": "we let it stand"}},
                        headers=headers)
    assert saved.status_code == 201 and saved.get_json()["as_played"] == "we let it stand"
    assert [k for _, _, k, _ in keys_kept(app)] == ["deal-1"]


def test_a_refused_create_keeps_no_key(app, client):
    refused = send(client, f"{API}/games", {**NEW_GAME, "sides": ANN_BEA[:1]}, {})
    assert refused.status_code == 400 and keys_kept(app) == []
    assert send(client, f"{API}/games", NEW_GAME, {}).status_code == 201


# -- the header itself ---------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["", "x" * 256, "caf\u00e9", "tab\there", "del\x7f"],
                         ids=["empty", "256 characters", "not ASCII", "a tab", "a control character"])
@pytest.mark.parametrize("route", ROUTES)
def test_a_key_that_is_not_1_to_255_printable_ascii_characters_is_400_naming_it(app, client, route, value):
    path, body, headers = route_request(client, route)
    before = db_state(app)
    message = assert_key_error(send(client, path, body, headers, key=value), 400)
    assert "255 printable ASCII characters" in message
    assert db_state(app) == before


@pytest.mark.parametrize("value", ["k", "x" * 255, "f47ac10b-58cc-4372-a567-0e02b2c3d479", "a b ~!{}"])
def test_any_1_to_255_printable_ascii_characters_make_a_key(app, client, value):
    first = send(client, f"{API}/games", NEW_GAME, {}, key=value)
    assert first.status_code == 201
    assert send(client, f"{API}/games", NEW_GAME, {}, key=value).get_data() == first.get_data()
    assert [k for _, _, k, _ in keys_kept(app)] == [value]


def test_a_replay_still_needs_the_games_edit_key(client):
    game_id, key = api_game(client)
    path = f"{API}/games/{game_id}/deals"
    assert client.post(path, json=valid_deal(1), headers={**bearer(key), "Idempotency-Key": "k"}).status_code == 201
    assert client.post(path, json=valid_deal(1), headers={"Idempotency-Key": "k"}).status_code == 401
    _, other_key = api_game(client, "Other")
    wrong_key = client.post(path, json=valid_deal(1), headers={**bearer(other_key), "Idempotency-Key": "k"})
    assert wrong_key.status_code == 403


# -- requests at the same time, on the production server ------------------------------------------------


def post(port: int, path: str, body: Any, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("POST", path, json.dumps(body).encode(), {"Content-Type": "application/json", **headers})
        response = conn.getresponse()
        return response.status, {k.title(): v for k, v in response.getheaders()}, response.read()
    finally:
        conn.close()


class Racing:
    """Requests sent each in a thread; ``done`` gives the answers in the order they came."""

    def __init__(self) -> None:
        self.answers: list[tuple[int, dict[str, str], bytes]] = []
        self.came = threading.Condition()
        self.threads: list[threading.Thread] = []

    def send(self, port: int, path: str, body: Any, headers: dict[str, str]) -> None:
        def run() -> None:
            answer = post(port, path, body, headers)
            with self.came:
                self.answers.append(answer)
                self.came.notify_all()
        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        self.threads.append(thread)

    def wait_for(self, count: int, timeout: float) -> list[tuple[int, dict[str, str], bytes]]:
        with self.came:
            assert self.came.wait_for(lambda: len(self.answers) >= count, timeout), self.answers
            return list(self.answers)


def holding_the_write_lock(database: str) -> sqlite3.Connection:
    """Another program's transaction holding the database's write lock until rolled back."""
    conn = sqlite3.connect(database, isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    return conn


def test_a_retry_while_the_first_request_is_still_being_written_is_409(tmp_path):
    """Two requests with one key on one server: while the first waits for the write lock
    (another program holds it), the second is a 409 naming the header, with Retry-After;
    the first is then written, and a third request gets its answer."""
    database = str(tmp_path / "race.sqlite")
    with ProductionServer(database, str(tmp_path / "server.log"), env={"SCOREPAD_BUSY_TIMEOUT": "30"}) as server:
        headers = {"Idempotency-Key": "create-friday"}
        lock = holding_the_write_lock(database)
        race = Racing()
        try:
            race.send(server.port, f"{API}/games", NEW_GAME, headers)
            race.send(server.port, f"{API}/games", NEW_GAME, headers)
            status, answered, body = race.wait_for(1, 20)[0]
            assert status == 409, body
            error = json.loads(body)["error"]
            assert error["field"] == "Idempotency-Key" and "still being processed" in error["message"]
            assert json.loads(body)["type"] == "/api/v1/problems/request-in-progress"
            assert answered["Content-Type"] == "application/problem+json"
            assert answered["Retry-After"] == "1"
            assert len(race.answers) == 1  # the other is still waiting for the lock
        finally:
            lock.execute("ROLLBACK")
            lock.close()
        written = race.wait_for(2, 30)[1]
        assert written[0] == 201 and "Idempotent-Replayed" not in written[1]
        replayed = post(server.port, f"{API}/games", NEW_GAME, headers)
        assert replayed[0] == 201 and replayed[2] == written[2] and replayed[1]["Idempotent-Replayed"] == "true"
    conn = sqlite3.connect(database)
    try:
        assert conn.execute("SELECT COUNT(*) FROM game").fetchone()[0] == 1
    finally:
        conn.close()


def test_two_servers_given_one_key_write_once_and_answer_alike(tmp_path):
    """Two server processes on one database file, the same deal sent to each with one key
    while another program holds the write lock: both wait for it; one records the deal, the
    other then finds its key kept and replays its answer (not a stale revision's 409)."""
    database = str(tmp_path / "two.sqlite")
    env = {"SCOREPAD_BUSY_TIMEOUT": "30"}
    with ProductionServer(database, str(tmp_path / "one.log"), env=env) as one, \
            ProductionServer(database, str(tmp_path / "two.log"), env=env) as two:
        status, _, body = post(one.port, f"{API}/games", NEW_GAME, {})
        assert status == 201
        game = json.loads(body)
        path, deal = f"{API}/games/{game['id']}/deals", {**valid_deal(1), "revision": 0}
        headers = {**bearer(game["edit_key"]), "Idempotency-Key": "deal-1"}
        lock = holding_the_write_lock(database)
        race = Racing()
        try:
            race.send(one.port, path, deal, headers)
            race.send(two.port, path, deal, headers)
            time.sleep(1.0)  # both reach the lock and wait there
            assert race.answers == []
        finally:
            lock.execute("ROLLBACK")
            lock.close()
        answers = race.wait_for(2, 60)
    assert [a[0] for a in answers] == [201, 201], answers
    assert answers[0][2] == answers[1][2]
    assert sorted(a[1].get("Idempotent-Replayed", "") for a in answers) == ["", "true"]
    conn = sqlite3.connect(database)
    try:
        assert conn.execute("SELECT COUNT(*) FROM deal").fetchone()[0] == 1
        assert conn.execute("SELECT revision FROM game").fetchone()[0] == 1
    finally:
        conn.close()


# -- a key is one client's: another client's same key is another key -----------------------------------


def from_address(app, address: str):
    """A client (such as curl, with no session cookie) at ``address``."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def kept_bodies(app) -> str:
    """Everything kept with the keys, every column of every row (what each write made: no answer is kept)."""
    return json.dumps(sql(app.config["DATABASE"], "SELECT * FROM idempotency_key"))


def edit_keys(app) -> list[str]:
    return [key for (key,) in sql(app.config["DATABASE"], "SELECT edit_key FROM game")]


@pytest.mark.parametrize("route", ["create", "import"])
def test_the_same_key_and_body_from_another_client_makes_its_own_game_and_never_the_first_ones_key(app, route):
    """The key was the site's: a second client sending the first's key and body got the first
    answer, edit key included. Now each client's key is its own: the second makes its own game."""
    first, second = from_address(app, "192.0.2.1"), from_address(app, "192.0.2.2")
    path, body, headers = route_request(first, route)
    mine = send(first, path, body, headers, key="copied-from-the-docs")
    theirs = send(second, path, body, headers, key="copied-from-the-docs")
    assert mine.status_code == theirs.status_code == 201, theirs.get_data(as_text=True)
    assert "Idempotent-Replayed" not in theirs.headers
    assert theirs.get_json()["id"] != mine.get_json()["id"]
    assert mine.get_json()["edit_key"] not in theirs.get_data(as_text=True)
    again = send(first, path, body, headers, key="copied-from-the-docs")  # each still gets its own answer
    assert again.headers["Idempotent-Replayed"] == "true" and again.get_data() == mine.get_data()
    assert send(second, path, body, headers, key="copied-from-the-docs").get_data() == theirs.get_data()


def test_the_same_key_with_another_body_from_another_client_is_its_own_request_not_a_422(app):
    first, second = from_address(app, "192.0.2.1"), from_address(app, "192.0.2.2")
    assert send(first, f"{API}/games", NEW_GAME, {}).status_code == 201
    other = send(second, f"{API}/games", {**NEW_GAME, "name": "Saturday"}, {})
    assert other.status_code == 201 and other.get_json()["edit_key"] not in kept_bodies(app)


def test_a_browser_with_a_session_and_a_client_without_one_at_one_address_are_two_clients(app, client):
    """Behind one address (a club's Wi-Fi), a browser given the new-game page has keys of its
    own (its session holds its own id); a client without a cookie is known by its address."""
    game, key = api_game(client)
    grant(client, game, key)  # the browser now holds a session
    assert client.get("/new").status_code == 200  # and its own id, with the page
    browser = send(client, f"{API}/games", NEW_GAME, {})
    curl = send(app.test_client(), f"{API}/games", NEW_GAME, {})
    assert browser.status_code == curl.status_code == 201 and "Idempotent-Replayed" not in curl.headers
    assert browser.get_json()["edit_key"] not in curl.get_data(as_text=True)
    assert send(client, f"{API}/games", NEW_GAME, {}).get_data() == browser.get_data()
    clients = {client for (client,) in sql(app.config["DATABASE"], "SELECT client FROM idempotency_key")}
    assert len(clients) == 2 and all(scope.startswith(("session ", "address ")) for scope in clients)
    assert "127.0.0.1" not in json.dumps(sorted(clients))  # a digest, not the address


@pytest.mark.parametrize("page", ["/new", "/import"])
def test_a_browsers_create_sent_again_with_the_cookie_it_had_is_a_replay_not_a_second_game(app, client, page):
    """The browser's own id is given with the page whose form creates a game, never inside
    the write: a create whose answer (and any cookie it set) was lost, sent again with the
    cookie the browser had, is the same client's key, and makes no second game."""
    watched, _ = api_game(app.test_client())
    watch(client, watched)  # the browser has a session: it watches a game
    given = client.get(page)
    assert given.status_code == 200 and given.headers["Cache-Control"] == "no-store"  # its cookie: this browser's
    had = client.get_cookie("session").value
    path, body = (f"{API}/games", NEW_GAME) if page == "/new" else (f"{API}/games/import", export_of(client, watched))
    first = send(client, path, body, {}, key="browser-1")
    assert first.status_code == 201
    client.set_cookie("session", had)  # the answer lost, with whatever cookie it set
    again = send(client, path, body, {}, key="browser-1")
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_data() == first.get_data() and game_count(app) == 2  # the game watched, and one made
    [(scope,)] = sql(app.config["DATABASE"], "SELECT client FROM idempotency_key")
    assert scope.startswith("session ")


def test_a_session_without_an_id_of_its_own_is_known_by_its_address_and_its_retry_replays(app, client):
    """A cookie from before browsers were given their own id: nothing is made for it inside
    the write, so its key is its address's, and the retry is a replay."""
    with client.session_transaction() as session:
        session["games"] = [["0" * 22]]
    had = client.get_cookie("session").value
    first = send(client, f"{API}/games", NEW_GAME, {}, key="browser-1")
    client.set_cookie("session", had)
    again = send(client, f"{API}/games", NEW_GAME, {}, key="browser-1")
    assert again.headers["Idempotent-Replayed"] == "true" and again.get_data() == first.get_data()
    assert game_count(app) == 1
    [(scope,)] = sql(app.config["DATABASE"], "SELECT client FROM idempotency_key")
    assert scope.startswith("address ")


def test_no_kept_answer_holds_an_edit_key_and_each_answer_rebuilds_it_from_the_game(app, client):
    path, body, headers = route_request(client, "import")
    made = [send(client, f"{API}/games", NEW_GAME, {}, key="create-1"), send(client, path, body, headers,
                                                                             key="import-1")]
    assert [m.status_code for m in made] == [201, 201]
    stored = kept_bodies(app)
    assert "edit_key" not in stored and "edit_url" not in stored
    assert all(key not in stored for key in edit_keys(app))
    for answer in made:
        shown = answer.get_json()
        assert shown["edit_url"].endswith(f"/games/{shown['id']}/edit/{shown['edit_key']}")
        assert shown["edit_key"] in edit_keys(app)


def test_a_create_replayed_before_any_rekey_answers_the_games_edit_key(app, client):
    created = send(client, f"{API}/games", NEW_GAME, {}, key="create-1")
    again = send(client, f"{API}/games", NEW_GAME, {}, key="create-1")
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json()["edit_key"] == created.get_json()["edit_key"]
    assert again.get_json()["edit_url"].endswith(created.get_json()["edit_key"]) and game_count(app) == 1


def test_after_a_rekey_the_create_key_and_earlier_rekey_keys_answer_no_key(app, client):
    """Every answer kept for the game before a replacement was made under a key that no longer
    works: sent again, each is a new request (the create a new game, a rekey refused for its
    replaced key), and none gets the game's key. The newest replacement's own retry still does."""
    created = send(client, f"{API}/games", NEW_GAME, {}, key="create-1").get_json()
    game_id, first_key = created["id"], created["edit_key"]
    second_key = rekey(client, game_id, first_key, "rekey-1").get_json()["edit_key"]
    third_key = rekey(client, game_id, second_key, "rekey-2").get_json()["edit_key"]
    old_rekey = rekey(client, game_id, first_key, "rekey-1")
    assert old_rekey.status_code == 401 and old_rekey.get_json()["type"] == "/api/v1/problems/edit-key-replaced"
    assert "Idempotent-Replayed" not in old_rekey.headers and "edit_key" not in old_rekey.get_json()
    old_create = send(client, f"{API}/games", NEW_GAME, {}, key="create-1")
    assert old_create.status_code == 201 and "Idempotent-Replayed" not in old_create.headers
    assert old_create.get_json()["id"] != game_id and game_count(app) == 2  # a new request: a game of its own
    for answer in (old_rekey, old_create):
        assert second_key not in answer.get_data(as_text=True) and third_key not in answer.get_data(as_text=True)
    newest = rekey(client, game_id, second_key, "rekey-2")  # the newest replacement's retry, its answer lost
    assert newest.headers["Idempotent-Replayed"] == "true" and newest.get_json()["edit_key"] == third_key
    assert client.get(f"{API}/games/{game_id}").get_json()["revision"] == 2


# -- replacing the edit key ------------------------------------------------------------------------------


def rekey(client, game_id: str, key: str | None, idempotency_key: str | None = "rekey-1"):
    headers = {**(bearer(key) if key else {}), **({"Idempotency-Key": idempotency_key} if idempotency_key else {})}
    return client.post(f"{API}/games/{game_id}/edit-key", headers=headers)


def test_replacing_the_edit_key_answers_a_new_key_and_the_old_one_is_refused_saying_so(app, client):
    game_id, old = api_game(client, deals=[valid_deal(1)])
    answer = rekey(client, game_id, old, None)
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store"
    new = answer.get_json()
    assert new["edit_key"] != old and new["id"] == game_id and new["revision"] == 2
    assert new["edit_url"].endswith(f"/games/{game_id}/edit/{new['edit_key']}")
    refused = client.post(f"{API}/games/{game_id}/deals", json=valid_deal(2), headers=bearer(old))
    error = assert_error_shape(refused, 401)
    assert refused.get_json()["type"] == "/api/v1/problems/edit-key-replaced"
    assert "was replaced" in error["message"]
    assert refused.get_json()["view_url"].endswith(f"/games/{game_id}")
    assert 'error="invalid_token"' in refused.headers["WWW-Authenticate"]
    assert client.post(f"{API}/games/{game_id}/deals", json={**valid_deal(2), "repeat": True},  # deal 1 again
                       headers=bearer(new["edit_key"])).status_code == 201
    history = client.get(f"{API}/games/{game_id}/history").get_json()["history"]
    assert [e["action"] for e in history] == ["record", "rekey", "record"]
    assert old not in json.dumps(history) and new["edit_key"] not in json.dumps(history)


def test_a_replayed_rekey_answers_the_current_key_to_the_holder_of_the_key_it_replaced_only(app, client):
    game_id, old = api_game(client)
    first = rekey(client, game_id, old)
    assert first.status_code == 200 and "Idempotent-Replayed" not in first.headers
    again = rekey(client, game_id, old)  # its answer lost: sent again, with the key it had
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_data() == first.get_data()
    assert client.get(f"{API}/games/{game_id}").get_json()["revision"] == 1  # replaced once
    new = first.get_json()["edit_key"]
    assert new not in kept_bodies(app)
    _, stranger_key = api_game(client, "Another game")
    strangers = (rekey(client, game_id, stranger_key), rekey(client, game_id, None), rekey(client, game_id, game_id))
    for stranger in strangers:
        assert stranger.status_code in (401, 403) and new not in stranger.get_data(as_text=True)
    # the new key's holder sending the same Idempotency-Key has a key of its own: another replacement
    newer = rekey(client, game_id, new)
    assert newer.status_code == 200 and "Idempotent-Replayed" not in newer.headers
    assert newer.get_json()["edit_key"] not in (old, new)


def test_a_deals_replay_sent_with_a_replaced_key_is_refused_as_the_key_is(app, client):
    game_id, old = api_game(client)
    path, headers = f"{API}/games/{game_id}/deals", {**bearer(old), "Idempotency-Key": "deal-1"}
    assert client.post(path, json=valid_deal(1), headers=headers).status_code == 201
    assert rekey(client, game_id, old).status_code == 200
    refused = client.post(path, json=valid_deal(1), headers=headers)
    assert refused.status_code == 401 and refused.get_json()["type"] == "/api/v1/problems/edit-key-replaced"


def test_a_rekey_takes_no_body_but_an_empty_one(client):
    game_id, key = api_game(client)
    refused = client.post(f"{API}/games/{game_id}/edit-key", json={"edit_key": "mine"}, headers=bearer(key))
    error = assert_error_shape(refused, 400, "edit_key")
    assert error["message"].endswith("is not a field here: this route takes no fields (send an empty body, or {})")
    assert client.post(f"{API}/games/{game_id}/edit-key", json={}, headers=bearer(key)).status_code == 200
    assert client.post(f"{API}/games/nosuchgame/edit-key", headers=bearer(key)).status_code == 404
