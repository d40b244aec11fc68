"""Export, import, the score table as CSV, and `flask backup`: each test on its own SQLite file
(the refused imports of one exported game share one, and each checks that it saved nothing)."""

from __future__ import annotations

import copy
import csv
import io
import json
import os
import re
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from scorepad.storage import backup, reading
from scorepad.storage.errors import Full
from tests import json_writes as writing
from tests.helpers import api_game, assert_error_shape, bearer, db_state

pytestmark = pytest.mark.backends  # each test on a database of its own: on SQLite and on PostgreSQL

ROOT = Path(__file__).resolve().parents[2]
API = "/api/v1"
TWO = [{"name": "Ann", "players": ["Ann"]}, {"name": "Bea", "players": ["Bea"]}]


# -- helpers -------------------------------------------------------------------------------------


def deal(ann=("K K K",), bea=("Q Q Q",), ann_left="", bea_left="", went_out=None, names=("Ann", "Bea")) -> dict:
    body = {"ending": "went_out" if went_out else "stock_out",
            "sides": [{"name": names[0], "melds": list(ann),
                       "players": [{"name": names[0], "foot_picked_up": True, "cards_left": ann_left}]},
                      {"name": names[1], "melds": list(bea),
                       "players": [{"name": names[1], "foot_picked_up": True, "cards_left": bea_left}]}]}
    if went_out:
        body["went_out"] = went_out
    return body


BAD = deal(bea=("Q Q 2 2",))  # common: a meld needs more naturals than wilds


def post_deal(client, game_id, key, body, reason=None, expect=201):
    if reason:
        body = {**body, "as_played": {"reason": reason}}
    response = client.post(f"{API}/games/{game_id}/deals", json=body, headers=bearer(key))
    assert response.status_code == expect, response.get_json()
    return response.get_json()


def full_game(client) -> tuple[str, str]:
    """A game with every kind of history: deals recorded, one saved as played, one corrected,
    one deleted and never recorded again, and a sheet amendment between them."""
    game_id, key = api_game(client, name="Zoë's \"big\" night")
    post_deal(client, game_id, key, deal(ann=("K K K K K K K", "Q Q Q Q Q 2 2"), bea=("J J J",), bea_left="A 3B",
                                         went_out="Ann"))
    post_deal(client, game_id, key, BAD, reason="We let the Q Q 2 2 stand")
    post_deal(client, game_id, key, deal(ann=("8 8 8",), bea=("9 9 9 9",)))
    response = client.put(f"{API}/games/{game_id}/deals/1", headers=bearer(key),
                          json={**deal(ann=("K K K K K K K", "Q Q Q Q Q 2 2"), bea=("J J J",), bea_left="A",
                                       went_out="Ann"), "deal": 1})
    assert response.status_code == 200, response.get_json()
    response = client.put(f"{API}/games/{game_id}/sheet", headers=bearer(key),
                          json={"sheet": {"preset": "common", "clean_book_bonus": 600}, "reason": "house rule"})
    assert response.status_code == 200, response.get_json()
    assert client.delete(f"{API}/games/{game_id}/deals/3", headers=bearer(key)).status_code == 200
    return game_id, key


def export(client, game_id: str) -> dict:
    response = client.get(f"{API}/games/{game_id}/export")
    assert response.status_code == 200, response.get_data(as_text=True)
    return json.loads(response.get_data(as_text=True))


def import_(client, document: Any, expect: int = 201) -> dict:
    response = client.post(f"{API}/games/import", json=document)
    assert response.status_code == expect, response.get_data(as_text=True)
    return response.get_json()


def assert_error(response, status: int, field: str | None) -> dict:
    assert response.status_code == status, response.get_data(as_text=True)
    assert_error_shape(response, status, field)
    return response.get_json()


def text(response) -> str:
    return response.get_data(as_text=True)


# -- export ---------------------------------------------------------------------------------------


