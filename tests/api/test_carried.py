"""What a deal carries for the referee, through the API: an opening below the minimum is
refused (422, ``opening.minimum``); without one the deal is saved and its report lists the
opening under ``not_checked``; every answer meets the OpenAPI description.

Common, Ann v Bea: K K K + Q Q Q is 3 × 10 + 3 × 10 = 60, enough for deal 1 (50), short of
deal 3 (120) (VARIATIONS.md's worked example).
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from tests.api.test_openapi import assert_meets
from tests.helpers import api_game, assert_error_shape, bearer
from tests.rules.test_dispute import CLUB, HOME, banded_game

API = "/api/v1"


@pytest.fixture(scope="module")
def doc(module_app) -> dict[str, Any]:
    """The API's OpenAPI description."""
    return module_app.test_client().get(f"{API}/openapi.json").get_json()


def kings_and_queens(number: int, opening: bool = True) -> dict[str, Any]:
    ann: dict[str, Any] = {"name": "Ann", "foot_picked_up": True}
    if opening:
        ann["opening"] = {"melds": ["K K K", "Q Q Q"]}
    return {"deal": number, "ending": "stock_out", "sides": [
        {"name": "Ann", "melds": ["K K K", "Q Q Q"], "players": [ann]},
        {"name": "Bea", "melds": ["J J J J"], "players": [{"name": "Bea", "foot_picked_up": True}]}]}


def test_an_opening_below_the_minimum_is_refused_with_opening_minimum(client, doc):
    game_id, key = api_game(client, deals=[kings_and_queens(1), kings_and_queens(2, opening=False)])
    response = client.post(f"{API}/games/{game_id}/deals", json=kings_and_queens(3), headers=bearer(key))
    error = assert_error_shape(response, 422, "sides[0].players[0].opening.melds")
    body = response.get_json()
    assert [p["code"] for p in body["problems"]] == ["opening.minimum"]
    assert "deal 3 is 120; these count 60" in error["message"]
    assert "Minimum by deal: deal 1 50, deal 2 90, deal 3 120, deal 4 150" in error["message"]
    assert body["may_save_as_played"] is True
    assert [u["side"] for u in body["report"]["not_checked"]] == ["Bea"]
    assert_meets(doc, "/api/v1/games/{game_id}/deals", "post", response)
    assert len(client.get(f"{API}/games/{game_id}").get_json()["deals"]) == 2  # nothing saved


def test_without_an_opening_the_deal_is_saved_and_lists_the_opening_not_checked(client, doc):
    game_id, key = api_game(client, deals=[kings_and_queens(1), kings_and_queens(2, opening=False)])
    response = client.post(f"{API}/games/{game_id}/deals", json={**kings_and_queens(3, opening=False), "repeat": True},
                           headers=bearer(key))  # deal 2 again, played so
    assert response.status_code == 201, response.get_data(as_text=True)
    report = response.get_json()["report"]
    assert report["ok"] is True and report["warnings"] == []
    assert [(u["what"], u["where"], u["option"]) for u in report["not_checked"]] == [
        ("opening", "sides[0].opening", "opening_minimums"), ("opening", "sides[1].opening", "opening_minimums")]
    assert_meets(doc, "/api/v1/games/{game_id}/deals", "post", response)
    game = client.get(f"{API}/games/{game_id}")
    assert game.get_json()["deals"][0]["report"]["not_checked"][0]["side"] == "Bea"  # deal 1: Ann gave hers
    assert_meets(doc, "/api/v1/games/{game_id}", "get", game)


def test_the_opening_is_stored_and_read_back_canonically(client):
    deal = kings_and_queens(1)
    deal["sides"][0]["players"][0]["opening"] = {"melds": ["k k k", "Q Q Q"], "pile_top": False}
    game_id, _ = api_game(client, deals=[deal])
    stored = client.get(f"{API}/games/{game_id}/deals/1").get_json()["deal"]
    assert stored["sides"][0]["players"][0]["opening"] == {"melds": [{"rank": "K", "naturals": 3},
                                                                      {"rank": "Q", "naturals": 3}]}
    assert "running_total" not in stored["sides"][0] and "last_card" not in stored


