"""A deal entered part by part through the API (issue 24): ``PUT .../deals/<n>/parts/<side>``,
``PUT .../deals/<n>/ending``, ``POST .../parts/<side>/confirmation``, ``GET`` and ``DELETE``
``.../deals/<n>/open``. Each write needs the edit key and a ``Scorepad-Phone``; the one that
completes a clean deal answers 201 with its Location; a whole deal for an open number is a 409
``deal-open``; a part another phone entered is replaced only with ``If-Match: "part-<version>"``
(409 ``part-entered``); a confirmation by the part's own side or phone is a 409
``confirmation-refused``; a part for a deal that is not the next is a 409 ``not-next-deal``.

``valid_deal`` scores Ann 1,060 and Bea 5.
"""

from __future__ import annotations

import pytest

from tests.api.test_openapi import assert_meets
from tests.helpers import api_game, assert_error_shape, bearer, valid_deal

API = "/api/v1"
DAN, EVE = {"Scorepad-Phone": "Dan's phone"}, {"Scorepad-Phone": "Eve's phone"}
ANN, BEA = valid_deal()["sides"]
ANN_OUT = {"ending": "went_out", "went_out": "Ann"}


def problem_of(response, status: int, field: str | None) -> dict:
    assert_error_shape(response, status, field)
    return response.get_json(force=True)


def put(client, game_id: str, key: str, part: int | str, body: dict, phone: dict, number: int = 1, **headers: str):
    where = "ending" if part == "ending" else f"parts/{part}"
    return client.put(f"{API}/games/{game_id}/deals/{number}/{where}", json=body,
                      headers={**bearer(key), **phone, **headers})


def confirm(client, game_id: str, key: str, side: int, by_side: int, version: int, phone: dict):
    return client.post(f"{API}/games/{game_id}/deals/1/parts/{side}/confirmation",
                       json={"by_side": by_side, "version": version}, headers={**bearer(key), **phone})


@pytest.mark.backends
def test_parts_answer_the_open_deal_and_the_last_answers_201_with_the_deals_location(client):
    game_id, key = api_game(client)
    first = put(client, game_id, key, 1, ANN, DAN)
    assert first.status_code == 200, first.get_data(as_text=True)
    body = first.get_json()
    assert (body["number"], body["missing"], body["complete"], body["confirm"]) == (1, ["2", "ending"], False, "none")
    assert body["parts"][0] | {"body": None, "at": None} == {
        "part": "1", "side": 1, "name": "Ann", "body": None, "entered_by": "Dan's phone", "at": None, "version": 1,
        "if_match": '"part-1"', "confirmed_by": None, "confirmed_at": None}
    assert put(client, game_id, key, "ending", ANN_OUT, DAN).status_code == 200
    revision = client.get(f"{API}/games/{game_id}/revision").get_json()
    assert (revision["revision"], revision["open"]) == (0, 2)
    last = put(client, game_id, key, 2, {k: v for k, v in BEA.items() if k != "name"}, EVE)
    assert last.status_code == 201 and last.headers["Location"] == f"http://localhost/api/v1/games/{game_id}/deals/1"
    assert last.get_json()["number"] == 1 and last.get_json()["revision"] == 1
    game = client.get(f"{API}/games/{game_id}").get_json()
    assert game["running_totals"] == [{"number": 1, "deal": 1, "totals": {"Ann": 1060, "Bea": 5}}]
    history = client.get(f"{API}/games/{game_id}/history").get_json()["history"]
    assert history[0]["entered_by"]["2"] == {"phone": "Eve's phone", "confirmed_by": None}
    assert client.get(f"{API}/games/{game_id}/deals/2/open").get_json()["parts"] == []


def test_a_complete_deal_with_problems_answers_200_with_them_and_writes_nothing(client):
    game_id, key = api_game(client)
    put(client, game_id, key, 1, {"melds": ["J J J"], "players": [{"name": "Ann", "foot_picked_up": True}]}, DAN)
    put(client, game_id, key, 2, BEA, EVE)
    answer = put(client, game_id, key, "ending", ANN_OUT, EVE)
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["complete"] and body["problems"] and body["may_save_as_played"] is True
    assert {p["side"] for p in body["problems"]} == {"Ann"}  # each phone sees its own side's problems
    assert client.get(f"{API}/games/{game_id}/revision").get_json()["revision"] == 0
    as_played = put(client, game_id, key, "ending", {**ANN_OUT, "as_played": {"reason": "let it stand"}}, EVE)
    assert as_played.status_code == 201 and as_played.get_json()["as_played"] == "let it stand"


