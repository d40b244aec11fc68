"""Counted deals through the API: recorded, corrected, scored, explained, rescored, exported,
imported and listed in the CSV by the one rules core, with the bench deal of issue 11 (Us
2,970, Them 1,150 on the common preset; the arithmetic is in tests/rules/test_counted.py)."""

from __future__ import annotations

import copy
import csv
import io
from typing import Any

import pytest

from tests.api.test_openapi import assert_meets, documented
from tests.helpers import api_game, assert_error_shape, bearer
from tests.rules.test_counted import BENCH

API = "/api/v1"
SIDES = [{"name": "Us", "players": ["Ann", "Cal"]}, {"name": "Them", "players": ["Bea", "Dan"]}]
DEAL = {key: value for key, value in BENCH.items() if key != "sheet"}  # a deal in a game has the game's sheet


def bench_game(client) -> tuple[str, dict[str, str]]:
    """A common-preset game, Us (Ann, Cal) v Them (Bea, Dan), with the bench deal recorded."""
    game_id, key = api_game(client, "Bench", "common", SIDES, [DEAL])
    return game_id, bearer(key)


def totals(client, game_id: str) -> dict[str, int]:
    return {s["name"]: s["total"] for s in client.get(f"{API}/games/{game_id}").get_json()["standings"]}


def test_a_counted_deal_is_recorded_scored_and_warned_about(client):
    game_id, _ = bench_game(client)
    deal = client.get(f"{API}/games/{game_id}/deals/1").get_json()
    assert deal["deal"]["sides"][0]["books"] == {"clean": 3, "dirty": 2, "wild": 0, "special": {}}
    assert deal["deal"]["sides"][1]["players"][1] == {"name": "Dan", "foot_picked_up": True, "cards_left_points": 55}
    assert deal["report"]["ok"] is True
    assert [w["code"] for w in deal["report"]["warnings"]] == ["counted.unchecked", "counted.unchecked"]
    assert totals(client, game_id) == {"Us": 2970, "Them": 1150}


def test_an_identical_counted_put_changes_nothing(client):
    game_id, auth = bench_game(client)
    revision = client.get(f"{API}/games/{game_id}/revision").get_json()["revision"]
    same = copy.deepcopy(DEAL)
    same["sides"][0]["books"] = {"dirty": 2, "clean": 3, "wild": 0}  # the same books, spelt otherwise
    response = client.put(f"{API}/games/{game_id}/deals/1", json=same, headers=auth)
    assert response.status_code == 200
    assert client.get(f"{API}/games/{game_id}/revision").get_json()["revision"] == revision
    history = client.get(f"{API}/games/{game_id}/history").get_json()["history"]
    assert [entry["action"] for entry in history if entry["deal_number"] == 1] == ["record"]


def test_a_counted_correction_rescores_the_game(client):
    game_id, auth = bench_game(client)
    changed = copy.deepcopy(DEAL)
    changed["sides"][1]["meld_points"] = 335
    assert client.put(f"{API}/games/{game_id}/deals/1", json=changed, headers=auth).status_code == 200
    assert totals(client, game_id) == {"Us": 2970, "Them": 1150 + 100}


def test_melds_beside_books_is_a_400_naming_books(client):
    game_id, auth = bench_game(client)
    bad = copy.deepcopy(DEAL)
    bad["sides"][0]["melds"] = ["K K K"]
    response = client.put(f"{API}/games/{game_id}/deals/1", json=bad, headers=auth)
    assert response.status_code == 400
    assert_error_shape(response, 400, "sides[0].books")


def test_books_without_meld_points_is_a_400_naming_meld_points(client):
    bad = copy.deepcopy(BENCH)
    del bad["sides"][1]["meld_points"]
    response = client.post(f"{API}/score", json=bad)
    assert_error_shape(response, 400, "sides[1].meld_points")


def test_cards_left_beside_cards_left_points_is_a_400_naming_the_second(client):
    bad = copy.deepcopy(BENCH)
    bad["sides"][0]["players"][1]["cards_left"] = "K"
    assert_error_shape(client.post(f"{API}/score", json=bad), 400, "sides[0].players[1].cards_left_points")


