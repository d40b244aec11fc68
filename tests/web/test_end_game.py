"""Ending a game the table ends, from its page (``game_length: open``, issue 23 item 1.9): only
an editor of an open game is offered "End the game here", a page asks first (never one tap),
the ending is based on the revision that page showed and is kept in the history, the page
then names the winner and offers "Reopen", and a deal form opened before is told to reopen.

``valid_deal`` scores Ann 1,060 and Bea 5 a deal (tests/storage/test_ended_games.py works it).
"""

from __future__ import annotations

from tests.helpers import api_game, bearer, form_fields, grant, text_of, valid_deal
from tests.web.test_pages import valid_deal as typed_deal

OPEN = {"preset": "common", "game_length": "open"}


def open_game(client, deals: int = 2) -> tuple[str, str]:
    return api_game(client, "Rally", sheet=OPEN, deals=[valid_deal(n) for n in range(1, deals + 1)])


def test_an_open_games_page_says_who_leads_and_offers_its_editor_to_end_it(client, viewer):
    game_id, key = open_game(client)
    watching = text_of(viewer.get(f"/games/{game_id}").get_data(as_text=True))
    assert "Ann ahead by 2,110: 2,120 to 10" in watching  # 2 x 1,060 to 2 x 5: ahead, not the winner
    assert "Now: deal 3, Ann leads; the table ends the game." in watching
    assert "End the game here" not in watching
    assert viewer.get(f"/games/{game_id}/end").status_code == 403
    grant(client, game_id, key)
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert f'href="/games/{game_id}/end"' in page and "End the game here" in page  # a link, not a form


def test_ending_asks_first_then_names_the_winner_and_offers_reopen(client):
    game_id, key = open_game(client)
    grant(client, game_id, key)
    asked = client.get(f"/games/{game_id}/end")
    assert asked.status_code == 200
    words = text_of(asked.get_data(as_text=True))
    assert "End “Rally” here?" in words and "after 2 deals" in words and "Ann ahead by 2,110" in words
    fields = form_fields(asked.get_data(as_text=True), f"/games/{game_id}/end")
    assert fields["revision"] == "2"
    assert client.get(f"/api/v1/games/{game_id}").get_json()["over"] is False  # asking ended nothing

    done = client.post(f"/games/{game_id}/end", data=fields, follow_redirects=True)
    words = text_of(done.get_data(as_text=True))
    assert "The game is over: the table ended it here." in words
    assert "Winner: Ann, 2,120 to 10" in words and "The table ended the game" in words
    assert "Reopen the game" in words and "Record deal 3" not in words and "End the game here" not in words
    history = text_of(client.get(f"/games/{game_id}/history").get_data(as_text=True))
    assert "Game ended at the table" in history and "Ended on Ann 2,120, Bea 10." in history


def test_reopening_asks_first_and_lets_the_next_deal_be_recorded(client):
    game_id, key = open_game(client)
    grant(client, game_id, key)
    client.post(f"/games/{game_id}/end", data={"revision": "2"})
    asked = client.get(f"/games/{game_id}/reopen")
    assert "Reopen “Rally”?" in text_of(asked.get_data(as_text=True))
    fields = form_fields(asked.get_data(as_text=True), f"/games/{game_id}/reopen")
    assert fields["revision"] == "3"
    done = text_of(client.post(f"/games/{game_id}/reopen", data=fields, follow_redirects=True).get_data(as_text=True))
    assert "The game is reopened" in done and "Record deal 3" in done and "Ann ahead by 2,110" in done
    history = text_of(client.get(f"/games/{game_id}/history").get_data(as_text=True))
    assert history.index("Game ended at the table") < history.index("Game reopened")


def test_ending_twice_says_it_is_ended_already(client):
    game_id, key = open_game(client)
    grant(client, game_id, key)
    fields = form_fields(client.get(f"/games/{game_id}/end").get_data(as_text=True), f"/games/{game_id}/end")
    client.post(f"/games/{game_id}/end", data=fields)
    again = text_of(client.post(f"/games/{game_id}/end", data=fields, follow_redirects=True).get_data(as_text=True))
    assert "The game is ended already." in again
    assert client.get(f"/api/v1/games/{game_id}").get_json()["revision"] == 3


def test_an_ending_from_a_page_opened_before_another_phone_wrote_is_refused(client):
    game_id, key = open_game(client)
    grant(client, game_id, key)
    fields = form_fields(client.get(f"/games/{game_id}/end").get_data(as_text=True), f"/games/{game_id}/end")
    assert client.post(f"/api/v1/games/{game_id}/deals", json=valid_deal(3) | {"repeat": True},
                       headers=bearer(key)).status_code == 201
    refused = text_of(client.post(f"/games/{game_id}/end", data=fields, follow_redirects=True).get_data(as_text=True))
    assert "Not ended: the game changed since you loaded it. Deal 3 was recorded" in refused
    assert client.get(f"/api/v1/games/{game_id}").get_json()["over"] is False


def test_a_deal_form_opened_before_the_table_ended_the_game_is_told_to_reopen_it(client):
    game_id, key = open_game(client)
    grant(client, game_id, key)
    fields = typed_deal(client, game_id)  # the form for deal 3, typed in: Ann out with kings and queens
    client.post(f"/games/{game_id}/end", data={"revision": "2"})
    stale = text_of(client.post(f"/games/{game_id}/deals/new", data=fields).get_data(as_text=True))
    assert "Not saved: the game changed since you loaded it. The game was ended at the table" in stale
    again = client.post(f"/games/{game_id}/deals/new", data={**fields, "revision": "3"})  # saved again, as asked
    assert again.status_code == 409
    assert "reopen the game first to record another deal" in text_of(again.get_data(as_text=True))
    opened = text_of(client.get(f"/games/{game_id}/deals/new", follow_redirects=True).get_data(as_text=True))
    assert "The table ended the game: reopen it" in opened
    assert len(client.get(f"/api/v1/games/{game_id}").get_json()["deals"]) == 2


def test_a_game_of_four_deals_offers_no_ending(client):
    game_id, key = api_game(client, deals=[valid_deal(1)])
    grant(client, game_id, key)
    assert "End the game here" not in client.get(f"/games/{game_id}").get_data(as_text=True)
    assert client.get(f"/games/{game_id}/end").status_code == 409
    assert client.post(f"/games/{game_id}/end", data={"revision": "1"}).status_code == 409
