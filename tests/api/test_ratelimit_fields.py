"""The rate limits told to the client (:mod:`scorepad.ratelimit_fields`): ``RateLimit-Policy``
and ``RateLimit`` (draft-ietf-httpapi-ratelimit-headers-10) on each answer a limit counted
or checked, from the real limiter, each limit's window as its setting gives it; on 429s
beside ``Retry-After``; on no other answer."""

from __future__ import annotations

import re

import pytest

from tests.helpers import ANN_BEA, api_game, bearer, valid_deal

API = "/api/v1"
ITEM = re.compile(r'"([a-z0-9-]+)";r=(\d+);t=(\d+)')


@pytest.fixture
def limited_app(make_app):
    return lambda **config: make_app(RATELIMIT_ENABLED=True, **config)


def left(response) -> dict[str, tuple[int, int]]:
    """``RateLimit`` read: each policy's name, what is left of it and the seconds until it starts again."""
    items = [item.strip() for item in response.headers["RateLimit"].split(",")]
    found = {}
    for item in items:
        matched = ITEM.fullmatch(item)
        assert matched, item
        found[matched.group(1)] = (int(matched.group(2)), int(matched.group(3)))
    return found


def new_game(client):
    return client.post(f"{API}/games", json={"name": "Friday", "sheet": "common", "sides": ANN_BEA})


def test_a_new_game_tells_each_rate_of_the_create_limit_and_what_is_left_of_it(limited_app):
    client = limited_app().test_client()
    first = new_game(client)
    assert first.headers["RateLimit-Policy"] == '"create-minute";q=20;w=60, "create-day";q=200;w=86400'
    assert left(first).keys() == {"create-minute", "create-day"}
    remaining, reset = left(first)["create-minute"]
    assert remaining == 19 and 0 < reset <= 60
    assert left(first)["create-day"][0] == 199 and 60 < left(first)["create-day"][1] <= 86400
    assert left(new_game(client))["create-minute"][0] == 18


def test_the_fields_follow_the_setting(limited_app):
    client = limited_app(LIMIT_CREATE="5 per 2 hours").test_client()
    made = new_game(client)
    assert made.headers["RateLimit-Policy"] == '"create";q=5;w=7200'
    assert left(made)["create"][0] == 4


def test_each_write_to_a_game_tells_what_is_left_and_the_429_past_it_says_none_beside_retry_after(limited_app):
    client = limited_app(LIMIT_WRITE="2 per minute").test_client()
    game_id, key = api_game(client)
    deals = f"{API}/games/{game_id}/deals"
    first = client.post(deals, json=valid_deal(1), headers=bearer(key))
    assert first.headers["RateLimit-Policy"] == '"write";q=2;w=60'
    assert left(first)["write"][0] == 1
    second = client.put(f"{deals}/1", json=valid_deal(1), headers=bearer(key))
    assert left(second)["write"][0] == 0
    refused = client.put(f"{deals}/1", json=valid_deal(1), headers=bearer(key))
    assert refused.status_code == 429
    assert refused.headers["RateLimit-Policy"] == '"write";q=2;w=60'
    remaining, reset = left(refused)["write"]
    assert remaining == 0 and 0 < reset <= int(refused.headers["Retry-After"]) <= 61


def test_a_write_refused_for_want_of_the_key_tells_the_refused_limit_too(limited_app):
    client = limited_app().test_client()
    game_id, _ = api_game(client)
    refused = client.post(f"{API}/games/{game_id}/deals", json=valid_deal(1))
    assert refused.status_code == 401
    assert set(refused.headers["RateLimit-Policy"].split(", ")) == {'"write";q=60;w=60', '"refused";q=30;w=60'}
    assert left(refused)["refused"][0] == 29
    assert left(refused)["write"][0] == 60  # a refusal is not counted against the table's writes


def test_past_the_refused_limit_the_429_tells_it(limited_app):
    client = limited_app(LIMIT_REFUSED="1 per minute").test_client()
    game_id, _ = api_game(client)
    assert client.post(f"{API}/games/{game_id}/deals", json=valid_deal(1)).status_code == 401
    past = client.post(f"{API}/games/{game_id}/deals", json=valid_deal(1))
    assert past.status_code == 429
    assert left(past)["refused"][0] == 0 and "Retry-After" in past.headers


def test_a_document_built_tells_the_build_limit_and_one_the_cache_held_tells_nothing(limited_app):
    client = limited_app(LIMIT_BUILD="3 per minute").test_client()
    game_id, key = api_game(client, deals=[valid_deal(1)])
    built = client.get(f"{API}/referee/games/{game_id}/rescore?sheet=pagat")
    assert built.status_code == 200
    assert built.headers["RateLimit-Policy"] == '"build";q=3;w=60'
    assert left(built)["build"][0] == 2
    again = client.get(f"{API}/referee/games/{game_id}/rescore?sheet=pagat")
    assert "RateLimit" not in again.headers and "RateLimit-Policy" not in again.headers


def test_a_history_built_tells_the_build_limit_and_its_replays_below_flask_tell_nothing(limited_app):
    client = limited_app().test_client()
    game_id, _ = api_game(client, deals=[valid_deal(1)])
    built = client.get(f"{API}/games/{game_id}/history")
    assert left(built)["build"][0] == 9
    for _ in range(2):  # the watchers' replay answers these, counting nothing
        again = client.get(f"{API}/games/{game_id}/history")
        assert again.status_code == 200 and "RateLimit" not in again.headers


def test_answers_no_limit_counted_carry_no_fields(limited_app):
    client = limited_app().test_client()
    game_id, _ = api_game(client)
    for path in (f"{API}/games/{game_id}", f"{API}/games/{game_id}/revision", f"/games/{game_id}", f"{API}/sheets"):
        answer = client.get(path)
        assert answer.status_code == 200, path
        assert "RateLimit" not in answer.headers and "RateLimit-Policy" not in answer.headers, path


def test_without_limits_no_answer_carries_the_fields(client):
    made = new_game(client)
    assert "RateLimit" not in made.headers and "RateLimit-Policy" not in made.headers
