"""Whether a refused deal may be saved "as played" is decided once, by the store, and every
door says so (issue 8, item 18).

A deal with a problem no reason lets stand (a negative count, a player who is not the
game's, two sides of one name, the wrong deal number) is never offered "Save as played":
the API's 422 says ``may_save_as_played: false`` and marks each such problem, the page
lists what must be corrected instead of the button, and the CLI's ``--as-played`` refusal
names them. A deal that breaks only the sheet's rules is still offered it, and saved.
Everything runs the real app on a real SQLite file.
"""

from __future__ import annotations

import json
import re

import pytest

from scorepad.rules import Deal, judge
from scorepad.storage import checks
from tests import json_writes as writing
from tests.helpers import api_game, db_state

API = "/api/v1"
TWO = [{"name": "Ann", "players": ["Ann"]}, {"name": "Bea", "players": ["Bea"]}]


def deal(ann_melds=("K K K K K K K", "Q Q Q Q Q 2 2"), bea_melds=("J J J",), bea_left="A 3B", number=1,
         sides=None) -> dict:
    """Ann goes out with a clean and a dirty book; Bea holds an ace and a black three."""
    return {"deal": number, "ending": "went_out", "went_out": "Ann", "sides": sides or [
        {"name": "Ann", "melds": list(ann_melds), "players": [{"name": "Ann", "foot_picked_up": True}]},
        {"name": "Bea", "melds": list(bea_melds), "players": [{"name": "Bea", "foot_picked_up": True,
                                                              "cards_left": bea_left}]}]}


RULE_BROKEN = deal(bea_melds=("J J J", "Q Q 2 2"))  # wilds as many as naturals: a table may let it stand
NEGATIVE = deal(bea_left={"A": -1})
BOTH = deal(bea_melds=("J J J", "Q Q 2 2"), bea_left={"A": -1})
MISSING_PLAYER = deal(sides=[deal()["sides"][0], {"name": "Bea", "melds": ["J J J"], "players": []}])
TWICE_ANN = deal(sides=[*deal()["sides"], deal()["sides"][0]])  # a side entered twice
WRONG_NUMBER = deal(number=9)

NEVER = {"negative count": (NEGATIVE, {"count.negative"}),
         "negative count and a broken rule": (BOTH, {"count.negative"}),
         "a side with nobody": (MISSING_PLAYER, {"game.players", "side.players", "table.players"}),
         "a side twice": (TWICE_ANN, {"side.name", "player.name"}),
         "deal 9 of 4": (WRONG_NUMBER, {"deal.number"})}


def post(client, game_id: str, key: str, body: dict, reason: str | None = None):
    sent = {**body, "as_played": {"reason": reason}} if reason else body
    return client.post(f"{API}/games/{game_id}/deals", json=sent, headers={"Authorization": f"Bearer {key}"})


# -- the store ----------------------------------------------------------------------------------


def test_the_store_decides_once_which_problems_no_reason_lets_stand(app):
    with app.app_context():
        game = writing.create_game("Friday", "common", TWO)
        for body, codes in NEVER.values():
            refused = checks.rule_violations(game, Deal.from_json({**body, "sheet": "common"}))
            assert refused is not None and not refused.may_save_as_played
            assert {p.code for p in refused.never_as_played} == codes
        refused = checks.rule_violations(game, Deal.from_json({**RULE_BROKEN, "sheet": "common"}))
        assert refused.may_save_as_played and refused.never_as_played == []
        assert [p.code for p in refused.problems] == ["meld.wild_ratio"]
        assert checks.rule_violations(game, Deal.from_json({**deal(), "sheet": "common"})) is None
        assert judge(Deal.from_json({**deal(), "sheet": "common"})).ok


# -- the API ------------------------------------------------------------------------------------


@pytest.mark.parametrize("body, codes", NEVER.values(), ids=NEVER.keys())
def test_api_says_a_deal_that_can_never_stand_may_not_be_saved_as_played(app, client, body, codes):
    game_id, key = api_game(client)
    before = db_state(app)
    first = post(client, game_id, key, body)
    assert first.status_code == 422
    refused = first.get_json()
    assert refused["may_save_as_played"] is False
    assert {p["code"] for p in refused["problems"] if p["never_as_played"]} == codes
    assert all(p["never_as_played"] is (p["code"] in codes) for p in refused["problems"])
    assert "save it as played" not in refused["error"]["message"]
    again = post(client, game_id, key, body, reason="we agreed")  # what it said holds: still refused
    assert again.status_code == 422 and again.get_json()["may_save_as_played"] is False
    assert db_state(app) == before


def test_api_offers_saving_as_played_only_where_it_then_succeeds(app, client):
    game_id, key = api_game(client)
    refused = post(client, game_id, key, RULE_BROKEN)
    assert refused.status_code == 422
    body = refused.get_json()
    assert body["may_save_as_played"] is True
    assert [(p["code"], p["never_as_played"]) for p in body["problems"]] == [("meld.wild_ratio", False)]
    assert "save it as played" in body["error"]["message"]
    saved = post(client, game_id, key, RULE_BROKEN, reason="we let it stand")
    assert saved.status_code == 201 and saved.get_json()["as_played"] == "we let it stand"