def test_a_whole_deal_sent_for_an_open_deal_is_409_deal_open(client):
    game_id, key = api_game(client)
    put(client, game_id, key, 1, ANN, DAN)
    refused = client.post(f"{API}/games/{game_id}/deals", json=valid_deal(1), headers=bearer(key))
    problem = problem_of(refused, 409, "deal")
    assert problem["type"] == "/api/v1/problems/deal-open" and (problem["deal"], problem["parts"]) == (1, 1)
    assert client.delete(f"{API}/games/{game_id}/deals/1/open", headers=bearer(key)).get_json() == {
        "number": 1, "abandoned": 1}
    assert client.post(f"{API}/games/{game_id}/deals", json=valid_deal(1), headers=bearer(key)).status_code == 201


def test_another_phones_part_is_409_part_entered_unless_if_match_names_its_version(client):
    game_id, key = api_game(client)
    put(client, game_id, key, 1, ANN, DAN)
    refused = put(client, game_id, key, 1, {**ANN, "red_threes": 1}, EVE)
    problem = problem_of(refused, 409, "If-Match")
    assert problem["type"] == "/api/v1/problems/part-entered" and problem["part"]["entered_by"] == "Dan's phone"
    assert problem["part"]["body"]["red_threes"] == 0  # the later phone sees the earlier's numbers
    replaced = put(client, game_id, key, 1, {**ANN, "red_threes": 1}, EVE, **{"If-Match": '"part-1"'})
    assert replaced.status_code == 200 and replaced.get_json()["parts"][0]["version"] == 2
    bad = put(client, game_id, key, 1, ANN, EVE, **{"If-Match": "2"})
    problem_of(bad, 400, "If-Match")


def test_confirmation_by_the_parts_own_phone_or_side_is_refused_and_by_another_sides_completes_it(client):
    made = client.post(f"{API}/games", json={"name": "Porch", "sheet": "common", "confirm": "opponents",
                                            "sides": [{"name": "Ann", "players": ["Ann"]},
                                                      {"name": "Bea", "players": ["Bea"]}]})
    game_id, key = made.get_json()["id"], made.get_json()["edit_key"]
    assert client.get(f"{API}/games/{game_id}").get_json()["confirm"] == "opponents"
    put(client, game_id, key, 1, ANN, DAN)
    put(client, game_id, key, 2, BEA, EVE)
    waiting = put(client, game_id, key, "ending", ANN_OUT, DAN).get_json()
    assert (waiting["complete"], waiting["unconfirmed"]) == (False, ["1", "2"])
    for refused, field in ((confirm(client, game_id, key, 1, 2, 1, DAN), "phone"),
                           (confirm(client, game_id, key, 1, 1, 1, EVE), "side"),
                           (confirm(client, game_id, key, 1, 2, 9, EVE), "version")):
        assert problem_of(refused, 409, field)["type"] == "/api/v1/problems/confirmation-refused"
    assert confirm(client, game_id, key, 1, 2, 1, EVE).get_json()["unconfirmed"] == ["2"]
    done = confirm(client, game_id, key, 2, 1, 1, DAN)
    assert done.status_code == 201 and done.headers["Location"].endswith("/deals/1")


def test_parts_with_an_idempotency_key_are_replayed_not_saved_again(client):
    game_id, key = api_game(client)
    first = put(client, game_id, key, 1, ANN, DAN, **{"Idempotency-Key": "p-1"})
    again = put(client, game_id, key, 1, ANN, DAN, **{"Idempotency-Key": "p-1"})
    assert (first.status_code, again.status_code, again.headers.get("Idempotent-Replayed")) == (200, 200, "true")
    assert client.get(f"{API}/games/{game_id}/revision").get_json()["open"] == 1
    put(client, game_id, key, "ending", ANN_OUT, DAN)
    last = put(client, game_id, key, 2, BEA, EVE, **{"Idempotency-Key": "p-2"})
    replay = put(client, game_id, key, 2, BEA, EVE, **{"Idempotency-Key": "p-2"})
    assert (last.status_code, replay.status_code) == (201, 201)
    assert replay.headers["Location"] == last.headers["Location"] and replay.get_json() == last.get_json()


def test_a_part_for_a_deal_not_the_next_is_409_not_next_deal(client):
    game_id, key = api_game(client, deals=[valid_deal(1)])
    recorded = problem_of(put(client, game_id, key, 1, ANN, DAN, number=1), 409, "deal")
    assert recorded["type"] == "/api/v1/problems/not-next-deal"
    assert (recorded["recorded"], recorded["next"]) == (True, 2)
    further = problem_of(put(client, game_id, key, 1, ANN, DAN, number=5), 409, "deal")
    assert (further["recorded"], further["next"]) == (False, 2)


