"""Two phones, one game: every write says which revision it was based on; a stale one is
refused (409) with what changed in between, and nothing the player typed is lost.

The first tests use Flask's test client, two clients being two phones. The last one races
several phones on one game over a real server (the production server on a loopback port),
then opens the SQLite file: what is stored is exactly what the 2xx answers said.
"""

from __future__ import annotations

import html
import http.client
import json
import random
import re
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scorepad.storage import cache, db, reading
from scorepad.storage.errors import KeyReplaced
from tests import json_writes as writing
from tests.helpers import api_game, bearer, db_state, served
from tests.helpers import valid_deal as deal
from tests.web.test_pages import fields, start, text, valid_deal

pytestmark = pytest.mark.backends  # each test on a database of its own: on SQLite and on PostgreSQL

ROOT = Path(__file__).resolve().parents[2]
API = "/api/v1"
TWO = [{"name": "Ann", "players": ["Ann"]}, {"name": "Bea", "players": ["Bea"]}]
# A game with no last deal, so the race can record as many deals as it likes.
OPEN_ENDED = {"preset": "common", "game_length": "target", "target_score": 100000, "opening_minimums": 50}


@pytest.fixture
def phone(app):
    """The phone that started the game: it holds the edit link."""
    return app.test_client()


@pytest.fixture
def other_phone(app):
    """A second scoring phone, given the edit link."""
    return app.test_client()


def deal_body(marker: int = 0, went_out: bool = False) -> dict[str, Any]:
    """A valid two-player deal of the common sheet. ``marker`` (0..4095) is written into the
    cards Bea holds (fours to sevens, 0..7 each), so every write can be told apart."""
    left = {card: (marker >> (3 * i)) & 7 for i, card in enumerate(("4", "5", "6", "7"))}
    return {"ending": "went_out" if went_out else "stock_out", **({"went_out": "Ann"} if went_out else {}),
            "sides": [{"name": "Ann", "melds": ["K K K K K K K", "Q Q Q Q Q 2 2"] if went_out else ["K K K"],
                       "players": [{"name": "Ann", "foot_picked_up": True, "cards_left": {}}]},
                      {"name": "Bea", "melds": ["J J J"],
                       "players": [{"name": "Bea", "foot_picked_up": True,
                                    "cards_left": {c: n for c, n in left.items() if n}}]}]}


def marker_of(deal: dict[str, Any]) -> int:
    left = deal["sides"][1]["players"][0]["cards_left"]
    return sum(int(left.get(card, 0)) << (3 * i) for i, card in enumerate(("4", "5", "6", "7")))


def edit_link(phone, app, game_id: str) -> None:
    with app.app_context():
        key = reading.load_game(game_id).edit_key
    assert phone.get(f"/games/{game_id}/edit/{key}").status_code == 303


# -- every write carries the revision it was based on ----------------------------------------------


def test_every_form_that_writes_carries_the_revision_it_was_based_on(phone, other_phone):
    game_id = start(phone)
    phone.post(f"/games/{game_id}/deals/new", data=valid_deal(phone, game_id))  # revision 1
    forms = {"record": f"/games/{game_id}/deals/new", "correct": f"/games/{game_id}/deals/1/edit",
             "delete": f"/games/{game_id}/deals/1/delete", "amend": f"/games/{game_id}/sheet/amend"}
    for what, url in forms.items():
        page = text(phone.get(url))
        assert fields(page, action=url)["revision"] == "1", what


def test_a_stale_api_write_is_409_with_every_change_since_its_revision(phone):
    game_id, key = api_game(phone)
    base = f"{API}/games/{game_id}"
    assert phone.post(f"{base}/deals", json={**deal_body(1), "revision": 0}, headers=bearer(key)).status_code == 201
    assert phone.post(f"{base}/deals", json={**deal_body(2), "revision": 1}, headers=bearer(key)).status_code == 201
    assert phone.put(f"{base}/deals/1", json={**deal_body(3), "revision": 2}, headers=bearer(key)).status_code == 200
    stale = [phone.post(f"{base}/deals", json={**deal_body(4), "revision": 1}, headers=bearer(key)),
             phone.put(f"{base}/deals/2", json={**deal_body(5), "revision": 1}, headers=bearer(key)),
             phone.delete(f"{base}/deals/2?revision=1", headers=bearer(key)),
             phone.put(f"{base}/sheet", json={"sheet": "common", "reason": "no", "revision": 1}, headers=bearer(key))]
    for response in stale:
        assert response.status_code == 409
        body = response.get_json()
        assert body["type"] == "/api/v1/problems/stale-revision" and body["revision"] == 3
        assert set(body["error"]) == {"status", "field", "message"} and body["error"]["field"] == "revision"
        assert body["error"]["message"] == ("the game changed since you loaded it (revision 1, now 3): deal 2 was "
                                            "recorded; deal 1 was corrected; reload it and try again")
        assert [(c["revision"], c["action"], c["deal"], c["message"]) for c in body["changes"]] == [
            (2, "record", 2, "deal 2 was recorded"), (3, "edit", 1, "deal 1 was corrected")]
        assert body["changes"][1]["totals"] == {"Ann": 30, "Bea": 30 - 3 * 5}  # deal 1 as corrected (marker 3)
    game = phone.get(base).get_json()
    assert game["revision"] == 3 and [marker_of(d["deal"]) for d in game["deals"]] == [3, 2]


