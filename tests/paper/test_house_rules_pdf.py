"""A table's house rules on its house-rule sheet: under the options, one line each, whole,
and the sheet still one page with twelve rules of 200 characters on the fullest sheet.
Real PDFs, read back with pypdf's text extraction (and rendered with pdftoppm to count
pages)."""

from __future__ import annotations

import pytest

from scorepad.paper.common import MIN_SIZE
from scorepad.paper.house_rules import house_rules
from scorepad.rules import load_sheet
from scorepad.rules.limits import MAX_HOUSE_RULE, MAX_HOUSE_RULES
from tests.helpers import api_game
from tests.paper.test_pdf import (
    EIGHT,
    LONGEST,
    assert_states_every_option,
    font_sizes,
    get_pdf,
    load_fonts,
    needs_pdftoppm,
    page_count,
    rendered_pages,
    text_of,
)

FOOT_RULE = "A player picks up the foot only once every card of the hand has been played."
RULES = ["The stock is split in two; a player draws from either half.",
         "A player who empties the hand walks into the foot: the turn goes on from it.",
         "Cards pass to the left in odd deals, to the right in even ones."]
# Twelve rules of 200 characters each, every word a real one so that lines wrap as they would.
WORDS = "a card buried on a closed book stays there until the deal is over, and the table says so first; " * 3
FULL = [(f"Rule {n:02d}: " + WORDS)[:MAX_HOUSE_RULE - 1].rstrip().ljust(MAX_HOUSE_RULE - 1, "s") + "."
        for n in range(1, MAX_HOUSE_RULES + 1)]


def test_house_rules_are_printed_under_the_options_one_line_each_in_order():
    sheet = load_sheet({"preset": "common", "house_rules": RULES})
    body = house_rules(sheet)
    assert page_count(body) == 1
    text = text_of(body)
    assert_states_every_option(sheet, text)
    listed = "* House rules CHANGED " + " ".join(f"• {rule}" for rule in RULES)
    assert listed in text
    assert text.index("Scoring and game length") < text.index(listed)
    assert all(text.count(f"• {rule}") == 1 for rule in RULES)  # a line each, under the options
    arrow = load_fonts().arrow
    assert f"Changed from the preset (1) * House rules: none {arrow} {RULES[0]} {RULES[1][:18]}" in text  # first


def test_a_changed_house_rule_is_listed_first_preset_value_to_new():
    arrow = load_fonts().arrow
    text = text_of(house_rules(load_sheet({"preset": "progressive", "house_rules": []})))
    assert f"* House rules: {FOOT_RULE[:59].rstrip()}… {arrow} none" in text  # cut at 60 characters
    assert "* House rules CHANGED None: the table dropped its preset's." in text


def test_a_game_prints_its_preset_house_rule_once_unchanged(client):
    game_id, _key = api_game(client, "Progressive", "progressive")
    text = text_of(get_pdf(client, f"/games/{game_id}/sheet.pdf"))
    assert f"House rules • {FOOT_RULE}" in text and text.count(FOOT_RULE) == 1
    assert "CHANGED" not in text.replace("marked * CHANGED", "")


def test_twelve_rules_of_200_characters_each_are_read_and_each_is_200():
    assert {len(rule) for rule in FULL} == {MAX_HOUSE_RULE} and len(FULL) == MAX_HOUSE_RULES


@needs_pdftoppm
@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_the_fullest_sheet_with_twelve_long_house_rules_stays_on_one_page_every_rule_whole(tmp_path, paper):
    for base in ({"preset": "progressive"}, LONGEST):
        sheet = load_sheet({**base, "house_rules": FULL})
        body = house_rules(sheet, paper, EIGHT)
        assert len(rendered_pages(body, tmp_path, paper)) == 1
        text = text_of(body)
        assert all(f"• {rule}" in text for rule in FULL)  # never cut short, even where other values are
        assert min(font_sizes(body)) >= MIN_SIZE
        if base is not LONGEST:  # a sheet a table plays: every option whole too
            assert_states_every_option(sheet, text)