def test_melded_points_too_few_for_the_books_are_refused_as_a_violation(client):
    game_id, auth = bench_game(client)
    low = copy.deepcopy(DEAL)
    low["sides"][0]["meld_points"] = 200  # 3 clean books are at least 3 × 35, 2 dirty 2 × 50: 205
    response = client.put(f"{API}/games/{game_id}/deals/1", json=low, headers=auth)
    assert response.status_code == 422
    assert [v["code"] for v in response.get_json()["report"]["violations"]] == ["counted.meld_points"]


def test_score_and_explain_itemise_the_counted_lines(client):
    body = client.post(f"{API}/score", json=BENCH).get_json()
    us = body["sides"][0]
    assert (us["total"], [line["code"] for line in us["lines"]]) == (2970, [
        "melds.points", "books.clean", "books.dirty", "red_threes.laid", "going_out", "cards_left.points"])
    assert us["lines"][-1] == {"code": "cards_left.points", "label": "Cal's hand: points", "count": 1, "each": -45,
                               "points": -45, "option": "card_values", "player": "Cal"}
    game_id, _ = bench_game(client)
    explained = client.get(f"{API}/referee/games/{game_id}/deals/1/explain").get_json()
    line = explained["sides"][0]["lines"][0]
    assert (line["code"], line["points"], line["option"]) == ("melds.points", 415, "card_values")
    assert [s["total"] for s in explained["sides"]] == [2970, 1150]


def test_a_counted_game_rescored_under_another_sheet(client):
    game_id, _ = bench_game(client)
    body = client.get(f"{API}/referee/games/{game_id}/rescore?sheet=pagat").get_json()
    (deal,) = body["deals"]
    # Pagat needs 2 clean + 2 dirty + 1 wild book to go out: Us has no wild book
    assert "went_out.books" in [v["code"] for v in deal["new_violations"]]
    # a clean book at 600 instead of 500: Us 3 more × 100, Them 1 more × 100
    rescored = client.post(f"{API}/referee/rescore", json={"sheet": {"preset": "common", "clean_book_bonus": 600},
                                                            "deal": BENCH}).get_json()
    assert [(s["old"]["total"], s["new"]["total"], s["difference"]) for s in rescored["sides"]] == [
        (2970, 3270, 300), (1150, 1250, 100)]


def test_a_counted_game_exports_and_imports_as_it_is(client):
    game_id, _ = bench_game(client)
    document = client.get(f"{API}/games/{game_id}/export").get_json()
    assert document["deals"][0]["deal"]["sides"][0]["meld_points"] == 415
    imported = client.post(f"{API}/games/import", json=document)
    assert imported.status_code == 201, imported.get_data(as_text=True)
    copy_id = imported.get_json()["id"]
    assert totals(client, copy_id) == {"Us": 2970, "Them": 1150}
    again = client.get(f"{API}/games/{copy_id}/export").get_json()
    assert again["deals"][0]["deal"] == document["deals"][0]["deal"]


def test_the_csv_lists_counted_deals_totals(client):
    game_id, _ = bench_game(client)
    text = client.get(f"{API}/games/{game_id}/scores.csv").get_data(as_text=True).lstrip("\ufeff")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:5] == ["Deal", "Us points", "Us total", "Them points", "Them total"]
    assert rows[1][:5] == ["1", "2970", "2970", "1150", "1150"]


@pytest.fixture(scope="module")
def doc(module_app) -> dict[str, Any]:
    """The API's OpenAPI description."""
    return module_app.test_client().get(f"{API}/openapi.json").get_json()


def test_counted_answers_meet_the_openapi_description_which_refuses_melds_beside_books(client, doc):
    game_id, _ = bench_game(client)
    for path, url in [("/api/v1/games/{game_id}", f"/api/v1/games/{game_id}"),
                      ("/api/v1/games/{game_id}/deals/{number}", f"/api/v1/games/{game_id}/deals/1"),
                      ("/api/v1/games/{game_id}/export", f"/api/v1/games/{game_id}/export")]:
        assert_meets(doc, path, "get", client.get(url))
    deal = documented(doc, "/api/v1/games/{game_id}/deals/{number}", "get", 200)
    body = client.get(f"{API}/games/{game_id}/deals/1").get_json()
    assert deal.is_valid(body)
    both = copy.deepcopy(body)
    both["deal"]["sides"][0]["melds"] = []
    half = copy.deepcopy(body)
    del half["deal"]["sides"][0]["meld_points"]
    twice = copy.deepcopy(body)
    twice["deal"]["sides"][0]["players"][1]["cards_left"] = {}
    for wrong in (both, half, twice):
        assert not deal.is_valid(wrong)
