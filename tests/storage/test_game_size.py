"""A game's growth bound (issue 8, item 3): at most writing.MAX_GAME_BYTES of deals and history.

A write past it is refused with a 409 naming ``game`` (API, pages, CLI) and writes nothing;
the export of the largest game the bound allows imports again (the import body limit
follows from the bound).
"""

from __future__ import annotations

import io
import json
import re

import pytest

from scorepad.app import create_app
from scorepad.storage import db
from tests import json_writes as writing
from tests.helpers import api_game, assert_error_shape, bearer, dump, form_fields, grant, text_of

API = "/api/v1"
REASON = "we let the table's melds stand"


def big_deal(variant: int) -> dict:
    """A deal of 60 melds a side, each breaking a rule of the common sheet (saved as played)."""
    ranks = "456789"
    return {"deal": 1, "ending": "stock_out",
            "sides": [{"name": "Ann", "melds": [f"{ranks[i % 6]} {ranks[i % 6]} 2 2 2" for i in range(60)],
                       "players": [{"name": "Ann", "foot_picked_up": True, "cards_left": "K " * (variant % 7)}]},
                      {"name": "Bea", "melds": [f"{ranks[i % 6]} {ranks[i % 6]} JK JK" for i in range(60)],
                       "players": [{"name": "Bea", "foot_picked_up": True, "cards_left": ""}]}],
            "as_played": {"reason": REASON}}


def fill(client, game_id: str, key: str) -> dict:
    """Correct deal 1 until the bound refuses; the refusal's error."""
    response = client.post(f"{API}/games/{game_id}/deals", json=big_deal(0), headers=bearer(key))
    assert response.status_code == 201, response.get_json()
    for n in range(1, 1000):
        response = client.put(f"{API}/games/{game_id}/deals/1", json=big_deal(n), headers=bearer(key))
        if response.status_code != 200:
            return assert_error_shape(response, 409, "game")
    raise AssertionError("a thousand corrections and the game is still not full")


@pytest.fixture(scope="module")
def full(tmp_path_factory):
    """An app whose game 'full' holds all a game may: (app, game id, key, the refusal's error)."""
    folder = tmp_path_factory.mktemp("full")
    app = create_app({"TESTING": True, "DATABASE": str(folder / "full.sqlite"), "SECRET_KEY": "full",
                      "WTF_CSRF_ENABLED": False})
    client = app.test_client()
    game_id, key = api_game(client, name="Full")
    error = fill(client, game_id, key)
    return app, game_id, key, error


def stored_bytes(app, game_id: str) -> int:
    with app.app_context():
        return db.one("game_stored_bytes", game_id, writing.ENTRY_BYTES)[0]


def test_a_write_past_the_bound_is_a_409_naming_game_and_writes_nothing(full):
    app, game_id, key, error = full
    assert "at most 2 MB" in error["message"] and "nothing was saved" in error["message"]
    size = stored_bytes(app, game_id)
    assert writing.MAX_GAME_BYTES - 40_000 < size <= writing.MAX_GAME_BYTES  # full: one more correction did not fit
    client = app.test_client()
    before = dump(app.config["DATABASE"])
    assert_error_shape(client.put(f"{API}/games/{game_id}/deals/1", json=big_deal(5), headers=bearer(key)), 409, "game")
    assert dump(app.config["DATABASE"]) == before
    growth = 0
    for n in range(200):  # an amendment is smaller than a correction: there is room for a few
        was = stored_bytes(app, game_id)
        response = client.put(f"{API}/games/{game_id}/sheet", headers=bearer(key),
                              json={"sheet": {"preset": "common", "clean_book_bonus": 600 + n % 2},
                                    "reason": "r" * 200})
        if response.status_code != 200:
            break
        growth = stored_bytes(app, game_id) - was
        before = dump(app.config["DATABASE"])
    assert_error_shape(response, 409, "game")
    assert dump(app.config["DATABASE"]) == before
    assert growth > 0  # some amendments fitted, then one more did not:
    assert stored_bytes(app, game_id) > writing.MAX_GAME_BYTES - growth


