"""Specification: scoring full deals under each preset, worked by hand.

Each deal is legal (the referee finds no violation) and its expected totals are written as the
sum a player would add up at the table: melded card points, book bonuses, red threes laid,
going out, then minus every card still in a hand or an unopened foot.
"""

from __future__ import annotations

import json

import pytest

from scorepad.rules import Deal, load_sheet, score, validate


def lines(deal: Deal, side: int) -> list[tuple]:
    """(code, count, each, points, option, player) for each line of a side's score."""
    return [(ln.code, ln.count, ln.each, ln.points, ln.option, ln.player) for ln in score(deal).sides[side].lines]


def total_of(deal: Deal, side: int) -> int:
    return score(deal).sides[side].total


def assert_legal(deal: Deal) -> None:
    report = validate(deal)
    assert report.violations == (), report.violations
    for _, _, player in deal.players():
        if not player.foot_picked_up:  # an unopened foot is exactly as dealt
            assert player.foot.total == deal.sheet.foot_size


# ---------------------------------------------------------------------------------------
# Pagat: 4 players, 2 partnerships
# ---------------------------------------------------------------------------------------

PAGAT_DEAL = {
    "sheet": "pagat", "deal": 2, "ending": "went_out", "went_out": "Ann",
    "sides": [
        {"name": "North-South", "red_threes": 2,
         "melds": ["Kx7", "Qx7", "Jx5 2 2", "10x5 JK 2", "2x4 JKx3", "A A A 2"],
         "players": [{"name": "Ann", "foot_picked_up": True, "cards_left": ""},
                     {"name": "Cy", "foot_picked_up": True, "cards_left": "7 4 3B"}]},
        {"name": "East-West", "red_threes": 1,
         "melds": ["8x6 2", "5 5 5"],
         "players": [{"name": "Bea", "foot_picked_up": True, "cards_left": "A K JK 2"},
                     {"name": "Dan", "foot_picked_up": False, "cards_left": "K Q",
                      "foot": "3R 9 9 9 6 6 5 4 A 2 JK Q 3B"}]},
    ],
}


def test_pagat_partnership_deal_going_out_side_with_a_wild_book():
    deal = Deal.from_json(PAGAT_DEAL)
    assert_legal(deal)
    # cards: A 3x20 + K 7x10 + Q 7x10 + J 5x10 + 10 5x10 + 2s 8x20 + jokers 4x50 = 660
    # books: 2 clean x 500, 2 dirty x 300, 1 wild x 1500; red threes 2 x 100; going out 100;
    # Cy still holds 7 4 3B: 3 x 5
    assert total_of(deal, 0) == 60 + 70 + 70 + 50 + 50 + 160 + 200 + 1000 + 600 + 1500 + 200 + 100 - 15 == 4045
    assert lines(deal, 0) == [
        ("melds.cards", 3, 20, 60, "card_values", None),
        ("melds.cards", 7, 10, 70, "card_values", None),
        ("melds.cards", 7, 10, 70, "card_values", None),
        ("melds.cards", 5, 10, 50, "card_values", None),
        ("melds.cards", 5, 10, 50, "card_values", None),
        ("melds.cards", 8, 20, 160, "card_values", None),
        ("melds.cards", 4, 50, 200, "card_values", None),
        ("books.clean", 2, 500, 1000, "clean_book_bonus", None),
        ("books.dirty", 2, 300, 600, "dirty_book_bonus", None),
        ("books.wild", 1, 1500, 1500, "wild_book_bonus", None),
        ("red_threes.laid", 2, 100, 200, "red_three_bonus", None),
        ("going_out", 1, 100, 100, "going_out_bonus", "Ann"),
        ("cards_left", 3, -5, -15, "card_values", "Cy"),
    ]
    labels = [line.label for line in score(deal).sides[0].lines]
    assert labels[:2] == ["Melded aces", "Melded kings"]
    assert labels[-1] == "Cy's hand: 7 4 3B"


