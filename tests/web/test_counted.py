"""A recorded counted deal on the pages: the deal's own page shows its counts and every score
line, and the game's table its totals; and counted entry on the deal form (the default), with
"Itemise melds" for a side, editing a counted deal counted, and each side's going out."""

from __future__ import annotations

import copy
import html
import re

import pytest

from tests.api.test_counted import DEAL, SIDES, bench_game
from tests.helpers import api_game, db_state, form_fields, grant
from tests.web.test_pages import game_id_of


def words(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).replace("&#39;", "'").split())


def test_the_deal_page_shows_the_counts_and_the_counted_lines(client):
    game_id, _ = bench_game(client)
    response = client.get(f"/games/{game_id}/deals/1")
    assert response.status_code == 200
    text = words(response.get_data(as_text=True))
    assert "Counted: 3 clean, 2 dirty books; melded card points 415. Red threes laid: 4." in text
    assert "Counted: 1 clean, 1 dirty books; melded card points 235. Red threes laid: 2." in text
    assert re.search(r"Melded card points Rule: Card values: .*? 1 × 415 415", text)
    assert "Cal's hand: points Rule: Card values, as above 1 × -45 -45" in text
    assert "Us: 2,970" in text and "Them: 1,150" in text
    assert "The melds of Us are counted, not listed" in text  # the counted.unchecked warning