def test_an_api_deal_recorded_first_by_another_phone_is_a_409_with_the_recorded_deal_beside_yours(phone, other_phone):
    game_id, key = api_game(phone)
    base = f"{API}/games/{game_id}"
    assert phone.post(f"{base}/deals", json={**deal_body(1), "deal": 1, "revision": 0},
                      headers=bearer(key)).status_code == 201
    response = other_phone.post(f"{base}/deals", json={**deal_body(2), "deal": 1, "revision": 0},
                                headers=bearer(key))  # stale because of this very deal: said so
    assert response.status_code == 409
    body = response.get_json()
    assert body["type"] == "/api/v1/problems/deal-recorded" and body["field"] == "deal" and body["revision"] == 1
    assert body["recorded"] == phone.get(f"{base}/deals/1").get_json()
    assert marker_of(body["recorded"]["deal"]) == 1
    assert body["yours"]["number"] == 1 and marker_of(body["yours"]["deal"]) == 2 and body["yours"]["as_played"] is None
    assert [s["total"] for s in body["yours"]["report"]["sides"]] == [30, 30 - 2 * 5]
    assert phone.get(base).get_json()["revision"] == 1  # nothing written, and no deal 2
    replaced = other_phone.put(f"{base}/deals/1", json={**deal_body(2), "revision": body["revision"]},
                               headers=bearer(key))
    assert replaced.status_code == 200 and replaced.get_json()["history_size"] == 2
    game = phone.get(base).get_json()
    assert [(d["number"], marker_of(d["deal"])) for d in game["deals"]] == [(1, 2)] and game["revision"] == 2


def test_an_api_deal_without_its_number_is_the_next_deal(phone):
    game_id, key = api_game(phone)
    numbers = [phone.post(f"{API}/games/{game_id}/deals", json=deal_body(marker), headers=bearer(key)).get_json()
               ["number"] for marker in (1, 2, 3)]
    assert numbers == [1, 2, 3]


def test_an_api_deal_the_same_as_the_one_before_it_is_a_422_until_repeat_true(phone):
    game_id, key = api_game(phone)
    url = f"{API}/games/{game_id}/deals"
    assert phone.post(url, json=deal_body(1), headers=bearer(key)).status_code == 201
    refused = phone.post(url, json=deal_body(1), headers=bearer(key))
    assert refused.status_code == 422
    body = refused.get_json()
    assert body["type"] == "/api/v1/problems/same-as-previous" and body["previous"] == 1
    assert [(p["code"], p["never_as_played"]) for p in body["problems"]] == [("deal.same_as_previous", True)]
    assert '"repeat": true' in body["detail"]
    assert phone.post(url, json={**deal_body(1), "deal": 2}, headers=bearer(key)).status_code == 422  # named too
    for wrong in ("yes", 1, "true"):
        bad = phone.post(url, json={**deal_body(1), "repeat": wrong}, headers=bearer(key))
        assert bad.status_code == 400 and bad.get_json()["field"] == "repeat"
    assert phone.get(f"{API}/games/{game_id}").get_json()["revision"] == 1
    again = phone.post(url, json={**deal_body(1), "repeat": True}, headers=bearer(key))
    assert again.status_code == 201 and again.get_json()["number"] == 2
    put = phone.put(f"{url}/2", json={**deal_body(1), "repeat": True}, headers=bearer(key))
    assert put.status_code == 400 and put.get_json()["field"] == "repeat"  # a correction repeats nothing
    assert phone.post(url, json={**deal_body(2), "repeat": False}, headers=bearer(key)).status_code == 201


def test_an_api_replay_with_its_idempotency_key_answers_the_first_answer_not_a_refusal(phone):
    game_id, key = api_game(phone)
    url = f"{API}/games/{game_id}/deals"

    def send(body, idempotency_key):
        return phone.post(url, json=body, headers={**bearer(key), "Idempotency-Key": idempotency_key})

    first = send({**deal_body(1), "deal": 1}, "k1")
    replay = send({**deal_body(1), "deal": 1}, "k1")  # deal 1 is recorded now: still its first answer
    assert (first.status_code, replay.status_code) == (201, 201) and replay.headers["Idempotent-Replayed"] == "true"
    assert replay.get_json() == first.get_json()
    second = send({**deal_body(1), "repeat": True}, "k2")
    replay = send({**deal_body(1), "repeat": True}, "k2")
    assert second.status_code == replay.status_code == 201 and replay.get_json()["number"] == 2
    assert send(deal_body(1), "k3").status_code == 422  # a new request: the same as deal 2
    assert phone.get(f"{API}/games/{game_id}").get_json()["revision"] == 2


