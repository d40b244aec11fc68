"""What the server reads where its description says integer, and where it allows ``null``.

JSON Schema calls ``84.0`` (and ``8.4e1``) an integer, so where the schema says integer the
server reads it as ``84``; a number with a fraction (``84.5``) and ``true`` stay a 400 naming
the field. ``null`` is refused, a 400 naming the field, wherever the schema has no null
(a reader of the rules core would otherwise take it for an absent key); where the schema says
nullable (``went_out``, ``foot_played``, the go-out question's ``permission``) it still means
"not given".
"""

from __future__ import annotations

import json

import pytest

from scorepad.rules.limits import MAX_MELDS, MAX_PROBLEMS_LISTED
from tests.helpers import api_game, assert_error_shape, bearer, valid_deal

API = "/api/v1"


def record(client, body: dict):
    game_id, key = api_game(client)
    return client.post(f"{API}/games/{game_id}/deals", json=body, headers=bearer(key))


def raw_post(client, path: str, text: str, **headers: str):
    return client.post(path, data=text, content_type="application/json", headers=headers)


def counted_meld_deal(naturals: object, number: object = 1) -> dict:
    deal = valid_deal(number)
    deal["sides"][1]["melds"] = [{"rank": "J", "naturals": naturals}]
    return deal


# -- integer-valued numbers ---------------------------------------------------------------------


def test_a_deal_recorded_with_integer_valued_numbers_is_the_deal_with_integers(client):
    game_id, key = api_game(client)
    text = json.dumps({**counted_meld_deal(3), "revision": 0}).replace('"naturals": 3', '"naturals": 3.0') \
        .replace('"deal": 1', '"deal": 1.0').replace('"revision": 0', '"revision": 0e0')
    saved = raw_post(client, f"{API}/games/{game_id}/deals", text, **bearer(key))
    assert saved.status_code == 201, saved.get_data(as_text=True)
    body = saved.get_json()
    assert body["number"] == 1 and body["revision"] == 1
    meld = body["deal"]["sides"][1]["melds"][0]
    assert meld == "J J J" or (meld["naturals"] == 3 and type(meld["naturals"]) is int)
    same = record(client, counted_meld_deal(3))
    assert same.get_json()["deal"] == body["deal"]


@pytest.mark.parametrize("body, field", [
    (counted_meld_deal(3, number=1.5), "deal"),
    (counted_meld_deal(3.5), "sides[1].melds[0].naturals"),
    (counted_meld_deal(True), "sides[1].melds[0].naturals"),
    (counted_meld_deal(3, number=True), "deal"),
    ({**valid_deal(), "revision": 0.5}, "revision"),
], ids=["deal number with a fraction", "count with a fraction", "count true", "deal number true",
        "revision with a fraction"])
def test_a_number_with_a_fraction_or_a_boolean_is_still_refused_naming_the_field(client, body, field):
    assert_error_shape(record(client, body), 400, field)


def test_the_scorer_reads_an_integer_valued_deal_number_and_counts_as_integers(client):
    text = json.dumps({"sheet": "common", **counted_meld_deal(3, number=4)})
    exact = client.post(f"{API}/score", data=text, content_type="application/json")
    floats = raw_post(client, f"{API}/score", text.replace('"deal": 4', '"deal": 4.0')
                      .replace('"naturals": 3', '"naturals": 3e0'))
    assert exact.status_code == floats.status_code == 200, floats.get_data(as_text=True)
    assert floats.get_json() == exact.get_json()
    assert_error_shape(raw_post(client, f"{API}/score", text.replace('"deal": 4', '"deal": 4.5')), 400, "deal")


@pytest.mark.parametrize("question, body, field", [
    ("go-out", {"sheet": "common", "deal": 2, "books": {"clean": 1, "dirty": 1}}, "deal"),
    ("go-out", {"sheet": "common", "books": {"clean": 1, "dirty": 1}}, "books.clean"),
    ("pile", {"sheet": "common", "top_card": "K", "pair": 2, "wilds": 0, "pile_size": 10}, "pile_size"),
    ("minimum", {"sheet": "common", "deal": 3, "melds": ["K K K", "Q Q Q"]}, "deal"),
])
def test_a_referee_question_reads_an_integer_valued_number_and_refuses_a_fraction(client, question, body, field):
    exact = client.post(f"{API}/referee/{question}", json=body)
    assert exact.status_code == 200, exact.get_data(as_text=True)
    head, _, key = field.rpartition(".")
    where = body[head] if head else body
    value = where[key]

    def sent(number: float) -> str:
        where[key] = number
        try:
            return json.dumps(body)
        finally:
            where[key] = value
    assert raw_post(client, f"{API}/referee/{question}", sent(float(value))).get_json() == exact.get_json()
    assert_error_shape(raw_post(client, f"{API}/referee/{question}", sent(value + 0.5)), 400, field)


