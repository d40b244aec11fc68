"""An exported game is rescored as it is: ``POST /api/v1/referee/rescore`` takes the whole
export document (``GET /api/v1/games/<id>/export``) as its ``game``, and a game's ``deals``
either as deals or as the export lists them, ``{"number", "deal", "as_played", "history"}``."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.api.test_api import BAD_DEAL, two_player_deal
from tests.helpers import api_game, bearer, valid_deal

pytestmark = pytest.mark.backends  # each test on a database of its own: on SQLite and on PostgreSQL

API = "/api/v1"
AMENDED = {"preset": "common", "clean_book_bonus": 600}  # the game's sheet after its amendment

# The deals of the game, built by hand: deal 2 saved as played (Bea's meld has more wilds
# than naturals), deal 3 recorded and then deleted, so deal 4 follows deal 2.
DEAL_1 = valid_deal(1)
DEAL_2 = {**BAD_DEAL, "deal": 2}
DEAL_3 = two_player_deal(ann_melds=("A A A",), number=3)
DEAL_4 = two_player_deal(ann_melds=("K K K K K K K",), bea_melds=("9 9 9 2",), bea_left="5 5", number=4)
BY_HAND = {"sheet": AMENDED, "sides": ["Ann", "Bea"], "deals": [DEAL_1, DEAL_2, DEAL_4]}


def exported_game(client) -> tuple[str, dict[str, Any]]:
    """A game played through the API (a correction, a deal saved as played, a deleted deal
    and an amendment of its sheet): its id, and its document as ``GET /games/<id>/export`` answers it."""
    game_id, key = api_game(client)
    auth = bearer(key)
    first = two_player_deal(number=1)
    for deal in (first, {**DEAL_2, "as_played": {"reason": "we let it stand"}}, DEAL_3, DEAL_4):
        assert client.post(f"{API}/games/{game_id}/deals", json=deal, headers=auth).status_code == 201
    assert client.put(f"{API}/games/{game_id}/deals/1", json=DEAL_1, headers=auth).status_code == 200
    assert client.delete(f"{API}/games/{game_id}/deals/3", headers=auth).status_code == 200
    amended = client.put(f"{API}/games/{game_id}/sheet", json={"sheet": AMENDED, "reason": "house rule"},
                         headers=auth)
    assert amended.status_code == 200
    document = client.get(f"{API}/games/{game_id}/export").get_json()
    assert [d["number"] for d in document["deals"]] == [1, 2, 4]
    assert document["deals"][1]["as_played"] == "we let it stand"
    assert [d["number"] for d in document["deleted_deals"]] == [3]
    assert [e["action"] for e in document["deals"][0]["history"]] == ["record", "edit"]
    assert document["amendments"] and document["sheet"] == {**AMENDED, "preset_version": 1}
    return game_id, document


def rescored(client, game: Any, sheet: str = "pagat") -> Any:
    return client.post(f"{API}/referee/rescore", json={"sheet": sheet, "game": game})


def test_an_export_rescored_as_it_is_equals_the_same_game_built_by_hand(client):
    game_id, document = exported_game(client)
    unchanged = copy.deepcopy(document)
    response = rescored(client, document)
    assert response.status_code == 200, response.get_data(as_text=True)
    body = response.get_json()
    by_hand = rescored(client, BY_HAND)
    assert by_hand.status_code == 200
    assert body == by_hand.get_json()
    assert document == unchanged  # sent exactly as exported
    assert [d["deal"] for d in body["deals"]] == [1, 2, 4]
    # under the game's own (amended) sheet the totals are the game's; under pagat they differ
    standings = {s["name"]: s["total"] for s in client.get(f"{API}/games/{game_id}").get_json()["standings"]}
    assert {t["name"]: t["old"] for t in body["totals"]} == standings
    assert any(t["difference"] for t in body["totals"])


def test_a_games_deals_may_be_listed_as_the_export_lists_them_or_as_deals(client):
    _, document = exported_game(client)
    wrapped = {"sheet": AMENDED, "sides": document["sides"], "deals": document["deals"]}
    mixed = {**BY_HAND, "deals": [document["deals"][0], DEAL_2, document["deals"][2]]}
    expected = rescored(client, BY_HAND).get_json()
    assert rescored(client, wrapped).get_json() == expected
    assert rescored(client, mixed).get_json() == expected


def test_the_deal_saved_as_played_is_rescored_as_played(client):
    _, document = exported_game(client)
    body = rescored(client, document, "common").get_json()
    assert [(d["old_ok"], d["new_ok"]) for d in body["deals"]] == [(True, True), (False, False), (True, True)]
    assert body["deals"][1]["sides"][1]["old"]["lines"]  # scored as recorded, violations and all


@pytest.mark.parametrize("change, field", [
    (lambda d: d.update(format="other.game"), "game.format"),
    (lambda d: d.update(version=2), "game.version"),
    (lambda d: d["deals"][1].update(deal={**d["deals"][1]["deal"], "ending": "?"}), "game.deals[1].deal.ending"),
    (lambda d: d["deals"][0]["history"][0].update(action="undo"), "game.deals[0].history[0].action"),
    (lambda d: d["deals"][0].update(extra=1), "game.deals[0].extra"),
    (lambda d: d["deals"][2].update(number=2), "game.deals[2].number"),
])
def test_an_unreadable_export_is_a_400_naming_the_field_within_game(client, change, field):
    _, document = exported_game(client)
    change(document)
    response = rescored(client, document)
    assert response.status_code == 400
    assert response.get_json()["error"]["field"] == field


@pytest.mark.parametrize("deals, field", [
    ([{"number": 1, "deal": {**DEAL_1, "deal": 2}, "as_played": None, "history": []}], "game.deals[0].deal.deal"),
    ([{"number": 1, "deal": DEAL_1, "by": "Ann"}], "game.deals[0].by"),
    ([{"number": "1", "deal": DEAL_1}], "game.deals[0].number"),
])
def test_an_unreadable_deal_entry_in_a_game_is_a_400_naming_it(client, deals, field):
    response = rescored(client, {**BY_HAND, "deals": deals})
    assert response.status_code == 400
    assert response.get_json()["error"]["field"] == field