def test_an_api_write_without_a_revision_is_still_applied(phone):
    game_id, key = api_game(phone)
    response = phone.post(f"{API}/games/{game_id}/deals", json=deal_body(1), headers=bearer(key))
    assert response.status_code == 201 and response.get_json()["revision"] == 1


def test_a_sheet_amendment_shows_in_the_changes_with_its_reason(phone):
    game_id, key = api_game(phone)
    phone.put(f"{API}/games/{game_id}/sheet", json={"sheet": {"preset": "common", "going_out_bonus": 200},
                                                   "reason": "house rule", "revision": 0}, headers=bearer(key))
    response = phone.post(f"{API}/games/{game_id}/deals", json={**deal_body(), "revision": 0}, headers=bearer(key))
    assert response.status_code == 409
    assert [c["message"] for c in response.get_json()["changes"]] == ["the sheet was amended (house rule)"]


def test_history_entries_carry_the_revision_they_produced(phone):
    game_id, key = api_game(phone)
    base = f"{API}/games/{game_id}"
    phone.post(f"{base}/deals", json=deal_body(1), headers=bearer(key))
    phone.post(f"{base}/deals", json=deal_body(2), headers=bearer(key))
    phone.delete(f"{base}/deals/1", headers=bearer(key))
    history = phone.get(f"{base}/history").get_json()["history"]
    assert [(h["revision"], h["action"], h["deal_number"]) for h in history] == [
        (1, "record", 1), (2, "record", 2), (3, "delete", 1)]


def test_migration_0002_numbers_the_history_of_games_kept_before_it(tmp_path):
    path = tmp_path / "old.sqlite"
    conn = db.connect(path)
    number, _, sql = db.migrations()[0]
    for statement in db.statements(sql):
        conn.execute(statement)
    conn.execute(f"PRAGMA user_version = {number}")
    for game_id in ("g", "h"):
        conn.execute("INSERT INTO game VALUES (?, 'k', 'n', '\"common\"', '[]', 0, 'a', 'a')", (game_id,))
    for game_id in "gghg":
        conn.execute("INSERT INTO history (game_id, deal_number, action, at) VALUES (?, 1, 'record', 'a')",
                     (game_id,))
    assert db.migrate(conn) >= 2
    rows = conn.execute("SELECT game_id, revision FROM history ORDER BY id").fetchall()
    assert [tuple(r) for r in rows] == [("g", 1), ("g", 2), ("h", 1), ("g", 3)]
    conn.close()


def test_the_revision_route_answers_the_revision_without_the_game(phone):
    game_id, key = api_game(phone)
    first = phone.get(f"{API}/games/{game_id}/revision")
    assert first.status_code == 200 and first.get_json()["revision"] == 0
    assert first.headers["Cache-Control"] == "no-store"
    phone.post(f"{API}/games/{game_id}/deals", json=deal_body(), headers=bearer(key))
    assert phone.get(f"{API}/games/{game_id}/revision").get_json()["revision"] == 1
    assert phone.get(f"{API}/games/nope/revision").status_code == 404


def test_the_game_json_has_an_etag_and_a_304_until_it_changes(phone):
    game_id, key = api_game(phone)
    first = phone.get(f"{API}/games/{game_id}")
    etag = first.headers["ETag"]
    assert phone.get(f"{API}/games/{game_id}", headers={"If-None-Match": etag}).status_code == 304
    phone.post(f"{API}/games/{game_id}/deals", json=deal_body(), headers=bearer(key))
    again = phone.get(f"{API}/games/{game_id}", headers={"If-None-Match": etag})
    assert again.status_code == 200 and again.get_json()["revision"] == 1


def test_the_cached_game_after_each_write_is_the_game_read_afresh(app, phone):
    game_id, key = api_game(phone)
    base = f"{API}/games/{game_id}"
    steps = [lambda: phone.post(f"{base}/deals", json=deal_body(1), headers=bearer(key)),
             lambda: phone.post(f"{base}/deals", json=deal_body(2, went_out=True), headers=bearer(key)),
             lambda: phone.put(f"{base}/deals/1", json=deal_body(3), headers=bearer(key)),
             lambda: phone.delete(f"{base}/deals/2", headers=bearer(key)),
             lambda: phone.post(f"{base}/deals", json=deal_body(4), headers=bearer(key))]
    for step in steps:
        assert step().status_code < 300
        with app.test_request_context():
            cached = reading.load_game(game_id)
            cache.current().clear()
            fresh = reading.load_game(game_id)
        assert (cached.revision, cached.updated_at) == (fresh.revision, fresh.updated_at)
        assert [(d.number, d.deal, d.as_played, d.history_size, d.verdict.to_json()) for d in cached.deals] == \
               [(d.number, d.deal, d.as_played, d.history_size, d.verdict.to_json()) for d in fresh.deals]
        assert cached.rules.running_totals() == fresh.rules.running_totals()
        assert cached.rules.result() == fresh.rules.result()


