"""The API's HTTP conventions (issue 26 §3): every ``Location`` absolute, built as the
``*_url`` fields are; the game's ``ETag`` on every answer that carries its revision, writes
included, so a client's next ``If-Match`` is the header it just got; and no path read as
two routes (``/games/import`` is the import's, never a game's)."""

from __future__ import annotations

import pytest

from tests.helpers import ANN_BEA, api_game, bearer, valid_deal

API = "/api/v1"
OPEN = {"preset": "common", "game_length": "open"}
PHONE = {"Scorepad-Phone": "Dan's phone"}
AS_PLAYED = {"went_out": "Bea", "as_played": {"reason": "we let it stand"}}  # a correction, saved as played


def etag(game_id: str, revision: int) -> str:
    return f'"{game_id}.{revision}"'


# -- Location ------------------------------------------------------------------------------------


@pytest.mark.backends
def test_a_new_games_location_is_absolute_and_the_same_as_its_api_url(client):
    made = client.post(f"{API}/games", json={"name": "Friday", "sheet": "common",
                                             "sides": ANN_BEA})
    assert made.status_code == 201
    body = made.get_json()
    assert made.headers["Location"] == body["api_url"] == f"http://localhost{API}/games/{body['id']}"


def test_location_follows_public_url_and_prefix_as_the_links_do(make_app):
    app = make_app(PUBLIC_URL="https://club.example/cards")
    phone = app.test_client()
    made = phone.post(f"/cards{API}/games", json={"name": "Friday", "sheet": "common",
                                                  "sides": ANN_BEA})
    body = made.get_json()
    assert made.headers["Location"] == body["api_url"] == f"https://club.example/cards{API}/games/{body['id']}"
    saved = phone.post(f"/cards{API}/games/{body['id']}/deals", json=valid_deal(1), headers=bearer(body["edit_key"]))
    assert saved.headers["Location"] == f"https://club.example/cards{API}/games/{body['id']}/deals/1"


def test_location_behind_a_proxy_is_the_scheme_and_host_the_client_used(make_app):
    phone = make_app(PROXIES=1).test_client()
    forwarded = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "scores.example.org", "X-Forwarded-For": "10.0.0.9"}
    made = phone.post(f"{API}/games", json={"name": "Friday", "sheet": "common",
                                            "sides": ANN_BEA}, headers=forwarded)
    assert made.headers["Location"] == f"https://scores.example.org{API}/games/{made.get_json()['id']}"


def test_an_imported_games_location_is_absolute(client):
    game_id, _ = api_game(client, deals=[valid_deal(1)])
    document = client.get(f"{API}/games/{game_id}/export").get_json(force=True)
    made = client.post(f"{API}/games/import", json=document)
    assert made.status_code == 201, made.get_data(as_text=True)
    assert made.headers["Location"] == made.get_json()["api_url"]
    assert made.headers["Location"].startswith("http://localhost/api/v1/games/")


# -- ETag on every answer that carries a revision -------------------------------------------------


@pytest.mark.backends
def test_every_write_that_answers_the_games_revision_sends_the_games_etag_after_it(client):
    made = client.post(f"{API}/games", json={"name": "Rally", "sheet": OPEN, "sides": ANN_BEA})
    game_id, key = made.get_json()["id"], made.get_json()["edit_key"]
    assert made.headers["ETag"] == etag(game_id, 0)
    answers = {
        "record": client.post(f"{API}/games/{game_id}/deals", json=valid_deal(1), headers=bearer(key)),
        "record 2": client.post(f"{API}/games/{game_id}/deals", json={**valid_deal(2), "repeat": True},
                                headers=bearer(key)),
        "correct": client.put(f"{API}/games/{game_id}/deals/2", json={**valid_deal(2), **AS_PLAYED},
                              headers=bearer(key)),
        "delete": client.delete(f"{API}/games/{game_id}/deals/2", headers=bearer(key)),
        "amend": client.put(f"{API}/games/{game_id}/sheet", json={"sheet": {**OPEN, "cut_bonus": 100},
                                                                 "reason": "house rule"}, headers=bearer(key)),
        "end": client.post(f"{API}/games/{game_id}/end", headers=bearer(key)),
        "reopen": client.post(f"{API}/games/{game_id}/reopen", headers=bearer(key)),
    }
    for write, answer in answers.items():
        assert answer.status_code in (200, 201), (write, answer.get_data(as_text=True))
        assert answer.headers.get("ETag") == etag(game_id, answer.get_json()["revision"]), write
    rekeyed = client.post(f"{API}/games/{game_id}/edit-key", headers=bearer(key))
    assert rekeyed.headers["ETag"] == etag(game_id, rekeyed.get_json()["revision"])
    now = client.get(f"{API}/games/{game_id}")
    assert now.headers["ETag"] == rekeyed.headers["ETag"] == etag(game_id, 8)


