"""The JSON API, through Flask's test client, on a real SQLite file per test."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorepad.rules import OPTIONS, PRESETS, Deal, judge
from scorepad.rules.catalogue import options_by_group
from tests.helpers import api_game, assert_error_shape, bearer, db_state

pytestmark = pytest.mark.backends  # each test on a database of its own: on SQLite and on PostgreSQL

ROOT = Path(__file__).resolve().parents[2]
API = "/api/v1"
TWO = [{"name": "Ann", "players": ["Ann"]}, {"name": "Bea", "players": ["Bea"]}]


# -- helpers -------------------------------------------------------------------------------------


def two_player_deal(ann_melds=("K K K",), bea_melds=("Q Q Q",), ann_left="", bea_left="", went_out=None,
                    number=None) -> dict:
    deal = {"ending": "went_out" if went_out else "stock_out",
            "sides": [{"name": "Ann", "melds": list(ann_melds),
                       "players": [{"name": "Ann", "foot_picked_up": True, "cards_left": ann_left}]},
                      {"name": "Bea", "melds": list(bea_melds),
                       "players": [{"name": "Bea", "foot_picked_up": True, "cards_left": bea_left}]}]}
    if went_out:
        deal["went_out"] = went_out
    if number is not None:
        deal["deal"] = number
    return deal


BAD_DEAL = two_player_deal(bea_melds=("Q Q 2 2",))  # common: more naturals than wilds


def assert_error(response, status: int, field: str | None = None) -> dict:
    """The one error shape, a problem (:func:`tests.helpers.assert_error_shape`): its ``error``."""
    assert response.status_code == status, response.get_data(as_text=True)
    return assert_error_shape(response, status, field)


def totals(client, game_id: str) -> dict[str, int]:
    return {s["name"]: s["total"] for s in client.get(f"{API}/games/{game_id}").get_json()["standings"]}


# -- POST /score ---------------------------------------------------------------------------------


def test_score_returns_the_verdict_of_the_core_and_saves_nothing(app, client):
    example = json.loads((ROOT / "examples" / "deal.json").read_text())
    before = db_state(app)
    response = client.post(f"{API}/score", json=example)
    assert response.status_code == 200
    body = response.get_json()
    assert body == judge(Deal.from_json(example)).to_json()
    assert set(body) == {"ok", "violations", "warnings", "not_checked", "sides"}
    assert all({"name", "total", "lines"} <= set(side) for side in body["sides"])
    assert db_state(app) == before


def test_score_of_a_deal_with_violations_is_200_and_not_ok(client):
    response = client.post(f"{API}/score", json={"sheet": "common", "deal": 1, **BAD_DEAL})
    assert response.status_code == 200
    body = response.get_json()
    assert body["ok"] is False
    assert [v["code"] for v in body["violations"]] == ["meld.wild_ratio"]
    assert {s["name"]: s["total"] for s in body["sides"]} == {"Ann": 30, "Bea": 60}


@pytest.mark.parametrize("body, field", [
    ({"deal": 1, **two_player_deal()}, "sheet"),
    ({"sheet": "house", "deal": 1, **two_player_deal()}, "sheet"),
    ({"sheet": {"preset": "common", "book_size": 2}, "deal": 1, **two_player_deal()}, "sheet.book_size"),
    ({"sheet": "common", "deal": "one", **two_player_deal()}, "deal"),
    ({"sheet": "common", "deal": 1, **two_player_deal(), "ending": "gave_up"}, "ending"),
    ({"sheet": "common", "deal": 1, **two_player_deal(ann_melds=({"rank": "K", "naturals": "3"},))},
     "sides[0].melds[0].naturals"),
    ({"sheet": "common", "deal": 1, **two_player_deal(ann_left="K Z")}, "sides[0].players[0].cards_left"),
    ({"sheet": "common", "deal": 1, "ending": "stock_out", "sides": {"Ann": []}}, "sides"),
    ({"sheet": "common", "deal": 1, **two_player_deal(), "score": 5}, "score"),
], ids=["no sheet", "unknown preset", "impossible option", "deal not a number", "unknown ending",
        "count as text", "unknown card", "sides not a list", "unknown field"])
def test_score_refuses_unreadable_deals_naming_the_field(client, body, field):
    assert_error(client.post(f"{API}/score", json=body), 400, field)


@pytest.mark.parametrize("data, content_type, says", [
    ('{"sheet": "common",', "application/json", "not valid JSON"),
    ("[1, 2]", "application/json", "must be a JSON object"),
    ('"common"', "application/json", "must be a JSON object"),
    ("null", "application/json", "must be a JSON object"),
    ("", "application/json", "empty"),
    ('{"sheet": "common"}', "text/plain", "Content-Type: application/json"),
    ("sheet=common", "application/x-www-form-urlencoded", "Content-Type: application/json"),
    (b'{"sheet": "\xff"}', "application/json", "not valid JSON"),
    ("[" * 5000 + "]" * 5000, "application/json", "nested too deeply"),
    ('{"a":' * 30 + "1" + "}" * 30, "application/json", "nested more than"),
], ids=["truncated", "list", "string", "null", "empty", "text/plain", "form", "not utf-8", "recursion",
        "deep object"])
def test_malformed_bodies_get_400_in_the_error_shape(client, data, content_type, says):
    response = client.post(f"{API}/score", data=data, content_type=content_type)
    error = assert_error(response, 400, None)
    assert says in error["message"]


def test_unknown_api_paths_and_methods_use_the_error_shape(client):
    assert_error(client.get(f"{API}/nothing-here"), 404)
    assert_error(client.get(f"{API}/score"), 405)


@pytest.mark.parametrize("method, path, allowed", [
    ("get", "/score", {"POST", "OPTIONS"}),
    ("post", "/games/abc", {"GET", "HEAD", "DELETE", "OPTIONS"}),
    ("post", "/games/abc/deals/1", {"GET", "HEAD", "PUT", "DELETE", "OPTIONS"}),
    ("put", "/sheets", {"GET", "HEAD", "OPTIONS"}),
], ids=["score", "game", "deal", "sheets"])
def test_a_405_carries_allow_listing_the_methods_the_route_takes(client, method, path, allowed):
    response = getattr(client, method)(f"{API}{path}")
    assert_error(response, 405)
    assert {m.strip() for m in response.headers["Allow"].split(",")} == allowed


# -- sheets --------------------------------------------------------------------------------------


def test_sheets_lists_every_preset_with_what_it_leaves_unsaid(client):
    response = client.get(f"{API}/sheets")
    assert response.status_code == 200
    sheets = response.get_json()["sheets"]
    assert [s["id"] for s in sheets] == list(PRESETS)
    for item in sheets:
        preset = PRESETS[item["id"]]
        assert item == {"id": preset.id, "title": preset.title, "source": preset.source.title,
                        "source_url": preset.source.url, "preset_version": preset.version,
                        "not_stated": dict(preset.not_stated), "house_rules": list(preset.sheet.house_rules),
                        "group": preset.group}
    by_id = {item["id"]: item for item in sheets}  # the addresses, as written out (not read back from PRESETS)
    assert by_id["pagat"]["source_url"] == "https://www.pagat.com/rummy/handfoot.html"
    assert by_id["common"]["source_url"] is None
    assert (by_id["pagat"]["group"], by_id["progressive"]["group"], by_id["bga"]["group"]) == \
        ("books", "card-rooms", "online")


@pytest.mark.parametrize("preset_id", list(PRESETS))
def test_a_sheet_gives_every_option_in_full_and_in_words(client, preset_id):
    response = client.get(f"{API}/sheets/{preset_id}")
    assert response.status_code == 200
    body = response.get_json()
    sheet = PRESETS[preset_id].sheet
    assert body["id"] == preset_id and body["title"] == PRESETS[preset_id].title
    assert body["sheet"] == json.loads(json.dumps(sheet.to_json(full=True)))
    options = [o for group in body["groups"] for o in group["options"]]
    assert [o["name"] for o in options] == [o.name for _, _, group in options_by_group() for o in group]
    assert {o["name"] for o in options} == {o.name for o in OPTIONS}
    for option in options:
        assert option["words"] == sheet.describe(option["name"])
        assert option["not_stated"] == PRESETS[preset_id].not_stated.get(option["name"])


def test_an_unknown_sheet_is_404_in_the_error_shape(client):
    error = assert_error(client.get(f"{API}/sheets/house"), 404)
    assert "pagat" in error["message"]


# -- creating and reading games -----------------------------------------------------------------------


def test_creating_a_game_returns_its_links_and_key(client):
    response = client.post(f"{API}/games", json={"name": "Friday", "sheet": "common", "sides": TWO})
    assert response.status_code == 201
    body = response.get_json()
    game_id, key = body["id"], body["edit_key"]
    assert body["revision"] == 0
    assert body["view_url"] == f"http://localhost/games/{game_id}"
    assert body["edit_url"] == f"http://localhost/games/{game_id}/edit/{key}"
    assert response.headers["Location"].endswith(f"{API}/games/{game_id}")
    assert body["api_url"] == f"http://localhost{API}/games/{game_id}"
    assert len(game_id) >= 22 and len(key) >= 22 and game_id != key


def test_a_new_game_reads_back_with_its_sheet_sides_and_next_deal(client):
    sides = [{"name": "North-South", "players": ["Ann", "Cal"]}, {"name": "East-West", "players": ["Bea", "Dan"]}]
    game_id, _ = api_game(client, sheet={"preset": "pagat", "hand_size": 11}, sides=sides)
    body = client.get(f"{API}/games/{game_id}").get_json()
    assert body["name"] == "Friday" and body["sides"] == sides and body["revision"] == 0
    assert body["sheet"] == {"preset": "pagat", "preset_version": 2, "hand_size": 11}
    assert [c["option"] for c in body["sheet_changes"]] == ["hand_size"]
    assert body["deals"] == [] and body["running_totals"] == []
    assert body["over"] is False and body["winner"] is None and body["tie"] is False
    assert body["next_deal"] == {"number": 1, "opening_minimums": {"North-South": 50, "East-West": 50},
                                 "opening_who": "side", "going_out_books": {"clean": 2, "dirty": 2, "wild": 1},
                                 "going_out_bonus": 100, "draws": 2,
                                 "totals_before": {"North-South": 0, "East-West": 0}}


@pytest.mark.parametrize("body, field", [
    ({"sheet": "common", "sides": TWO}, "name"),
    ({"name": "Friday", "sides": TWO}, "sheet"),
    ({"name": "Friday", "sheet": "common"}, "sides"),
    ({"name": 7, "sheet": "common", "sides": TWO}, "name"),
    ({"name": "x" * 41, "sheet": "common", "sides": TWO}, "name"),
    ({"name": "Friday", "sheet": "house", "sides": TWO}, "sheet"),
    ({"name": "Friday", "sheet": {"preset": "common", "hand_size": "11"}, "sides": TWO}, "sheet.hand_size"),
    ({"name": "Friday", "sheet": "common", "sides": "Ann, Bea"}, "sides"),
    ({"name": "Friday", "sheet": "common", "sides": ["Ann", "Bea"]}, "sides[0]"),
    ({"name": "Friday", "sheet": "common", "sides": [TWO[0], {"name": "Bea", "players": "Bea"}]},
     "sides[1].players"),
    ({"name": "Friday", "sheet": "common", "sides": [TWO[0], {"name": "Bea", "players": ["ann"]}]},
     "sides[1].players[0]"),
    ({"name": "Friday", "sheet": "common", "sides": [TWO[0], {"name": "ann", "players": ["Bea"]}]},
     "sides[1].name"),
    ({"name": "Friday", "sheet": "pagat", "sides": TWO}, "sides"),
    ({"name": "Friday", "sheet": "common", "sides": TWO, "edit_key": "mine"}, "edit_key"),
], ids=["no name", "no sheet", "no sides", "name a number", "name too long", "unknown preset",
        "option as text", "sides a string", "side a string", "players a string", "same player twice",
        "same side twice", "table too small for the sheet", "unknown field"])
def test_creating_a_game_refuses_bad_input_naming_the_field(app, client, body, field):
    before = db_state(app)
    assert_error(client.post(f"{API}/games", json=body), 400, field)
    assert db_state(app) == before


def test_an_unknown_game_is_404_for_reads_and_writes(client):
    _, key = api_game(client)
    for response in (client.get(f"{API}/games/nope"), client.get(f"{API}/games/nope/deals/1"),
                     client.get(f"{API}/games/nope/history"),
                     client.post(f"{API}/games/nope/deals", json=two_player_deal(), headers=bearer(key)),
                     client.put(f"{API}/games/nope/deals/1", json=two_player_deal(), headers=bearer(key)),
                     client.delete(f"{API}/games/nope/deals/1", headers=bearer(key)),
                     client.put(f"{API}/games/nope/sheet", json={"sheet": "common", "reason": "x"},
                                headers=bearer(key))):
        assert_error(response, 404)


def test_reading_a_game_never_shows_the_edit_key(client):
    game_id, key = api_game(client)
    client.post(f"{API}/games/{game_id}/deals", json=two_player_deal(), headers=bearer(key))
    client.post(f"{API}/games/{game_id}/deals", json={**BAD_DEAL, "as_played": {"reason": "agreed"}},
                headers=bearer(key))
    client.put(f"{API}/games/{game_id}/deals/1", json=two_player_deal(ann_left="K"), headers=bearer(key))
    client.put(f"{API}/games/{game_id}/sheet", json={"sheet": {"preset": "common", "cut_bonus": 100},
                                                     "reason": "house rule"}, headers=bearer(key))
    for path in (f"/games/{game_id}", f"/games/{game_id}/deals/1", f"/games/{game_id}/deals/2",
                 f"/games/{game_id}/history"):
        response = client.get(API + path)
        assert response.status_code == 200
        assert key not in response.get_data(as_text=True)
        assert "edit_key" not in response.get_data(as_text=True)


# -- who may write ---------------------------------------------------------------------------------


WRITES = [
    ("post", "/deals", two_player_deal()),
    ("put", "/deals/1", two_player_deal(ann_left="K")),
    ("delete", "/deals/1", None),
    ("put", "/sheet", {"sheet": {"preset": "common", "cut_bonus": 100}, "reason": "house rule"}),
]


@pytest.mark.parametrize("method, path, body", WRITES, ids=["record", "correct", "delete", "amend"])
@pytest.mark.parametrize("headers, status, challenge", [
    ({}, 401, 'Bearer realm="scorepad"'),
    ({"Authorization": "Basic key"}, 401, 'Bearer realm="scorepad"'),
    ({"Authorization": "Bearer"}, 401, 'Bearer realm="scorepad"'),
    ("view", 403, 'Bearer error="insufficient_scope"'),
    ({"Authorization": "Bearer wrong-key"}, 403, 'Bearer error="insufficient_scope"'),
    ("other game", 403, 'Bearer error="insufficient_scope"'),
], ids=["no key", "not bearer", "empty bearer", "game id as key", "wrong key", "another game's key"])
def test_a_write_without_a_key_is_401_and_with_another_key_403_each_with_its_bearer_challenge(
        app, client, method, path, body, headers, status, challenge):
    game_id, key = api_game(client)
    client.post(f"{API}/games/{game_id}/deals", json=two_player_deal(), headers=bearer(key))
    if headers == "view":
        headers = bearer(game_id)
    elif headers == "other game":
        headers = bearer(api_game(client)[1])
    before = db_state(app)
    response = getattr(client, method)(f"{API}/games/{game_id}{path}", json=body, headers=headers)
    assert_error(response, status)
    assert response.headers["WWW-Authenticate"] == challenge
    assert db_state(app) == before


def test_a_wrong_key_is_refused_before_the_body_is_read(client):
    game_id, _ = api_game(client)
    response = client.post(f"{API}/games/{game_id}/deals", data="not json", content_type="application/json",
                           headers=bearer("wrong"))
    assert_error(response, 403)
    response = client.post(f"{API}/games/{game_id}/deals", data="not json", content_type="application/json")
    assert_error(response, 401)


def test_a_write_with_the_key_answers_no_bearer_challenge(client):
    game_id, key = api_game(client)
    response = client.post(f"{API}/games/{game_id}/deals", json=two_player_deal(), headers=bearer(key))
    assert response.status_code == 201 and "WWW-Authenticate" not in response.headers


# -- recording deals -------------------------------------------------------------------------------


def test_recording_a_valid_deal_returns_201_with_its_report(client):
    game_id, key = api_game(client)
    deal = two_player_deal(ann_melds=("K K K K K K K", "Q Q Q Q Q 2 2"), bea_melds=("J J J",),
                           bea_left="A 3B", went_out="Ann")
    response = client.post(f"{API}/games/{game_id}/deals", json=deal, headers=bearer(key))
    assert response.status_code == 201
    body = response.get_json()
    assert body["number"] == 1 and body["revision"] == 1 and body["as_played"] is None
    assert body["report"]["ok"] is True
    assert {s["name"]: s["total"] for s in body["report"]["sides"]} == {"Ann": 1060, "Bea": 5}
    assert body["deal"]["deal"] == 1 and "sheet" not in body["deal"]
    assert response.headers["Location"].endswith(f"{API}/games/{game_id}/deals/1")
    game = client.get(f"{API}/games/{game_id}").get_json()
    assert game["revision"] == 1
    assert [d["number"] for d in game["deals"]] == [1]
    assert game["deals"][0]["report"] == body["report"]
    assert game["deals"][0]["history_size"] == 1
    assert game["running_totals"] == [{"number": 1, "deal": 1, "totals": {"Ann": 1060, "Bea": 5}}]


def test_a_deal_number_defaults_to_the_next_and_may_be_given(client):
    game_id, key = api_game(client)
    first = client.post(f"{API}/games/{game_id}/deals", json=two_player_deal(), headers=bearer(key))
    third = client.post(f"{API}/games/{game_id}/deals", json={**two_player_deal(number=3), "repeat": True},
                        headers=bearer(key))  # as deal 1 went: the table played it again
    assert (first.get_json()["number"], third.get_json()["number"]) == (1, 3)
    game = client.get(f"{API}/games/{game_id}").get_json()
    assert game["next_deal"]["number"] == 2
    assert game["next_deal"]["opening_minimums"] == {"Ann": 90, "Bea": 90}
    assert [p["code"] for p in game["problems"]] == ["game.deal_order"]
    again = client.post(f"{API}/games/{game_id}/deals", json=two_player_deal(number=3), headers=bearer(key))
    assert_error(again, 409, "deal")
    assert again.get_json()["type"] == "/api/v1/problems/deal-recorded"


def test_a_deal_with_violations_is_422_and_leaves_the_database_unchanged(app, client):
    game_id, key = api_game(client)
    client.post(f"{API}/games/{game_id}/deals", json=two_player_deal(), headers=bearer(key))
    before = db_state(app)
    response = client.post(f"{API}/games/{game_id}/deals", json=BAD_DEAL, headers=bearer(key))
    error = assert_error(response, 422, "sides[1].melds[0]")
    body = response.get_json()
    assert "as_played" in error["message"]
    assert body["report"]["ok"] is False
    assert [p["code"] for p in body["problems"]] == ["meld.wild_ratio"]
    assert db_state(app) == before


def test_a_deal_saved_as_played_is_kept_and_marked(client):
    game_id, key = api_game(client)
    response = client.post(f"{API}/games/{game_id}/deals",
                           json={**BAD_DEAL, "as_played": {"reason": "We let it stand"}}, headers=bearer(key))
    assert response.status_code == 201
    body = response.get_json()
    assert body["as_played"] == "We let it stand"
    assert body["report"]["ok"] is False
    game = client.get(f"{API}/games/{game_id}").get_json()
    assert game["deals"][0]["as_played"] == "We let it stand"
    assert game["standings"] == [{"name": "Bea", "total": 60}, {"name": "Ann", "total": 30}]
    history = client.get(f"{API}/games/{game_id}/deals/1").get_json()["history"]
    assert [(h["action"], h["reason"]) for h in history] == [("record", "We let it stand")]


def test_a_valid_deal_sent_as_played_is_not_marked(client):
    game_id, key = api_game(client)
    response = client.post(f"{API}/games/{game_id}/deals",
                           json={**two_player_deal(), "as_played": {"reason": "just in case"}}, headers=bearer(key))
    assert response.status_code == 201 and response.get_json()["as_played"] is None


@pytest.mark.parametrize("as_played, field", [
    ("we agreed", "as_played"),
    ({}, "as_played.reason"),
    ({"reason": "  "}, "as_played.reason"),
    ({"reason": 5}, "as_played.reason"),
    ({"reason": "x" * 201}, "as_played.reason"),
    ({"reason": "ok", "by": "Ann"}, "as_played.by"),
], ids=["a string", "no reason", "blank reason", "reason a number", "reason too long", "unknown field"])
def test_as_played_must_carry_a_reason(app, client, as_played, field):
    game_id, key = api_game(client)
    before = db_state(app)
    response = client.post(f"{API}/games/{game_id}/deals", json={**BAD_DEAL, "as_played": as_played},
                           headers=bearer(key))
    assert_error(response, 400, field)
    assert db_state(app) == before


@pytest.mark.parametrize("deal", [
    {**two_player_deal(), "sides": [two_player_deal()["sides"][0],
                                    {"name": "Cal", "players": [{"name": "Cal", "foot_picked_up": True}]}]},
    {**two_player_deal(), "sides": [two_player_deal()["sides"][0],
                                    {"name": "Bea", "players": [{"name": "Cal", "foot_picked_up": True}]}]},
    two_player_deal(number=5),
    two_player_deal(number=0),
], ids=["another side", "another player", "past the last deal", "deal zero"])
def test_a_deal_that_does_not_fit_the_game_cannot_be_saved_as_played(app, client, deal):
    game_id, key = api_game(client)
    before = db_state(app)
    response = client.post(f"{API}/games/{game_id}/deals", json={**deal, "as_played": {"reason": "please"}},
                           headers=bearer(key))
    assert_error(response, 422, response.get_json()["error"]["field"])
    assert response.get_json()["problems"]
    assert db_state(app) == before


@pytest.mark.parametrize("body, field", [
    ({**two_player_deal(), "sheet": "pagat"}, "sheet"),
    ({**two_player_deal(), "revision": "0"}, "revision"),
    ({**two_player_deal(), "revision": True}, "revision"),
    ({**two_player_deal(), "revision": -1}, "revision"),
    ({**two_player_deal(), "ending": None}, "ending"),
    ({**two_player_deal(), "went_out": 3}, "went_out"),
    ({**two_player_deal(), "sides": None}, "sides"),
    ({**two_player_deal(), "deal": 1.5}, "deal"),
    ({**two_player_deal(), "sides": [{**two_player_deal()["sides"][0], "red_threes": "2"},
                                     two_player_deal()["sides"][1]]}, "sides[0].red_threes"),
    ({**two_player_deal(), "sides": [{**two_player_deal()["sides"][0], "melds": "K K K"},
                                     two_player_deal()["sides"][1]]}, "sides[0].melds"),
    ({**two_player_deal(), "sides": [two_player_deal()["sides"][0],
                                     {"name": "Bea", "players": [{"name": "Bea", "foot_picked_up": "yes"}]}]},
     "sides[1].players[0].foot_picked_up"),
    ({**two_player_deal(), "comment": "fun"}, "comment"),
], ids=["a sheet of its own", "revision as text", "revision true", "revision negative", "ending null",
        "went_out a number", "sides null", "deal a fraction", "red threes as text", "melds a string",
        "foot_picked_up as text", "unknown field"])
def test_recording_refuses_wrong_field_types_naming_the_field(app, client, body, field):
    game_id, key = api_game(client)
    before = db_state(app)
    assert_error(client.post(f"{API}/games/{game_id}/deals", json=body, headers=bearer(key)), 400, field)
    assert db_state(app) == before


@pytest.mark.parametrize("body, field", [
    ({**two_player_deal(), "deal": 10 ** 30}, "deal"),
    ({**two_player_deal(ann_melds=({"rank": "K", "naturals": 10 ** 4299},))}, "sides[0].melds[0].naturals"),
    ({**two_player_deal(ann_melds=({"rank": "K", "naturals": float("nan")},))}, "sides[0].melds[0].naturals"),
    ({**two_player_deal(ann_left={"A": -10 ** 12})}, "sides[0].players[0].cards_left.A"),
], ids=["huge deal number", "huge count", "not a number", "huge negative count"])
def test_numbers_no_deal_could_hold_are_refused_even_as_played(app, client, body, field):
    game_id, key = api_game(client)
    before = db_state(app)
    response = client.post(f"{API}/games/{game_id}/deals", data=json.dumps({**body, "as_played": {"reason": "x"}}),
                           content_type="application/json", headers=bearer(key))
    assert_error(response, 400, field)
    assert db_state(app) == before
    scored = client.post(f"{API}/score", data=json.dumps({"sheet": "common", "deal": 1, **body}),
                         content_type="application/json")
    assert_error(scored, 400, field)


def test_recording_refuses_malformed_json(app, client):
    game_id, key = api_game(client)
    before = db_state(app)
    response = client.post(f"{API}/games/{game_id}/deals", data='{"ending": "stock_out", ',
                           content_type="application/json", headers=bearer(key))
    assert "line 1" in assert_error(response, 400, None)["message"]
    assert db_state(app) == before


# -- correcting and deleting deals ---------------------------------------------------------------------


def test_correcting_a_deal_keeps_the_old_and_new_versions_in_history(client):
    game_id, key = api_game(client)
    client.post(f"{API}/games/{game_id}/deals", json=two_player_deal(), headers=bearer(key))
    response = client.put(f"{API}/games/{game_id}/deals/1", json=two_player_deal(ann_left="K"),
                          headers=bearer(key))
    assert response.status_code == 200
    body = response.get_json()
    assert body["revision"] == 2 and body["history_size"] == 2
    assert {s["name"]: s["total"] for s in body["report"]["sides"]} == {"Ann": 20, "Bea": 30}
    assert totals(client, game_id) == {"Ann": 20, "Bea": 30}
    deal = client.get(f"{API}/games/{game_id}/deals/1").get_json()
    assert deal["deal"]["sides"][0]["players"][0]["cards_left"] == {"K": 1}
    record, edit = deal["history"]
    assert record["action"] == "record" and record["new_totals"] == {"Ann": 30, "Bea": 30}
    assert edit["action"] == "edit"
    assert edit["old_totals"] == {"Ann": 30, "Bea": 30} and edit["new_totals"] == {"Ann": 20, "Bea": 30}
    assert edit["before"]["sides"][0]["players"][0]["cards_left"] == {}
    assert edit["after"]["sides"][0]["players"][0]["cards_left"] == {"K": 1}


@pytest.mark.parametrize("stored, sent", [
    (two_player_deal(), two_player_deal()),
    (two_player_deal(), {**two_player_deal(number=1), "revision": 1}),
    (two_player_deal(ann_left="K"), two_player_deal(ann_left="K", number=1)),
    ({**BAD_DEAL, "as_played": {"reason": "agreed"}}, {**BAD_DEAL, "as_played": {"reason": "agreed"}}),
    (two_player_deal(), {**two_player_deal(), "as_played": {"reason": "a valid deal keeps no reason"}}),
], ids=["same deal", "with its number and revision", "same cards", "same as-played reason", "reason not kept"])
def test_a_put_identical_to_the_stored_deal_changes_nothing(app, client, stored, sent):
    game_id, key = api_game(client)
    saved = client.post(f"{API}/games/{game_id}/deals", json=stored, headers=bearer(key)).get_json()
    before = db_state(app)
    response = client.put(f"{API}/games/{game_id}/deals/1", json=sent, headers=bearer(key))
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.get_json() == saved  # the stored deal, at the game's revision (1)
    assert response.headers["Location"].endswith(f"{API}/games/{game_id}/deals/1")
    assert db_state(app) == before
    assert client.get(f"{API}/games/{game_id}/revision").get_json()["revision"] == 1
    assert len(client.get(f"{API}/games/{game_id}/history").get_json()["history"]) == 1


@pytest.mark.parametrize("sent", [
    two_player_deal(ann_left="K"),
    {**BAD_DEAL, "as_played": {"reason": "a new reason"}},
], ids=["other cards", "other reason"])
def test_a_put_that_differs_from_the_stored_deal_is_a_new_revision(client, sent):
    game_id, key = api_game(client)
    client.post(f"{API}/games/{game_id}/deals", json={**BAD_DEAL, "as_played": {"reason": "agreed"}},
                headers=bearer(key))
    response = client.put(f"{API}/games/{game_id}/deals/1", json=sent, headers=bearer(key))
    assert response.status_code == 200 and response.get_json()["revision"] == 2
    assert len(client.get(f"{API}/games/{game_id}/history").get_json()["history"]) == 2


def test_an_identical_put_on_a_stale_revision_is_still_a_409(app, client):
    game_id, key = api_game(client)
    client.post(f"{API}/games/{game_id}/deals", json=two_player_deal(), headers=bearer(key))
    client.post(f"{API}/games/{game_id}/deals", json={**two_player_deal(), "repeat": True},
                headers=bearer(key))  # revision 2
    response = client.put(f"{API}/games/{game_id}/deals/1", json={**two_player_deal(), "revision": 1},
                          headers=bearer(key))
    assert_error(response, 409, "revision")


def test_a_correction_with_violations_is_422_unless_as_played(app, client):
    game_id, key = api_game(client)
    client.post(f"{API}/games/{game_id}/deals", json=two_player_deal(), headers=bearer(key))
    before = db_state(app)
    assert_error(client.put(f"{API}/games/{game_id}/deals/1", json=BAD_DEAL, headers=bearer(key)),
                 422, "sides[1].melds[0]")
    assert db_state(app) == before
    response = client.put(f"{API}/games/{game_id}/deals/1", json={**BAD_DEAL, "as_played": {"reason": "agreed"}},
                          headers=bearer(key))
    assert response.status_code == 200 and response.get_json()["as_played"] == "agreed"
    assert client.get(f"{API}/games/{game_id}").get_json()["deals"][0]["as_played"] == "agreed"


@pytest.mark.parametrize("path, body, status, field", [
    ("/deals/2", two_player_deal(), 404, "deal"),
    ("/deals/1", two_player_deal(number=2), 400, "deal"),
    ("/deals/1", [two_player_deal()], 400, None),
    ("/deals/1", {**two_player_deal(), "as_played": "yes"}, 400, "as_played"),
], ids=["not recorded", "number differs", "body a list", "as_played a string"])
def test_a_correction_refuses_bad_requests(app, client, path, body, status, field):
    game_id, key = api_game(client)
    client.post(f"{API}/games/{game_id}/deals", json=two_player_deal(), headers=bearer(key))
    before = db_state(app)
    assert_error(client.put(f"{API}/games/{game_id}{path}", json=body, headers=bearer(key)), status, field)
    assert db_state(app) == before


def test_deleting_a_deal_keeps_it_in_history(client):
    game_id, key = api_game(client)
    client.post(f"{API}/games/{game_id}/deals", json=two_player_deal(), headers=bearer(key))
    client.post(f"{API}/games/{game_id}/deals", json=two_player_deal(ann_melds=("A A A",)), headers=bearer(key))
    response = client.delete(f"{API}/games/{game_id}/deals/1", headers=bearer(key))
    assert response.status_code == 200
    assert response.get_json() == {"deleted": 1, "revision": 3}
    game = client.get(f"{API}/games/{game_id}").get_json()
    assert [d["number"] for d in game["deals"]] == [2]
    assert game["standings"][0] == {"name": "Ann", "total": 60}
    assert game["next_deal"]["number"] == 1
    assert_error(client.get(f"{API}/games/{game_id}/deals/1"), 404, "deal")
    history = client.get(f"{API}/games/{game_id}/history").get_json()["history"]
    assert [(h["deal_number"], h["action"]) for h in history] == [(1, "record"), (2, "record"), (1, "delete")]
    deleted = history[-1]
    assert deleted["before"]["sides"][0]["melds"] == [{"rank": "K", "naturals": 3}]
    assert deleted["old_totals"] == {"Ann": 30, "Bea": 30} and deleted["after"] is None
    assert_error(client.delete(f"{API}/games/{game_id}/deals/1", headers=bearer(key)), 404, "deal")


@pytest.mark.parametrize("query", ["?revision=one", "?revision=-1", "?revision=", "?revision=١"])
def test_deleting_refuses_a_revision_that_is_not_a_number(app, client, query):
    game_id, key = api_game(client)
    client.post(f"{API}/games/{game_id}/deals", json=two_player_deal(), headers=bearer(key))
    before = db_state(app)
    assert_error(client.delete(f"{API}/games/{game_id}/deals/1{query}", headers=bearer(key)), 400, "revision")
    assert db_state(app) == before


def test_reading_one_deal_gives_its_report_and_history(client):
    game_id, key = api_game(client)
    client.post(f"{API}/games/{game_id}/deals", json=two_player_deal(), headers=bearer(key))
    body = client.get(f"{API}/games/{game_id}/deals/1").get_json()
    assert body["number"] == 1 and body["as_played"] is None and body["history_size"] == 1
    assert body["report"]["ok"] is True
    assert [h["action"] for h in body["history"]] == ["record"]
    assert_error(client.get(f"{API}/games/{game_id}/deals/2"), 404, "deal")
    assert_error(client.get(f"{API}/games/{game_id}/deals/x"), 404)


@pytest.mark.parametrize("method, body", [("get", None), ("put", two_player_deal()), ("delete", None)])
@pytest.mark.parametrize("number", [2, 1], ids=["never recorded", "deleted"])
def test_an_unrecorded_deal_is_a_404_naming_deal_on_get_put_and_delete(app, client, method, body, number):
    game_id, key = api_game(client)
    client.post(f"{API}/games/{game_id}/deals", json=two_player_deal(), headers=bearer(key))
    client.post(f"{API}/games/{game_id}/deals", json=two_player_deal(), headers=bearer(key))
    client.delete(f"{API}/games/{game_id}/deals/1", headers=bearer(key))
    client.delete(f"{API}/games/{game_id}/deals/2", headers=bearer(key))
    before = db_state(app)
    response = getattr(client, method)(f"{API}/games/{game_id}/deals/{number}", json=body, headers=bearer(key))
    assert f"deal {number} is not recorded" in assert_error(response, 404, "deal")["message"]
    assert db_state(app) == before


# -- revisions -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("method, path, body", [
    ("post", "/deals", {**two_player_deal(), "revision": 0}),
    ("put", "/deals/1", {**two_player_deal(ann_left="K"), "revision": 0}),
    ("delete", "/deals/1?revision=0", None),
    ("put", "/sheet", {"sheet": {"preset": "common", "cut_bonus": 100}, "reason": "house", "revision": 0}),
], ids=["record", "correct", "delete", "amend"])
def test_a_write_based_on_a_stale_revision_is_409(app, client, method, path, body):
    game_id, key = api_game(client)
    client.post(f"{API}/games/{game_id}/deals", json=two_player_deal(), headers=bearer(key))  # now revision 1
    before = db_state(app)
    response = getattr(client, method)(f"{API}/games/{game_id}{path}", json=body, headers=bearer(key))
    assert "revision 0" in assert_error(response, 409, "revision")["message"]
    assert db_state(app) == before


@pytest.mark.parametrize("method, path, body", [
    ("post", "/deals", {**two_player_deal(number=2), "revision": 2}),
    ("put", "/deals/1", {**two_player_deal(ann_left="K"), "revision": 2}),
    ("delete", "/deals/1?revision=2", None),
    ("put", "/sheet", {"sheet": {"preset": "common", "cut_bonus": 100}, "reason": "house", "revision": 99}),
], ids=["record", "correct", "delete", "amend"])
def test_a_revision_ahead_of_the_game_is_a_400_naming_revision_not_a_409(app, client, method, path, body):
    game_id, key = api_game(client)
    client.post(f"{API}/games/{game_id}/deals", json=two_player_deal(), headers=bearer(key))  # now revision 1
    before = db_state(app)
    response = getattr(client, method)(f"{API}/games/{game_id}{path}", json=body, headers=bearer(key))
    error = assert_error(response, 400, "revision")
    assert "ahead of the game's revision 1" in error["message"]
    assert not {"revision", "changes"} & set(response.get_json())  # nothing happened since
    assert db_state(app) == before


def test_a_write_based_on_the_current_revision_is_saved(client):
    game_id, key = api_game(client)
    first = client.post(f"{API}/games/{game_id}/deals", json={**two_player_deal(), "revision": 0},
                        headers=bearer(key))
    assert first.status_code == 201 and first.get_json()["revision"] == 1
    second = client.put(f"{API}/games/{game_id}/deals/1", json={**two_player_deal(ann_left="K"), "revision": 1},
                        headers=bearer(key))
    assert second.status_code == 200 and second.get_json()["revision"] == 2
    third = client.delete(f"{API}/games/{game_id}/deals/1?revision=2", headers=bearer(key))
    assert third.status_code == 200 and third.get_json()["revision"] == 3


# -- amending the sheet ---------------------------------------------------------------------------------


def test_amending_the_sheet_rescores_and_is_kept_in_history(client):
    game_id, key = api_game(client)
    client.post(f"{API}/games/{game_id}/deals", json=two_player_deal(ann_melds=("K K K K K K K",)),
                headers=bearer(key))
    assert totals(client, game_id) == {"Ann": 570, "Bea": 30}
    response = client.put(f"{API}/games/{game_id}/sheet",
                          json={"sheet": {"preset": "common", "clean_book_bonus": 600}, "reason": "house rule"},
                          headers=bearer(key))
    assert response.status_code == 200
    body = response.get_json()
    assert body["revision"] == 2
    assert body["sheet"] == {"preset": "common", "preset_version": 1, "clean_book_bonus": 600}
    assert [c["option"] for c in body["sheet_changes"]] == ["clean_book_bonus"]
    assert body["standings"][0] == {"name": "Ann", "total": 670}
    assert "edit_key" not in body
    amend = client.get(f"{API}/games/{game_id}/history").get_json()["history"][-1]
    assert amend["action"] == "amend" and amend["reason"] == "house rule" and amend["deal_number"] is None
    assert amend["before"] == {"preset": "common", "preset_version": 1} and amend["after"]["clean_book_bonus"] == 600


@pytest.mark.parametrize("body, field", [
    ({"sheet": "pagat"}, "reason"),
    ({"sheet": "pagat", "reason": ""}, "reason"),
    ({"sheet": "common", "reason": ["house"]}, "reason"),
    ({"reason": "house"}, "sheet"),
    ({"sheet": {"preset": "common", "book_size": 2}, "reason": "house"}, "sheet.book_size"),
    ({"sheet": "pagat", "reason": "house"}, "sides"),
    ({"sheet": "common", "reason": "house", "revision": "1"}, "revision"),
    ({"sheet": "common", "reason": "house", "note": "x"}, "note"),
], ids=["no reason", "empty reason", "reason a list", "no sheet", "impossible option",
        "table does not fit", "revision as text", "unknown field"])
def test_amending_the_sheet_refuses_bad_input(app, client, body, field):
    game_id, key = api_game(client)
    before = db_state(app)
    assert_error(client.put(f"{API}/games/{game_id}/sheet", json=body, headers=bearer(key)), 400, field)
    assert db_state(app) == before


# -- whole games -------------------------------------------------------------------------------------

FOUR_DEALS = [
    # Ann: 70 + 50 + 40 + 500 + 300 + 100 = 1060; Bea: 30 - 20 - 5 = 5
    two_player_deal(ann_melds=("K K K K K K K", "Q Q Q Q Q 2 2"), bea_melds=("J J J",), bea_left="A 3B",
                    went_out="Ann"),
    # Ann: 30 - 10 = 20; Bea: 140 + 500 + 100 (red three) - 10 = 730
    {**two_player_deal(ann_melds=("8 8 8",), ann_left="K", bea_melds=("A A A A A A A",), bea_left="4 4")},
    # Ann: 15 - 50 - 20 = -55; Bea: 70 + 50 + 40 + 500 + 300 + 100 = 1060
    two_player_deal(ann_melds=("5 5 5",), ann_left="JK 2", bea_melds=("10 10 10 10 10 10 10", "9 9 9 9 9 2 2"),
                    went_out="Bea"),
    # Ann: 35 + 15 + 20 + 500 - 5 = 565; Bea: 30 + 20 - 20 = 30
    two_player_deal(ann_melds=("7 7 7 7 7 7 7", "6 6 6 2"), ann_left="3B", bea_melds=("J J J 2",), bea_left="Q Q"),
]
FOUR_DEALS[1]["sides"][1]["red_threes"] = 1


def test_a_four_deal_game_played_through_the_api_has_a_winner(client):
    game_id, key = api_game(client)
    for n, deal in enumerate(FOUR_DEALS):
        game = client.get(f"{API}/games/{game_id}").get_json()
        assert game["over"] is False and game["next_deal"]["number"] == n + 1
        assert game["next_deal"]["opening_minimums"] == {"Ann": [50, 90, 120, 150][n], "Bea": [50, 90, 120, 150][n]}
        response = client.post(f"{API}/games/{game_id}/deals", json={**deal, "revision": game["revision"]},
                               headers=bearer(key))
        assert response.status_code == 201, response.get_json()
        assert response.get_json()["report"]["ok"] is True
    game = client.get(f"{API}/games/{game_id}").get_json()
    assert [r["totals"] for r in game["running_totals"]] == [
        {"Ann": 1060, "Bea": 5}, {"Ann": 1080, "Bea": 735}, {"Ann": 1025, "Bea": 1795}, {"Ann": 1590, "Bea": 1825}]
    assert game["standings"] == [{"name": "Bea", "total": 1825}, {"name": "Ann", "total": 1590}]
    assert (game["over"], game["winner"], game["tie"], game["next_deal"]) == (True, "Bea", False, None)
    assert game["revision"] == 4 and game["problems"] == []
    assert_error(client.post(f"{API}/games/{game_id}/deals", json=FOUR_DEALS[0], headers=bearer(key)), 409, "deal")


def test_a_game_can_end_in_a_tie(client):
    sides = [{"name": name, "players": [name]} for name in ("Ann", "Bea", "Cal")]
    game_id, key = api_game(client, sides=sides)

    def deal(ann, bea, cal, ann_left="", cal_left=""):
        return {"ending": "stock_out", "sides": [
            {"name": "Ann", "melds": [ann],
             "players": [{"name": "Ann", "foot_picked_up": True, "cards_left": ann_left}]},
            {"name": "Bea", "melds": [bea], "players": [{"name": "Bea", "foot_picked_up": True}]},
            {"name": "Cal", "melds": [cal],
             "players": [{"name": "Cal", "foot_picked_up": True, "cards_left": cal_left}]}]}

    deals = [
        deal("K K K", "Q Q Q", "J J J", cal_left="A"),                 # 30, 30, 30 - 20 = 10
        deal("A A A A A A A", "8 8 8", "9 9 9"),                        # 140 + 500 = 640, 30, 30
        deal("5 5 5", "10 10 10 10 10 10 10", "4 4 4", ann_left="JK"),  # 15 - 50 = -35, 70 + 500 = 570, 15
        deal("6 6 6", "7 7 7 7", "9 9 9"),                              # 15, 20, 30
    ]
    for d in deals:
        assert client.post(f"{API}/games/{game_id}/deals", json=d, headers=bearer(key)).status_code == 201
    game = client.get(f"{API}/games/{game_id}").get_json()
    assert game["running_totals"][-1]["totals"] == {"Ann": 650, "Bea": 650, "Cal": 85}
    assert (game["over"], game["winner"], game["tie"]) == (True, None, True)
    assert [s["total"] for s in game["standings"]] == [650, 650, 85]


def test_the_links_a_new_game_returns_lead_to_its_pages(client):
    body = client.post(f"{API}/games", json={"name": "Friday", "sheet": "common", "sides": TWO}).get_json()
    assert client.get(body["view_url"]).status_code == 200
    assert client.get(body["edit_url"]).status_code in (302, 303)


def test_a_body_over_the_size_limit_is_413_in_the_error_shape(client):
    response = client.post(f"{API}/score", data="[" + "1," * 200_000 + "1]", content_type="application/json")
    assert_error(response, 413)
