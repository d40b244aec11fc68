"""Specification: the knee, a third pile dealt between the hand and the foot (``knee_size``).

Hand, Knee and Foot (the card rooms' sheets and the Triple Play write-ups) deals each player a
hand of 15, a knee of 13 and a foot of 11, played in that order; the online table service deals
a "tail" as a third pile in one round only. A player gives ``knee_picked_up`` (absent: as
``foot_picked_up``) and, when not picked up, the unopened knee's cards, as the foot is. An
unopened knee counts against its side as an unopened foot does: its cards' points, its red
threes at ``red_three_penalty_foot`` (when ``red_three_penalty_foot_when`` says) and its black
threes at ``black_three_in_foot``. Going out needs the knee played, and the pack's supply counts
it. A sheet without a knee scores and looks exactly as before.
"""

from __future__ import annotations

import copy
import io
import json
from typing import Any

import pytest
from pypdf import PdfReader

from scorepad.api.openapi import document
from scorepad.app import create_app
from scorepad.cli.scorepad_command import main
from scorepad.paper.house_rules import house_rules
from scorepad.paper.pad import deal_conditions
from scorepad.rules import Deal, load_sheet, preset, score, validate
from scorepad.rules.choices import Books, PerDeal
from scorepad.rules.errors import ReadError, SheetError
from scorepad.rules.lines import pad_lines, plan
from scorepad.rules.progress import going_out_progress
from scorepad.rules.questions import ask_go_out
from scorepad.rules.rulings import can_go_out

# A card room's Hand, Knee and Foot: two partnerships, six decks, hand 15, knee 13, foot 11; a red
# three left unplayed costs 500 and a black three 300 (the web scorer's Hand, Knee and Foot values).
HKF: dict[str, Any] = {"preset": "common", "min_players": 4, "max_players": 4, "side_sizes": [2],
                       "decks_rule": "fixed", "decks": 6, "hand_size": 15, "knee_size": 13, "foot_size": 11,
                       "red_three_penalty_hand": 500, "red_three_penalty_foot": 500, "black_three_in_foot": 300}

# Ann goes out; her partner Cal played his knee and foot. Bea picked up her knee, not her foot;
# Dan never reached his knee: both his knee and his foot lie unopened, each with a red three.
DEAL: dict[str, Any] = {
    "sheet": HKF, "deal": 1, "ending": "went_out", "went_out": "Ann",
    "sides": [
        {"name": "North-South", "red_threes": 1, "melds": ["K K K K K K K", "Q Q Q Q Q 2 2"],
         "players": [{"name": "Ann", "foot_picked_up": True, "knee_picked_up": True, "cards_left": ""},
                     {"name": "Cal", "foot_picked_up": True, "knee_picked_up": True, "cards_left": "A 4"}]},
        {"name": "East-West", "melds": ["J J J J J J J", "9 9 9"],
         "players": [{"name": "Bea", "foot_picked_up": False, "knee_picked_up": True, "cards_left": "K 3B",
                      "foot": "A A 10 10 10 8 8 7 6 5 JK"},
                     {"name": "Dan", "foot_picked_up": False, "knee_picked_up": False, "cards_left": "8 8",
                      "knee": "3R 3B A K K Q 9 9 7 5 5 4 JK", "foot": "3R 2 A Q J 10 8 7 6 6 4"}]},
    ]}


def deal_with(*edits: tuple[str, Any], data: dict[str, Any] | None = None) -> Deal:
    """The deal with some values changed: (dotted path, value), a value of None removes the key."""
    data = copy.deepcopy(data or DEAL)
    for path, value in edits:
        keys = [int(k) if k.isdigit() else k for k in path.split(".")]
        container = data
        for key in keys[:-1]:
            container = container[key]
        if value is None:
            del container[keys[-1]]
        else:
            container[keys[-1]] = value
    return Deal.from_json(data)


def lines_of(deal: Deal, side: int) -> dict[str, tuple[int, int, int]]:
    """A side's lines by label: (count, each, points)."""
    return {line.label: (line.count, line.each, line.points) for line in score(deal).sides[side].lines}


# -- scoring: an unopened knee counts against as an unopened foot -------------------------------