def test_export_is_the_versioned_document_with_every_deal_its_history_and_the_amendments(client, app):
    game_id, key = full_game(client)
    response = client.get(f"{API}/games/{game_id}/export")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    disposition = response.headers["Content-Disposition"]
    assert disposition.startswith("attachment; ")
    assert 'filename="Zoe\'s big night - scorepad.json"' in disposition
    assert "filename*=UTF-8''Zo%C3%AB%27s%20big%20night%20-%20scorepad.json" in disposition
    doc = json.loads(text(response))
    assert list(doc) == ["format", "version", "name", "sheet", "confirm", "sides", "created_at", "exported_at", "deals",
                         "deleted_deals", "amendments"]
    assert doc["format"] == "scorepad.game" and doc["version"] == 1
    assert doc["name"] == 'Zoë\'s "big" night'
    assert doc["sheet"] == {"preset": "common", "preset_version": 1, "clean_book_bonus": 600}
    assert doc["sides"] == TWO
    game = client.get(f"{API}/games/{game_id}").get_json()
    assert doc["created_at"] == game["created_at"]
    assert [d["number"] for d in doc["deals"]] == [1, 2]
    for exported, live in zip(doc["deals"], game["deals"], strict=True):
        assert set(exported) == {"number", "deal", "as_played", "history"}
        assert exported["deal"] == live["deal"] and "sheet" not in exported["deal"]
        assert exported["as_played"] == live["as_played"]
    assert doc["deals"][1]["as_played"] == "We let the Q Q 2 2 stand"
    # seq is each entry's place in the whole history: record 1, 2, 3, edit 1, amend, delete 3
    assert [(e["seq"], e["action"]) for e in doc["deals"][0]["history"]] == [(1, "record"), (4, "edit")]
    assert [(e["seq"], e["action"]) for e in doc["deals"][1]["history"]] == [(2, "record")]
    assert doc["deals"][1]["history"][0]["reason"] == "We let the Q Q 2 2 stand"
    assert [(d["number"], [(e["seq"], e["action"]) for e in d["history"]]) for d in doc["deleted_deals"]] == \
        [(3, [(3, "record"), (6, "delete")])]
    assert doc["amendments"] == [{"seq": 5, "at": doc["amendments"][0]["at"],
                                  "before": {"preset": "common", "preset_version": 1},
                                  "after": {"preset": "common", "preset_version": 1, "clean_book_bonus": 600},
                                  "reason": "house rule"}]
    history = client.get(f"{API}/games/{game_id}/history").get_json()["history"]
    edit = doc["deals"][0]["history"][1]
    assert set(edit) == {"seq", "action", "at", "before", "after", "old_totals", "new_totals", "reason", "entered_by"}
    assert edit["entered_by"] is None  # a correction sent whole
    assert {k: edit[k] for k in ("at", "before", "after", "old_totals", "new_totals")} == \
        {k: history[3][k] for k in ("at", "before", "after", "old_totals", "new_totals")}
    assert key not in text(response) and "edit_key" not in text(response) and game_id not in text(response)


def test_a_viewer_may_export_without_the_key_from_the_api_and_the_game_page(client, app):
    game_id, key = full_game(client)
    viewer = app.test_client()
    response = viewer.get(f"{API}/games/{game_id}/export")
    assert response.status_code == 200 and key not in text(response)
    page = viewer.get(f"/games/{game_id}/export.json")
    assert page.status_code == 200 and page.headers["Content-Disposition"].startswith("attachment; ")
    first, second = json.loads(text(response)), json.loads(text(page))
    first.pop("exported_at"), second.pop("exported_at")
    assert first == second


def test_exporting_an_unknown_game_is_a_404(client):
    assert_error(client.get(f"{API}/games/nope/export"), 404, None)
    assert client.get("/games/nope/export.json").status_code == 404
    assert "<main" in text(client.get("/games/nope/export.json"))


# -- export, import, export ---------------------------------------------------------------------------


def test_export_import_export_gives_the_same_document_but_for_exported_at(client):
    game_id, _ = full_game(client)
    first = export(client, game_id)
    time.sleep(1.1)  # so any timestamp taken afresh would differ
    created = import_(client, first)
    second = export(client, created["id"])
    assert {k for k in first if first[k] != second[k]} == {"exported_at"}
    assert second["exported_at"] > first["exported_at"]
    assert set(first) == set(second)
    # and once more, from the copy of the copy
    third = export(client, import_(client, second)["id"])
    assert {k for k in first if first[k] != third[k]} == {"exported_at"}


def test_import_makes_a_new_game_with_new_links_and_the_same_deals_scores_and_history(client, app):
    game_id, key = full_game(client)
    created = import_(client, export(client, game_id))
    new_id, new_key = created["id"], created["edit_key"]
    assert new_id != game_id and new_key != key
    assert set(created) == {"id", "view_url", "edit_url", "edit_key", "revision", "api_url"}
    assert created["view_url"].endswith(f"/games/{new_id}")
    assert created["edit_url"].endswith(f"/games/{new_id}/edit/{new_key}")
    old, new = (client.get(f"{API}/games/{g}").get_json() for g in (game_id, new_id))
    for field in ("name", "sheet", "sides", "created_at", "deals", "running_totals", "standings", "over", "winner",
                  "tie", "problems", "next_deal", "sheet_changes"):
        assert new[field] == old[field], field
    old_history, new_history = (client.get(f"{API}/games/{g}/history").get_json()["history"] for g in (game_id, new_id))
    keep = ("deal_number", "action", "at", "before", "after", "old_totals", "new_totals", "reason")
    assert [{k: e[k] for k in keep} for e in new_history[:-1]] == [{k: e[k] for k in keep} for e in old_history]
    last = new_history[-1]
    assert last["action"] == "import" and last["deal_number"] is None and last["reason"].startswith("Imported")
    assert new["revision"] == created["revision"] == len(new_history)  # each entry one revision, as a write
    # the new key writes to the new game only
    post_deal(client, new_id, new_key, deal(ann=("7 7 7",)))
    assert client.post(f"{API}/games/{game_id}/deals", json=deal(), headers=bearer(new_key)).status_code == 403
    assert len(client.get(f"{API}/games/{game_id}").get_json()["deals"]) == 2


