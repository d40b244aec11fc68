"""The sheet editor on the new-game and amend pages: every option a real control laid out
from its schema (no JSON to type), read back into the same sheet, and every error listed in
a summary at the top of the form. Real app, real SQLite file, Flask's test client; forms are
posted as the page renders them (``fields``)."""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser

import pytest

from scorepad.rules import OPTIONS, PRESETS, RuleSheet, load_sheet
from scorepad.rules.choices import PerDeal
from scorepad.web.forms.option_controls import LAYOUTS, Props, Rows, Scalar, SetOf, Unreadable, layout
from tests import json_writes as writing
from tests.web.test_pages import fields, load, text


def table_for(sheet: RuleSheet) -> dict[str, str]:
    """Players for the smallest table the sheet is written for, as the form takes them."""
    for players in range(sheet.min_players, sheet.max_players + 1):
        for size in sheet.side_sizes:
            if players % size == 0 and players // size >= 2:
                return {f"side-{i}-p{j}": f"P{i}{j}" for i in range(players // size) for j in range(size)}
    raise AssertionError("no table fits")


def create(client, data: dict[str, str], sheet: RuleSheet, expect: int = 303):
    response = client.post("/new", data={**data, **table_for(sheet), "name": "Round trip"})
    assert response.status_code == expect, html.unescape(text(response))[:3000]
    return response


def game_of(response) -> str:
    return response.headers["Location"].rsplit("/", 1)[1]


# A sheet that sets every structured option away from its preset's value.
CUSTOM = {
    "preset": "common", "deals": 5, "side_sizes": [1, 3], "card_values": {"9": 5, "JK": 40},
    "special_books": {"7": 1000, "A": 750}, "draws_per_turn": [2, 2, 3, 3, 3],
    "going_out_bonus": [100, 200, 300, 400, 500], "opening_minimums": [0, 90, 90, 120, 150],
    "opening_bands": [{"below": 3000, "minimum": 60}, {"minimum": 100}],
    "pile_cards": 5, "pile_blocked_by": ["wild"], "max_wilds": None, "wild_books": True,
    "books_to_go_out": [{"clean": 1, "dirty": 1}, {"clean": 2, "dirty": 1, "wild": 1}, {"clean": 2, "dirty": 2},
                        {"clean": 2, "dirty": 2}, {"clean": 3}],
}


@pytest.mark.parametrize("preset_id", sorted(PRESETS))
def test_every_option_of_every_preset_round_trips_through_the_new_game_form(client, app, preset_id):
    data = fields(text(client.get(f"/new?preset={preset_id}")), action="/new")
    game_id = game_of(create(client, data, PRESETS[preset_id].sheet))
    sheet = load(app, game_id).sheet
    assert sheet == PRESETS[preset_id].sheet
    assert sheet.to_json() == {"preset": preset_id, "preset_version": PRESETS[preset_id].version}  # nothing changed


# The variations of rules round two, each changed from its default (issue 13): none needs
# code of its own in the editor, its schema lays it out.
ROUND_TWO = {
    "preset": "common", "special_books": {"7": 1000}, "special_books_dirty": {"7": 500},
    "special_books_count_as": "dirty", "wild_books": True, "wild_books_count_as": "clean",
    "three_books": {"3R": 1000, "3B": 500}, "red_three_penalty_foot": 100,
    "red_three_penalty_foot_when": "opponents-out", "go_out_partner_foot": "played", "black_three_in_foot": 100,
    "decks_rule": "by-players", "decks_by_players": {"2": 4, "3": 4, "4": 5, "5": 6, "6": 6}, "red_three_bonus": -100,
    "books_to_go_out": {"clean": 1, "dirty": 1, "special": 1},
}


# Hand, Knee and Foot's books (issue 23): special books asked for by rank, in one box of counts
# ("7: 1, 5: 1") beside numbers in other deals, caps on the books that score a bonus (a box per
# kind) and at most three books of a rank.
ROUND_THREE = {
    "preset": "common", "wild_books": True, "special_books": {"7": 5000, "5": 3000}, "three_books": {"3R": 1000},
    "books_to_go_out": [{"clean": 1, "dirty": 1, "wild": 1, "special": {"7": 1, "5": 1}}, {"clean": 1, "special": 2},
                        {"clean": 1, "dirty": 1, "special": {"3R": 1}}, {"clean": 2, "dirty": 2}],
    "book_caps": {"wild": 3, "7": 2, "5": 2}, "max_books_per_rank": 3,
}


@pytest.mark.parametrize("custom", [CUSTOM, ROUND_TWO, ROUND_THREE, {"preset": "common", "special_books": {"7": 1000},
                                                        "special_book_wilds": "never"}])
def test_a_sheet_changing_every_structured_option_round_trips_through_the_amend_page(client, app, custom):
    sheet = load_sheet(custom)
    with app.test_request_context():
        game = writing.create_game("Custom", sheet.to_json(), [{"name": "A", "players": ["A"]},
                                                             {"name": "B", "players": ["B"]}])
    client.get(f"/games/{game.id}/edit/{game.edit_key}")
    page = text(client.get(f"/games/{game.id}/sheet/amend"))
    data = fields(page, action=f"/games/{game.id}/sheet/amend")
    if custom is CUSTOM:
        assert 'value="0"' in page and 'id="opt-max_wilds" name="opt-max_wilds" value=""' in page
    # The same boxes, posted as a new game, give the same sheet back.
    new_sheet = load(app, game_of(create(client, data, sheet))).sheet
    assert new_sheet == sheet and new_sheet.to_json() == sheet.to_json()


def test_every_option_has_a_control_and_none_is_a_json_text_field(client):
    assert set(LAYOUTS) == {o.name for o in OPTIONS}
    for preset_id in PRESETS:
        page = text(client.get(f"/new?preset={preset_id}"))
        # the one text area is the house rules, one a line: sentences, never JSON
        assert re.findall(r'<textarea[^>]*name="([^"]+)"', page) == ["opt-house_rules"]
        values = Inputs.of(page)
        assert values, "the page has inputs"
        for name, kind, value in values:
            if kind in ("checkbox", "radio", "submit", "button"):
                continue
            try:
                parsed = json.loads(value)
            except ValueError:
                continue
            assert not isinstance(parsed, (dict, list)), f"{name} holds JSON: {value}"
        option_boxes = [v for v in values if v[0].startswith("opt-") and v[1] not in ("checkbox", "select")]
        # every box a number, but the special books to go out (a number, or counts by rank: "7: 1, 5: 1")
        # and a minimum by deal (a number, or the word "book"): a text box
        assert option_boxes and all(kind == "number" or kind == "text" and (
            re.fullmatch(r"opt-books_to_go_out-\d+-special", name) or name.startswith("opt-opening_minimums-"))
            for name, kind, _ in option_boxes)


class Inputs(HTMLParser):
    """(name, type, value) of every input and select of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, str, str]] = []
        self.attrs: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "input" and a.get("name"):
            self.found.append((a["name"] or "", a.get("type") or "text", a.get("value") or ""))
            self.attrs.append(a)
        elif tag == "select" and a.get("name"):
            self.found.append((a["name"] or "", "select", ""))
            self.attrs.append(a)

    @classmethod
    def of(cls, page: str) -> list[tuple[str, str, str]]:
        parser = cls()
        parser.feed(page)
        return parser.found


def test_number_boxes_carry_the_options_bounds_and_ask_for_the_number_keyboard(client):
    parser = Inputs()
    parser.feed(text(client.get("/new")))
    boxes = {a["name"]: a for a in parser.attrs if a.get("type") == "number"}
    assert boxes["opt-hand_size"]["min"] == "1" and boxes["opt-hand_size"]["max"] == "30"
    assert boxes["opt-draws_per_turn-2"]["min"] == "1" and boxes["opt-draws_per_turn-2"]["max"] == "10"
    assert boxes["opt-card_values-JK"]["max"] == "10000" and boxes["opt-max_wilds"]["placeholder"] == "none"
    assert all(a.get("inputmode") == "numeric" for a in boxes.values())


def test_a_negative_minimum_for_deal_2_names_the_box_keeps_it_and_is_summarised_at_the_top(client):
    data = fields(text(client.get("/new")), action="/new")
    data["opt-opening_minimums-2"] = "-5"
    data["opt-card_values-K"] = "ten"
    response = create(client, data, PRESETS["common"].sheet, expect=400)
    page = text(response)
    box = re.search(r'<input[^>]*id="opt-opening_minimums-2"[^>]*>', page).group()
    assert 'value="-5"' in box and 'aria-invalid="true"' in box  # what was typed comes back, marked
    assert 'value="ten"' in page
    says = "Minimum by deal (deal 2): must be from 0 to 10000, not -5"
    assert f'<p class="error" id="opt-opening_minimums-2-error">{says}</p>' in page
    summary = page[page.index('id="error-summary"'):page.index("</div>", page.index('id="error-summary"'))]
    assert page.index('id="error-summary"') < page.index('<section')  # at the top, before the first step
    assert 'role="alert"' in page[page.index('<div class="problems error-summary"'):][:200]
    assert f'<a href="#opt-opening_minimums-2">{says}</a>' in summary
    assert """<a href="#opt-card_values-K">Card values (K): must be a whole number, not 'ten'</a>""" \
        in html.unescape(summary)
    assert "2 things to fix" in summary


def test_every_link_of_the_summary_leads_to_a_box_on_the_page(client):
    data = fields(text(client.get("/new?preset=pagat")), action="/new")
    data.update({"side-0-p0": "Ann", "side-0-p1": "Ann", "side-1-p0": "Bea", "side-1-p1": "Dan",
                 "opt-books_to_go_out-1-wild": "x", "opt-hand_size": ""})
    page = text(client.post("/new", data=data))
    summary = page[page.index('id="error-summary"'):page.index("</div>", page.index('id="error-summary"'))]
    targets = re.findall(r'href="#([^"]+)"', summary)
    assert targets == ["opt-hand_size", "opt-books_to_go_out-1-wild"]  # the sides are checked once the sheet reads
    for target in targets:
        assert f'id="{target}"' in page
    assert "Books needed to go out (deal 1, wild): must be a whole number, not &#39;x&#39;" in summary
    assert "Cards in the hand: needs a number" in summary


@pytest.mark.parametrize("box, value, target, says", [
    ("opt-opening_bands-2-below", "1000", "opt-opening_bands-2-below",
     "Minimum by running total (row 2, below): bands must rise"),
    ("opt-opening_bands-4-minimum", "", "opt-opening_bands-3-below", "Minimum by running total (row 3): the last band"),
    ("opt-books_to_go_out-1-wild", "1", "opt-books_to_go_out-1-clean",
     "Books needed to go out: asks for a wild book"),
    ("opt-side_sizes-1", None, "opt-side_sizes-1", "Players per side: must list the players"),
])
def test_the_rules_cores_message_lands_on_the_box_it_names(client, box, value, target, says):
    data = fields(text(client.get("/new")), action="/new")
    if box == "opt-side_sizes-1":
        data.pop("opt-side_sizes-1"), data.pop("opt-side_sizes-2")
    else:
        data[box] = value
    page = html.unescape(text(create(client, data, PRESETS["common"].sheet, expect=400)))
    summary = page[page.index('id="error-summary"'):page.index("</div>", page.index('id="error-summary"'))]
    assert f'<a href="#{target}">{says}' in summary


def test_a_side_error_is_summarised_with_a_link_to_the_side(client):
    data = fields(text(client.get("/new")), action="/new")
    data.update({"side-0-p0": "Bea’s", "side-1-p0": "Bea’s"})
    page = text(client.post("/new", data=data))
    assert re.search(r'<a href="#side-1-p0">Side 2: two (sides|players) are called', page), page


def test_curly_quotes_in_names_are_kept_as_typed(client, app):
    """Phones type “ ” ‘ ’ by default; a name is plain text (never JSON), so they are names' own."""
    data = fields(text(client.get("/new")), action="/new")
    data.update({"side-0-p0": "“Doc” Ann", "side-0-name": "‘Us’", "side-1-p0": "Bea’s mum", "name": "Friday “night”"})
    game = load(app, game_of(client.post("/new", data=data)))
    assert game.name == "Friday “night”"
    assert game.sides == [{"name": "‘Us’", "players": ["“Doc” Ann"]}, {"name": "Bea’s mum", "players": ["Bea’s mum"]}]


def test_a_blank_later_deal_is_the_deal_before_and_all_blank_is_one_value_for_every_deal(client, app):
    data = fields(text(client.get("/new")), action="/new")
    data.update({"opt-opening_minimums-2": "", "opt-going_out_bonus-1": "250",
                 "opt-books_to_go_out-3-clean": "2", "opt-books_to_go_out-3-dirty": "2"})
    sheet = load(app, game_of(create(client, data, PRESETS["common"].sheet))).sheet
    assert sheet.opening_minimums == PerDeal((50, 50, 120, 150))
    assert sheet.going_out_bonus == PerDeal((250,))
    assert [str(b) for b in sheet.books_to_go_out.values] == ["1 clean + 1 dirty"] * 2 + ["2 clean + 2 dirty"] * 2


def test_deals_added_past_the_boxes_play_as_the_last_and_get_a_box_each(client, app):
    data = fields(text(client.get("/new")), action="/new")
    data.update({"opt-deals": "6"})
    game_id = game_of(create(client, data, PRESETS["common"].sheet))
    sheet = load(app, game_id).sheet
    assert sheet.opening_minimums == PerDeal((50, 90, 120, 150, 150, 150)) and sheet.going_out_bonus == PerDeal((100,))
    page = text(client.get(f"/games/{game_id}/sheet/amend"))
    assert 'id="opt-opening_minimums-6"' in page and 'id="opt-opening_minimums-7"' not in page


def test_the_amend_page_summarises_its_errors_at_the_top_too(client):
    from tests.web.test_pages import start
    game_id = start(client)
    url = f"/games/{game_id}/sheet/amend"
    data = fields(text(client.get(url)), action=url)
    data["opt-special_books-7"] = "-1"
    page = text(client.post(url, data=data))
    summary = page[page.index('id="error-summary"'):page.index("</div>", page.index('id="error-summary"'))]
    assert re.findall(r'href="#([^"]+)"', summary) == ["opt-special_books-7", "reason"]
    assert "Special books (7): must be from 0 to 100000, not -1" in summary


def test_controls_come_from_the_shape_of_the_schema_so_a_new_option_needs_no_code():
    count = {"type": "integer", "minimum": 0, "maximum": 9}
    assert layout(count) == Scalar("int", 0, 9)
    assert layout({"anyOf": [count, {"type": "null"}]}) == Scalar("int", 0, 9, optional=True)
    assert layout({"anyOf": [count, {"type": "array", "items": count, "maxItems": 50}]}) == Rows(
        Scalar("int", 0, 9), 50, per_deal=True)
    assert layout({"type": "array", "uniqueItems": True, "items": {"type": "string", "enum": ["a", "b"]}}) == \
        SetOf(("a", "b"), numbers=False)
    pair = {"type": "object", "properties": {"x": count, "y": {"type": "boolean"}}}
    assert layout(pair) == Props((("x", Scalar("int", 0, 9)), ("y", Scalar("bool"))))
    assert layout({"type": "array", "items": pair, "maxItems": 3}) == Rows(layout(pair), 3)
    assert layout({"type": "array", "items": {"type": "string", "maxLength": 80}, "maxItems": 5}) == \
        Scalar("lines", hi=80)  # free text: a text area, one item a line


def test_a_form_without_the_sheets_boxes_is_refused_naming_them_never_a_500(client):
    response = client.post("/new", data={"preset": "common", "side-0-p0": "Ann", "side-1-p0": "Bea"})
    assert response.status_code == 400
    summary = html.unescape(text(response))
    assert "Minimum by deal (deal 1): needs a value for the first deal" in summary
    assert '<a href="#opt-opening_bands-1-below">Minimum by running total: must be a list' in summary


def test_a_select_says_each_choice_in_the_sheets_words_and_posts_its_value(client):
    """A choice reads as the sheet page and the printed sheet word it ("the whole pile"), not
    as the JSON code ("whole"), which stays the value the form posts."""
    page = client.get("/new").get_data(as_text=True)
    select = re.search(r'<select id="opt-pile_take".*?</select>', page, re.S)
    assert select is not None
    options = dict(re.findall(r'<option value="([^"]+)"[^>]*>([^<]+)</option>', select.group(0)))
    assert options == {"top": "the top 7 cards (all if fewer)",
                       "top-if-full": "the top 7 cards, only when that many are there",
                       "whole": "the whole pile", "never": "never"}
    assert 'value="top-if-full" selected' in select.group(0)


def test_the_preset_chooser_groups_every_preset_once(client):
    """Books and rules pages, card rooms and house sheets, apps and online: every preset in
    exactly one group, so seven or more stay easy to choose from."""
    page = client.get("/new?preset=pagat").get_data(as_text=True)
    chooser = re.search(r'<select id="preset-choice".*?</select>', page, re.S)
    assert chooser is not None
    groups = re.findall(r'<optgroup label="([^"]+)">(.*?)</optgroup>', chooser.group(0), re.S)
    offered = {label: re.findall(r'<option value="([^"]+)"', body) for label, body in groups}
    assert list(offered)[0] == "Books and rules pages"
    assert offered["Books and rules pages"][:4] == ["common", "pagat", "bicycle", "gather-together"]
    assert sorted(pid for pids in offered.values() for pid in pids) == sorted(PRESETS)
    assert {PRESETS[pid].group for pid in offered["Card rooms and house sheets"]} == {"card-rooms"}
    assert 'value="pagat" selected' in chooser.group(0)


def test_the_box_of_special_books_to_go_out_takes_a_number_or_counts_by_rank():
    box = LAYOUTS["books_to_go_out"].item.props[-1][1]
    assert box.kind == "counts"
    assert (box.read("2"), box.read("7: 1, 5: 1"), box.read(" 3r:1 ")) == (2, {"7": 1, "5": 1}, {"3R": 1})
    assert box.show({"7": 1, "5": 1}) == "7: 1, 5: 1" and box.show(2) == "2"
    with pytest.raises(Unreadable):
        box.read("7: one")
