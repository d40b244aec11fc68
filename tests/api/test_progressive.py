"""The progressive preset through the JSON API: its sheet with the fixed rule, and a four-deal
game recorded deal by deal, each next deal asking more (tests/data/game-progressive.json,
worked by hand in tests/rules/test_progressive.py)."""

from __future__ import annotations

import json

from scorepad.rules import PRESETS
from tests.hardening import api_game, bearer
from tests.rules.test_progressive import DEAL_TOTALS, FINAL, GAME_FILE, five_and_five

API = "/api/v1"
FOOT_RULE = "A player picks up the foot only once every card of the hand has been played."


def test_the_progressive_sheet_lists_its_fixed_rule_and_rising_values(client):
    listed = {s["id"]: s for s in client.get(f"{API}/sheets").get_json()["sheets"]}
    assert listed["progressive"]["fixed"] == [FOOT_RULE]
    assert listed["progressive"]["title"] == "Progressive house sheet (individuals or partnerships of 2)"
    assert all(listed[other]["fixed"] == [] for other in ("common", "pagat", "bicycle", "gather-together"))
    body = client.get(f"{API}/sheets/progressive").get_json()
    assert body["fixed"] == [FOOT_RULE]
    assert body["not_stated"] == dict(PRESETS["progressive"].not_stated)
    words = {o["name"]: o["words"] for group in body["groups"] for o in group["options"]}
    assert words["going_out_bonus"] == "deal 1 300 points, deal 2 400 points, deal 3 500 points, deal 4 600 points"
    assert words["draws_per_turn"] == "deal 1 3, deal 2 4, deal 3 5, deal 4 6"


def test_a_four_deal_progressive_game_scores_through_the_api_each_next_deal_asking_more(client):
    game = json.loads(GAME_FILE.read_text(encoding="utf-8"))
    game_id, key = api_game(client, name="Progressive", sheet="progressive")
    asked = []
    for deal, expected in zip(game["deals"], DEAL_TOTALS, strict=True):
        upcoming = client.get(f"{API}/games/{game_id}").get_json()["next_deal"]
        asked.append((upcoming["number"], upcoming["opening_minimums"]["Ann"], upcoming["going_out_books"],
                      upcoming["going_out_bonus"]))
        saved = client.post(f"{API}/games/{game_id}/deals", json=deal, headers=bearer(key))
        assert saved.status_code == 201, saved.get_json()
        report = saved.get_json()["report"]
        assert report["ok"] and {s["name"]: s["total"] for s in report["sides"]} == expected
    assert asked == [(n, minimum, {"clean": books, "dirty": books, "wild": 0}, bonus) for n, minimum, books, bonus
                     in ((1, 90, 3, 300), (2, 120, 4, 400), (3, 150, 5, 500), (4, 180, 6, 600))]
    body = client.get(f"{API}/games/{game_id}").get_json()
    assert body["sheet"] == {"preset": "progressive", "preset_version": 1}
    assert body["standings"] == [{"name": "Ann", "total": FINAL["Ann"]}, {"name": "Bea", "total": FINAL["Bea"]}]
    assert (body["over"], body["winner"], body["next_deal"]) == (True, "Ann", None)


def test_deal_4_of_a_progressive_game_refuses_going_out_with_deal_3s_books(client):
    game = json.loads(GAME_FILE.read_text(encoding="utf-8"))
    game_id, key = api_game(client, name="Progressive", sheet="progressive", deals=game["deals"][:3])
    short = five_and_five(4).to_json(with_sheet=False)
    refused = client.post(f"{API}/games/{game_id}/deals", json=short, headers=bearer(key))
    assert refused.status_code == 422
    problems = refused.get_json()["problems"]
    assert [(p["code"], p["option"]) for p in problems] == [("went_out.books", "books_to_go_out")]
    # Its near twin, the same books in deal 3 of a game, is legal (the score: tests/rules).
    twin = client.post(f"{API}/score", json=five_and_five(3).to_json()).get_json()
    assert twin["ok"] is True
