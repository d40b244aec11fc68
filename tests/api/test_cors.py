"""Cross-origin requests to the API (``CORS_ORIGINS``, :mod:`scorepad.api.cors`): none by
default; for the origins named, on ``/api/v1/*`` only, never with credentials, the
preflight answered for them alone; and an answer replayed below Flask (the game's JSON, the
revision poll) carries the CORS headers of the origin that asked, not of the first one."""

from __future__ import annotations

import pytest

from scorepad.app import StartupError
from scorepad.web import replay
from tests.helpers import api_game, bearer, valid_deal

API = "/api/v1"
CLUB = "https://club.example"
STRANGER = "https://stranger.example"
PREFLIGHT = {"Access-Control-Request-Method": "PUT",
             "Access-Control-Request-Headers": "Authorization, Content-Type, If-Match, Idempotency-Key"}


@pytest.fixture
def club(make_app):
    """A phone on a server that lets pages of CLUB call its API."""
    return make_app(CORS_ORIGINS=CLUB).test_client()


def cors_headers(response) -> dict[str, str]:
    return {name: value for name, value in response.headers.items() if name.lower().startswith("access-control-")}


def test_without_cors_origins_no_answer_carries_a_cors_header(client):
    game_id, _ = api_game(client)
    for asked in (client.get(f"{API}/games/{game_id}", headers={"Origin": CLUB}),
                  client.options(f"{API}/games/{game_id}/sheet", headers={"Origin": CLUB, **PREFLIGHT})):
        assert cors_headers(asked) == {}


def test_a_preflight_from_an_allowed_origin_allows_the_apis_headers_and_never_credentials(club):
    game_id, _ = api_game(club)
    answer = club.options(f"{API}/games/{game_id}/sheet", headers={"Origin": CLUB, **PREFLIGHT})
    assert answer.status_code == 200
    allowed = cors_headers(answer)
    assert allowed["Access-Control-Allow-Origin"] == CLUB
    assert {"authorization", "content-type", "if-match", "idempotency-key"} <= {
        h.strip().lower() for h in allowed["Access-Control-Allow-Headers"].split(",")}
    assert "PUT" in allowed["Access-Control-Allow-Methods"]
    assert "Access-Control-Allow-Credentials" not in allowed
    assert "Origin" in answer.headers["Vary"]


def test_a_preflight_from_another_origin_gets_no_cors_headers(club):
    game_id, _ = api_game(club)
    answer = club.options(f"{API}/games/{game_id}/sheet", headers={"Origin": STRANGER, **PREFLIGHT})
    assert cors_headers(answer) == {}


def test_an_allowed_origin_may_read_the_write_headers_it_needs(club):
    game_id, key = api_game(club)
    saved = club.post(f"{API}/games/{game_id}/deals", json=valid_deal(1), headers={**bearer(key), "Origin": CLUB})
    assert saved.status_code == 201
    allowed = cors_headers(saved)
    assert allowed["Access-Control-Allow-Origin"] == CLUB
    assert "Access-Control-Allow-Credentials" not in allowed
    assert {"ETag", "Location", "Idempotent-Replayed", "RateLimit", "RateLimit-Policy", "Retry-After"} <= {
        h.strip() for h in allowed["Access-Control-Expose-Headers"].split(",")}
    refused = club.post(f"{API}/games/{game_id}/deals", json=valid_deal(2), headers={"Origin": CLUB})
    assert refused.status_code == 401 and refused.headers["Access-Control-Allow-Origin"] == CLUB  # errors too


def test_the_pages_never_carry_cors_headers(club):
    game_id, _ = api_game(club)
    assert cors_headers(club.get(f"/games/{game_id}", headers={"Origin": CLUB})) == {}


@pytest.mark.parametrize("path", ["", "/revision"])
def test_an_answer_replayed_below_flask_carries_the_cors_headers_of_the_origin_that_asked(club, path):
    game_id, _ = api_game(club)
    url = f"{API}/games/{game_id}{path}"
    for _ in range(2):  # the second of each is answered again below Flask, where it is replayed
        assert club.get(url, headers={"Origin": CLUB}).headers["Access-Control-Allow-Origin"] == CLUB
        assert cors_headers(club.get(url, headers={"Origin": STRANGER})) == {}
        assert cors_headers(club.get(url)) == {}
    assert club.get(url, headers={"Origin": CLUB}).headers["Access-Control-Allow-Origin"] == CLUB


def test_the_watchers_replay_keeps_one_answer_per_origin(make_app):
    app = make_app(CORS_ORIGINS=CLUB)
    phone = app.test_client()
    game_id, _ = api_game(phone)
    kept = app.wsgi_app
    while not isinstance(kept, replay.WatchersPages):
        kept = kept.app
    for origin in (CLUB, STRANGER, CLUB, STRANGER):
        phone.get(f"{API}/games/{game_id}", headers={"Origin": origin})
    assert sorted(where[-1] for where in kept.answers) == [CLUB, STRANGER]


@pytest.mark.parametrize("setting", ["club.example", "https://club.example/", "https://club.example/api", 7])
def test_a_cors_origin_that_is_no_origin_stops_start_up_naming_the_setting(make_app, setting):
    with pytest.raises(StartupError, match="CORS_ORIGINS"):
        make_app(CORS_ORIGINS=setting)


def test_cors_origins_comes_from_the_environment_too(make_app, monkeypatch):
    monkeypatch.setenv("SCOREPAD_CORS_ORIGINS", f"{CLUB}, http://localhost:8080")
    phone = make_app().test_client()
    game_id, _ = api_game(phone)
    for origin in (CLUB, "http://localhost:8080"):
        answer = phone.get(f"{API}/games/{game_id}", headers={"Origin": origin})
        assert answer.headers["Access-Control-Allow-Origin"] == origin


def test_any_origin_with_a_star_and_still_no_credentials(make_app):
    phone = make_app(CORS_ORIGINS="*").test_client()
    game_id, _ = api_game(phone)
    answer = phone.get(f"{API}/games/{game_id}", headers={"Origin": STRANGER})
    assert answer.headers["Access-Control-Allow-Origin"] == "*"
    assert "Access-Control-Allow-Credentials" not in answer.headers
    preflight = phone.options(f"{API}/games/{game_id}/sheet", headers={"Origin": STRANGER, **PREFLIGHT})
    assert preflight.headers["Access-Control-Allow-Origin"] == "*"
    assert "Access-Control-Allow-Credentials" not in preflight.headers