def test_pagat_partnership_deal_side_with_an_unopened_foot_holding_a_red_three():
    deal = Deal.from_json(PAGAT_DEAL)
    # cards: 8 6x10 + 5 3x5 + one 2 = 95; one dirty book 300; one red three laid 100;
    # Bea holds A K JK 2 = 100; Dan holds K Q = 20; Dan's foot (13 cards) holds
    # JK 50 + A 2 40 + 9 9 9 Q 40 + 6 6 5 4 3B 25 = 155, and a red three: -100 on Pagat
    assert total_of(deal, 1) == 60 + 15 + 20 + 300 + 100 - 100 - 20 - 155 - 100 == 120
    assert lines(deal, 1) == [
        ("melds.cards", 6, 10, 60, "card_values", None),
        ("melds.cards", 3, 5, 15, "card_values", None),
        ("melds.cards", 1, 20, 20, "card_values", None),
        ("books.dirty", 1, 300, 300, "dirty_book_bonus", None),
        ("red_threes.laid", 1, 100, 100, "red_three_bonus", None),
        ("cards_left", 1, -50, -50, "card_values", "Bea"),
        ("cards_left", 2, -20, -40, "card_values", "Bea"),
        ("cards_left", 1, -10, -10, "card_values", "Bea"),
        ("cards_left", 2, -10, -20, "card_values", "Dan"),
        ("foot", 1, -50, -50, "card_values", "Dan"),
        ("foot", 2, -20, -40, "card_values", "Dan"),
        ("foot", 4, -10, -40, "card_values", "Dan"),
        ("foot", 5, -5, -25, "card_values", "Dan"),
        ("red_threes.foot", 1, -100, -100, "red_three_penalty_foot", "Dan"),
    ]
    assert score(deal).totals() == {"North-South": 4045, "East-West": 120}


def test_pagat_individual_deal_is_refused_with_table_sides():
    data = {"sheet": "pagat", "deal": 1, "ending": "stock_out", "sides": [
        {"name": name, "melds": ["K K K"], "players": [{"name": name, "foot_picked_up": True}]}
        for name in ("Ann", "Bea", "Cy", "Dan")]}
    deal = Deal.from_json(data)
    report = validate(deal)
    assert report.codes() == ["table.sides"]
    assert report.violations[0].option == "side_sizes"
    # the score is still worked out, as recorded: 3 kings each
    assert set(score(deal).totals().values()) == {30}


# ---------------------------------------------------------------------------------------
# Common: partnerships of 2 (optional) and individuals
# ---------------------------------------------------------------------------------------

COMMON_PARTNERSHIP_DEAL = {
    "sheet": "common", "deal": 3, "ending": "went_out", "went_out": "Dan",
    "sides": [
        {"name": "Ann & Bea", "red_threes": 1,
         "melds": ["Ax7", "9 9 9 9 2 2 JK", "6 6 6 6 6"],
         "players": [{"name": "Ann", "foot_picked_up": True, "cards_left": "Q 3B"},
                     {"name": "Bea", "foot_picked_up": False, "cards_left": "K K",
                      "foot": "3R 8 8 8 7 7 5 4 2 JK A"}]},
        {"name": "Cy & Dan", "red_threes": 2,
         "melds": ["Kx7", "Q Q Q Q Q 2 JK", "J J J 2"],
         "players": [{"name": "Cy", "foot_picked_up": True, "cards_left": "10 9 4"},
                     {"name": "Dan", "foot_picked_up": True, "cards_left": ""}]},
    ],
}


def test_common_partnership_deal():
    deal = Deal.from_json(COMMON_PARTNERSHIP_DEAL)
    assert_legal(deal)
    # Ann & Bea: A 7x20 + 9 4x10 + 6 5x5 + 2s 2x20 + joker 50 = 295; clean 500; dirty 300;
    # red three 100; Ann holds Q 3B (15); Bea holds K K (20); Bea's unopened foot
    # 8 8 8 30 + 7 7 5 4 20 + 2 20 + JK 50 + A 20 = 140, its red three 0 on this sheet
    assert total_of(deal, 0) == 140 + 40 + 25 + 40 + 50 + 500 + 300 + 100 - 15 - 20 - 140 - 0 == 1020
    # Cy & Dan: K 70 + Q 50 + J 30 + 2s 2x20 + joker 50 = 240; clean 500; dirty 300 (the
    # unfinished J J J 2 earns no bonus); red threes 200; Dan went out 100; Cy holds 10 9 4
    assert total_of(deal, 1) == 70 + 50 + 30 + 40 + 50 + 500 + 300 + 200 + 100 - 10 - 10 - 5 == 1315
    side = lines(deal, 0)
    assert ("books.clean", 1, 500, 500, "clean_book_bonus", None) in side
    assert ("books.dirty", 1, 300, 300, "dirty_book_bonus", None) in side
    assert ("red_threes.laid", 1, 100, 100, "red_three_bonus", None) in side
    assert ("cards_left", 2, -10, -20, "card_values", "Bea") in side
    assert ("foot", 1, -50, -50, "card_values", "Bea") in side
    assert ("foot", 4, -5, -20, "card_values", "Bea") in side
    assert sum(line[3] for line in side if line[0] == "foot") == -140
    assert sum(line[3] for line in side if line[0] == "red_threes.foot") == 0  # common: not stated, 0
    assert not any(line[0] == "going_out" for line in side)
    assert ("going_out", 1, 100, 100, "going_out_bonus", "Dan") in lines(deal, 1)
    assert ("cards_left", 2, -10, -20, "card_values", "Cy") in lines(deal, 1)
    assert ("cards_left", 1, -5, -5, "card_values", "Cy") in lines(deal, 1)