def test_the_pages_refuse_a_write_past_the_bound_saying_so_and_keep_the_form(full):
    app, game_id, key, _ = full
    client = app.test_client()
    grant(client, game_id, key)
    action = f"/games/{game_id}/deals/1/edit"
    form = form_fields(client.get(action).get_data(as_text=True), action)
    form["reason"] = "typed again at the table"
    form["action"] = "as_played"
    response = client.post(action, data=form)
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert "a game may hold at most 2 MB" in text_of(page)
    kept = form_fields(page, action)
    assert kept["reason"] == "typed again at the table"
    assert {k: v for k, v in kept.items() if k in form and k not in ("action", "revision")} == \
        {k: v for k, v in form.items() if k in kept and k not in ("action", "revision")}


def test_the_cli_refuses_a_write_past_the_bound_naming_game(full, tmp_path):
    app, game_id, _, _ = full
    path = tmp_path / "deal.json"
    deal = big_deal(3)
    del deal["as_played"]
    path.write_text(json.dumps(deal))
    result = app.test_cli_runner().invoke(args=["deal", "correct", game_id, "1", str(path), "--as-played", REASON])
    assert result.exit_code == 2, result.output
    assert re.search(r"game: a game may hold at most 2 MB", result.stderr), result.stderr


def without_export_time(document: dict) -> dict:
    return {k: v for k, v in document.items() if k != "exported_at"}


def test_the_export_of_the_largest_game_imports_again_through_the_api_and_the_page(full):
    app, game_id, _, _ = full
    client = app.test_client()
    raw = client.get(f"{API}/games/{game_id}/export").get_data()
    assert len(raw) > 1024 * 1024  # past the 256 KB every other request may send
    response = client.post(f"{API}/games/import", data=raw, content_type="application/json")
    assert response.status_code == 201, response.get_data(as_text=True)[:300]
    again = client.get(f"{API}/games/{response.get_json()['id']}/export").get_json()
    assert without_export_time(again) == without_export_time(json.loads(raw))

    # The page, with its CSRF check on (it reads the form before the page's code runs).
    csrf = create_app({"TESTING": True, "DATABASE": app.config["DATABASE"], "SECRET_KEY": "full"})
    phone = csrf.test_client()
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', phone.get("/import").get_data(as_text=True))
    for data in ({"file": (io.BytesIO(raw), "Full - scorepad.json"), "document": ""},
                 {"document": raw.decode("utf-8")}):
        response = phone.post("/import", content_type="multipart/form-data",
                              data={"csrf_token": token.group(1), **data})
        assert response.status_code == 303, text_of(response.get_data(as_text=True))[:300]
        new_id = response.headers["Location"].rsplit("/games/", 1)[1]
        assert without_export_time(phone.get(f"{API}/games/{new_id}/export").get_json()) == \
            without_export_time(json.loads(raw))


def test_other_requests_keep_the_256_kb_limit(client):
    game_id, key = api_game(client)
    response = client.post(f"{API}/games/{game_id}/deals", headers=bearer(key), content_type="application/json",
                           data=b'{"deal": 1, "pad": "' + b"x" * (300 * 1024) + b'"}')
    error = assert_error_shape(response, 413, None)
    assert "256 KB" in error["message"]


def test_an_import_holding_more_than_a_game_may_is_a_409_naming_game_and_saves_nothing(full):
    app, game_id, _, _ = full
    client = app.test_client()
    document = client.get(f"{API}/games/{game_id}/export").get_json()
    history = document["deals"][0]["history"]
    last = history[-1]  # one more correction than the game had room for
    seq = max(e["seq"] for e in history + document["amendments"]) + 1
    history.append({**last, "seq": seq, "before": last["after"]})
    before = dump(app.config["DATABASE"])
    assert_error_shape(client.post(f"{API}/games/import", json=document), 409, "game")
    assert dump(app.config["DATABASE"]) == before
