"""The expensive reads are built once per revision and through the build turn (issue 21,
item 10): ``GET /api/v1/referee/games/<id>/rescore?deal=`` rescored the whole game on every
request (a phone's write and page went from 0.01 s to 2.4 s under eight such connections),
and the history page and ``/api/v1/games/<id>/history`` read and scored every entry again.
Each is now kept for the game's revision, a rescore under its question as read (the sheet's
canonical form and the deal's number; any other field dropped), and built one at a time,
a request that waits too long answered 503 with Retry-After, as the PDFs are.

Builds are counted by the cache itself (``ByteCache.builds``: the documents it built)."""

from __future__ import annotations

import json
import threading

import pytest

from scorepad.app import create_app
from scorepad.rules import preset
from tests.helpers import REPEAT, api_game, bearer, forms_of, valid_deal


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "s.sqlite"), "SECRET_KEY": "t",
                       "BUILD_WAIT": 0.3})


@pytest.fixture
def game(app):
    """A game of two deals: (id, edit key)."""
    return api_game(app.test_client(), deals=[valid_deal(1), valid_deal(2)])


def _builds(app) -> int:
    return app.extensions["scorepad.cache"].builds


PAGAT_AS_JSON = json.dumps(preset("pagat").to_json())  # the preset as it stands, given as a sheet object


@pytest.mark.parametrize("path, spellings", [
    ("/api/v1/referee/games/{id}/rescore", [
        "sheet=pagat&deal=1", "deal=1&sheet=pagat&x=1", "deal=%2001&sheet=%20pagat%20&utm_source=qr",
        f"sheet={PAGAT_AS_JSON}&deal=1"]),
    ("/api/v1/referee/games/{id}/rescore", ["sheet=pagat", "sheet=pagat&deal=", "x=2&sheet=pagat"]),
    ("/games/{id}/rescore", [
        "sheet=pagat&deal=1", "deal=1&sheet=pagat&x=1", "deal=01&sheet=pagat&utm_source=qr",
        f"sheet_json={PAGAT_AS_JSON}&deal=1"]),
    ("/games/{id}/rescore", ["sheet=pagat", "sheet=pagat&deal=all", "deal=&sheet=pagat&x=2"]),
])
def test_a_rescore_is_built_once_per_revision_however_its_query_is_spelt(app, game, path, spellings):
    game_id, key = game
    client = app.test_client()
    url = path.format(id=game_id)
    before = _builds(app)
    answers = [client.get(f"{url}?{query}") for query in spellings * 2]
    assert [a.status_code for a in answers] == [200] * len(answers)
    assert len({a.get_data() for a in answers}) == 1  # one answer, whatever else the query held
    assert _builds(app) == before + 1
    assert app.extensions["scorepad.cache"].values().count(answers[0].get_data()) == 1  # kept once
    recorded = client.post(f"/api/v1/games/{game_id}/deals", json=valid_deal(3) | REPEAT, headers=bearer(key))
    assert recorded.status_code == 201
    for query in spellings:
        assert client.get(f"{url}?{query}").status_code == 200
    assert _builds(app) == before + 2  # a write is a new revision: built again, once


def test_the_rescore_pages_own_form_asks_what_its_link_asked(app, game):
    """The sheet editor's boxes, sent as the page's form sends them, name the same sheet as
    ``?sheet=pagat``: the page kept for the one is the page for the other."""
    game_id, _ = game
    client = app.test_client()
    page = client.get(f"/games/{game_id}/rescore?sheet=pagat&deal=2")
    assert page.status_code == 200
    before = _builds(app)
    form = next(dict(f["fields"]) for f in forms_of(page.get_data(as_text=True)) if "opt-hand_size" in f["fields"])
    assert form["deal"] == "2"
    again = client.get(f"/games/{game_id}/rescore", query_string=form)
    assert again.status_code == 200 and again.get_data() == page.get_data()
    assert _builds(app) == before


@pytest.mark.parametrize("path", ["/games/{id}/history", "/api/v1/games/{id}/history"])
def test_a_games_history_is_built_once_per_revision(app, game, path):
    game_id, key = game
    client = app.test_client()
    url = path.format(id=game_id)
    before = _builds(app)
    answers = [client.get(url) for _ in range(5)]
    assert [a.status_code for a in answers] == [200] * 5 and len({a.get_data() for a in answers}) == 1
    assert _builds(app) == before + 1
    corrected = client.put(f"/api/v1/games/{game_id}/deals/1", json=valid_deal(1, "Ann", "Bea") | {
        "ending": "stock_out", "went_out": None}, headers=bearer(key))
    assert corrected.status_code == 200, corrected.get_data(as_text=True)
    after = client.get(url)
    assert after.status_code == 200 and after.get_data() != answers[0].get_data()  # the correction is in it
    assert _builds(app) == before + 2


def test_a_rescore_that_cannot_be_read_or_names_no_deal_is_answered_without_a_build(app, game):
    game_id, _ = game
    client = app.test_client()
    before = _builds(app)
    assert client.get(f"/api/v1/referee/games/{game_id}/rescore?sheet=pagat&deal=9").status_code == 404
    assert client.get(f"/api/v1/referee/games/{game_id}/rescore?sheet=nope").status_code == 400
    assert client.get(f"/games/{game_id}/rescore?sheet=pagat&deal=9").status_code == 404
    assert client.get(f"/games/{game_id}/rescore?sheet=nope").status_code == 400
    assert _builds(app) == before


@pytest.mark.parametrize("path", [
    "/api/v1/referee/games/{id}/rescore?sheet=pagat&deal=1", "/games/{id}/rescore?sheet=pagat&deal=2",
    "/games/{id}/history", "/api/v1/games/{id}/history"])
def test_an_expensive_read_waits_its_turn_then_answers_503_with_retry_after(app, game, path):
    game_id, _ = game
    client = app.test_client()
    url = path.format(id=game_id)
    kept = app.extensions["scorepad.cache"]
    holding, release = threading.Event(), threading.Event()

    def hold_turn() -> None:
        with kept.gate():
            holding.set()
            release.wait(30)

    holder = threading.Thread(target=hold_turn)
    holder.start()
    assert holding.wait(5)
    try:
        busy = client.get(url)
        assert busy.status_code == 503 and busy.headers["Retry-After"] == "1"
    finally:
        release.set()
        holder.join(5)
    assert client.get(url).status_code == 200
