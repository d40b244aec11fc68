"""The score at a glance: the game page opens with the standings, read from real games
through Flask's test client.

Every deal here ends when the stock runs out, each side melding one meld and holding
nothing, so a side's points are its meld's cards: on the common sheet a king, queen, jack,
nine or eight is 10, an ace or a 2 is 20 (no book, no going-out bonus, nothing left); the
common sheet's opening minimums are 50, 90, 120 and 150 for deals 1 to 4.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.helpers import api_game, text_of

DATA = Path(__file__).parent.parent / "data"
THREE = [{"name": name, "players": [name]} for name in ("Ann", "Bea", "Cal")]


def deal(number: int, **melds: str) -> dict[str, Any]:
    """Deal ``number``, ended by the stock, each named side laying its one meld."""
    return {"deal": number, "ending": "stock_out", "sides": [
        {"name": name, "melds": [meld], "players": [{"name": name, "foot_picked_up": True, "cards_left": ""}]}
        for name, meld in melds.items()]}


def first_in_main(client, game_id: str) -> tuple[str, str]:
    """The first element of the game page's own content (after <main> and any flash): its
    opening tag and its text."""
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    main = page.split('<main id="main">', 1)[1]
    main = re.sub(r'<div class="flashes">.*?</div>', "", main, count=1, flags=re.S)
    found = re.search(r'<div id="live-game"[^>]*>\s*(<p[^>]*>)(.*?)</p>', main, re.S)
    assert found is not None and main.strip().startswith('<div id="live-game"'), main[:300]
    return found[1], text_of(found[2]).strip()


def test_a_new_game_opens_with_every_side_at_nothing(client):
    game_id, _ = api_game(client)
    assert first_in_main(client, game_id)[1] == "No score yet: every side at 0."


def test_mid_game_the_page_opens_with_who_is_ahead_by_how_much(client):
    # Deal 1: Ann A A A A A = 100, Bea K K K K K = 50; deal 2: Ann A A A A 2 = 80 + 20
    # = 100, Bea A A A A A = 100. Ann 200, Bea 150: Ann ahead by 50.
    game_id, _ = api_game(client, deals=[deal(1, Ann="A A A A A", Bea="K K K K K"),
                                         deal(2, Ann="A A A A 2", Bea="A A A A A")])
    tag, words = first_in_main(client, game_id)
    assert words == "Ann ahead by 50: 200 to 150"
    assert 'class="standings"' in tag


def test_the_lead_is_told_with_thousands_separators(client):
    # Deal 1 as played on a sheet that counts a king 1,000: Ann K K K K K = 5,000, Bea A A A A A = 100.
    game_id, _ = api_game(client, sheet={"preset": "common", "card_values": {"K": 1000}},
                          deals=[deal(1, Ann="K K K K K", Bea="A A A A A")])
    assert first_in_main(client, game_id)[1] == "Ann ahead by 4,900: 5,000 to 100"


def test_a_level_game_says_it_is_tied(client):
    # Deal 1: Ann A A A = 60, Bea K K K K K K = 60.
    game_id, _ = api_game(client, deals=[deal(1, Ann="A A A", Bea="K K K K K K")])
    assert first_in_main(client, game_id)[1] == "Tied at 60: Ann and Bea"


def test_with_three_sides_the_others_are_named(client):
    # Deal 1: Ann A A A = 60, Bea K K K K K = 50, Cal Q Q Q Q Q = 50.
    game_id, _ = api_game(client, sides=THREE, deals=[deal(1, Ann="A A A", Bea="K K K K K", Cal="Q Q Q Q Q")])
    assert first_in_main(client, game_id)[1] == "Ann ahead by 10: 60 to Bea 50, Cal 50"


def test_after_the_last_deal_the_page_opens_with_the_winner(client):
    game = json.loads((DATA / "game-four-deals.json").read_text())
    sides = [{"name": name, "players": [name]} for name in game["sides"]]
    game_id, _ = api_game(client, sides=sides, deals=game["deals"])
    tag, words = first_in_main(client, game_id)
    assert words == "Winner: Bea, 1,825 to 1,590"  # worked by hand in tests/rules/test_game.py
    assert 'class="standings over"' in tag
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Now:" not in text_of(page) and "Record deal" not in page


def test_a_game_ending_level_opens_with_the_tie(client):
    """Worked by hand on the common sheet (K Q J 9 8 10 points, 7 6 5 4 five, A 20, a joker 50,
    a clean book 500): Ann 30 + (140 + 500) + (15 - 50) + 15 = 650; Bea 30 + 30 + (70 + 500) +
    20 = 650; Cal (30 - 20) + 30 + 15 + 30 = 85."""
    game = json.loads((DATA / "game-tie.json").read_text())
    game_id, _ = api_game(client, sides=THREE, deals=game["deals"])
    assert first_in_main(client, game_id)[1] == "Game tied at 650: Ann and Bea; Cal 85"


