"""Issue 24's calmer paper, read back from real PDFs (pypdf's text, and pages counted and
rendered as tests/paper/test_pdf.py does): the results state the margin (won by how much,
or who leads by how much while the game goes on, or the tie), list every deal corrected
after it was recorded with each side's total before and after, and end with a line for each
side to sign; the blank pad of a game of four deals fits one page."""

from __future__ import annotations

import pytest

from scorepad.paper.common import load_fonts
from scorepad.paper.pad import ONE_PAGE_DEALS, score_pad
from scorepad.rules import PRESETS
from tests.api.test_api import two_player_deal
from tests.helpers import api_game, bearer
from tests.paper.test_pdf import API, four_deals, get_pdf, page_count, played, rendered_pages, text_of  # noqa: F401

ANN_BEA = [{"name": "Ann", "players": ["Ann"]}, {"name": "Bea", "players": ["Bea"]}]


def test_the_results_of_a_won_game_state_the_margin(client, played):  # noqa: F811
    game_id, _, game = played
    first, second = game.result().standings[:2]
    text = text_of(get_pdf(client, f"/games/{game_id}/results.pdf"))
    assert f"{first.name} wins with {first.total:,}. Margin: {first.total - second.total:,} over {second.name}." in text


def test_the_results_of_a_game_going_on_say_who_leads_by_how_much(client):
    game_id, key = api_game(client, "Friday", "common", ANN_BEA)
    client.post(f"{API}/games/{game_id}/deals", json=two_player_deal(bea_melds=("Q Q Q", "K K K")),
                headers=bearer(key))
    text = text_of(get_pdf(client, f"/games/{game_id}/results.pdf"))
    assert "Game in progress: 1 deal recorded of 4; Bea leads by 30 over Ann." in text


def test_the_results_of_a_level_game_going_on_say_so(client):
    game_id, key = api_game(client, "Friday", "common", ANN_BEA)
    client.post(f"{API}/games/{game_id}/deals", json=two_player_deal(), headers=bearer(key))  # 30 each
    text = text_of(get_pdf(client, f"/games/{game_id}/results.pdf"))
    assert "Game in progress: 1 deal recorded of 4; Ann and Bea are level at 30." in text


def test_the_results_list_each_correction_with_the_totals_before_and_after(client):
    game_id, key = api_game(client, "Friday", "common", ANN_BEA)
    client.post(f"{API}/games/{game_id}/deals", json=two_player_deal(), headers=bearer(key))
    before = text_of(get_pdf(client, f"/games/{game_id}/results.pdf"))
    assert "Corrections None: no deal was changed after it was recorded." in before
    corrected = client.put(f"{API}/games/{game_id}/deals/1", json=two_player_deal(ann_left="K"), headers=bearer(key))
    assert corrected.status_code == 200
    text = text_of(get_pdf(client, f"/games/{game_id}/results.pdf"))
    arrow = load_fonts().arrow
    assert "Deal 1 corrected" in text and f"Ann 30 {arrow} 20." in text
    assert f"Bea 30 {arrow}" not in text  # only the side whose total changed


def test_the_results_end_with_a_line_for_each_side_to_sign(client, played):  # noqa: F811
    game_id, _, game = played
    text = text_of(get_pdf(client, f"/games/{game_id}/results.pdf"))
    tail = text[text.index("Agreed by each side"):]
    for standing in game.result().standings:
        assert f"{standing.name} ({standing.total:,})" in tail
    assert tail.count("Date") == len(game.result().standings)


FOUR_DEALS = [p for p in sorted(PRESETS) if (PRESETS[p].sheet.last_deal() or 99) <= ONE_PAGE_DEALS]


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("preset_id", FOUR_DEALS)
def test_the_blank_pad_of_a_four_deal_game_fits_one_page_with_every_deal(tmp_path, preset_id, paper):
    body = score_pad(PRESETS[preset_id].sheet, paper)
    assert page_count(body) == 1
    assert len(rendered_pages(body, tmp_path, f"{preset_id}-{paper}")) == 1
    text = text_of(body)
    for deal in range(1, PRESETS[preset_id].sheet.last_deal() + 1):
        assert f"Deal {deal}" in text


def test_four_deal_presets_are_the_ones_shipped():
    assert len(FOUR_DEALS) >= 4  # the check above covers the shipped four-deal sheets, not an empty list


def test_a_four_deal_games_own_pad_fits_one_page(client, played, tmp_path):  # noqa: F811
    game_id, _, _ = played
    body = get_pdf(client, f"/games/{game_id}/pad.pdf")
    assert page_count(body) == 1 and len(rendered_pages(body, tmp_path)) == 1
