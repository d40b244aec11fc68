"""Whole games: running totals, the end of a game, the winner or a tie, game-level problems,
and the opening minimum a side faces before each deal.

The example games live in tests/data/. Every total below was worked by hand from the
card values (joker 50, 2 and ace 20, K to 8 10, 7 to 4 and black three 5) and the common
preset's bonuses (clean book 500, dirty book 300, red three 100, going out 100).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from scorepad.rules import Deal, ReadError, load_sheet, preset
from scorepad.rules.game import Game, Standing

DATA = Path(__file__).parent.parent / "data"


def load(name: str) -> dict:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def four_deals(sheet=None, deals: int | None = None) -> Game:
    """The four-deal game between Ann and Bea, optionally under another sheet or cut short."""
    data = load("game-four-deals.json")
    if sheet is not None:
        data["sheet"] = sheet
    if deals is not None:
        data["deals"] = data["deals"][:deals]
    return Game.from_json(data)


def side(name: str, melds: list[str], cards_left: str = "", red_threes: int = 0) -> dict:
    return {"name": name, "melds": melds, "red_threes": red_threes,
            "players": [{"name": name, "foot_picked_up": True, "cards_left": cards_left}]}


# Deal scores worked by hand, deal by deal (Ann, Bea):
#  1. Ann: kings book 70 + 500, queens 5 + two 2s 50 + 40 + 300, going out 100 = 1,060;
#     Bea: jacks 30, less an ace and a black three left 25 = 5.
#  2. Ann: 8s 30, less a king 10 = 20; Bea: aces book 140 + 500, red three 100, less two 4s 10 = 730.
#  3. Ann: 5s 15, less a joker and a 2 70 = -55;
#     Bea: 10s book 70 + 500, 9s 5 + two 2s 50 + 40 + 300, going out 100 = 1,060.
#  4. Ann: 7s book 35 + 500, 6 6 6 2 35, less a black three 5 = 565; Bea: J J J 2 50, less Q Q 20 = 30.
DEAL_SCORES = [(1060, 5), (20, 730), (-55, 1060), (565, 30)]
RUNNING = [(1060, 5), (1080, 735), (1025, 1795), (1590, 1825)]


# -- running totals and the result -------------------------------------------------------------


def test_each_deal_of_the_example_game_scores_as_worked_by_hand():
    game = four_deals()
    assert [tuple(s.total for s in v.breakdown.sides) for v in game.verdicts] == DEAL_SCORES
    assert all(v.ok for v in game.verdicts)
    assert game.problems() == []


def test_running_totals_after_each_deal_add_that_deals_score_to_the_last():
    game = four_deals()
    assert game.running_totals() == [{"Ann": ann, "Bea": bea} for ann, bea in RUNNING]
    assert game.totals() == {"Ann": 1590, "Bea": 1825}


def test_a_negative_deal_score_lowers_the_running_total():
    running = four_deals().running_totals()
    assert running[2]["Ann"] == running[1]["Ann"] - 55


def test_game_of_four_deals_is_won_by_the_highest_total():
    result = four_deals().result()
    assert result.over is True
    assert result.tie is False
    assert result.winner == "Bea"
    assert result.standings == (Standing("Bea", 1825), Standing("Ann", 1590))


def test_leader_after_three_deals_is_not_the_winner_until_the_fourth_is_played():
    game = four_deals(deals=3)
    result = game.result()
    assert result.over is False
    assert result.winner is None
    assert result.standings[0] == Standing("Bea", 1795)
    assert game.next_deal == 4


def test_equal_top_totals_are_a_tie_with_no_winner():
    game = Game.from_json(load("game-tie.json"))
    # Deal by deal (Ann, Bea, Cal): (30, 30, 30 - 20 = 10); (aces book 640, 30, 30);
    # (15 - 50 = -35, 10s book 570, 15); (15, 20, 30).
    assert game.running_totals() == [
        {"Ann": 30, "Bea": 30, "Cal": 10},
        {"Ann": 670, "Bea": 60, "Cal": 40},
        {"Ann": 635, "Bea": 630, "Cal": 55},
        {"Ann": 650, "Bea": 650, "Cal": 85},
    ]
    result = game.result()
    assert result.over is True
    assert result.tie is True
    assert result.winner is None
    assert [s.total for s in result.standings] == [650, 650, 85]
    assert {s.name for s in result.standings[:2]} == {"Ann", "Bea"}


def test_equal_totals_below_the_top_are_not_a_tie():
    sheet = load_sheet({"preset": "common", "deals": 1})
    deal = Deal.from_json({"deal": 1, "ending": "stock_out", "sides": [
        side("Ann", ["K K K K"]), side("Bea", ["Q Q Q"]), side("Cal", ["J J J"])]}, sheet)
    result = Game(sheet, ("Ann", "Bea", "Cal"), (deal,)).result()
    assert result.over and not result.tie
    assert result.winner == "Ann"


def test_level_totals_before_the_game_is_over_are_not_a_tie():
    data = load("game-tie.json")
    data["deals"] = data["deals"][:1]
    result = Game.from_json(data).result()
    assert result.standings[0].total == result.standings[1].total == 30
    assert (result.over, result.tie, result.winner) == (False, False, None)


def test_a_sheet_of_two_deals_ends_after_the_second_deal():
    game = four_deals(sheet={"preset": "common", "deals": 2}, deals=2)
    result = game.result()
    assert result.over and result.winner == "Ann"
    assert result.standings[0] == Standing("Ann", 1080)
    assert game.next_deal is None


def test_a_deal_past_the_sheets_number_of_deals_does_not_change_who_won():
    data = load("game-four-deals.json")
    extra = copy.deepcopy(data["deals"][3])
    extra["deal"] = 5
    extra["sides"][0]["melds"] = ["K K K K K K K", "Q Q Q Q Q Q Q"]  # Ann +1,140: would overtake
    data["deals"].append(extra)
    game = Game.from_json(data)
    assert game.totals()["Ann"] > game.totals()["Bea"]
    assert "deal.number" in game.verdicts[4].report.codes()
    result = game.result()
    assert result.winner == "Bea"
    assert result.standings == (Standing("Bea", 1825), Standing("Ann", 1590))


# -- a game played to a target score ----------------------------------------------------------

TARGET_1500 = {"preset": "common", "game_length": "target", "target_score": 1500}


def test_target_game_is_not_over_while_no_side_has_reached_the_target():
    game = four_deals(sheet=TARGET_1500, deals=2)
    assert game.result().over is False
    assert game.next_deal == 3


def test_target_game_ends_when_a_side_reaches_the_target():
    game = four_deals(sheet=TARGET_1500, deals=3)
    result = game.result()
    assert result.over is True
    assert result.winner == "Bea"
    assert result.standings[0] == Standing("Bea", 1795)
    assert game.next_deal is None
    assert game.problems() == []


def test_target_game_ends_on_a_total_exactly_at_the_target_but_not_one_short_of_it():
    at = four_deals(sheet={**TARGET_1500, "target_score": 1795}, deals=3)
    short = four_deals(sheet={**TARGET_1500, "target_score": 1796}, deals=3)
    assert at.result().over is True
    assert short.result().over is False


def test_target_game_is_not_limited_to_the_sheets_number_of_deals():
    game = four_deals(sheet={**TARGET_1500, "target_score": 5000})
    assert len(game.deals) == 4
    assert game.result().over is False
    assert game.next_deal == 5
    assert all(v.ok for v in game.verdicts)


def test_deal_played_after_a_target_game_ended_is_a_game_over_problem():
    game = four_deals(sheet=TARGET_1500)
    problems = game.problems()
    assert [p.code for p in problems] == ["game.over"]
    assert problems[0].where == "deals[3]"
    assert problems[0].option == "game_length"
    assert "ended with deal 3" in problems[0].message


def test_deal_played_after_a_target_game_ended_does_not_reopen_it():
    data = load("game-four-deals.json")
    data["sheet"] = TARGET_1500
    # Deal 4 again, but Bea is caught with six jokers and ten 2s: 30 - 300 - 200 = -470,
    # which takes her from 1,795 back below the target, to 1,325.
    data["deals"][3]["sides"][1] = side("Bea", ["J J J"], "JKx6 2x10")
    game = Game.from_json(data)
    assert game.totals() == {"Ann": 1590, "Bea": 1325}
    assert [p.code for p in game.problems()] == ["game.over"]
    result = game.result()
    assert result.over is True
    assert game.next_deal is None
    assert result.winner == "Bea"


def test_deal_played_after_a_target_game_ended_does_not_change_who_won():
    data = load("game-four-deals.json")
    data["sheet"] = TARGET_1500
    data["deals"][3]["sides"][0] = side("Ann", ["K K K K K K K", "Q Q Q Q Q Q Q"])  # Ann +1,140
    game = Game.from_json(data)
    assert game.totals()["Ann"] > game.totals()["Bea"]
    result = game.result()
    assert result.winner == "Bea"
    assert result.standings == (Standing("Bea", 1795), Standing("Ann", 1025))


# -- game-level problems ------------------------------------------------------------------------


def test_deals_numbered_out_of_order_are_a_deal_order_problem():
    data = load("game-four-deals.json")
    data["deals"][1]["deal"] = 3
    data["deals"][2]["deal"] = 2
    problems = Game.from_json(data).problems()
    assert [(p.code, p.where) for p in problems] == [
        ("game.deal_order", "deals[1].deal"), ("game.deal_order", "deals[2].deal")]
    assert problems[0].message == "Deal 2 is not recorded, and deal 3 is."
    assert problems[1].message == "Deal 2 is listed after deal 3."


def test_a_gap_in_the_deals_is_one_problem_naming_the_missing_deals():
    data = load("game-four-deals.json")
    for deal, number in zip(data["deals"], (1, 4, 5, 6), strict=True):
        deal["deal"] = number
    problems = Game.from_json(data).problems()
    assert [(p.code, p.where, p.message) for p in problems] == [
        ("game.deal_order", "deals[1].deal", "Deals 2 to 3 are not recorded, and deal 4 is.")]


def test_a_deal_without_a_number_takes_its_place_in_the_game():
    game = Game.from_json(load("game-tie.json"))
    assert [deal.number for deal in game.deals] == [1, 2, 3, 4]
    assert game.problems() == []


def test_a_deal_with_other_sides_than_the_game_is_a_sides_problem():
    data = load("game-four-deals.json")
    data["deals"][1]["sides"][1]["name"] = "Cal"
    data["deals"][1]["sides"][1]["players"][0]["name"] = "Cal"
    game = Game.from_json(data)
    problems = game.problems()
    assert [(p.code, p.where) for p in problems] == [("game.sides", "deals[1].sides")]
    assert "Cal" in problems[0].message
    # Bea missing from deal 2 scores nothing in it; Cal, not in the game, is not counted.
    assert game.running_totals()[1] == {"Ann": 1080, "Bea": 5}


def test_sides_of_a_game_default_to_the_first_deals_sides_in_seat_order():
    data = load("game-tie.json")
    assert Game.from_json(data).sides == ("Ann", "Bea", "Cal")
    data["sides"] = ["Cal", "Bea", "Ann"]
    assert Game.from_json(data).sides == ("Cal", "Bea", "Ann")


def test_a_deal_in_a_game_may_not_bring_its_own_sheet():
    data = load("game-four-deals.json")
    data["deals"][2]["sheet"] = "pagat"
    with pytest.raises(ReadError) as err:
        Game.from_json(data)
    assert err.value.field == "deals[2].sheet"


@pytest.mark.parametrize("data, field", [
    ([], ""),
    ({"deals": []}, "sheet"),
    ({"sheet": "common", "deals": {}}, "deals"),
    ({"sheet": "common", "deals": [], "sides": "Ann"}, "sides"),
    ({"sheet": "common", "deals": [], "sides": ["Ann", 5]}, "sides[1]"),
    ({"sheet": "common", "deals": [], "sides": [{"name": "Ann", "players": [5]}]}, "sides[0].players[0]"),
    ({"sheet": "common", "deals": [], "score": 5}, "score"),
    ({"sheet": "house", "deals": []}, "sheet"),
])
def test_an_unreadable_game_names_the_field_at_fault(data, field):
    with pytest.raises(ReadError) as err:
        Game.from_json(data)
    assert err.value.field == field


def test_a_games_sides_read_as_names_or_as_name_and_players_alike():
    names = {"sheet": "common", "sides": ["Ann", "Bea"], "deals": []}
    objects = {**names, "sides": [{"name": "Ann", "players": ["Ann"]}, {"name": "Bea", "players": ["Bea"]}]}
    assert Game.from_json(objects).sides == Game.from_json(names).sides == ("Ann", "Bea")


def test_a_games_deals_read_as_deals_or_as_an_export_lists_them_alike():
    plain = load("game-four-deals.json")
    entries = {**plain, "deals": [{"number": d["deal"], "deal": d, "as_played": None, "history": []}
                                  for d in plain["deals"]]}
    numbered_by_entry = {**plain, "deals": [{"number": d["deal"], "deal": {k: v for k, v in d.items() if k != "deal"}}
                                            for d in plain["deals"]]}
    game = Game.from_json(plain)
    assert Game.from_json(entries) == Game.from_json(numbered_by_entry) == game
    assert len(game.deals) == 4


def test_a_game_written_as_json_reads_back_the_same():
    game = four_deals(sheet=TARGET_1500)
    again = Game.from_json(json.loads(json.dumps(game.to_json())))
    assert again.sheet == game.sheet
    assert again.sides == game.sides
    assert again.running_totals() == game.running_totals()


def test_with_deal_adds_the_next_deal_to_the_game():
    three = four_deals(deals=3)
    four = three.with_deal(four_deals().deals[3])
    assert len(three.deals) == 3
    assert four.result().winner == "Bea"


# -- the next deal and its opening minimum ----------------------------------------------------


def test_next_deal_counts_up_from_one_and_is_none_once_the_game_is_over():
    assert Game(preset("common"), ("Ann", "Bea")).next_deal == 1
    assert [four_deals(deals=n).next_deal for n in range(5)] == [1, 2, 3, 4, None]


def without_deal_2(sheet=None) -> Game:
    """The four-deal game cut to deals 1 and 3 (deal 2 deleted)."""
    game = four_deals(sheet=sheet, deals=3)
    return Game(game.sheet, game.sides, (game.deals[0], game.deals[2]))


def test_the_next_deal_after_deleting_deal_2_of_3_is_deal_2_with_its_own_minimum():
    # Deals 1 and 3 recorded: the lowest number not recorded is 2, whose minimum is 90
    # (deal 3's would be 120), and before it only deal 1 counts: Ann 1,060, Bea 5.
    game = without_deal_2()
    assert game.next_deal == 2
    assert game.opening_minimum("Ann") == 90
    upcoming = game.upcoming()
    assert (upcoming.number, upcoming.opening_minimums) == (2, {"Ann": 90, "Bea": 90})
    assert upcoming.totals_before == game.totals_before(2) == {"Ann": 1060, "Bea": 5}
    assert str(upcoming.going_out_books) == "1 clean + 1 dirty"
    # The near twin: nothing deleted, deal 4 is next with deal 4's minimum and all three deals before it.
    three = four_deals(deals=3).upcoming()
    assert (three.number, three.opening_minimums["Ann"], three.totals_before) == (4, 150, {"Ann": 1025, "Bea": 1795})


def test_opening_minimum_by_running_total_before_a_deleted_deal_counts_only_the_deals_before_it():
    # Before deal 2 Ann has 1,060 (band below 1,500: 90) and Bea 5 (below 1,000: 50); deal 3's
    # -55 and 1,060 come after it. Before deal 4 they count: Ann 1,005 (90), Bea 1,065 (90).
    game = without_deal_2(BANDS)
    assert game.upcoming().opening_minimums == {"Ann": 90, "Bea": 50}
    assert [game.opening_minimum("Bea", deal) for deal in (2, 4)] == [50, 90]


def test_a_target_game_missing_a_deal_goes_on_until_it_is_recorded_again():
    # Bea reaches 1,500 after deal 3 (5 + 730 + 1,060 = 1,795); with deal 2 deleted the game
    # is not over, and deal 2 is next. The near twin with deal 2 recorded is over.
    game = without_deal_2(TARGET_1500)
    assert game.result().over is False and game.next_deal == 2
    assert four_deals(sheet=TARGET_1500, deals=3).next_deal is None


@pytest.mark.parametrize("preset_id", ["common", "pagat", "bicycle", "gather-together"])
def test_opening_minimum_by_deal_is_50_90_120_150(preset_id):
    game = Game(preset(preset_id), ("North-South", "East-West"))
    assert [game.opening_minimum("North-South", deal) for deal in (1, 2, 3, 4)] == [50, 90, 120, 150]


def test_opening_minimum_defaults_to_the_next_deal():
    assert [four_deals(deals=n).opening_minimum("Ann") for n in range(4)] == [50, 90, 120, 150]


def test_opening_minimum_by_deal_is_the_same_for_a_leader_and_a_trailer():
    game = four_deals(deals=3)
    assert game.opening_minimum("Ann") == game.opening_minimum("Bea") == 150


BANDS = {"preset": "common", "opening_by": "running-total",
         "opening_bands": [{"below": 1000, "minimum": 50}, {"below": 1500, "minimum": 90}, {"minimum": 120}]}


def test_opening_minimum_by_running_total_follows_each_sides_total_before_the_deal():
    game = four_deals(sheet=BANDS)
    # Before deals 1-4 Ann has 0, 1,060, 1,080, 1,025 and Bea 0, 5, 735, 1,795.
    assert [game.opening_minimum("Ann", deal) for deal in (1, 2, 3, 4)] == [50, 90, 90, 90]
    assert [game.opening_minimum("Bea", deal) for deal in (1, 2, 3, 4)] == [50, 50, 50, 120]


def test_opening_minimum_by_running_total_uses_the_total_after_the_last_deal_played():
    game = four_deals(sheet=BANDS, deals=3)
    assert game.opening_minimum("Bea") == 120  # 1,795 after deal 3
    assert game.opening_minimum("Ann") == 90   # 1,025 after deal 3


def test_opening_minimum_by_running_total_with_the_presets_bands():
    sheet = {"preset": "common", "opening_by": "running-total"}
    game = four_deals(sheet=sheet)
    # Every total in the game stays below 2,500: the first band, 50, throughout.
    assert {game.opening_minimum(name, deal) for name in ("Ann", "Bea") for deal in (1, 2, 3, 4)} == {50}
    data = load("game-four-deals.json")
    data["sheet"] = sheet
    data["deals"] = data["deals"][:1] * 3  # Ann 1,060 a deal: 3,180 after three
    for i, deal in enumerate(data["deals"], 1):
        deal["deal"] = i
    richer = Game.from_json(data)
    assert richer.opening_minimum("Ann", 3) == 50   # 2,120 before deal 3
    assert richer.opening_minimum("Ann", 4) == 90   # 3,180 before deal 4
    assert richer.opening_minimum("Bea", 4) == 50


def test_opening_minimum_by_running_total_for_a_side_below_zero_is_the_lowest_band():
    data = load("game-four-deals.json")
    data["sheet"] = BANDS
    data["deals"] = data["deals"][2:3]
    data["deals"][0]["deal"] = 1
    game = Game.from_json(data)
    assert game.totals()["Ann"] == -55
    assert game.opening_minimum("Ann") == 50


def test_verdicts_given_to_a_game_are_used_only_for_the_deals_they_judged():
    from dataclasses import replace

    from scorepad.rules import judge

    game = Game.from_json(load("game-four-deals.json"))
    given = Game(game.sheet, game.sides, game.deals, tuple(judge(d) for d in game.deals))
    assert all(v is w for v, w in zip(given.verdicts, given.judged, strict=True))
    under_pagat = replace(given, sheet=preset("pagat"),
                          deals=tuple(replace(d, sheet=preset("pagat")) for d in game.deals))
    assert [v.deal.sheet.preset for v in under_pagat.verdicts] == ["pagat"] * len(game.deals)
