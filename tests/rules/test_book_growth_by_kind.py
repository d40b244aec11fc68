"""Specification: books that grow past full size by kind (issue 23, item 1.7), and the round's findings on
melds past a book.

The Roth family's clean books take more naturals while a dirty book is exactly seven cards
(``book_growth`` ``{"clean": "naturals", "dirty": "closed"}``); a private web game lets books
grow but puts no wild card onto a clean one (``book_growth`` ``any`` and
``no_wild_on_clean_book``). A meld past the book size is judged by the kind it is now: a clean
book that took a wild card is a dirty one, and a wild book grows as dirty books do.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from scorepad.rules import Deal, Meld, SheetError, load_sheet, validate
from scorepad.rules.choices import BookGrowth, GrowthByKind
from scorepad.rules.rulings import can_meld
from tests.rules.test_validate import BASE

ROTH = {"clean": "naturals", "dirty": "closed"}


def sheet(growth: Any, preset: str = "common", **more: Any):
    return load_sheet({"preset": preset, "book_growth": growth, **more})


def meld(cards: str) -> Meld:
    return Meld.from_json(cards)


def problems(growth: Any, cards: str, preset: str = "common", **more: Any) -> list[tuple[str, str | None, str]]:
    """The violations once Ann's third meld, J J J (common), or North-South's wild book (pagat) is ``cards``."""
    data = copy.deepcopy(BASE[preset])
    data["sheet"] = {"preset": preset, "book_growth": growth, **more}
    data["sides"][0]["melds"][INDEX[preset]] = cards
    return [(p.code, p.option, p.where) for p in validate(Deal.from_json(data)).violations]


INDEX = {"common": 2, "pagat": 4}
SIZE = [("meld.size", "book_growth", "sides[0].melds[2]")]
WILD_SIZE = [("meld.size", "book_growth", "sides[0].melds[4]")]


# -- reading and writing -----------------------------------------------------------------------------


def test_one_word_for_each_kind_is_read_and_written_as_given():
    roth = sheet(ROTH)
    assert roth.book_growth == GrowthByKind(BookGrowth.NATURALS, BookGrowth.CLOSED)
    assert roth.to_json()["book_growth"] == ROTH
    assert load_sheet(roth.to_stored_json(), stored=True) == roth


def test_the_same_word_for_both_kinds_is_that_word_as_sheets_always_wrote_it():
    both = sheet({"clean": "naturals", "dirty": "naturals"})
    assert both.book_growth is BookGrowth.NATURALS
    assert both == sheet("naturals")
    assert both.to_json()["book_growth"] == "naturals"
    assert load_sheet("common").to_json(full=True)["book_growth"] == "closed"  # the default, as stored today


@pytest.mark.parametrize("growth, field", [
    ({"clean": "naturals"}, "sheet.book_growth.dirty"),
    ({"clean": "naturals", "dirty": "closed", "wild": "any"}, "sheet.book_growth.wild"),
    ({"clean": "grows", "dirty": "closed"}, "sheet.book_growth.clean"),
    ("open", "sheet.book_growth"),
])
def test_growth_that_cannot_be_read_names_the_kind(growth, field):
    with pytest.raises(SheetError) as err:
        sheet(growth)
    assert err.value.field == field


def test_growth_by_kind_in_words():
    assert sheet(ROTH).describe("book_growth") == ("a clean book may keep growing with natural cards; "
                                                   "a dirty or wild book takes no more cards")
    assert sheet("naturals").describe("book_growth") == "a book may keep growing with natural cards"


# -- a recorded meld past the book size, judged by its own kind ------------------------------------------


def test_roth_a_clean_book_grows_with_naturals():
    assert problems(ROTH, "Jx8") == []  # eight jacks: a clean book of 7 and one more natural


def test_roth_a_dirty_book_is_exactly_seven_cards():
    # 7 jacks and a 2: a dirty meld of 8 (a clean book that took a wild card is dirty), and dirty books close.
    assert problems(ROTH, "Jx7 2") == SIZE
    assert problems(ROTH, "Jx6 2") == []  # the near twin: a dirty book of 7


def test_clean_books_closed_and_dirty_books_growing():
    growth = {"clean": "closed", "dirty": "any"}
    assert problems(growth, "Jx8") == SIZE
    assert problems(growth, "Jx7 2") == []  # dirty, 8 cards: 7 naturals > 1 wild, within the limits


def test_a_clean_book_that_takes_a_wild_card_is_judged_as_dirty():
    # Clean books take any card, dirty ones naturals only: a dirty meld past 7 holds no more wild cards
    # than a legal book of 7 (common: at most 3).
    growth = {"clean": "any", "dirty": "naturals"}
    assert problems(growth, "Jx7 2") == []  # 1 wild <= 3
    assert problems(growth, "Jx5 2 2 2") == []  # 8 cards, 3 wilds <= 3 (and 5 naturals > 3 wilds)
    # 9 cards, 4 of them wild (5 naturals > 4 wilds, no cap on wilds): a legal book of 7 holds at most 3
    # (4 naturals > 3 wilds), so a wild card went onto a book that grows with naturals only.
    assert problems(growth, "Jx5 2 2 JK JK", max_wilds=None) == SIZE


def test_a_wild_book_grows_as_dirty_books_do():
    # Pagat allows wild books: 8 wild cards is a wild book past 7.
    assert problems(ROTH, "2x4 JKx4", preset="pagat") == WILD_SIZE
    assert problems({"clean": "closed", "dirty": "any"}, "2x4 JKx4", preset="pagat") == []


def test_no_wild_on_a_clean_book_leaves_a_recorded_meld_as_dirty_books_judge_it():
    # A dirty meld of 9 may have been dirty since it was a book (6 jacks and a 2, then two jacks):
    # no recorded meld shows that a wild card went onto a clean book.
    assert problems("any", "Jx8 2", no_wild_on_clean_book=True) == []


# -- the referee: adding to a book -------------------------------------------------------------------------


def test_the_referee_refuses_a_card_onto_a_book_its_kind_closes():
    roth = sheet(ROTH)
    assert can_meld(roth, meld("K"), adding_to=meld("Kx7")).yes  # a clean book takes a natural
    answer = can_meld(roth, meld("K"), adding_to=meld("Kx6 2"))
    assert not answer.yes and answer.reasons[0].option == "book_growth"
    assert "finished dirty book of 7" in answer.reasons[0].message


def test_the_referee_judges_a_clean_book_that_takes_a_wild_card_as_the_dirty_meld_it_becomes():
    # Clean books grow with any card, dirty ones are closed: 7 kings and a 2 is a dirty meld of 8.
    closed_dirty = sheet({"clean": "any", "dirty": "closed"})
    answer = can_meld(closed_dirty, meld("2"), adding_to=meld("Kx7"))
    assert not answer.yes and [r.option for r in answer.reasons if not r.ok] == ["book_growth"]
    assert can_meld(sheet({"clean": "any", "dirty": "naturals"}), meld("2"), adding_to=meld("Kx7")).yes


def test_no_wild_card_goes_onto_a_clean_book_where_the_sheet_says_so():
    rule = sheet("any", no_wild_on_clean_book=True)
    answer = can_meld(rule, meld("2"), adding_to=meld("Kx7"))
    assert not answer.yes and answer.reasons[0].option == "no_wild_on_clean_book"
    assert can_meld(rule, meld("K"), adding_to=meld("Kx7")).yes  # a natural may go on
    assert can_meld(rule, meld("2"), adding_to=meld("Kx6 2")).yes  # a dirty book takes the wild card: 6 > 2
    assert can_meld(sheet("any"), meld("2"), adding_to=meld("Kx7")).yes  # without the rule it may


def test_no_wild_on_a_clean_book_is_left_out_where_clean_books_take_no_wild_card_anyway():
    assert sheet("naturals").unused("no_wild_on_clean_book")
    assert sheet(ROTH).unused("no_wild_on_clean_book")
    assert not sheet("any").unused("no_wild_on_clean_book")
    assert not load_sheet("common").no_wild_on_clean_book  # the default: as books past full size says


def test_a_legal_meld_past_the_book_cites_book_growth_not_meld_min():
    # The round's finding: 8 kings on a sheet whose books grow is legal, and the reason is the book's growth.
    answer = can_meld(sheet("naturals"), meld("Jx8"))
    assert answer.yes
    (reason,) = [r for r in answer.reasons if r.option in ("meld_min", "book_growth")]
    assert reason.option == "book_growth"
    assert reason.message.startswith("8 cards: a book of 7 grown past its size")
    # the near twin: a meld within a book still cites meld_min
    assert [r.option for r in can_meld(sheet("naturals"), meld("Kx5")).reasons] == ["meld_min"]


def test_a_sheet_built_in_python_holds_the_one_word_where_both_kinds_grow_alike():
    with pytest.raises(SheetError) as err:
        load_sheet("common").replace(book_growth=GrowthByKind(BookGrowth.ANY, BookGrowth.ANY))
    assert err.value.field == "book_growth" and "give the one word" in err.value.reason
    assert load_sheet("common").replace(book_growth=GrowthByKind(BookGrowth.ANY, BookGrowth.CLOSED)).growth(True) \
        is BookGrowth.CLOSED
