"""Specification: scoring reads the table of score lines through a plan made once per sheet.

:func:`scorepad.rules.lines.plan` resolves, for a sheet and a deal number, which kinds of line
the sheet can score and what each counted kind is worth; scoring reuses it for every side.
"""

from __future__ import annotations

from scorepad.rules import Deal, load_sheet, preset, score
from scorepad.rules.lines import SCORE_LINES, plan


def test_the_plan_keeps_every_kind_in_table_order_and_leaves_out_what_the_sheet_cannot_score():
    everything = load_sheet({"preset": "pagat", "special_books": {"7": 1000}, "cut_bonus": 300,
                             "special_books_dirty": {"7": 500}, "three_books": {"3R": 1000}, "black_three_in_foot": 0,
                             "book_caps": {"wild": 3}, "pile_take_penalty": 100, "knee_size": 13})
    steps = plan(everything, 1)
    assert [s.code for s in steps.side] + [s.code for s in steps.player] == [kind.code for kind in SCORE_LINES]
    common = plan(preset("common"), 1)
    assert "books.special" not in [s.code for s in common.side]
    assert "cut_bonus" not in [s.code for s in common.player]
    assert "pile.failed_takes" not in [s.code for s in common.side]
    assert [s.code for s in common.picked_up] == ["cards_left", "cards_left.points", "red_threes.hand"]
    assert not {"knee", "black_threes.knee", "red_threes.knee"} & {s.code for s in common.player}  # no knee
    # a foot picked up leaves the knee's lines: a knee left unopened is recorded apart (and scored as recorded)
    assert [s.code for s in steps.picked_up][-4:] == ["red_threes.hand", "knee", "black_threes.knee",
                                                      "red_threes.knee"]


def test_the_plan_prices_each_counted_kind_for_its_sheet_and_deal():
    sheet = load_sheet({"preset": "common", "going_out_bonus": [100, 200, 300, 400], "clean_book_bonus": 600})
    for deal, bonus in ((1, 100), (3, 300)):
        each = {s.code: s.each for s in plan(sheet, deal).side}
        assert each["going_out"] == bonus
        assert each["books.clean"] == 600
    assert {s.code: s.each for s in plan(preset("common"), 3).side}["books.clean"] == 500


def test_a_plan_is_made_once_for_a_sheet_and_deal_and_never_shared_with_another_sheet():
    sheet = preset("common")
    assert plan(sheet, 2) is plan(sheet, 2)
    other = sheet.replace(dirty_book_bonus=250)
    assert plan(other, 2).sheet is other
    assert {s.code: s.each for s in plan(other, 2).side}["books.dirty"] == 250


def test_a_player_whose_foot_is_picked_up_scores_no_foot_lines_and_an_unopened_foot_scores_them():
    def deal(picked_up: bool) -> Deal:
        return Deal.from_json({
            "sheet": "pagat", "deal": 1, "ending": "went_out", "went_out": "Ann",
            "sides": [{"name": "Ann", "melds": ["K K K K K K K"], "players": [{"name": "Ann", "foot_picked_up": True}]},
                      {"name": "Bea", "players": [{"name": "Bea", "foot_picked_up": picked_up,
                                                   "foot": "3R 4 4", "cards_left": "A"}]}]})
    opened = [(ln.code, ln.points) for ln in score(deal(True)).sides[1].lines]
    unopened = [(ln.code, ln.points) for ln in score(deal(False)).sides[1].lines]
    assert opened == [("cards_left", -20)]
    assert unopened == [("cards_left", -20), ("foot", -10), ("red_threes.foot", -100)]
