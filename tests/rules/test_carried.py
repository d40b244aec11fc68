"""Specification: what a recorded deal may carry for the referee (openings, the last card,
permission, a running total), judged when given and listed under ``not_checked`` when not.

The codes' near twins are in test_validate.py (CASES); here the worked examples of
VARIATIONS.md, who carries the opening, the running total, and the not-checked list.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from scorepad.rules import Deal, ReadError, load_sheet, validate
from scorepad.rules.deal import Opening
from scorepad.rules.game import Game
from scorepad.rules.limits import MAX_MELDS, MAX_POINTS
from scorepad.rules.verdict import judge
from tests.rules.test_validate import BASE


def deal(preset_id: str, **changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(BASE[preset_id])
    data.update(changes)
    return data


def codes(data: dict[str, Any]) -> list[str]:
    return validate(Deal.from_json(data)).codes()


def unchecked(data: dict[str, Any]) -> list[tuple[str, str, str, str | None, str | None]]:
    return [(u.what, u.option, u.where, u.side, u.player) for u in validate(Deal.from_json(data)).not_checked]


# -- the worked examples ----------------------------------------------------------------


@pytest.mark.parametrize("number, minimum, ok", [(1, 50, True), (3, 120, False)])
def test_worked_example_kings_and_queens_open_deal_one_but_not_deal_three(number, minimum, ok):
    # K K K + Q Q Q = 3 × 10 + 3 × 10 = 60: at least 50 in deal 1, short of 120 in deal 3
    data = deal("common", deal=number)
    data["sides"][0]["players"][0]["opening"] = {"melds": ["K K K", "Q Q Q"]}
    report = validate(Deal.from_json(data))
    assert ("opening.minimum" not in report.codes()) is ok
    if not ok:
        (problem,) = [p for p in report.violations if p.code == "opening.minimum"]
        assert f"deal 3 is {minimum}; these count 60" in problem.message
        assert "(Minimum by deal: deal 1 50, deal 2 90, deal 3 120, deal 4 150)" in problem.message


def test_pagat_pile_example_the_top_nine_makes_fifty_and_counts():
    # Pagat deal 1, the side's minimum 50: 9 + 9 from the hand, the 2 and the pile's top 9:
    # 10 + 10 + 10 + 20 = 50, the top card counting; without the 2 it is 30
    data = deal("pagat")
    data["sides"][0]["opening"] = {"melds": ["9 9 9 2"], "pile_top": "9"}
    assert codes(data) == []
    data["sides"][0]["opening"] = {"melds": ["9 9 9"], "pile_top": "9"}
    assert codes(data) == ["opening.minimum"]


def test_on_a_sheet_where_no_pile_card_counts_the_top_card_is_taken_off():
    # Pagat with opening_pile_cards none: 9 9 9 2 counts 50 - 10 (the top nine) = 40 < 50
    data = deal("pagat", sheet={"preset": "pagat", "opening_pile_cards": "none"})
    data["sides"][0]["opening"] = {"melds": ["9 9 9 2"], "pile_top": "9"}
    assert codes(data) == ["opening.minimum"]
    data["sides"][0]["opening"] = {"melds": ["9 9 9 2"]}  # the same melds all from the hand: 50
    assert codes(data) == []


def test_a_top_card_not_said_counts_as_the_cheapest_card_laid():
    # pile_top true under "no pile card counts": 9 9 9 2 2 is 50 + 20 = 70; taking off the
    # cheapest card laid (a 9, 10) leaves 60 >= 50, so it stands; 9 9 9 2 (50 - 10 = 40) does not
    data = deal("pagat", sheet={"preset": "pagat", "opening_pile_cards": "none"})
    data["sides"][0]["opening"] = {"melds": ["9 9 9 9 2 2"], "pile_top": True}
    assert codes(data) == []
    data["sides"][0]["opening"] = {"melds": ["9 9 9 2"], "pile_top": True}
    assert codes(data) == ["opening.minimum"]


def test_a_pile_top_card_the_first_melds_do_not_hold_is_opening_pile():
    data = deal("pagat")
    data["sides"][0]["opening"] = {"melds": ["K K K", "Q Q Q"], "pile_top": "9"}
    (problem,) = validate(Deal.from_json(data)).violations
    assert (problem.code, problem.option, problem.where) == ("opening.pile", "pile_needs",
                                                             "sides[0].opening.pile_top")


def test_an_opening_with_no_melds_means_the_player_never_opened():
    data = deal("common")
    data["sides"][1]["players"][0]["opening"] = {"melds": []}
    assert codes(data) == []
    assert [u[0] for u in unchecked(data)] == ["opening"]  # Ann's only


def test_an_illegal_first_meld_is_opening_minimum():
    data = deal("common")
    data["sides"][0]["players"][0]["opening"] = {"melds": ["K K K K 2 2 2 2"]}  # 4 wilds, 4 naturals
    assert "opening.minimum" in codes(data)


# -- who carries the opening --------------------------------------------------------------


def test_partners_on_a_side_sheet_give_the_sides_opening_not_each_players():
    data = deal("pagat")  # opening_who side
    data["sides"][0]["players"][0]["opening"] = {"melds": ["K K K", "Q Q Q"]}
    report = validate(Deal.from_json(data))
    assert [(p.code, p.option, p.where) for p in report.violations] == [
        ("opening.minimum", "opening_who", "sides[0].players")]


def test_partners_on_a_player_sheet_give_each_players_opening():
    data = deal("pagat", sheet={"preset": "pagat", "opening_who": "player"})
    data["sides"][0]["opening"] = {"melds": ["K K K", "Q Q Q"]}
    assert [p.option for p in validate(Deal.from_json(data)).violations] == ["opening_who"]
    del data["sides"][0]["opening"]
    data["sides"][0]["players"][1]["opening"] = {"melds": ["J J J"]}  # Cy: 30 < 50
    report = validate(Deal.from_json(data))
    assert [(p.code, p.where, p.player) for p in report.violations] == [
        ("opening.minimum", "sides[0].players[1].opening.melds", "Cy")]
    assert [(u.where, u.player) for u in report.not_checked if u.what == "opening"] == [
        ("sides[0].players[0].opening", "Ann"), ("sides[1].players[0].opening", "Bea"),
        ("sides[1].players[1].opening", "Dan")]


def test_an_individuals_opening_may_be_given_on_the_side_or_the_player():
    for where in ("side", "player"):
        data = deal("common")
        holder = data["sides"][0] if where == "side" else data["sides"][0]["players"][0]
        holder["opening"] = {"melds": ["J J J"]}
        assert codes(data) == ["opening.minimum"], where


# -- the running total ---------------------------------------------------------------------


RUNNING = {"preset": "common", "opening_by": "running-total"}  # below 2,500: 50 ... else 150


def test_a_standalone_deal_takes_each_sides_running_total():
    # K K K + Q Q Q = 60: enough below 2,500 (50), short from 2,500 (90)
    data = deal("common", sheet=RUNNING)
    data["sides"][0]["players"][0]["opening"] = {"melds": ["K K K", "Q Q Q"]}
    data["sides"][0]["running_total"] = 2_490
    assert codes(data) == []
    data["sides"][0]["running_total"] = 2_500
    assert codes(data) == ["opening.minimum"]
    del data["sides"][0]["running_total"]
    assert codes(data) == []
    assert ("opening", "opening_bands", "sides[0].running_total", "Ann", "Ann") in unchecked(data)


def test_in_a_game_the_opening_follows_the_games_totals():
    # Bands: below 100, 50; else 90. Ann's deal 1 (a clean and a dirty book, going out) puts
    # her past 100, so in deal 2 her K K K + Q Q Q (60) is short of 90; Bea's total stays low
    sheet = load_sheet({"preset": "common", "opening_by": "running-total",
                        "opening_bands": [{"below": 100, "minimum": 50}, {"minimum": 90}]})
    first = {k: v for k, v in deal("common").items() if k != "sheet"}
    second = copy.deepcopy(first) | {"deal": 2}
    second["sides"][0]["players"][0]["opening"] = {"melds": ["K K K", "Q Q Q"]}
    one, two = Deal.from_json(first, sheet), Deal.from_json(second, sheet)
    game = Game(sheet, ("Ann", "Bea"), (one,))
    assert game.totals()["Ann"] >= 100
    assert game.judge(two).report.codes() == ["opening.minimum"]
    assert Game(sheet, ("Ann", "Bea"), (one, two)).verdicts[1].report.codes() == ["opening.minimum"]
    alone = judge(two).report  # no game, no running_total: not checked, not refused
    assert alone.codes() == [] and alone.not_checked[0].where == "sides[0].running_total"


# -- what is not checked ----------------------------------------------------------------------


def test_without_what_the_referee_needs_the_deal_is_legal_and_lists_it_unchecked():
    assert unchecked(deal("common")) == [
        ("opening", "opening_minimums", "sides[0].opening", "Ann", None),
        ("opening", "opening_minimums", "sides[1].opening", "Bea", None)]
    assert unchecked(deal("bicycle"))[-1] == ("last_card", "last_card", "last_card", "North-South", "Ann")
    assert unchecked(deal("pagat"))[-1] == ("permission", "go_out_permission", "permission", "North-South", "Ann")


def test_only_rules_the_sheet_has_are_listed():
    # common: the last card either way, no permission asked; no minimum at all: nothing to list
    data = deal("common", sheet={"preset": "common", "opening_minimums": [0]})
    assert unchecked(data) == []
    stock = deal("bicycle", ending="stock_out")
    del stock["went_out"]
    assert [u[0] for u in unchecked(stock)] == ["opening", "opening"]  # nobody went out: no last card


def test_given_everything_nothing_is_left_unchecked():
    data = deal("bicycle", last_card="discard")
    data["sides"][0]["opening"] = {"melds": ["K K K", "A A A"]}  # 30 + 60 = 90 >= 50
    data["sides"][1]["opening"] = {"melds": ["8 8 8 8 2"]}  # 40 + 20 = 60 >= 50
    report = validate(Deal.from_json(data))
    assert report.not_checked == () and report.ok


def test_not_checked_is_in_the_verdict_json_and_never_a_warning():
    out = judge(Deal.from_json(deal("bicycle"))).to_json()
    assert out["ok"] is True and out["warnings"] == []
    assert out["not_checked"][-1] == {
        "what": "last_card", "option": "last_card", "where": "last_card", "side": "North-South",
        "player": "Ann", "reason": "How Ann's last card went is not given, so the rule "
                                   "(The last card: must be discarded) is not checked."}


# -- reading and writing ---------------------------------------------------------------------


def test_what_a_deal_carries_is_written_back_canonically():
    data = deal("pagat", last_card="meld", permission="not-asked")
    data["sides"][0]["opening"] = {"melds": ["9 9 9 2"], "pile_top": "9"}
    data["sides"][1]["opening"] = {"melds": [{"rank": "8", "naturals": 6}], "pile_top": True}
    data["sides"][1]["running_total"] = -120
    out = Deal.from_json(data).to_json()
    assert out["last_card"] == "meld" and out["permission"] == "not-asked"
    assert out["sides"][0]["opening"] == {"melds": [{"rank": "9", "naturals": 3, "twos": 1}], "pile_top": "9"}
    assert out["sides"][1]["opening"] == {"melds": [{"rank": "8", "naturals": 6}], "pile_top": True}
    assert out["sides"][1]["running_total"] == -120
    assert Deal.from_json(out) == Deal.from_json(data)
    plain = Deal.from_json(deal("pagat")).to_json()
    assert "last_card" not in plain and "opening" not in plain["sides"][0]


@pytest.mark.parametrize("where, value, field", [
    ("last_card", "either", "last_card"),
    ("permission", "yes", "permission"),
    ("opening", {"melds": ["K K K"] * (MAX_MELDS + 1)}, "sides[0].opening.melds"),
    ("opening", {"melds": ["K K K"], "pile_top": "3"}, "sides[0].opening.pile_top"),
    ("opening", {"melds": ["K K K"], "pile_top": 9}, "sides[0].opening.pile_top"),
    ("opening", {"pile_top": "9"}, "sides[0].opening.melds"),
    ("running_total", MAX_POINTS + 1, "sides[0].running_total"),
    ("running_total", "1200", "sides[0].running_total"),
])
def test_unreadable_carried_fields_are_refused_naming_the_field(where, value, field):
    data = deal("pagat")
    (data["sides"][0] if where in ("opening", "running_total") else data)[where] = value
    with pytest.raises(ReadError) as err:
        Deal.from_json(data)
    assert err.value.field == field


def test_an_opening_reads_card_strings_and_the_top_card_in_any_case():
    opening = Opening.from_json({"melds": ["q q q"], "pile_top": "q"})
    assert opening.to_json() == {"melds": [{"rank": "Q", "naturals": 3}], "pile_top": "Q"}
