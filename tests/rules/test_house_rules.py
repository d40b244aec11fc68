"""Specification: ``house_rules``, a table's own rules of play that no recorded deal shows (a
split stock, walking or running into the foot, which way cards pass): at most 12 sentences
of at most 200 characters, default none, printed with the sheet, never checked or scored.

A preset's own such rules (the progressive sheet's "the foot only once the hand is played
out") are its ``house_rules``, so a table may edit or drop them, and a sheet stored before
the option existed reads its preset's, so no stored game shows a change.
"""

from __future__ import annotations

import json
import sqlite3

import pytest

from scorepad.rules import PRESETS, Deal, SheetError, judge, load_sheet, preset
from scorepad.rules.catalogue import OPTION_BY_NAME
from scorepad.rules.dispute import compare_sheets
from scorepad.rules.limits import MAX_HOUSE_RULE, MAX_HOUSE_RULES
from tests.helpers import api_game

FOOT_RULE = "A player picks up the foot only once every card of the hand has been played."
SPLIT = "The stock is split in two, and a player draws from either half."
WALK = "A player who plays the last card of the hand walks into the foot: the turn goes on from it."
SINGLES = [{"name": "Ann", "players": ["Ann"]}, {"name": "Bea", "players": ["Bea"]}]


def sheet_with(rules: object, preset_id: str = "common"):
    return load_sheet({"preset": preset_id, "house_rules": rules})


# -- reading ----------------------------------------------------------------------------------------


def test_a_sheet_has_no_house_rules_unless_it_gives_some():
    assert OPTION_BY_NAME["house_rules"].default == ()
    assert all(PRESETS[p].sheet.house_rules == () for p in ("common", "pagat", "bicycle", "gather-together"))
    assert preset("common").describe("house_rules") == "none"


def test_house_rules_are_read_in_order_each_stripped_and_blank_ones_dropped():
    sheet = sheet_with(["  " + SPLIT + "  ", "", "   ", WALK])
    assert sheet.house_rules == (SPLIT, WALK)
    assert sheet.to_json()["house_rules"] == [SPLIT, WALK]


def test_house_rules_read_as_sentences_in_words():
    assert sheet_with([SPLIT, "Pass to the left in odd deals"]).describe("house_rules") == (
        "The stock is split in two, and a player draws from either half. Pass to the left in odd deals.")


def test_twelve_house_rules_of_200_characters_are_the_most_a_sheet_holds():
    assert (MAX_HOUSE_RULES, MAX_HOUSE_RULE) == (12, 200)
    longest = [f"{i:02d} " + "x" * (MAX_HOUSE_RULE - 3) for i in range(MAX_HOUSE_RULES)]
    assert len(sheet_with(longest).house_rules) == 12
    assert {len(rule) for rule in sheet_with(longest).house_rules} == {200}


def test_a_house_rule_over_200_characters_is_refused_naming_its_place():
    rules = [SPLIT, "", WALK, "y" * 201]
    with pytest.raises(SheetError) as err:
        sheet_with(rules)
    assert err.value.field == "sheet.house_rules[3]"  # its place as sent, the blank one counted
    assert err.value.reason.startswith("is 201 characters; a house rule has at most 200")
    assert len(sheet_with(rules[:3] + ["y" * 200]).house_rules) == 3  # its legal twin


def test_a_rule_of_200_characters_with_spaces_around_it_is_read_stripped():
    assert sheet_with(["   " + "z" * 200 + "   "]).house_rules == ("z" * 200,)


def test_thirteen_house_rules_are_refused_naming_the_option():
    with pytest.raises(SheetError) as err:
        sheet_with([f"Rule {n}." for n in range(13)])
    assert err.value.field == "sheet.house_rules"
    assert err.value.reason == "lists 13 house rules; a sheet lists at most 12"
    # blank entries are no rules: twelve rules and a blank one are read
    assert len(sheet_with([f"Rule {n}." for n in range(12)] + [" "]).house_rules) == 12


@pytest.mark.parametrize("rules, field, said", [
    ("Split the stock.", "sheet.house_rules", "must be a list of sentences"),
    ({"0": "Split the stock."}, "sheet.house_rules", "must be a list of sentences"),
    ([SPLIT, 7], "sheet.house_rules[1]", "must be a sentence (text), not 7"),
    ([SPLIT, None], "sheet.house_rules[1]", "must be a sentence (text), not None"),
    (["Split\nthe stock."], "sheet.house_rules[0]", "holds U+000A"),
    (["Split the stock.\x00"], "sheet.house_rules[0]", "holds U+0000"),
    (["Split the \ud800 stock."], "sheet.house_rules[0]", "holds U+D800"),
])
def test_house_rules_that_cannot_be_read_are_refused_naming_the_field(rules, field, said):
    with pytest.raises(SheetError) as err:
        sheet_with(rules)
    assert err.value.field == field
    assert said in err.value.reason


def test_a_sheet_built_in_python_is_checked_too():
    assert preset("common").replace(house_rules=(SPLIT,)).house_rules == (SPLIT,)
    with pytest.raises(SheetError) as err:
        preset("common").replace(house_rules=("w" * 201,))
    assert err.value.field == "house_rules[0]"


