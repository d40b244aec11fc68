"""Stored sheets outlive the presets and options they were made with (issue 8, item 17).

A stored sheet missing an option added since loads with the option's default; a game keeps
its sheet, and what it changed against the preset version it was made from, when a preset
later changes; and migration 0003 rewrites an older database's sheets in full, its games
scoring the same. Each test runs the real app on a real SQLite file.
"""

from __future__ import annotations

import io
import json
import sqlite3
from importlib import resources
from pathlib import Path

import pytest
from pypdf import PdfReader

from scorepad.app import create_app
from scorepad.rules import OPTIONS, PRESETS, Deal, judge, load_sheet, preset
from scorepad.rules.catalogue import OPTION_BY_NAME
from scorepad.rules.errors import SheetError
from scorepad.rules.sheet import SHEET_SCHEMA
from scorepad.storage import db
from tests.helpers import api_game

API = "/api/v1"
PARTNERS = [{"name": "North-South", "players": ["Ann", "Cal"]}, {"name": "East-West", "players": ["Bea", "Dan"]}]
SINGLES = [{"name": "Ann", "players": ["Ann"]}, {"name": "Bea", "players": ["Bea"]}]
VERSIONS_FILE = Path(__file__).parent.parent / "data" / "preset-versions.json"
# The rules each released version printed beside its options (Preset.fixed) before they
# became its house_rules: what a stored sheet of that version reads there.
PRINTED_BEFORE_HOUSE_RULES = {
    "progressive@1": ["A player picks up the foot only once every card of the hand has been played."],
}