def test_score_judges_the_last_card_and_permission(client, doc):
    # Bicycle: the last card must be a discard. North-South (Ann, Cy) go out with 1 clean + 1 dirty
    base = {"sheet": "bicycle", "deal": 1, "ending": "went_out", "went_out": "Ann", "sides": [
        {"name": "North-South", "melds": ["Kx7", "Q Q Q Q 2 2 JK"],
         "players": [{"name": "Ann", "foot_picked_up": True}, {"name": "Cy", "foot_picked_up": True}]},
        {"name": "East-West", "melds": ["8 8 8"],
         "players": [{"name": "Bea", "foot_picked_up": True}, {"name": "Dan", "foot_picked_up": True}]}]}
    answers = [client.post(f"{API}/score", json=body) for body in (base, {**base, "last_card": "meld"},
                                                                     {**base, "last_card": "discard"})]
    unsaid, melded, discarded = (answer.get_json() for answer in answers)
    assert unsaid["ok"] is True
    assert [u["what"] for u in unsaid["not_checked"]] == ["opening", "opening", "last_card"]
    assert [v["code"] for v in melded["violations"]] == ["went_out.last_card"]
    assert "(The last card: must be discarded)" in melded["violations"][0]["message"]
    assert discarded["ok"] is True and "last_card" not in [u["what"] for u in discarded["not_checked"]]
    asked = copy.deepcopy(base) | {"sheet": {"preset": "bicycle", "go_out_permission": True}, "permission": "asked-no"}
    assert [v["code"] for v in client.post(f"{API}/score", json=asked).get_json()["violations"]] == [
        "went_out.permission"]
    for answer in answers:
        assert_meets(doc, "/api/v1/score", "post", answer)


def test_an_unreadable_carried_field_is_a_400_naming_it(client):
    deal = {"sheet": "common", **kings_and_queens(1), "permission": "maybe"}
    assert_error_shape(client.post(f"{API}/score", json=deal), 400, "permission")
    deal = {"sheet": "common", **kings_and_queens(1)}
    deal["sides"][0]["running_total"] = "lots"
    assert_error_shape(client.post(f"{API}/score", json=deal), 400, "sides[0].running_total")


def test_explain_lists_what_was_not_checked(client, doc):
    deal = {"sheet": "common", **kings_and_queens(1, opening=False)}
    response = client.post(f"{API}/referee/explain", json={"deal": deal})
    assert [u["side"] for u in response.get_json()["not_checked"]] == ["Ann", "Bea"]
    assert_meets(doc, "/api/v1/referee/explain", "post", response)


def test_a_rescored_game_judges_each_opening_against_the_other_sheets_running_total(client, doc):
    # tests/rules/test_dispute.py's banded game, recorded: Ann 1,190 a deal, Bea -100. On HOME
    # (below 2,000: 50, else 90) Ann's 60 in deal 2 meets 50 (1,190) and her 100 in deal 3 meets
    # 90 (2,380); Bea's 80 meets 50 (-100, -200). On CLUB (below 1,000: 50, below 2,500: 90, else
    # 120) Ann's 60 is short of 90 (1,190); her 100 meets 90 (2,380); Bea's 80 meets 50.
    game_id, _ = api_game(client, sheet=HOME, deals=banded_game().to_json()["deals"])
    recorded = client.get(f"{API}/games/{game_id}").get_json()
    assert [d["report"]["ok"] for d in recorded["deals"]] == [True, True, True]
    query = {"sheet": json.dumps(CLUB)}
    response = client.get(f"{API}/referee/games/{game_id}/rescore", query_string=query)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert_meets(doc, "/api/v1/referee/games/{game_id}/rescore", "get", response)
    deals = response.get_json()["deals"]
    assert [(d["old_ok"], d["new_ok"]) for d in deals] == [(True, True), (True, False), (True, True)]
    assert [(p["code"], p["side"], p["option"]) for p in deals[1]["new_violations"]] == [
        ("opening.minimum", "Ann", "opening_bands")]
    assert deals[2]["new_violations"] == []
    alone = client.get(f"{API}/referee/games/{game_id}/rescore", query_string=query | {"deal": "2"})
    assert alone.status_code == 200, alone.get_data(as_text=True)
    assert alone.get_json() == deals[1]  # a recorded deal alone is judged as a deal of its game
    assert_meets(doc, "/api/v1/referee/games/{game_id}/rescore", "get", alone)
