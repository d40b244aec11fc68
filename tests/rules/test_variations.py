"""Specification: the variations a sheet could not say before issue 13 (its section 2).

Each option has a deal that triggers it and a legal near twin, with the arithmetic written
out; then every surface that shows a sheet (the house-rule PDF, /sheets/compare, the API's
sheet, ``scorepad sheet``, the OpenAPI document) is checked to carry each new option.
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
from scorepad.rules import PRESETS, Deal, load_sheet, preset, score, validate
from scorepad.rules.books import HeldBooks, books_short, books_toward, side_books
from scorepad.rules.cards import Card
from scorepad.rules.choices import Books, CountAs, DecksRule, FootWhen, PartnerFoot
from scorepad.rules.errors import SheetError
from scorepad.rules.questions import ask_go_out
from scorepad.rules.rulings import can_go_out

NEW_OPTIONS = ("decks_by_players", "special_books_dirty", "special_book_wilds", "three_books",
               "red_three_penalty_foot_when", "black_three_in_foot", "special_books_count_as", "wild_books_count_as")


def common_deal(sheet: dict[str, Any], ann_melds: list[Any], **bea: Any) -> Deal:
    """Common rules, two players: Ann goes out with ``ann_melds``; Bea holds an ace and
    melded three 9s, her foot picked up unless ``bea`` says otherwise."""
    player = {"name": "Bea", "foot_picked_up": True, "cards_left": "A", **bea}
    return Deal.from_json({"sheet": {"preset": "common", **sheet}, "deal": 1, "ending": "went_out", "went_out": "Ann",
                           "sides": [{"name": "Ann", "melds": ann_melds,
                                      "players": [{"name": "Ann", "foot_picked_up": True}]},
                                     {"name": "Bea", "melds": ["9 9 9"], "players": [player]}]})


def lines_of(deal: Deal, side: int = 0) -> dict[str, tuple[int, int, int]]:
    """A side's lines by label: (count, each, points)."""
    return {line.label: (line.count, line.each, line.points) for line in score(deal).sides[side].lines}


# -- special_books_dirty ------------------------------------------------------------------------


def test_a_dirty_book_of_a_rank_special_books_dirty_prices_scores_its_bonus_not_the_dirty_bonus():
    sevens = {"special_books": {"7": 1000}, "special_books_dirty": {"7": 500}}
    deal = common_deal(sevens, ["K K K K K K K", "7 7 7 7 7 2 2"])
    assert validate(deal).codes() == []
    lines = lines_of(deal)
    assert lines["Dirty books of 7s"] == (1, 500, 500)
    assert "Dirty books" not in lines
    # 7 kings 70 + 5 sevens 25 + 2 twos 40 + clean 500 + dirty sevens 500 + going out 100
    assert score(deal).sides[0].total == 70 + 25 + 40 + 500 + 500 + 100 == 1235
    # the near twin: no dirty bonus named, so a dirty book of sevens is any dirty book (300)
    twin = common_deal({"special_books": {"7": 1000}}, ["K K K K K K K", "7 7 7 7 7 2 2"])
    assert lines_of(twin)["Dirty books"] == (1, 300, 300)
    assert score(twin).sides[0].total == 1235 - 500 + 300


def test_a_counted_dirty_special_book_is_recorded_as_books_special_dirty():
    data = {"sheet": {"preset": "common", "special_books": {"7": 1000}, "special_books_dirty": {"7": 500}},
            "deal": 1, "ending": "stock_out", "sides": [
                {"name": "Ann", "books": {"clean": 1, "special_dirty": {"7": 1}}, "meld_points": 135,
                 "players": [{"name": "Ann", "foot_picked_up": True, "cards_left_points": 0}]},
                {"name": "Bea", "melds": ["9 9 9"], "players": [{"name": "Bea", "foot_picked_up": True}]}]}
    deal = Deal.from_json(data)
    assert deal.to_json()["sides"][0]["books"] == {"clean": 1, "dirty": 0, "wild": 0, "special": {},
                                                   "special_dirty": {"7": 1}}
    assert validate(deal).codes() == []
    # melded points 135 + clean 500 + dirty book of sevens 500
    assert score(deal).sides[0].total == 135 + 500 + 500
    # the near twin under a sheet that prices no dirty sevens: an ordinary dirty book, 300
    data["sheet"] = {"preset": "common", "special_books": {"7": 1000}}
    assert score(Deal.from_json(data)).sides[0].total == 135 + 500 + 300


