"""``DELETE /api/v1/games/<id>`` (issue 21, item 7): the editor deletes a game for good, as a
write (its key, ``?revision=`` or ``If-Match``, the write limit), and every address of the
game then answers 410 ``gone`` saying when."""

from __future__ import annotations

import pytest

from tests.helpers import api_game, assert_error_shape, bearer, valid_deal

API = "/api/v1"


def game_routes(game_id: str) -> list[tuple[str, str]]:
    """Every API route of one game, and the pages that show or give it."""
    return [("get", f"{API}/games/{game_id}"), ("get", f"{API}/games/{game_id}/revision"),
            ("get", f"{API}/games/{game_id}/history"), ("get", f"{API}/games/{game_id}/deals/1"),
            ("get", f"{API}/games/{game_id}/export"), ("get", f"{API}/games/{game_id}/scores.csv"),
            ("get", f"{API}/referee/games/{game_id}/deals/1/explain"),
            ("get", f"{API}/referee/games/{game_id}/rescore?sheet=pagat"),
            ("post", f"{API}/games/{game_id}/deals"), ("put", f"{API}/games/{game_id}/deals/1"),
            ("delete", f"{API}/games/{game_id}/deals/1"), ("put", f"{API}/games/{game_id}/sheet"),
            ("delete", f"{API}/games/{game_id}")]


@pytest.mark.backends
def test_the_editor_deletes_a_game_and_every_route_of_it_then_answers_410_gone_saying_when(client):
    game_id, key = api_game(client, deals=[valid_deal(1)])
    other_id, _ = api_game(client, "Saturday")
    response = client.delete(f"{API}/games/{game_id}", headers=bearer(key))
    assert response.status_code == 200
    body = response.get_json()
    assert body["deleted"] == game_id and body["deleted_at"].startswith("20")
    for method, path in game_routes(game_id):
        answer = getattr(client, method)(path, json=valid_deal(2) if method in ("post", "put") else None,
                                         headers=bearer(key))
        error = assert_error_shape(answer, 410, None)
        problem = answer.get_json()
        assert problem["type"] == "/api/v1/problems/gone", (path, problem)
        assert problem["deleted_at"] == body["deleted_at"]
        assert "deleted by its editor" in error["message"], (path, error)
    assert client.get(f"{API}/games/{other_id}").status_code == 200  # another game is still there
    assert_error_shape(client.get(f"{API}/games/NeverMadeAnyGameAtAll0"), 404, None)  # never a game: 404


def test_deleting_needs_the_edit_key(client):
    game_id, _ = api_game(client)
    assert_error_shape(client.delete(f"{API}/games/{game_id}"), 401, None)
    assert_error_shape(client.delete(f"{API}/games/{game_id}", headers=bearer(game_id)), 403, None)
    assert client.get(f"{API}/games/{game_id}").status_code == 200


def test_a_deletion_based_on_a_stale_revision_or_etag_is_refused_and_the_game_stays(client):
    game_id, key = api_game(client, deals=[valid_deal(1)])  # revision 1
    stale = client.delete(f"{API}/games/{game_id}?revision=0", headers=bearer(key))
    assert_error_shape(stale, 409, "revision")
    assert [c["message"] for c in stale.get_json()["changes"]] == ["deal 1 was recorded"]
    assert_error_shape(client.delete(f"{API}/games/{game_id}", headers={**bearer(key), "If-Match": f'"{game_id}.0"'}),
                       412, "If-Match")
    assert_error_shape(client.delete(f"{API}/games/{game_id}?revision=x", headers=bearer(key)), 400, "revision")
    assert client.get(f"{API}/games/{game_id}").status_code == 200
    etag = client.get(f"{API}/games/{game_id}").headers["ETag"]
    assert client.delete(f"{API}/games/{game_id}", headers={**bearer(key), "If-Match": etag}).status_code == 200


def test_deleting_counts_against_the_write_limit_of_the_game(make_app):
    client = make_app(RATELIMIT_ENABLED=True, LIMIT_WRITE="2 per minute").test_client()
    game_id, key = api_game(client)
    for _ in range(2):
        assert client.delete(f"{API}/games/{game_id}?revision=99", headers=bearer(key)).status_code == 400
    assert_error_shape(client.delete(f"{API}/games/{game_id}", headers=bearer(key)), 429, None)