def test_the_game_page_totals_a_counted_deal(client):
    game_id, _ = bench_game(client)
    text = words(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "Deal 1 2,970 running total 2,970 1,150 running total 1,150 Total 2,970 1,150" in text


def test_the_deal_page_gives_each_counted_line_its_rule(client):
    game_id, _ = bench_game(client)
    text = words(client.get(f"/games/{game_id}/deals/1").get_data(as_text=True))
    assert "Melded card points Rule: Card values: joker: 50; 2 A: 20; K Q J 10 9 8: 10; 7 6 5 4 black 3: 5 " \
           "1 × 415 415" in text
    assert "Cal's hand: points Rule: Card values, as above" in text


def test_the_import_page_takes_a_counted_games_export(client):
    game_id, _ = bench_game(client)
    document = client.get(f"/games/{game_id}/export.json").get_data(as_text=True)
    response = client.post("/import", data={"document": document})
    assert response.status_code == 303, words(response.get_data(as_text=True))[:300]
    new_id = response.headers["Location"].rsplit("/games/", 1)[1]
    text = words(client.get(f"/games/{new_id}/deals/1").get_data(as_text=True))
    assert "Counted: 3 clean, 2 dirty books; melded card points 415. Red threes laid: 4." in text
    assert "Us: 2,970" in text and "Them: 1,150" in text


BENCH_FORM = {  # the bench deal as counted entry sends it (a blank box is 0)
    "s0-b-clean": "3", "s0-b-dirty": "2", "s0-red_threes": "4", "s0-points": "415", "s0-p1-pts": "45",
    "s1-b-clean": "1", "s1-b-dirty": "1", "s1-red_threes": "2", "s1-points": "235", "s1-p0-pts": "30",
    "s1-p1-pts": "55", "ending": "s0-p0"}


def new_form(client, game_id: str) -> dict[str, str]:
    new = f"/games/{game_id}/deals/new"
    return form_fields(client.get(new).get_data(as_text=True), new)


def counted_game(client) -> str:
    """A common-preset game, Us (Ann, Cal) v Them (Bea, Dan), made through the New game page."""
    data = form_fields(client.get("/new?preset=common").get_data(as_text=True), "/new")
    data.update({"name": "Friday", "side-0-p0": "Ann", "side-0-p1": "Cal", "side-0-name": "Us",
                 "side-1-p0": "Bea", "side-1-p1": "Dan", "side-1-name": "Them"})
    return game_id_of(client.post("/new", data=data))


def test_the_deal_form_opens_counted_and_records_the_bench_deal_by_counts(client, app):
    game_id = counted_game(client)
    form = new_form(client, game_id)
    assert form["s0-mode"] == form["s1-mode"] == "count"
    response = client.post(f"/games/{game_id}/deals/new", data=dict(form, **BENCH_FORM, action="save"))
    assert response.status_code == 303, words(response.get_data(as_text=True))[:600]
    deal = client.get(f"/api/v1/games/{game_id}/deals/1").get_json()["deal"]
    assert deal["sides"][0]["books"] == {"clean": 3, "dirty": 2, "wild": 0, "special": {}}
    assert deal["sides"][0]["meld_points"] == 415
    assert [p["cards_left_points"] for s in deal["sides"] for p in s["players"]] == [0, 45, 30, 55]
    assert "Us: 2,970" in words(client.get(f"/games/{game_id}/deals/1").get_data(as_text=True))


def test_a_counted_deal_opens_counted_on_the_edit_form_and_saves_back_unchanged(client, app):
    game_id, key = bench_game(client)
    grant(client, game_id, key["Authorization"].removeprefix("Bearer "))  # bench_game gives the header
    before = db_state(app)
    edit = f"/games/{game_id}/deals/1/edit"
    page = client.get(edit).get_data(as_text=True)
    form = form_fields(page, edit)
    assert {k: form[k] for k in ("s0-mode", "s0-b-clean", "s0-b-dirty", "s0-points", "s0-p1-pts", "s1-p1-pts")} == {
        "s0-mode": "count", "s0-b-clean": "3", "s0-b-dirty": "2", "s0-points": "415", "s0-p1-pts": "45",
        "s1-p1-pts": "55"}
    assert 'name="s0-m0-rank"' not in page  # no meld rows for a counted side
    response = client.post(edit, data=dict(form, action="save"), follow_redirects=True)
    assert "Deal 1 unchanged" in words(response.get_data(as_text=True))
    assert db_state(app) == before


def test_itemise_melds_switches_one_side_to_meld_rows_keeping_what_was_typed(client):
    game_id = counted_game(client)
    data = dict(new_form(client, game_id), **BENCH_FORM, action="itemise-s1")
    response = client.post(f"/games/{game_id}/deals/new", data=data)
    assert response.status_code == 200
    form = form_fields(response.get_data(as_text=True), f"/games/{game_id}/deals/new")
    assert form["s0-mode"] == "count" and form["s0-points"] == "415" and "s1-mode" not in form
    assert "s1-m0-rank" in form and "s0-m0-rank" not in form and "s1-p0-c-A" in form
    # Them itemised: a clean and a dirty book, 30 and 55 left as cards
    form.update({"s1-m0-cards": "Jx7", "s1-m1-cards": "Qx5 2", "s1-p0-left": "Kx3", "s1-p1-left": "Kx5 10",
                 "ending": "s0-p0", "action": "save"})
    response = client.post(f"/games/{game_id}/deals/new", data=form)
    assert response.status_code == 303, words(response.get_data(as_text=True))[:600]
    deal = client.get(f"/api/v1/games/{game_id}/deals/1").get_json()["deal"]
    assert "books" in deal["sides"][0] and deal["sides"][1]["melds"]


def test_an_itemised_deal_opens_itemised_on_the_edit_form(client):
    game_id = counted_game(client)
    data = dict(new_form(client, game_id), action="itemise-s0")
    form = form_fields(client.post(f"/games/{game_id}/deals/new", data=data).get_data(as_text=True),
                       f"/games/{game_id}/deals/new")
    form.update({"s0-m0-cards": "Kx7", "s0-m1-cards": "Qx6 2", "ending": "s0-p0", "action": "save"})
    assert client.post(f"/games/{game_id}/deals/new", data=form).status_code == 303
    form = form_fields(client.get(f"/games/{game_id}/deals/1/edit").get_data(as_text=True),
                       f"/games/{game_id}/deals/1/edit")
    assert "s0-mode" not in form and form["s0-m0-rank"] == "K"
    assert form["s1-mode"] == "count"  # the side recorded by counts opens counted


def test_going_out_and_the_live_preview_count_a_counted_sides_books(client):
    game_id = counted_game(client)
    data = dict(new_form(client, game_id), **BENCH_FORM)
    live = html.unescape(client.post(f"/games/{game_id}/deals/1/preview", data=data).get_data(as_text=True))
    assert '<p class="out" id="s0-out"><b>Us</b> clean 3/1, dirty 2/1: may go out</p>' in live
    assert '<span>Us <strong>2,970</strong></span> · <span>Them <strong>1,150</strong></span>' in live


def test_counted_entry_is_lighter_than_itemised(client):
    game_id = counted_game(client)
    new = f"/games/{game_id}/deals/new"
    counted = len(client.get(new).get_data())
    itemised = len(client.post(new, data=dict(new_form(client, game_id), action="itemise-s0")).get_data())
    assert counted < itemised


def test_special_books_the_sheet_names_get_their_own_row_and_are_recorded_as_special(client):
    game_id, key = api_game(client, "Sevens", {"preset": "common", "special_books": {"7": 1000}}, SIDES)
    grant(client, game_id, key)
    page = client.get(f"/games/{game_id}/deals/new").get_data(as_text=True)
    assert 'name="s0-b-7" aria-label="Us: 7s books"' in page
    form = dict(new_form(client, game_id), **BENCH_FORM, action="save")
    form.update({"s0-b-clean": "2", "s0-b-7": "1"})  # one of the three clean books is of sevens
    response = client.post(f"/games/{game_id}/deals/new", data=form)
    assert response.status_code == 303, words(response.get_data(as_text=True))[:600]
    deal = client.get(f"/api/v1/games/{game_id}/deals/1").get_json()["deal"]
    assert deal["sides"][0]["books"] == {"clean": 2, "dirty": 2, "wild": 0, "special": {"7": 1}}


def test_dirty_special_books_and_books_of_threes_get_their_own_rows_and_read_back_into_them(client):
    """special_books_dirty and three_books (issue 13): a counted side records them as
    books.special_dirty and books.threes, and the deal opens for correcting with them filled in."""
    sheet = {"preset": "common", "special_books": {"7": 1000}, "special_books_dirty": {"7": 500},
             "three_books": {"3R": 1000}, "decks_rule": "fixed", "decks": 8}
    game_id, key = api_game(client, "Sevens", sheet, SIDES)
    grant(client, game_id, key)
    page = client.get(f"/games/{game_id}/deals/new").get_data(as_text=True)
    assert 'name="s0-b-d7" aria-label="Us: dirty 7s books"' in page
    assert 'name="s0-b-3R" aria-label="Us: Red 3s books"' in page
    form = dict(new_form(client, game_id), **BENCH_FORM, action="save")
    form.update({"s0-b-dirty": "1", "s0-b-d7": "1", "s0-b-3R": "1"})
    response = client.post(f"/games/{game_id}/deals/new", data=form)
    assert response.status_code == 303, words(response.get_data(as_text=True))[:600]
    deal = client.get(f"/api/v1/games/{game_id}/deals/1").get_json()["deal"]
    assert deal["sides"][0]["books"] == {"clean": 3, "dirty": 1, "wild": 0, "special": {},
                                         "special_dirty": {"7": 1}, "threes": {"3R": 1}}
    edit = client.get(f"/games/{game_id}/deals/1/edit").get_data(as_text=True)
    assert re.search(r'name="s0-b-d7"[^>]*value="1"', edit) and re.search(r'name="s0-b-3R"[^>]*value="1"', edit)
    text = words(client.get(f"/games/{game_id}/deals/1").get_data(as_text=True))
    assert "Counted: 3 clean, 1 dirty, 1 dirty of 7s, 1 of red threes books" in text


def test_going_out_counts_special_books_as_the_verdict_does(client):
    """A sheet asking for a special book (issue 13): the side's progress counts the book of
    sevens toward it first, once; without it, one more special book is what is missing."""
    sheet = {"preset": "common", "special_books": {"7": 1000},
             "books_to_go_out": {"clean": 1, "dirty": 1, "special": 1}}
    game_id, key = api_game(client, "Sevens", sheet, SIDES)
    grant(client, game_id, key)
    data = {**new_form(client, game_id), **BENCH_FORM, "s0-b-clean": "2", "s0-b-7": "1"}
    live = html.unescape(client.post(f"/games/{game_id}/deals/1/preview", data=data).get_data(as_text=True))
    assert '<b>Us</b> clean 2/1, dirty 2/1, special 1/1: may go out</p>' in live
    data["s0-b-7"] = ""
    live = html.unescape(client.post(f"/games/{game_id}/deals/1/preview", data=data).get_data(as_text=True))
    assert "clean 2/1, dirty 2/1, special 0/1" in live and "1 more special book" in live


def test_an_itemised_book_of_threes_takes_its_rank_where_the_sheet_books_threes(client):
    sheet = {"preset": "common", "three_books": {"3R": 1000}, "decks_rule": "fixed", "decks": 8}
    game_id, key = api_game(client, "Threes", sheet, SIDES)
    grant(client, game_id, key)
    data = dict(new_form(client, game_id), action="itemise-s0")
    new = f"/games/{game_id}/deals/new"
    form = form_fields(client.post(new, data=data).get_data(as_text=True), new)
    form.update({"s0-m0-cards": "Kx7", "s0-m1-cards": "Qx6 2", "s0-m2-rank": "3R", "s0-m2-naturals": "7",
                 "ending": "s0-p0", "action": "save"})
    response = client.post(new, data=form)
    assert response.status_code == 303, words(response.get_data(as_text=True))[:600]
    deal = client.get(f"/api/v1/games/{game_id}/deals/1").get_json()["deal"]
    assert deal["sides"][0]["melds"][2] == {"rank": "3R", "naturals": 7}
    edit = client.get(f"/games/{game_id}/deals/1/edit").get_data(as_text=True)
    assert "<option selected>3R" in edit
    assert "Books of red threes" in words(client.get(f"/games/{game_id}/deals/1").get_data(as_text=True))


@pytest.mark.parametrize("mix", ["cards on a counted side", "points on an itemised side"])
def test_the_deal_form_refuses_a_side_whose_hands_are_given_both_ways_rather_than_lose_one(client, app, mix):
    deal = copy.deepcopy(DEAL)
    if mix == "cards on a counted side":
        cal = deal["sides"][0]["players"][1]
        del cal["cards_left_points"]
        cal["cards_left"] = "K K 9 9 5"  # 45 points, as cards
    else:
        them = deal["sides"][1]
        del them["books"], them["meld_points"]
        them["melds"] = ["K K K K K K K", "Q Q Q Q 2 2"]  # itemised, its players still counted
    game_id, key = api_game(client, "Mixed", "common", SIDES, [deal])
    grant(client, game_id, key)
    before = db_state(app)
    response = client.get(f"/games/{game_id}/deals/1/edit", follow_redirects=True)
    assert response.request.path == f"/games/{game_id}/deals/1"
    assert "both ways (cards and points)" in words(response.get_data(as_text=True))
    assert db_state(app) == before


def test_going_out_shows_each_rank_the_sheet_asks_for_by_name(client):
    """Hand, Knee and Foot asks for a book of sevens and a book of fives (issue 23): the side's
    progress shows each rank held/needed, and what is missing names the rank."""
    sheet = {"preset": "common", "special_books": {"7": 5000, "5": 3000}, "decks_rule": "fixed", "decks": 6,
             "books_to_go_out": {"clean": 1, "dirty": 1, "special": {"7": 1, "5": 1}}}
    game_id, key = api_game(client, "Sevens and fives", sheet, SIDES)
    grant(client, game_id, key)
    data = {**new_form(client, game_id), **BENCH_FORM, "s0-b-clean": "2", "s0-b-7": "2"}
    live = html.unescape(client.post(f"/games/{game_id}/deals/1/preview", data=data).get_data(as_text=True))
    # the second book of sevens counts as a clean book, never as a book of fives
    assert "clean 3/1, dirty 2/1, sevens 1/1, fives 0/1: not yet" in live and "1 more book of fives" in live
    data.update({"s0-b-7": "1", "s0-b-5": "1"})
    live = html.unescape(client.post(f"/games/{game_id}/deals/1/preview", data=data).get_data(as_text=True))
    assert '<b>Us</b> clean 2/1, dirty 2/1, sevens 1/1, fives 1/1: may go out</p>' in live