# -- a preset's own rules of play are its house rules ----------------------------------------------


def test_the_progressive_presets_rule_of_play_is_its_house_rules_default():
    assert preset("progressive").house_rules == (FOOT_RULE,)
    assert preset("progressive").changes() == []
    assert "house_rules" not in preset("progressive").to_json()


def test_a_table_may_edit_or_drop_its_presets_house_rules_and_it_shows_as_a_change():
    edited = sheet_with([FOOT_RULE, SPLIT], "progressive")
    [change] = edited.changes()
    assert (change.option, change.label, change.preset_value, change.value) == (
        "house_rules", "House rules", FOOT_RULE, f"{FOOT_RULE} {SPLIT}")
    dropped = sheet_with([], "progressive")
    assert dropped.house_rules == ()
    assert [(c.option, c.preset_value, c.value) for c in dropped.changes()] == [("house_rules", FOOT_RULE, "none")]
    assert dropped.to_json() == {"preset": "progressive", "preset_version": 1, "house_rules": []}
    assert load_sheet(dropped.to_json()) == dropped  # written back and read again, still dropped
    assert load_sheet(dropped.to_stored_json(), stored=True) == dropped


def test_a_stored_sheet_written_before_house_rules_reads_its_presets_own():
    for preset_id in PRESETS:
        stored = preset(preset_id).to_stored_json()
        del stored["house_rules"]  # every game stored before the option
        sheet = load_sheet(stored, stored=True)
        assert sheet.house_rules == PRESETS[preset_id].versions[stored["preset_version"]].house_rules
        assert sheet.changes() == []
    old = preset("progressive").replace(hand_size=13).to_stored_json()
    del old["house_rules"]
    sheet = load_sheet(old, stored=True)
    assert sheet.house_rules == (FOOT_RULE,)
    assert [c.option for c in sheet.changes()] == ["hand_size"]


def test_a_stored_sheet_of_its_own_written_before_house_rules_has_none():
    own = preset("progressive").to_json(full=True)
    del own["preset"], own["preset_version"], own["house_rules"]
    assert load_sheet(own, stored=True).house_rules == ()  # no preset, so no preset's rules
    with pytest.raises(SheetError) as err:  # a sheet of its own sent today gives every option
        load_sheet(own)
    assert err.value.field == "sheet.house_rules"


def test_a_progressive_game_stored_before_house_rules_shows_no_change(make_app, tmp_path):
    game_id, _key = api_game(make_app().test_client(), "Club", "progressive", SINGLES)
    path = tmp_path / "scorepad.sqlite"
    with sqlite3.connect(path) as conn:  # the row as a scorepad without house_rules wrote it
        stored = json.loads(conn.execute("SELECT sheet FROM game WHERE id = ?", (game_id,)).fetchone()[0])
        del stored["house_rules"]
        conn.execute("UPDATE game SET sheet = ? WHERE id = ?", (json.dumps(stored), game_id))
    with sqlite3.connect(path) as src, sqlite3.connect(tmp_path / "later.sqlite") as dst:
        src.backup(dst)  # a copy: the app reading it starts with nothing cached
    later = make_app(DATABASE=str(tmp_path / "later.sqlite")).test_client()
    body = later.get(f"/api/v1/games/{game_id}").get_json()
    assert body["sheet_changes"] == []
    assert body["sheet"] == {"preset": "progressive", "preset_version": 1}  # the preset as it is, its rule too
    page = later.get(f"/games/{game_id}/sheet").get_data(as_text=True)
    assert FOOT_RULE in page and "with 1 change" not in page


# -- never checked or scored --------------------------------------------------------------------------


def test_house_rules_change_no_score_and_no_problem():
    deal = {"deal": 1, "ending": "went_out", "went_out": "Ann", "sides": [
        {"name": "Ann", "melds": ["K K K K K K K", "Q Q Q Q Q 2 2"], "red_threes": 1,
         "players": [{"name": "Ann", "foot_picked_up": True}]},
        {"name": "Bea", "melds": ["J J J"],
         "players": [{"name": "Bea", "foot_picked_up": True, "cards_left": "A 3B"}]}]}
    plain = judge(Deal.from_json({**deal, "sheet": "common"}))
    ruled = judge(Deal.from_json({**deal, "sheet": {"preset": "common", "house_rules": [SPLIT, WALK]}}))
    assert ruled.to_json() == plain.to_json()
    # Ann: 7 kings 70 + 5 queens 50 + two 2s 40, clean 500 + dirty 300, red three 100, out 100
    # Bea: 3 jacks 30, less an ace 20 and a black three 5
    assert {s.name: s.total for s in ruled.breakdown.sides} == {
        "Ann": 70 + 50 + 40 + 500 + 300 + 100 + 100, "Bea": 30 - 20 - 5}


def test_two_sheets_differing_only_in_house_rules_compare_on_that_option_alone():
    diff = compare_sheets(preset("progressive"), sheet_with([SPLIT], "progressive"))
    assert [(g.group, [(o.option, o.a, o.b) for o in g.options]) for g in diff.groups] == [
        ("house", [("house_rules", FOOT_RULE, SPLIT)])]
    assert not diff.same
