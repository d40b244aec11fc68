"""Specification: caps on the books that score a bonus, and on the books of a rank (issue 23, 1.8).

Hand, Knee and Foot's score sheets (laguna-woods-app.txt: wild book "up to 3", sevens and
fives "up to 2") stop paying a bonus past so many special books; each team's sheet of a round
counts them, so a cap is per side and per deal. ``book_caps`` says it: books past the cap
still score their cards and still count toward going out, but earn no bonus, on a line of
their own (count × 0). nwpages.txt lets a side build at most three books of a rank:
``max_books_per_rank``, whose breach is ``meld.books_per_rank``.
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from markupsafe import escape
from pypdf import PdfReader

from scorepad.api.openapi import document
from scorepad.app import create_app
from scorepad.cli.scorepad_command import main
from scorepad.rules import Deal, load_sheet, preset, score, validate
from scorepad.rules.deal import Meld
from scorepad.rules.errors import SheetError
from scorepad.rules.lines import pad_lines
from scorepad.rules.rulings import can_meld
from tests.rules.test_named_books import FIVES, HKF, KINGS, QUEENS, SEVENS, WILD, deal_of

CAPPED = {**HKF, "book_caps": {"wild": 3, "7": 2, "5": 2}}


def lines_of(deal: Deal, side: int = 0) -> dict[str, tuple[int, int, int]]:
    """A side's lines by label: (count, each, points)."""
    return {line.label: (line.count, line.each, line.points) for line in score(deal).sides[side].lines}


def test_a_book_of_sevens_past_the_cap_scores_its_cards_but_no_bonus():
    deal = deal_of(CAPPED, [KINGS, QUEENS, WILD, SEVENS, SEVENS, SEVENS, FIVES])
    assert validate(deal).codes() == []  # 21 sevens of 6 decks' 24; it still goes out
    lines = lines_of(deal)
    assert lines["Melded 7s"] == (21, 5, 105)  # every seven's card value counts
    assert lines["Clean books of 7s"] == (2, 5000, 10_000)
    assert lines["Books of sevens past the cap of 2 (no bonus)"] == (1, 0, 0)
    (capped,) = [line for line in score(deal).sides[0].lines if line.code == "books.capped"]
    assert capped.option == "book_caps"
    # cards: kings 70 + queens 50 + sevens 105 + fives 35 + 2s (2 + 3) × 20 + jokers 4 × 50
    # bonuses: clean 500 + dirty 300 + wild 2,500 + sevens 2 × 5,000 (the third none) + fives 3,000 + out 200
    assert score(deal).sides[0].total == 70 + 50 + 105 + 35 + 100 + 200 + 500 + 300 + 2500 + 10_000 + 3000 + 200
    # The near twin: without the cap the third book of sevens earns its 5,000.
    uncapped = deal_of(HKF, [KINGS, QUEENS, WILD, SEVENS, SEVENS, SEVENS, FIVES])
    assert lines_of(uncapped)["Clean books of 7s"] == (3, 5000, 15_000)
    assert score(uncapped).sides[0].total == score(deal).sides[0].total + 5000


def test_counted_books_past_their_caps_lose_only_the_bonus():
    # 4 wild books (cap 3), 3 of sevens (cap 2), 1 of fives (cap 2): one wild and one sevens past
    books = {"clean": 1, "dirty": 1, "wild": 4, "special": {"7": 3, "5": 1}}
    points = 7 * 5 + (6 * 5 + 20) + 4 * 7 * 20 + 3 * 7 * 5 + 7 * 5
    deal = deal_of(CAPPED, books=books, meld_points=points)
    lines = lines_of(deal)
    assert lines["Wild books"] == (3, 2500, 7500)
    assert lines["Wild books past the cap of 3 (no bonus)"] == (1, 0, 0)
    assert lines["Clean books of 7s"] == (2, 5000, 10_000)
    assert lines["Books of sevens past the cap of 2 (no bonus)"] == (1, 0, 0)
    assert lines["Clean books of 5s"] == (1, 3000, 3000)
    # melded 785 + clean 500 + dirty 300 + wild 3 × 2,500 + sevens 2 × 5,000 + fives 3,000 + going out 200
    assert points == 35 + 50 + 560 + 105 + 35 == 785
    assert score(deal).sides[0].total == 785 + 500 + 300 + 7500 + 10_000 + 3000 + 200 == 22_285