def test_a_sheet_naming_a_dirty_special_bonus_where_special_books_never_hold_wilds_is_refused():
    with pytest.raises(SheetError) as refused:
        load_sheet({"preset": "common", "special_books": {"7": 1000}, "special_books_dirty": {"7": 500},
                    "special_book_wilds": "never"})
    assert refused.value.field == "sheet.special_books_dirty.7"
    with pytest.raises(SheetError) as unnamed:
        load_sheet({"preset": "common", "special_books": {"7": 1000}, "special_books_dirty": {"8": 500}})
    assert unnamed.value.field == "sheet.special_books_dirty.8"
    load_sheet({"preset": "common", "special_books": {"7": 1000}, "special_book_wilds": "never"})


# -- special_book_wilds ------------------------------------------------------------------------


def test_a_counted_dirty_special_book_where_special_books_never_hold_wilds_is_a_violation():
    sheet = {"preset": "common", "special_books": {"7": 1000}, "special_book_wilds": "never"}
    data = {"sheet": sheet, "deal": 1, "ending": "stock_out", "sides": [
        {"name": "Ann", "books": {"special_dirty": {"7": 1}}, "meld_points": 65,
         "players": [{"name": "Ann", "foot_picked_up": True, "cards_left_points": 0}]},
        {"name": "Bea", "melds": ["9 9 9"], "players": [{"name": "Bea", "foot_picked_up": True}]}]}
    (problem,) = validate(Deal.from_json(data)).violations
    assert (problem.code, problem.option, problem.where) == ("meld.wild_ratio", "special_book_wilds",
                                                             "sides[0].books.special_dirty.7")
    data["sheet"] = {**sheet, "special_book_wilds": "allowed"}
    assert validate(Deal.from_json(data)).codes() == []


# -- three_books -----------------------------------------------------------------------------


FIVE_DECKS = {"decks_rule": "fixed", "decks": 5}  # 10 red threes: room for a book of seven


def test_a_book_of_red_threes_scores_its_bonus_and_no_card_points():
    deal = common_deal({"three_books": {"3R": 1000, "3B": 500}, **FIVE_DECKS},
                       ["K K K K K K K", "Q Q Q Q Q 2 2", "3Rx7"])
    assert validate(deal).codes() == []
    assert deal.sides[0].melds[2].to_json() == {"rank": "3R", "naturals": 7}
    lines = lines_of(deal)
    assert lines["Books of red threes"] == (1, 1000, 1000)
    assert lines["Melded red threes"] == (7, 0, 0)
    # kings 70 + queens 50 + twos 40 + clean 500 + dirty 300 + red threes 1000 + going out 100
    assert score(deal).sides[0].total == 70 + 50 + 40 + 500 + 300 + 1000 + 100 == 2060


def test_a_book_of_black_threes_scores_its_bonus_and_its_card_values():
    deal = common_deal({"three_books": {"3B": 500}, **FIVE_DECKS}, ["K K K K K K K", "Q Q Q Q Q 2 2",
                                                                    {"rank": "3B", "naturals": 7}])
    assert validate(deal).codes() == []
    assert lines_of(deal)["Books of black threes"] == (1, 500, 500)
    assert lines_of(deal)["Melded black threes"] == (7, 5, 35)
    twin = common_deal(FIVE_DECKS, ["K K K K K K K", "Q Q Q Q Q 2 2", {"rank": "3B", "naturals": 7}])
    assert validate(twin).codes() == ["meld.rank"]