def test_an_unopened_knee_counts_its_cards_and_threes_against_the_side_as_an_unopened_foot():
    deal = deal_with()
    assert validate(deal).violations == ()
    north_south = lines_of(deal, 0)
    # 7 kings 70 + 5 queens 50 + 2 twos 40, a clean 500 and a dirty 300 book, a red three 100,
    # going out 100; Cal's hand: an ace 20 and a four 5
    assert score(deal).sides[0].total == 70 + 50 + 40 + 500 + 300 + 100 + 100 - 25 == 1135
    assert "Cal's unopened knee: A" not in north_south  # picked up: nothing counts
    east_west = lines_of(deal, 1)
    # Dan's unopened knee: 3R 3B A K K Q 9 9 7 5 5 4 JK
    assert east_west["Dan's unopened knee: JK"] == (1, -50, -50)
    assert east_west["Dan's unopened knee: A"] == (1, -20, -20)
    assert east_west["Dan's unopened knee: K Q 9"] == (5, -10, -50)
    assert east_west["Dan's unopened knee: 7 5 4"] == (4, -5, -20)
    assert east_west["Dan's unopened knee: black threes"] == (1, -300, -300)  # black_three_in_foot
    assert east_west["Dan's unopened knee: red threes"] == (1, -500, -500)  # red_three_penalty_foot
    assert "Bea's unopened knee: A" not in east_west  # Bea picked up her knee (her foot lies unopened)
    knee = 50 + 20 + 50 + 20 + 300 + 500
    # 7 jacks 70 + 3 nines 30 + a clean book 500; Bea's hand K 3B 15 and unopened foot
    # (JK 50, A A 40, 10 10 10 8 8 50, 7 6 5 15) 155; Dan's hand 8 8 20, knee 940 and foot
    # (2 A 40, Q J 10 8 40, 7 6 6 4 20, a red three 500) 600
    assert score(deal).sides[1].total == 70 + 30 + 500 - 15 - 155 - 20 - knee - 100 - 500 == -1130
    assert [line.code for line in score(deal).sides[1].lines if line.player == "Dan"] == [
        "cards_left", "knee", "knee", "knee", "knee", "black_threes.knee", "red_threes.knee",
        "foot", "foot", "foot", "red_threes.foot"]
    # the near twin: Dan picked up his knee (and holds what is left in his hand): no knee line
    twin = deal_with(("sides.1.players.1.knee_picked_up", True), ("sides.1.players.1.knee", None))
    assert validate(twin).violations == ()
    assert score(twin).sides[1].total == -1130 + knee == -190


def test_a_red_three_in_an_unopened_knee_costs_only_when_the_foot_s_does():
    # red_three_penalty_foot_when opponents-out: nobody went out, so neither the knee's red
    # three nor the foot's costs its 500; the cards still count
    sheet = {**HKF, "red_three_penalty_foot_when": "opponents-out"}
    stock = deal_with(("sheet", sheet), ("ending", "stock_out"), ("went_out", None))
    lines = lines_of(stock, 1)
    assert "Dan's unopened knee: red threes" not in lines and "Dan's unopened foot: red threes" not in lines
    assert lines["Dan's unopened knee: black threes"] == (1, -300, -300)
    # Ann of the other side went out: both cost again, 500 each
    out = deal_with(("sheet", sheet))
    assert lines_of(out, 1)["Dan's unopened knee: red threes"] == (1, -500, -500)
    assert score(out).sides[1].total - score(stock).sides[1].total == -500 - 500


def test_a_black_three_in_an_unopened_knee_is_a_card_like_any_other_without_black_three_in_foot():
    deal = deal_with(("sheet", {**HKF, "black_three_in_foot": None}))
    lines = lines_of(deal, 1)
    assert "Dan's unopened knee: black threes" not in lines
    # the black three counts its card value, 5, with the 7 5 5 4 (5 each)
    assert lines["Dan's unopened knee: 7 5 4 3B"] == (5, -5, -25)
    assert score(deal).sides[1].total == -1130 + 300 - 5


def test_a_counted_side_records_the_unopened_knee_as_cards_too():
    # East-West counted as a paper pad keeps them: a clean book, 100 melded points; Dan's
    # 20 points left in hand; the knee and the foot still listed as cards
    counted = deal_with(("sides.1.melds", None), ("sides.1.books", {"clean": 1}), ("sides.1.meld_points", 100),
                        ("sides.1.players.0.cards_left", None), ("sides.1.players.0.cards_left_points", 15),
                        ("sides.1.players.1.cards_left", None), ("sides.1.players.1.cards_left_points", 20))
    assert validate(counted).violations == ()
    assert counted.to_json()["sides"][1]["players"][1]["knee"] == {
        "A": 1, "K": 2, "Q": 1, "9": 2, "7": 1, "5": 2, "4": 1, "JK": 1, "3B": 1, "3R": 1}
    assert lines_of(counted, 1)["Dan's unopened knee: red threes"] == (1, -500, -500)
    # melded points 100 + clean 500 - hands 15 and 20 - Bea's foot 155 - Dan's knee 940 and foot 600
    assert score(counted).sides[1].total == 100 + 500 - 15 - 20 - 155 - 940 - 600 == -1130