def app_on(path: Path):
    """The app on ``path`` as it is: these tests make their own files, one from before migration 0003."""
    return create_app({"TESTING": True, "DATABASE": str(path), "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False})


def partners_deal(number: int = 1) -> dict:
    """A deal that ends with the stock: North-South melded kings and laid a red three."""
    return {"deal": number, "ending": "stock_out", "sides": [
        {"name": "North-South", "melds": ["K K K"], "red_threes": 1,
         "players": [{"name": "Ann", "foot_picked_up": True}, {"name": "Cal", "foot_picked_up": True}]},
        {"name": "East-West", "melds": ["Q Q Q"],
         "players": [{"name": "Bea", "foot_picked_up": True, "cards_left": "4"},
                     {"name": "Dan", "foot_picked_up": True}]}]}


def singles_deal(number: int = 1) -> dict:
    """Ann goes out with a clean and a dirty book and a red three; Bea holds an ace and a black three."""
    return {"deal": number, "ending": "went_out", "went_out": "Ann", "sides": [
        {"name": "Ann", "melds": ["K K K K K K K", "Q Q Q Q Q 2 2"], "red_threes": 1,
         "players": [{"name": "Ann", "foot_picked_up": True}]},
        {"name": "Bea", "melds": ["J J J"],
         "players": [{"name": "Bea", "foot_picked_up": True, "cards_left": "A 3B"}]}]}


def copy_database(source: Path, target: Path) -> None:
    """A consistent copy (SQLite's backup API): the app reading it starts with nothing cached."""
    with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
        src.backup(dst)


def record(client, game_id: str, key: str, deal: dict) -> None:
    response = client.post(f"{API}/games/{game_id}/deals", json=deal, headers={"Authorization": f"Bearer {key}"})
    assert response.status_code == 201, response.get_json()


def totals(body: dict) -> dict[str, int]:
    return {s["name"]: s["total"] for s in body["standings"]}


# -- an option added after a sheet was stored ------------------------------------------------


def test_every_option_declares_a_default_that_the_sheet_accepts():
    sheet = load_sheet({}, stored=True)  # a stored sheet that gives nothing: every default
    for option in OPTIONS:
        assert getattr(sheet, option.name) == option.default
    assert sheet.preset is None


def test_a_stored_sheet_missing_a_newer_option_loads_with_the_options_default():
    old = preset("common").replace(cut_bonus=100).to_json(full=True)
    del old["preset"], old["preset_version"], old["cut_bonus"]  # a sheet of its own, from before the cut bonus
    sheet = load_sheet(old, stored=True)
    assert sheet.cut_bonus == OPTION_BY_NAME["cut_bonus"].default == 0
    with pytest.raises(SheetError) as caught:  # a sheet someone sends now must still say everything
        load_sheet(old)
    assert caught.value.field == "sheet.cut_bonus"


def test_a_game_stored_before_an_option_existed_loads_and_scores(tmp_path):
    path = tmp_path / "scorepad.sqlite"
    app = app_on(path)
    client = app.test_client()
    own = preset("common").to_json(full=True)
    del own["preset"], own["preset_version"]
    game_id, key = api_game(client, "Club", own, SINGLES)
    record(client, game_id, key, singles_deal())
    old = dict(own)
    del old["cut_bonus"]
    with sqlite3.connect(path) as conn:  # the row as a scorepad without the cut bonus wrote it
        conn.execute("UPDATE game SET sheet = ? WHERE id = ?", (json.dumps(old), game_id))
    copy_database(path, tmp_path / "later.sqlite")
    later = app_on(tmp_path / "later.sqlite").test_client()
    response = later.get(f"{API}/games/{game_id}")
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    body = response.get_json()
    assert body["sheet"]["cut_bonus"] == 0
    # 70 + 50 + 40 card points, 500 + 300 books, 100 red three, 100 going out
    assert totals(body) == {"Ann": 1160, "Bea": 5}
    assert later.get(f"/games/{game_id}").status_code == 200


# -- a preset that changes after games were made from it --------------------------------------


def test_changing_a_presets_default_changes_no_stored_game_nor_what_it_changed(tmp_path, monkeypatch):
    path = tmp_path / "scorepad.sqlite"
    client = app_on(path).test_client()
    game_id, key = api_game(client, "Club", {"preset": "pagat", "hand_size": 11}, PARTNERS)
    record(client, game_id, key, partners_deal())
    before = client.get(f"{API}/games/{game_id}").get_json()
    version = PRESETS["pagat"].version
    assert before["sheet"] == {"preset": "pagat", "preset_version": version, "hand_size": 11}
    # 3 kings (30) and a red three laid (+100); 3 queens (30), a 4 in hand (-5)
    assert totals(before) == {"North-South": 130, "East-West": 25}

    # A later scorepad ships Pagat's sheet with a new version: a red three is worth 300 and
    # the hand is 11 cards, as this table already plays it.
    monkeypatch.setitem(PRESETS, "pagat", PRESETS["pagat"].revised(red_three_bonus=300, hand_size=11))
    copy_database(path, tmp_path / "later.sqlite")
    later = app_on(tmp_path / "later.sqlite").test_client()
    after = later.get(f"{API}/games/{game_id}").get_json()
    assert after["sheet"] == before["sheet"]
    assert after["sheet_changes"] == before["sheet_changes"] == [
        {"option": "hand_size", "label": "Cards in the hand", "preset_value": "13", "value": "11"}]
    assert totals(after) == totals(before)
    page = later.get(f"/games/{game_id}/sheet").get_data(as_text=True)
    assert "Changed from the preset" in page and "(preset: 13)" in page
    pdf = later.get(f"/games/{game_id}/sheet.pdf")
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.data)).pages)
    assert "Changed from the preset (1)" in text

    # A game made now starts from the new version, and changes nothing against it.
    fresh_id, _ = api_game(later, "Club", "pagat", PARTNERS)
    fresh = later.get(f"{API}/games/{fresh_id}").get_json()
    assert fresh["sheet"] == {"preset": "pagat", "preset_version": version + 1}
    assert fresh["sheet_changes"] == []
    listed = {s["id"]: s["preset_version"] for s in later.get(f"{API}/sheets").get_json()["sheets"]}
    assert listed["pagat"] == version + 1 and listed["common"] == 1