def test_a_book_of_threes_counts_as_a_special_book_toward_going_out():
    sheet = {"three_books": {"3R": 1000}, "books_to_go_out": {"clean": 1, "dirty": 1, "special": 1}, **FIVE_DECKS}
    assert validate(common_deal(sheet, ["K K K K K K K", "Q Q Q Q Q 2 2", "3Rx7"])).codes() == []
    assert validate(common_deal(sheet, ["K K K K K K K", "Q Q Q Q Q 2 2"])).codes() == ["went_out.books"]
    with pytest.raises(SheetError):  # a special book asked for on a sheet that names none
        load_sheet({"preset": "common", "books_to_go_out": {"clean": 1, "special": 1}})


def test_melded_threes_are_counted_against_the_pack():
    # two players, common: players + 1 = 3 decks, 2 × 3 = 6 red threes; 7 melded are one too many
    deal = common_deal({"three_books": {"3R": 1000}}, ["K K K K K K K", "Q Q Q Q Q 2 2", "3Rx7"])
    (problem,) = validate(deal).violations
    assert (problem.code, problem.message) == ("supply", "This deal records 7 red threes, but 3 decks hold only 6.")
    # four decks hold 8
    fine = common_deal({"three_books": {"3R": 1000}, "decks_rule": "fixed", "decks": 4},
                       ["K K K K K K K", "Q Q Q Q Q 2 2", "3Rx7"])
    assert validate(fine).codes() == []


def test_counted_books_of_threes_are_recorded_as_books_threes():
    sheet = {"preset": "common", "three_books": {"3B": 500}, **FIVE_DECKS}
    data = {"sheet": sheet, "deal": 1, "ending": "stock_out", "sides": [
        {"name": "Ann", "books": {"threes": {"3B": 1}}, "meld_points": 35,
         "players": [{"name": "Ann", "foot_picked_up": True, "cards_left_points": 0}]},
        {"name": "Bea", "melds": ["9 9 9"], "players": [{"name": "Bea", "foot_picked_up": True}]}]}
    deal = Deal.from_json(data)
    assert validate(deal).codes() == []
    assert score(deal).sides[0].total == 35 + 500
    data["sheet"] = {"preset": "common", **FIVE_DECKS}
    assert validate(Deal.from_json(data)).codes() == ["meld.rank"]


# -- special_books_count_as / wild_books_count_as ------------------------------------------------


@pytest.mark.parametrize("count_as, held, need, short", [
    # a clean special book counts as clean (the default), as dirty, or only where asked for
    (CountAs.CLEAN, HeldBooks(dirty=1, special=1), Books(clean=1, dirty=1), Books()),
    (CountAs.DIRTY, HeldBooks(clean=1, special=1), Books(clean=1, dirty=1), Books()),
    (CountAs.DIRTY, HeldBooks(dirty=1, special=1), Books(clean=1, dirty=1), Books(clean=1)),
    (CountAs.NONE, HeldBooks(dirty=1, special=1), Books(clean=1, dirty=1), Books(clean=1)),
    # a book counts once: a special requirement first, then the rest
    (CountAs.CLEAN, HeldBooks(dirty=1, special=1), Books(clean=1, dirty=1, special=1), Books(clean=1)),
    (CountAs.CLEAN, HeldBooks(dirty=1, special=2), Books(clean=1, dirty=1, special=1), Books()),
    # a dirty special book never counts as clean; it fills the special requirement first
    (CountAs.CLEAN, HeldBooks(clean=1, special_dirty=1), Books(clean=2), Books(clean=1)),
    (CountAs.CLEAN, HeldBooks(clean=1, special=1, special_dirty=1), Books(clean=2, special=1), Books()),
])
def test_special_books_count_toward_going_out_as_the_sheet_says(count_as, held, need, short):
    sheet = load_sheet({"preset": "common", "special_books": {"7": 1000}, "special_books_count_as": count_as.value})
    assert books_short(need, books_toward(sheet, need, held)) == short


