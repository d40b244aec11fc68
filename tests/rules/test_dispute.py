"""Settling disputes between sheets (scorepad.rules.dispute): a deal or a game under another
sheet, and two sheets compared. Every expected total here is worked by hand in a comment."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorepad.rules import Deal, load_sheet, preset
from scorepad.rules.dispute import compare_sheets, diff_lines, rescore_deal, rescore_game, rescore_game_deal, sheet_name
from scorepad.rules.game import Game
from scorepad.rules.score import Line
from tests.rules.test_validate import BASE

DATA = Path(__file__).parent.parent / "data"
PRESET_IDS = ("common", "pagat", "bicycle", "gather-together")


def club_game() -> Game:
    """A gather-together game of four deals (North-South: Ann, Cal; East-West: Bea, Dan).

    Deal 1, Ann out. North-South: K x7 70 + Q x5 50 + two 2s 40 + clean 500 + dirty 300
    + a red three 100 + going out 100 - Cal's 4 (5) = 1,155. East-West: J x4 40 + 9 x3 30
    - Bea's A (20) - Dan's unopened foot: K Q (20), 7 7 6 5 4 4 3B (35), two red threes
    (0 each on this sheet) = -5.
    Deal 2: North-South 5 x3 = 15; East-West A x7 140 + 500 + 8 x5 50 + two 2s 40 + 300 = 1,030.
    Deal 3: 6 x3 = 15; 10 x4 = 40. Deal 4: 5 x3 = 15; A x5 100 + K x5 50 = 150.
    Totals: North-South 1,155 + 15 + 15 + 15 = 1,200; East-West -5 + 1,030 + 40 + 150 = 1,215.
    """
    return Game.from_json(json.loads((DATA / "game-club-gather-together.json").read_text()))


def four_deals() -> Game:
    """common: Ann 1,060 / 20 / -55 / 565 = 1,590; Bea 5 / 730 / 1,060 / 30 = 1,825."""
    return Game.from_json(json.loads((DATA / "game-four-deals.json").read_text()))


# -- one deal ------------------------------------------------------------------------------------


def test_the_club_game_scores_as_worked_by_hand_under_its_own_sheet():
    game = club_game()
    assert [v.breakdown.totals() for v in game.verdicts] == [
        {"North-South": 1155, "East-West": -5}, {"North-South": 15, "East-West": 1030},
        {"North-South": 15, "East-West": 40}, {"North-South": 15, "East-West": 150}]
    assert game.totals() == {"North-South": 1200, "East-West": 1215}
    assert all(v.ok for v in game.verdicts)


def test_pagat_charges_100_for_each_red_three_in_a_foot_never_picked_up():
    change = rescore_deal(club_game().deals[0], preset("pagat"))
    ns, ew = change.sides
    assert (ns.old.total, ns.new.total, ns.difference) == (1155, 1155, 0)
    # Dan's two red threes: 2 x 0 under gather-together, 2 x -100 under Pagat.
    assert (ew.old.total, ew.new.total, ew.difference) == (-5, -205, -200)
    [line] = ew.changed_lines
    assert (line.label, line.status, line.option, line.change) == (
        "Dan's unopened foot: red threes", "changed", "red_three_penalty_foot", -200)
    assert (line.old.count, line.old.each, line.new.each) == (2, 0, -100)
    assert not ns.changed_lines


def test_violations_new_under_the_other_sheet_are_named_with_their_option_and_side():
    change = rescore_deal(club_game().deals[0], preset("pagat"))
    found = {(p.code, p.side, p.option) for p in change.new_violations}
    # Pagat deals a foot of 13 (Dan's unopened foot holds 11) and asks 2 clean + 2 dirty + 1
    # wild book to go out (North-South had 1 clean and 1 dirty).
    assert found == {("foot.size", "East-West", "foot_size"), ("went_out.books", "North-South", "books_to_go_out")}
    assert [p.code for p in change.sides[1].new_violations] == ["foot.size"]
    assert not change.cleared_violations
    assert change.old.ok and not change.new.ok


def test_a_wild_book_illegal_on_bicycle_is_cleared_under_pagat():
    deal = Deal.from_json({"sheet": "bicycle", "deal": 1, "ending": "stock_out", "sides": [
        {"name": "Us", "melds": ["2 2 2 2 JK JK JK"], "players": [
            {"name": "Ann", "foot_picked_up": True}, {"name": "Cal", "foot_picked_up": True}]},
        {"name": "Them", "melds": ["K K K"], "players": [
            {"name": "Bea", "foot_picked_up": True}, {"name": "Dan", "foot_picked_up": True}]}]})
    change = rescore_deal(deal, preset("pagat"))
    assert [(p.code, p.side, p.option) for p in change.cleared_violations] == [("meld.rank", "Us", "wild_books")]
    assert not change.new_violations
    # Four 2s (80) and three jokers (150) and the wild-book bonus of 1,500 under both sheets.
    assert change.differences() == {"Us": 0, "Them": 0}
    assert change.sides[0].new.total == 1730


def test_changed_card_values_regroup_the_cards_left_lines():
    deal = Deal.from_json({"sheet": "common", "deal": 1, "ending": "stock_out", "sides": [
        {"name": "Ann", "melds": ["K K K"], "players": [{"name": "Ann", "foot_picked_up": True, "cards_left": "K 9"}]},
        {"name": "Bea", "melds": ["Q Q Q"], "players": [{"name": "Bea", "foot_picked_up": True}]}]})
    nines_are_five = load_sheet({"preset": "common", "card_values": {"9": 5}})
    change = rescore_deal(deal, nines_are_five)
    ann = change.sides[0]
    # common: K 9 in hand = -20 on one line; with 9 = 5: K -10 and 9 -5 on two lines.
    assert [(c.label, c.status, c.change) for c in ann.changed_lines] == [
        ("Ann's hand: K", "new", -10), ("Ann's hand: 9", "new", -5), ("Ann's hand: K 9", "gone", 20)]
    assert (ann.old.total, ann.new.total) == (30 - 20, 30 - 15)


def test_a_deal_under_its_own_sheet_changes_nothing():
    for deal in club_game().deals:
        change = rescore_deal(deal, deal.sheet)
        assert not change.changed
        assert all(line.status == "same" for side in change.sides for line in side.lines)


def test_diff_lines_keeps_a_line_found_under_one_sheet_only_where_it_stood():
    def line(label, points):
        return Line("x", label, 1, points, points, "card_values")
    old = (line("a", 1), line("b", 2), line("c", 3))
    new = (line("a", 1), line("c", 4), line("d", 5))
    assert [(c.label, c.status) for c in diff_lines(old, new)] == [
        ("a", "same"), ("b", "gone"), ("c", "changed"), ("d", "new")]


def test_deal_rescore_json_gives_old_and_new_lines_and_the_diff():
    data = rescore_deal(club_game().deals[0], preset("pagat")).to_json()
    assert (data["deal"], data["old_sheet"], data["new_sheet"], data["old_ok"], data["new_ok"]) == (
        1, "gather-together", "pagat", True, False)
    ew = data["sides"][1]
    assert (ew["old"]["total"], ew["new"]["total"], ew["difference"]) == (-5, -205, -200)
    changed = [d for d in ew["diff"] if d["status"] != "same"]
    assert changed == [{"status": "changed", "code": "red_threes.foot", "label": "Dan's unopened foot: red threes",
                        "option": "red_three_penalty_foot", "old": {"count": 2, "each": 0, "points": 0},
                        "new": {"count": 2, "each": -100, "points": -200}, "change": -200, "player": "Dan"}]
    foot = next(p for p in data["new_violations"] if p["code"] == "foot.size")
    assert (foot["label"], foot["sheet_says"]) == ("Cards in the foot", "13")
    json.dumps(data)  # plain JSON all the way down


# -- a whole game --------------------------------------------------------------------------------


def test_rescoring_the_club_game_under_pagat_turns_the_result():
    change = rescore_game(club_game(), preset("pagat"))
    # Only deal 1 changes: East-West's -200 for Dan's two red threes.
    assert [d.differences() for d in change.deals] == [
        {"North-South": 0, "East-West": -200}, {"North-South": 0, "East-West": 0},
        {"North-South": 0, "East-West": 0}, {"North-South": 0, "East-West": 0}]
    assert [(t.name, t.old, t.new, t.difference) for t in change.totals] == [
        ("North-South", 1200, 1200, 0), ("East-West", 1215, 1015, -200)]
    assert change.old_result.winner == "East-West"
    assert change.new_result.winner == "North-South"
    assert change.winner_changes


@pytest.mark.parametrize("other", ["common", "bicycle"])
def test_rescoring_under_a_sheet_that_scores_alike_keeps_the_totals_and_the_winner(other):
    change = rescore_game(club_game(), preset(other))
    assert [(t.old, t.new) for t in change.totals] == [(1200, 1200), (1215, 1215)]
    assert change.new_result.winner == "East-West" and not change.winner_changes


def test_lower_clean_book_bonus_takes_200_from_each_clean_book():
    change = rescore_game(club_game(), load_sheet({"preset": "gather-together", "clean_book_bonus": 300}))
    # Clean books: North-South's kings in deal 1, East-West's aces in deal 2: 200 less each.
    assert [(t.new, t.difference) for t in change.totals] == [(1000, -200), (1015, -200)]
    assert change.new_result.winner == "East-West"


def test_a_sheet_played_to_a_target_ends_the_game_sooner_and_flags_later_deals():
    change = rescore_game(four_deals(), load_sheet({"preset": "common", "game_length": "target",
                                                    "target_score": 1000}))
    # Ann reaches 1,060 in deal 1: she wins there; deals 2 to 4 come after the end.
    assert change.old_result.winner == "Bea"
    assert (change.new_result.winner, change.new_result.over) == ("Ann", True)
    assert [p.code for p in change.new_problems] == ["game.over"] * 3
    assert change.winner_changes


def test_game_rescore_json_has_both_results_and_running_totals():
    data = rescore_game(club_game(), preset("pagat")).to_json()
    assert data["totals"] == [{"name": "North-South", "old": 1200, "new": 1200, "difference": 0},
                              {"name": "East-West", "old": 1215, "new": 1015, "difference": -200}]
    assert (data["old_result"]["winner"], data["new_result"]["winner"], data["winner_changes"]) == (
        "East-West", "North-South", True)
    assert data["new_running_totals"][0] == {"number": 1, "deal": 1, "totals": {"North-South": 1155, "East-West": -205}}
    assert len(data["deals"]) == 4
    json.dumps(data)


# -- two sheets ------------------------------------------------------------------------------------


def test_pagat_and_common_differ_in_hand_and_foot_size_13_against_11():
    diff = compare_sheets(preset("pagat"), preset("common"))
    by_option = {o.option: o for o in diff.options}
    assert (by_option["hand_size"].label, by_option["hand_size"].a, by_option["hand_size"].b) == (
        "Cards in the hand", "13", "11")
    assert (by_option["foot_size"].a, by_option["foot_size"].b) == ("13", "11")
    assert by_option["wild_books"].a != by_option["wild_books"].b
    assert "clean_book_bonus" not in by_option  # 500 on both


def test_differences_are_grouped_in_the_order_a_player_reads_a_sheet():
    diff = compare_sheets(preset("pagat"), preset("common"))
    assert [g.group for g in diff.groups] == ["table", "melds", "threes", "opening", "pile", "going_out"]
    assert diff.groups[0].title == "The cards and the deal"
    assert all(g.options for g in diff.groups)


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_a_sheet_compared_with_itself_is_the_same(preset_id):
    assert compare_sheets(preset(preset_id), preset(preset_id)).same


def test_swapping_the_sheets_swaps_the_columns():
    one, other = compare_sheets(preset("bicycle"), preset("gather-together")), \
        compare_sheets(preset("gather-together"), preset("bicycle"))
    assert [(o.option, o.a, o.b) for o in one.options] == [(o.option, o.b, o.a) for o in other.options]


def test_a_changed_sheet_differs_from_its_preset_only_where_the_table_changed_it():
    changed = load_sheet({"preset": "pagat", "hand_size": 11, "red_three_penalty_foot": 300})
    diff = compare_sheets(preset("pagat"), changed)
    assert [(o.option, o.a, o.b) for o in diff.options] == [
        ("hand_size", "13", "11"), ("red_three_penalty_foot", "minus 100 points", "minus 300 points")]
    assert sheet_name(changed) == "Pagat, four-player partnerships (changed)"


def test_comparison_json_lists_each_group_with_both_values():
    data = compare_sheets(preset("pagat"), preset("common")).to_json()
    assert (data["a"]["sheet"], data["b"]["sheet"], data["same"]) == ("pagat", "common", False)
    table = data["groups"][0]
    assert table["id"] == "table"
    assert {"option": "hand_size", "label": "Cards in the hand", "a": "13", "b": "11"} in table["options"]
    assert data["count"] == sum(len(g["options"]) for g in data["groups"])


# -- openings against the running total ------------------------------------------------------------
#
# Three deals of the common sheet's worked deal (tests/rules/test_validate.py BASE["common"]), Ann
# v Bea, on sheets whose opening minimum follows the running total. Ann goes out each time:
# K x7 70 + Q x5 50 + J x3 30 + two 2s 40 + clean 500 + dirty 300 + a red three 100 + going out
# 100 = 1,190 (990 with the clean book at 300). Bea: 9 x3 30 + a joker 50 - A 20 - 3B 5 - her
# unopened foot 155 = -100 on every sheet here.
# Running totals before deals 2 and 3: Ann 1,190 and 2,380 (990 and 1,980 with clean books at
# 300); Bea -100 and -200.
# Deal 2 carries Ann's first melds K K K + Q Q Q = 3 × 10 + 3 × 10 = 60 and Bea's 9 9 9 JK =
# 3 × 10 + 50 = 80; deal 3 Ann's K x7 + J J J = 7 × 10 + 3 × 10 = 100 and Bea's 80 again.

HOME = {"preset": "common", "opening_by": "running-total",
        "opening_bands": [{"below": 2000, "minimum": 50}, {"minimum": 90}]}
CLUB = {"preset": "common", "opening_by": "running-total",
        "opening_bands": [{"below": 1000, "minimum": 50}, {"below": 2500, "minimum": 90}, {"minimum": 120}]}


def banded_game() -> Game:
    """HOME: Ann's 60 meets 50 in deal 2 (1,190 is below 2,000), her 100 meets 90 in deal 3
    (2,380 is not); Bea's 80 meets 50 in both (-100 and -200 are below 2,000)."""
    first = {k: v for k, v in BASE["common"].items() if k != "sheet"}
    second = json.loads(json.dumps(first)) | {"deal": 2}
    second["sides"][0]["players"][0]["opening"] = {"melds": ["K K K", "Q Q Q"]}
    second["sides"][1]["players"][0]["opening"] = {"melds": ["9 9 9 JK"]}
    third = json.loads(json.dumps(first)) | {"deal": 3}
    third["sides"][0]["players"][0]["opening"] = {"melds": ["K K K K K K K", "J J J"]}
    third["sides"][1]["players"][0]["opening"] = {"melds": ["9 9 9 JK"]}
    return Game.from_json({"sheet": HOME, "sides": ["Ann", "Bea"], "deals": [first, second, third]})