def test_the_imported_history_shows_on_the_history_page(client):
    game_id, _ = full_game(client)
    new_id = import_(client, export(client, game_id))["id"]
    page = text(client.get(f"/games/{new_id}/history"))
    for words in ("Recorded deal 1", "Corrected deal 1", "Sheet amended", "Deleted deal 3", "Imported",
                  "house rule", "We let the Q Q 2 2 stand"):
        assert words in page, words


def test_a_hand_written_document_without_history_imports(client):
    document = {"format": "scorepad.game", "version": 1, "name": "From paper", "sheet": "pagat",
                "sides": [{"name": "NS", "players": ["Ann", "Cal"]}, {"name": "EW", "players": ["Bea", "Dan"]}],
                "deals": [{"number": 1, "deal": {
                    "ending": "stock_out",
                    "sides": [{"name": "NS", "melds": ["K K K"], "players": [
                        {"name": "Ann", "foot_picked_up": True}, {"name": "Cal", "foot_picked_up": True}]},
                              {"name": "EW", "melds": ["Q Q Q"], "players": [
                        {"name": "Bea", "foot_picked_up": True}, {"name": "Dan", "foot_picked_up": True}]}]}}]}
    created = import_(client, document)
    game = client.get(f"{API}/games/{created['id']}").get_json()
    assert game["sheet"] == {"preset": "pagat", "preset_version": 2} and [d["number"] for d in game["deals"]] == [1]
    assert game["standings"] == [{"name": "NS", "total": 30}, {"name": "EW", "total": 30}]
    history = client.get(f"{API}/games/{created['id']}/history").get_json()["history"]
    assert [e["action"] for e in history] == ["import"]
    assert history[0]["reason"] == "Imported from a scorepad export"


# -- import: refusals --------------------------------------------------------------------------------


@pytest.mark.parametrize("change, field", [
    ({"format": None}, "format"),
    ({"format": "scorepad.sheet"}, "format"),
    ({"format": ["scorepad.game"]}, "format"),
    ({"version": 2}, "version"),
    ({"version": "1"}, "version"),
    ({"version": True}, "version"),
    ({"version": 1.5}, "version"),
    ({"version": 2, "new_in_version_2": []}, "version"),  # a newer document is named as such
    ({"sides_": []}, "sides_"),
])
def test_a_wrong_format_or_version_is_a_400_naming_the_field(client, app, change, field):
    game_id, _ = full_game(client)
    document = export(client, game_id)
    document.update(change)
    if change.get("format", "") is None:
        del document["format"]
    before = db_state(app)
    assert_error(client.post(f"{API}/games/import", json=document), 400, field)
    assert db_state(app) == before


@pytest.fixture(scope="module")
def exported(module_app) -> tuple[Any, dict]:
    """The export of a full_game, made once for the imports that must save nothing: (app, document)."""
    client = module_app.test_client()
    return module_app, export(client, full_game(client)[0])


def _set(doc: dict, path: str, value: Any) -> None:
    """Set (or, for the value DELETE, remove) the item at a dotted path like deals[0].deal.ending."""
    parts = re.findall(r"[^.\[\]]+|\[\d+\]", path)
    target: Any = doc
    for part in parts[:-1]:
        target = target[int(part[1:-1])] if part.startswith("[") else target[part]
    last = parts[-1]
    key: Any = int(last[1:-1]) if last.startswith("[") else last
    if value is DELETE:
        del target[key]
    else:
        target[key] = value


DELETE = object()