# -- reading and writing ------------------------------------------------------------------------


def test_a_deal_writes_knee_picked_up_and_the_unopened_knee_back_and_reads_them_again():
    deal = deal_with()
    data = deal.to_json()
    ann, cal = data["sides"][0]["players"]
    bea, dan = data["sides"][1]["players"]
    assert ann["knee_picked_up"] is True and "knee" not in ann
    assert bea["knee_picked_up"] is True and "knee" not in bea
    assert dan["knee_picked_up"] is False and sum(dan["knee"].values()) == 13
    assert Deal.from_json(data) == deal


def test_knee_picked_up_absent_is_as_the_foot_and_a_deal_without_a_knee_writes_neither_key():
    deal = deal_with(("sides.0.players.1.knee_picked_up", None), ("sides.1.players.0.knee_picked_up", None))
    cal, bea = deal.sides[0].players[1], deal.sides[1].players[0]
    assert cal.knee_picked_up is None and cal.picked_knee  # his foot picked up: so was his knee
    assert bea.knee_picked_up is None and not bea.picked_knee  # her foot lies unopened: so does her knee
    assert "knee_picked_up" not in deal.to_json()["sides"][0]["players"][1]
    common = Deal.from_json({"sheet": "common", "deal": 1, "ending": "stock_out", "sides": [
        {"name": "Ann", "melds": ["K K K"], "players": [{"name": "Ann", "foot_picked_up": True}]},
        {"name": "Bea", "melds": ["Q Q Q"], "players": [{"name": "Bea", "foot_picked_up": True}]}]})
    assert all(set(p) == {"name", "foot_picked_up", "cards_left"}
               for side in common.to_json()["sides"] for p in side["players"])


@pytest.mark.parametrize("value", ["yes", 1, [True]])
def test_knee_picked_up_must_be_true_or_false_naming_the_field(value):
    with pytest.raises(ReadError) as caught:
        deal_with(("sides.1.players.1.knee_picked_up", value))
    assert caught.value.field == "sides[1].players[1].knee_picked_up"


def test_an_unreadable_knee_is_refused_naming_the_field():
    with pytest.raises(ReadError) as caught:
        deal_with(("sides.1.players.1.knee", "K Q ZZ"))
    assert caught.value.field == "sides[1].players[1].knee"


# -- the sheet ----------------------------------------------------------------------------------


def test_knee_size_is_a_number_or_one_per_deal_and_a_sheet_without_one_deals_none():
    assert preset("common").knee_size == PerDeal((0,)) and not preset("common").has_knee
    assert "knee_size" not in preset("common").to_json()
    sheet = load_sheet(HKF)
    assert sheet.knee_at(1) == sheet.knee_at(4) == 13 and sheet.has_knee
    assert sheet.to_json()["knee_size"] == 13
    assert sheet.describe("knee_size") == "13"
    tail = load_sheet({"preset": "common", "deals": 5, "opening_minimums": 50, "knee_size": [0, 0, 0, 0, 11]})
    assert [tail.knee_at(n) for n in range(1, 6)] == [0, 0, 0, 0, 11]
    assert tail.describe("knee_size") == "deal 1 no knee, deal 2 no knee, deal 3 no knee, deal 4 no knee, deal 5 11"
    assert preset("common").describe("knee_size") == "no knee"
    assert preset("common").unused("knee_size") and not sheet.unused("knee_size")  # off the house-rule sheet


@pytest.mark.parametrize("value, field", [(31, "sheet.knee_size"), (-1, "sheet.knee_size"),
                                          ([13, 13], "knee_size")])
def test_a_knee_size_out_of_bounds_or_short_of_the_game_is_refused_naming_the_option(value, field):
    with pytest.raises(SheetError) as caught:
        load_sheet({"preset": "common", "knee_size": value})
    assert caught.value.field.endswith(field)


# -- the checks ---------------------------------------------------------------------------------


def test_the_supply_counts_the_unopened_knee():
    # six decks hold 12 jokers: Bea's foot holds one, so a knee of 12 jokers and an ace is one too many
    jokers = deal_with(("sides.1.players.1.knee", "JKx12 A"))
    assert [(p.code, p.option) for p in validate(jokers).violations] == [("supply", "jokers_per_deck")]
    assert "13 jokers" in validate(jokers).violations[0].message
    # the near twin: 11 jokers and two aces in the knee, 12 jokers in all
    assert validate(deal_with(("sides.1.players.1.knee", "JKx11 A A"))).violations == ()