# -- a stale form in the pages --------------------------------------------------------------------


def both_on_record_deal_1(app, phone, other_phone) -> tuple[str, dict[str, str], dict[str, str]]:
    """Two phones open "Record deal 1"; the other phone saves first. Returns the game, and
    this phone's form as typed (Bea holds two aces here, one there), not sent yet."""
    game_id = start(phone)
    edit_link(other_phone, app, game_id)
    mine = valid_deal(phone, game_id)  # the form for deal 1, at revision 0
    mine["s1-p0-c-A"] = "2"  # typed on this phone, not saved yet
    theirs = valid_deal(other_phone, game_id)
    assert other_phone.post(f"/games/{game_id}/deals/new", data=theirs).status_code == 303  # deal 1, revision 1
    return game_id, mine, theirs


def stored_deals(app, game_id: str) -> list[tuple[int, int, int]]:
    """Each deal's number, Bea's total and how many history entries it has; and the game's revision."""
    with app.app_context():
        game = reading.load_game(game_id)
    return [(d.number, d.verdict.breakdown.totals()["Bea"], d.history_size) for d in game.deals] + [game.revision]


def test_a_second_phone_saving_the_same_deal_sees_the_saved_one_beside_its_own_never_the_next(app, phone,
                                                                                           other_phone):
    game_id, mine, _ = both_on_record_deal_1(app, phone, other_phone)
    url = f"/games/{game_id}/deals/new"
    response = phone.post(url, data=mine)
    page = text(response)
    assert response.status_code == 409
    assert "<h1>Record deal 1</h1>" in page and "Save deal 2" not in page and "Record deal 2" not in page
    said = html.unescape(page)
    assert "Not saved: deal 1 was already saved a moment ago, perhaps by another phone." in said
    top = re.search(r'<div class="recorded" id="recorded">(.*?)</div>', page, re.S).group(1)
    bar = re.search(r'<div class="bar both" id="bar">(.*?)</div>', page, re.S).group(1)
    # The saved deal (Bea 5: one ace and a black three) beside this phone's (two aces: Bea -15).
    assert re.search(r"<tr><th scope=\"row\">Bea</th><td>5</td><td>-15</td></tr>", top)
    assert re.search(r'Saved <time datetime="\d{4}-\d\d-\d\dT[\d:]{8}\+00:00">', top)
    assert "Deal 1 is already saved</a>: Ann <strong>1,060</strong> · Bea <strong>5</strong>." in bar
    assert "Yours: Ann <strong>1,060</strong> · Bea <strong>-15</strong>." in bar
    for part in (top, bar):
        assert "Keep the saved one</a>" in part and "Replace it with mine</button>" in part
        assert f'formaction="/games/{game_id}/deals/1/edit"' in part
    again = fields(page, action=url)
    assert (again["deal_number"], again["revision"]) == ("1", "1")
    for name, value in mine.items():  # nothing typed is lost
        if name not in ("revision", "action"):
            assert again.get(name, "") == value, name
    # Saved again as it stands, it is still deal 1, still recorded: never deal 2 with the same numbers.
    assert phone.post(url, data=dict(again, action="save")).status_code == 409
    assert stored_deals(app, game_id) == [(1, 5, 1), 1]


def test_keep_the_saved_one_leaves_the_other_phones_deal_and_writes_nothing(app, phone, other_phone):
    game_id, mine, _ = both_on_record_deal_1(app, phone, other_phone)
    page = text(phone.post(f"/games/{game_id}/deals/new", data=mine))
    keep = re.search(r'<a class="button secondary" href="([^"]+)" data-discard>Keep the saved one</a>', page).group(1)
    assert keep == f"/games/{game_id}#deal-1"
    assert phone.get(keep.split("#")[0]).status_code == 200
    assert stored_deals(app, game_id) == [(1, 5, 1), 1]


def test_replace_it_with_mine_corrects_the_saved_deal_keeping_it_in_the_history(app, phone, other_phone):
    game_id, mine, _ = both_on_record_deal_1(app, phone, other_phone)
    page = text(phone.post(f"/games/{game_id}/deals/new", data=mine))
    replace = re.search(r'formaction="([^"]+)">Replace it with mine', page).group(1)
    response = phone.post(replace, data=dict(fields(page, action=f"/games/{game_id}/deals/new"), action="save"))
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/games/{game_id}#main")
    assert stored_deals(app, game_id) == [(1, -15, 2), 2]  # this phone's entries; the saved ones in its history
    with app.app_context():
        history = reading.history(game_id, 1)
    assert [(h["action"], h["old_totals"], h["new_totals"]) for h in history] == [
        ("record", None, {"Ann": 1060, "Bea": 5}), ("edit", {"Ann": 1060, "Bea": 5}, {"Ann": 1060, "Bea": -15})]


