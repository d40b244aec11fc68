"""The printed paper under the options of issue 23's pile, book-growth and opening items: the
house-rule sheet states each in plain words, and the pad prints a failed take's line and a deal
opened with a complete book."""

from __future__ import annotations

from scorepad.paper.house_rules import house_rules
from scorepad.paper.pad import deal_conditions, score_pad
from scorepad.rules import load_sheet
from tests.paper.test_pdf import assert_states_every_option, norm, text_of

# The Roth family's pile and books, on a five-deal sheet whose fifth deal opens with a complete book.
SHEET = load_sheet({"preset": "common", "pile_needs": "one-natural", "pile_new_meld": True, "pile_take_penalty": 100,
                    "book_growth": {"clean": "naturals", "dirty": "closed"}, "deals": 5,
                    "opening_minimums": [50, 90, 120, 150, "book"]})


def test_the_house_rule_sheet_states_the_pile_growth_and_opening_options_in_words():
    text = text_of(house_rules(SHEET))
    assert_states_every_option(SHEET, text)
    for words in ("one natural of the top card's rank from the hand, melded with it at once",
                  "yes, never onto a meld on the table", "minus 100 points each",
                  "a clean book may keep growing with natural cards; a dirty or wild book takes no more cards",
                  "deal 5 a complete book"):
        assert norm(words) in text, words
    # clean books take no wild card here anyway: the rule against one is moot, so left out
    assert "No wild card onto a clean book:" not in text


def test_the_house_rule_sheet_states_no_wild_card_onto_a_clean_book_where_books_take_any_card():
    sheet = load_sheet({"preset": "common", "book_growth": "any", "no_wild_on_clean_book": True})
    text = text_of(house_rules(sheet))
    assert_states_every_option(sheet, text)
    assert norm("a clean book takes natural cards only") in text


def test_the_pad_prints_a_failed_takes_line_in_every_deal_and_the_fifth_deals_book():
    text = text_of(score_pad(SHEET))
    assert text.count("Failed takes of the pile × -100") == 5
    assert "Opening: the first melds include a complete book" in text
    assert deal_conditions(SHEET, 5).startswith("Opening: the first melds include a complete book")
    assert deal_conditions(SHEET, 4).startswith("Opening minimum 150")
    assert "Failed takes" not in text_of(score_pad(load_sheet("common")))
