"""An export keeps what the table did when it entered deals part by part (issue 24): the
game's ``confirm`` setting and, on a deal's ``record`` history entry, ``entered_by`` (which
phone entered each part and which confirmed it). An import makes a game with both, so export,
import and export again give the same document; an older export without them still imports,
as ``confirm: none`` with deals sent whole. Through the API and the pages, on SQLite and on
PostgreSQL.
"""

from __future__ import annotations

import copy

import pytest

from tests.api.test_open_deals import problem_of
from tests.paper.test_entered_by_paper import confirmed_game

API = "/api/v1"
ENTERED = {"1": {"phone": "Dan's phone", "confirmed_by": "Eve's phone"},
           "2": {"phone": "Eve's phone", "confirmed_by": "Dan's phone"},
           "ending": {"phone": "Dan's phone", "confirmed_by": None}}

pytestmark = pytest.mark.backends


def exported(client, game_id: str, page: bool = False) -> dict:
    url = f"/games/{game_id}/export.json" if page else f"{API}/games/{game_id}/export"
    response = client.get(url)
    assert response.status_code == 200
    return response.get_json(force=True)


def without_time(document: dict) -> dict:
    return {k: v for k, v in document.items() if k != "exported_at"}


def test_an_export_holds_the_confirm_setting_and_who_entered_and_confirmed_each_part(client):
    game_id, _ = confirmed_game(client)
    for page in (False, True):
        document = exported(client, game_id, page)
        assert document["confirm"] == "opponents"
        assert [e["entered_by"] for e in document["deals"][0]["history"]] == [ENTERED]


def test_an_imported_game_keeps_the_confirm_setting_and_entered_by_and_exports_the_same_again(client):
    game_id, _ = confirmed_game(client)
    document = exported(client, game_id)
    made = client.post(f"{API}/games/import", json=document)
    assert made.status_code == 201, made.get_data(as_text=True)
    new_id = made.get_json()["id"]
    assert client.get(f"{API}/games/{new_id}").get_json()["confirm"] == "opponents"
    history = client.get(f"{API}/games/{new_id}/history").get_json()["history"]
    assert [(e["action"], e["entered_by"]) for e in history] == [("record", ENTERED), ("import", None)]
    assert without_time(exported(client, new_id)) == without_time(document)
    assert "Ann: entered by Dan's phone, confirmed by Eve's phone" in client.get(
        f"/games/{new_id}/history").get_data(as_text=True).replace("&#39;", "'")


def test_the_import_page_keeps_them_too(client):
    game_id, _ = confirmed_game(client)
    document = exported(client, game_id, page=True)
    response = client.post("/import", data={"document": client.get(f"/games/{game_id}/export.json").get_data(
        as_text=True)})
    assert response.status_code == 303, response.get_data(as_text=True)[:300]
    new_id = response.headers["Location"].rsplit("/games/", 1)[1]
    assert without_time(exported(client, new_id)) == without_time(document)


def test_an_older_export_without_them_imports_as_confirm_none_with_deals_sent_whole(client):
    game_id, _ = confirmed_game(client)
    older = exported(client, game_id)
    del older["confirm"]
    for entry in older["deals"][0]["history"]:
        del entry["entered_by"]
    made = client.post(f"{API}/games/import", json=older)
    assert made.status_code == 201, made.get_data(as_text=True)
    new_id = made.get_json()["id"]
    assert client.get(f"{API}/games/{new_id}").get_json()["confirm"] == "none"
    again = exported(client, new_id)
    assert again["confirm"] == "none" and again["deals"][0]["history"][0]["entered_by"] is None


@pytest.mark.parametrize("change, field", [
    (lambda d: d.update(confirm="everyone"), "confirm"),
    (lambda d: d["deals"][0]["history"][0]["entered_by"].update({"9x": {"phone": "Dan's phone"}}),
     "deals[0].history[0].entered_by.9x"),
    (lambda d: d["deals"][0]["history"][0]["entered_by"]["1"].update(phone=""),
     "deals[0].history[0].entered_by.1.phone"),
    (lambda d: d["deals"][0]["history"][0]["entered_by"]["1"].update(phone="x" * 41),
     "deals[0].history[0].entered_by.1.phone"),
    (lambda d: d["deals"][0]["history"][0]["entered_by"]["1"].update(seen=True),
     "deals[0].history[0].entered_by.1.seen"),
    (lambda d: d["deals"][0]["history"][0].update(entered_by=[]), "deals[0].history[0].entered_by"),
])
def test_an_unreadable_confirm_or_entered_by_is_refused_naming_the_field(client, change, field):
    game_id, _ = confirmed_game(client)
    document = copy.deepcopy(exported(client, game_id))
    change(document)
    problem_of(client.post(f"{API}/games/import", json=document), 400, field)


def test_entered_by_on_an_entry_that_is_not_a_record_is_refused(client):
    game_id, key = confirmed_game(client)
    corrected = exported(client, game_id)["deals"][0]["deal"]
    corrected["sides"][1]["red_threes"] = 1
    assert client.put(f"{API}/games/{game_id}/deals/1", json=corrected,
                      headers={"Authorization": f"Bearer {key}"}).status_code == 200
    document = exported(client, game_id)
    assert [e["entered_by"] for e in document["deals"][0]["history"]] == [ENTERED, None]
    document["deals"][0]["history"][1]["entered_by"] = ENTERED
    problem_of(client.post(f"{API}/games/import", json=document), 400, "deals[0].history[1].entered_by")