def test_a_rank_whose_clean_and_dirty_books_share_a_cap_keeps_the_better_paid_bonus():
    sheet = {**HKF, "special_books_dirty": {"7": 2500}, "book_caps": {"7": 2}}
    deal = deal_of(sheet, [KINGS, QUEENS, WILD, "7 7 7 7 7 2 JK", SEVENS, SEVENS, FIVES])
    lines = lines_of(deal)
    assert lines["Clean books of 7s"] == (2, 5000, 10_000)
    assert "Dirty books of 7s" not in lines  # the dirty one, paid 2,500, is the one past the cap
    assert lines["Books of sevens past the cap of 2 (no bonus)"] == (1, 0, 0)
    # Paid more dirty than clean (a sheet may), the dirty book keeps its bonus first.
    dearer = deal_of({**sheet, "special_books": {"7": 1000, "5": 3000}, "special_books_dirty": {"7": 2500},
                      "book_caps": {"7": 1}}, [KINGS, QUEENS, WILD, "7 7 7 7 7 2 JK", SEVENS, FIVES])
    assert lines_of(dearer)["Dirty books of 7s"] == (1, 2500, 2500)
    assert "Clean books of 7s" not in lines_of(dearer)


def test_a_cap_counts_each_side_apart_and_each_deal_apart():
    # Bea's one book of sevens is under the cap whatever Ann has made.
    data = {"sheet": CAPPED, "deal": 2, "ending": "stock_out", "sides": [
        {"name": "Ann", "melds": [SEVENS, SEVENS, SEVENS], "players": [{"name": "Ann", "foot_picked_up": True}]},
        {"name": "Bea", "melds": ["7 7 7 7 7 7 2"], "players": [{"name": "Bea", "foot_picked_up": True}]}]}
    deal = Deal.from_json(data)
    assert lines_of(deal)["Clean books of 7s"] == (2, 5000, 10_000)
    assert "Dirty books of 7s" not in lines_of(deal, 1) and "Dirty books" in lines_of(deal, 1)


def test_caps_are_said_on_the_sheet_and_on_the_pad():
    sheet = load_sheet(CAPPED)
    assert sheet.describe("book_caps") == "a bonus for at most 3 wild books; 2 books each of sevens, fives"
    assert sheet.to_json()["book_caps"] == {"wild": 3, "7": 2, "5": 2}
    assert preset("common").describe("book_caps") == "no cap"
    # the pad has no line for books past a cap (they are 0): its kinds' lines stay as they were
    assert [line.label for line in pad_lines(sheet, 1)] == [line.label for line in pad_lines(load_sheet(HKF), 1)]


def test_a_cap_on_a_rank_counts_every_book_of_it_and_the_dearest_keep_their_bonus():
    # Kings are no special rank: two clean books (500) and a dirty one (300), at most 2 paid.
    sheet = {**CAPPED, "book_caps": {"K": 2}}
    deal = deal_of(sheet, [KINGS, KINGS, "K K K K K 2 JK", QUEENS, WILD, SEVENS, FIVES])
    lines = lines_of(deal)
    assert lines["Clean books"] == (2, 500, 1000)
    assert lines["Dirty books"] == (1, 300, 300)  # the queens'; the dirty kings' 300 is past the cap
    assert lines["Books of kings past the cap of 2 (no bonus)"] == (1, 0, 0)
    # kings 19 × 10, queens 50, sevens 35, fives 35, 2s (1 + 2 + 3) × 20, jokers (1 + 4) × 50;
    # clean 2 × 500, dirty 300, wild 2,500, sevens 5,000, fives 3,000, going out 200
    assert score(deal).sides[0].total == 190 + 50 + 35 + 35 + 120 + 250 + 1000 + 300 + 2500 + 5000 + 3000 + 200
    # A counted side's kings counted by rank (special, for a rank with no bonus: clean books) are capped too.
    counted = deal_of(sheet, books={"clean": 1, "dirty": 1, "wild": 1, "special": {"K": 3, "7": 1, "5": 1}},
                      meld_points=1000)
    assert lines_of(counted)["Clean books"] == (3, 500, 1500)  # 1 + 3 of kings, one of them past the cap
    assert lines_of(counted)["Books of kings past the cap of 2 (no bonus)"] == (1, 0, 0)