def test_a_sheet_names_the_preset_version_it_changes(monkeypatch):
    original = preset("common")
    revised = PRESETS["common"].revised(hand_size=13)
    monkeypatch.setitem(PRESETS, "common", revised)
    assert revised.version == 2 and revised.versions[1] == original and preset("common").hand_size == 13
    sheet = revised.sheet.replace(hand_size=11)
    assert sheet.preset_version == 2
    assert sheet.to_json() == {"preset": "common", "preset_version": 2, "hand_size": 11}
    older = load_sheet({"preset": "common", "preset_version": 1, "hand_size": 13})
    assert older == revised.sheet  # the same values as version 2 ...
    assert [(c.option, c.preset_value) for c in older.changes()] == [("hand_size", "11")]  # ... a change to 1
    assert revised.sheet.brief_json() == "common"
    assert older.brief_json() == {"preset": "common", "preset_version": 1, "hand_size": 13}


def test_an_unknown_preset_version_or_schema_is_refused_naming_the_field():
    with pytest.raises(SheetError) as caught:
        load_sheet({"preset": "pagat", "preset_version": 9})
    assert caught.value.field == "sheet.preset_version"
    with pytest.raises(SheetError) as caught:
        load_sheet({"schema": SHEET_SCHEMA + 1, "preset": "pagat"}, stored=True)
    assert caught.value.field == "sheet.schema"


@pytest.mark.parametrize("version", [[1], {"v": 1}, "1", 1.5, True])
def test_a_preset_version_that_is_not_a_whole_number_is_refused_naming_the_field(tmp_path, version):
    """Found by the engine's property test: a list or an object here raised TypeError (a 500
    through the API) where every other bad value is refused naming the field."""
    with pytest.raises(SheetError) as caught:
        load_sheet({"preset": "pagat", "preset_version": version})
    assert caught.value.field == "sheet.preset_version"
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "s.sqlite"), "SECRET_KEY": "t"})
    response = app.test_client().post("/api/v1/games", json={
        "name": "F", "sheet": {"preset": "pagat", "preset_version": version},
        "sides": [{"name": "Ann", "players": ["Ann"]}, {"name": "Bea", "players": ["Bea"]}]})
    assert response.status_code == 400 and response.get_json()["error"]["field"] == "sheet.preset_version"


def test_released_preset_versions_keep_their_values():
    """A preset version, once released, never changes: stored games compare with it. A change
    to a preset is a new version (rules/presets.py ``_REVISIONS``), recorded here as well."""
    released = json.loads(VERSIONS_FILE.read_text(encoding="utf-8"))
    shipped = {f"{p.id}@{n}": sheet.to_json(full=True) for p in PRESETS.values() for n, sheet in p.versions.items()}
    assert set(released) <= set(shipped), "a released preset version is gone"
    for name, values in released.items():
        kept = {option: value for option, value in shipped[name].items() if option in values}
        assert kept == values, f"{name} was changed in place; add a version instead"
        # An option added since the version was released takes its default there, as in
        # every sheet stored before it: the version means what it meant. house_rules took
        # over the rules a preset printed beside its options (its fixed rules), so there it
        # is what the version printed.
        added = {option: value for option, value in shipped[name].items() if option not in values}
        meant = {option: OPTION_BY_NAME[option].write(OPTION_BY_NAME[option].default) for option in added}
        if "house_rules" in added:
            meant["house_rules"] = PRINTED_BEFORE_HOUSE_RULES.get(name, [])
        assert added == meant
    assert set(shipped) <= set(released), "a new preset version: add it to tests/data/preset-versions.json"


# -- the migration --------------------------------------------------------------------------


