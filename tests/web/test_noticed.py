"""The smaller things players noticed (issue 12, section 5), each pinned on the real app:
the deal form's one way to more meld rows, what it says when nobody said who went out, the
history's corrections, the one deal page, the sources cited by title and address, the desk
after the last deal (tests/web/test_desk.py) and the house-rule PDF (tests/paper/test_pdf.py).
"""

from __future__ import annotations

import re

from tests.helpers import api_game, form_fields, grant, text_of, valid_deal


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


def test_the_old_explain_address_leads_to_the_one_deal_page(client):
    game_id, _ = api_game(client, deals=[valid_deal(1)])
    response = client.get(f"/games/{game_id}/deals/1/explain")
    assert response.status_code == 301
    assert response.headers["Location"] == f"/games/{game_id}/deals/1"
    assert client.get(f"/games/{game_id}/deals/2/explain").status_code == 404  # no deal 2
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Rescore deal 1" in page  # what the explain page had: the sheet, each line's rule, another sheet
    assert "/explain" not in page
    for url in (f"/games/{game_id}", f"/games/{game_id}/referee", f"/games/{game_id}/rescore?sheet=pagat&deal=1",
                f"/games/{game_id}/history"):
        assert "/explain" not in client.get(url).get_data(as_text=True), url  # every link is to the one page


def test_the_deal_page_states_the_card_value_rule_once_per_table(client):
    """Ann's melds (kings, queens, 2s) and Bea's (jacks, and an ace and a black three left)
    are all priced by the card values: each side's table says that rule once."""
    game_id, _ = api_game(client, deals=[valid_deal(1)])
    page = client.get(f"/games/{game_id}/deals/1").get_data(as_text=True)
    tables = re.findall(r'<table class="fit lines">.*?</table>', page, re.S)
    assert len(tables) == 2
    for table in tables:
        rows = text_of(table)
        assert rows.count("Rule: Card values: joker: 50") == 1, rows
        assert rows.count("Rule: Card values, as above") >= 1, rows


def test_the_history_shows_what_a_correction_changed_line_by_line_in_utc_without_scripts(client):
    game_id, key = api_game(client, deals=[valid_deal(1)])
    corrected = valid_deal(1)
    corrected["sides"][1]["melds"] = ["J J J J"]  # Bea melded four jacks, not three
    corrected["sides"][1]["players"][0]["cards_left"] = "A"  # and kept no black three
    response = client.put(f"/api/v1/games/{game_id}/deals/1", json=corrected,
                          headers={"Authorization": f"Bearer {key}"})
    assert response.status_code == 200, response.get_data(as_text=True)
    for url in (f"/games/{game_id}/history", f"/games/{game_id}/deals/1"):
        page = client.get(url).get_data(as_text=True)
        diff = re.search(r'<ul class="diff"[^>]*>(.*?)</ul>', page, re.S)
        assert diff is not None, url
        items = [text_of(li) for li in re.findall(r"<li>(.*?)</li>", diff.group(1), re.S)]
        assert items == ["Bea: Melded jacks: 3 × 10 → 4 × 10 (+10)", "Bea: Bea's hand: 3B: 1 × -5 → none (+5)"]
        times = re.findall(r'<time datetime="([^"]+)">([^<]+)</time>', page)
        assert len(times) == 2  # recorded, corrected
        for at, shown in times:
            assert at.endswith("+00:00") and shown == at.replace("T", " ").replace("+00:00", " UTC")
        assert '<script src="/static/localtime.js" defer></script>' in page


def test_a_deal_corrected_twice_shows_in_the_history_what_each_correction_changed(client):
    """The second correction's deal is the deal as it stands (its lines are the game's own); the
    first's is not, and is read from the history."""
    game_id, key = api_game(client, deals=[valid_deal(1)])
    for jacks in ("J J J J", "J J J J J"):
        corrected = valid_deal(1)
        corrected["sides"][1]["melds"] = [jacks]
        response = client.put(f"/api/v1/games/{game_id}/deals/1", json=corrected,
                              headers={"Authorization": f"Bearer {key}"})
        assert response.status_code == 200, response.get_data(as_text=True)
    page = client.get(f"/games/{game_id}/history").get_data(as_text=True)
    diffs = [[text_of(li) for li in re.findall(r"<li>(.*?)</li>", found, re.S)]
             for found in re.findall(r'<ul class="diff"[^>]*>(.*?)</ul>', page, re.S)]
    assert diffs == [["Bea: Melded jacks: 3 × 10 → 4 × 10 (+10)"], ["Bea: Melded jacks: 4 × 10 → 5 × 10 (+10)"]]
