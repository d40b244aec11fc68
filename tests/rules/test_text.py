"""Text nobody types (lone surrogates, control characters) is refused in every text field,
naming the field, whichever door it comes in by; text stored before the check still shows.

The check is one function of the rules core (:func:`scorepad.rules.text.check_text`); these
tests go through the real doors: the API, an import, the pages' forms, ``flask game``/``flask
deal`` and ``scorepad score`` as subprocesses, and a SQLite file changed behind the app's back.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from scorepad.rules import Deal, ReadError
from scorepad.rules.text import check_text, untyped
from tests.helpers import ANN_BEA, api_game, assert_error_shape, bearer, dump, form_fields, grant, text_of, valid_deal

ROOT = Path(__file__).resolve().parents[2]
SURROGATE, NUL, BELL, ESC, TAB, CR = "\udc00", "\x00", "\x07", "\x1b", "\t", "\r"


def test_untyped_is_exactly_the_categories_cs_and_cc():
    every = "".join(map(chr, range(0x110000)))
    for multiline in (False, True):
        found = {ch for ch in every if untyped(ch, multiline)}
        wanted = {ch for ch in every if unicodedata.category(ch) in ("Cs", "Cc") and not (multiline and ch == "\n")}
        assert found == wanted


def test_a_name_with_untyped_text_is_a_read_error_naming_the_field():
    deal = valid_deal(1)
    deal["sides"][0]["players"][0]["name"] = "A" + SURROGATE
    with pytest.raises(ReadError) as err:
        Deal.from_json({**deal, "sheet": "common"})
    assert err.value.field == "sides[0].players[0].name"
    assert "U+DC00" in err.value.reason
    assert check_text("two\nlines", "reason", multiline=True) == "two\nlines"
    for bad in (TAB, CR, NUL):
        with pytest.raises(ReadError):
            check_text(f"two{bad}lines", "reason", multiline=True)


# -- the API --------------------------------------------------------------------------------------


def _with(data, path, value):
    data = json.loads(json.dumps(data))
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


NEW_GAME = {"name": "Friday", "sheet": "common", "sides": ANN_BEA}


@pytest.mark.parametrize("path, value, field", [
    (("name",), "Fri" + SURROGATE, "name"),
    (("name",), "Fri" + NUL + "day", "name"),
    (("sides", 0, "name"), "A" + ESC + "nn", "sides[0].name"),
    (("sides", 1, "players", 0), "B" + BELL, "sides[1].players[0]"),
    (("sides", 1, "players", 0), "B" + TAB + "ea", "sides[1].players[0]"),
])
def test_the_api_refuses_a_new_game_with_untyped_text_naming_the_field(client, app, path, value, field):
    before = dump(app.config["DATABASE"])
    response = client.post("/api/v1/games", json=_with(NEW_GAME, path, value))
    assert_error_shape(response, 400, field)
    assert dump(app.config["DATABASE"]) == before


@pytest.mark.parametrize("path, value, field", [
    (("sides", 0, "players", 0, "name"), "A" + SURROGATE, "sides[0].players[0].name"),
    (("sides", 1, "name"), "Bea" + NUL, "sides[1].name"),
    (("went_out",), "Ann" + CR, "went_out"),
    (("sides", 0, "melds", 0), "K K K K" + NUL + " K K K", "sides[0].melds[0]"),
    (("sides", 1, "players", 0, "cards_left"), "A " + SURROGATE, "sides[1].players[0].cards_left"),
    (("sides", 1, "players", 0, "cards_left"), "A" + TAB + "3B", "sides[1].players[0].cards_left"),
    (("as_played",), {"reason": "we agreed" + NUL}, "as_played.reason"),
    (("as_played",), {"reason": "we" + TAB + "agreed"}, "as_played.reason"),
])
def test_the_api_refuses_a_deal_with_untyped_text_naming_the_field(client, app, path, value, field):
    game, key = api_game(client)
    before = dump(app.config["DATABASE"])
    response = client.post(f"/api/v1/games/{game}/deals", json=_with(valid_deal(1), path, value),
                           headers=bearer(key))
    assert_error_shape(response, 400, field)
    assert dump(app.config["DATABASE"]) == before
    scored = client.post("/api/v1/score", json=_with({**valid_deal(1), "sheet": "common"}, path, value))
    if path[0] != "as_played":
        assert_error_shape(scored, 400, field)


def test_a_reason_may_run_over_lines_but_holds_no_other_control_character(client):
    game, key = api_game(client)
    deal = valid_deal(1)
    deal["went_out"] = "Bea"  # Bea went out with no books: a violation, kept only as played
    response = client.post(f"/api/v1/games/{game}/deals", headers=bearer(key),
                           json={**deal, "as_played": {"reason": "we agreed\nto let it stand"}})
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["as_played"] == "we agreed\nto let it stand"
    amend = client.put(f"/api/v1/games/{game}/sheet", headers=bearer(key),
                       json={"sheet": "common", "reason": "house rule" + ESC})
    assert_error_shape(amend, 400, "reason")


# -- an import --------------------------------------------------------------------------------------


@pytest.mark.parametrize("path, field", [
    (("name",), "name"),
    (("sides", 0, "players", 0), "sides[0].players[0]"),
    (("deals", 0, "deal", "sides", 0, "name"), "deals[0].deal.sides[0].name"),
    (("deals", 0, "as_played"), "deals[0].as_played"),
    (("deals", 0, "history", 0, "reason"), "deals[0].history[0].reason"),
    (("deals", 0, "history", 0, "after", "went_out"), "deals[0].history[0].after.went_out"),
])
def test_an_import_with_untyped_text_is_refused_naming_the_field(client, app, path, field):
    game, key = api_game(client)
    client.post(f"/api/v1/games/{game}/deals", json={**valid_deal(1), "as_played": {"reason": "fine"}},
                headers=bearer(key))
    document = json.loads(client.get(f"/api/v1/games/{game}/export").get_data())
    for bad in (SURROGATE, NUL, TAB):
        before = dump(app.config["DATABASE"])
        response = client.post("/api/v1/games/import", json=_with(document, path, "An" + bad + "n"))
        assert_error_shape(response, 400, field)
        page = client.post("/import", data={"document": json.dumps(_with(document, path, "An" + bad + "n"))})
        assert page.status_code == 400
        assert field in text_of(page.get_data(as_text=True))
        assert dump(app.config["DATABASE"]) == before


def test_an_import_naming_a_side_with_untyped_text_in_its_totals_is_refused(client):
    game, key = api_game(client)
    client.post(f"/api/v1/games/{game}/deals", json=valid_deal(1), headers=bearer(key))
    document = json.loads(client.get(f"/api/v1/games/{game}/export").get_data())
    document["deals"][0]["history"][0]["new_totals"] = {"Ann" + SURROGATE: 10, "Bea": 0}
    response = client.post("/api/v1/games/import", json=document)
    assert_error_shape(response, 400)
    assert response.get_json()["error"]["field"].startswith("deals[0].history[0].new_totals")


def test_the_import_page_answers_a_document_whose_unknown_key_is_a_lone_surrogate(client):
    document = {"format": "scorepad.game", "version": 1, "name": "x", "sheet": "common", "sides": ANN_BEA,
                "a" + SURROGATE: 1}
    response = client.post("/import", data={"document": json.dumps(document)})
    assert response.status_code == 400
    assert "Is not a field here" in response.get_data(as_text=True)


# -- the pages --------------------------------------------------------------------------------------


def _new_game_form(client, **changes):
    form = form_fields(client.get("/new").get_data(as_text=True), "/new")
    return {**form, "side-0-p0": "Ann", "side-1-p0": "Bea", **changes}


def test_the_new_game_page_shows_the_name_field_s_own_error(client, app):
    assert client.post("/new", data=_new_game_form(client)).status_code == 303  # the form as sent is good
    before = dump(app.config["DATABASE"])
    response = client.post("/new", data=_new_game_form(client, name="Fri" + NUL + "day"))
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert '<p class="error">Holds U+0000, a control character' in page
    assert dump(app.config["DATABASE"]) == before


def test_the_new_game_page_shows_a_player_name_s_error_on_its_row(client, app):
    before = dump(app.config["DATABASE"])
    response = client.post("/new", data=_new_game_form(client, **{"side-1-p0": "B" + BELL + "ea"}))
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert 'id="side-1-error"' in page and "U+0007" in page
    assert dump(app.config["DATABASE"]) == before


def test_the_deal_form_shows_the_reason_s_and_the_cards_own_errors(client, app):
    game, key = api_game(client)
    grant(client, game, key)
    form = {"s0-m0-cards": "K K K K K K K", "s0-m1-cards": "Q Q Q Q Q 2 2", "ending": "s1-p0",
            "action": "as_played", "reason": "we" + ESC + "agreed"}
    before = dump(app.config["DATABASE"])
    response = client.post(f"/games/{game}/deals/new", data=form)
    assert response.status_code == 400
    assert '<p class="error">Holds U+001B, a control character' in response.get_data(as_text=True)
    response = client.post(f"/games/{game}/deals/new", data={**form, "reason": "fine", "s1-m0-cards": "J J" + NUL})
    assert response.status_code == 400
    assert "U+0000" in response.get_data(as_text=True)
    assert dump(app.config["DATABASE"]) == before


def test_the_amend_page_shows_the_reason_s_own_error(client, app):
    game, key = api_game(client)
    grant(client, game, key)
    before = dump(app.config["DATABASE"])
    response = client.post(f"/games/{game}/sheet/amend", data={"preset": "common", "reason": "house" + BELL})
    assert response.status_code == 400
    assert 'id="reason-error">Holds U+0007, a control character' in response.get_data(as_text=True)
    assert dump(app.config["DATABASE"]) == before


# -- the command line -------------------------------------------------------------------------------


def _flask(tmp_path, *argv, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "SCOREPAD_DATABASE": str(tmp_path / "cli.sqlite"), "SCOREPAD_SECRET_KEY": "cli"}
    return subprocess.run([sys.executable, "-m", "flask", "--app", "scorepad", *argv], cwd=ROOT, env=env,
                          input=stdin, capture_output=True, timeout=60)


def test_flask_game_new_refuses_untyped_text_with_exit_2_naming_the_field(tmp_path):
    for name in (b"Fri\x01day", b"Fri\xffday"):  # \xff reaches Python as a lone surrogate (surrogateescape)
        done = _flask(tmp_path, "game", "new", "--name", name, "--sheet", "common", "--side", "Ann", "--side", "Bea")
        assert done.returncode == 2, done.stderr
        assert b"Error: name: holds U+" in done.stderr and b"Traceback" not in done.stderr
    done = _flask(tmp_path, "game", "new", "--name", "Friday", "--sheet", "common", "--side", "Ann",
                  "--side", b"B\x1bea")
    assert done.returncode == 2 and b"Error: sides[1].name: holds U+001B" in done.stderr, done.stderr
    assert b"Friday" not in _flask(tmp_path, "game", "list").stdout


def test_flask_deal_record_refuses_untyped_text_with_exit_2_naming_the_field(tmp_path):
    made = _flask(tmp_path, "game", "new", "--name", "Friday", "--sheet", "common", "--side", "Ann", "--side", "Bea")
    assert made.returncode == 0, made.stderr
    game = dict(line.split(": ", 1) for line in made.stdout.decode().splitlines())["id"]
    deal = valid_deal(None)
    deal["sides"][0]["players"][0]["name"] = "A" + SURROGATE
    done = _flask(tmp_path, "deal", "record", game, "-", stdin=json.dumps(deal).encode())
    assert done.returncode == 2, done.stderr
    assert b"Error: sides[0].players[0].name: holds U+DC00" in done.stderr
    done = _flask(tmp_path, "deal", "record", game, "-", "--as-played", "fine" + "\x02",
                  stdin=json.dumps(valid_deal(None)).encode())
    assert done.returncode == 2 and b"as_played.reason: holds U+0002" in done.stderr, done.stderr


def test_scorepad_score_refuses_untyped_text_with_exit_2_naming_the_field():
    deal = {**valid_deal(1), "sheet": "common", "went_out": "Ann" + NUL}
    done = subprocess.run([sys.executable, "-m", "scorepad.cli", "score", "-"], cwd=ROOT, capture_output=True,
                          input=json.dumps(deal), text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.startswith("scorepad: standard input: went_out: holds U+0000"), done.stderr


# -- text stored before the check ---------------------------------------------------------------------


def _poison(path: str, game: str, good: str, bad: str) -> None:
    """Rename ``good`` to ``bad`` everywhere in the game's stored JSON, as the old code let
    the API store it (JSON escapes the lone surrogate, so SQLite takes it)."""
    def swap(value):
        if isinstance(value, str):
            return bad if value == good else value
        if isinstance(value, list):
            return [swap(v) for v in value]
        if isinstance(value, dict):
            return {swap(k): swap(v) for k, v in value.items()}
        return value

    def redo(text):
        return None if text is None else json.dumps(swap(json.loads(text)))

    with sqlite3.connect(path) as conn:
        sides = conn.execute("SELECT sides FROM game WHERE id = ?", (game,)).fetchone()[0]
        conn.execute("UPDATE game SET sides = ?, revision = revision + 1 WHERE id = ?", (redo(sides), game))
        for number, body in conn.execute("SELECT number, body FROM deal WHERE game_id = ?", (game,)).fetchall():
            conn.execute("UPDATE deal SET body = ? WHERE game_id = ? AND number = ?", (redo(body), game, number))
        for row in conn.execute("SELECT rowid, before, after, old_totals, new_totals FROM history "
                                "WHERE game_id = ?", (game,)).fetchall():
            conn.execute("UPDATE history SET before = ?, after = ?, old_totals = ?, new_totals = ? WHERE rowid = ?",
                         (*map(redo, row[1:]), row[0]))
    conn.close()


def test_a_name_stored_with_a_lone_surrogate_still_shows_on_every_page(app, client):
    game, key = api_game(client)
    assert client.post(f"/api/v1/games/{game}/deals", json=valid_deal(1), headers=bearer(key)).status_code == 201
    _poison(app.config["DATABASE"], game, "Ann", "A" + SURROGATE)
    victim = app.test_client()  # a page elsewhere sent this browser to the edit link
    assert victim.get(f"/games/{game}/edit/{key}").status_code == 303
    for url in ("/", f"/games/{game}", f"/games/{game}/deals/1", f"/games/{game}/history",
                f"/games/{game}/referee", f"/games/{game}/deals/1/edit",
                f"/games/{game}/deals/new", f"/games/{game}/rescore?sheet=pagat"):
        for who in (victim, client):
            response = who.get(url)
            assert response.status_code in (200, 403), (url, response.status_code)
            if response.status_code == 200 and (who is victim or url != "/"):
                assert "A\ufffd" in response.get_data(as_text=True), url
    for url in (f"/games/{game}/sheet", f"/games/{game}/scores.csv", f"/api/v1/games/{game}/scores.csv",
                f"/games/{game}/export.json", f"/api/v1/games/{game}/export", f"/api/v1/games/{game}",
                f"/api/v1/games/{game}/history",
                f"/games/{game}/results.pdf", f"/games/{game}/pad.pdf", f"/games/{game}/sheet.pdf"):
        assert client.get(url).status_code == 200, url
    document = json.loads(client.get(f"/api/v1/games/{game}/export").get_data())
    assert document["sides"][0]["name"] == "A\ufffd"
    assert client.post("/api/v1/games/import", json=document).status_code == 201  # and it comes back in
    deal = valid_deal(2, ann="A\ufffd")  # the table plays on under the name as shown
    assert client.post(f"/api/v1/games/{game}/deals", json={**deal, "repeat": True},
                       headers=bearer(key)).status_code == 201



def test_a_name_stored_unescaped_reads_as_a_replacement_in_the_deals_and_the_history(app, client):
    """Stored JSON written without escaping (a raw DEL, U+007F, as another writer than
    json.dumps's default might keep it) is read through the same check as JSON holding an escape."""
    game, key = api_game(client)
    assert client.post(f"/api/v1/games/{game}/deals", json=valid_deal(1), headers=bearer(key)).status_code == 201
    changed = valid_deal(1)
    changed["sides"][1]["melds"] = ["J J J J"]
    assert client.put(f"/api/v1/games/{game}/deals/1", json=changed, headers=bearer(key)).status_code == 200
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        for table, columns in (("game", ("sides",)), ("deal", ("body",)), ("history", ("before", "after"))):
            for row in conn.execute(f"SELECT rowid, {', '.join(columns)} FROM {table}").fetchall():
                texts = [None if t is None else
                         json.dumps(json.loads(t), ensure_ascii=False).replace('"Ann"', '"A\x7f"') for t in row[1:]]
                conn.execute(f"UPDATE {table} SET {', '.join(c + ' = ?' for c in columns)} WHERE rowid = ?",
                             (*texts, row[0]))
        conn.execute("UPDATE game SET revision = revision + 1")
    conn.close()
    document = client.get(f"/api/v1/games/{game}").get_json()
    assert document["sides"][0]["name"] == "A\ufffd"
    assert document["deals"][0]["deal"]["sides"][0]["name"] == "A\ufffd"
    corrected = [e for e in client.get(f"/api/v1/games/{game}/history").get_json()["history"] if e["action"] == "edit"]
    assert [s["name"] for s in corrected[0]["after"]["sides"]] == ["A\ufffd", "Bea"]
    assert "A\ufffd" in client.get(f"/games/{game}/history").get_data(as_text=True)