def old_database(path: Path) -> None:
    """A database as scorepad left it before migration 0003: schema version 2, each sheet a
    preset and its changes (or, without a preset, every option of the day)."""
    conn = sqlite3.connect(path)
    for name in ("0001_games.sqlite.sql", "0002_history_revision.sql"):
        conn.executescript(resources.files("scorepad.storage.migrations").joinpath(name).read_text(encoding="utf-8"))
    conn.execute("PRAGMA user_version = 2")
    own = preset("common").to_json(full=True)
    del own["preset"], own["preset_version"], own["cut_bonus"]
    games = [
        ("g-pagat", {"preset": "pagat", "hand_size": 11, "foot_size": 11}, PARTNERS, partners_deal),
        ("g-common", {"preset": "common"}, SINGLES, singles_deal),
        ("g-own", own, SINGLES, singles_deal),
    ]
    at = "2026-01-01T00:00:00+00:00"
    for game_id, sheet, sides, deal in games:
        conn.execute("INSERT INTO game VALUES (?, 'key', 'Old', ?, ?, 2, ?, ?)",
                     (game_id, json.dumps(sheet), json.dumps(sides), at, at))
        body = deal()
        conn.execute("INSERT INTO deal VALUES (?, 1, ?, NULL)", (game_id, json.dumps(body)))
        conn.execute("INSERT INTO history (game_id, deal_number, action, at, before, after, revision) "
                     "VALUES (?, 1, 'record', ?, NULL, ?, 1)", (game_id, at, json.dumps(body)))
    conn.execute("INSERT INTO history (game_id, deal_number, action, at, before, after, reason, revision) "
                 "VALUES ('g-common', NULL, 'amend', ?, ?, ?, 'house rule', 2)",
                 (at, json.dumps({"preset": "common", "clean_book_bonus": 600}), json.dumps({"preset": "common"})))
    conn.commit()
    conn.close()


def scores_before(path: Path) -> dict[str, dict[str, int]]:
    """Each old game's totals, scored by the rules core the way scorepad read them then:
    the changes against today's presets (the sheet of its own, which the old scorepad could
    not read, with the cut bonus it meant: none)."""
    out = {}
    with sqlite3.connect(path) as conn:
        for game_id, sheet_text in conn.execute("SELECT id, sheet FROM game"):
            data = json.loads(sheet_text)
            sheet = load_sheet(data if "preset" in data else {**data, "cut_bonus": 0})
            (body,) = [json.loads(b) for (b,) in conn.execute("SELECT body FROM deal WHERE game_id = ?", (game_id,))]
            out[game_id] = judge(Deal.from_json({**body, "sheet": sheet.to_json(full=True)})).breakdown.totals()
    return out


def test_migration_rewrites_every_stored_sheet_in_full_and_games_score_the_same(tmp_path):
    path = tmp_path / "old.sqlite"
    old_database(path)
    expected = scores_before(path)
    app = app_on(path)  # starting the app migrates the database
    client = app.test_client()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == max(n for n, _, _ in db.migrations())
        rows = dict(conn.execute("SELECT id, sheet FROM game").fetchall())
        amend = conn.execute("SELECT before, after FROM history WHERE action = 'amend'").fetchone()
    for game_id, text in rows.items():
        stored = json.loads(text)
        assert stored["schema"] == SHEET_SCHEMA
        assert set(stored) >= {o.name for o in OPTIONS}
        if game_id == "g-own":
            assert "preset" not in stored and stored["cut_bonus"] == 0
        else:
            assert stored["preset_version"] == 1
        body = client.get(f"{API}/games/{game_id}").get_json()
        assert totals(body) == expected[game_id], game_id
    assert json.loads(rows["g-pagat"])["hand_size"] == 11 and json.loads(rows["g-pagat"])["go_out_permission"] is True
    assert [json.loads(s)["clean_book_bonus"] for s in amend] == [600, 500]
    pagat = client.get(f"{API}/games/g-pagat").get_json()
    assert pagat["sheet"] == {"preset": "pagat", "preset_version": 1, "hand_size": 11, "foot_size": 11}
    history = client.get(f"{API}/games/g-common/history").get_json()["history"]
    assert history[-1]["before"] == {"preset": "common", "preset_version": 1, "clean_book_bonus": 600}
    assert client.get("/games/g-common/sheet").status_code == 200