def test_replace_it_with_mine_is_refused_when_the_saved_deal_changed_again(app, phone, other_phone):
    game_id, mine, theirs = both_on_record_deal_1(app, phone, other_phone)
    page = text(phone.post(f"/games/{game_id}/deals/new", data=mine))
    url = f"/games/{game_id}/deals/1/edit"
    correction = fields(text(other_phone.get(url)), action=url)
    correction.update({"s1-p0-c-A": "3", "action": "save"})
    assert other_phone.post(url, data=correction).status_code == 303  # revision 2
    replace = re.search(r'formaction="([^"]+)">Replace it with mine', page).group(1)
    response = phone.post(replace, data=dict(fields(page, action=f"/games/{game_id}/deals/new"), action="save"))
    assert response.status_code == 409  # based on the deal as the conflict showed it, revision 1
    assert "Deal 1 was corrected a moment ago" in html.unescape(text(response))
    assert stored_deals(app, game_id) == [(1, -35, 2), 2]


def test_a_stale_deal_form_keeps_its_deal_number_and_what_was_typed(app, phone, other_phone):
    game_id = start(phone)
    phone.post(f"/games/{game_id}/deals/new", data=valid_deal(phone, game_id))  # deal 1, revision 1
    edit_link(other_phone, app, game_id)
    mine = valid_deal(phone, game_id)  # the form for deal 2, at revision 1
    mine["s1-p0-c-A"] = "2"
    url = f"/games/{game_id}/deals/1/edit"
    correction = fields(text(other_phone.get(url)), action=url)
    correction.update({"s1-p0-c-A": "3", "action": "save"})
    assert other_phone.post(url, data=correction).status_code == 303  # deal 1 corrected, revision 2

    response = phone.post(f"/games/{game_id}/deals/new", data=mine)
    page = text(response)
    assert response.status_code == 409
    assert "Deal 1 was corrected a moment ago; here is the game now." in html.unescape(page)
    conflict = re.search(r'<div class="warnings" id="conflict">(.*?)</div>', page, re.S).group(1)
    assert "Score after deal 1: Ann <strong>1,060</strong> · Bea <strong>-35</strong>." in conflict
    assert "<h1>Record deal 2</h1>" in page
    again = fields(page, action=f"/games/{game_id}/deals/new")
    assert (again["revision"], again["deal_number"]) == ("2", "2")
    for name, value in mine.items():  # nothing typed is lost
        if name not in ("revision", "action"):
            assert again.get(name, "") == value, name
    assert phone.post(f"/games/{game_id}/deals/new", data=dict(again, action="save")).status_code == 303
    assert stored_deals(app, game_id) == [(1, -35, 2), (2, -15, 1), 3]


def test_a_form_that_names_no_deal_number_records_the_next_deal(app, phone):
    """A form opened before forms named their deal (no ``deal_number``) keeps today's meaning."""
    game_id = start(phone)
    phone.post(f"/games/{game_id}/deals/new", data=valid_deal(phone, game_id))
    form = {k: v for k, v in valid_deal(phone, game_id).items() if k != "deal_number"}
    form["s1-p0-c-A"] = "2"
    assert phone.post(f"/games/{game_id}/deals/new", data=form).status_code == 303
    assert stored_deals(app, game_id) == [(1, 5, 1), (2, -15, 1), 2]


@pytest.mark.parametrize("sent", ["0", "101", "two", "٣", "-1", pytest.param("1" * 5000, id="5000-digits")])
def test_a_deal_number_no_game_could_have_is_a_400_and_saves_nothing(app, phone, sent):
    game_id = start(phone)
    response = phone.post(f"/games/{game_id}/deals/new", data=dict(valid_deal(phone, game_id), deal_number=sent))
    assert response.status_code == 400 and "deal number must be 1 to 100" in text(response)
    assert stored_deals(app, game_id) == [0]


# -- the same deal twice -----------------------------------------------------------------------------


def test_a_deal_the_same_as_the_one_before_it_is_refused_until_the_table_confirms_it(app, phone):
    game_id = start(phone)
    url = f"/games/{game_id}/deals/new"
    phone.post(url, data=valid_deal(phone, game_id))
    response = phone.post(url, data=valid_deal(phone, game_id))  # deal 2, every entry as deal 1's
    page = text(response)
    assert response.status_code == 422 and "<h1>Record deal 2</h1>" in page
    assert "Not saved: deal 2 is the same as deal 1, every side and the ending." in html.unescape(page)
    top = re.search(r'<div class="recorded" id="repeat">(.*?)</div>', page, re.S).group(1)
    bar = re.search(r'<div class="bar both" id="bar">(.*?)</div>', page, re.S).group(1)
    for part in (top, bar):
        assert 'name="action" value="repeat">Yes, record it again</button>' in part
    assert stored_deals(app, game_id) == [(1, 5, 1), 1]
    again = fields(page, action=url)
    assert phone.post(url, data=dict(again, action="save")).status_code == 422  # Save alone: asked again
    response = phone.post(url, data=dict(again, action="repeat"))
    assert response.status_code == 303 and response.headers["Location"].endswith("#main")
    assert stored_deals(app, game_id) == [(1, 5, 1), (2, 5, 1), 2]


