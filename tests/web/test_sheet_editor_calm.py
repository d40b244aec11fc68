"""Issue 24's calmer sheet editor, through Flask's test client: every message names an option
by its label (the catalogue's), never its internal name; a value far from what any shipped
preset gives asks "Is this right?" once, on the server, and is then taken; the "Now:" hints'
words come from /sheets/words for the boxes as typed."""

from __future__ import annotations

import html
import re

import pytest

from scorepad.rules import OPTIONS, PRESETS
from scorepad.rules.usual import unusual_values, usual_ranges
from tests.web.test_pages import fields, load, text
from tests.web.test_sheet_editor import create, game_of

INTERNAL_NAMES = [o.name for o in OPTIONS if "_" in o.name]


def summary_of(page: str) -> str:
    start = page.index('id="error-summary"')
    return html.unescape(page[start:page.index("</div>", start)])


def new_game_form(client, preset_id: str = "common") -> dict[str, str]:
    return fields(text(client.get(f"/new?preset={preset_id}")), action="/new")


@pytest.mark.parametrize("box, value, label", [
    ("opt-hand_size", "eleven", "Cards in the hand"),
    ("opt-books_to_go_out-1-special", "1", "Books needed to go out"),  # names special_books and three_books
    ("opt-meld_min", "8", "Fewest cards in a meld"),                    # names book_size's value
])
def test_an_editor_message_names_options_by_their_labels_never_their_internal_names(client, box, value, label):
    data = {**new_game_form(client), box: value}
    page = text(create(client, data, PRESETS["common"].sheet, expect=400))
    summary = summary_of(page)
    assert f"{label}: " in summary or f"{label} (" in summary, summary
    messages = re.findall(r'<p class="error" id="[^"]+">([^<]*)</p>', page) + [re.sub(r"<[^>]+>", " ", summary)]
    assert len(messages) >= 2
    for message in messages:
        for name in INTERNAL_NAMES:
            assert not re.search(rf"\b{name}\b", html.unescape(message)), (name, message)


def test_a_message_naming_other_options_gives_their_labels(client):
    data = {**new_game_form(client), "opt-books_to_go_out-1-special": "1"}
    summary = summary_of(text(create(client, data, PRESETS["common"].sheet, expect=400)))
    labels = {o.name: o.label for o in OPTIONS}
    assert f"({labels['special_books']}, {labels['three_books']})" in summary, summary


def test_the_unusual_range_is_read_from_the_presets_not_written_down():
    common = PRESETS["common"].sheet
    lo, hi = usual_ranges()["red_three_bonus"]
    given = {p.sheet.red_three_bonus for p in PRESETS.values()}
    assert (lo, hi) == (min(given), max(given))
    assert unusual_values(common.replace(red_three_bonus=hi + max(hi - lo, abs(hi), 1) + 1))
    assert not unusual_values(common.replace(red_three_bonus=hi + max(hi - lo, abs(hi), 1)))
    assert not [u for p in PRESETS.values() for v in p.versions.values() for u in unusual_values(v)]


def test_a_red_three_worth_99999_asks_is_this_right_once_then_starts_the_game(client, app):
    data = {**new_game_form(client), "opt-red_three_bonus": "99999"}
    asked = create(client, data, PRESETS["common"].sheet, expect=400)
    page = text(asked)
    summary = summary_of(page)
    assert "Is this right?" in summary and 'href="#confirm-unusual"' in page
    assert 'href="#opt-red_three_bonus"' in summary and "99,999" in summary
    assert "Red three laid: Is this right?" in summary
    confirm = re.search(r'<input type="checkbox" id="confirm-unusual" name="confirm_unusual" value="([^"]+)"', page)
    assert confirm, "no 'Yes, keep these values' box"
    assert 'value="99999"' in page  # what was typed is kept
    started = create(client, {**data, "confirm_unusual": html.unescape(confirm.group(1))}, PRESETS["common"].sheet)
    assert load(app, game_of(started)).sheet.red_three_bonus == 99_999


def test_a_confirmation_keeps_only_the_values_it_was_given(client):
    data = {**new_game_form(client), "opt-red_three_bonus": "99999"}
    page = text(create(client, data, PRESETS["common"].sheet, expect=400))
    token = html.unescape(re.search(r'name="confirm_unusual" value="([^"]+)"', page).group(1))
    again = text(create(client, {**data, "opt-red_three_bonus": "77777", "confirm_unusual": token},
                        PRESETS["common"].sheet, expect=400))
    assert "77,777" in summary_of(again)  # a new unusual value is asked about in its turn


def test_a_usual_change_is_taken_without_a_question(client, app):
    data = {**new_game_form(client), "opt-red_three_bonus": "150"}
    assert load(app, game_of(create(client, data, PRESETS["common"].sheet))).sheet.red_three_bonus == 150


def test_the_amend_page_does_not_ask_again_about_the_games_own_values(client, app):
    data = {**new_game_form(client), "opt-red_three_bonus": "99999"}
    page = text(create(client, data, PRESETS["common"].sheet, expect=400))
    token = html.unescape(re.search(r'name="confirm_unusual" value="([^"]+)"', page).group(1))
    game_id = game_of(create(client, {**data, "confirm_unusual": token}, PRESETS["common"].sheet))
    amend = text(client.get(f"/games/{game_id}/sheet/amend"))
    assert 'id="confirm-unusual"' not in amend
    form = fields(amend, action=f"/games/{game_id}/sheet/amend")
    form.update({"reason": "Deal 2 uses 13 cards", "opt-hand_size": "13"})
    response = client.post(f"/games/{game_id}/sheet/amend", data=form)
    assert response.status_code == 303, summary_of(text(response))
    assert load(app, game_id).sheet.hand_size == 13


def test_the_now_hints_words_follow_the_boxes_as_typed(client):
    data = {**new_game_form(client), "opt-hand_size": "13", "opt-red_three_bonus": "150"}
    words = client.get("/sheets/words", query_string=data).get_json()["words"]
    sheet = PRESETS["common"].sheet.replace(hand_size=13, red_three_bonus=150)
    assert words["hand_size"] == sheet.describe("hand_size")
    assert words["red_three_bonus"] == sheet.describe("red_three_bonus")
    assert words["hand_size"] != PRESETS["common"].sheet.describe("hand_size")
    broken = client.get("/sheets/words", query_string={**data, "opt-hand_size": "lots"}).get_json()["words"]
    assert broken["hand_size"] is None  # a box that cannot be read has no hint


def test_every_option_has_a_now_hint_to_fill_even_when_it_starts_empty(client):
    page = text(client.get("/new?preset=common"))
    hints = re.findall(r'<div data-option="([a-z_]+)"', page)
    for name in hints:
        block = page[page.index(f'<div data-option="{name}"'):]
        block = block[:block.index('<p class="tag"')]
        assert "data-words" in block or 'kind="lines"' in block or "textarea" in block, name
