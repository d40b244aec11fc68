"""Specification: the worked examples the sources state (VARIATIONS.md, "Worked examples
that the sources state"), one test each.
"""

from __future__ import annotations

from scorepad.rules import Card, Cards, Deal, Meld, Rank, preset, score, validate
from scorepad.rules.choices import OpeningPileCards
from scorepad.rules.melds import meld_problems


def _deal(sheet: object, ann: dict, bea: dict | None = None, **deal: object) -> Deal:
    """Two players on the common sheet (or four in partnerships when sides are given)."""
    data = {"sheet": sheet, "deal": 1, "ending": "stock_out", "sides": [
        {"name": "Ann", "melds": [], "players": [{"name": "Ann", "foot_picked_up": True}], **ann},
        {"name": "Bea", "melds": ["J J J"], "players": [{"name": "Bea", "foot_picked_up": True}], **(bea or {})},
    ]}
    data.update(deal)
    return Deal.from_json(data)


def _card_points(sheet, melds: list[str]) -> int:
    """The points of the cards in some melds (the opening minimum counts cards only)."""
    return sum(sheet.value(card) * n for text in melds for card, n in Meld.from_json(text).cards().items())


def _melded_points(deal: Deal, side: int) -> int:
    return sum(line.points for line in score(deal).sides[side].lines if line.code == "melds.cards")


def _codes(preset_id: str, meld: Meld) -> list[str]:
    return [p.code for p in meld_problems(preset(preset_id), meld)]


# -- "A clean book of kings: 7 x 10 = 70 card points, plus 500." ----------------------------


def test_clean_book_of_kings_is_seventy_card_points_plus_500():
    deal = _deal("common", {"melds": ["K K K K K K K"]})
    assert validate(deal).ok
    ann = score(deal).sides[0]
    assert [(line.code, line.count, line.each, line.points, line.option) for line in ann.lines] == [
        ("melds.cards", 7, 10, 70, "card_values"),
        ("books.clean", 1, 500, 500, "clean_book_bonus"),
    ]
    assert ann.total == 7 * 10 + 500 == 570


def test_a_book_of_kings_with_a_wild_card_is_dirty_300():
    deal = _deal("common", {"melds": ["K K K K K K 2"]})
    assert score(deal).sides[0].total == 60 + 20 + 300


# -- Opening with three kings and three queens: 60, enough in deal 1, not in deal 3 ---------


def test_opening_three_kings_and_three_queens_is_60_and_meets_deal_one_minimum_of_50():
    sheet = preset("common")
    melds = ["K K K", "Q Q Q"]
    assert _card_points(sheet, melds) == 3 * 10 + 3 * 10 == 60
    assert sheet.opening_minimum(1) == 50
    assert _card_points(sheet, melds) >= sheet.opening_minimum(1)
    # the same two melds scored in a deal: the melded card points are those 60
    assert _melded_points(_deal("common", {"melds": melds}), 0) == 60


def test_opening_three_kings_and_three_queens_is_not_enough_in_deal_three_minimum_120():
    sheet = preset("common")
    assert sheet.opening_minimum(3) == 120
    assert _card_points(sheet, ["K K K", "Q Q Q"]) < sheet.opening_minimum(3)
    assert _melded_points(_deal("common", {"melds": ["K K K", "Q Q Q"]}, deal=3), 0) == 60


def test_opening_minimum_counts_cards_only_not_book_bonuses_or_red_threes():
    # a clean book laid at once is 70 card points, short of deal 2's 90 even with its 500 bonus
    sheet = preset("common")
    deal = _deal("common", {"melds": ["Kx7"], "red_threes": 1}, deal=2)
    assert _melded_points(deal, 0) == 70 < sheet.opening_minimum(2) == 90
    assert score(deal).sides[0].total == 70 + 500 + 100


# -- Pagat wild limit ----------------------------------------------------------------------


def test_pagat_wild_limit_allows_two_naturals_and_one_wild():
    assert _codes("pagat", Meld(Rank.KING, naturals=2, twos=1)) == []
    assert _codes("pagat", Meld(Rank.KING, naturals=2, jokers=1)) == []


def test_pagat_wild_limit_refuses_three_naturals_and_two_wilds():
    problems = list(meld_problems(preset("pagat"), Meld(Rank.KING, naturals=3, twos=1, jokers=1)))
    assert [(p.code, p.option) for p in problems] == [("meld.wild_ratio", "wild_ratio")]


