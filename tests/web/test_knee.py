"""The knee on the pages and through the API: the deal form asks "Picked up the knee" and the
unopened knee's cards only in a deal that deals one, and records them; the deal's page says each
player's knee and scores it; the edit form opens what was recorded; the referee's desk and the
API's go-out question ask whether the knee was played; the API reads and writes a player's
``knee_picked_up`` and ``knee`` as the OpenAPI document describes them; the sheet editor gives
the knee one box a deal. A game without a knee shows none of it."""

from __future__ import annotations

import re

from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from scorepad.api.openapi import document
from scorepad.rules import preset
from scorepad.rules.choices import PerDeal
from tests.helpers import api_game, bearer, form_fields, grant
from tests.web.test_pages import fields, load, text
from tests.web.test_sheet_editor import create, game_of

# Hand 15, then (in deals 1, 3 and 4) a knee of 13, then the foot of 11.
KNEE = {"preset": "common", "hand_size": 15, "knee_size": [13, 0, 13, 13]}
BEA_KNEE, BEA_FOOT = "K K Q Q J J 9 9 6 6 4 4 8", "A A 10 10 10 8 8 7 6 5 JK"
# Ann goes out with a clean and a dirty book (160 melded points); Bea melded 30 points and never
# reached her knee, so her knee and her foot lie unopened: counted entry, as the form opens.
TYPED = {"s0-b-clean": "1", "s0-b-dirty": "1", "s0-points": "160", "s1-b-clean": "0", "s1-points": "30",
         "s1-p0-knee": BEA_KNEE, "s1-p0-foot": BEA_FOOT, "ending": "s0-p0", "action": "save"}


