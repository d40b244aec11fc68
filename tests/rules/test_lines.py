"""Specification: one table of score lines, read by scoring and by the blank score pad.

Every line a deal scores is a kind in :data:`scorepad.rules.lines.SCORE_LINES`, priced by an
option of the catalogue, and the blank pad prints, from the same table, a line for each bonus
and penalty the sheet can score, and none it cannot.
"""

from __future__ import annotations

from scorepad.rules import Deal, load_sheet, preset, score
from scorepad.rules.catalogue import OPTION_BY_NAME
from scorepad.rules.lines import SCORE_LINES, ScoreLine, pad_lines

# Every kind of line at once: melds and books of each kind (clean and dirty special books of
# sevens, a book of black threes), red threes laid, going out, a failed take of the pile, a cut bonus, cards and red
# threes in a hand and in an unopened knee and foot, a black three in an unopened knee and foot;
# East-West counted (melded points, points left in a hand); a second wild book past the cap of one.
SHEET = {"preset": "pagat", "special_books": {"7": 1000}, "special_books_dirty": {"7": 500},
         "three_books": {"3B": 500}, "black_three_in_foot": 100, "cut_bonus": 300, "red_three_penalty_hand": 50,
         "book_caps": {"wild": 1}, "pile_take_penalty": 100, "knee_size": 13}
EVERYTHING = {
    "sheet": SHEET, "deal": 1, "ending": "went_out", "went_out": "Ann",
    "sides": [
        {"name": "North-South", "red_threes": 1, "failed_takes": 1,
         "melds": ["K K K K K K K", "Q Q Q Q Q 2 2", "7 7 7 7 7 7 7", "2 2 2 2 JK JK JK", "7 7 7 7 7 2 2",
                   "3Bx7", "2 2 2 JK JK JK JK"],
         "players": [{"name": "Ann", "foot_picked_up": True, "cut_bonus": True},
                     {"name": "Cal", "foot_picked_up": True, "cards_left": "A 3R 4"}]},
        {"name": "East-West", "books": {}, "meld_points": 30,
         "players": [{"name": "Bea", "foot_picked_up": True, "cards_left_points": 20},
                     {"name": "Dan", "foot_picked_up": False, "foot": "3R 3R 4 4 5 5 6 6 7 7 8 8 3B",
                      "knee_picked_up": False, "knee": "3R 3B 9 9 10 10 J J Q Q A A JK"}]},
    ]}


def test_every_kind_of_score_line_is_priced_by_an_option_of_the_catalogue():
    assert len({kind.code for kind in SCORE_LINES}) == len(SCORE_LINES)
    for kind in SCORE_LINES:
        assert kind.option in OPTION_BY_NAME, kind.code


def test_every_line_a_deal_scores_is_a_kind_in_the_one_table_and_names_its_option():
    kinds = {kind.code: kind for kind in SCORE_LINES}
    scored = [line for side in score(Deal.from_json(EVERYTHING)).sides for line in side.lines]
    assert {line.code for line in scored} == set(kinds)  # this deal scores every kind
    for line in scored:
        assert line.option == kinds[line.code].option
        assert line.points == line.count * line.each


def test_the_blank_pad_prints_every_bonus_and_penalty_this_sheet_scores():
    labels = [line.label for line in pad_lines(load_sheet(SHEET), 1)]
    assert labels == [
        "Melded card points", "Clean books × 500", "Clean books of 7s × 1,000", "Dirty books × 300",
        "Dirty books of 7s × 500", "Books of black threes × 500",
        "Wild books × 1,500", "Red threes laid × 100", "Going out (+100)", "Failed takes of the pile × -100",
        "Cut bonus (+300)",
        "Cards left in hands and feet (minus)", "Red threes left in a hand × -50",
        "Cards in unopened knees (minus)", "Black threes in an unopened knee × -100",
        "Red threes in an unopened knee × -100",
        "Black threes in an unopened foot × -100", "Red threes in an unopened foot × -100"]


def test_the_blank_pad_leaves_out_what_the_sheet_cannot_score_and_counts_only_repeatable_lines():
    lines = pad_lines(preset("common"), 3)
    assert [line.label for line in lines] == [
        "Melded card points", "Clean books × 500", "Dirty books × 300", "Red threes laid × 100",
        "Going out (+100)", "Cards left in hands and feet (minus)"]
    assert [line.counted for line in lines] == [False, True, True, True, False, False]


def test_the_pad_prices_a_per_deal_bonus_for_its_deal():
    sheet = load_sheet({"preset": "common", "going_out_bonus": [100, 200, 300, 400]})
    assert "Going out (+300)" in [line.label for line in pad_lines(sheet, 3)]


def test_a_score_line_gives_its_count_or_its_items_not_both():
    try:
        ScoreLine(code="books.none", label="None", option="clean_book_bonus")
    except ValueError as err:
        assert "books.none" in str(err)
    else:
        raise AssertionError("a score line without a count was accepted")
