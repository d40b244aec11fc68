"""Specification: special books asked for by rank to go out (issue 23, item 1.5).

Hand, Knee and Foot (laguna-woods-app.txt, handkneefoot-scorer.txt) goes out only with a wild
book, a book of sevens, a book of fives, a clean and a dirty book; handandfootcalculator.txt
asks for a wild canasta and a sevens canasta besides natural and mixed ones. A number of
"special" books cannot say "one of each", so ``books_to_go_out.special`` also takes counts
by rank, ``{"7": 1, "5": 1}``: a rank named is filled only by a book of that rank (clean, or
dirty where ``special_books_dirty`` prices it), and a book of threes only by a requirement
naming 3R or 3B.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorepad.rules import Deal, load_sheet, score, validate
from scorepad.rules.books import HeldBooks, books_toward, side_books
from scorepad.rules.cards import Card
from scorepad.rules.choices import Books
from scorepad.rules.errors import SheetError
from scorepad.rules.progress import going_out_progress
from scorepad.rules.questions import ask_go_out

# Hand, Knee and Foot's contract as the card rooms write it, on the common sheet's play.
HKF = {"preset": "common", "decks_rule": "fixed", "decks": 6, "wild_books": True, "wild_book_bonus": 2500,
       "special_books": {"7": 5000, "5": 3000}, "going_out_bonus": 200,
       "books_to_go_out": {"clean": 1, "dirty": 1, "wild": 1, "special": {"7": 1, "5": 1}}}
KINGS, QUEENS, WILD = "K K K K K K K", "Q Q Q Q Q 2 2", "JK JK JK JK 2 2 2"
SEVENS, FIVES = "7 7 7 7 7 7 7", "5 5 5 5 5 5 5"


def deal_of(sheet: dict[str, Any], melds: list[Any] | None = None, books: dict[str, Any] | None = None,
            meld_points: int = 0) -> Deal:
    """Ann goes out with ``melds`` (or counted ``books``); Bea melded three 9s and holds an ace."""
    ann: dict[str, Any] = {"name": "Ann", "players": [{"name": "Ann", "foot_picked_up": True}]}
    if books is None:
        ann["melds"] = melds or []
    else:
        ann.update(books=books, meld_points=meld_points)
        ann["players"][0]["cards_left_points"] = 0
    return Deal.from_json({"sheet": sheet, "deal": 1, "ending": "went_out", "went_out": "Ann", "sides": [
        ann, {"name": "Bea", "melds": ["9 9 9"],
              "players": [{"name": "Bea", "foot_picked_up": True, "cards_left": "A"}]}]})


def test_special_books_asked_for_by_rank_are_said_book_by_book():
    sheet = load_sheet(HKF)
    assert sheet.describe("books_to_go_out") == "1 clean + 1 dirty + 1 wild + a book of sevens + a book of fives"
    assert sheet.going_out_books(1) == Books(clean=1, dirty=1, wild=1, named=((Card.SEVEN, 1), (Card.FIVE, 1)))
    assert sheet.to_json()["books_to_go_out"] == {"clean": 1, "dirty": 1, "wild": 1, "special": {"7": 1, "5": 1}}
    assert load_sheet(sheet.to_json()) == sheet
    # a number keeps its meaning, and writes as a number
    numeric = load_sheet({**HKF, "books_to_go_out": {"clean": 1, "dirty": 1, "special": 2}})
    assert numeric.going_out_books(1) == Books(clean=1, dirty=1, special=2)
    assert numeric.to_json()["books_to_go_out"] == {"clean": 1, "dirty": 1, "wild": 0, "special": 2}


def test_going_out_without_the_book_of_fives_asked_for_is_went_out_books_naming_the_fives():
    # Two books of sevens, no fives: the second sevens book is a clean book, never a fives book.
    short = deal_of(HKF, [KINGS, QUEENS, WILD, SEVENS, SEVENS])
    (problem,) = validate(short).violations
    assert (problem.code, problem.option, problem.where) == ("went_out.books", "books_to_go_out", "sides[0].melds")
    assert problem.message.endswith(": no book of fives.")
    assert "needs 1 clean + 1 dirty + 1 wild + a book of sevens + a book of fives;" in problem.message
    # The legal near twin: a book of fives in place of the second sevens.
    legal = deal_of(HKF, [KINGS, QUEENS, WILD, SEVENS, FIVES])
    assert validate(legal).codes() == []
    side = score(legal).sides[0]
    # cards: kings 7 × 10 + queens 5 × 10 + sevens 7 × 5 + fives 7 × 5 + 2s (2 + 3) × 20 + jokers 4 × 50
    # bonuses: clean 500 + dirty 300 + wild 2,500 + sevens 5,000 + fives 3,000 + going out 200
    assert side.total == 70 + 50 + 35 + 35 + 100 + 200 + 500 + 300 + 2500 + 5000 + 3000 + 200 == 11_990


def test_a_referee_asked_with_two_books_of_sevens_and_no_fives_says_not_yet():
    # The round's finding: told "you may go out" with two sevens books and no fives book.
    sheet = load_sheet(HKF)
    answer = ask_go_out(sheet, {"melds": [KINGS, QUEENS, WILD, SEVENS, SEVENS]})
    assert answer.yes is False
    reason = answer.reasons[0]
    assert reason.option == "books_to_go_out"
    assert reason.message == ("Deal 1 needs 1 clean + 1 dirty + 1 wild + a book of sevens + a book of fives to go "
                              "out; the side has 1 clean, 1 dirty, 1 wild, 2 special (sevens 1/1, fives 0/1).")
    assert ask_go_out(sheet, {"melds": [KINGS, QUEENS, WILD, SEVENS, FIVES]}).yes is True


def test_the_go_out_question_counts_special_books_by_rank():
    sheet = load_sheet(HKF)
    by_rank = {"clean": 1, "dirty": 1, "wild": 1, "special": {"7": 1, "5": 1}}
    assert ask_go_out(sheet, {"books": by_rank}).yes is True
    assert ask_go_out(sheet, {"books": {**by_rank, "special": {"7": 2}}}).yes is False
    # two special books of no rank said fill no book asked for by rank
    assert ask_go_out(sheet, {"books": {**by_rank, "special": 2}}).yes is False
    # a page sends text
    assert ask_go_out(sheet, {"books": {**by_rank, "special": {"7": "1", "5": "1"}}}, forms=True).yes is True


def test_a_counted_side_short_of_a_rank_asked_for_is_went_out_books_naming_it():
    # clean 1 + dirty 1 + wild 1 + sevens 2, counted: 5 books; melded points at least the cheapest
    books = {"clean": 1, "dirty": 1, "wild": 1, "special": {"7": 2}}
    points = 7 * 5 + (6 * 5 + 20) + 7 * 20 + 2 * 7 * 5  # fours, fours and a 2, seven 2s, two books of sevens
    deal = deal_of(HKF, books=books, meld_points=points)
    assert [p.code for p in validate(deal).violations] == ["went_out.books"]
    assert validate(deal).violations[0].message.endswith(": no book of fives.")
    twin = deal_of(HKF, books={**books, "special": {"7": 1, "5": 1}}, meld_points=points)
    assert validate(twin).violations == ()


def test_a_dirty_book_of_a_rank_asked_for_fills_it_only_where_special_books_dirty_prices_it():
    dirty_sevens = "7 7 7 7 7 2 JK"
    unpriced = deal_of(HKF, [KINGS, QUEENS, WILD, dirty_sevens, FIVES])
    assert [p.code for p in validate(unpriced).violations] == ["went_out.books"]
    assert validate(unpriced).violations[0].message.endswith(": no book of sevens.")
    priced = deal_of({**HKF, "special_books_dirty": {"7": 2500}}, [KINGS, QUEENS, WILD, dirty_sevens, FIVES])
    assert validate(priced).codes() == []


def test_a_book_of_threes_fills_only_a_requirement_naming_its_threes():
    sheet = {**HKF, "three_books": {"3R": 1000}, "decks": 8,
             "books_to_go_out": {"clean": 1, "dirty": 1, "special": {"3R": 1}}}
    assert validate(deal_of(sheet, [KINGS, QUEENS, "3Rx7"])).codes() == []
    # a book of sevens is no book of red threes
    assert validate(deal_of(sheet, [KINGS, QUEENS, SEVENS])).codes() == ["went_out.books"]


def test_a_numeric_special_requirement_is_filled_by_books_of_the_ranks_special_books_names_not_threes():
    # Decided by the texts: every source that asks for special books to go out names ranks of
    # naturals (sevens, fives); its book of red threes is a bonus for threes laid, never part of
    # the contract. So where special_books names ranks, a book of threes fills no number of
    # special books (it still counts past the requirements as special_books_count_as says).
    sheet = {**HKF, "three_books": {"3R": 1000}, "decks": 8,
             "books_to_go_out": {"clean": 1, "dirty": 1, "special": 1}}
    assert validate(deal_of(sheet, [KINGS, QUEENS, "3Rx7"])).codes() == ["went_out.books"]
    assert validate(deal_of(sheet, [KINGS, QUEENS, SEVENS])).codes() == []
    # Held 1 clean + 1 dirty + 1 red-three book: special 0/1; counted as clean the threes book is
    # a second clean book.
    held = side_books(load_sheet(sheet), deal_of(sheet, [KINGS, QUEENS, "3Rx7"]).sides[0])
    assert held == HeldBooks(clean=1, dirty=1, special=1, threes=1, ranks=((Card.RED_THREE, 1, 0),))
    assert books_toward(load_sheet(sheet), Books(clean=1, dirty=1, special=1), held) == Books(clean=2, dirty=1)
    # On a sheet naming no special_books the number can mean only books of threes, as before.
    threes_only = {"preset": "common", "three_books": {"3R": 1000}, "decks_rule": "fixed", "decks": 5,
                   "books_to_go_out": {"clean": 1, "dirty": 1, "special": 1}}
    assert validate(deal_of(threes_only, [KINGS, QUEENS, "3Rx7"])).codes() == []


def test_a_rank_asked_for_must_be_one_special_books_or_three_books_names():
    with pytest.raises(SheetError) as refused:
        load_sheet({**HKF, "special_books": {"7": 5000}})
    assert refused.value.field == "sheet.books_to_go_out.special.5"
    assert "asks for a book of fives, but special_books names no such book" in str(refused.value)
    with pytest.raises(SheetError) as threes:
        load_sheet({**HKF, "books_to_go_out": {"special": {"3R": 1}}})
    assert threes.value.field == "sheet.books_to_go_out.special.3R"
    with pytest.raises(SheetError) as rank:
        load_sheet({**HKF, "books_to_go_out": {"special": {"2": 1}}})
    assert rank.value.field == "sheet.books_to_go_out.special.2"


def test_a_schedule_of_books_by_deal_may_name_ranks_in_some_deals():
    # handandfootcalculator's shape: plain books early, a sevens book asked for in the last deal
    sheet = load_sheet({**HKF, "deals": 2, "books_to_go_out": [{"clean": 1, "dirty": 1},
                                                               {"clean": 1, "dirty": 1, "special": {"7": 1}}]})
    assert sheet.describe("books_to_go_out") == "deal 1 1 clean + 1 dirty, deal 2 1 clean + 1 dirty + a book of sevens"
    assert ask_go_out(sheet, {"deal": 1, "melds": [KINGS, QUEENS]}).yes is True
    assert ask_go_out(sheet, {"deal": 2, "melds": [KINGS, QUEENS]}).yes is False
    assert ask_go_out(sheet, {"deal": 2, "melds": [KINGS, QUEENS, SEVENS]}).yes is True


def test_the_deal_forms_progress_shows_each_rank_asked_for():
    sheet = load_sheet(HKF)
    deal = deal_of(HKF, [KINGS, QUEENS, WILD, SEVENS, SEVENS])
    progress = going_out_progress(sheet, deal, sheet.going_out_books(1), 0)
    # the second sevens book counts as a clean book (special_books_count_as: clean), never as fives
    assert progress.progress == "clean 2/1, dirty 1/1, wild 1/1, sevens 1/1, fives 0/1"
    assert progress.why_not == ("1 more book of fives",)


def test_two_books_of_a_rank_asked_for_say_how_many_are_missing():
    sheet = {**HKF, "books_to_go_out": {"clean": 1, "dirty": 1, "special": {"7": 2}}}
    assert load_sheet(sheet).describe("books_to_go_out") == "1 clean + 1 dirty + 2 books of sevens"
    (problem,) = validate(deal_of(sheet, [KINGS, QUEENS, SEVENS])).violations
    assert problem.message.endswith(": 1 of 2 books of sevens.")
    assert validate(deal_of(sheet, [KINGS, QUEENS, SEVENS, SEVENS])).codes() == []
    read = load_sheet(sheet)
    progress = going_out_progress(read, deal_of(sheet, [KINGS, QUEENS]), read.going_out_books(1), 0)
    assert (progress.progress, progress.why_not) == ("clean 1/1, dirty 1/1, sevens 0/2", ("2 more books of sevens",))


def test_a_dirty_book_of_a_rank_fills_its_requirement_when_that_frees_a_clean_one():
    # 1 clean + 1 dirty + a book of sevens, held: a clean and a dirty book of sevens (priced) and
    # a dirty book of queens. The dirty sevens fill the sevens, the clean sevens the clean book:
    # nothing short. (The clean sevens filling the sevens would leave no clean book.)
    sheet = {**HKF, "special_books_dirty": {"7": 2500},
             "books_to_go_out": {"clean": 1, "dirty": 1, "special": {"7": 1}}}
    assert validate(deal_of(sheet, ["7 7 7 7 7 2 JK", SEVENS, QUEENS])).codes() == []
    held = HeldBooks(dirty=1, special=1, special_dirty=1, ranks=((Card.SEVEN, 1, 1),))
    need = Books(clean=1, dirty=1, named=((Card.SEVEN, 1),))
    assert books_toward(load_sheet(sheet), need, held) == Books(clean=1, dirty=1, named=((Card.SEVEN, 1),))