def test_a_wild_book_counts_only_as_a_wild_book_unless_the_sheet_says_otherwise():
    sheet = preset("pagat")  # wild books allowed; wild_books_count_as 'none'
    need = Books(clean=3, dirty=2, wild=1)
    held = HeldBooks(clean=2, dirty=2, wild=2)
    assert books_short(need, books_toward(sheet, need, held)) == Books(clean=1)
    as_clean = sheet.replace(wild_books_count_as=CountAs.CLEAN)
    assert books_short(need, books_toward(as_clean, need, held)) == Books()
    # one wild book fills the wild requirement; it does not also count as clean
    assert books_short(need, books_toward(as_clean, need, held._replace(wild=1))) == Books(clean=1)


def test_the_referee_and_the_verdict_count_books_through_one_function():
    sheet = load_sheet({"preset": "common", "special_books": {"K": 1000}, "special_books_count_as": "none"})
    deal = common_deal({"special_books": {"K": 1000}, "special_books_count_as": "none"},
                       ["K K K K K K K", "Q Q Q Q Q 2 2"])
    held = side_books(sheet, deal.sides[0])
    assert held == HeldBooks(dirty=1, special=1, ranks=((Card.KING, 1, 0),))  # one clean book of kings
    assert validate(deal).codes() == ["went_out.books"]
    assert can_go_out(sheet, 1, melds=deal.sides[0].melds).yes is False
    assert can_go_out(sheet, 1, books=held).yes is False
    assert ask_go_out(sheet, {"books": {"dirty": 1, "special": 1}}).yes is False
    counts_clean = sheet.replace(special_books_count_as=CountAs.CLEAN)
    assert ask_go_out(counts_clean, {"books": {"dirty": 1, "special": 1}}).yes is True
    assert can_go_out(counts_clean, 1, melds=deal.sides[0].melds).yes is True


# -- red_three_penalty_foot_when -------------------------------------------------------------


def partners_deal(when: str, ending: str, went_out: str | None) -> Deal:
    """Two partnerships under common rules, with a red-three foot penalty of 100: Dan
    (East-West) never picked up his foot, which holds a red three."""
    sheet = {"preset": "common", "red_three_penalty_foot": 100, "red_three_penalty_foot_when": when,
             "books_to_go_out": {"clean": 0, "dirty": 0}}
    out: dict[str, Any] = {"ending": ending} if went_out is None else {"ending": ending, "went_out": went_out}
    return Deal.from_json({"sheet": sheet, "deal": 1, **out, "sides": [
        {"name": "North-South", "melds": ["K K K"], "players": [
            {"name": "Ann", "foot_picked_up": True}, {"name": "Cal", "foot_picked_up": True}]},
        {"name": "East-West", "melds": ["Q Q Q"], "players": [
            {"name": "Bea", "foot_picked_up": True},
            {"name": "Dan", "foot_picked_up": False, "foot": "3R 4 4 4 4 4 4 4 4 4 4"}]}]})


@pytest.mark.parametrize("when, ending, went_out, penalty", [
    ("any-ending", "stock_out", None, True),
    ("any-ending", "went_out", "Bea", True),
    ("opponents-out", "went_out", "Ann", True),    # an opponent went out: the foot was buried
    ("opponents-out", "stock_out", None, False),   # the stock ran out: nobody buried it
    ("opponents-out", "went_out", "Bea", False),   # Dan's own partner went out
])
def test_a_red_three_in_an_unopened_foot_costs_its_penalty_when_the_sheet_says(when, ending, went_out, penalty):
    deal = partners_deal(when, ending, went_out)
    assert validate(deal).codes() == []
    east_west = score(deal).sides[1]
    # 3 queens 30; Dan's foot: ten 4s, 50; the red three 100 when it costs
    going_out = 100 if went_out == "Bea" else 0
    assert east_west.total == 30 - 50 + going_out - (100 if penalty else 0)
    assert any(line.code == "red_threes.foot" for line in east_west.lines) is penalty