def test_a_knee_in_one_deal_only_is_asked_for_in_that_deal_only():
    tail = {"preset": "common", "deals": 5, "opening_minimums": 50, "knee_size": [0, 0, 0, 0, 11]}
    data = {"sheet": tail, "deal": 5, "ending": "stock_out", "sides": [
        {"name": "Ann", "melds": ["K K K"], "players": [{"name": "Ann", "foot_picked_up": True}]},
        {"name": "Bea", "melds": ["Q Q Q"], "players": [
            {"name": "Bea", "foot_picked_up": False, "knee_picked_up": False, "knee": "A A 10 10 10 8 8 7 6 5 JK",
             "foot": "A A 10 10 10 8 8 7 6 5 JK"}]}]}
    assert validate(Deal.from_json(data)).violations == ()
    # the same players in deal 4, which deals no knee: the knee is refused, as is its word
    data["deal"] = 4
    assert [(p.code, p.where) for p in validate(Deal.from_json(data)).violations] == [
        ("knee.size", "sides[1].players[0].knee")]
    del data["sides"][1]["players"][0]["knee"]
    assert [(p.code, p.where) for p in validate(Deal.from_json(data)).violations] == [
        ("knee.picked_up", "sides[1].players[0].knee_picked_up")]
    del data["sides"][1]["players"][0]["knee_picked_up"]
    assert validate(Deal.from_json(data)).violations == ()


def test_going_out_needs_the_knee_played_and_a_sheet_that_lets_a_player_out_before_the_foot_does_not():
    # Ann went out; Cal says he never picked up his knee, though he played his foot
    deal = deal_with(("sides.0.players.0.knee_picked_up", False))
    assert [(p.code, p.option, p.where) for p in validate(deal).violations] == [
        ("knee.picked_up", "knee_size", "sides[0].players[0].knee_picked_up"),
        ("went_out.cards_left", "go_out_foot", "sides[0].players[0].knee_picked_up")]
    relaxed = deal_with(("sheet", {**HKF, "go_out_foot": False}), ("sides.0.players.0.knee_picked_up", False))
    assert [p.code for p in validate(relaxed).violations] == ["knee.picked_up"]


# -- the referee --------------------------------------------------------------------------------


def test_the_referee_asks_for_the_knee_before_going_out_in_a_deal_with_one():
    sheet = load_sheet(HKF)
    assert can_go_out(sheet, 1, books=Books(clean=1, dirty=1)).yes
    waiting = can_go_out(sheet, 1, books=Books(clean=1, dirty=1), knee_played=False)
    assert not waiting.yes
    assert waiting.reasons[0] == (False, "The knee, and then the foot, must be picked up and played before going out.",
                                  "go_out_foot")
    # the knee as the foot when not said; one reason says both (the foot comes after the knee)
    assert [r.message for r in can_go_out(sheet, 1, books=Books(1, 1), foot_played=False).reasons if not r.ok] == [
        "The knee, and then the foot, must be picked up and played before going out."]
    assert [r.message for r in can_go_out(sheet, 1, books=Books(1, 1), foot_played=False, knee_played=True).reasons
            if not r.ok] == ["The foot must be picked up and played before going out."]
    assert [r.message for r in can_go_out(sheet, 1, books=Books(1, 1)).reasons[1:3]] == [
        "The knee has been picked up and played.", "The foot has been picked up and played."]
    # a deal without a knee asks nothing of one
    tail = load_sheet({"preset": "common", "knee_size": [13, 0, 0, 0]})
    assert can_go_out(tail, 2, books=Books(1, 1), knee_played=False).yes
    assert not can_go_out(tail, 1, books=Books(1, 1), knee_played=False).yes
    assert can_go_out(preset("common"), 1, books=Books(1, 1), knee_played=False).yes
    answer = ask_go_out(sheet, {"books": {"clean": 1, "dirty": 1}, "knee_played": "no"}, forms=True)
    assert not answer.yes and answer.reasons[0].option == "go_out_foot"
    assert ask_go_out(sheet, {"books": {"clean": 1, "dirty": 1}, "knee_played": True}).yes


