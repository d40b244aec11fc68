"""Specification: issue 23's red threes and small bonuses.

Red threes held, never laid (``red_three_mode``: Tanglewood, HFFE, the VegasVic103 house rules,
Roth, the Hand and Foot Scores app); the hand's penalty only when another side went out
(``red_three_penalty_hand_when``: HFFE); a laid red three worth less to a side that did not go
out (``red_three_bonus_not_out``: the catalystgather scorer); a wild book mixing 2s and jokers
worth less than one of a kind (``wild_book_mixed_bonus``: the Hand and Foot Scores app); and a
bonus to the player who laid down first (``first_meld_bonus`` with a deal's ``first_meld``:
the same app). Each has a deal that triggers it and a near twin, the arithmetic written out.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from scorepad.cli.scorepad_command import main
from scorepad.rules import Deal, load_sheet, preset, score, validate
from scorepad.rules.books import cheapest_books, side_books
from scorepad.rules.catalogue import OPTION_BY_NAME
from scorepad.rules.choices import FootWhen, RedThreeMode
from scorepad.rules.deal import BookCounts
from scorepad.rules.errors import ReadError
from scorepad.rules.lines import pad_lines

NEW_OPTIONS = ("red_three_mode", "red_three_bonus_not_out", "red_three_penalty_hand_when", "wild_book_mixed_bonus",
               "first_meld_bonus")


def two_players(sheet: dict[str, Any], bea_left: str = "A", **deal: Any) -> Deal:
    """Ann goes out with a clean book of kings and a dirty book of queens (common rules); Bea
    melded three 9s and holds ``bea_left``."""
    return Deal.from_json({"sheet": {"preset": "common", **sheet}, "deal": 1, "ending": "went_out", "went_out": "Ann",
                           **deal, "sides": [
                               {"name": "Ann", "melds": ["K K K K K K K", "Q Q Q Q Q 2 2"],
                                "players": [{"name": "Ann", "foot_picked_up": True}]},
                               {"name": "Bea", "melds": ["9 9 9"],
                                "players": [{"name": "Bea", "foot_picked_up": True, "cards_left": bea_left}]}]})


def lines_of(deal: Deal, side: int = 0) -> dict[str, tuple[int, int, int]]:
    """A side's lines by label: (count, each, points)."""
    return {line.label: (line.count, line.each, line.points) for line in score(deal).sides[side].lines}


# -- red_three_mode ---------------------------------------------------------------------------

TANGLEWOOD = {"red_three_mode": "held", "red_three_penalty_hand": 500, "red_three_penalty_foot": 500}


def test_the_default_lays_red_threes_as_every_stored_sheet_did():
    assert OPTION_BY_NAME["red_three_mode"].default is RedThreeMode.LAID
    assert preset("common").lays_red_threes and not preset("common").unused("red_three_bonus")


def test_a_red_three_held_at_the_end_is_only_its_penalty_line_and_no_warning():
    deal = two_players(TANGLEWOOD, bea_left="A 3R")
    report = validate(deal)
    assert report.codes() == []
    assert [w.code for w in report.warnings] == []  # never "laid at once, so check it was not missed"
    assert lines_of(deal, 1)["Bea's hand: red threes"] == (1, -500, -500)
    # Bea: three 9s 30, the ace left -20, the red three -500
    assert score(deal).totals()["Bea"] == 30 - 20 - 500 == -490
    # Ann: 7 kings 70 + 5 queens 50 + two 2s 40 + clean 500 + dirty 300 + going out 100
    assert score(deal).totals()["Ann"] == 70 + 50 + 40 + 500 + 300 + 100 == 1060


def test_where_red_threes_are_laid_a_red_three_left_in_hand_is_still_worth_a_look():
    deal = two_players({"red_three_penalty_hand": 500}, bea_left="A 3R")
    (warning,) = validate(deal).warnings
    assert warning.code == "red_three.in_hand" and "laid at once" in warning.message
    assert score(deal).totals()["Bea"] == 30 - 20 - 500


