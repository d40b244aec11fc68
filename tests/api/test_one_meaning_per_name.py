"""One meaning per name: where a name meant two things, it now means one, the other has a
name of its own, and the old spelling is still read (requests) or still sent (answers), marked
deprecated in the description.

- a go-out question's ``permission`` is said in a deal's words (``asked-yes``, ``asked-no``,
  ``not-asked``); ``true`` and ``false`` still read as yes and no;
- ``books.special`` (and ``special_dirty``) is a count by rank, as in a deal's books; a count
  without ranks is ``special_count`` (``special_dirty_count``), and a bare number under
  ``special`` still reads as one;
- a history entry's deal number is ``number`` and its game's id ``game``, as elsewhere, with
  ``deal_number`` and ``game_id`` beside them.
"""

from __future__ import annotations

import pytest

from tests.helpers import api_game, bearer, valid_deal

API = "/api/v1"
PAGAT_OUT = {"sheet": "pagat", "deal": 1, "partners_picked_up": [True],
             "melds": ["K K K K K K K", "A A A A A A A", "Q Q Q Q Q 2 2", "J J J J J JK 2", "2 2 2 2 JK JK JK"]}


def ruling(client, body: dict) -> dict:
    answer = client.post(f"{API}/referee/go-out", json=body)
    assert answer.status_code == 200, answer.get_data(as_text=True)
    return answer.get_json()


def permission_reason(client, permission: object) -> dict:
    body = {**PAGAT_OUT} if permission is ... else {**PAGAT_OUT, "permission": permission}
    return next(r for r in ruling(client, body)["reasons"] if r["option"] == "go_out_permission")


@pytest.mark.parametrize("words, old", [("asked-yes", True), ("asked-no", False), ("not-asked", None)])
def test_a_go_out_questions_permission_in_a_deals_words_answers_as_the_old_true_or_false(client, words, old):
    said = permission_reason(client, words)
    assert said == permission_reason(client, old)
    assert said["ok"] is (words == "asked-yes")
    assert permission_reason(client, ...) == permission_reason(client, None)


def test_a_go_out_questions_permission_in_other_words_is_refused_naming_the_field(client):
    answer = client.post(f"{API}/referee/go-out", json={**PAGAT_OUT, "permission": "yes please"})
    assert answer.status_code == 400
    assert answer.get_json()["field"] == "permission"
    assert "asked-yes" in answer.get_json()["detail"]


@pytest.mark.parametrize("counted, old", [
    ({"special_count": 1}, {"special": 1}),
    ({"special_dirty_count": 1}, {"special_dirty": 1}),
])
def test_special_books_counted_without_ranks_have_a_name_of_their_own_and_the_old_spelling_still_reads(
        client, counted, old):
    sheet = {"preset": "common", "special_books": {"7": 1000},
             "books_to_go_out": {"clean": 1, "dirty": 1, "special": 1}}
    new = ruling(client, {"sheet": sheet, "books": {"clean": 1, "dirty": 1, **counted}})
    assert new == ruling(client, {"sheet": sheet, "books": {"clean": 1, "dirty": 1, **old}})
    none = ruling(client, {"sheet": sheet, "books": {"clean": 1, "dirty": 1}})
    assert new != none


def test_a_history_entry_says_number_and_game_as_everywhere_and_keeps_its_old_names(client):
    game_id, key = api_game(client)
    assert client.post(f"{API}/games/{game_id}/deals", json=valid_deal(), headers=bearer(key)).status_code == 201
    assert client.put(f"{API}/games/{game_id}/sheet", json={"sheet": {"preset": "common", "clean_book_bonus": 600},
                                                             "reason": "house rule"},
                      headers=bearer(key)).status_code == 200
    history = client.get(f"{API}/games/{game_id}/history").get_json()["history"]
    assert [(e["number"], e["deal_number"], e["game"], e["game_id"]) for e in history] == \
        [(1, 1, game_id, game_id), (None, None, game_id, game_id)]
    deal = client.get(f"{API}/games/{game_id}/deals/1").get_json()
    assert [(e["number"], e["game"]) for e in deal["history"]] == [(1, game_id)]


def test_the_description_marks_each_old_spelling_deprecated(client):
    doc = client.get(f"{API}/openapi.json").get_json()
    entry = next(s for s in doc["components"]["schemas"].values()
                 if isinstance(s, dict) and "deal_number" in s.get("properties", {}))
    assert entry["properties"]["deal_number"]["deprecated"] is True
    assert entry["properties"]["game_id"]["deprecated"] is True
    assert "deprecated" not in entry["properties"]["number"]
    go_out = doc["paths"]["/api/v1/referee/go-out"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    while "$ref" in go_out:
        go_out = doc["components"]["schemas"][go_out["$ref"].rsplit("/", 1)[-1]]
    permission = go_out["properties"]["permission"]["anyOf"]
    assert [b.get("deprecated", False) for b in permission] == [False, True, False]
    special = go_out["properties"]["books"]["properties"]["special"]["anyOf"]
    assert [b.get("deprecated", False) for b in special] == [False, True]
    assert "special_count" in go_out["properties"]["books"]["properties"]