# -- null only where the schema says nullable ---------------------------------------------------


@pytest.mark.parametrize("body, field", [
    ({**valid_deal(), "permission": None}, "permission"),
    ({**valid_deal(), "last_card": None}, "last_card"),
    ({**valid_deal(), "deal": None}, "deal"),
    ({**valid_deal(), "revision": None}, "revision"),
    ({**valid_deal(), "sides": [{**valid_deal()["sides"][0], "red_threes": None}, valid_deal()["sides"][1]]},
     "sides[0].red_threes"),
    ({**valid_deal(), "sides": [{**valid_deal()["sides"][0], "melds": ["K K K K K K K", None]},
                                valid_deal()["sides"][1]]}, "sides[0].melds[1]"),
], ids=["permission", "last_card", "deal number", "revision", "red threes", "a meld"])
def test_null_where_the_schema_has_none_is_refused_naming_the_field(client, body, field):
    response = record(client, body)
    problem = assert_error_shape(response, 400, field)
    assert "null" in problem["message"]


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-32"])
def test_null_in_a_body_sent_as_utf_16_or_32_is_refused_as_in_utf_8(client, encoding):
    """A body not in UTF-8 holds its null in another form than the bytes ``null``: still refused."""
    game_id, key = api_game(client)
    body = json.dumps({**valid_deal(), "permission": None}).encode(encoding)
    answer = client.post(f"{API}/games/{game_id}/deals", data=body, content_type="application/json",
                         headers=bearer(key))
    assert_error_shape(answer, 400, "permission")
    assert client.post(f"{API}/games/{game_id}/deals", data=json.dumps(valid_deal()).encode(encoding),
                       content_type="application/json", headers=bearer(key)).status_code == 201


def test_null_where_the_schema_says_nullable_still_means_not_given(client):
    deal = valid_deal()
    deal["sides"][0]["players"][0]["foot_played"] = None
    deal["first_meld"] = None
    saved = record(client, deal)
    assert saved.status_code == 201, saved.get_data(as_text=True)
    stock_out = {**valid_deal(), "ending": "stock_out", "went_out": None}
    assert record(client, stock_out).status_code == 201
    question = {"sheet": "pagat", "deal": 1, "books": {"clean": 1, "dirty": 1}, "partners_picked_up": [True],
                "permission": None, "last_card": None, "partners_played": None}
    assert client.post(f"{API}/referee/go-out", json=question).status_code == 200


def test_an_open_deals_ending_refuses_a_null_permission(client):
    game_id, key = api_game(client)
    answer = client.put(f"{API}/games/{game_id}/deals/1/ending",
                        json={"ending": "went_out", "went_out": "Ann", "permission": None},
                        headers={**bearer(key), "Scorepad-Phone": "Dan's phone"})
    assert_error_shape(answer, 400, "permission")
    given = client.put(f"{API}/games/{game_id}/deals/1/ending",
                       json={"ending": "went_out", "went_out": "Ann", "permission": "not-asked"},
                       headers={**bearer(key), "Scorepad-Phone": "Dan's phone"})
    assert given.status_code == 200, given.get_data(as_text=True)


# -- a refused deal lists every rule it breaks ----------------------------------------------------


def test_a_refused_deal_lists_every_rule_violation_in_errors_the_one_detail_names_first(client):
    deal = valid_deal()
    deal["sides"][1]["melds"] = ["Q Q 2 2", "J J J"]
    deal["sides"][0]["red_threes"] = -1  # never as played: detail and field name it, though the report lists it later
    refused = record(client, deal)
    problem = assert_error_shape(refused, 422, "sides[0].red_threes")
    body = refused.get_json()
    assert [(e["code"], e["field"]) for e in body["errors"]] == \
        [("count.negative", "sides[0].red_threes"), ("meld.wild_ratio", "sides[1].melds[0]")]
    assert body["errors"][0]["message"] in body["detail"] and problem["field"] == body["errors"][0]["field"]
    assert sorted(e["code"] for e in body["errors"]) == sorted(p["code"] for p in body["problems"])
    assert set(body["errors"][1]) == {"code", "message", "field"}


def test_a_refused_deals_errors_are_bounded_by_the_problems_listed(client):
    deal = valid_deal()
    deal["sides"][1]["melds"] = ["Q Q 2 2"] * MAX_MELDS
    body = record(client, deal).get_json()
    assert len(body["problems"]) > MAX_PROBLEMS_LISTED
    assert len(body["errors"]) == MAX_PROBLEMS_LISTED
    assert body["errors"] == [{"code": p["code"], "message": p["message"], "field": p["where"]}
                              for p in body["problems"][:MAX_PROBLEMS_LISTED]]