def test_a_red_three_laid_where_they_are_held_is_a_violation_citing_the_mode():
    data = two_players(TANGLEWOOD).to_json()
    data["sides"][0]["red_threes"] = 2
    deal = Deal.from_json(data)
    (problem,) = validate(deal).violations
    assert (problem.code, problem.option, problem.where, problem.side) == (
        "red_three.laid", "red_three_mode", "sides[0].red_threes", "Ann")
    assert "never laid" in problem.message
    # the near twin: the same two red threes laid where they are laid, +100 each
    data["sheet"] = {"preset": "common"}
    twin = Deal.from_json(data)
    assert validate(twin).codes() == []
    assert lines_of(twin)["Red threes laid"] == (2, 100, 200)


def test_a_counted_side_that_laid_red_threes_where_they_are_held_is_a_violation_too():
    data = {"sheet": {"preset": "common", **TANGLEWOOD}, "deal": 1, "ending": "stock_out", "sides": [
        {"name": "Ann", "books": {"clean": 1}, "meld_points": 70, "red_threes": 1,
         "players": [{"name": "Ann", "foot_picked_up": True, "cards_left_points": 0}]},
        {"name": "Bea", "books": {}, "meld_points": 30,
         "players": [{"name": "Bea", "foot_picked_up": True, "cards_left_points": 20, "red_threes_left": 1}]}]}
    deal = Deal.from_json(data)
    assert validate(deal).codes() == ["red_three.laid"]
    assert "red_three.in_hand" not in [w.code for w in validate(deal).warnings]
    # Bea counted: 30 melded, 20 left, one red three held -500
    assert score(deal).totals()["Bea"] == 30 - 20 - 500
    data["sides"][0]["red_threes"] = 0
    assert validate(Deal.from_json(data)).codes() == []


def test_a_red_three_in_an_unopened_foot_still_costs_its_penalty_where_they_are_held():
    data = two_players(TANGLEWOOD).to_json()
    data["sides"][1]["players"][0] |= {"foot_picked_up": False, "foot": "3R 4 4 4 4 4 4 4 4 4 4"}
    deal = Deal.from_json(data)
    assert validate(deal).codes() == []
    # Bea: 9s 30, the ace -20, her foot's ten 4s -50, its red three -500
    assert score(deal).totals()["Bea"] == 30 - 20 - 50 - 500


def test_a_held_sheet_prints_no_laid_red_three_line_and_calls_the_bonus_unused():
    held = load_sheet({"preset": "common", **TANGLEWOOD})
    labels = [line.label for line in pad_lines(held, 1)]
    assert not any(label.startswith("Red threes laid") for label in labels)
    assert "Red threes left in a hand × -500" in labels
    assert held.unused("red_three_bonus") and held.unused("red_three_bonus_not_out")
    assert held.describe("red_three_bonus") == "100 points (not used: red threes are never laid)"
    assert "Red threes laid × 100" in [line.label for line in pad_lines(preset("common"), 1)]


# -- red_three_penalty_hand_when ------------------------------------------------------------------


def partners(when: str, ending: str, went_out: str | None) -> Deal:
    """Two partnerships under common rules, red threes held and -500 in a hand: Dan (East-West)
    still holds a red three and a 4."""
    sheet = {"preset": "common", "red_three_mode": "held", "red_three_penalty_hand": 500,
             "red_three_penalty_hand_when": when, "books_to_go_out": {"clean": 0, "dirty": 0}}
    out: dict[str, Any] = {"ending": ending} if went_out is None else {"ending": ending, "went_out": went_out}
    return Deal.from_json({"sheet": sheet, "deal": 1, **out, "sides": [
        {"name": "North-South", "melds": ["K K K"], "players": [
            {"name": "Ann", "foot_picked_up": True}, {"name": "Cal", "foot_picked_up": True}]},
        {"name": "East-West", "melds": ["Q Q Q"], "players": [
            {"name": "Bea", "foot_picked_up": True},
            {"name": "Dan", "foot_picked_up": True, "cards_left": "3R 4"}]}]})