def test_api_names_the_problem_to_correct_first_when_a_deal_has_both_kinds(client):
    game_id, key = api_game(client)
    body = post(client, game_id, key, BOTH).get_json()
    assert body["error"]["field"] == "sides[1].players[0].cards_left"
    assert "negative" in body["error"]["message"]
    assert [p["code"] for p in body["problems"]] == ["meld.wild_ratio", "count.negative"]


# -- the pages ----------------------------------------------------------------------------------


def page_deal(client, game_id: str, left_ace: str, action: str, reason: str = "") -> tuple[int, str]:
    """Ann goes out with two books; Bea melds Q Q 2 2 (a broken rule) and holds ``left_ace`` aces."""
    data = {"revision": "0", "s0-rows": "4", "s1-rows": "4", "s0-p0-picked": "1", "s1-p0-picked": "1",
            "s0-m0-cards": "K K K K K K K", "s0-m1-cards": "Q Q Q Q Q 2 2", "s1-m0-cards": "J J J",
            "s1-m1-cards": "Q Q 2 2", "s1-p0-c-A": left_ace, "ending": "s0-p0", "action": action, "reason": reason}
    response = client.post(f"/games/{game_id}/deals/new", data=data)
    return response.status_code, response.get_data(as_text=True)


def grant(client, game_id: str, key: str) -> None:
    assert client.get(f"/games/{game_id}/edit/{key}").status_code in (302, 303)


@pytest.mark.parametrize("action", ["save", "check"])
def test_the_page_offers_save_as_played_only_when_it_can_succeed(client, action):
    game_id, key = api_game(client)
    grant(client, game_id, key)
    status, page = page_deal(client, game_id, "1", action)
    assert status == (422 if action == "save" else 200)
    assert 'value="as_played"' in page and "Cannot be saved as played" not in page
    status, page = page_deal(client, game_id, "-1", action)
    assert status == (422 if action == "save" else 200)
    assert 'value="as_played"' not in page
    block = re.search(r'<div class="as-played" id="as-played">(.*?)</div>', page, re.DOTALL).group(1)
    assert "Cannot be saved as played" in block
    assert "Bea&#39;s cards left has a negative count." in block
    assert "Q Q 2 2" not in block and "natural cards than wild" not in block  # that one may stand


def test_the_page_saves_as_played_what_it_offered_and_refuses_what_it_did_not(app, client):
    game_id, key = api_game(client)
    grant(client, game_id, key)
    before = db_state(app)
    status, page = page_deal(client, game_id, "-1", "as_played", reason="please")
    assert status == 422 and 'value="as_played"' not in page and "cannot be saved as played" in page
    assert db_state(app) == before
    status, _ = page_deal(client, game_id, "1", "as_played", reason="we let it stand")
    assert status == 303


# -- the CLI ------------------------------------------------------------------------------------


def test_cli_as_played_refusal_names_the_problems_that_can_never_be_saved(app, tmp_path):
    runner = app.test_cli_runner()
    made = runner.invoke(args=["game", "new", "--name", "Friday", "--sheet", "common", "--side", "Ann",
                               "--side", "Bea"])
    assert made.exit_code == 0, made.output
    game_id = dict(line.split(": ", 1) for line in made.stdout.splitlines())["id"]
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(BOTH))
    before = db_state(app)
    result = runner.invoke(args=["deal", "record", game_id, str(path), "--as-played", "we agreed"])
    assert result.exit_code == 1
    out = result.stdout
    assert "1 of them can never be saved as played, whatever the reason: correct it first." in out
    assert "violation (never as played): Bea's cards left has a negative count." in out
    assert "violation: This sheet needs more natural cards than wild cards" in out
    assert "--as-played" not in out
    assert db_state(app) == before
    path.write_text(json.dumps(RULE_BROKEN))
    result = runner.invoke(args=["deal", "record", game_id, str(path)])
    assert result.exit_code == 1 and "give --as-played REASON to save it as played" in result.stdout


# -- an import --------------------------------------------------------------------------------


def test_an_import_marks_the_problems_no_reason_lets_stand(app, client):
    game_id, key = api_game(client)
    assert post(client, game_id, key, RULE_BROKEN, reason="we let it stand").status_code == 201
    document = client.get(f"{API}/games/{game_id}/export").get_json()
    document["deals"][0]["deal"] = {k: v for k, v in BOTH.items() if k != "deal"}
    document["deals"][0]["history"] = []
    before = db_state(app)
    response = client.post(f"{API}/games/import", json=document)
    assert response.status_code == 422
    body = response.get_json()
    assert "cannot be saved even as played" in body["error"]["message"] and "negative" in body["error"]["message"]
    assert [(p["code"], p["never_as_played"]) for p in body["problems"]] == [
        ("meld.wild_ratio", False), ("count.negative", True)]
    assert db_state(app) == before
