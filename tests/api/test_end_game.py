"""Ending a game the table ends, by the API (``game_length: open``, issue 23 item 1.9):
``POST /api/v1/games/<id>/end`` and ``.../reopen``, writes like the others (the edit key,
``revision`` or ``If-Match``, an ``Idempotency-Key``), answered with the game's result; a deal
sent to an ended game is a 409 saying to reopen it; a game whose sheet ends it is never ended.

``valid_deal`` scores Ann 1,060 and Bea 5 a deal (tests/storage/test_ended_games.py works it).
"""

from __future__ import annotations

import pytest

from tests.helpers import REPEAT, api_game, assert_error_shape, bearer, valid_deal

API = "/api/v1"
OPEN = {"preset": "common", "game_length": "open"}


def problem_of(response, status: int, field: str | None) -> dict:
    """The problem the API answered (its one shape checked), whole: type, detail and extensions."""
    assert_error_shape(response, status, field)
    return response.get_json(force=True)


def open_game(client, deals: int = 2) -> tuple[str, str]:
    return api_game(client, "Rally", sheet=OPEN, deals=[valid_deal(n) for n in range(1, deals + 1)])


@pytest.mark.backends
def test_ending_answers_the_result_and_the_game_then_shows_the_winner(client):
    game_id, key = open_game(client)
    before = client.get(f"{API}/games/{game_id}").get_json()
    assert (before["over"], before["winner"], before["next_deal"]["number"]) == (False, None, 3)
    ended = client.post(f"{API}/games/{game_id}/end", json={"revision": 2}, headers=bearer(key))
    assert ended.status_code == 200, ended.get_data(as_text=True)
    body = ended.get_json()
    assert (body["id"], body["revision"], body["over"], body["winner"], body["tie"]) == (game_id, 3, True, "Ann",
                                                                                      False)
    assert body["standings"] == [{"name": "Ann", "total": 2120}, {"name": "Bea", "total": 10}]  # 2 x 1,060; 2 x 5
    assert body["ended_at"] and body["next_deal"] is None
    game = client.get(f"{API}/games/{game_id}").get_json()
    assert (game["over"], game["winner"], game["next_deal"]) == (True, "Ann", None)
    history = client.get(f"{API}/games/{game_id}/history").get_json()["history"]
    assert history[-1]["action"] == "end" and history[-1]["new_totals"] == {"Ann": 2120, "Bea": 10}


def test_a_deal_sent_to_an_ended_game_is_a_409_saying_to_reopen_it(client):
    game_id, key = open_game(client)
    client.post(f"{API}/games/{game_id}/end", headers=bearer(key))
    refused = client.post(f"{API}/games/{game_id}/deals", json=valid_deal(None) | REPEAT, headers=bearer(key))
    problem = problem_of(refused, 409, "deal")
    assert problem["type"].endswith("/no-room") and "reopen the game first" in problem["detail"]


def test_reopening_answers_the_game_going_on_and_takes_the_next_deal(client):
    game_id, key = open_game(client)
    client.post(f"{API}/games/{game_id}/end", headers=bearer(key))
    reopened = client.post(f"{API}/games/{game_id}/reopen", headers={**bearer(key), "If-Match": f'"{game_id}.3"'})
    assert reopened.status_code == 200
    body = reopened.get_json()
    assert (body["revision"], body["over"], body["winner"], body["ended_at"]) == (4, False, None, None)
    assert body["next_deal"]["number"] == 3
    assert client.post(f"{API}/games/{game_id}/deals", json=valid_deal(3) | REPEAT,
                       headers=bearer(key)).status_code == 201


def test_ending_on_a_stale_revision_is_a_409_and_on_a_stale_etag_a_412(client):
    game_id, key = open_game(client)
    stale = client.post(f"{API}/games/{game_id}/end", json={"revision": 1}, headers=bearer(key))
    problem = problem_of(stale, 409, "revision")
    assert problem["revision"] == 2 and [c["message"] for c in problem["changes"]] == ["deal 2 was recorded"]
    late = client.post(f"{API}/games/{game_id}/end", headers={**bearer(key), "If-Match": f'"{game_id}.1"'})
    assert late.status_code == 412
    assert client.get(f"{API}/games/{game_id}").get_json()["over"] is False


def test_ending_needs_the_edit_key(client):
    game_id, _ = open_game(client)
    assert_error_shape(client.post(f"{API}/games/{game_id}/end"), 401)
    assert_error_shape(client.post(f"{API}/games/{game_id}/end", headers=bearer(game_id)), 403)
    assert_error_shape(client.post(f"{API}/games/NoSuchGameAtAll000000/end", headers=bearer("x")), 404)


def test_ending_reads_only_a_revision(client):
    game_id, key = open_game(client)
    assert_error_shape(client.post(f"{API}/games/{game_id}/end", json={"winner": "Bea"}, headers=bearer(key)),
                       400, "winner")
    assert_error_shape(client.post(f"{API}/games/{game_id}/end", json={"revision": "2"}, headers=bearer(key)),
                       400, "revision")


@pytest.mark.parametrize("route", ["end", "reopen"])
def test_a_game_whose_sheet_ends_it_is_not_ended_by_hand(client, route):
    game_id, key = api_game(client, deals=[valid_deal(1)])
    refused = client.post(f"{API}/games/{game_id}/{route}", headers=bearer(key))
    problem = problem_of(refused, 409, "game_length")
    assert problem["type"].endswith("/no-room") and "'open'" in problem["detail"]
    assert client.get(f"{API}/games/{game_id}").get_json()["revision"] == 1


def test_ending_with_an_idempotency_key_sent_twice_is_made_once(client):
    game_id, key = open_game(client)
    headers = {**bearer(key), "Idempotency-Key": "end-rally-1"}
    first = client.post(f"{API}/games/{game_id}/end", headers=headers)
    again = client.post(f"{API}/games/{game_id}/end", headers=headers)
    assert first.status_code == again.status_code == 200
    assert again.headers["Idempotent-Replayed"] == "true" and "Idempotent-Replayed" not in first.headers
    assert again.get_json() == first.get_json()
    assert [e["action"] for e in client.get(f"{API}/games/{game_id}/history").get_json()["history"]].count("end") == 1


def test_ending_an_ended_game_changes_nothing(client):
    game_id, key = open_game(client)
    client.post(f"{API}/games/{game_id}/end", headers=bearer(key))
    again = client.post(f"{API}/games/{game_id}/end", headers=bearer(key))
    assert again.status_code == 200 and again.get_json()["revision"] == 3


def test_the_openapi_description_has_end_and_reopen_as_writes(client):
    paths = client.get(f"{API}/openapi.json").get_json()["paths"]
    for route in ("end", "reopen"):
        post = paths[f"/api/v1/games/{{game_id}}/{route}"]["post"]
        ok = post["responses"]["200"]["content"]["application/json"]["schema"]
        assert ok == {"$ref": "#/components/schemas/Ended"}
        assert {"401", "403", "404", "409", "410", "412", "507"} <= set(post["responses"])
        assert post["security"] == [{"editKey": []}] and post["requestBody"]["required"] is False
        assert {"$ref": "#/components/parameters/IdempotencyKey"} in post["parameters"]
