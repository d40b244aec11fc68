"""The smaller things players noticed (issue 12, section 5), each pinned on the real app:
the deal form's one way to more meld rows, what it says when nobody said who went out, the
history's corrections, the one deal page, the sources cited by title and address, the desk
after the last deal (tests/web/test_desk.py) and the house-rule PDF (tests/paper/test_pdf.py).
"""

from __future__ import annotations

import re

from tests.hardening import api_game, form_fields, grant, text_of


def new_deal_form(client, game_id: str) -> dict[str, str]:
    page = client.get(f"/games/{game_id}/deals/new").get_data(as_text=True)
    return form_fields(page, f"/games/{game_id}/deals/new")


def test_a_deal_without_its_ending_says_who_went_out_is_missing_and_points_there(client):
    game_id, key = api_game(client)
    grant(client, game_id, key)
    data = new_deal_form(client, game_id)
    data.pop("ending", None)
    data["action"] = "save"
    response = client.post(f"/games/{game_id}/deals/new", data=data)
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    flash = re.search(r'<p class="flash error" role="alert" id="top">(.*?)</p>', page, re.S)
    assert flash is not None
    assert text_of(flash.group(1)) == "Say who went out, or that the stock ran out."
    assert 'href="#ending"' in flash.group(1)  # the message leads to the who-went-out control
    assert "could not be read" not in text_of(page)
    first_radio = re.search(r'<input type="radio" name="ending"[^>]*>', page)
    assert first_radio is not None and "autofocus" in first_radio.group(0)


def test_a_deal_without_its_ending_and_with_an_unreadable_box_says_both(client):
    game_id, key = api_game(client)
    grant(client, game_id, key)
    data = new_deal_form(client, game_id)
    data.pop("ending", None)
    data.update({"s0-b-clean": "lots", "action": "check"})
    response = client.post(f"/games/{game_id}/deals/new", data=data)
    assert response.status_code == 400
    assert ("Say who went out, or that the stock ran out. Some boxes could not be read; each says why."
            in text_of(response.get_data(as_text=True)))


def test_a_deal_with_its_ending_and_an_unreadable_box_says_only_that(client):
    game_id, key = api_game(client)
    grant(client, game_id, key)
    data = new_deal_form(client, game_id)
    data.update({"ending": "stock", "s0-b-clean": "lots", "action": "check"})
    response = client.post(f"/games/{game_id}/deals/new", data=data)
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "Some boxes could not be read; each says why." in text_of(page)
    assert "Say who went out" not in text_of(page) and "autofocus" not in page


def test_the_deal_form_offers_one_way_to_more_meld_rows_that_works_without_scripts(client):
    """"More meld rows" is a submit button (it adds rows on the server); the script makes no
    second button ("Add a meld") but uses this one to show the rows it hides first."""
    game_id, key = api_game(client)
    grant(client, game_id, key)
    data = {k: v for k, v in new_deal_form(client, game_id).items() if not k.endswith("-mode")}  # itemised
    page = client.post(f"/games/{game_id}/deals/new", data={**data, "action": "more"}).get_data(as_text=True)
    assert len(re.findall(r'<button type="submit" name="action" value="more"[^>]*>More meld rows</button>', page)) == 1
    assert "Add a meld" not in page
    script = client.get("/static/deal.js").get_data(as_text=True)
    assert "Add a meld" not in script and 'button[value=more]' in script


def test_the_sheet_page_cites_a_source_without_an_address_by_its_title_alone(client):
    game_id, _ = api_game(client)  # the common preset: its source gives no address
    page = client.get(f"/games/{game_id}/sheet").get_data(as_text=True)
    assert "Source: How to play Hand and Foot (a rules page for individual play)." in text_of(page)
    assert "sources/" not in page and ".txt" not in page