@pytest.mark.parametrize("when, ending, went_out, penalty", [
    ("any-ending", "stock_out", None, True),
    ("any-ending", "went_out", "Bea", True),
    ("opponents-out", "went_out", "Ann", True),    # an opponent went out, catching it in Dan's hand
    ("opponents-out", "stock_out", None, False),   # the stock ran out: nobody caught it
    ("opponents-out", "went_out", "Bea", False),   # Dan's own partner went out
])
def test_a_red_three_in_a_hand_costs_its_penalty_when_the_sheet_says(when, ending, went_out, penalty):
    deal = partners(when, ending, went_out)
    assert validate(deal).codes() == []
    east_west = score(deal).sides[1]
    # 3 queens 30; Dan's 4 -5; going out 100 when Bea went out; the red three -500 when it costs
    going_out = 100 if went_out == "Bea" else 0
    assert east_west.total == 30 - 5 + going_out - (500 if penalty else 0)
    assert any(line.code == "red_threes.hand" for line in east_west.lines) is penalty


def test_the_hands_when_is_read_as_the_foots_and_moot_without_a_hand_penalty():
    assert OPTION_BY_NAME["red_three_penalty_hand_when"].default is FootWhen.ANY_ENDING
    assert preset("common").unused("red_three_penalty_hand_when")
    hffe = load_sheet({"preset": "common", "red_three_penalty_hand": 500,
                       "red_three_penalty_hand_when": "opponents-out"})
    assert not hffe.unused("red_three_penalty_hand_when")
    assert hffe.describe("red_three_penalty_hand_when") == "only when a player of another side went out"


# -- red_three_bonus_not_out ------------------------------------------------------------------


def laid(sheet: dict[str, Any], ending: str = "went_out") -> Deal:
    """Ann laid two red threes and Bea one (common rules)."""
    data = two_players(sheet).to_json()
    if ending == "stock_out":
        data |= {"ending": "stock_out", "went_out": None}
        del data["went_out"]
    data["sides"][0]["red_threes"], data["sides"][1]["red_threes"] = 2, 1
    return Deal.from_json(data)


def test_a_red_three_laid_earns_a_side_not_out_the_lesser_bonus():
    deal = laid({"red_three_bonus_not_out": 50})
    assert validate(deal).codes() == []
    assert lines_of(deal)["Red threes laid"] == (2, 100, 200)          # Ann went out: 100 each
    assert "Red threes laid, side not out" not in lines_of(deal)
    assert lines_of(deal, 1)["Red threes laid, side not out"] == (1, 50, 50)  # Bea did not: 50
    # Bea: 9s 30, the ace -20, one red three laid 50
    assert score(deal).totals()["Bea"] == 30 - 20 + 50


def test_when_the_stock_runs_out_no_side_went_out_so_every_red_three_earns_the_lesser_bonus():
    deal = laid({"red_three_bonus_not_out": 50}, "stock_out")
    assert lines_of(deal)["Red threes laid, side not out"] == (2, 50, 100)
    # Ann: 70 + 50 + 40 + clean 500 + dirty 300, no going out, two red threes 2 x 50
    assert score(deal).totals()["Ann"] == 70 + 50 + 40 + 500 + 300 + 2 * 50


def test_without_a_bonus_for_a_side_not_out_every_red_three_laid_earns_the_bonus():
    deal = laid({})  # the near twin: red_three_bonus_not_out null
    assert lines_of(deal, 1)["Red threes laid"] == (1, 100, 100)
    assert score(deal).totals()["Bea"] == 30 - 20 + 100
    sheet = load_sheet({"preset": "common", "red_three_bonus_not_out": 50})
    assert [label for label, _ in pad_lines(sheet, 1) if label.startswith("Red threes laid")] == [
        "Red threes laid × 100", "Red threes laid, side not out × 50"]
    # null says what red_three_bonus says: the house-rule sheet leaves it off, and prints it once set
    assert preset("common").unused("red_three_bonus_not_out") and not sheet.unused("red_three_bonus_not_out")


