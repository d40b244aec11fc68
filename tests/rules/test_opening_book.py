"""Specification: a deal opened with a complete book (issue 23, item 1.9), and the decks a sheet seats.

handandfootcalculator.com plays five deals: 50, 90, 120 and 150 points, and in the fifth the
first melds must include a complete book (``opening_minimums`` ``[50, 90, 120, 150, "book"]``).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from scorepad.rules import Deal, Meld, SheetError, load_sheet, validate
from scorepad.rules.cards import Card
from scorepad.rules.choices import OpeningBook, PerDeal
from scorepad.rules.game import Game
from scorepad.rules.rulings import can_take_pile, meets_minimum
from tests.rules.test_validate import BASE

FIVE = {"preset": "common", "deals": 5, "opening_minimums": [50, 90, 120, 150, "book"]}
SHEET = load_sheet(FIVE)


def melds(*cards: str) -> list[Meld]:
    return [Meld.from_json(c) for c in cards]


def test_the_fifth_deal_is_opened_with_a_complete_book():
    assert SHEET.opening_minimums == PerDeal((50, 90, 120, 150, OpeningBook.BOOK))
    assert [SHEET.opening_book(n) for n in range(1, 6)] == [False, False, False, False, True]
    assert SHEET.opening_minimum(5) == 0  # no number of points: the book is the minimum
    assert SHEET.describe("opening_minimums") == "deal 1 50, deal 2 90, deal 3 120, deal 4 150, deal 5 a complete book"
    assert SHEET.to_json()["opening_minimums"] == [50, 90, 120, 150, "book"]
    assert load_sheet(SHEET.to_stored_json(), stored=True) == SHEET


def test_a_word_other_than_book_is_refused_naming_the_deal():
    with pytest.raises(SheetError) as err:
        load_sheet({**FIVE, "opening_minimums": [50, 90, 120, 150, "canasta"]})
    assert err.value.field == "sheet.opening_minimums[4]"


def test_the_referee_says_first_melds_with_a_book_meet_the_fifth_deals_minimum():
    # Seven kings: a clean book of 7, 70 points; no number of points is asked.
    answer = meets_minimum(SHEET, 5, melds("Kx7"))
    assert answer.yes
    assert answer.reasons[0].option == "opening_minimums" and "a complete book" in answer.reasons[0].message


def test_the_referee_refuses_first_melds_without_a_book_however_many_points():
    # K K K K K K + A A A A A A = 6 x 10 + 6 x 20 = 180 points, more than any deal's minimum, but no book.
    answer = meets_minimum(SHEET, 5, melds("Kx6", "Ax6"))
    assert not answer.yes
    assert [r.option for r in answer.reasons if not r.ok] == ["opening_minimums"]
    assert meets_minimum(SHEET, 4, melds("Kx6", "Ax6")).yes  # the near twin: 180 >= deal 4's 150


def test_a_dirty_book_is_a_complete_book_too():
    assert meets_minimum(SHEET, 5, melds("Kx5 2 2")).yes


def opening_deal(number: int, opening: list[str]) -> dict[str, Any]:
    data = copy.deepcopy(BASE["common"])
    data["sheet"], data["deal"] = FIVE, number
    data["sides"][0]["players"][0]["opening"] = {"melds": opening}
    return data


def test_an_opening_without_a_book_in_the_fifth_deal_is_opening_minimum():
    report = validate(Deal.from_json(opening_deal(5, ["K K K", "Q Q Q"])))
    assert [(p.code, p.option, p.where) for p in report.violations] == [
        ("opening.minimum", "opening_minimums", "sides[0].players[0].opening.melds")]
    assert "complete book" in report.violations[0].message
    assert validate(Deal.from_json(opening_deal(5, ["Kx7"]))).ok  # the near twin: the book of kings


def test_a_fifth_deal_without_its_opening_lists_the_book_as_not_checked():
    data = opening_deal(5, ["Kx7"])
    del data["sides"][0]["players"][0]["opening"]
    assert [(u.what, u.option) for u in validate(Deal.from_json(data)).not_checked][:1] == [
        ("opening", "opening_minimums")]


def test_the_next_deal_says_a_complete_book():
    game = Game(SHEET, ("Ann", "Bea"))
    fifth, fourth = game.deal_rules(5), game.deal_rules(4)
    assert fifth.opening_book and not fourth.opening_book
    assert fifth.to_json()["opening_book"] is True and "opening_book" not in fourth.to_json()
    assert "opening minimum a complete book" in fifth.words()
    assert fifth.opening_words == "a complete book" and fourth.opening_words == "150"


def test_taking_the_pile_before_opening_in_the_fifth_deal_says_a_book_is_still_needed():
    sheet = load_sheet({**FIVE, "preset": "pagat"})
    answer = can_take_pile(sheet, 5, top_card=Card.NINE, pair=2, opened=False, pile_size=9)
    assert answer.yes and "must still include a complete book" in answer.why


# -- decks_by_players asks only for numbers of players the sheet seats (the round's finding) ------------------


def test_decks_by_players_need_no_count_for_a_number_the_sides_never_seat():
    # Partnerships of 2 from 4 to 8 players seat 4, 6 and 8 (4 / 2 = 2 sides, 6 / 2 = 3, 8 / 2 = 4); 5 and 7 never.
    sheet = load_sheet({"preset": "common", "side_sizes": [2], "min_players": 4, "max_players": 8,
                        "decks_rule": "by-players", "decks_by_players": {"4": 5, "6": 6, "8": 7}})
    assert sheet.seatable() == (4, 6, 8)
    assert [sheet.decks_for(n) for n in (4, 6, 8)] == [5, 6, 7]


def test_decks_by_players_still_needs_every_number_the_sheet_seats():
    with pytest.raises(SheetError) as err:
        load_sheet({"preset": "common", "side_sizes": [2], "min_players": 4, "max_players": 8,
                    "decks_rule": "by-players", "decks_by_players": {"4": 5, "8": 7}})
    assert err.value.field == "sheet.decks_by_players"
    assert "6 players" in err.value.reason and "4, 6 or 8" in err.value.reason
