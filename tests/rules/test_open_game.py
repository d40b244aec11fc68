"""A game the table ends (``game_length: open``, issue 23 item 1.9): club games played to the
clock, such as the Florida Good Sams' rally game (three deals with opening minimums 90, 120
and 150 under an hour and a half). Any number of deals; each per-deal schedule keeps its last
value past its length; the game is over only once the table ends it, and until then its
result says who leads, never who won.

The deals are those of tests/data/game-four-deals.json, worked by hand in test_game.py
(Ann, Bea): deal scores (1,060, 5), (20, 730), (-55, 1,060), (565, 30); running totals
(1,060, 5), (1,080, 735), (1,025, 1,795), (1,590, 1,825).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorepad.rules import Deal, ReadError, SheetError, load_sheet, preset
from scorepad.rules.choices import GameLength
from scorepad.rules.dispute import rescore_game
from scorepad.rules.game import Game, Standing
from scorepad.rules.validate import validate
from scorepad.rules.views import view_of

DATA = Path(__file__).parent.parent / "data"
OPEN = {"preset": "common", "game_length": "open"}
# The Good Sams' rally sheet, as far as its length goes: three deals' minimums, played to the clock.
GOOD_SAMS = {**OPEN, "opening_minimums": [90, 120, 150], "going_out_bonus": 100,
             "books_to_go_out": {"clean": 2, "dirty": 2, "wild": 0}}


def game(sheet: object = OPEN, deals: int | None = None, ended: bool = False) -> Game:
    data = json.loads((DATA / "game-four-deals.json").read_text(encoding="utf-8"))
    data["sheet"] = sheet
    if deals is not None:
        data["deals"] = data["deals"][:deals]
    if ended:
        data["ended"] = True
    return Game.from_json(data)


# -- the result: who leads, until the table ends the game -----------------------------------------


def test_an_open_game_not_ended_is_not_over_after_the_sheets_number_of_deals():
    played = game()
    result = played.result()
    assert played.sheet.deals == 4  # the common preset's four, unused here
    assert (result.over, result.winner, result.tie) == (False, None, False)
    assert result.leader == "Bea"  # 1,825 to 1,590: Bea leads, has not won
    assert result.standings == (Standing("Bea", 1825), Standing("Ann", 1590))
    assert played.next_deal == 5
    assert played.problems() == []


def test_an_open_game_ended_by_the_table_is_won_by_the_highest_total():
    ended = game(deals=3, ended=True)
    result = ended.result()
    assert (result.over, result.winner, result.tie) == (True, "Bea", False)
    assert result.standings == (Standing("Bea", 1795), Standing("Ann", 1025))  # 735 + 1,060; 1,080 - 55
    assert ended.next_deal is None and ended.upcoming() is None


def test_the_leader_of_an_open_game_is_the_winner_only_once_it_is_ended():
    going_on, ended = game(deals=2), game(deals=2, ended=True)
    assert (going_on.result().leader, going_on.result().winner) == ("Ann", None)  # 1,080 to 735
    assert (ended.result().leader, ended.result().winner) == ("Ann", "Ann")


def test_an_open_game_ended_on_level_totals_is_a_tie():
    data = json.loads((DATA / "game-tie.json").read_text(encoding="utf-8"))
    data["sheet"] = OPEN
    going_on = Game.from_json(data)
    # Ann 650, Bea 650, Cal 85 after four deals (worked in test_game.py).
    assert (going_on.result().over, going_on.result().tie, going_on.result().leader) == (False, False, None)
    ended = Game.from_json({**data, "ended": True})
    assert (ended.result().over, ended.result().tie, ended.result().winner) == (True, True, None)


def test_the_state_of_an_open_game_names_the_leader_not_a_last_deal():
    assert view_of(game(deals=3)).state == "deal 4, Bea leads; the table ends the game"
    assert view_of(Game(load_sheet(OPEN), ("Ann", "Bea"))).state == "deal 1, nobody leads; the table ends the game"
    assert view_of(game(deals=3, ended=True)).state == "Bea wins"


def test_ended_is_never_read_on_a_sheet_that_ends_the_game_itself():
    twice = Game(preset("common"), ("Ann", "Bea"), game(deals=2).deals, ended=True)
    assert twice.result().over is False and twice.next_deal == 3  # deal 3 of 4 comes next, as ever


def test_a_game_file_says_ended_only_on_an_open_sheet():
    with pytest.raises(ReadError) as err:
        game(sheet="common", ended=True)
    assert err.value.field == "ended"
    with pytest.raises(ReadError) as err:
        Game.from_json({"sheet": OPEN, "deals": [], "ended": "yes"})
    assert err.value.field == "ended"


def test_an_ended_open_game_written_as_json_reads_back_ended():
    ended = game(deals=3, ended=True)
    assert ended.to_json()["ended"] is True
    assert Game.from_json(ended.to_json()).ended is True
    assert "ended" not in game(deals=3).to_json()  # a game going on writes what it always did


def test_a_deal_added_to_an_ended_game_keeps_it_ended():
    assert game(deals=2, ended=True).with_deal(game().deals[2]).ended is True


# -- any number of deals; schedules past their length -----------------------------------------------


def test_each_per_deal_schedule_keeps_its_last_value_past_its_length():
    played = Game(load_sheet(GOOD_SAMS), ("Us", "Them"))
    assert [played.deal_rules(n).opening_minimums["Us"] for n in (1, 2, 3, 4, 7)] == [90, 120, 150, 150, 150]
    assert str(played.deal_rules(9).going_out_books) == "2 clean + 2 dirty"
    assert played.deal_rules(9).going_out_bonus == 100
    assert played.deal_rules(9).last_deal is None


def test_a_schedule_shorter_than_deals_is_refused_only_where_deals_count():
    sheet = load_sheet(GOOD_SAMS)
    assert sheet.deals == 4 and sheet.game_length is GameLength.OPEN  # three minimums, four deals: fine here
    with pytest.raises(SheetError) as err:
        load_sheet({**GOOD_SAMS, "game_length": "deals"})
    assert err.value.field.endswith("opening_minimums")


def test_deals_and_target_score_are_unused_on_an_open_sheet():
    sheet = load_sheet(OPEN)
    assert sheet.unused("deals") and sheet.unused("target_score")
    assert not load_sheet("common").unused("deals")
    assert load_sheet("common").unused("target_score")


def test_an_open_sheet_is_worded_as_the_table_ending_the_game():
    assert load_sheet(OPEN).describe("game_length") == "until the table ends the game"
    assert load_sheet("common").describe("game_length") == "4 deals"


def test_an_open_game_takes_deals_past_the_sheets_number_of_deals():
    sheet = load_sheet(OPEN)
    fifth = Deal.from_json({**game().deals[3].to_json(with_sheet=False), "deal": 5}, sheet)
    assert [p.code for p in validate(fifth).violations if p.code == "deal.number"] == []
    played = game().with_deal(fifth)
    assert len(played.deals) == 5 and played.result().over is False and played.next_deal == 6


def test_an_open_game_keeps_at_most_a_hundred_deals():
    sheet = load_sheet(OPEN)
    past = Deal.from_json({**game().deals[3].to_json(with_sheet=False), "deal": 101}, sheet)
    near = Deal.from_json({**game().deals[3].to_json(with_sheet=False), "deal": 100}, sheet)
    problems = [p for p in validate(past).violations if p.code == "deal.number"]
    assert len(problems) == 1 and "for a game the table ends" in problems[0].message
    assert [p for p in validate(near).violations if p.code == "deal.number"] == []


def test_rescored_under_an_open_sheet_a_finished_game_ends_where_the_table_stopped():
    finished = game(sheet="common")  # over after its four deals: Bea 1,825 to 1,590
    change = rescore_game(finished, load_sheet(OPEN))
    assert (change.new_result.over, change.new_result.winner) == (True, "Bea")
    assert change.winner_changes is False
    going_on = rescore_game(game(sheet="common", deals=3), load_sheet(OPEN))
    assert going_on.new_result.over is False