def test_the_deal_form_s_progress_says_who_has_not_played_the_knee():
    deal = deal_with(("sides.0.players.0.knee_picked_up", False), ("sides.0.players.1.knee_picked_up", False),
                     ("ending", "stock_out"), ("went_out", None))
    shown = going_out_progress(deal.sheet, deal, deal.sheet.going_out_books(1), 0)
    assert shown.why_not == ("Ann: The knee, and then the foot, must be picked up and played before going out.",
                             "Cal: The knee, and then the foot, must be picked up and played before going out.")
    assert going_out_progress(deal.sheet, deal_with(), deal.sheet.going_out_books(1), 0).why_not == ()


# -- the pad and the house-rule sheet -----------------------------------------------------------


def test_the_blank_pad_prints_the_knee_s_lines_only_in_a_deal_with_a_knee():
    sheet = load_sheet({**HKF, "knee_size": [13, 13, 13, 0]})
    feet = ["Black threes in an unopened foot × -300", "Red threes in an unopened foot × -500"]
    knee = ["Cards in unopened knees (minus)", "Black threes in an unopened knee × -300",
            "Red threes in an unopened knee × -500"]
    first = ["Melded card points", "Clean books × 500", "Dirty books × 300", "Red threes laid × 100",
             "Going out (+100)", "Cards left in hands and feet (minus)", "Red threes left in a hand × -500"]
    assert [line.label for line in pad_lines(sheet, 1)] == first + knee + feet
    assert [line.label for line in pad_lines(sheet, 4)] == first + feet
    assert deal_conditions(sheet, 1).endswith("This deal: hand 15, knee 13, foot 11.")
    assert deal_conditions(sheet, 4).endswith("This deal: no knee.")
    assert pad_lines(preset("common"), 1) == pad_lines(preset("common").replace(knee_size=PerDeal((0,))), 1)
    assert "knee" not in deal_conditions(preset("pagat"), 2)


def test_the_house_rule_sheet_names_the_knee_only_on_a_sheet_with_one():
    def text(sheet: Any) -> str:
        return " ".join(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(house_rules(sheet))).pages)
                        .split())
    with_knee = text(load_sheet(HKF))
    assert "Cards in the knee" in with_knee and "minus 500 points, in a knee never picked up too" in with_knee
    assert "knee" not in text(preset("common")).lower()


def test_a_sheet_without_a_knee_scores_exactly_as_before():
    common = {"sheet": "common", "deal": 1, "ending": "went_out", "went_out": "Ann", "sides": [
        {"name": "Ann", "melds": ["K K K K K K K", "Q Q Q Q Q 2 2"],
         "players": [{"name": "Ann", "foot_picked_up": True}]},
        {"name": "Bea", "melds": ["J J J"], "players": [
            {"name": "Bea", "foot_picked_up": False, "cards_left": "A 3B", "foot": "3R A 10 10 10 8 8 7 6 5 JK"}]}]}
    deal = Deal.from_json(common)
    # melded 70 + 50 + 40, clean 500, dirty 300, going out 100
    assert score(deal).totals() == {"Ann": 70 + 50 + 40 + 500 + 300 + 100,
                                    # jacks 30 - A 20 - 3B 5 - the foot (JK 50, A 20, 10 10 10 8 8 50, 7 6 5 15)
                                    "Bea": 30 - 20 - 5 - 50 - 20 - 50 - 15}
    assert not {"knee", "black_threes.knee", "red_threes.knee"} & {step.code for step in plan(deal.sheet, 1).player}


def test_knee_size_is_on_the_comparison_the_api_the_command_and_the_openapi_document(tmp_path, capsys):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "s.sqlite"), "SECRET_KEY": "t"})
    client = app.test_client()
    compare = client.get("/sheets/compare", query_string={"a": json.dumps(HKF), "b": "common"})
    assert compare.status_code == 200 and "Cards in the knee" in compare.get_data(as_text=True)
    listed = {option["name"]: option for group in client.get("/api/v1/sheets/common").get_json()["groups"]
              for option in group["options"]}
    assert listed["knee_size"]["label"] == "Cards in the knee" and listed["knee_size"]["words"] == "no knee"
    path = tmp_path / "hkf.json"
    path.write_text(json.dumps(HKF), encoding="utf-8")
    assert main(["sheet", str(path)]) == 0
    assert "* Cards in the knee: 13" in capsys.readouterr().out
    assert main(["referee", "go-out", "--sheet", str(path), "--books", "1,1", "--knee-not-played"]) != 0
    assert "The knee, and then the foot, must be picked up and played" in capsys.readouterr().out
    option = document()["components"]["schemas"]["SheetObject"]["properties"]["knee_size"]
    assert option["title"] == "Cards in the knee" and option["default"] == 0