COMMON_INDIVIDUAL_DEAL = {
    "sheet": "common", "deal": 4, "ending": "went_out", "went_out": "Cy",
    "sides": [
        {"name": "Ann", "red_threes": 1, "melds": ["Kx7", "5 5 5 5 2", "8 8 8"],
         "players": [{"name": "Ann", "foot_picked_up": True, "cards_left": "JK 7 3B"}]},
        {"name": "Bea", "melds": ["Q Q Q 2"],
         "players": [{"name": "Bea", "foot_picked_up": False, "cards_left": "A A 4",
                      "foot": "J J 10 10 9 6 5 2 JK 3B 3R"}]},
        {"name": "Cy", "red_threes": 2, "melds": ["Jx7", "10 10 10 10 10 2 JK", "A A A"],
         "players": [{"name": "Cy", "foot_picked_up": True, "cards_left": ""}]},
    ],
}


def test_common_individual_deal_of_three_players():
    deal = Deal.from_json(COMMON_INDIVIDUAL_DEAL)
    assert_legal(deal)
    # Ann: K 70 + 8 30 + 5 20 + one 2 20 = 140; clean 500; red three 100; holds JK 7 3B = 60
    # Bea: Q 30 + one 2 20 = 50; holds A A 4 = 45; unopened foot J J 10 10 9 = 50,
    #      6 5 3B = 15, 2 = 20, JK = 50, so 135; its red three costs nothing on common
    # Cy:  A 60 + J 70 + 10 50 + 2 20 + JK 50 = 250; clean 500; dirty 300; red threes 200;
    #      going out in deal 4 100
    assert score(deal).totals() == {
        "Ann": 70 + 30 + 20 + 20 + 500 + 100 - 50 - 5 - 5,
        "Bea": 30 + 20 - 40 - 5 - 50 - 15 - 20 - 50,
        "Cy": 60 + 70 + 50 + 20 + 50 + 500 + 300 + 200 + 100,
    } == {"Ann": 680, "Bea": -130, "Cy": 1350}
    assert lines(deal, 0)[-2:] == [("cards_left", 1, -50, -50, "card_values", "Ann"),
                                   ("cards_left", 2, -5, -10, "card_values", "Ann")]
    assert lines(deal, 2)[-1] == ("going_out", 1, 100, 100, "going_out_bonus", "Cy")


def test_a_deal_score_can_be_negative():
    deal = Deal.from_json(COMMON_INDIVIDUAL_DEAL)
    assert score(deal).sides[1].total < 0


# ---------------------------------------------------------------------------------------
# Bicycle
# ---------------------------------------------------------------------------------------

BICYCLE_DEAL = {
    "sheet": "bicycle", "deal": 1, "ending": "went_out", "went_out": "Bea",
    "sides": [
        {"name": "North-South", "red_threes": 1,
         "melds": ["Kx7", "Q Q Q Q 2 2 JK", "A A A A 2"],
         "players": [{"name": "Ann", "foot_picked_up": True, "cards_left": "8 8 3B"},
                     {"name": "Cy", "foot_picked_up": False, "cards_left": "9 9",
                      "foot": "J J J 10 10 6 6 5 4 2 3R"}]},
        {"name": "East-West",
         "melds": ["7x7", "8 8 8 8 JK JK 2", "5 5 5"],
         "players": [{"name": "Bea", "foot_picked_up": True, "cards_left": ""},
                     {"name": "Dan", "foot_picked_up": True, "cards_left": "K"}]},
    ],
}