@pytest.mark.parametrize(("part", "body", "headers", "field"), [
    (3, ANN, DAN, "side"),
    (1, ANN, {}, "Scorepad-Phone"),
    (1, ANN, {"Scorepad-Phone": "x" * 41}, "Scorepad-Phone"),
    (1, {**ANN, "name": "Bea"}, DAN, "name"),
    (1, {**ANN, "melds": "K K K"}, DAN, "melds"),
    (1, {**ANN, "ending": "went_out"}, DAN, "ending"),
    ("ending", {"ending": "sideways"}, DAN, "ending"),
    ("ending", {**ANN_OUT, "as_played": "because"}, DAN, "as_played"),
    ("ending", {**ANN_OUT, "repeat": "yes"}, DAN, "repeat"),
])
def test_a_part_that_cannot_be_read_is_400_naming_the_field(client, part, body, headers, field):
    game_id, key = api_game(client)
    response = put(client, game_id, key, part, body, headers)
    assert_error_shape(response, 400, field)
    assert client.get(f"{API}/games/{game_id}/revision").get_json()["open"] == 0


def test_parts_need_the_edit_key_and_the_open_deal_is_read_with_the_view_link(client):
    game_id, key = api_game(client)
    response = client.put(f"{API}/games/{game_id}/deals/1/parts/1", json=ANN, headers=DAN)
    assert response.status_code == 401
    opened = client.get(f"{API}/games/{game_id}/deals/1/open")
    assert opened.status_code == 200 and opened.headers["Cache-Control"] == "no-store"
    assert client.post(f"{API}/games", json={"name": "x", "sheet": "common", "sides": [
        {"name": "Ann", "players": ["Ann"]}, {"name": "Bea", "players": ["Bea"]}], "confirm": "all"}).status_code == 400


def test_the_open_deal_answers_meet_their_documented_schemas(client):
    doc = client.get(f"{API}/openapi.json").get_json()
    game_id, key = api_game(client)
    parts = "/api/v1/games/{game_id}/deals/{number}/parts/{side}"
    assert_meets(doc, parts, "put", put(client, game_id, key, 1, ANN, DAN))
    assert_meets(doc, "/api/v1/games/{game_id}/deals/{number}/ending", "put",
                 put(client, game_id, key, "ending", ANN_OUT, DAN))
    assert_meets(doc, "/api/v1/games/{game_id}/deals/{number}/open", "get",
                 client.get(f"{API}/games/{game_id}/deals/1/open"))
    assert_meets(doc, "/api/v1/games/{game_id}/revision", "get", client.get(f"{API}/games/{game_id}/revision"))
    done = put(client, game_id, key, 2, BEA, EVE)
    assert done.status_code == 201
    assert_meets(doc, parts, "put", done)
    assert_meets(doc, "/api/v1/games/{game_id}/history", "get", client.get(f"{API}/games/{game_id}/history"))
    put(client, game_id, key, 1, {"melds": ["J J J"], "players": [{"name": "Ann", "foot_picked_up": True}]}, DAN,
        number=2)
    put(client, game_id, key, 2, BEA, EVE, number=2)
    problems = put(client, game_id, key, "ending", ANN_OUT, EVE, number=2)
    assert problems.get_json()["problems"]
    assert_meets(doc, parts, "put", problems)
    assert_meets(doc, "/api/v1/games/{game_id}/deals/{number}/open", "delete",
                 client.delete(f"{API}/games/{game_id}/deals/2/open", headers=bearer(key)))


@pytest.mark.parametrize("sent", ["Zo%C3%AB's phone", "Zoë's phone".encode().decode("latin-1")])
def test_a_phone_label_beyond_ascii_arrives_as_typed_percent_encoded_or_as_utf8(client, sent):
    game_id, key = api_game(client)
    answer = put(client, game_id, key, 1, ANN, {"Scorepad-Phone": sent})
    assert answer.status_code == 200, answer.get_data(as_text=True)
    assert answer.get_json()["parts"][0]["entered_by"] == "Zoë's phone"


def test_a_phone_label_percent_encoded_but_not_utf8_is_a_400_naming_the_header(client):
    game_id, key = api_game(client)
    problem_of(put(client, game_id, key, 1, ANN, {"Scorepad-Phone": "Zo%E9"}), 400, "Scorepad-Phone")
