"""The pages and the referee's API under issue 23's pile, book-growth and opening options: the sheet
editor's controls for them (laid out from their schemas), a side's failed takes of the pile on the
deal form and the deal's page, and the desk's answers."""

from __future__ import annotations

import json
import re

import pytest

from scorepad.rules import load_sheet
from scorepad.rules.catalogue import OPTION_BY_NAME
from scorepad.rules.choices import BookGrowth, GrowthByKind, OpeningBook, PerDeal
from scorepad.web.forms.sheet_editor import LAYOUTS, Props, Rows, Scalar
from tests.helpers import api_game, form_fields, grant
from tests.web.test_counted import BENCH_FORM, words
from tests.web.test_desk import API, as_query, page_answer
from tests.web.test_pages import fields, game_id_of, load, text
from tests.web.test_sheet_editor import create, game_of

# -- the sheet editor -----------------------------------------------------------------------------------


def test_book_growth_is_a_select_for_each_kind_and_one_word_fills_both():
    lay = LAYOUTS["book_growth"]
    assert isinstance(lay, Props)
    assert [key for key, _ in lay.props] == ["clean", "dirty"]
    assert all(sub.kind == "choice" and sub.choices == ("closed", "naturals", "any") for _, sub in lay.props)


def test_a_minimum_by_deal_is_a_box_for_a_number_or_the_word_book():
    lay = LAYOUTS["opening_minimums"]
    assert isinstance(lay, Rows) and lay.per_deal
    assert lay.item == Scalar("int", 0, 10_000, choices=("book",))
    assert lay.item.read(" Book ") == "book" and lay.item.read("120") == 120


def test_the_new_game_page_shows_book_growth_for_each_kind_as_the_presets_word(client):
    page = text(client.get("/new?preset=common"))
    for kind in ("clean", "dirty"):
        select = re.search(rf'<select id="opt-book_growth-{kind}".*?</select>', page, re.S).group()
        assert '<option value="closed" selected>' in select
    assert 'id="opt-opening_minimums-1" name="opt-opening_minimums-1" value="50"' in page


def test_growth_by_kind_a_fifth_deal_opened_with_a_book_and_the_pile_options_are_set_in_the_editor(client, app):
    data = fields(text(client.get("/new?preset=common")), action="/new")
    data.update({"opt-book_growth-clean": "naturals", "opt-book_growth-dirty": "closed",
                 "opt-deals": "5", "opt-opening_minimums-5": "book",
                 "opt-pile_needs": "one-natural", "opt-pile_new_meld": "1", "opt-pile_take_penalty": "100"})
    sheet = load_sheet({"preset": "common", "book_growth": {"clean": "naturals", "dirty": "closed"}, "deals": 5,
                        "opening_minimums": [50, 90, 120, 150, "book"], "pile_needs": "one-natural",
                        "pile_new_meld": True, "pile_take_penalty": 100})
    made = load(app, game_of(create(client, data, sheet))).sheet
    assert made == sheet
    assert made.book_growth == GrowthByKind(BookGrowth.NATURALS, BookGrowth.CLOSED)
    assert made.opening_minimums == PerDeal((50, 90, 120, 150, OpeningBook.BOOK))


def test_the_same_word_for_both_kinds_is_no_change_from_the_preset(client, app):
    data = fields(text(client.get("/new?preset=common")), action="/new")
    data.update({"opt-book_growth-clean": "naturals", "opt-book_growth-dirty": "naturals"})
    made = load(app, game_of(create(client, data, load_sheet("common")))).sheet
    assert made.book_growth is BookGrowth.NATURALS and made.to_json()["book_growth"] == "naturals"


def test_a_word_other_than_book_in_a_minimum_names_the_box(client):
    data = fields(text(client.get("/new")), action="/new")
    data["opt-opening_minimums-2"] = "canasta"
    page = text(create(client, data, load_sheet("common"), expect=400))
    assert "Minimum by deal (deal 2): must be a whole number or &#39;book&#39;, not &#39;canasta&#39;" in page