def test_a_cap_reads_wild_or_a_rank():
    assert load_sheet({**CAPPED, "book_caps": {"WILD": 3, "7": 0, "k": 1}}).book_caps == (
        ("wild", 3), ("K", 1), ("7", 0))
    with pytest.raises(SheetError) as joker:
        load_sheet({**CAPPED, "book_caps": {"JK": 2}})
    assert joker.value.field == "sheet.book_caps.JK"
    with pytest.raises(SheetError) as many:
        load_sheet({**CAPPED, "book_caps": {"7": 21}})
    assert many.value.field == "sheet.book_caps.7"


# -- max_books_per_rank ----------------------------------------------------------------------------

NWPAGES = {"preset": "common", "decks_rule": "fixed", "decks": 8, "max_books_per_rank": 3}


def test_a_fourth_book_of_a_rank_is_meld_books_per_rank_where_three_is_the_most():
    deal = deal_of(NWPAGES, [KINGS, KINGS, KINGS, "K K K K 2 2 JK", QUEENS])  # 25 kings of 8 decks' 32
    (problem,) = validate(deal).violations
    assert (problem.code, problem.option, problem.where, problem.side, problem.meld) == (
        "meld.books_per_rank", "max_books_per_rank", "sides[0].melds[3]", "Ann", 3)
    assert problem.message == "Ann has 4 books of kings; a side may make at most 3 of a rank."
    # The legal near twin: three books of kings.
    assert validate(deal_of(NWPAGES, [KINGS, KINGS, KINGS, QUEENS])).codes() == []
    # Wild books are of no rank.
    wild = {**NWPAGES, "wild_books": True, "max_books_per_rank": 1}
    assert validate(deal_of(wild, [KINGS, QUEENS, WILD, "JK JK JK JK 2 2 2"])).codes() == []


def test_counted_books_of_a_rank_past_the_most_are_meld_books_per_rank():
    sheet = {**HKF, "max_books_per_rank": 2}
    books = {"clean": 1, "dirty": 1, "wild": 1, "special": {"7": 2, "5": 1}, "special_dirty": {"7": 1}}
    points = 7 * 5 + (6 * 5 + 20) + 7 * 20 + 2 * 7 * 5 + (5 * 5 + 2 * 20) + 7 * 5
    (problem,) = validate(deal_of(sheet, books=books, meld_points=points)).violations
    assert (problem.code, problem.where) == ("meld.books_per_rank", "sides[0].books.special.7")
    assert problem.message == "Ann has 3 books of sevens; a side may make at most 2 of a rank."
    twin = {**books, "special_dirty": {}}
    assert validate(deal_of(sheet, books=twin, meld_points=points - (5 * 5 + 2 * 20))).violations == ()


def test_the_referee_refuses_a_new_meld_of_a_rank_that_has_its_most_books():
    sheet = load_sheet(NWPAGES)
    kings = Meld.from_json(KINGS)
    answer = can_meld(sheet, Meld.from_json("K K K"), table=[kings, kings, kings])
    assert answer.yes is False
    assert answer.reasons[0].option == "max_books_per_rank"
    assert answer.reasons[0].message == ("The side already has 3 melds of kings, and a side may make at most "
                                         "3 books of a rank.")
    assert can_meld(sheet, Meld.from_json("K K K"), table=[kings, kings]).yes is True
    assert sheet.describe("max_books_per_rank") == "3 a side"
    assert preset("common").describe("max_books_per_rank") == "no limit"


