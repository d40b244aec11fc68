"""The progressive preset through the JSON API: its sheet with its house rule, and a four-deal
game recorded deal by deal, each next deal asking more (tests/data/game-progressive.json,
worked by hand in tests/rules/test_progressive.py)."""

from __future__ import annotations

import json
import re

from scorepad.rules import PRESETS
from tests.helpers import api_game, bearer, grant
from tests.rules.test_progressive import DEAL_TOTALS, FINAL, GAME_FILE, five_and_five

API = "/api/v1"
FOOT_RULE = "A player picks up the foot only once every card of the hand has been played."


def test_the_progressive_sheet_lists_its_house_rule_and_rising_values(client):
    listed = {s["id"]: s for s in client.get(f"{API}/sheets").get_json()["sheets"]}
    assert listed["progressive"]["house_rules"] == [FOOT_RULE]
    assert listed["progressive"]["title"] == "Progressive house sheet (individuals or partnerships of 2)"
    assert all(listed[other]["house_rules"] == [] for other in ("common", "pagat", "bicycle", "gather-together"))
    assert all("fixed" not in item for item in listed.values())  # the house rules say it, once
    body = client.get(f"{API}/sheets/progressive").get_json()
    assert body["house_rules"] == body["sheet"]["house_rules"] == [FOOT_RULE]
    assert body["not_stated"] == dict(PRESETS["progressive"].not_stated)
    words = {o["name"]: o["words"] for group in body["groups"] for o in group["options"]}
    assert words["going_out_bonus"] == "deal 1 300 points, deal 2 400 points, deal 3 500 points, deal 4 600 points"
    assert words["draws_per_turn"] == "deal 1 3, deal 2 4, deal 3 5, deal 4 6"
    assert words["house_rules"] == FOOT_RULE


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


def next_box(client, game_id: str) -> str:
    """The game page's "next deal" box, as text."""
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    box = re.search(r'<section class="next".*?</section>', page, re.S)
    assert box is not None
    return " ".join(re.sub(r"<[^>]+>", " ", box[0]).split())


def test_a_progressive_games_next_deal_says_its_draws_per_turn_deal_2_drawing_4(client):
    # The progressive sheet draws 3, 4, 5, 6 cards a turn in deals 1 to 4: after deal 1, deal 2 draws 4.
    game = json.loads(GAME_FILE.read_text(encoding="utf-8"))
    game_id, key = api_game(client, name="Progressive", sheet="progressive", deals=game["deals"][:1])
    upcoming = client.get(f"{API}/games/{game_id}").get_json()["next_deal"]
    assert (upcoming["number"], upcoming["draws"]) == (2, 4)
    assert "Draw 4 cards a turn" in next_box(client, game_id)
    # The deal form's pills say the same, from the same deal rules.
    grant(client, game_id, key)
    form = client.get(f"/games/{game_id}/deals/new").get_data(as_text=True)
    assert "<li>Draw 4</li>" in form


def test_a_progressive_game_before_its_first_deal_draws_3(client):
    game_id, _ = api_game(client, name="Progressive", sheet="progressive")
    assert client.get(f"{API}/games/{game_id}").get_json()["next_deal"]["draws"] == 3
    assert "Draw 3 cards a turn" in next_box(client, game_id)


def test_a_common_games_next_deal_draws_its_fixed_2_every_deal(client):
    # The common sheet draws 2 a turn in every deal: deal 1 and, after it, deal 2 alike.
    stock_out = {"ending": "stock_out", "sides": [
        {"name": name, "melds": ["K K K"], "players": [{"name": name, "foot_picked_up": True, "cards_left": ""}]}
        for name in ("Ann", "Bea")]}
    for deals, number in (((), 1), ((stock_out,), 2)):
        game_id, _ = api_game(client, sheet="common", deals=deals)
        upcoming = client.get(f"{API}/games/{game_id}").get_json()["next_deal"]
        assert (upcoming["number"], upcoming["draws"]) == (number, 2)
        assert "Draw 2 cards a turn" in next_box(client, game_id)


def test_a_sheet_drawing_a_fixed_3_says_3_in_every_deal(client):
    game_id, _ = api_game(client, sheet={"preset": "common", "draws_per_turn": 3})
    assert client.get(f"{API}/games/{game_id}").get_json()["next_deal"]["draws"] == 3
    assert "Draw 3 cards a turn" in next_box(client, game_id)
