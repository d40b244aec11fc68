"""What a deal carries for the referee, on the pages: "Itemise melds" offers a side's (or each
player's) first melds and the pile's top card among them, and the deal's last card and
permission where the sheet has those rules; first melds below the minimum are refused with
the referee's reason beside them; without them the deal is saved and its page lists the
opening as not checked. No scripts: every step is a form post.

Common, Ann v Bea: K K K + Q Q Q is 3 × 10 + 3 × 10 = 60, enough for deal 1 (50), short of
deal 3 (120) (VARIATIONS.md's worked example).
"""

from __future__ import annotations

import json

from tests.helpers import api_game, db_state, form_fields, grant, text_of
from tests.rules.test_dispute import CLUB, HOME, banded_game

ANN_BEA = [{"name": "Ann", "players": ["Ann"]}, {"name": "Bea", "players": ["Bea"]}]
STOCK_OUT = {"ending": "stock_out", "sides": [
    {"name": "Ann", "melds": ["K K K"], "players": [{"name": "Ann", "foot_picked_up": True}]},
    {"name": "Bea", "melds": ["Q Q Q"], "players": [{"name": "Bea", "foot_picked_up": True}]}]}


def itemised_form(client, game_id: str, *sides: int) -> dict[str, str]:
    """The new-deal form with these sides switched to meld rows, as "Itemise melds" posts it."""
    new = f"/games/{game_id}/deals/new"
    form = form_fields(client.get(new).get_data(as_text=True), new)
    for side in sides:
        page = client.post(new, data=dict(form, action=f"itemise-s{side}"))
        assert page.status_code == 200
        form = form_fields(page.get_data(as_text=True), new)
    return form


def game_at_deal_three(client) -> str:
    game_id, key = api_game(client, "Friday", "common", ANN_BEA, [STOCK_OUT, STOCK_OUT])
    grant(client, game_id, key)
    return game_id


def test_a_plain_counted_form_offers_no_opening(client):
    game_id = game_at_deal_three(client)
    new = f"/games/{game_id}/deals/new"
    form = form_fields(client.get(new).get_data(as_text=True), new)
    assert not [name for name in form if name.endswith(("-open", "-top"))]
    assert "last_card" not in form and "permission" not in form


def test_first_melds_below_the_minimum_are_refused_beside_the_side(client, app):
    game_id = game_at_deal_three(client)
    form = itemised_form(client, game_id, 0, 1)
    assert form["s0-open"] == "" and form["s0-top"] == "" and "s0-p0-open" not in form  # individuals: the side
    form.update({"s0-m0-cards": "K K K", "s0-m1-cards": "Q Q Q", "s0-open": "K K K; Q Q Q",
                 "s1-m0-cards": "J J J J", "ending": "stock", "action": "save"})
    before = db_state(app)
    response = client.post(f"/games/{game_id}/deals/new", data=form)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    text = text_of(page)
    assert "Ann's opening: the minimum for each player's first melds at deal 3 is 120; these count 60 " \
           "(Minimum by deal: deal 1 50, deal 2 90, deal 3 120, deal 4 150)." in text.replace("’", "'")
    assert 'href="#s0"' in page  # the problem list leads to Ann's side
    assert db_state(app) == before
    kept = form_fields(page, f"/games/{game_id}/deals/new")
    assert kept["s0-open"] == "K K K; Q Q Q"  # what was typed stays


def test_without_first_melds_the_deal_is_saved_and_its_page_lists_the_opening_not_checked(client):
    game_id = game_at_deal_three(client)
    form = itemised_form(client, game_id, 0)
    form.update({"s0-m0-cards": "K K K", "s0-m1-cards": "Q Q Q", "ending": "stock", "action": "save"})
    response = client.post(f"/games/{game_id}/deals/new", data=form)
    assert response.status_code == 303, text_of(response.get_data(as_text=True))[:600]
    text = text_of(client.get(f"/games/{game_id}/deals/3").get_data(as_text=True)).replace("’", "'")
    assert "Not checked (2): the deal does not say" in text
    assert "Ann's first melds are not given, so the opening minimum (Minimum by deal: deal 1 50, deal 2 90, " \
           "deal 3 120, deal 4 150) is not checked." in text


def test_an_opening_that_meets_the_minimum_is_saved_and_opens_again_on_the_edit_form(client):
    game_id, key = api_game(client, "Friday", "common", ANN_BEA)
    grant(client, game_id, key)
    form = itemised_form(client, game_id, 0)
    form.update({"s0-m0-cards": "K K K K", "s0-m1-cards": "Q Q Q", "s0-open": "K K K K; Q Q Q", "s0-top": "K",
                 "ending": "stock", "action": "save"})
    # Common takes the pile only once the first melds are down: the top king is opening.pile
    refused = client.post(f"/games/{game_id}/deals/new", data=form)
    assert refused.status_code == 422
    assert "the pile may be taken only once the first melds are down" in text_of(refused.get_data(as_text=True))
    form["s0-top"] = ""  # from the hand: 40 + 30 = 70 >= 50
    assert client.post(f"/games/{game_id}/deals/new", data=form).status_code == 303
    stored = client.get(f"/api/v1/games/{game_id}/deals/1").get_json()["deal"]
    assert stored["sides"][0]["opening"] == {"melds": [{"rank": "K", "naturals": 4}, {"rank": "Q", "naturals": 3}]}
    edit = f"/games/{game_id}/deals/1/edit"
    again = form_fields(client.get(edit).get_data(as_text=True), edit)
    assert again["s0-open"] == "K K K K; Q Q Q"