# -- black_three_in_foot ----------------------------------------------------------------------


def test_a_black_three_in_an_unopened_foot_costs_the_sheets_points_on_a_line_of_its_own():
    foot = "3B 3B 4 4 4 4 4 4 4 4 4"
    priced = common_deal({"black_three_in_foot": 100}, ["K K K K K K K", "Q Q Q Q Q 2 2"],
                         foot_picked_up=False, foot=foot)
    assert validate(priced).codes() == []
    lines = lines_of(priced, 1)
    assert lines["Bea's unopened foot: black threes"] == (2, -100, -200)
    assert lines["Bea's unopened foot: 4"] == (9, -5, -45)
    # 9s 30, the ace in hand -20, nine 4s -45, two black threes -200
    assert score(priced).sides[1].total == 30 - 20 - 45 - 200
    # the near twin: null, so a black three is any card of its value (5)
    twin = common_deal({}, ["K K K K K K K", "Q Q Q Q Q 2 2"], foot_picked_up=False, foot=foot)
    assert lines_of(twin, 1)["Bea's unopened foot: 4 3B"] == (11, -5, -55)
    assert score(twin).sides[1].total == 30 - 20 - 55


# -- decks_rule by-players ---------------------------------------------------------------------


def test_decks_by_players_sets_the_pack_for_each_table():
    sheet = load_sheet({"preset": "common", "decks_rule": "by-players",
                        "decks_by_players": {"2": 4, "3": 4, "4": 5, "5": 6, "6": 6}})
    assert sheet.decks_rule is DecksRule.BY_PLAYERS
    assert [sheet.decks_for(n) for n in range(2, 7)] == [4, 4, 5, 6, 6]
    # two players, four decks: 16 kings; seventeen are one too many
    fine = common_deal({"decks_rule": "by-players", "decks_by_players": {"2": 4, "3": 4, "4": 5, "5": 6, "6": 6}},
                       ["Kx7", "Q Q Q Q Q 2 2"], cards_left="Kx9")
    assert validate(fine).codes() == []
    too_many = common_deal({"decks_rule": "by-players", "decks_by_players": {"2": 4, "3": 4, "4": 5, "5": 6, "6": 6}},
                           ["Kx7", "Q Q Q Q Q 2 2"], cards_left="Kx10")
    assert validate(too_many).codes() == ["supply"]


def test_a_decks_table_must_cover_every_number_of_players_the_sheet_allows():
    with pytest.raises(SheetError) as refused:
        load_sheet({"preset": "common", "decks_rule": "by-players", "decks_by_players": {"2": 4, "3": 4, "4": 5}})
    assert refused.value.field == "sheet.decks_by_players"
    assert "5 players" in refused.value.reason
    with pytest.raises(SheetError):
        load_sheet({"preset": "common", "decks_by_players": {"1": 4}})
    # unused, a table need not cover anything
    load_sheet({"preset": "common", "decks_by_players": {"4": 5}})


def test_a_decks_table_need_not_give_a_number_of_players_the_side_sizes_never_seat():
    """Partnerships of 2 seat 4 or 6 players, never 5: the Vegas card room's 6 decks for 4 and 8 for 6."""
    sheet = load_sheet({"preset": "common", "min_players": 4, "max_players": 6, "side_sizes": [2],
                        "decks_rule": "by-players", "decks_by_players": {"4": 6, "6": 8}})
    assert (sheet.decks_for(4), sheet.decks_for(6)) == (6, 8)
    # its near-twin: 6 players (three sides of 2) can be seated, so the table needs their number
    with pytest.raises(SheetError) as refused:
        load_sheet({"preset": "common", "min_players": 4, "max_players": 6, "side_sizes": [2],
                    "decks_rule": "by-players", "decks_by_players": {"4": 6}})
    assert "6 players" in refused.value.reason


# -- red_three_bonus -------------------------------------------------------------------------


