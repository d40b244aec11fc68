"""One meaning per name: where a name meant two things, it now means one, the other has a
name of its own, and the old spelling is still read (requests) or still sent (answers), marked
deprecated in the description.

- a go-out question's ``permission`` is said in a deal's words (``asked-yes``, ``asked-no``,
  ``not-asked``); ``true`` and ``false`` still read as yes and no;
- ``books.special`` (and ``special_dirty``) is a count by rank, as in a deal's books; a count
  without ranks is ``special_count`` (``special_dirty_count``), and a bare number under
  ``special`` still reads as one;
- a history entry's deal number is ``number`` and its game's id ``game``, as elsewhere, with
  ``deal_number`` and ``game_id`` beside them;
- ``deal`` is a deal (an object) and a deal's number ``number``: in a deal sent (``deal``, the
  canonical form's name, still read), a referee question, and answers (a change, a running
  total, a problem: ``deal`` kept beside ``number``).
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
    # the words, true or false (deprecated), null; and a blank text, as if left out (a form's field)
    assert [b.get("deprecated", False) for b in permission] == [False, True, False, False]
    assert permission[1]["type"] == "boolean" and permission[2] == {"type": "null"}
    books = go_out["properties"]["books"]
    books = books["anyOf"][0] if "anyOf" in books else books  # the books, or a blank text (as left out)
    while "$ref" in books:
        books = doc["components"]["schemas"][books["$ref"].rsplit("/", 1)[-1]]
    special = books["properties"]["special"]["anyOf"]
    assert [b.get("deprecated", False) for b in special] == [False, True]
    assert "special_count" in books["properties"]


# -- deal: a deal; its number: number -------------------------------------------------------------


def test_a_deal_recorded_with_its_number_as_number_or_as_deal_is_the_same_deal(client):
    game_id, key = api_game(client)
    new = {k: v for k, v in valid_deal(1).items() if k != "deal"} | {"number": 1}
    saved = client.post(f"{API}/games/{game_id}/deals", json=new, headers=bearer(key))
    assert saved.status_code == 201, saved.get_data(as_text=True)
    other, other_key = api_game(client)
    old = client.post(f"{API}/games/{other}/deals", json=valid_deal(1), headers=bearer(other_key))
    assert old.get_json()["deal"] == saved.get_json()["deal"]
    assert saved.get_json()["deal"]["deal"] == 1 and "number" not in saved.get_json()["deal"], \
        "a deal document keeps one key for its number, so that it is sent back as it is"
    again = client.put(f"{API}/games/{game_id}/deals/1", json=saved.get_json()["deal"], headers=bearer(key))
    assert again.status_code == 200


def test_two_phones_recording_deal_one_one_as_number_the_other_as_deal_store_it_once(client):
    """Both spellings name the same deal: the second phone gets deal-recorded, the deal is stored once."""
    game_id, key = api_game(client)
    first = client.post(f"{API}/games/{game_id}/deals", headers=bearer(key),
                        json={k: v for k, v in valid_deal(1).items() if k != "deal"} | {"number": 1})
    second = client.post(f"{API}/games/{game_id}/deals", json=valid_deal(1), headers=bearer(key))
    assert first.status_code == 201 and second.status_code == 409
    assert second.get_json()["type"] == "/api/v1/problems/deal-recorded"
    game = client.get(f"{API}/games/{game_id}").get_json()
    assert [d["number"] for d in game["deals"]] == [1]
    history = client.get(f"{API}/games/{game_id}/history").get_json()["history"]
    assert [e["action"] for e in history].count("record") == 1


@pytest.mark.parametrize("body, field", [
    ({**valid_deal(1), "number": 2}, "number"),
    ({**valid_deal(None), "number": 1.5}, "number"),
    ({**valid_deal(None), "number": True}, "number"),
])
def test_a_deal_number_that_is_not_one_or_differs_from_its_old_spelling_is_refused_naming_number(client, body, field):
    game_id, key = api_game(client)
    answer = client.post(f"{API}/games/{game_id}/deals", json=body, headers=bearer(key))
    assert answer.status_code == 400 and answer.get_json()["field"] == field, answer.get_data(as_text=True)


def test_a_referee_questions_deal_number_is_number_and_deal_still_reads(client):
    body = {"sheet": "common", "melds": ["K K K", "Q Q Q"]}
    for number in (1, 3):
        assert ruling_of(client, "minimum", {**body, "number": number}) == ruling_of(client, "minimum",
                                                                                     {**body, "deal": number})
    assert ruling_of(client, "minimum", {**body, "number": 1}) != ruling_of(client, "minimum", {**body, "number": 3})
    score = client.post(f"{API}/score", json={"sheet": "common", **valid_deal(None), "number": 3})
    assert score.get_json() == client.post(f"{API}/score", json={"sheet": "common", **valid_deal(3)}).get_json()


def test_answers_that_name_a_deal_by_its_number_say_number_beside_deal(client):
    game_id, key = api_game(client, deals=[valid_deal(1)])
    game = client.get(f"{API}/games/{game_id}").get_json()
    assert [(r["number"], r["deal"]) for r in game["running_totals"]] == [(1, 1)]
    stale = client.delete(f"{API}/games/{game_id}/deals/1?revision=0", headers=bearer(key)).get_json()
    assert [(c["number"], c["deal"]) for c in stale["changes"]] == [(1, 1)]


def ruling_of(client, question: str, body: dict) -> dict:
    answer = client.post(f"{API}/referee/{question}", json=body)
    assert answer.status_code == 200, answer.get_data(as_text=True)
    return answer.get_json()


def test_a_recorded_games_rescore_takes_the_deals_number_as_number_or_as_deal(client):
    game_id, _ = api_game(client, deals=[valid_deal(1), valid_deal(2)])
    url = f"{API}/referee/games/{game_id}/rescore?sheet=pagat"
    new, old = client.get(f"{url}&number=2"), client.get(f"{url}&deal=2")
    assert new.status_code == old.status_code == 200, new.get_data(as_text=True)
    assert new.get_json() == old.get_json() and new.get_json()["number"] == 2
    assert client.get(f"{url}&number=x").get_json()["field"] == "number"
