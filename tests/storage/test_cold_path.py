"""The short ways the cold path takes give what the long ways gave.

A stored meld in its canonical form is read without the general reader; an import keeps
the verdicts it found for the new game instead of judging its deals again; a JSON body is
checked level by level and walked path by path only when it is refused. Each test here
compares a short way with the long one on real input. (Timings are printed by
bench/large.py and bench/engine.py, never asserted.)
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

import pytest

from scorepad.rules import Deal, ReadError, judge
from scorepad.rules.cards import Rank
from scorepad.rules.deal import Meld
from scorepad.rules.limits import MAX_COUNT, MAX_NUMBER
from scorepad.storage import reading
from tests.helpers import api_game, bearer, violating_deal

API = "/api/v1"
COUNTS = [0, 1, 5, -1, MAX_COUNT, -MAX_COUNT, MAX_COUNT + 1, -MAX_COUNT - 1, True, False, 2.0, "3", None]
CODES = [r.value for r in Rank] + ["k", "3R", "2", "JK", "T", " Q ", "X", "", 7, None, ["K"]]


def _read(data: Any) -> Meld | str:
    """The meld read from ``data``, or the refusal as 'field: reason'."""
    try:
        return Meld.from_json(data, "sides[0].melds[3]")
    except ReadError as err:
        return f"{err.field}: {err.reason}"


@pytest.mark.parametrize("code", CODES, ids=repr)
def test_a_canonical_meld_reads_as_the_general_reader_reads_it(code):
    for key in ("naturals", "twos", "jokers"):
        for count in COUNTS:
            data = {"rank": code, key: count}
            general = _read(MappingProxyType(data))  # not a dict: always the general reader
            assert _read(data) == general, data


def test_a_canonical_meld_with_other_keys_reads_as_before():
    for data in ({"naturals": 3}, {"rank": "K", "cards": "K K K"}, {"rank": "K", "naturals": 3, "colour": "red"},
                 {"rank": "K", "naturals": 3, "cards": "K K K"}):
        assert _read(data) == _read(MappingProxyType(data)), data


def test_a_deal_read_twice_is_the_same_deal_and_the_same_verdict():
    body = {"sheet": "common", **violating_deal(3, 2)}
    first, again = Deal.from_json(body), Deal.from_json(body)
    assert first == again and judge(first) == judge(again)
    assert judge(first).report.violations  # hundreds: the deal the cold path is measured on


def test_an_imported_game_holds_the_verdicts_a_fresh_read_finds(client):
    game_id, key = api_game(client, "Judged once", "common",
                            [{"name": f"Side {i + 1}", "players": [f"Player {i + 1}"]} for i in range(2)])
    for number in (1, 2, 3):
        response = client.post(f"{API}/games/{game_id}/deals", headers=bearer(key),
                               json={**violating_deal(number, 2, 12), "as_played": {"reason": "it stood"}})
        assert response.status_code == 201, response.get_json()
    document = client.get(f"{API}/games/{game_id}/export").get_json()
    response = client.post(f"{API}/games/import", json=document)
    assert response.status_code == 201, response.get_json()
    new_id = response.get_json()["id"]
    with client.application.test_request_context():
        imported = reading.load_game(new_id)  # as the import left it in the cache
        verdicts = [d.verdict.to_json() for d in imported.deals]
        assert verdicts == [judge(d.deal).to_json() for d in imported.deals]
        assert [d.verdict.to_json() for d in reading.load_game(game_id).deals] == verdicts
    assert client.get(f"{API}/games/{new_id}").get_json()["standings"] == \
        client.get(f"{API}/games/{game_id}").get_json()["standings"]


@pytest.mark.parametrize("value, field", [
    ({"deals": [{"deal": {"sides": [{"melds": [{"naturals": MAX_NUMBER + 1}]}]}}]},
     "deals[0].deal.sides[0].melds[0].naturals"),
    ({"deals": [1, 2, [3, -MAX_NUMBER - 1]]}, "deals[2][1]"),
    ({"x": float("inf")}, "x"),
])
def test_a_number_out_of_range_deep_in_a_body_is_named_by_its_path(client, value, field):
    response = client.post(f"{API}/games/import", json=value)
    assert response.status_code == 400
    assert response.get_json()["error"]["field"] == field


def test_a_body_nested_too_deep_is_refused(client):
    value: Any = 1
    for _ in range(30):
        value = [value]
    response = client.post(f"{API}/games/import", json={"deals": value})
    assert response.status_code == 400 and "nested" in response.get_json()["error"]["message"]
