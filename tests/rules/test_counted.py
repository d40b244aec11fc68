"""Specification: a counted deal (books by kind, melded points, points left), as a paper score pad keeps it.

A side gives ``books`` and ``meld_points`` instead of ``melds``; a player gives
``cards_left_points`` (and ``red_threes_left``) instead of ``cards_left``. It is read, scored with
the same book, red-three and going-out lines as an itemised side, and validated as far as counts
allow. Every expected total is the sum a player would add up at the table.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from scorepad.rules import Deal, ReadError, score, validate

# The bench example, on the common preset (clean 500, dirty 300, red three +100,
# going out 100, 5 decks for 4 players): Us (Ann, Cal) v Them (Bea, Dan), deal 1.
BENCH: dict[str, Any] = {
    "sheet": "common", "deal": 1, "ending": "went_out", "went_out": "Ann",
    "sides": [
        {"name": "Us", "books": {"clean": 3, "dirty": 2}, "meld_points": 415, "red_threes": 4,
         "players": [{"name": "Ann", "foot_picked_up": True, "cards_left_points": 0},
                     {"name": "Cal", "foot_picked_up": True, "cards_left_points": 45}]},
        {"name": "Them", "books": {"clean": 1, "dirty": 1}, "meld_points": 235, "red_threes": 2,
         "players": [{"name": "Bea", "foot_picked_up": True, "cards_left_points": 30},
                     {"name": "Dan", "foot_picked_up": True, "cards_left_points": 55}]},
    ],
}


def bench(*edits: tuple[str, Any], sheet: dict[str, Any] | None = None) -> dict[str, Any]:
    """The bench deal with values set at dotted paths ("sides.0.meld_points"); None deletes."""
    data = copy.deepcopy(BENCH)
    if sheet:
        data["sheet"] = {"preset": "common", **sheet}
    for path, value in edits:
        *keys, last = [int(k) if k.isdigit() else k for k in path.split(".")]
        at = data
        for key in keys:
            at = at[key]
        if value is None:
            del at[last]
        else:
            at[last] = value
    return data


def lines(deal: Deal, side: int) -> list[tuple]:
    return [(ln.code, ln.count, ln.each, ln.points, ln.option, ln.player) for ln in score(deal).sides[side].lines]


def violations(deal: Deal) -> list[tuple]:
    return [(p.code, p.option, p.where, p.side, p.player) for p in validate(deal).violations]


# -- scoring ------------------------------------------------------------------------------------


def test_bench_deal_scores_us_2970_and_them_1150():
    deal = Deal.from_json(BENCH)
    # Us: 415 melded + 3 clean × 500 + 2 dirty × 300 + 4 red threes × 100 + going out 100 - Cal's 45
    assert lines(deal, 0) == [
        ("melds.points", 1, 415, 415, "card_values", None),
        ("books.clean", 3, 500, 1500, "clean_book_bonus", None),
        ("books.dirty", 2, 300, 600, "dirty_book_bonus", None),
        ("red_threes.laid", 4, 100, 400, "red_three_bonus", None),
        ("going_out", 1, 100, 100, "going_out_bonus", "Ann"),
        ("cards_left.points", 1, -45, -45, "card_values", "Cal"),
    ]
    assert score(deal).sides[0].total == 415 + 1500 + 600 + 400 + 100 - 45 == 2970
    # Them: 235 melded + 1 clean × 500 + 1 dirty × 300 + 2 red threes × 100 - Bea's 30 - Dan's 55
    assert lines(deal, 1) == [
        ("melds.points", 1, 235, 235, "card_values", None),
        ("books.clean", 1, 500, 500, "clean_book_bonus", None),
        ("books.dirty", 1, 300, 300, "dirty_book_bonus", None),
        ("red_threes.laid", 2, 100, 200, "red_three_bonus", None),
        ("cards_left.points", 1, -30, -30, "card_values", "Bea"),
        ("cards_left.points", 1, -55, -55, "card_values", "Dan"),
    ]
    assert score(deal).sides[1].total == 235 + 500 + 300 + 200 - 30 - 55 == 1150
    assert [ln.label for ln in score(deal).sides[1].lines][-1] == "Dan's hand: points"


def test_bench_deal_is_legal_with_one_unchecked_warning_per_counted_side():
    report = validate(Deal.from_json(BENCH))
    assert report.ok
    assert [(w.code, w.where, w.side) for w in report.warnings] == [
        ("counted.unchecked", "sides[0].books", "Us"), ("counted.unchecked", "sides[1].books", "Them")]


def test_a_counted_special_book_scores_its_bonus_and_not_a_clean_one():
    deal = Deal.from_json(bench(("sides.0.books", {"clean": 2, "dirty": 2, "special": {"7": 1}}),
                                sheet={"special_books": {"7": 1000}}))
    assert lines(deal, 0)[1:3] == [("books.clean", 2, 500, 1000, "clean_book_bonus", None),
                                   ("books.special", 1, 1000, 1000, "special_books", None)]
    assert score(deal).sides[0].total == 415 + 1000 + 1000 + 600 + 400 + 100 - 45 == 3470


def test_a_special_book_of_a_rank_the_sheet_names_no_bonus_for_is_a_clean_book():
    deal = Deal.from_json(bench(("sides.0.books", {"clean": 2, "dirty": 2, "special": {"7": 1}})))
    assert lines(deal, 0)[1] == ("books.clean", 3, 500, 1500, "clean_book_bonus", None)
    assert score(deal).sides[0].total == 2970


def test_red_threes_left_in_a_counted_hand_take_the_sheets_penalty():
    deal = Deal.from_json(bench(("sides.1.players.1.red_threes_left", 2), sheet={"red_three_penalty_hand": 300}))
    assert lines(deal, 1)[-2:] == [("cards_left.points", 1, -55, -55, "card_values", "Dan"),
                                   ("red_threes.hand", 2, -300, -600, "red_three_penalty_hand", "Dan")]
    assert score(deal).sides[1].total == 1150 - 2 * 300 == 550
    (warning,) = [w for w in validate(deal).warnings if w.code == "red_three.in_hand"]
    assert warning.where == "sides[1].players[1].red_threes_left"


def test_an_unopened_foot_beside_counted_points_is_still_cards():
    deal = Deal.from_json(bench(("sides.1.players.1.foot_picked_up", False),
                                ("sides.1.players.1.foot", "A A 10 10 10 8 8 7 6 5 JK")))
    # Dan's foot: A A 2 × 20, 10 10 10 8 8 5 × 10, 7 6 5 3 × 5, JK 50 = 40 + 50 + 15 + 50 = 155
    assert score(deal).sides[1].total == 1150 - 155 == 995
    assert validate(deal).ok


def test_an_itemised_side_and_a_counted_side_score_together():
    data = bench(("sides.1", {"name": "Them", "melds": ["K K K K K K K", "Q Q Q Q Q Q 2"], "red_threes": 2,
                              "players": [{"name": "Bea", "foot_picked_up": True, "cards_left": "K K K"},
                                          {"name": "Dan", "foot_picked_up": True, "cards_left": "7"}]}))
    deal = Deal.from_json(data)
    # 7 kings + 6 queens × 10 + one 2 × 20 = 150; 500 + 300 + 200; Bea's 30, Dan's 5
    assert score(deal).totals() == {"Us": 2970, "Them": 150 + 500 + 300 + 200 - 30 - 5}
    assert validate(deal).ok
    assert [w.code for w in validate(deal).warnings] == ["counted.unchecked"]


# -- reading ------------------------------------------------------------------------------------


def test_a_counted_deal_round_trips_through_its_canonical_json():
    deal = Deal.from_json(bench(("sides.1.players.1.red_threes_left", 1)))
    data = deal.to_json()
    assert data["sides"][0]["books"] == {"clean": 3, "dirty": 2, "wild": 0, "special": {}}
    assert "melds" not in data["sides"][0]
    assert data["sides"][1]["players"][1] == {"name": "Dan", "foot_picked_up": True, "cards_left_points": 55,
                                              "red_threes_left": 1}
    again = Deal.from_json(json.loads(json.dumps(data)))
    assert again == deal and again.to_json() == data


@pytest.mark.parametrize("edits, field", [
    ([("sides.0.melds", [])], "sides[0].books"),
    ([("sides.0.players.1.cards_left", "K")], "sides[0].players[1].cards_left_points"),
    ([("sides.0.meld_points", None)], "sides[0].meld_points"),
    ([("sides.0.books", None)], "sides[0].books"),
    ([("sides.0.meld_points", "415")], "sides[0].meld_points"),
    ([("sides.0.books", {"clean": 3, "dirty": 2, "mixed": 1})], "sides[0].books.mixed"),
    ([("sides.0.books", {"special": {"wild": 1}})], "sides[0].books.special.wild"),
    ([("sides.0.players.1.cards_left_points", 4.5)], "sides[0].players[1].cards_left_points"),
    ([("sides.0.meld_points", 100_001)], "sides[0].meld_points"),
    ([("sides.0.players.1.cards_left_points", None), ("sides.0.players.1.red_threes_left", 1)],
     "sides[0].players[1].red_threes_left"),
], ids=["melds-beside-books", "cards-left-beside-points", "books-without-meld-points",
        "meld-points-without-books", "points-as-text", "unknown-kind", "special-wild", "fractional-points",
        "past-the-bound",
        "red-threes-left-beside-cards"])
def test_unreadable_counted_input_names_the_field(edits, field):
    with pytest.raises(ReadError) as caught:
        Deal.from_json(bench(*edits))
    assert caught.value.field == field


# -- validation ---------------------------------------------------------------------------------


@pytest.mark.parametrize("path, value, where", [
    ("sides.0.meld_points", -5, "sides[0].meld_points"),
    ("sides.0.players.1.cards_left_points", -45, "sides[0].players[1].cards_left_points"),
    ("sides.0.players.1.red_threes_left", -1, "sides[0].players[1].red_threes_left"),
    ("sides.0.books.clean", -1, "sides[0].books.clean"),
])
def test_a_negative_count_is_count_negative(path, value, where):
    found = violations(Deal.from_json(bench((path, value))))
    assert ("count.negative", None, where) in [f[:3] for f in found]


def test_melded_points_below_the_cheapest_books_are_counted_meld_points():
    # common: a clean book is at least 7 × 5 = 35; a dirty one 6 × 5 + one 2 (20) = 50
    # (wilds are dearer than naturals, and the sheet allows 1 to 3 wilds in a book of 7);
    # Us: 3 × 35 + 2 × 50 = 205
    assert violations(Deal.from_json(bench(("sides.0.meld_points", 200)))) == [
        ("counted.meld_points", "card_values", "sides[0].meld_points", "Us", None)]
    assert violations(Deal.from_json(bench(("sides.0.meld_points", 205)))) == []
    # Them: 35 + 50 = 85
    assert violations(Deal.from_json(bench(("sides.1.meld_points", 80))))[0][0] == "counted.meld_points"
    assert violations(Deal.from_json(bench(("sides.1.meld_points", 85)))) == []


def test_melded_points_follow_the_sheets_card_values_and_wild_limit():
    # 2s and jokers worth 5, naturals 10 at least: a dirty book is cheapest with the most wilds
    # the common limit allows (3, naturals > wilds): 4 × 10 + 3 × 5 = 55; clean 7 × 10 = 70
    values = {"A": 20, "K": 10, "Q": 10, "J": 10, "10": 10, "9": 10, "8": 10, "7": 10, "6": 10, "5": 10,
              "4": 10, "2": 5, "JK": 5, "3B": 5}
    data = bench(("sides.1.meld_points", 70 + 55), sheet={"card_values": values})
    assert violations(Deal.from_json(data)) == []
    data = bench(("sides.1.meld_points", 70 + 55 - 5), sheet={"card_values": values})
    assert [v[0] for v in violations(Deal.from_json(data))] == ["counted.meld_points"]


def test_a_special_book_is_at_least_seven_cards_of_its_own_rank():
    # a special book of aces: 7 × 20 = 140; with the clean (35) and dirty (50) books, 225
    data = bench(("sides.1.books", {"clean": 1, "dirty": 1, "special": {"A": 1}}), ("sides.1.meld_points", 220),
                 sheet={"special_books": {"A": 2000}})
    assert [v[0] for v in violations(Deal.from_json(data))] == ["counted.meld_points"]
    data["sides"][1]["meld_points"] = 225
    assert violations(Deal.from_json(data)) == []


def test_melded_points_are_a_multiple_of_the_meldable_cards_gcd():
    # common: gcd(20, 10, 5, 20, 50) = 5, so 417 cannot be a sum of melded cards
    assert violations(Deal.from_json(bench(("sides.0.meld_points", 417)))) == [
        ("counted.meld_points", "card_values", "sides[0].meld_points", "Us", None)]


def test_going_out_needs_the_books_on_counts():
    data = bench(("sides.0.books", {"clean": 3}), ("sides.0.meld_points", 415))
    assert violations(Deal.from_json(data)) == [
        ("went_out.books", "books_to_go_out", "sides[0].books", "Us", "Ann")]


def test_a_counted_special_book_counts_as_clean_for_going_out():
    data = bench(("sides.0.books", {"dirty": 2, "special": {"7": 1}}), sheet={"special_books": {"7": 1000}})
    assert violations(Deal.from_json(data)) == []


def test_whoever_went_out_holds_no_points():
    assert violations(Deal.from_json(bench(("sides.0.players.0.cards_left_points", 10)))) == [
        ("went_out.cards_left", None, "sides[0].players[0].cards_left_points", "Us", "Ann")]
    assert violations(Deal.from_json(bench(("sides.0.players.0.red_threes_left", 1))))[0][:3] == (
        "went_out.cards_left", None, "sides[0].players[0].red_threes_left")


def test_the_partners_foot_on_counts():
    data = bench(("sides.0.players.1.foot_picked_up", False), ("sides.0.players.1.foot", "A A 10 10 10 8 8 7 6 5 JK"),
                 sheet={"go_out_partner_foot": True})
    assert violations(Deal.from_json(data)) == [
        ("went_out.partner_foot", "go_out_partner_foot", "sides[0].players[1].foot_picked_up", "Us", "Cal")]


def test_the_deal_number_on_counts():
    assert violations(Deal.from_json(bench(("deal", 5)))) == [("deal.number", "deals", "deal", None, None)]


def test_more_red_threes_than_the_pack_holds_is_supply():
    # 5 decks hold 10 red threes: 4 + 2 laid and 5 left in Dan's hand is 11
    found = violations(Deal.from_json(bench(("sides.1.players.1.red_threes_left", 5))))
    assert ("supply", "decks_rule", "sides", None, None) in found


def test_more_books_than_the_pack_holds_is_supply():
    # 5 decks hold 11 ranks × 20 = 220 naturals. A clean book needs 7 of them, a dirty one at
    # least 7 - 3 = 4 (common allows 3 wilds). Them: 7 + 4 = 11; Us with 2 dirty: 8 + 7 × clean.
    # 29 clean: 203 + 8 + 11 = 222 > 220; 28 clean: 196 + 8 + 11 = 215
    data = bench(("sides.0.books", {"clean": 29, "dirty": 2}), ("sides.0.meld_points", 1400))
    assert [v[0] for v in violations(Deal.from_json(data))] == ["supply"]
    data = bench(("sides.0.books", {"clean": 28, "dirty": 2}), ("sides.0.meld_points", 1400))
    assert violations(Deal.from_json(data)) == []


def test_more_points_than_the_pack_holds_is_supply():
    # a deck: A 4 × 20, K to 8 24 × 10, 7 to 4 16 × 5, 2s 4 × 20, jokers 2 × 50, black threes 2 × 5
    # = 80 + 240 + 80 + 80 + 100 + 10 = 590; 5 decks 2,950; 2,800 + 235 + 45 + 30 + 55 = 3,165
    found = violations(Deal.from_json(bench(("sides.0.meld_points", 2800))))
    assert found == [("supply", "card_values", "sides", None, None)]
    assert violations(Deal.from_json(bench(("sides.0.meld_points", 2585)))) == []  # 2,585 + 365 = 2,950


def test_wild_books_on_counts_only_where_the_sheet_allows_them():
    found = violations(Deal.from_json(bench(("sides.0.books", {"clean": 3, "dirty": 2, "wild": 1}))))
    assert found == [("meld.rank", "wild_books", "sides[0].books.wild", "Us", None)]
    # allowed at 1500: a wild book is at least 7 × 20 = 140 more
    data = bench(("sides.0.books", {"clean": 3, "dirty": 2, "wild": 1}), ("sides.0.meld_points", 345),
                 sheet={"wild_books": True, "wild_book_bonus": 1500})
    assert violations(Deal.from_json(data)) == []
    assert score(Deal.from_json(data)).sides[0].total == 345 + 1500 + 600 + 1500 + 400 + 100 - 45 == 4400


def test_melded_points_up_to_the_bound_are_read_and_past_any_pack_are_supply():
    deal = Deal.from_json(bench(("sides.0.meld_points", 100_000)))
    assert deal.sides[0].meld_points == 100_000
    assert [v[0] for v in violations(deal)] == ["supply"]  # 5 decks hold 2,950 points
