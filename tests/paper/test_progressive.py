"""The progressive preset on paper: its house-rule sheet on one page with its house rule, and
score pads whose every deal block gives that deal's rising requirements. Real PDF text."""

from __future__ import annotations

import json

import pytest

from scorepad.rules import PRESETS
from tests.helpers import api_game
from tests.paper.test_pdf import get_pdf, page_count, record, text_of
from tests.rules.test_progressive import GAME_FILE

FOOT_RULE = "A player picks up the foot only once every card of the hand has been played."
# Each deal's block on the pad: its opening minimum, books to go out, going-out bonus and draws.
RISING = ((90, 3, 300, 3), (120, 4, 400, 4), (150, 5, 500, 5), (180, 6, 600, 6))
CONDITIONS = [f"Opening minimum {minimum} (the side, once). To go out: {books} clean + {books} dirty books. "
              f"Going out +{bonus}. This deal: draw {draws}." for minimum, books, bonus, draws in RISING]


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_the_progressive_house_rule_sheet_is_one_page_with_its_house_rule(client, paper):
    body = get_pdf(client, f"/sheets/progressive.pdf?paper={paper}")
    assert page_count(body) == 1
    text = text_of(body)
    # under the options, on a line of its own, once
    assert text.index("Scoring and game length") < text.index(f"House rules • {FOOT_RULE}")
    assert text.count(FOOT_RULE) == 1
    for note in PRESETS["progressive"].not_stated.values():
        assert " ".join(note.split()) in text
    assert "Cards drawn per turn: deal 1 3, deal 2 4, deal 3 5, deal 4 6" in text
    assert "Going out: deal 1 300 points, deal 2 400 points, deal 3 500 points, deal 4 600 points" in text


def test_a_sheet_without_house_rules_prints_no_house_rules_heading(client):
    text = text_of(get_pdf(client, "/sheets/common.pdf"))
    assert "House rules: Common rules" in text  # the title
    assert "House rules •" not in text and "Always, on this sheet" not in text


def test_a_progressive_games_house_rules_stay_on_one_page_with_its_sides_and_link(client):
    game_id, _ = api_game(client, "Progressive", "progressive")
    body = get_pdf(client, f"/games/{game_id}/sheet.pdf")
    assert page_count(body) == 1 and FOOT_RULE in text_of(body)


def test_the_blank_progressive_pad_gives_each_deal_its_rising_requirements(client):
    text = text_of(get_pdf(client, "/sheets/progressive/pad.pdf"))
    # Deal n's heading and side columns, then its requirements, in deal order.
    at = [text.index(f"Deal {n} Side 1 Side 2 Side 3 Side 4 {said}") for n, said in enumerate(CONDITIONS, 1)]
    assert at == sorted(at)
    assert "Clean books of 7s × 1,000" in text and "Wild books × 1,500" in text
    assert "Going out (+300)" in text and "Going out (+600)" in text


def test_a_progressive_games_pad_after_two_deals_names_deal_3_next_with_its_requirements(client):
    deals = json.loads(GAME_FILE.read_text(encoding="utf-8"))["deals"]
    game_id, key = api_game(client, "Progressive", "progressive")
    for deal in deals[:2]:
        record(client, game_id, key, deal)
    text = text_of(get_pdf(client, f"/games/{game_id}/pad.pdf"))
    # Before deal 3: Ann 3,815 + 5 = 3,820, Bea 5 + 6,045 = 6,050.
    assert ("Deal 3 is next: opening minimum Ann 150, Bea 150 (totals before it: Ann 3,820, Bea 6,050); "
            "to go out 5 clean + 5 dirty books; going out +500") in text
    assert CONDITIONS[2] in text