def test_a_repeated_deal_confirmed_then_refused_by_the_referee_keeps_the_confirmation(app, phone):
    game_id = start(phone)
    url = f"/games/{game_id}/deals/new"
    broken = valid_deal(phone, game_id)
    broken.update({"s1-m0-cards": "A A 2 2", "reason": "we let it stand"})  # as many wilds as naturals
    assert phone.post(url, data=dict(broken, action="as_played")).status_code == 303
    page = text(phone.post(url, data=dict(valid_deal(phone, game_id), **{k: broken[k] for k in (
        "s1-m0-cards", "reason")}, action="as_played")))
    assert "is the same as deal 1" in html.unescape(page)
    response = phone.post(url, data=dict(fields(page, action=url), action="repeat"))
    assert response.status_code == 303  # the reason typed goes with it: saved as played, again
    with app.app_context():
        assert [d.as_played for d in reading.load_game(game_id).deals] == ["we let it stand"] * 2


def test_a_stale_correction_says_what_changed_and_keeps_what_was_typed(app, phone, other_phone):
    game_id = start(phone)
    phone.post(f"/games/{game_id}/deals/new", data=valid_deal(phone, game_id))
    edit_link(other_phone, app, game_id)
    url = f"/games/{game_id}/deals/1/edit"
    mine = fields(text(phone.get(url)), action=url)
    theirs = fields(text(other_phone.get(url)), action=url)
    theirs["s1-p0-c-A"] = ""
    assert other_phone.post(url, data=dict(theirs, action="save")).status_code == 303
    mine["s1-p0-c-A"] = "3"
    response = phone.post(url, data=dict(mine, action="save"))
    assert response.status_code == 409
    assert "Deal 1 was corrected a moment ago; here is the game now." in html.unescape(text(response))
    again = fields(text(response), action=url)
    assert again["s1-p0-c-A"] == "3" and again["revision"] == "2"
    assert phone.post(url, data=dict(again, action="save")).status_code == 303


def test_a_stale_delete_is_refused_and_says_what_changed(app, phone, other_phone):
    game_id = start(phone)
    phone.post(f"/games/{game_id}/deals/new", data=valid_deal(phone, game_id))
    url = f"/games/{game_id}/deals/1/delete"
    form = fields(text(phone.get(url)), action=url)
    edit_link(other_phone, app, game_id)
    other = dict(valid_deal(other_phone, game_id), **{"s1-p0-c-A": "2"})  # not deal 1 again
    assert other_phone.post(f"/games/{game_id}/deals/new", data=other).status_code == 303  # deal 2
    response = phone.post(url, data=form)
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/games/{game_id}/deals/1")
    shown = html.unescape(text(phone.get(response.headers["Location"])))
    assert "Not deleted: the game changed since you loaded it. Deal 2 was recorded a moment ago; here it is now." \
        in shown
    with app.app_context():
        assert [d.number for d in reading.load_game(game_id).deals] == [1, 2]


def test_a_stale_sheet_amendment_keeps_the_sheet_and_can_be_sent_again(app, phone, other_phone):
    game_id = start(phone)
    url = f"/games/{game_id}/sheet/amend"
    form = fields(text(phone.get(url)), action=url)
    form.update({"opt-going_out_bonus-1": "250", "reason": "we always play 250"})
    edit_link(other_phone, app, game_id)
    other_phone.post(f"/games/{game_id}/deals/new", data=valid_deal(other_phone, game_id))
    response = phone.post(url, data=form)
    assert response.status_code == 409
    page = html.unescape(text(response))
    assert "Not amended: the game changed since you loaded it. Deal 1 was recorded a moment ago." in page
    again = fields(text(response), action=url)
    assert again["opt-going_out_bonus-1"] == "250" and again["reason"] == "we always play 250"
    assert again["revision"] == "1"
    assert phone.post(url, data=again).status_code == 303


def test_the_game_page_polls_its_revision_with_a_static_script(app, phone, other_phone):
    game_id = start(phone)
    for client in (phone, other_phone):  # the editor and a viewer
        page = text(client.get(f"/games/{game_id}"))
        assert '<script src="/static/live.js" defer></script>' in page
        assert re.search(r'<div id="live-game" data-revision="0" data-poll="/api/v1/games/[\w-]+/revision">', page)
        assert '<p class="vh" id="live-status" role="status"></p>' in page
        assert not re.search(r"<script(?![^>]*\bsrc=)", page)  # no inline script: the CSP forbids it
    script = (ROOT / "static" / "live.js").read_text()
    assert "data-revision" in script and "live-game" in script and "data-poll" in script
    assert phone.get("/static/live.js").status_code == 200


# -- racing phones on a real server -----------------------------------------------------------------


