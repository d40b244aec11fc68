"""The game's history page and a deal's page (its history) say, on the ``record`` entry of a
deal entered part by part (issue 24), which phone entered each side and the ending, and which
phone confirmed each side; a deal sent whole says nothing of phones.

``valid_deal`` scores Ann 1,060 and Bea 5.
"""

from __future__ import annotations

import re

from tests.api.test_open_deals import ANN, ANN_OUT, BEA, DAN, EVE, put
from tests.helpers import api_game, text_of, valid_deal
from tests.paper.test_entered_by_paper import confirmed_game


def entered_lists(page: str) -> list[list[str]]:
    """Each history entry's list of who entered the deal, item by item, as a reader sees it."""
    return [[text_of(li) for li in re.findall(r"<li>(.*?)</li>", found, re.S)]
            for found in re.findall(r'<ul class="entered"[^>]*>(.*?)</ul>', page, re.S)]


def test_the_history_names_the_phone_that_entered_and_the_one_that_confirmed_each_side(client):
    game_id, _ = confirmed_game(client)
    for url in (f"/games/{game_id}/history", f"/games/{game_id}/deals/1"):
        page = client.get(url).get_data(as_text=True)
        assert entered_lists(page) == [["Ann: entered by Dan's phone, confirmed by Eve's phone",
                                        "Bea: entered by Eve's phone, confirmed by Dan's phone",
                                        "Ending: entered by Dan's phone"]], url


def test_the_history_of_parts_nobody_confirmed_names_only_who_entered_them(client):
    game_id, key = api_game(client)
    put(client, game_id, key, 1, ANN, DAN)
    put(client, game_id, key, "ending", ANN_OUT, DAN)
    assert put(client, game_id, key, 2, BEA, EVE).status_code == 201
    page = client.get(f"/games/{game_id}/history").get_data(as_text=True)
    assert entered_lists(page) == [["Ann: entered by Dan's phone", "Bea: entered by Eve's phone",
                                    "Ending: entered by Dan's phone"]]


def test_a_deal_sent_whole_or_entered_on_one_phone_names_no_phones_in_the_history(client):
    game_id, key = api_game(client, deals=[valid_deal(1)])
    for part, body in ((1, ANN), (2, BEA), ("ending", {**ANN_OUT, "repeat": True})):
        put(client, game_id, key, part, body, DAN, number=2)
    page = client.get(f"/games/{game_id}/history").get_data(as_text=True)
    assert page.count("Recorded deal") == 2 and entered_lists(page) == []