def test_partners_each_give_their_opening_and_the_last_card_where_the_sheet_asks(client):
    # Bicycle: the side meets the minimum... as the sheet says; here each player does, and the
    # last card must be a discard
    sheet = {"preset": "bicycle", "opening_who": "player"}
    sides = [{"name": "Us", "players": ["Ann", "Cy"]}, {"name": "Them", "players": ["Bea", "Dan"]}]
    game_id, key = api_game(client, "Friday", sheet, sides)
    grant(client, game_id, key)
    form = itemised_form(client, game_id, 0)
    assert "s0-open" not in form and form["s0-p0-open"] == "" and form["s0-p1-open"] == ""
    assert form["last_card"] == "" and "permission" not in form
    form.update({"s0-m0-cards": "Kx7", "s0-m1-cards": "Q Q Q Q 2 2 JK", "s0-p0-open": "K K K; Q Q Q",
                 "s0-p1-open": "J J J", "ending": "s0-p0", "last_card": "meld", "action": "check"})
    text = text_of(client.post(f"/games/{game_id}/deals/new", data=form).get_data(as_text=True)).replace("’", "'")
    assert "Cy's opening: the minimum for each player's first melds at deal 1 is 50; these count 30" in text
    assert "Ann discarded" not in text and "Ann melded the last card" in text
    assert "(The last card: must be discarded)" in text


PARTNERS = [{"name": "Us", "players": ["Ann", "Cal"]}, {"name": "Them", "players": ["Bea", "Dan"]}]


def pagat_counted_deal(form: dict[str, str]) -> dict[str, str]:
    """Ann goes out for Us in deal 1 with the books Pagat asks (2 clean + 2 dirty + 1 wild)."""
    form.update({"s0-b-clean": "2", "s0-b-dirty": "2", "s0-b-wild": "1", "s0-points": "760",
                 "s1-b-clean": "1", "s1-points": "100", "s0-p0-pts": "0", "s0-p1-pts": "40",
                 "s1-p0-pts": "30", "s1-p1-pts": "20", "ending": "s0-p0", "action": "save"})
    return form


def test_pagat_asks_whether_a_partner_played_from_the_foot_and_refuses_going_out_before_it(client, app):
    """Pagat (version 2) lets a player go out once the partner has picked up the foot and
    played from it: the form asks each partner "played nothing from it yet", unticked by
    default; ticked for Cal, Ann's going out is refused citing the rule; unticked, it is saved."""
    game_id, key = api_game(client, "Pagat", "pagat", PARTNERS)
    grant(client, game_id, key)
    new = f"/games/{game_id}/deals/new"
    form = form_fields(client.get(new).get_data(as_text=True), new)
    assert "s0-p1-unplayed" not in form  # an unticked box posts nothing
    assert 'name="s0-p1-unplayed"' in client.get(new).get_data(as_text=True)
    before = db_state(app)
    refused = client.post(new, data=dict(pagat_counted_deal(dict(form)), **{"s0-p1-unplayed": "1"}))
    assert refused.status_code == 422
    assert "Cal" in text_of(refused.get_data(as_text=True)) and "played from" in text_of(
        refused.get_data(as_text=True))
    assert db_state(app) == before
    saved = client.post(new, data=pagat_counted_deal(dict(form)))
    assert saved.status_code == 303, text_of(saved.get_data(as_text=True))[:2000]


def test_common_sheet_never_asks_about_playing_from_the_foot(client):
    game_id, key = api_game(client, "Friday", "common", PARTNERS)
    grant(client, game_id, key)
    assert "-unplayed" not in client.get(f"/games/{game_id}/deals/new").get_data(as_text=True)


def test_the_rescore_page_judges_an_opening_against_the_other_sheets_running_total(client):
    # tests/rules/test_dispute.py's banded game: on CLUB, Ann's 1,190 before deal 2 asks 90
    # (at or above 1,000, below 2,500), and her first melds count 60; deals 1 and 3 stand.
    game_id, _ = api_game(client, "Friday", HOME, ANN_BEA, banded_game().to_json()["deals"])
    said = ("Ann's opening: the minimum for each player's first melds at a running total of 1,190 is 90; "
            "these count 60")
    pages = [text_of(client.get(f"/games/{game_id}/rescore", query_string=query).get_data(as_text=True))
             for query in ({"sheet_json": json.dumps(CLUB)}, {"sheet_json": json.dumps(CLUB), "deal": "2"})]
    for text in pages:
        assert said in text and "not checked" not in text
    assert "Deal 1: nothing changes" in pages[0] and "Deal 3: nothing changes" in pages[0]