@pytest.fixture
def server(tmp_path) -> Iterator[tuple[int, Path]]:
    """The app under the production server on a free loopback port (CSRF on, as in production)."""
    database = tmp_path / "race.sqlite"
    with served(database, "race-test-secret") as base:
        yield int(base.rsplit(":", 1)[1]), database


class Phone:
    """One phone on its own keep-alive connection, keeping its session cookie."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookie = ""

    def request(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None,
                form: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        headers = dict(headers or {})
        data = None
        if body is not None:
            data, headers["Content-Type"] = json.dumps(body).encode(), "application/json"
        elif form is not None:
            from urllib.parse import urlencode
            data, headers["Content-Type"] = urlencode(form).encode(), "application/x-www-form-urlencoded"
        if self.cookie:
            headers["Cookie"] = self.cookie
        self.conn.request(method, path, body=data, headers=headers)
        response = self.conn.getresponse()
        raw = response.read()
        found = response.getheader("Set-Cookie")
        if found:
            self.cookie = found.split(";", 1)[0]
        return response.status, {k.lower(): v for k, v in response.getheaders()}, raw


def _page_deal(form: dict[str, str], marker: int) -> dict[str, str]:
    """The deal form filled in as :func:`deal_body` (a stock-out), by hand on the phone, in
    meld rows (without ``s{i}-mode=count`` a side is read itemised)."""
    data = {k: v for k, v in form.items() if not re.match(r"s\d-m\d+-|s\d-p\d-c-|s\d-mode$", k)}
    data.update({"s0-m0-rank": "K", "s0-m0-naturals": "3", "s1-m0-rank": "J", "s1-m0-naturals": "3",
                 "s0-p0-picked": "1", "s1-p0-picked": "1", "ending": "stock", "action": "save"})
    for i, card in enumerate(("4", "5", "6", "7")):
        count = (marker >> (3 * i)) & 7
        if count:
            data[f"s1-p0-c-{card}"] = str(count)
    return data


def test_phones_racing_on_one_game_get_each_write_applied_once_or_refused(server):  # noqa: C901 (one race checked as a whole)
    """Six phones (four on the API, two on the pages), twelve rounds. In each round every
    phone reads the game, all wait for each other, then each records the next deal or
    corrects one, based on the revision it read. A page phone whose form comes back 409
    sends it again once, as a player would. Afterwards the database must hold exactly the
    writes that were answered 2xx, each once, in revision order; the refused ones nowhere."""
    port, database = server
    host = Phone(port)
    status, _, raw = host.request("POST", f"{API}/games", {"name": "Race", "sheet": OPEN_ENDED, "sides": TWO})
    assert status == 201
    game_id, key = json.loads(raw)["id"], json.loads(raw)["edit_key"]
    base = f"{API}/games/{game_id}"
    auth = bearer(key)

    rounds, api_phones, page_phones = 12, 4, 2
    barrier = threading.Barrier(api_phones + page_phones)
    lock = threading.Lock()
    outcomes: list[dict[str, Any]] = []  # every write attempt: phone, round, marker, first, status, revision
    failures: list[str] = []
    markers = iter(range(1, 4096))

    def note(**outcome: Any) -> None:
        with lock:
            outcomes.append(outcome)

    def next_marker() -> int:
        with lock:
            return next(markers)

    def api_phone(n: int) -> None:
        me, rng = Phone(port), random.Random(n)
        for r in range(rounds):
            status, _, raw = me.request("GET", base)
            game = json.loads(raw)
            marker = next_marker()
            barrier.wait()
            if game["deals"] and rng.random() < 0.4:
                number = rng.choice(game["deals"])["number"]
                status, _, raw = me.request("PUT", f"{base}/deals/{number}",
                                            {**deal_body(marker), "revision": game["revision"]}, auth)
            else:
                status, _, raw = me.request("POST", f"{base}/deals",
                                            {**deal_body(marker), "revision": game["revision"]}, auth)
            body = json.loads(raw)
            if status == 409 and body["error"]["field"] == "revision":
                assert body["changes"] and all(c["revision"] > game["revision"] for c in body["changes"])
            note(phone=f"api{n}", round=r, marker=marker, first=True, status=status,
                 revision=body.get("revision") if status < 300 else None)
            barrier.wait()

    def page_phone(n: int) -> None:
        me, rng = Phone(port), random.Random(100 + n)
        assert me.request("GET", f"/games/{game_id}/edit/{key}")[0] == 303
        for r in range(rounds):
            status, _, raw = me.request("GET", base)
            numbers = [d["number"] for d in json.loads(raw)["deals"]]
            url = (f"/games/{game_id}/deals/{rng.choice(numbers)}/edit" if numbers and rng.random() < 0.4
                   else f"/games/{game_id}/deals/new")
            status, _, raw = me.request("GET", url)
            form = fields(raw.decode(), action=url)
            marker = next_marker()
            barrier.wait()
            status, _, raw = me.request("POST", url, form=_page_deal(form, marker))
            note(phone=f"page{n}", round=r, marker=marker, first=True, status=status, revision=None)
            if status == 409:  # the form comes back based on the game now: send it again
                said = html.unescape(raw.decode())
                # Its deal recorded first by another phone: replace it with this one (a correction),
                # never saved as the next deal; else what changed, and the same form again.
                taken = re.search(r'formaction="([^"]+)">Replace it with mine', said)
                if not taken and "the game changed since you loaded it" not in said:
                    failures.append(f"page{n} round {r}: a 409 without the changes or the deal as saved")
                if "Save deal" in said and taken:
                    failures.append(f"page{n} round {r}: a recorded deal's form offers to save another")
                again = fields(raw.decode(), action=url)
                status, _, raw = me.request("POST", taken.group(1) if taken else url, form=dict(again, action="save"))
                note(phone=f"page{n}", round=r, marker=marker, first=False, status=status, revision=None)
            barrier.wait()

    errors: list[BaseException] = []

    def guarded(target):
        def run(*args):
            try:
                target(*args)
            except BaseException as err:  # noqa: BLE001  (reported below; the barrier frees the others)
                errors.append(err)
                barrier.abort()
        return run

    threads = [threading.Thread(target=guarded(api_phone), args=(n,)) for n in range(api_phones)]
    threads += [threading.Thread(target=guarded(page_phone), args=(n,)) for n in range(page_phones)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors
    assert not failures, failures

    # Every attempt was applied (2xx; 303 for a page) or refused with 409: nothing else.
    assert {o["status"] for o in outcomes} <= {200, 201, 303, 409}, outcomes
    applied = [o for o in outcomes if o["status"] != 409]
    refused = {o["marker"] for o in outcomes} - {o["marker"] for o in applied}
    # In every round all first attempts were based on the same revision: exactly one won.
    for r in range(rounds):
        assert sum(1 for o in applied if o["round"] == r and o["first"]) == 1, r
    assert refused, "the phones never collided"

    conn = sqlite3.connect(database)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        history = conn.execute("SELECT revision, action, deal_number, after FROM history WHERE game_id = ? "
                               "ORDER BY id", (game_id,)).fetchall()
        (revision,) = conn.execute("SELECT revision FROM game WHERE id = ?", (game_id,)).fetchone()
        deals = dict(conn.execute("SELECT number, body FROM deal WHERE game_id = ?", (game_id,)).fetchall())
    finally:
        conn.close()
    stored = [marker_of(json.loads(after)) for _, _, _, after in history]
    # Never lost, never doubled: the history holds each applied write once, and nothing else.
    assert sorted(stored) == sorted(o["marker"] for o in applied)
    assert not set(stored) & refused
    # One revision per applied write, in order; the API's answers name theirs.
    assert [rev for rev, _, _, _ in history] == list(range(1, len(applied) + 1)) and revision == len(applied)
    by_marker = {m: rev for (rev, _, _, _), m in zip(history, stored, strict=True)}
    for o in applied:
        if o["revision"] is not None:
            assert by_marker[o["marker"]] == o["revision"], o
    # Each deal holds the last write to it.
    last: dict[int, int] = {}
    for (_, action, number, _), marker in zip(history, stored, strict=True):
        assert action in ("record", "edit")
        last[number] = marker
    assert {n: marker_of(json.loads(body)) for n, body in deals.items()} == last
    assert sorted(deals) == list(range(1, len(deals) + 1))


def test_a_write_allowed_with_an_edit_key_replaced_before_it_was_made_is_refused(app):
    """One phone's write is allowed with the edit key at the door, then waits (another write
    holds the lock) while a second phone replaces the edit link: when its turn comes, the game
    has another key, so nothing is written and it is told so (KeyReplaced), rather than
    prepared again and saved with the old key. Every write of the store, each given the key the
    door allowed it with; the same writes with the key as it is now go through."""
    game_id, old = api_game(app.test_client(), deals=[deal(1)])
    with app.app_context():
        new = writing.replace_edit_key(game_id, key=old).edit_key
        before = db_state(app)
        writes = {
            "record": lambda key: writing.record_deal(game_id, deal(2), key=key, repeat=True),
            "correct": lambda key: writing.update_deal(game_id, 1, deal(1), as_played="as we played it",
                                                              key=key),
            "delete a deal": lambda key: writing.delete_deal(game_id, 1, key=key),
            "amend": lambda key: writing.amend_sheet(game_id, "pagat", "we play Pagat's", key=key),
            "replace the key": lambda key: writing.replace_edit_key(game_id, key=key),
            "delete the game": lambda key: writing.delete_game(game_id, key=key),
        }
        for name, write in writes.items():
            with pytest.raises(KeyReplaced) as refused:
                write(old)
            assert refused.value.at is not None, name  # when it was replaced, to say so
        assert db_state(app) == before  # nothing written
        assert writing.record_deal(game_id, deal(2), key=new, repeat=True).number == 2