@pytest.mark.parametrize("path, value, field", [
    ("name", "x" * 41, "name"),
    ("name", "  ", "name"),
    ("sheet", {"preset": "common", "book_size": 2}, "sheet.book_size"),
    ("sheet", "house", "sheet"),
    ("sheet", DELETE, "sheet"),
    ("sides", [{"name": "Ann", "players": ["Ann"]}], "sides"),
    ("sides", [{"name": "Ann", "players": ["Ann"]}, {"name": "ann", "players": ["Bea"]}], "sides[1].name"),
    ("created_at", "yesterday", "created_at"),
    ("exported_at", 12, "exported_at"),
    ("deals", {"1": {}}, "deals"),
    ("deals[0]", [], "deals[0]"),
    ("deals[0].number", "1", "deals[0].number"),
    ("deals[0].number", 0, "deals[0].number"),
    ("deals[0].number", DELETE, "deals[0].number"),
    ("deals[1].number", 1, "deals[1].number"),
    ("deals[0].deal", DELETE, "deals[0].deal"),
    ("deals[0].deal.deal", 2, "deals[0].deal.deal"),
    ("deals[0].deal.sheet", "common", "deals[0].deal.sheet"),
    ("deals[0].deal.ending", "fold", "deals[0].deal.ending"),
    ("deals[0].deal.sides[0].melds[0]", {"rank": "K", "naturals": "7"}, "deals[0].deal.sides[0].melds[0].naturals"),
    ("deals[0].deal.sides[1].players[0].cards_left", "Z", "deals[0].deal.sides[1].players[0].cards_left"),
    ("deals[0].extra", 1, "deals[0].extra"),
    ("deals[1].as_played", "", "deals[1].as_played"),
    ("deals[1].as_played", "x" * 201, "deals[1].as_played"),
    ("deals[1].as_played", {"reason": "ok"}, "deals[1].as_played"),
    ("deals[0].history", "none", "deals[0].history"),
    ("deals[0].history[0].action", "shuffle", "deals[0].history[0].action"),
    ("deals[0].history[0].at", "", "deals[0].history[0].at"),
    ("deals[0].history[0].before", {"ending": "stock_out", "sides": []}, "deals[0].history[0].before"),
    ("deals[0].history[0].after", None, "deals[0].history[0].after"),
    ("deals[0].history[0].after", {"ending": "x"}, "deals[0].history[0].after.ending"),
    ("deals[0].history[1].before", None, "deals[0].history[1].before"),
    ("deals[0].history[1].new_totals", {"Ann": "lots"}, "deals[0].history[1].new_totals.Ann"),
    ("deals[0].history[1].new_totals", [1, 2], "deals[0].history[1].new_totals"),
    ("deals[0].history[1].seq", 2, "deals[1].history[0].seq"),  # the later of the two is named
    ("deals[0].history[1].seq", DELETE, "deals[0].history[1].seq"),
    ("deals[0].history[1].reason", 5, "deals[0].history[1].reason"),
    ("deleted_deals[0].number", 2, "deleted_deals[0].number"),
    ("deleted_deals[0].history[1].after", {"deal": 3}, "deleted_deals[0].history[1].after"),
    ("amendments[0].reason", None, "amendments[0].reason"),
    ("amendments[0].after", {"preset": "common", "wild_ratio": "often"}, "amendments[0].after.wild_ratio"),
    ("amendments[0].action", "amend", "amendments[0].action"),
])
def test_each_unreadable_part_is_a_400_naming_its_field_and_saves_nothing(exported, path, value, field):
    app, document = exported
    document = copy.deepcopy(document)
    _set(document, path, value)
    before = db_state(app)
    assert_error(app.test_client().post(f"{API}/games/import", json=document), 400, field)
    assert db_state(app) == before


def test_a_body_that_is_not_a_json_object_is_a_400(client):
    assert_error(client.post(f"{API}/games/import", data="{", content_type="application/json"), 400, None)
    assert_error(client.post(f"{API}/games/import", json=[1, 2]), 400, None)
    assert_error(client.post(f"{API}/games/import", data="{}", content_type="text/plain"), 400, None)
    assert_error(client.post(f"{API}/games/import", json={}), 400, "format")


def test_a_deal_with_violations_and_no_as_played_reason_is_refused_422_naming_the_deal(client, app):
    game_id, _ = full_game(client)
    document = export(client, game_id)
    document["deals"][1]["as_played"] = None
    before = db_state(app)
    body = assert_error(client.post(f"{API}/games/import", json=document), 422, "deals[1]")
    assert body["error"]["message"].startswith("deal 2 breaks the rules in 1 place and has no as_played reason")
    assert body["deal"] == 2
    assert [p["code"] for p in body["problems"]] == ["meld.wild_ratio"]
    assert db_state(app) == before


def test_a_deal_from_another_table_is_refused_even_with_a_reason(client, app):
    game_id, _ = full_game(client)
    document = export(client, game_id)
    document["deals"][1]["deal"]["sides"][1]["players"][0]["name"] = "Eve"
    body = assert_error(client.post(f"{API}/games/import", json=document), 422, "deals[1]")
    assert body["error"]["message"].startswith("deal 2 does not fit this game")
    assert "game.players" in [p["code"] for p in body["problems"]]