def test_a_sheet_with_the_new_options_round_trips_through_the_amend_page(client, app):
    data = fields(text(client.get("/new?preset=pagat")), action="/new")
    data.update({"opt-book_growth-clean": "any", "opt-book_growth-dirty": "naturals",
                 "opt-no_wild_on_clean_book": "1", "opt-pile_needs": "natural-and-wild"})
    sheet = load_sheet({"preset": "pagat", "book_growth": {"clean": "any", "dirty": "naturals"},
                        "no_wild_on_clean_book": True, "pile_needs": "natural-and-wild"})
    game_id = game_of(create(client, data, sheet))
    game = load(app, game_id)
    client.get(f"/games/{game.id}/edit/{game.edit_key}")
    page = text(client.get(f"/games/{game.id}/sheet/amend"))
    again = fields(page, action=f"/games/{game.id}/sheet/amend")
    assert again["opt-book_growth-clean"] == "any" and again["opt-book_growth-dirty"] == "naturals"
    assert load(app, game_of(create(client, again, sheet))).sheet == sheet


# -- failed takes on the deal form and the deal's page ---------------------------------------------------


def penalty_game(client, penalty: int) -> str:
    """A common-preset game, Us (Ann, Cal) v Them (Bea, Dan), a failed take of the pile costing ``penalty``."""
    data = form_fields(client.get("/new?preset=common").get_data(as_text=True), "/new")
    data.update({"name": "Roth", "side-0-p0": "Ann", "side-0-p1": "Cal", "side-0-name": "Us",
                 "side-1-p0": "Bea", "side-1-p1": "Dan", "side-1-name": "Them",
                 "opt-pile_take_penalty": str(penalty)})
    return game_id_of(client.post("/new", data=data))


def test_the_deal_form_asks_for_failed_takes_only_where_the_sheet_charges_for_them(client):
    charged, free = penalty_game(client, 100), penalty_game(client, 0)
    assert 'name="s1-failed"' in text(client.get(f"/games/{charged}/deals/new"))
    assert "failed" not in text(client.get(f"/games/{free}/deals/new")).replace("failed:3", "")


def test_two_failed_takes_cost_them_200_on_the_deal_form_and_show_on_the_deal(client):
    game_id = penalty_game(client, 100)
    new = f"/games/{game_id}/deals/new"
    form = form_fields(client.get(new).get_data(as_text=True), new)
    response = client.post(new, data=dict(form, **BENCH_FORM, **{"s1-failed": "2"}, action="save"))
    assert response.status_code == 303, words(response.get_data(as_text=True))[:600]
    deal = client.get(f"/api/v1/games/{game_id}/deals/1").get_json()["deal"]
    assert deal["sides"][1]["failed_takes"] == 2 and "failed_takes" not in deal["sides"][0]
    page = words(client.get(f"/games/{game_id}/deals/1").get_data(as_text=True))
    assert "Failed takes of the pile: 2" in page
    assert "Them: 950" in page  # the bench deal's 1,150 - 2 x 100
    assert "Us: 2,970" in page
    # the edit form shows the count back
    edit = f"/games/{game_id}/deals/1/edit"
    assert form_fields(client.get(edit).get_data(as_text=True), edit)["s1-failed"] == "2"


def test_a_failed_take_that_is_no_count_is_named_on_the_form(client):
    game_id = penalty_game(client, 100)
    new = f"/games/{game_id}/deals/new"
    form = form_fields(client.get(new).get_data(as_text=True), new)
    response = client.post(new, data=dict(form, **BENCH_FORM, **{"s1-failed": "two"}, action="save"))
    assert response.status_code == 400
    assert "Failed takes of the pile" in words(response.get_data(as_text=True))


# -- the desk: the page and the API answer alike ---------------------------------------------------------

TANGLEWOOD = {"preset": "pagat", "pile_needs": "natural-and-wild", "pile_take": "top", "pile_cards": 3}
ROTH = {"preset": "pagat", "pile_needs": "one-natural", "pile_new_meld": True, "pile_take_penalty": 100}
FIVE = {"preset": "common", "deals": 5, "opening_minimums": [50, 90, 120, 150, "book"]}

