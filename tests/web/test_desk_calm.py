"""Issue 24's calmer desk, through Flask's test client: count boxes that start empty (an empty
box counts none), a go-out answer that speaks to every condition its sheet sets, and the meld
question's card pad, sent hidden so that without scripts the box is typed in as ever."""

from __future__ import annotations

import json
import re

import pytest

from scorepad.rules import PRESETS, preset
from scorepad.rules.catalogue import OPTION_BY_NAME
from scorepad.rules.choices import LastCard, PartnerFoot
from scorepad.rules.sheet import RuleSheet
from tests.helpers import api_game
from tests.web.test_desk import page_answer

COUNT_BOXES = ("books.clean", "books.dirty", "books.wild", "pair", "wilds")


def box_value(page: str, name: str) -> str:
    found = re.search(rf'<input[^>]*name="{re.escape(name)}"[^>]*>', page)
    assert found, name
    value = re.search(r'value="([^"]*)"', found.group(0))
    return value.group(1) if value else ""


def conditions_set(sheet: RuleSheet) -> list[str]:
    """The go-out conditions past books and foot that the sheet sets, by option."""
    return ([o for o, on in (("go_out_partner_foot", sheet.go_out_partner_foot is not PartnerFoot.NO),
                             ("go_out_permission", sheet.go_out_permission),
                             ("last_card", sheet.last_card is not LastCard.EITHER)) if on])


def test_the_desks_count_boxes_start_empty_with_a_placeholder_of_none(client):
    page = client.get("/referee?sheet=common").get_data(as_text=True)
    for name in COUNT_BOXES:
        assert box_value(page, name) == "", name
        assert re.search(rf'name="{re.escape(name)}"[^>]*placeholder="0"', page), name


def test_an_empty_count_box_counts_none(client):
    page = client.get("/referee", query_string={"sheet": "common", "ask": "go-out", "deal": "1",
                                                "books.clean": "1", "books.dirty": ""}).get_data(as_text=True)
    yes, text, _ = page_answer(page, "go-out")
    assert not yes and "1 clean, 0 dirty" in text
    page = client.get("/referee", query_string={"sheet": "common", "ask": "pile", "top_card": "9", "pair": "",
                                                "wilds": "", "pile_size": "8", "opened": "yes"}).get_data(as_text=True)
    yes, text, _ = page_answer(page, "pile")
    assert not yes and box_value(page, "pair") == ""  # no pair of nines: the pile is not taken


@pytest.mark.parametrize("preset_id", sorted(PRESETS))
def test_a_go_out_answer_speaks_to_every_condition_its_sheet_sets_not_said_being_not_met(client, preset_id):
    sheet = preset(preset_id)
    page = client.get("/referee", query_string={"sheet": preset_id, "ask": "go-out", "deal": "1",
                                                "books.clean": "9", "books.dirty": "9", "books.wild": "9"})
    assert page.status_code == 200
    yes, text, _ = page_answer(page.get_data(as_text=True), "go-out")
    assert f"Rule: {OPTION_BY_NAME['books_to_go_out'].label}:" in text
    for option in conditions_set(sheet):
        assert f"Rule: {OPTION_BY_NAME[option].label}:" in text, option
    assert yes is (not conditions_set(sheet))  # a condition not said is not met
    for option in {"go_out_partner_foot", "go_out_permission", "last_card"} - set(conditions_set(sheet)):
        assert f"Rule: {OPTION_BY_NAME[option].label}:" not in text, option


def sheet_with_every_condition(partner_foot: PartnerFoot) -> RuleSheet:
    return preset("common").replace(go_out_partner_foot=partner_foot, go_out_permission=True,
                                    last_card=LastCard.DISCARD)


@pytest.mark.parametrize("partner_foot", [PartnerFoot.PICKED_UP, PartnerFoot.PLAYED])
def test_every_condition_said_and_met_is_a_yes_naming_each(client, partner_foot):
    sheet = sheet_with_every_condition(partner_foot)
    query = {"sheet": "common", "sheet_json": json.dumps(sheet.to_json()), "ask": "go-out", "deal": "1",
             "books.clean": "1", "books.dirty": "1", "foot_played": "yes", "partners_picked_up": "yes",
             "partners_played": "yes", "permission": "yes", "last_card": "discard"}
    page = client.get("/referee", query_string=query).get_data(as_text=True)
    assert ('name="partners_played"' in page) is (partner_foot is PartnerFoot.PLAYED)
    yes, text, reasons = page_answer(page, "go-out")
    assert yes, text
    assert "Your partner said yes" in text and "Every partner has picked up the foot" in text
    assert f"The last card {sheet.describe('last_card')}" in text
    for option in conditions_set(sheet):
        assert f"Rule: {OPTION_BY_NAME[option].label}:" in text
    if partner_foot is PartnerFoot.PLAYED:  # played not said: not met, and says what to tell
        page = client.get("/referee", query_string={**query, "partners_played": ""}).get_data(as_text=True)
        yes, text, _ = page_answer(page, "go-out")
        assert not yes and "not said yet: whether they have played from it" in text


def test_no_partner_means_the_partners_conditions_do_not_apply(client):
    sheet = sheet_with_every_condition(PartnerFoot.PICKED_UP)
    page = client.get("/referee", query_string={
        "sheet": "common", "sheet_json": json.dumps(sheet.to_json()), "ask": "go-out", "deal": "1", "books.clean": "1",
        "books.dirty": "1", "partners_picked_up": "none", "last_card": "discard"}).get_data(as_text=True)
    yes, text, _ = page_answer(page, "go-out")
    assert yes, text
    assert "No partner, so the partner's foot does not apply" in text and "No partner to ask" in text


def test_the_api_still_answers_only_what_it_is_told(client):
    body = client.post("/api/v1/referee/go-out", json={"sheet": "pagat", "books": {"clean": 9, "dirty": 9,
                                                                                    "wild": 9}}).get_json()
    assert body["yes"] is True and {r["option"] for r in body["reasons"]} == {"books_to_go_out", "go_out_foot"}


def test_the_card_pad_is_sent_hidden_so_the_box_is_typed_in_without_scripts(client):
    page = client.get("/referee?sheet=common").get_data(as_text=True)
    pad = re.search(r'<div class="card-pad" data-card-pad="meld-meld" hidden>(.*?)</div>', page, re.S)
    assert pad, "no card pad, sent hidden, for the meld box"
    codes = re.findall(r'class="card-add" data-card="([^"]+)"', pad.group(1))
    assert codes == ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "2", "JK"]
    assert len(re.findall(r'class="card-less"', pad.group(1))) == len(codes)
    assert 'id="meld-meld"' in page and "desk.js" in page


def test_a_game_of_individuals_asks_nothing_of_a_partner(client):
    sheet = sheet_with_every_condition(PartnerFoot.PICKED_UP)
    sides = [{"name": "Ann", "players": ["Ann"]}, {"name": "Bea", "players": ["Bea"]}]
    game_id, _ = api_game(client, "Singles", sheet.to_json(), sides)
    page = client.get(f"/games/{game_id}/referee").get_data(as_text=True)
    assert re.search(r'<option value="none" selected>No partner</option>', page)
    pairs = [{"name": "NS", "players": ["Ann", "Cal"]}, {"name": "EW", "players": ["Bea", "Dan"]}]
    paired, _ = api_game(client, "Pairs", sheet.to_json(), pairs)
    assert '<option value="" selected>Not said</option>' in client.get(f"/games/{paired}/referee").get_data(
        as_text=True)