def test_a_deal_a_later_amendment_made_illegal_imports_as_it_stands(client):
    game_id, key = api_game(client)
    post_deal(client, game_id, key, deal(ann=("K K K",), bea=("Q Q Q 2 2",)))  # 3 naturals > 2 wilds
    response = client.put(f"{API}/games/{game_id}/sheet", headers=bearer(key),
                          json={"sheet": {"preset": "common", "wild_ratio": "twice"}, "reason": "stricter"})
    assert response.status_code == 200 and response.get_json()["deals"][0]["report"]["ok"] is False
    document = export(client, game_id)
    assert document["deals"][0]["as_played"] is None
    created = import_(client, document)
    new = client.get(f"{API}/games/{created['id']}").get_json()
    assert new["deals"][0]["report"]["ok"] is False and new["deals"][0]["as_played"] is None
    # without the amendment, nothing says the deal was ever legal
    document["amendments"] = []
    document["sheet"] = {"preset": "common", "wild_ratio": "twice"}
    assert_error(client.post(f"{API}/games/import", json=document), 422, "deals[0]")


FUZZ_VALUES = [None, 0, -1, 1.5, True, "", "x", [], [None], [1], {}, {"x": 1}, [{}], [{"number": 1}], [[]]]
FUZZ_PATHS = ["name", "sheet", "sides", "created_at", "exported_at", "deals", "deleted_deals", "amendments",
              "deals[0]", "deals[0].number", "deals[0].deal", "deals[0].deal.sides", "deals[0].as_played",
              "deals[0].history", "deals[0].history[0]", "deals[0].history[1].before", "deals[0].history[1].at",
              "deals[0].history[1].old_totals", "deleted_deals[0]", "deleted_deals[0].history", "amendments[0]",
              "amendments[0].before", "amendments[0].seq"]


def test_no_import_is_ever_a_500(client):
    game_id, _ = full_game(client)
    exported = export(client, game_id)
    for path in FUZZ_PATHS:
        for value in FUZZ_VALUES:
            document = copy.deepcopy(exported)
            _set(document, path, value)
            response = client.post(f"{API}/games/import", json=document)
            assert response.status_code in (201, 400, 422), (path, value, text(response))
            if response.status_code != 201:
                field = response.get_json()["error"]["field"]
                assert field is None or isinstance(field, str)
            page = client.post("/import", data={"document": json.dumps(document)})
            assert page.status_code in (303, 400, 422), (path, value)


# -- the import page ---------------------------------------------------------------------------------


@pytest.fixture
def csrf_app(make_app):
    return make_app(WTF_CSRF_ENABLED=True)