def test_a_negative_red_three_bonus_takes_points_off_for_each_red_three_laid():
    data = common_deal({"red_three_bonus": -100}, ["K K K K K K K", "Q Q Q Q Q 2 2"]).to_json()
    data["sides"][0]["red_threes"] = 2
    deal = Deal.from_json(data)
    assert lines_of(deal)["Red threes laid"] == (2, -100, -200)
    assert deal.sheet.describe("red_three_bonus") == "minus 100 points"
    with pytest.raises(SheetError):
        load_sheet({"preset": "common", "red_three_bonus": -100_001})


# -- go_out_partner_foot -------------------------------------------------------------------------


def test_go_out_partner_foot_still_reads_true_and_false():
    assert load_sheet({"preset": "common", "go_out_partner_foot": True}).go_out_partner_foot is PartnerFoot.PICKED_UP
    assert load_sheet({"preset": "pagat", "go_out_partner_foot": False}).go_out_partner_foot is PartnerFoot.NO
    assert preset("gather-together").go_out_partner_foot is PartnerFoot.PICKED_UP
    assert PRESETS["gather-together"].version == 1


def test_the_referee_asks_whether_a_partner_played_from_the_foot_where_the_sheet_says():
    sheet = preset("pagat")
    books = {"books": {"clean": 2, "dirty": 2, "wild": 1}, "permission": True}
    assert ask_go_out(sheet, {**books, "partners_picked_up": [True]}).yes is True
    waiting = ask_go_out(sheet, {**books, "partners_picked_up": [True], "partners_played": [False]})
    assert waiting.yes is False and waiting.reasons[0].option == "go_out_partner_foot"
    picked_up = sheet.replace(go_out_partner_foot=PartnerFoot.PICKED_UP)
    assert ask_go_out(picked_up, {**books, "partners_picked_up": [True], "partners_played": [False]}).yes is True


def test_a_player_without_foot_played_played_from_the_foot_once_it_was_picked_up():
    deal = Deal.from_json({"sheet": "pagat", "deal": 1, "ending": "stock_out", "sides": [
        {"name": "Us", "melds": ["K K K"], "players": [{"name": "Ann", "foot_picked_up": True},
                                                        {"name": "Cal", "foot_picked_up": True, "foot_played": False}]},
        {"name": "Them", "melds": ["Q Q Q"], "players": [{"name": "Bea", "foot_picked_up": True},
                                                          {"name": "Dan", "foot_picked_up": True}]}]})
    ann, cal = deal.sides[0].players
    assert (ann.played_foot, cal.played_foot) == (True, False)
    assert "foot_played" not in ann.to_json() and cal.to_json()["foot_played"] is False


# -- Pagat, version 2 -----------------------------------------------------------------------------


def test_pagat_version_2_reads_its_source_and_version_1_keeps_its_values(tmp_path):
    pagat = PRESETS["pagat"]
    assert pagat.version == 2
    assert pagat.sheet.red_three_penalty_foot_when is FootWhen.OPPONENTS_OUT
    assert pagat.sheet.go_out_partner_foot is PartnerFoot.PLAYED
    first = pagat.versions[1]
    assert (first.red_three_penalty_foot_when, first.go_out_partner_foot) == (FootWhen.ANY_ENDING,
                                                                              PartnerFoot.PICKED_UP)
    # a game stored under version 1, as the database kept it then (go_out_partner_foot true)
    stored = first.to_stored_json()
    del stored["red_three_penalty_foot_when"]
    stored["go_out_partner_foot"] = True
    again = load_sheet(stored, stored=True)
    assert again.preset_version == 1 and again == first and again.changes() == []
    assert again.to_json() == {"preset": "pagat", "preset_version": 1}
    # through the app: a game made from version 1 reads back as version 1
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "s.sqlite"), "SECRET_KEY": "t"})
    client = app.test_client()
    made = client.post("/api/v1/games", json={
        "name": "Old", "sheet": {"preset": "pagat", "preset_version": 1},
        "sides": [{"name": "NS", "players": ["Ann", "Cal"]}, {"name": "EW", "players": ["Bea", "Dan"]}]})
    assert made.status_code == 201
    body = client.get(f"/api/v1/games/{made.get_json()['id']}").get_json()
    assert body["sheet"] == {"preset": "pagat", "preset_version": 1}