def opening_codes(change, number: int) -> tuple[list[tuple[str, str | None]], list[str | None]]:
    """Deal ``number`` rescored: its new violations (code, side), and whose openings the new
    sheet left unchecked."""
    deal = change.deals[number - 1]
    return ([(p.code, p.side) for p in deal.new_violations],
            [u.side for u in deal.new.report.not_checked if u.what == "opening"])


def test_the_banded_game_opens_legally_on_its_own_sheet_judged_against_its_running_totals():
    game = banded_game()
    assert [running["Ann"] for running in game.running_totals()] == [1190, 2380, 3570]
    assert all(v.ok for v in game.verdicts)
    assert [u.side for v in game.verdicts[1:] for u in v.report.not_checked if u.what == "opening"] == []


def test_rescoring_under_running_total_bands_judges_each_opening_against_the_total_before_its_deal():
    change = rescore_game(banded_game(), load_sheet(CLUB))
    # CLUB, deal 2: Ann has 1,190, at or above 1,000 and below 2,500: 90; her 60 is short.
    # Bea has -100, below 1,000: 50; her 80 meets it.
    assert opening_codes(change, 2) == ([("opening.minimum", "Ann")], [])
    (problem,) = change.deals[1].new.report.violations
    assert "at a running total of 1,190 is 90; these count 60" in problem.message
    # Deal 3: Ann has 2,380, still below 2,500: 90; her 100 meets it. Bea: -200, 50; 80 meets it.
    assert opening_codes(change, 3) == ([], [])
    assert change.deals[2].new.ok
    assert [d.new.ok for d in change.deals] == [True, False, True]