# (question, sheet, a NO and the option it fails on, its legal near twin)
ASKED = [
    ("pile", TANGLEWOOD, {"top_card": "9", "pair": 1, "wilds": 0, "opened": True, "pile_size": 9}, "pile_needs",
     {"top_card": "9", "pair": 1, "wilds": 1, "opened": True, "pile_size": 9}),
    ("pile", ROTH, {"top_card": "9", "pair": 2, "opened": True, "pile_size": 9, "table": ["9 9 9 9"]},
     "pile_new_meld", {"top_card": "9", "pair": 1, "opened": True, "pile_size": 9}),
    ("minimum", FIVE, {"melds": ["K K K K K K", "A A A A A A"], "deal": 5}, "opening_minimums",
     {"melds": ["K K K K K K K"], "deal": 5}),
    ("meld", {"preset": "common", "book_growth": {"clean": "naturals", "dirty": "closed"}},
     {"meld": "K K K K K K K 2"}, "book_growth", {"meld": "K K K K K K K K"}),
    ("meld", {"preset": "common", "book_growth": "any", "no_wild_on_clean_book": True},
     {"meld": "2", "adding_to": "K K K K K K K"}, "no_wild_on_clean_book", {"meld": "K", "adding_to": "K K K K K K K"}),
]


@pytest.mark.parametrize("question, sheet, no, option, yes", ASKED, ids=[f"{a[0]}-{a[3]}" for a in ASKED])
def test_the_new_options_answer_the_same_on_the_page_and_through_the_api(client, question, sheet, no, option, yes):
    for data, expect in ((no, False), (yes, True)):
        body = client.post(f"{API}/{question}", json={"sheet": sheet, **data}).get_json()
        assert body["yes"] is expect, body
        query = {"sheet": sheet["preset"], "sheet_json": json.dumps(sheet), "ask": question, **as_query(data)}
        answered_yes, said, _ = page_answer(client.get("/referee", query_string=query).get_data(as_text=True),
                                            question)
        assert answered_yes is expect, said
        if not expect:
            assert option in [r["option"] for r in body["reasons"] if not r["ok"]]
            assert f"Rule: {OPTION_BY_NAME[option].label}:" in said


def test_the_desk_cites_book_growth_for_a_legal_meld_past_a_book(client):
    body = client.post(f"{API}/meld", json={"sheet": {"preset": "common", "book_growth": "naturals"},
                                            "meld": "K K K K K K K K"}).get_json()
    assert body["yes"] is True
    assert [r["option"] for r in body["reasons"]] == ["book_growth"]
    assert body["reasons"][0]["message"].startswith("8 cards: a book of 7 grown past its size")


def test_the_desk_warns_of_the_penalty_before_a_take(client):
    body = client.post(f"{API}/pile", json={"sheet": ROTH, "top_card": "9", "pair": 1, "opened": True,
                                            "pile_size": 9}).get_json()
    (said,) = [r for r in body["reasons"] if r["option"] == "pile_take_penalty"]
    assert said["ok"] and "loses 100 points" in said["message"] and said["sheet_says"] == "minus 100 points each"


def test_the_game_page_and_the_deal_form_name_the_complete_book_of_the_fifth_deal(client):
    # Four deals of Ann going out with a clean and a dirty book (her first melds not given), then deal 5.
    played = {"ending": "went_out", "went_out": "Ann", "sides": [
        {"name": "Ann", "melds": ["K K K K K K K", "Q Q Q Q Q 2 2"],
         "players": [{"name": "Ann", "foot_picked_up": True}]},
        {"name": "Bea", "melds": ["9 9 9"], "players": [{"name": "Bea", "foot_picked_up": True}]}]}
    game_id, key = api_game(client, "Five", FIVE, deals=[{**played, "deal": n} for n in range(1, 5)])
    game = words(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "Deal 5 next" in game and "a complete book, for every side" in game
    grant(client, game_id, key)
    form = words(client.get(f"/games/{game_id}/deals/new").get_data(as_text=True))
    assert "Opening a complete book" in form
    body = client.get(f"/api/v1/games/{game_id}").get_json()
    assert body["next_deal"]["opening_book"] is True and body["next_deal"]["opening_minimums"] == {"Ann": 0, "Bea": 0}