def test_pagat_wild_limit_one_wild_in_three_to_five_cards_two_in_six_or_seven():
    for size in (3, 4, 5):
        assert _codes("pagat", Meld(Rank.KING, size - 1, 1)) == []
        assert _codes("pagat", Meld(Rank.KING, size - 2, 2)) == ["meld.wild_ratio"]
    for size in (6, 7):
        assert _codes("pagat", Meld(Rank.KING, size - 2, 2)) == []
        assert _codes("pagat", Meld(Rank.KING, size - 3, 3)) == ["meld.wild_ratio"]


def test_pagat_wild_limit_in_a_whole_deal():
    deal = _deal("pagat", {"melds": ["K K 2"], "players": [{"name": "Ann", "foot_picked_up": True},
                                                            {"name": "Cy", "foot_picked_up": True}]},
                 {"players": [{"name": "Bea", "foot_picked_up": True}, {"name": "Dan", "foot_picked_up": True}]})
    assert validate(deal).codes() == []
    deal = _deal("pagat", {"melds": ["K K K 2 JK"], "players": [{"name": "Ann", "foot_picked_up": True},
                                                                 {"name": "Cy", "foot_picked_up": True}]},
                 {"players": [{"name": "Bea", "foot_picked_up": True}, {"name": "Dan", "foot_picked_up": True}]})
    assert validate(deal).codes() == ["meld.wild_ratio"]


# -- Common wild limit ---------------------------------------------------------------------


def test_common_wild_limit_two_naturals_and_two_wilds_is_not_a_meld():
    assert _codes("common", Meld(Rank.QUEEN, naturals=2, twos=2)) == ["meld.wild_ratio"]
    assert _codes("common", Meld(Rank.QUEEN, naturals=2, twos=1)) == []


def test_common_wild_limit_a_book_of_four_naturals_and_three_wilds_is_legal():
    meld = Meld(Rank.QUEEN, naturals=4, twos=2, jokers=1)
    assert _codes("common", meld) == []
    assert meld.book_kind(preset("common")).value == "dirty"


def test_common_wild_limit_three_naturals_and_four_wilds_is_not():
    problems = list(meld_problems(preset("common"), Meld(Rank.QUEEN, naturals=3, twos=2, jokers=2)))
    # naturals must outnumber wilds, and a meld holds at most three wild cards: both are broken
    assert [(p.code, p.option) for p in problems] == [("meld.wild_ratio", "wild_ratio"),
                                                      ("meld.wild_ratio", "max_wilds")]


def test_common_a_meld_of_wild_cards_only_is_not_allowed():
    assert [(p.code, p.option) for p in meld_problems(preset("common"), Meld.from_json("2 2 JK"))] == [
        ("meld.rank", "wild_books")]


# -- Pagat pile: 9 9 + 2 in hand take a discarded 9 ------------------------------------------


def test_pagat_pile_nine_nine_nine_two_is_fifty_and_meets_deal_one_minimum():
    sheet = preset("pagat")
    hand = Cards.parse("9 9 2")
    top = Cards.parse("9")
    meld = Meld.from_cards(hand + top)
    assert meld == Meld(Rank.NINE, naturals=3, twos=1)
    assert _codes("pagat", meld) == []  # 3 naturals >= 2 x 1 wild
    assert hand[Card.NINE] >= 2 and top[Card.NINE] == 1  # a natural pair of the top card's rank
    points = _card_points(sheet, [str(hand + top)])
    assert points == 10 + 10 + 10 + 20 == 50
    assert points >= sheet.opening_minimum(1)


def test_pagat_pile_a_two_buried_in_the_pile_does_not_count_toward_the_minimum():
    sheet = preset("pagat")
    assert sheet.opening_pile_cards is OpeningPileCards.TOP_CARD
    hand = Cards.parse("9 9")
    top = Cards.parse("9")
    # the buried 2 is taken with the pile, but only the hand's cards and the top card count
    counted = _card_points(sheet, [str(hand + top)])
    assert counted == 30 < sheet.opening_minimum(1)


# -- A red three in a foot never picked up, on Pagat: -100 instead of +100 -----------------


