"""The house rules in the sheet editor: one text area, a rule a line, on the new-game and
amend pages (and the referee's), read back into the sheet's ``house_rules``; a bad line is
named by its rule's number, the text kept as typed. Real app, Flask's test client; forms
are posted as the page renders them."""

from __future__ import annotations

import html
import json
import re

from scorepad.rules import PRESETS, load_sheet
from tests.web.test_pages import fields, forms_of, load, text
from tests.web.test_sheet_editor import create, game_of

FOOT_RULE = "A player picks up the foot only once every card of the hand has been played."
SPLIT = "The stock is split in two; a player draws from either half."
PASS = "Cards pass to the left in odd deals, to the right in even ones."


def area(page: str) -> str:
    """The house rules' text area, as the page has it."""
    return re.search(r'<textarea[^>]*id="opt-house_rules".*?</textarea>', page, re.S).group()


def summary_of(page: str) -> str:
    at = page.index('id="error-summary"')
    return html.unescape(page[at:page.index("</div>", at)])


def test_the_new_game_page_shows_a_presets_house_rules_one_a_line(client):
    page = text(client.get("/new?preset=progressive"))
    box = html.unescape(area(page))
    assert f">{FOOT_RULE}</textarea>" in box and 'name="opt-house_rules"' in box
    assert f'data-preset="{FOOT_RULE}"' in box
    assert "One rule a line, each at most 200 characters." in html.unescape(page)
    assert "></textarea>" in area(text(client.get("/new")))  # common: none


def test_house_rules_typed_a_line_each_round_trip_through_the_new_game_and_amend_pages(client, app):
    data = fields(text(client.get("/new")), action="/new")
    data["opt-house_rules"] = f"  {SPLIT}\r\n\r\n{PASS}  \r\n   \r\n"  # as a browser posts a text area
    game_id = game_of(create(client, data, PRESETS["common"].sheet))
    sheet = load(app, game_id).sheet
    assert sheet.house_rules == (SPLIT, PASS)  # stripped, blank lines dropped, in order
    assert [c.option for c in sheet.changes()] == ["house_rules"]
    url = f"/games/{game_id}/sheet/amend"
    page = text(client.get(url))
    assert html.unescape(area(page)).endswith(f">{SPLIT}\n{PASS}</textarea>")
    again = fields(page, action=url)
    assert load_sheet({"preset": "common", "house_rules": again["opt-house_rules"].splitlines()}) == sheet
    # the amend page's boxes, posted as they are, give the same sheet back
    assert load(app, game_of(create(client, again, sheet))).sheet == sheet


def test_a_table_drops_its_presets_house_rule_by_emptying_the_text_area(client, app):
    data = fields(text(client.get("/new?preset=progressive")), action="/new")
    data["opt-house_rules"] = ""
    sheet = load(app, game_of(create(client, data, PRESETS["progressive"].sheet))).sheet
    assert sheet.house_rules == ()
    assert [(c.option, c.preset_value, c.value) for c in sheet.changes()] == [("house_rules", FOOT_RULE, "none")]


def test_a_rule_too_long_is_named_by_its_number_kept_as_typed_and_summarised(client):
    data = fields(text(client.get("/new")), action="/new")
    long_rule = "Burying cards on a closed book " + "x" * 170  # 201 characters
    data["opt-house_rules"] = f"{SPLIT}\n\n{long_rule}"
    page = text(create(client, data, PRESETS["common"].sheet, expect=400))
    box = html.unescape(area(page))
    assert 'aria-invalid="true"' in box and f"{SPLIT}\n\n{long_rule}</textarea>" in box
    says = ("House rules (rule 2): is 201 characters; a house rule has at most 200 "
            "(this one begins “Burying cards on a closed book…”)")
    assert f'<a href="#opt-house_rules">{says}</a>' in summary_of(page)
    data["opt-house_rules"] = f"{SPLIT}\n\n{long_rule[:200]}"  # its legal twin
    create(client, data, PRESETS["common"].sheet)


def test_thirteen_rules_are_refused_naming_the_option(client):
    data = fields(text(client.get("/new")), action="/new")
    data["opt-house_rules"] = "\n".join(f"Rule {n}." for n in range(1, 14))
    page = text(create(client, data, PRESETS["common"].sheet, expect=400))
    says = "House rules: lists 13 house rules; a sheet lists at most 12"
    assert f'<a href="#opt-house_rules">{says}</a>' in summary_of(page)


def test_the_sheet_page_lists_the_house_rules_and_marks_a_change(client, app):
    data = fields(text(client.get("/new?preset=progressive")), action="/new")
    data["opt-house_rules"] = f"{FOOT_RULE}\n{PASS}"
    game_id = game_of(create(client, data, PRESETS["progressive"].sheet))
    page = html.unescape(text(client.get(f"/games/{game_id}/sheet")))
    section = page[page.index('<h2 id="g-house">'):page.index("</section>", page.index('<h2 id="g-house">'))]
    assert f"<li>{FOOT_RULE}</li><li>{PASS}</li>" in section
    assert '<div class="house-rules changed">' in section and f"(preset: {FOOT_RULE})" in section
    assert "with 1 change" in page and f"<strong>House rules</strong>: {FOOT_RULE} {PASS}" in page
    assert "Always, on this sheet" not in page


def test_the_referee_desk_carries_house_rules_typed_in_its_editor(client):
    [data] = [f["fields"] for f in forms_of(text(client.get("/referee"))) if "opt-house_rules" in f["fields"]]
    data["opt-house_rules"] = SPLIT
    answered = html.unescape(text(client.get("/referee", query_string=data)))
    assert answered.count(f">{SPLIT}</textarea>") == 1
    # each question's form carries the sheet, its house rule with it
    assert f'"house_rules":["{SPLIT}"]' in answered


def test_the_compare_page_names_house_rules_as_the_one_difference(client):
    b = json.dumps({"preset": "progressive", "house_rules": [SPLIT]})
    page = html.unescape(text(client.get("/sheets/compare", query_string={"a": "progressive", "b": b})))
    said = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    assert "They differ in 1 option, in 1 group" in said
    assert f"House rules {FOOT_RULE} {SPLIT}" in said