def words(page: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", page).replace("&#39;", "'").replace("&#x27;", "'").split())


def knee_game(client, sheet=None) -> str:
    game_id, key = api_game(client, sheet=sheet or KNEE)
    grant(client, game_id, key)
    return game_id


def new_form(client, game_id: str) -> tuple[str, dict[str, str]]:
    url = f"/games/{game_id}/deals/new"
    page = client.get(url).get_data(as_text=True)
    return page, form_fields(page, url)


def bea_unopened(form: dict[str, str]) -> dict[str, str]:
    """The form with Bea's knee and foot not picked up (unticked boxes are not posted)."""
    data = {**form, **TYPED}
    data.pop("s1-p0-picked", None)
    data.pop("s1-p0-knee_picked", None)
    return data


def test_the_deal_form_asks_for_the_knee_only_in_a_deal_with_one(client):
    game_id = knee_game(client)
    page, form = new_form(client, game_id)
    assert words(page).count("Picked up the knee") == 2  # Ann's and Bea's
    assert "Deal 1 of 4 Hand 15, knee 13, foot 11 Draw 2" in words(page)
    assert form["s0-p0-knee_picked"] == form["s1-p0-knee_picked"] == "1"  # ticked, as the foot's box
    assert 'name="s1-p0-knee"' in page and 'placeholder="13 cards: 3R J Ax2 …"' in page
    common = knee_game(client, "common")
    page, _ = new_form(client, common)
    assert "knee" not in page.lower()


def test_the_form_records_an_unopened_knee_and_the_deal_page_scores_it(client):
    game_id = knee_game(client)
    _, form = new_form(client, game_id)
    response = client.post(f"/games/{game_id}/deals/new", data=bea_unopened(form))
    assert response.status_code == 303, words(response.get_data(as_text=True))[:800]
    deal = client.get(f"/api/v1/games/{game_id}/deals/1").get_json()["deal"]
    ann, bea = deal["sides"][0]["players"][0], deal["sides"][1]["players"][0]
    assert ann["knee_picked_up"] is True and "knee" not in ann
    assert bea["knee_picked_up"] is False and sum(bea["knee"].values()) == 13 and sum(bea["foot"].values()) == 11
    page = words(client.get(f"/games/{game_id}/deals/1").get_data(as_text=True))
    assert "Deal 1 of 4: hand 15, knee 13, foot 11; draw 2;" in page
    assert "Knee: Ann picked up." in page and "Knee: Bea unopened (13 cards)." in page
    assert "Bea's unopened knee: K Q J 9 8" in page
    # Ann: 160 melded + clean 500 + dirty 300 + going out 100; Bea: 30 melded - her knee (K K Q Q J J
    # 9 9 8 at 10, 6 6 4 4 at 5: 110) - her foot (A A 40, 10 10 10 8 8 50, 7 6 5 15, JK 50: 155)
    assert f"Ann: {160 + 500 + 300 + 100:,}" in page and f"Bea: {30 - 110 - 155}" in page


def test_the_edit_form_opens_the_recorded_knee_and_saves_it_back_unchanged(client):
    game_id = knee_game(client)
    _, form = new_form(client, game_id)
    assert client.post(f"/games/{game_id}/deals/new", data=bea_unopened(form)).status_code == 303
    edit = f"/games/{game_id}/deals/1/edit"
    page = client.get(edit).get_data(as_text=True)
    form = form_fields(page, edit)
    assert "s1-p0-knee_picked" not in form and form["s0-p0-knee_picked"] == "1"
    assert form["s1-p0-knee"] == "K K Q Q J J 9 9 8 6 6 4 4"
    response = client.post(edit, data=dict(form, action="save"), follow_redirects=True)
    assert "Deal 1 unchanged" in words(response.get_data(as_text=True))


def test_deal_2_deals_no_knee_so_its_form_asks_for_none(client):
    game_id = knee_game(client)
    _, form = new_form(client, game_id)
    assert client.post(f"/games/{game_id}/deals/new", data=bea_unopened(form)).status_code == 303
    page, form = new_form(client, game_id)
    assert form["deal_number"] == "2"
    assert "Picked up the knee" not in page and "s1-p0-knee" not in form


def test_a_foot_picked_up_without_the_knee_is_shown_at_the_knee_s_box(client):
    game_id = knee_game(client)
    _, form = new_form(client, game_id)
    data = bea_unopened(form)
    data["s1-p0-picked"] = "1"  # the foot picked up, the knee not
    del data["s1-p0-foot"]
    response = client.post(f"/games/{game_id}/deals/new", data=data)
    assert response.status_code == 422  # a violation: not saved
    page = response.get_data(as_text=True)
    said = "Bea picked up the foot but not the knee; the knee is played before the foot."
    box = page.index('name="s1-p0-knee_picked"')
    assert said in page[box:page.index('name="s1-p0-picked"')]


def test_the_referee_desk_asks_whether_the_knee_was_played_only_on_a_sheet_with_a_knee(client):
    game_id = knee_game(client)
    assert "Have you picked up and played your knee?" in words(client.get(f"/games/{game_id}/referee")
                                                               .get_data(as_text=True))
    common = knee_game(client, "common")
    desk = client.get(f"/games/{common}/referee").get_data(as_text=True)
    assert "knee_played" not in desk and "your knee" not in words(desk)  # (the sheet chooser names the HKF preset)
    answer = words(client.get(f"/games/{game_id}/referee", query_string={
        "ask": "go-out", "deal": "1", "books.clean": "1", "books.dirty": "1", "foot_played": "yes",
        "knee_played": "no"}).get_data(as_text=True))
    assert "The knee, and then the foot, must be picked up and played before going out." in answer


def test_the_api_reads_and_writes_the_knee_as_the_openapi_document_describes_it(client):
    game_id, key = api_game(client, sheet=KNEE)
    body = {"ending": "went_out", "went_out": "Ann", "sides": [
        {"name": "Ann", "melds": ["K K K K K K K", "Q Q Q Q Q 2 2"],
         "players": [{"name": "Ann", "foot_picked_up": True, "knee_picked_up": True}]},
        {"name": "Bea", "melds": ["J J J"], "players": [
            {"name": "Bea", "foot_picked_up": False, "knee_picked_up": False, "knee": BEA_KNEE, "foot": BEA_FOOT}]}]}
    saved = client.post(f"/api/v1/games/{game_id}/deals", json=body, headers=bearer(key))
    assert saved.status_code == 201, saved.get_json()
    deal = client.get(f"/api/v1/games/{game_id}/deals/1").get_json()["deal"]
    assert deal["sides"][1]["players"][0]["knee"] == {"K": 2, "Q": 2, "J": 2, "9": 2, "8": 1, "6": 2, "4": 2}
    doc = document()
    registry = Registry().with_resource("urn:scorepad", Resource.from_contents(doc, default_specification=DRAFT202012))
    schema = {"$ref": "urn:scorepad#/components/schemas/Deal"}
    Draft202012Validator(schema, registry=registry).validate(deal)
    named = doc["components"]["schemas"]  # a deal's sides and players are named schemas (DealSide, Player)
    assert named["Deal"]["properties"]["sides"]["items"] == {"$ref": "#/components/schemas/DealSide"}
    assert named["DealSide"]["properties"]["players"]["items"] == {"$ref": "#/components/schemas/Player"}
    assert {"knee_picked_up", "knee"} <= set(named["Player"]["properties"])
    # the sheet's words through the API, and the go-out question
    assert client.get(f"/api/v1/games/{game_id}").get_json()["sheet"]["knee_size"] == [13, 0, 13, 13]
    ask = {"sheet": KNEE, "deal": 3, "books": {"clean": 1, "dirty": 1}, "knee_played": False}
    waiting = client.post("/api/v1/referee/go-out", json=ask).get_json()
    assert waiting["yes"] is False and waiting["reasons"][0]["option"] == "go_out_foot"
    assert client.post("/api/v1/referee/go-out", json={**ask, "deal": 2}).get_json()["yes"] is True


def test_the_sheet_editor_gives_the_knee_a_box_a_deal(client, app):
    page = text(client.get("/new?preset=common"))
    assert 'data-per-deal="opt-knee_size"' in page and 'name="opt-knee_size-4"' in page
    data = fields(page, action="/new")
    data.update({"opt-hand_size": "15", "opt-knee_size-1": "13", "opt-knee_size-2": "0", "opt-knee_size-3": "13"})
    sheet = load(app, game_of(create(client, data, preset("common")))).sheet
    assert sheet.knee_size == PerDeal((13, 0, 13, 13))  # deal 4 blank: as deal 3
    assert sheet.hand_size == 15

