"""The paper of a game its table ends (``game_length: open``, issue 23 item 1.9): the pad says
the table ends the game and prints each per-deal value past its schedule as its last one; the
results say who leads until the game is ended, and who won once it is.

``valid_deal`` scores Ann 1,060 and Bea 5 a deal (tests/storage/test_ended_games.py works it).
"""

from __future__ import annotations

import re

from scorepad.paper.pad import score_pad
from scorepad.rules import load_sheet
from tests.helpers import api_game, bearer, valid_deal
from tests.paper.test_pdf import get_pdf, text_of

OPEN = {"preset": "common", "game_length": "open", "opening_minimums": [90, 120, 150]}


def test_the_pad_of_an_open_sheet_says_the_table_ends_the_game_and_keeps_the_last_minimum():
    text = text_of(score_pad(load_sheet(OPEN)))
    assert "Played until the table ends the game" in text and "4 deals." not in text
    assert "Deal 6" in text and "Deal 7" not in text  # as many blocks as a target game's pad
    assert text.count("minimum 150") >= 4  # deals 3 to 6 keep the schedule's last minimum


def test_the_results_say_who_leads_until_the_table_ends_the_game_then_who_won(client):
    game_id, key = api_game(client, "Rally", sheet=OPEN, deals=[valid_deal(1)])
    going_on = text_of(get_pdf(client, f"/games/{game_id}/results.pdf"))
    assert re.search(r"Game in progress: 1 deal recorded; Ann leads by [0-9,]+ over Bea\. The table ends the game\.",
                     going_on)
    assert client.post(f"/api/v1/games/{game_id}/end", headers=bearer(key)).status_code == 200
    ended = text_of(get_pdf(client, f"/games/{game_id}/results.pdf"))
    assert "Ann wins with 1,060." in ended