def _pagat_red_three_deal(dan_foot_picked_up: bool, ending: str = "went_out") -> Deal:
    """Pagat's sheet: Ann (North-South) goes out with the books it asks for, or the stock runs out."""
    dan = ({"name": "Dan", "foot_picked_up": True, "cards_left": ""} if dan_foot_picked_up else
           {"name": "Dan", "foot_picked_up": False, "cards_left": "", "foot": "3R 4 4 4 4 4 4 4 4 4 4 4 4"})
    went_out = {"ending": "went_out", "went_out": "Ann"} if ending == "went_out" else {"ending": "stock_out"}
    return Deal.from_json({"sheet": "pagat", "deal": 1, **went_out, "sides": [
        {"name": "North-South", "players": [
            {"name": "Ann", "foot_picked_up": True}, {"name": "Cy", "foot_picked_up": True}],
         "melds": ["K K K K K K K", "A A A A A A A", "J J J J J 2 2", "10 10 10 10 10 2 2", "2 2 2 2 JK JK JK"]},
        {"name": "East-West", "melds": ["Q Q Q"], "red_threes": 0 if not dan_foot_picked_up else 1,
         "players": [{"name": "Bea", "foot_picked_up": True}, dan]},
    ]})


def test_pagat_red_three_in_a_foot_never_picked_up_is_minus_100_instead_of_plus_100():
    """Pagat's sheet: a red three "still buried because the opponents went out" is minus 100."""
    buried = _pagat_red_three_deal(dan_foot_picked_up=False)
    assert validate(buried).codes() == []
    lines = [(ln.code, ln.count, ln.each, ln.points, ln.option, ln.player) for ln in score(buried).sides[1].lines]
    assert ("red_threes.foot", 1, -100, -100, "red_three_penalty_foot", "Dan") in lines
    assert not any(line[0] == "red_threes.laid" for line in lines)
    # the foot's twelve 4s count against as well: 12 x 5
    assert score(buried).sides[1].total == 30 - 60 - 100 == -130
    # had Dan reached his foot, the same red three would be laid: +100
    laid = _pagat_red_three_deal(dan_foot_picked_up=True)
    assert validate(laid).codes() == []
    assert score(laid).sides[1].total == 30 + 100 == 130


def test_pagat_red_three_in_a_foot_costs_nothing_when_no_opponent_went_out():
    """Pagat's sheet (version 2, red_three_penalty_foot_when 'opponents-out'): the stock ran
    out, so no opponent buried the foot: its red three costs nothing, its 4s still count."""
    stock_out = _pagat_red_three_deal(dan_foot_picked_up=False, ending="stock_out")
    assert validate(stock_out).codes() == []
    assert not any(ln.code == "red_threes.foot" for ln in score(stock_out).sides[1].lines)
    assert score(stock_out).sides[1].total == 30 - 60 == -30


def test_a_red_three_in_a_foot_never_picked_up_costs_nothing_where_the_sheet_is_silent():
    deal = Deal.from_json({"sheet": "common", "deal": 1, "ending": "stock_out", "sides": [
        {"name": "Ann", "melds": ["K K K"], "players": [{"name": "Ann", "foot_picked_up": True}]},
        {"name": "Bea", "melds": ["Q Q Q"], "players": [
            {"name": "Bea", "foot_picked_up": False, "foot": "3R 4 4 4 4 4 4 4 4 4 4"}]}]})
    assert validate(deal).codes() == []
    assert score(deal).sides[1].total == 30 - 50


# -- A deal that ends because the stock ran out pays nobody the going-out bonus ------------


def test_stock_out_pays_nobody_the_going_out_bonus():
    melds = {"melds": ["Kx7", "Q Q Q Q Q 2 2"]}
    went_out = _deal("common", melds, ending="went_out", went_out="Ann")
    assert validate(went_out).codes() == []
    assert score(went_out).sides[0].total == 70 + 50 + 40 + 500 + 300 + 100

    stock_out = _deal("common", melds, ending="stock_out")
    assert validate(stock_out).codes() == []
    for side in score(stock_out).sides:
        assert not any(line.code == "going_out" for line in side.lines)
    assert score(stock_out).sides[0].total == 70 + 50 + 40 + 500 + 300


def test_stock_out_naming_someone_who_went_out_is_refused_and_still_pays_no_bonus():
    deal = _deal("common", {"melds": ["Kx7", "Q Q Q Q Q 2 2"]}, ending="stock_out", went_out="Ann")
    assert validate(deal).codes() == ["went_out.player"]
    assert all(line.code != "going_out" for side in score(deal).sides for line in side.lines)