def test_bicycle_partnership_deal():
    deal = Deal.from_json(BICYCLE_DEAL)
    assert_legal(deal)
    # North-South: A 80 + K 70 + Q 40 + 2s 3x20 + JK 50 = 300; clean 500; dirty 300; red
    # three 100; Ann holds 8 8 3B = 25; Cy holds 9 9 = 20; Cy's foot J J J 10 10 = 50,
    # 6 6 5 4 = 20, 2 = 20, and a red three Bicycle does not charge for
    assert total_of(deal, 0) == 80 + 70 + 40 + 60 + 50 + 500 + 300 + 100 - 25 - 20 - 90 == 1065
    # East-West: 8 40 + 7 35 + 5 15 + 2 20 + jokers 100 = 210; clean 500; dirty 300; going out
    # 100; Dan holds a king
    assert total_of(deal, 1) == 40 + 35 + 15 + 20 + 100 + 500 + 300 + 100 - 10 == 1100
    assert ("melds.cards", 2, 50, 100, "card_values", None) in lines(deal, 1)
    assert ("going_out", 1, 100, 100, "going_out_bonus", "Bea") in lines(deal, 1)
    assert ("cards_left", 2, -10, -20, "card_values", "Ann") in lines(deal, 0)
    assert ("cards_left", 1, -5, -5, "card_values", "Ann") in lines(deal, 0)
    assert ("foot", 5, -10, -50, "card_values", "Cy") in lines(deal, 0)


def test_bicycle_individual_deal_is_refused_with_table_sides():
    data = {"sheet": "bicycle", "deal": 1, "ending": "stock_out", "sides": [
        {"name": name, "melds": ["K K K"], "players": [{"name": name, "foot_picked_up": True}]}
        for name in ("Ann", "Bea", "Cy", "Dan")]}
    assert validate(Deal.from_json(data)).codes() == ["table.sides"]


# ---------------------------------------------------------------------------------------
# Gather Together Games
# ---------------------------------------------------------------------------------------

GATHER_TOGETHER_DEAL = {
    "sheet": "gather-together", "deal": 3, "ending": "went_out", "went_out": "Ann",
    "sides": [
        {"name": "North-South", "red_threes": 1,
         "melds": ["Kx7", "Q Q Q Q 2 2 2", "5 5 2 2"],
         "players": [{"name": "Ann", "foot_picked_up": True, "cards_left": ""},
                     {"name": "Cy", "foot_picked_up": True, "cards_left": "J 6"}]},
        {"name": "East-West",
         "melds": ["6 6 6 JK"],
         "players": [{"name": "Bea", "foot_picked_up": True, "cards_left": "A"},
                     {"name": "Dan", "foot_picked_up": False, "cards_left": "9",
                      "foot": "A A 9 9 9 7 6 4 2 JK 3R"}]},
    ],
}


def test_gather_together_partnership_deal():
    deal = Deal.from_json(GATHER_TOGETHER_DEAL)
    assert_legal(deal)
    # North-South: K 70 + Q 40 + 5 10 + 2s 5x20 = 220; clean 500; dirty 300 (4 queens and
    # 3 twos: wilds may equal, never outnumber); red three 100; going out 100; Cy holds J 6
    assert total_of(deal, 0) == 70 + 40 + 10 + 100 + 500 + 300 + 100 + 100 - 10 - 5 == 1205
    # East-West: 6 15 + JK 50; Bea holds A; Dan holds 9; Dan's foot A A 40 + 9 9 9 30 +
    # 7 6 4 15 + 2 20 + JK 50 = 155, red three 0 on this sheet
    assert total_of(deal, 1) == 15 + 50 - 20 - 10 - 155 == -120
    assert ("melds.cards", 5, 20, 100, "card_values", None) in lines(deal, 0)
    assert ("books.dirty", 1, 300, 300, "dirty_book_bonus", None) in lines(deal, 0)
    assert [line for line in lines(deal, 1) if line[0] == "foot"] == [
        ("foot", 1, -50, -50, "card_values", "Dan"),
        ("foot", 3, -20, -60, "card_values", "Dan"),
        ("foot", 3, -10, -30, "card_values", "Dan"),
        ("foot", 3, -5, -15, "card_values", "Dan"),
    ]