# -- every surface that shows a sheet carries the new options -------------------------------------

EVERY_NEW: dict[str, Any] = {**CAPPED, "max_books_per_rank": 3}
NEW_OPTIONS = ("book_caps", "max_books_per_rank", "books_to_go_out")


def test_the_new_options_are_on_the_house_rule_sheet_the_comparison_the_api_and_the_command(tmp_path, capsys):
    sheet = load_sheet(EVERY_NEW)
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "s.sqlite"), "SECRET_KEY": "t"})
    client = app.test_client()
    made = client.post("/api/v1/games", json={"name": "HKF", "sheet": EVERY_NEW, "sides": [
        {"name": "Ann", "players": ["Ann"]}, {"name": "Bea", "players": ["Bea"]}]})
    assert made.status_code == 201, made.get_json()
    game = made.get_json()["id"]
    pdf = client.get(f"/games/{game}/sheet.pdf")
    text = " ".join(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf.data)).pages).split())
    compare = client.get("/sheets/compare", query_string={"a": json.dumps(EVERY_NEW), "b": "common"})
    assert compare.status_code == 200
    page = compare.get_data(as_text=True)
    api = client.get(f"/api/v1/games/{game}").get_json()["sheet"]
    path = tmp_path / "house.json"
    path.write_text(json.dumps(EVERY_NEW), encoding="utf-8")
    assert main(["sheet", str(path)]) == 0
    printed = capsys.readouterr().out
    doc = document()["components"]["schemas"]["SheetObject"]["properties"]
    for name in NEW_OPTIONS:
        cited = sheet.cite(name)
        assert cited.label in text and cited.words in text, name
        assert str(escape(cited.label)) in page and str(escape(cited.words)) in page, name
        assert name in api, name
        assert cited.label in printed and cited.words in printed, name
        assert doc[name]["title"] == cited.label
    assert api["books_to_go_out"]["special"] == {"7": 1, "5": 1}
    pad = client.get(f"/games/{game}/pad.pdf")
    pad_text = " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(pad.data)).pages).split())
    assert ("A bonus for at most 3 wild books; 2 books each of sevens, fives: books past these score their cards, "
            "no bonus.") in pad_text
    assert "To go out: 1 clean + 1 dirty + 1 wild + a book of sevens + a book of fives." in pad_text


def test_the_api_and_the_desk_ask_the_go_out_question_with_books_by_rank(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "s.sqlite"), "SECRET_KEY": "t"})
    client = app.test_client()
    books = {"clean": 1, "dirty": 1, "wild": 1, "special": {"7": 2}}
    short = client.post("/api/v1/referee/go-out", json={"sheet": HKF, "books": books}).get_json()
    assert short["yes"] is False
    assert short["reasons"][0]["message"].endswith("(sevens 1/1, fives 0/1).")
    enough = client.post("/api/v1/referee/go-out", json={"sheet": HKF, "books": {**books, "special": {"7": 1, "5": 1}}})
    assert enough.get_json()["yes"] is True
    # the desk page: a box for each special rank
    args = {"sheet_json": json.dumps(HKF), "ask": "go-out", "deal": "1", "books.clean": "1", "books.dirty": "1",
            "books.wild": "1", "books.special.7": "2", "books.special.5": "0", "foot_played": "yes"}
    page = client.get("/referee", query_string=args).get_data(as_text=True)
    assert 'name="books.special.5"' in page and "Books of fives" in page
    assert "you may not go out yet." in page and "sevens 1/1, fives 0/1" in page
    page = client.get("/referee", query_string={**args, "books.special.7": "1", "books.special.5": "1"})
    assert "you may go out." in page.get_data(as_text=True)