# -- wild_book_mixed_bonus ----------------------------------------------------------------------

APP = {"wild_books": True, "wild_book_bonus": 1500, "wild_book_mixed_bonus": 1300}


def wild_deal(sheet: dict[str, Any], wild: str) -> Deal:
    """Ann goes out with a clean and a dirty book and the wild book ``wild`` (common rules,
    four players' worth of decks: 5)."""
    return Deal.from_json({"sheet": {"preset": "common", "decks_rule": "fixed", "decks": 5, **sheet}, "deal": 1,
                           "ending": "went_out", "went_out": "Ann", "sides": [
                               {"name": "Ann", "melds": ["K K K K K K K", "Q Q Q Q Q 2 2", wild],
                                "players": [{"name": "Ann", "foot_picked_up": True}]},
                               {"name": "Bea", "melds": ["9 9 9"],
                                "players": [{"name": "Bea", "foot_picked_up": True, "cards_left": "A"}]}]})


BOOKS = 70 + 50 + 40 + 500 + 300 + 100  # Ann's kings, queens, two 2s, clean, dirty, going out


@pytest.mark.parametrize("wild, line, cards", [
    ("2x7", ("Wild books", 1, 1500, 1500), 7 * 20),                          # 2s only: one kind
    ("JKx7", ("Wild books", 1, 1500, 1500), 7 * 50),                         # jokers only: one kind
    ("2x4 JKx3", ("Mixed wild books", 1, 1300, 1300), 4 * 20 + 3 * 50),      # mixed
])
def test_a_wild_book_mixing_2s_and_jokers_scores_the_mixed_bonus(wild, line, cards):
    deal = wild_deal(APP, wild)
    assert validate(deal).codes() == []
    label, *counts = line
    assert lines_of(deal)[label] == tuple(counts)
    assert score(deal).totals()["Ann"] == BOOKS + cards + counts[2]


def test_without_a_mixed_bonus_a_mixed_wild_book_scores_as_any_wild_book():
    deal = wild_deal({"wild_books": True}, "2x4 JKx3")  # the near twin: wild_book_mixed_bonus null
    assert lines_of(deal)["Wild books"] == (1, 1500, 1500)
    assert score(deal).totals()["Ann"] == BOOKS + 4 * 20 + 3 * 50 + 1500


def counted_wild(sheet: dict[str, Any], books: dict[str, int], points: int) -> Deal:
    return Deal.from_json({"sheet": {"preset": "common", "decks_rule": "fixed", "decks": 5, **sheet}, "deal": 1,
                           "ending": "stock_out", "sides": [
                               {"name": "Ann", "books": books, "meld_points": points,
                                "players": [{"name": "Ann", "foot_picked_up": True, "cards_left_points": 0}]},
                               {"name": "Bea", "books": {}, "meld_points": 30,
                                "players": [{"name": "Bea", "foot_picked_up": True, "cards_left_points": 0}]}]})


def test_a_counted_side_gives_its_mixed_wild_books_apart_as_books_wild_mixed():
    deal = counted_wild(APP, {"wild": 1, "wild_mixed": 1}, 140 + 230)
    assert deal.to_json()["sides"][0]["books"] == {"clean": 0, "dirty": 0, "wild": 1, "special": {}, "wild_mixed": 1}
    assert validate(deal).codes() == []
    lines = lines_of(deal)
    assert lines["Wild books"] == (1, 1500, 1500) and lines["Mixed wild books"] == (1, 1300, 1300)
    # melded points 370 + a wild book of one kind 1500 + a mixed one 1300
    assert score(deal).totals()["Ann"] == 370 + 1500 + 1300
    # both are wild books toward going out
    assert side_books(deal.sheet, deal.sides[0]).wild == 2


