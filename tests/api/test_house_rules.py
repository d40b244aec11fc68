"""house_rules through the JSON API: a sheet carrying them is accepted wherever a sheet is
(a new game, an amendment, a deal scored, a rescore, the comparison, an export and its
import), refused naming the rule at fault, and described in OpenAPI. Real app, real
SQLite file, Flask's test client."""

from __future__ import annotations

import json

import pytest

from tests.helpers import ANN_BEA, api_game, assert_error_shape, bearer, valid_deal

API = "/api/v1"
FOOT_RULE = "A player picks up the foot only once every card of the hand has been played."
RULES = ["The stock is split in two; a player draws from either half.",
         "Cards pass to the left in odd deals, to the right in even ones."]
SHEET = {"preset": "common", "house_rules": RULES}


def test_a_game_made_with_house_rules_keeps_them_and_lists_them_as_a_change(client):
    game_id, _key = api_game(client, "House", SHEET)
    body = client.get(f"{API}/games/{game_id}").get_json()
    assert body["sheet"] == {"preset": "common", "preset_version": 1, "house_rules": RULES}
    assert body["sheet_changes"] == [{"option": "house_rules", "label": "House rules", "preset_value": "none",
                                      "value": " ".join(RULES)}]


def test_house_rules_sent_with_blanks_and_spaces_are_kept_stripped(client):
    game_id, _key = api_game(client, "House", {"preset": "common", "house_rules": ["", f"  {RULES[0]} ", " "]})
    assert client.get(f"{API}/games/{game_id}").get_json()["sheet"]["house_rules"] == [RULES[0]]


@pytest.mark.parametrize("rules, field", [
    ([RULES[0], "x" * 201], "sheet.house_rules[1]"),
    ([f"Rule {n}." for n in range(13)], "sheet.house_rules"),
    ("Split the stock.", "sheet.house_rules"),
    ([RULES[0], 3], "sheet.house_rules[1]"),
])
def test_house_rules_past_their_bounds_are_a_400_naming_the_field(client, rules, field):
    sheet = {"preset": "common", "house_rules": rules}
    response = client.post(f"{API}/games", json={"name": "House", "sheet": sheet, "sides": ANN_BEA})
    assert_error_shape(response, 400, field)
    response = client.post(f"{API}/score", json={**valid_deal(1), "sheet": sheet})
    assert_error_shape(response, 400, field)


def test_a_table_amends_its_presets_house_rule_away_and_back(client):
    game_id, key = api_game(client, "Progressive", "progressive")
    response = client.put(f"{API}/games/{game_id}/sheet", headers=bearer(key), json={
        "sheet": {"preset": "progressive", "house_rules": [FOOT_RULE, RULES[1]]}, "reason": "we pass cards too"})
    assert response.status_code == 200, response.get_json()
    body = client.get(f"{API}/games/{game_id}").get_json()
    assert body["sheet"]["house_rules"] == [FOOT_RULE, RULES[1]]
    response = client.put(f"{API}/games/{game_id}/sheet", headers=bearer(key), json={
        "sheet": {"preset": "progressive", "house_rules": []}, "reason": "we dropped them"})
    assert response.status_code == 200, response.get_json()
    body = client.get(f"{API}/games/{game_id}").get_json()
    assert body["sheet"]["house_rules"] == []
    assert [c["value"] for c in body["sheet_changes"]] == ["none"]


def test_a_deal_scores_the_same_with_house_rules_and_without(client):
    plain = client.post(f"{API}/score", json={**valid_deal(1), "sheet": "common"})
    ruled = client.post(f"{API}/score", json={**valid_deal(1), "sheet": SHEET})
    assert plain.status_code == ruled.status_code == 200
    assert ruled.get_json() == plain.get_json()


def test_the_comparison_and_a_rescore_take_a_sheet_with_house_rules(client):
    compared = client.get(f"{API}/referee/compare", query_string={"a": "common", "b": json.dumps(SHEET)})
    assert compared.status_code == 200, compared.get_json()
    body = compared.get_json()
    assert body["count"] == 1
    assert [(g["id"], [(o["option"], o["a"], o["b"]) for o in g["options"]]) for g in body["groups"]] == [
        ("house", [("house_rules", "none", " ".join(RULES))])]
    game_id, _key = api_game(client, "House", "common", deals=[valid_deal(1)])
    rescored = client.get(f"{API}/referee/games/{game_id}/rescore", query_string={"sheet": json.dumps(SHEET)})
    assert rescored.status_code == 200, rescored.get_json()


def test_an_export_with_house_rules_imports_as_the_same_sheet(client):
    game_id, _key = api_game(client, "House", SHEET, deals=[valid_deal(1)])
    document = client.get(f"{API}/games/{game_id}/export").get_json()
    assert document["sheet"]["house_rules"] == RULES
    imported = client.post(f"{API}/games/import", json=document)
    assert imported.status_code == 201, imported.get_json()
    again = client.get(f"{API}/games/{imported.get_json()['id']}").get_json()
    assert again["sheet"] == {"preset": "common", "preset_version": 1, "house_rules": RULES}


def test_openapi_describes_house_rules_as_the_sheet_option_and_the_presets_own(client):
    doc = client.get(f"{API}/openapi.json").get_json()
    option = doc["components"]["schemas"]["SheetObject"]["properties"]["house_rules"]
    assert (option["type"], option["maxItems"], option["items"], option["default"], option["title"]) == (
        "array", 12, {"type": "string", "maxLength": 200}, [], "House rules")
    preset = doc["components"]["schemas"]["Preset"]
    assert "house_rules" in preset["required"] and "fixed" not in preset["properties"]
    assert preset["properties"]["house_rules"]["maxItems"] == 12