def test_gather_together_individual_deal_is_refused_with_table_sides():
    data = {"sheet": "gather-together", "deal": 1, "ending": "stock_out", "sides": [
        {"name": name, "melds": ["K K K"], "players": [{"name": name, "foot_picked_up": True}]}
        for name in ("Ann", "Bea", "Cy", "Dan")]}
    assert validate(Deal.from_json(data)).codes() == ["table.sides"]


# ---------------------------------------------------------------------------------------
# Sheet options that change the score
# ---------------------------------------------------------------------------------------


def _two_player(sheet: object, ann: dict, bea: dict | None = None, **deal: object) -> Deal:
    data = {"sheet": sheet, "deal": 1, "ending": "stock_out", "sides": [
        {"name": "Ann", "melds": ["K K K"], "players": [{"name": "Ann", "foot_picked_up": True}], **ann},
        {"name": "Bea", "melds": ["Q Q Q"], "players": [{"name": "Bea", "foot_picked_up": True}], **(bea or {})},
    ]}
    data.update(deal)
    return Deal.from_json(data)


def test_special_book_bonus_replaces_the_clean_book_bonus():
    sheet = {"preset": "common", "special_books": {"7": 1000}}
    deal = _two_player(sheet, {"melds": ["7x7", "7 7 7 7 2 2 JK"]})
    assert_legal(deal)
    # 7s 11x5 + 2s 2x20 + joker 50; the clean book of 7s 1000 (not 500); the dirty one 300
    assert total_of(deal, 0) == 55 + 40 + 50 + 1000 + 300 == 1445
    assert ("books.special", 1, 1000, 1000, "special_books", None) in lines(deal, 0)
    assert not any(line[0] == "books.clean" for line in lines(deal, 0))


def test_going_out_bonus_rising_by_deal():
    sheet = {"preset": "common", "going_out_bonus": [100, 200, 300, 400]}
    deal = _two_player(sheet, {"melds": ["Kx7", "Q Q Q Q Q 2 2"]}, {"melds": ["J J J"]},
                       deal=3, ending="went_out", went_out="Ann")
    assert_legal(deal)
    assert ("going_out", 1, 300, 300, "going_out_bonus", "Ann") in lines(deal, 0)
    assert total_of(deal, 0) == 70 + 50 + 40 + 500 + 300 + 300 == 1260


def test_red_three_left_in_hand_costs_what_the_sheet_says():
    deal = _two_player({"preset": "common", "red_three_penalty_hand": 500},
                       {"players": [{"name": "Ann", "foot_picked_up": True, "cards_left": "3R 3R K"}]})
    assert ("red_threes.hand", 2, -500, -1000, "red_three_penalty_hand", "Ann") in lines(deal, 0)
    assert total_of(deal, 0) == 30 - 10 - 1000 == -980
    # on the plain common sheet a red three left in hand costs nothing (a warning asks to check it)
    plain = _two_player("common", {"players": [{"name": "Ann", "foot_picked_up": True, "cards_left": "3R 3R K"}]})
    assert total_of(plain, 0) == 30 - 10


def test_black_three_left_in_hand_counts_what_the_sheet_says():
    deal = _two_player({"preset": "common", "card_values": {"3B": 300}},
                       {"players": [{"name": "Ann", "foot_picked_up": True, "cards_left": "3B"}]})
    assert lines(deal, 0)[-1] == ("cards_left", 1, -300, -300, "card_values", "Ann")
    assert total_of(deal, 0) == 30 - 300


def test_changed_card_values_score_melds_and_cards_left():
    deal = _two_player({"preset": "common", "card_values": {"9": 5}},
                       {"melds": ["9 9 9"], "players": [{"name": "Ann", "foot_picked_up": True, "cards_left": "9 8"}]})
    assert total_of(deal, 0) == 15 - 10 - 5 == 0