def test_the_etag_a_write_answers_is_the_if_match_of_the_next(client):
    game_id, key = api_game(client)
    saved = client.post(f"{API}/games/{game_id}/deals", json=valid_deal(1), headers=bearer(key))
    again = client.put(f"{API}/games/{game_id}/deals/1", json={**valid_deal(1), **AS_PLAYED},
                       headers={**bearer(key), "If-Match": saved.headers["ETag"]})
    assert again.status_code == 200, again.get_data(as_text=True)
    stale = client.delete(f"{API}/games/{game_id}/deals/1", headers={**bearer(key), "If-Match": saved.headers["ETag"]})
    assert stale.status_code == 412
    gone = client.delete(f"{API}/games/{game_id}/deals/1", headers={**bearer(key), "If-Match": again.headers["ETag"]})
    assert gone.status_code == 200 and gone.headers["ETag"] == etag(game_id, 3)


def test_a_replayed_write_sends_the_etag_its_body_carries(client):
    game_id, key = api_game(client)
    retry = {**bearer(key), "Idempotency-Key": "one-deal"}
    first = client.post(f"{API}/games/{game_id}/deals", json=valid_deal(1), headers=retry)
    again = client.post(f"{API}/games/{game_id}/deals", json=valid_deal(1), headers=retry)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["ETag"] == first.headers["ETag"] == etag(game_id, 1)


def test_the_part_that_completes_a_deal_sends_the_etag_and_an_open_deals_answer_none(client):
    game_id, key = api_game(client)
    deal = valid_deal(1)
    ann, bea = ({k: v for k, v in side.items() if k != "name"} for side in deal["sides"])
    first = client.put(f"{API}/games/{game_id}/deals/1/parts/1", json=ann, headers={**bearer(key), **PHONE})
    assert first.status_code == 200 and "revision" not in first.get_json() and "ETag" not in first.headers
    ending = {"ending": "went_out", "went_out": "Ann"}
    assert client.put(f"{API}/games/{game_id}/deals/1/ending", json=ending,
                      headers={**bearer(key), **PHONE}).status_code == 200
    last = client.put(f"{API}/games/{game_id}/deals/1/parts/2", json=bea, headers={**bearer(key), **PHONE})
    assert last.status_code == 201, last.get_data(as_text=True)
    assert last.headers["ETag"] == etag(game_id, 1)
    assert last.headers["Location"] == f"http://localhost{API}/games/{game_id}/deals/1"


# -- /games/import is one route ----------------------------------------------------------------------


def test_options_of_the_import_offers_post_only(client):
    answer = client.options(f"{API}/games/import")
    assert set(answer.headers["Allow"].split(", ")) == {"POST", "OPTIONS"}


def test_get_of_the_import_is_a_405_naming_post_not_a_missing_game(client):
    answer = client.get(f"{API}/games/import")
    assert answer.status_code == 405
    assert set(answer.headers["Allow"].split(", ")) == {"POST", "OPTIONS"}
    assert answer.get_json()["status"] == 405
    assert client.delete(f"{API}/games/import").status_code == 405


def test_a_game_is_still_read_and_deleted_at_its_path(client):
    game_id, key = api_game(client)
    assert client.get(f"{API}/games/{game_id}").status_code == 200
    assert set(client.options(f"{API}/games/{game_id}").headers["Allow"].split(", ")) == {
        "GET", "HEAD", "DELETE", "OPTIONS"}
    assert client.delete(f"{API}/games/{game_id}", headers=bearer(key)).status_code == 200