def test_a_rescored_opening_follows_the_other_sheets_totals_not_the_recorded_ones():
    club_300 = load_sheet(CLUB | {"clean_book_bonus": 300,
                                  "opening_bands": [{"below": 1000, "minimum": 50}, {"below": 2200, "minimum": 90},
                                                    {"minimum": 120}]})
    change = rescore_game(banded_game(), club_300)
    assert [r["Ann"] for r in change.new.running_totals()] == [990, 1980, 2970]
    # Deal 2: Ann has 990 under this sheet, below 1,000: 50, and her 60 meets it (the recorded
    # 1,190 would ask 90). Deal 3: 1,980, below 2,200: 90, and her 100 meets it (the recorded
    # 2,380 would ask 120).
    assert opening_codes(change, 2) == ([], [])
    assert opening_codes(change, 3) == ([], [])
    assert all(d.new.ok for d in change.deals)


def test_a_recorded_deal_rescored_alone_is_judged_as_a_deal_of_its_game():
    change = rescore_game(banded_game(), load_sheet(CLUB))
    assert change.deal(2) is change.deals[1]
    assert change.deal(4) is None
    assert [p.code for p in change.deal(2).new_violations] == ["opening.minimum"]


@pytest.mark.parametrize("other", [CLUB, CLUB | {"clean_book_bonus": 300, "opening_bands": [
    {"below": 1000, "minimum": 50}, {"below": 2200, "minimum": 90}, {"minimum": 120}]}, "pagat"])
def test_one_deal_rescored_alone_is_the_deal_of_the_whole_game_rescored(other):
    game, sheet = banded_game(), load_sheet(other)
    whole = rescore_game(game, sheet)
    assert [rescore_game_deal(game, sheet, n) for n in (1, 2, 3, 4)] == [*whole.deals, None]