def test_cut_bonus_is_paid_where_the_sheet_has_one():
    ann = {"players": [{"name": "Ann", "foot_picked_up": True, "cut_bonus": True}]}
    paid = _two_player({"preset": "common", "cut_bonus": 100}, ann)
    assert_legal(paid)
    assert ("cut_bonus", 1, 100, 100, "cut_bonus", "Ann") in lines(paid, 0)
    assert total_of(paid, 0) == 30 + 100
    unpaid = _two_player("common", ann)
    assert validate(unpaid).codes() == ["cut_bonus"]
    assert total_of(unpaid, 0) == 30


def test_a_picked_up_foot_is_not_charged_as_an_unopened_foot():
    # the referee reports the recorded foot (foot.picked_up); the score charges only cards left
    deal = _two_player("common", {"players": [{"name": "Ann", "foot_picked_up": True, "cards_left": "K",
                                                "foot": "JK"}]})
    assert validate(deal).codes() == ["foot.picked_up"]
    assert total_of(deal, 0) == 30 - 10


def test_wild_cards_in_a_meld_score_their_own_points():
    deal = _two_player("common", {"melds": ["4 4 4 JK 2"]})
    assert_legal(deal)
    assert total_of(deal, 0) == 15 + 50 + 20


def test_an_unfinished_meld_earns_no_book_bonus():
    deal = _two_player("common", {"melds": ["Kx6"]})
    assert total_of(deal, 0) == 60
    assert [line[0] for line in lines(deal, 0)] == ["melds.cards"]


def test_each_side_total_is_the_sum_of_its_lines():
    for data in (PAGAT_DEAL, COMMON_PARTNERSHIP_DEAL, COMMON_INDIVIDUAL_DEAL, BICYCLE_DEAL, GATHER_TOGETHER_DEAL):
        for side in score(Deal.from_json(data)).sides:
            assert side.total == sum(line.points for line in side.lines)
            assert all(line.points == line.count * line.each for line in side.lines)


def test_score_json_carries_totals_and_lines():
    breakdown = score(Deal.from_json(PAGAT_DEAL))
    out = json.loads(json.dumps([side.to_json() for side in breakdown.sides]))
    assert [side["total"] for side in out] == [4045, 120]
    going_out = [line for line in out[0]["lines"] if line["code"] == "going_out"][0]
    assert going_out == {"code": "going_out", "label": "Going out", "count": 1, "each": 100, "points": 100,
                         "option": "going_out_bonus", "player": "Ann"}
    assert out[0]["lines"][0]["player"] is None  # a line of the side's own: the key is there, null


@pytest.mark.parametrize("data", [PAGAT_DEAL, COMMON_PARTNERSHIP_DEAL, COMMON_INDIVIDUAL_DEAL, BICYCLE_DEAL,
                                  GATHER_TOGETHER_DEAL], ids=["pagat", "common-2v2", "common-3", "bicycle",
                                                              "gather-together"])
def test_every_card_of_a_deal_scores_once(data):
    """Melded cards add, held cards subtract: moving a card from a hand to a meld changes
    the side's score by twice its value (before bonuses)."""
    deal = Deal.from_json(data)
    sheet = deal.sheet
    for i, side in enumerate(deal.sides):
        melded = sum(line.points for line in score(deal).sides[i].lines if line.code == "melds.cards")
        expected = sum(sheet.value(card) * n for meld in side.melds for card, n in meld.cards().items())
        assert melded == expected
        held = sum(line.points for line in score(deal).sides[i].lines if line.code in ("cards_left", "foot"))
        expected_held = sum(sheet.value(card) * n for p in side.players for card, n in p.cards_left.items())
        expected_held += sum(sheet.value(card) * n for p in side.players if not p.foot_picked_up
                             for card, n in p.foot.items())
        assert held == -expected_held


def test_a_sheet_with_rising_books_to_go_out_is_read_for_the_deal_scored():
    sheet = load_sheet({"preset": "common", "books_to_go_out": [{"clean": 1, "dirty": 1}, {"clean": 2, "dirty": 1},
                                                                {"clean": 2, "dirty": 1}, {"clean": 2, "dirty": 1}]})
    deal = _two_player(sheet.to_json(), {"melds": ["Kx7", "Q Q Q Q Q 2 2"]}, deal=2, ending="went_out", went_out="Ann")
    assert validate(deal).codes() == ["went_out.books"]
    # the going-out bonus is still scored as recorded; the referee's report says it breaks the sheet
    assert ("going_out", 1, 100, 100, "going_out_bonus", "Ann") in lines(deal, 0)