def test_a_counted_mixed_wild_book_where_no_mixed_bonus_is_set_scores_as_any_wild_book():
    deal = counted_wild({"wild_books": True}, {"wild": 1, "wild_mixed": 1}, 140 + 230)
    assert lines_of(deal)["Wild books"] == (2, 1500, 3000)
    assert score(deal).totals()["Ann"] == 370 + 2 * 1500


def test_a_counted_mixed_wild_book_holds_at_least_a_joker_and_six_2s():
    sheet = load_sheet({"preset": "common", **APP})
    # six 2s (20 each) and one joker (50): 170; a wild book of one kind at the cheapest, seven 2s: 140
    assert cheapest_books(sheet, BookCounts(wild_mixed=1)) == 6 * 20 + 50 == 170
    assert cheapest_books(sheet, BookCounts(wild=1)) == 7 * 20
    short = counted_wild(APP, {"wild_mixed": 1}, 160)
    assert validate(short).codes() == ["counted.meld_points"]
    assert validate(counted_wild(APP, {"wild_mixed": 1}, 170)).codes() == []


def test_mixed_wild_books_where_wild_books_are_not_allowed_are_refused_and_the_box_moot():
    deal = counted_wild({"wild_book_mixed_bonus": 1300}, {"wild_mixed": 1}, 170)
    (problem,) = validate(deal).violations
    assert (problem.code, problem.where) == ("meld.rank", "sides[0].books.wild_mixed")
    common = load_sheet({"preset": "common", "wild_book_mixed_bonus": 1300})
    assert common.unused("wild_book_mixed_bonus") and not common.prices_mixed_wild
    assert load_sheet({"preset": "common", "wild_books": True}).unused("wild_book_mixed_bonus")  # null: as any
    assert not load_sheet({"preset": "common", **APP}).unused("wild_book_mixed_bonus")
    assert "Mixed wild books × 1,300" not in [label for label, _ in pad_lines(common, 1)]
    assert "Mixed wild books × 1,300" in [label for label, _ in pad_lines(load_sheet({"preset": "common", **APP}), 1)]


# -- first_meld_bonus ---------------------------------------------------------------------------


def test_the_first_to_meld_earns_their_side_the_bonus_on_a_line_of_its_own():
    deal = two_players({"first_meld_bonus": 100}, first_meld="bea")
    assert validate(deal).codes() == []
    (line,) = [line for line in score(deal).sides[1].lines if line.code == "first_meld"]
    assert (line.label, line.count, line.each, line.points, line.option, line.player) == (
        "First to meld", 1, 100, 100, "first_meld_bonus", "Bea")
    # Bea: 9s 30, the ace -20, first to meld 100
    assert score(deal).totals() == {"Ann": 1060, "Bea": 30 - 20 + 100}
    assert deal.to_json()["first_meld"] == "bea"
    assert Deal.from_json(deal.to_json()) == deal


def test_a_deal_that_names_nobody_first_scores_no_first_meld_line():
    deal = two_players({"first_meld_bonus": 100})  # the near twin: first_meld not given
    assert "first_meld" not in deal.to_json()
    assert score(deal).totals() == {"Ann": 1060, "Bea": 10}
    assert "First to meld (+100)" in [label for label, _ in pad_lines(deal.sheet, 1)]
    assert "First to meld (+100)" not in [label for label, _ in pad_lines(preset("common"), 1)]
    # no bonus, no rule: the house-rule sheet says nothing of it
    assert preset("common").unused("first_meld_bonus") and not deal.sheet.unused("first_meld_bonus")


def test_first_meld_must_be_a_name():
    with pytest.raises(ReadError) as err:
        two_players({"first_meld_bonus": 100}, first_meld=3)
    assert err.value.field == "first_meld"