def _token(page: str) -> str:
    found = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page) or \
        re.search(r'id="csrf_token" name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert found, page
    return found.group(1)


def _document_for(app) -> str:
    client = app.test_client()
    game_id, _ = full_game(client)
    return text(client.get(f"{API}/games/{game_id}/export"))


def test_the_import_page_takes_a_pasted_export_and_grants_editing(csrf_app):
    document = _document_for(csrf_app)
    phone = csrf_app.test_client()
    page = text(phone.get("/import"))
    assert 'enctype="multipart/form-data"' in page and 'type="file"' in page and "<textarea" in page
    response = phone.post("/import", data={"csrf_token": _token(page), "document": document})
    assert response.status_code == 303, text(response)
    new_id = response.headers["Location"].rsplit("/games/", 1)[1]
    game_page = text(phone.get(response.headers["Location"]))
    assert "imported as a new game" in game_page and "Record deal" in game_page and "Edit link" in game_page
    assert "big" in text(phone.get("/"))  # listed among this phone's games
    with csrf_app.app_context():
        assert reading.load_game(new_id).name == 'Zoë\'s "big" night'


def test_the_import_page_takes_an_uploaded_file(csrf_app):
    document = _document_for(csrf_app)
    phone = csrf_app.test_client()
    token = _token(text(phone.get("/import")))
    response = phone.post("/import", content_type="multipart/form-data", data={
        "csrf_token": token, "document": "",
        "file": (io.BytesIO(("\ufeff" + document).encode("utf-8")), "Friday - scorepad.json")})
    assert response.status_code == 303, text(response)


def test_the_import_page_refuses_a_post_without_its_csrf_token(csrf_app):
    document = _document_for(csrf_app)
    response = csrf_app.test_client().post("/import", data={"document": document})
    assert response.status_code == 400 and "This form has expired" in text(response)


@pytest.mark.parametrize("what, status, says", [
    ("empty", 400, "choose the exported file"),
    ("not json", 400, "is not valid JSON"),
    ("version", 400, "version"),
    ("violation", 422, "deal 2 breaks the rules"),
    ("binary file", 400, "is not text"),
])
def test_the_import_page_shows_what_is_wrong_and_saves_nothing(client, app, what, status, says):
    game_id, _ = full_game(client)
    document = export(client, game_id)
    data: dict[str, Any] = {"document": ""}
    if what == "not json":
        data["document"] = "{nope"
    elif what == "version":
        data["document"] = json.dumps({**document, "version": 7})
    elif what == "violation":
        document["deals"][1]["as_played"] = None
        data["document"] = json.dumps(document)
    elif what == "binary file":
        data["file"] = (io.BytesIO(b"\xff\xfe\x00{"), "x.json")
    before = db_state(app)
    response = client.post("/import", data=data, content_type="multipart/form-data")
    assert response.status_code == status
    page = text(response)
    assert says.lower() in page.lower() and "Not imported" in page and "<h1>Import a game</h1>" in page
    if what == "not json":
        assert "<code>document</code>" in page and "{nope" in page  # the paste comes back to be corrected
    if what == "violation":
        assert "<code>deals[1]</code>" in page
    assert db_state(app) == before


def test_the_pages_link_to_export_csv_and_import(client, app):
    game_id, _ = full_game(client)
    viewer = app.test_client()
    for phone in (client, viewer):
        page = text(phone.get(f"/games/{game_id}"))
        assert f'href="/games/{game_id}/export.json" download>Export (JSON)</a>' in page
        assert f'href="/games/{game_id}/scores.csv" download>Scores (CSV)</a>' in page
    assert 'href="/import">Import a game</a>' in text(client.get("/"))


def test_the_import_page_has_no_inline_script_or_style_and_one_h1(client):
    client.post("/import", data={"document": "{"})
    for page in (text(client.get("/import")), text(client.post("/import", data={"document": "{"}))):
        assert "<style" not in page and not re.search(r"\sstyle=", page)
        assert not re.search(r"<script[^>]*>[^<]", page) and not re.search(r"\son[a-z]+=", page)
        assert len(re.findall(r"<h1[ >]", page)) == 1
        ids = re.findall(r'\sid="([^"]+)"', page)
        assert len(ids) == len(set(ids))


# -- the score table as CSV -------------------------------------------------------------------------


def read_csv(response) -> list[list[str]]:
    assert response.status_code == 200, text(response)
    assert response.mimetype == "text/csv" and response.mimetype_params.get("charset") == "utf-8"
    raw = response.get_data()
    assert raw.startswith(b"\xef\xbb\xbf")  # a byte-order mark, for spreadsheets
    return list(csv.reader(io.StringIO(raw.decode("utf-8-sig"), newline="")))


def test_scores_csv_has_a_row_per_deal_with_points_and_running_totals_and_a_total_row(client):
    game_id, key = full_game(client)
    post_deal(client, game_id, key, deal(ann=("8 8 8",), bea=("9 9 9 9",)))  # deal 3 again
    post_deal(client, game_id, key, deal(ann=("A A A",), bea=("5 5 5",)))  # deal 4: the game is over
    game = client.get(f"{API}/games/{game_id}").get_json()
    for url in (f"/games/{game_id}/scores.csv", f"{API}/games/{game_id}/scores.csv"):
        response = client.get(url)
        assert 'filename="Zoe\'s big night - scores.csv"' in response.headers["Content-Disposition"]
        rows = read_csv(response)
        assert rows[0] == ["Deal", "Ann points", "Ann total", "Bea points", "Bea total", "Note"]
        assert len(rows) == 1 + 4 + 1
        for row, live, running in zip(rows[1:-1], game["deals"], game["running_totals"], strict=True):
            points = {s["name"]: s["total"] for s in live["report"]["sides"]}
            assert row[:5] == [str(live["number"]), str(points["Ann"]), str(running["totals"]["Ann"]),
                               str(points["Bea"]), str(running["totals"]["Bea"])]
        assert rows[2][5] == "saved as played: We let the Q Q 2 2 stand"
        final = game["running_totals"][-1]["totals"]
        assert rows[-1] == ["Total", str(final["Ann"]), str(final["Ann"]), str(final["Bea"]), str(final["Bea"]),
                            f"{game['winner']} wins"]
        assert sum(int(r[1]) for r in rows[1:-1]) == final["Ann"]


def test_scores_csv_of_a_game_without_deals_is_a_header_and_a_zero_total(client):
    game_id, _ = api_game(client)
    rows = read_csv(client.get(f"/games/{game_id}/scores.csv"))
    assert rows == [["Deal", "Ann points", "Ann total", "Bea points", "Bea total", "Note"],
                    ["Total", "0", "0", "0", "0", ""]]


def test_scores_csv_quotes_names_and_defuses_spreadsheet_formulas(client):
    names = ['=SUM(A1:A9)', 'Ann, "Ace"', '@Cal', '-Dee']
    sides = [{"name": n, "players": [n]} for n in names]
    game_id, key = api_game(client, sides=sides, name="+cmd|' /C calc'!A0")
    body = {"ending": "stock_out", "sides": [
        {"name": n, "melds": ["K K K"], "players": [{"name": n, "foot_picked_up": True, "cards_left": "A"}]}
        for n in names]}
    post_deal(client, game_id, key, body)
    response = client.get(f"/games/{game_id}/scores.csv")
    raw = response.get_data().decode("utf-8-sig")
    assert '"Ann, ""Ace"" points"' in raw  # a comma and quotes: quoted, quotes doubled
    rows = read_csv(response)
    assert rows[0] == ["Deal", "'=SUM(A1:A9) points", "'=SUM(A1:A9) total", 'Ann, "Ace" points', 'Ann, "Ace" total',
                       "'@Cal points", "'@Cal total", "'-Dee points", "'-Dee total", "Note"]
    assert rows[1][1:3] == ["10", "10"]  # 30 melded, an ace left: numbers stay numbers
    for row in rows:
        for cell in row:
            assert not cell.startswith(("=", "+", "@")) and not (cell.startswith("-") and not cell[1:].isdigit())
    assert "calc" in response.headers["Content-Disposition"]  # the name is in the file name, not a cell


def test_scores_csv_of_an_unknown_game_is_a_404(client):
    assert client.get("/games/nope/scores.csv").status_code == 404
    assert_error(client.get(f"{API}/games/nope/scores.csv"), 404, None)


# -- backup -------------------------------------------------------------------------------------------


def _consistent(path: Path) -> tuple[int, int]:
    """Open a backup, check it, and prove it is one moment of the database: every write adds
    one history entry and one revision, and every recorded deal has its entry."""
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # one self-contained file
        assert conn.execute("PRAGMA user_version").fetchone()[0] >= 1
        for game_id, revision in conn.execute("SELECT id, revision FROM game"):
            entries = conn.execute("SELECT COUNT(*) FROM history WHERE game_id = ?", (game_id,)).fetchone()[0]
            deals = conn.execute("SELECT COUNT(*) FROM deal WHERE game_id = ?", (game_id,)).fetchone()[0]
            assert revision == entries == deals, game_id
        return (conn.execute("SELECT COUNT(*) FROM game").fetchone()[0],
                conn.execute("SELECT COUNT(*) FROM deal").fetchone()[0])
    finally:
        conn.close()


def _writer(app, stop: threading.Event, written: list[int], errors: list[BaseException]) -> None:
    """Record deals as fast as it can, starting a new game whenever one is over."""
    try:
        with app.app_context():
            game = writing.create_game("Busy", "common", TWO)
            while not stop.is_set():
                try:
                    writing.record_deal(game.id, deal(ann=("K K K",), bea=("Q Q Q",)), repeat=True)
                except Full as err:  # the game is over
                    assert err.field == "deal", err.message
                    game = writing.create_game("Busy", "common", TWO)
                    continue
                written.append(1)
    except BaseException as err:  # reported by the test
        errors.append(err)


@pytest.mark.backends("sqlite")  # SQLite's online backup of its file
def test_backup_writes_a_consistent_copy_while_a_writer_records_deals(app, tmp_path):
    stop, written, errors = threading.Event(), [], []
    thread = threading.Thread(target=_writer, args=(app, stop, written, errors), daemon=True)
    thread.start()
    runner = app.test_cli_runner()
    try:
        while len(written) < 20 and thread.is_alive():
            time.sleep(0.01)
        seen = []
        for i in range(5):
            path = tmp_path / f"backup-{i}.sqlite"
            result = runner.invoke(args=["backup", str(path)])
            assert result.exit_code == 0, result.output
            games, deals = _consistent(path)
            assert result.output.strip() == (f"Wrote {path}: {games} game{'s' if games != 1 else ''}, "
                                             f"{deals} deal{'s' if deals != 1 else ''} "
                                             f"({path.stat().st_size:,} bytes).")
            assert not list(tmp_path.glob(f"backup-{i}.sqlite-*")) and not list(tmp_path.glob(".*.tmp"))
            seen.append(deals)
            time.sleep(0.05)
    finally:
        stop.set()
        thread.join(10)
    assert not errors, errors
    assert seen == sorted(seen) and seen[-1] > seen[0] > 0  # the writer kept writing between backups


@pytest.mark.backends("sqlite")  # SQLite's online backup of its file
def test_backup_refuses_to_overwrite_an_existing_file_unless_forced(app, client, tmp_path):
    api_game(client)
    path = tmp_path / "backup.sqlite"
    path.write_bytes(b"keep me")
    runner = app.test_cli_runner()
    result = runner.invoke(args=["backup", str(path)])
    assert result.exit_code != 0 and "already exists" in result.output and "--force" in result.output
    assert path.read_bytes() == b"keep me"
    assert not list(tmp_path.glob(".*.tmp"))
    result = runner.invoke(args=["backup", str(path), "--force"])
    assert result.exit_code == 0, result.output
    assert "1 game, 0 deals" in result.output
    assert _consistent(path) == (1, 0)


@pytest.mark.parametrize("where, says", [("missing/backup.sqlite", "there is no folder"), (".", "is a folder")])
@pytest.mark.backends("sqlite")  # SQLite's online backup of its file
def test_backup_to_a_place_it_cannot_write_is_an_error_not_a_traceback(app, tmp_path, where, says):
    result = app.test_cli_runner().invoke(args=["backup", str(tmp_path / where)])
    assert result.exit_code == 2 and says in result.output and "Traceback" not in result.output


@pytest.mark.backends("sqlite")  # SQLite's online backup of its file
def test_backup_refuses_to_write_over_the_live_database(app):
    result = app.test_cli_runner().invoke(args=["backup", app.config["DATABASE"], "--force"])
    assert result.exit_code == 2 and "the live database" in result.output


@pytest.mark.backends("sqlite")  # SQLite's online backup of its file
def test_restoring_a_backup_brings_the_games_back(app, client, tmp_path, make_app):
    game_id, _ = full_game(client)
    before = export(client, game_id)
    backup = tmp_path / "backup.sqlite"
    assert app.test_cli_runner().invoke(args=["backup", str(backup)]).exit_code == 0
    restored = make_app(DATABASE=backup)  # the backup, not a copy of the template
    after = export(restored.test_client(), game_id)
    before.pop("exported_at"), after.pop("exported_at")
    assert after == before


@pytest.mark.backends("sqlite")  # SQLite's online backup of its file
def test_flask_backup_runs_from_the_command_line(app, client, tmp_path):
    api_game(client)
    path = tmp_path / "nightly.sqlite"
    env = {**os.environ, "SCOREPAD_DATABASE": app.config["DATABASE"], "SCOREPAD_SECRET_KEY": "cli"}
    done = subprocess.run([sys.executable, "-m", "flask", "--app", "scorepad", "backup", str(path)], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"Wrote {path}: 1 game, 0 deals (")
    assert _consistent(path) == (1, 0)
    again = subprocess.run([sys.executable, "-m", "flask", "--app", "scorepad", "backup", str(path)], cwd=ROOT,
                           env=env, capture_output=True, text=True, timeout=60)
    assert again.returncode == 2 and "already exists" in again.stderr


@pytest.mark.backends("sqlite")  # SQLite's online backup of its file
def test_the_backup_function_is_the_online_backup_api(tmp_path, app):
    """Unit level: ``backup.backup`` copies and counts."""
    result = backup.backup(app.config["DATABASE"], tmp_path / "b.sqlite")
    assert (result.games, result.deals) == (0, 0) and result.size == (tmp_path / "b.sqlite").stat().st_size


# -- an import judges each deal as the game did ---------------------------------------------------

BANDS = {"preset": "common", "opening_by": "running-total",
         "opening_bands": [{"below": 500, "minimum": 50}, {"minimum": 120}]}


def test_an_import_judges_carried_openings_against_the_running_total_before_each_deal(client):
    """Under minimums by running total, deal 2's first melds are weighed against the side's
    total after deal 1, on import as in the game. Ann's deal 1 scores 7 × 10 + 500 = 570, so
    her minimum in deal 2 is 120 (at or above 500), and K K K + Q Q Q = 3 × 10 + 3 × 10 = 60
    is short: the game saved that deal only as played. The same deal without its as-played
    reason is refused on import, naming deal 2 (judged from a total of 0 it would pass: 60 ≥ 50)."""
    game_id, key = api_game(client, "Bands", BANDS, TWO)
    post_deal(client, game_id, key, deal(ann=("K K K K K K K",)))
    short = deal(ann=("K K K", "Q Q Q"), bea=("J J J",))
    short["sides"][0]["opening"] = {"melds": ["K K K", "Q Q Q"]}
    refused = client.post(f"{API}/games/{game_id}/deals", json=short, headers=bearer(key))
    assert refused.status_code == 422
    assert "opening.minimum" in [p["code"] for p in refused.get_json()["problems"]]
    post_deal(client, game_id, key, short, reason="we let Ann open with 60")
    document = export(client, game_id)
    assert import_(client, copy.deepcopy(document))["id"] != game_id  # as played, it comes in
    document["deals"][1]["as_played"] = None
    body = assert_error(client.post(f"{API}/games/import", json=document), 422, "deals[1]")
    assert "deal 2" in body["detail"] and "120" in body["detail"]
