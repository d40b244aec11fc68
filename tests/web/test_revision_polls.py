"""Issue 25: a phone's poll of the game's revision answered below Flask once the route has
answered that phone (scorepad/web/revision_polls.py).

Two apps on one database: ``warm`` has answered the phone once and answers its next polls
itself, ``fresh`` has answered nothing and goes through the route. Flask's ``request_started``
signal says which answered; the answers are compared whole, status, headers and body."""

from __future__ import annotations

from tests.helpers import api_game, bearer, valid_deal, watch
from tests.web.test_replay import routed, same_phone


def answer(client, path: str, **kwargs):
    response = client.get(path, **kwargs)
    return response.status, sorted(response.headers.items()), response.get_data()


def polled_once(make_app):
    """Two apps on one database, a game, and a watching phone whose first poll ``warm``'s route answered."""
    warm, fresh = make_app(), make_app()
    owner = warm.test_client()
    game, key = api_game(owner)
    phone = warm.test_client()
    watch(phone, game)  # the view link opened as a browser does: its cookie set by the watch mark
    poll = f"/api/v1/games/{game}/revision"
    assert phone.get(poll).status_code == 200  # the route: kept for this phone
    return warm, fresh, owner, game, key, phone, poll


def test_a_phones_next_poll_is_the_routes_answer_byte_for_byte_without_the_route(make_app):
    warm, fresh, _, _, _, phone, poll = polled_once(make_app)
    assert phone._cookies  # a phone with a session, as live.js polls (credentials: same-origin)
    seen = routed(warm)
    below = answer(phone, poll)
    assert seen == []
    assert below == answer(same_phone(fresh, phone), poll)
    assert dict(below[1])["Cache-Control"] == "no-store"


def test_a_poll_after_a_write_says_the_new_revision_and_still_matches_the_route(make_app):
    warm, fresh, owner, game, key, phone, poll = polled_once(make_app)
    assert owner.post(f"/api/v1/games/{game}/deals", json=valid_deal(1), headers=bearer(key)).status_code == 201
    seen = routed(warm)
    below = answer(phone, poll)
    assert seen == [] and b'"revision":1' in below[2]
    assert below == answer(same_phone(fresh, phone), poll)


def test_a_deleted_game_goes_to_the_route_and_is_gone(make_app):
    warm, _, owner, game, key, phone, poll = polled_once(make_app)
    assert owner.delete(f"/api/v1/games/{game}?revision=0", headers=bearer(key)).status_code == 200
    seen = routed(warm)
    assert phone.get(poll).status_code == 410
    assert seen == ["route"]


def test_a_phone_the_route_has_not_answered_goes_to_the_route(make_app):
    warm, _, _, game, _, phone, poll = polled_once(make_app)
    seen = routed(warm)
    assert warm.test_client().get(poll).status_code == 200  # another phone: no cookie
    assert phone.get(poll, headers={"Host": "elsewhere.example"}).status_code == 200  # another host
    assert phone.get(f"{poll}?x=1").status_code == 200  # a query: always the route
    assert seen == ["route", "route", "route"]


def test_the_open_deals_counter_moves_in_the_answer_as_in_the_route(make_app):
    warm, fresh, owner, game, key, phone, poll = polled_once(make_app)
    assert phone.get(poll).get_json()["open"] == 0
    ann = valid_deal()["sides"][0]
    saved = owner.put(f"/api/v1/games/{game}/deals/1/parts/1", json=ann,
                      headers={**bearer(key), "Scorepad-Phone": "Dan's phone"})
    assert saved.status_code == 200, saved.get_data(as_text=True)  # a part saved: the open deal moved
    seen = routed(warm)
    below = answer(phone, poll)
    assert seen == [] and b'"open":1' in below[2]
    assert below == answer(same_phone(fresh, phone), poll)