# -- every surface that shows a sheet carries the new options -------------------------------------

EVERY_NEW = {"preset": "common", "decks_rule": "by-players", "decks_by_players": {str(n): 5 for n in range(2, 7)},
             "special_books": {"7": 1000}, "special_books_dirty": {"7": 500}, "three_books": {"3R": 1000},
             "red_three_penalty_foot_when": "opponents-out", "black_three_in_foot": 100,
             "special_books_count_as": "dirty", "wild_books_count_as": "clean", "wild_books": True,
             "go_out_partner_foot": "played", "red_three_bonus": -100}


def test_every_new_option_is_on_the_house_rule_sheet_the_comparison_the_api_and_the_command(tmp_path, capsys):
    sheet = load_sheet(EVERY_NEW)
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "s.sqlite"), "SECRET_KEY": "t"})
    client = app.test_client()
    made = client.post("/api/v1/games", json={"name": "House", "sheet": EVERY_NEW, "sides": [
        {"name": "Ann", "players": ["Ann"]}, {"name": "Bea", "players": ["Bea"]}]})
    assert made.status_code == 201, made.get_json()
    game = made.get_json()["id"]
    pdf = client.get(f"/games/{game}/sheet.pdf")
    text = " ".join(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf.data)).pages).split())
    pages = ""
    for other in (EVERY_NEW, {"preset": "common", "special_book_wilds": "never"}):
        compare = client.get("/sheets/compare", query_string={"a": json.dumps(other), "b": "common"})
        assert compare.status_code == 200
        pages += compare.get_data(as_text=True)
    api = client.get(f"/api/v1/games/{game}").get_json()["sheet"]
    groups = client.get("/api/v1/sheets/common").get_json()["groups"]
    listed = {option["name"]: option for group in groups for option in group["options"]}
    path = tmp_path / "house.json"
    path.write_text(json.dumps(EVERY_NEW), encoding="utf-8")
    assert main(["sheet", str(path)]) == 0
    printed = capsys.readouterr().out
    doc = document()["components"]["schemas"]["SheetObject"]["properties"]
    for name in (*NEW_OPTIONS, "go_out_partner_foot", "red_three_bonus"):
        option_label = sheet.cite(name).label
        assert option_label in text, name
        assert str(escape(option_label)) in pages, name
        assert name in api or name == "special_book_wilds", name
        assert listed[name]["label"] == option_label
        assert option_label in printed, name
        assert doc[name]["title"] == option_label
    assert "minus 100 points" in text and "every partner has picked it up and played from it" in text


def test_the_api_asks_whether_a_partner_played_from_the_foot_and_counts_special_books(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "s.sqlite"), "SECRET_KEY": "t"})
    client = app.test_client()
    body = {"sheet": "pagat", "books": {"clean": 2, "dirty": 2, "wild": 1}, "permission": True,
            "partners_picked_up": [True]}
    assert client.post("/api/v1/referee/go-out", json=body).get_json()["yes"] is True
    waiting = client.post("/api/v1/referee/go-out", json={**body, "partners_played": [False]}).get_json()
    assert waiting["yes"] is False
    assert waiting["reasons"][0]["sheet_says"] == "every partner has picked it up and played from it"
    sevens = {"preset": "common", "special_books": {"7": 1000}, "books_to_go_out": {"clean": 1, "dirty": 1,
                                                                                    "special": 1}}
    short = client.post("/api/v1/referee/go-out", json={"sheet": sevens, "books": {"clean": 1, "dirty": 1}})
    assert short.get_json()["yes"] is False
    enough = client.post("/api/v1/referee/go-out", json={"sheet": sevens,
                                                         "books": {"clean": 1, "dirty": 1, "special": 1}})
    assert enough.get_json()["yes"] is True
