"""The progressive preset through the pages: a game started from it with the New game form,
its four deals typed into the deal form (tests/data/game-progressive.json, worked by hand in
tests/rules/test_progressive.py), each deal's form and page giving that deal's rising
requirements, and the sheet page its house rule; on any sheet, a deal page names each side's
minimum when they differ. Real app, real SQLite file, Flask test client."""

from __future__ import annotations

import json
from typing import Any

from tests import json_writes as writing
from tests.rules.test_progressive import FINAL, GAME_FILE
from tests.web.test_pages import deal_form, fill, own_game, pills, start, text

FOOT_RULE = "A player picks up the foot only once every card of the hand has been played."
# Each deal's pills: its number, cards drawn, opening minimum, books to go out, going-out bonus.
PILLS = [[f"Deal {n} of 4", f"Draw {draws}", f"Opening {minimum}", f"Go out: {books} clean + {books} dirty",
          f"Going out +{bonus}"]
         for n, draws, minimum, books, bonus in ((1, 3, 90, 3, 300), (2, 4, 120, 4, 400), (3, 5, 150, 5, 500),
                                                 (4, 6, 180, 6, 600))]


def typed(form: dict[str, str], deal: dict[str, Any]) -> dict[str, str]:
    """The deal form filled in as a player types ``deal`` (one player a side): melds as card
    strings, one row each, and each hand's cards left."""
    data = dict(form)
    for i, side in enumerate(deal["sides"]):
        data[f"s{i}-rows"] = str(len(side["melds"]))
        fill(data, i, side["melds"], side.get("red_threes", 0))
        player, key = side["players"][0], f"s{i}-p0"
        data.pop(f"{key}-picked", None)
        if player["foot_picked_up"]:
            data[f"{key}-picked"] = "on"
        if isinstance(player["cards_left"], str):
            data[f"{key}-left"] = player["cards_left"]
        if "foot" in player:
            data[f"{key}-foot"] = player["foot"]
    names = [side["name"] for side in deal["sides"]]
    data["ending"] = "stock" if deal["ending"] == "stock_out" else f"s{names.index(deal['went_out'])}-p0"
    data["action"] = "save"
    return data


def test_a_four_deal_progressive_game_is_typed_into_the_pages_each_form_asking_that_deals_requirements(client):
    game_id = start(client, preset_id="progressive", name="Progressive")
    deals = json.loads(GAME_FILE.read_text(encoding="utf-8"))["deals"]
    for number, deal in enumerate(deals, 1):
        form_page = text(client.get(f"/games/{game_id}/deals/new"))
        assert pills(form_page) == PILLS[number - 1]
        saved = client.post(f"/games/{game_id}/deals/new", data=typed(deal_form(client, game_id), deal))
        assert saved.status_code == 303, text(saved)[:3000]
    game = text(client.get(f"/games/{game_id}"))
    assert f"Winner: Ann, {FINAL['Ann']:,} to {FINAL['Bea']:,}" in game  # 10,890 to 5,970
    # A correction of deal 3 asks deal 3's requirements, not the next deal's.
    assert pills(text(client.get(f"/games/{game_id}/deals/3/edit"))) == PILLS[2]


def test_each_recorded_deals_page_gives_that_deals_requirements(client):
    game_id = start(client, preset_id="progressive", name="Progressive")
    deals = json.loads(GAME_FILE.read_text(encoding="utf-8"))["deals"]
    for deal in deals[:3]:
        response = client.post(f"/games/{game_id}/deals/new", data=typed(deal_form(client, game_id), deal))
        assert response.status_code == 303
    pages = [text(client.get(f"/games/{game_id}/deals/{n}")) for n in (1, 2, 3)]
    assert "Deal 1 of 4: draw 3; opening 90; to go out 3 clean + 3 dirty; going out +300." in pages[0]
    assert "Deal 2 of 4: draw 4; opening 120; to go out 4 clean + 4 dirty; going out +400." in pages[1]
    assert "Deal 3 of 4: draw 5; opening 150; to go out 5 clean + 5 dirty; going out +500." in pages[2]


def test_the_progressive_sheet_page_gives_its_house_rule(client):
    game_id = start(client, preset_id="progressive", name="Progressive")
    page = text(client.get(f"/games/{game_id}/sheet"))
    # The New game form kept every value of the preset: nothing changed.
    said = " ".join(page.split())
    assert "Progressive plays “Progressive house sheet (individuals or partnerships of 2)”." in said
    assert '<h2 id="g-house">House rules</h2>' in page and f"<li>{FOOT_RULE}</li>" in page
    assert page.count(FOOT_RULE) == 1  # once, under the options
    common = text(client.get(f"/games/{start(client, name='Common')}/sheet"))
    assert '<h2 id="g-house">House rules</h2>' in common and "<p>None.</p>" in common


def test_a_deal_page_names_each_sides_minimum_when_they_differ(client, app):
    # By running total: below 1,000 the minimum is 50, else 90. After deal 1 (Ann 1,060,
    # Bea 0), deal 2 asks Ann 90 and Bea 50; a game to a target names no last deal.
    banded = {"preset": "common", "game_length": "target", "target_score": 10_000, "opening_by": "running-total",
              "opening_bands": [{"below": 1000, "minimum": 50}, {"minimum": 90}]}
    game_id = own_game(client, app, banded)
    for deal in ({"ending": "went_out", "went_out": "Ann", "sides": [
            {"name": "Ann", "melds": ["Kx7", "Qx5 2 2"], "players": [{"name": "Ann", "foot_picked_up": True}]},
            {"name": "Bea", "melds": [], "players": [{"name": "Bea", "foot_picked_up": True}]}]},
            {"ending": "stock_out", "sides": [
                {"name": name, "melds": [], "players": [{"name": name, "foot_picked_up": True}]}
                for name in ("Ann", "Bea")]}):
        with app.test_request_context():
            writing.record_deal(game_id, deal)
    page = text(client.get(f"/games/{game_id}/deals/2"))
    assert "Deal 2: draw 2; opening Ann 90, Bea 50; to go out 1 clean + 1 dirty; going out +100." in page