def test_the_repeat_check_tells_deals_apart_by_who_melded_first():
    one = two_players({"first_meld_bonus": 100}, first_meld="Ann")
    assert not one.repeats(two_players({"first_meld_bonus": 100}, first_meld="Bea"))
    assert one.repeats(two_players({"first_meld_bonus": 100}, first_meld="Ann"))


def test_the_scorepad_command_reads_a_deal_that_names_the_first_to_meld(tmp_path, capsys):
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(two_players({"first_meld_bonus": 100}, first_meld="Bea").to_json()), encoding="utf-8")
    assert main(["score", str(path)]) == 0
    printed = capsys.readouterr().out
    assert "First to meld" in printed and "(first_meld_bonus)" in printed
    assert "Bea: 110" in printed


# -- every new option, on every surface that reads the catalogue ------------------------------


def test_every_new_option_is_in_the_catalogue_with_a_default_that_keeps_stored_sheets():
    defaults = {name: OPTION_BY_NAME[name].default for name in NEW_OPTIONS}
    assert defaults == {"red_three_mode": RedThreeMode.LAID, "red_three_bonus_not_out": None,
                        "red_three_penalty_hand_when": FootWhen.ANY_ENDING, "wild_book_mixed_bonus": None,
                        "first_meld_bonus": 0}
    every = load_sheet({"preset": "common", "red_three_mode": "held", "red_three_bonus_not_out": 50,
                        "red_three_penalty_hand": 500, "red_three_penalty_hand_when": "opponents-out",
                        "wild_books": True, "wild_book_mixed_bonus": 1300, "first_meld_bonus": 100})
    assert [change.option for change in every.changes()] == [
        "wild_books", "wild_book_mixed_bonus", "first_meld_bonus", "red_three_mode", "red_three_bonus_not_out",
        "red_three_penalty_hand", "red_three_penalty_hand_when"]
    assert load_sheet(every.to_stored_json(), stored=True) == every


def test_scorepad_sheet_prints_every_new_option_in_words(tmp_path, capsys):
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps({"preset": "common", "red_three_mode": "held", "red_three_bonus_not_out": 50,
                                "red_three_penalty_hand": 500, "red_three_penalty_hand_when": "opponents-out",
                                "wild_books": True, "wild_book_mixed_bonus": 1300, "first_meld_bonus": 100}),
                    encoding="utf-8")
    assert main(["sheet", str(path)]) == 0
    printed = capsys.readouterr().out
    for name in NEW_OPTIONS:
        assert OPTION_BY_NAME[name].label in printed, name
    assert "never laid; charged if still held" in printed
    assert "only when a player of another side went out" in printed


def test_a_cap_on_wild_books_counts_mixed_ones_too_and_keeps_the_better_paid():
    capped = {**APP, "book_caps": {"wild": 1}}
    data = wild_deal(capped, "2x4 JKx3").to_json()
    data["sides"][0]["melds"].append("2x7")  # a wild book of 2s only besides the mixed one
    deal = Deal.from_json(data)
    lines = lines_of(deal)
    assert lines["Wild books"] == (1, 1500, 1500)  # the book of one kind keeps its bonus
    assert "Mixed wild books" not in lines
    assert lines["Wild books past the cap of 1 (no bonus)"] == (1, 0, 0)
    # Ann's books: BOOKS; the mixed book's cards 4 x 20 + 3 x 50 and the 2s' book 7 x 20, one wild bonus
    assert score(deal).totals()["Ann"] == BOOKS + 4 * 20 + 3 * 50 + 7 * 20 + 1500
    # where a mixed book pays more, it is the one kept
    dearer = Deal.from_json({**data, "sheet": {**data["sheet"], "wild_book_mixed_bonus": 2000}})
    assert lines_of(dearer)["Mixed wild books"] == (1, 2000, 2000) and "Wild books" not in lines_of(dearer)
