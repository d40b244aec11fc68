"""The API under issue 23's red threes and small bonuses: its OpenAPI description lists each
new option of a sheet (title, default and bound from the catalogue) and the deal's new fields
(``first_meld``, a counted side's ``books.wild_mixed``); a deal sent with them is scored and
read back as sent, and a red three laid where red threes are held is refused as a violation."""

from __future__ import annotations

from scorepad.api.openapi import document
from scorepad.rules.catalogue import OPTION_BY_NAME
from tests.helpers import api_game, bearer

NEW_OPTIONS = ("red_three_mode", "red_three_bonus_not_out", "red_three_penalty_hand_when", "wild_book_mixed_bonus",
               "first_meld_bonus")
SHEET = {"preset": "common", "wild_books": True, "wild_book_mixed_bonus": 1300, "first_meld_bonus": 100,
         "red_three_mode": "held", "red_three_penalty_hand": 500, "red_three_penalty_hand_when": "opponents-out"}


def test_the_openapi_description_lists_every_new_option_and_deal_field():
    schemas = document()["components"]["schemas"]
    options = schemas["SheetObject"]["properties"]
    for name in NEW_OPTIONS:
        assert options[name]["title"] == OPTION_BY_NAME[name].label, name
        assert options[name]["default"] == OPTION_BY_NAME[name].write(OPTION_BY_NAME[name].default), name
    assert options["red_three_mode"]["enum"] == ["laid", "held"]
    assert options["red_three_penalty_hand_when"]["enum"] == ["opponents-out", "any-ending"]
    assert options["wild_book_mixed_bonus"]["default"] is None and options["first_meld_bonus"]["default"] == 0
    deal = schemas["Deal"]["properties"]
    assert "first_meld" in deal and "laid down first" in deal["first_meld"]["description"]
    assert deal["sides"]["items"] == {"$ref": "#/components/schemas/DealSide"}  # named, as Books is
    assert "wild_mixed" in schemas["Books"]["properties"]


def test_a_deal_naming_the_first_to_meld_and_counting_a_mixed_wild_book_is_scored_and_read_back(client):
    game_id, key = api_game(client, sheet=SHEET)
    body = {"deal": 1, "ending": "went_out", "went_out": "Ann", "first_meld": "Bea", "sides": [
        {"name": "Ann", "books": {"clean": 1, "dirty": 1, "wild_mixed": 1}, "meld_points": 290,
         "players": [{"name": "Ann", "foot_picked_up": True, "cards_left_points": 0}]},
        {"name": "Bea", "books": {}, "meld_points": 30,
         "players": [{"name": "Bea", "foot_picked_up": True, "cards_left_points": 20, "red_threes_left": 1}]}]}
    saved = client.post(f"/api/v1/games/{game_id}/deals", json=body, headers=bearer(key))
    assert saved.status_code == 201, saved.get_json()
    got = client.get(f"/api/v1/games/{game_id}/deals/1").get_json()
    assert got["deal"]["first_meld"] == "Bea" and got["deal"]["sides"][0]["books"]["wild_mixed"] == 1
    assert got["report"]["violations"] == []
    totals = {s["name"]: s["total"] for s in client.get(f"/api/v1/games/{game_id}").get_json()["standings"]}
    # Ann: 290 + clean 500 + dirty 300 + mixed wild 1300 + going out 100
    # Bea: 30 - 20 + first to meld 100 - her red three 500 (Ann, an opponent, went out)
    assert totals == {"Ann": 290 + 500 + 300 + 1300 + 100, "Bea": 30 - 20 + 100 - 500}


def test_a_red_three_laid_where_they_are_held_is_refused_and_its_near_twin_saved(client):
    game_id, key = api_game(client, sheet=SHEET)
    body = {"deal": 1, "ending": "stock_out", "sides": [
        {"name": "Ann", "melds": ["K K K"], "red_threes": 1, "players": [{"name": "Ann", "foot_picked_up": True}]},
        {"name": "Bea", "melds": ["Q Q Q"], "players": [{"name": "Bea", "foot_picked_up": True}]}]}
    refused = client.post(f"/api/v1/games/{game_id}/deals", json=body, headers=bearer(key))
    assert refused.status_code == 422
    assert [p["code"] for p in refused.get_json()["problems"]] == ["red_three.laid"]
    body["sides"][0]["red_threes"] = 0
    assert client.post(f"/api/v1/games/{game_id}/deals", json=body, headers=bearer(key)).status_code == 201
