"""Specification: taking the pile as the published sheets of round three take it (issue 23, item 1.4).

Tanglewood takes the top three with a natural pair or a natural and a wild card
(``pile_needs`` ``natural-and-wild``; a wild card in the pile freezes it: then only a pair);
the Roth family shows one natural of the top card's rank (``one-natural``), the top card
starts a new meld (``pile_new_meld``) and a take that fails costs the side 100
(``pile_take_penalty``, counted by a side's ``failed_takes``).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from scorepad.rules import Card, Deal, Meld, ReadError, SheetError, load_sheet, score, validate
from scorepad.rules.choices import PileNeeds
from scorepad.rules.lines import pad_lines, plan
from scorepad.rules.rulings import Ruling, can_take_pile
from tests.rules.test_validate import BASE

# Tanglewood's pile: exactly the top three, a natural pair or a natural and a wild card, a wild card
# in the pile freezing it (pile_blocked_by as the sheet reads: a three on top blocks, a wild card freezes).
TANGLEWOOD = load_sheet({"preset": "pagat", "pile_needs": "natural-and-wild", "pile_take": "top", "pile_cards": 3,
                         "pile_frozen_by_wild": True, "pile_blocked_by": ["black-three", "red-three"]})
# Roth: the top seven with one natural of its rank shown; it starts a new meld; a failed take costs 100.
ROTH = load_sheet({"preset": "pagat", "pile_needs": "one-natural", "pile_new_meld": True, "pile_take_penalty": 100,
                   "pile_needs_opened": False})


def take(sheet, **given: Any) -> Ruling:
    asked = {"top_card": Card.NINE, "pair": 0, "wilds": 0, "opened": True, "pile_size": 9, **given}
    return can_take_pile(sheet, 1, **asked)


def failed(answer: Ruling) -> list[str | None]:
    return [r.option for r in answer.reasons if not r.ok]


def meld(cards: str) -> Meld:
    return Meld.from_json(cards)


# -- natural-and-wild -----------------------------------------------------------------------------


def test_natural_and_wild_takes_the_pile_with_one_natural_and_one_wild_card_from_the_hand():
    answer = take(TANGLEWOOD, pair=1, wilds=1)
    assert answer.yes
    assert "take 3 cards" in answer.why  # the top three, whatever the pile holds past them


def test_natural_and_wild_takes_the_pile_with_a_natural_pair():
    assert take(TANGLEWOOD, pair=2).yes


@pytest.mark.parametrize("pair, wilds", [(1, 0), (0, 2), (0, 0)])
def test_natural_and_wild_refuses_one_natural_alone_or_wild_cards_alone(pair, wilds):
    answer = take(TANGLEWOOD, pair=pair, wilds=wilds)
    assert not answer.yes
    assert failed(answer) == ["pile_needs"]
    assert f"you hold {pair} natural and {wilds} wild" in answer.reasons[0].message


def test_a_wild_card_in_the_pile_freezes_it_so_only_a_natural_pair_takes_it():
    frozen = take(TANGLEWOOD, pair=1, wilds=1, pile_has_wild=True)
    assert failed(frozen) == ["pile_frozen_by_wild"]
    assert take(TANGLEWOOD, pair=2, pile_has_wild=True).yes  # the near twin: a pair takes a frozen pile


def test_natural_and_wild_needs_the_three_cards_to_be_a_legal_meld():
    # A meld with a wild card needs 3 naturals: the top nine and a nine are 2 < 3, with the 2.
    three = load_sheet({"preset": "pagat", "pile_needs": "natural-and-wild", "min_naturals_with_wilds": 3})
    answer = take(three, pair=1, wilds=1)
    assert failed(answer) == ["min_naturals_with_wilds"]
    assert take(three, pair=2).yes  # the near twin: three natural nines


def test_natural_and_wild_goes_onto_the_sides_unfinished_meld_where_a_second_one_waits_for_a_book():
    # 4 nines on the table + a nine and a 2 from the hand + the top nine = 7 cards (6 naturals, 1 wild)
    answer = take(TANGLEWOOD, pair=1, wilds=1, table=[meld("9 9 9 9")])
    assert answer.yes
    assert "4 + 3 = 7 cards" in answer.why
    # 5 nines + 3 = 8 cards: more than a book of 7, which takes no more.
    onto_five = take(TANGLEWOOD, pair=1, wilds=1, table=[meld("9 9 9 9 9")])
    assert "second_meld" in failed(onto_five)


def test_a_wild_card_on_top_is_never_matched_where_the_pile_needs_naturals():
    answer = take(TANGLEWOOD, top_card=Card.TWO, pair=2, wilds=1)
    assert failed(answer) == ["pile_needs"]


# -- one-natural ------------------------------------------------------------------------------------


def test_one_natural_takes_the_pile_with_a_single_natural_of_the_top_cards_rank():
    answer = take(ROTH, pair=1)
    assert answer.yes
    options = [r.option for r in answer.reasons]
    assert "pile_new_meld" in options  # the top card starts a new meld, never onto one on the table
    assert "take 7 cards" in answer.why


def test_one_natural_refuses_a_hand_without_one():
    answer = take(ROTH, pair=0, wilds=3)
    assert failed(answer) == ["pile_needs"]
    assert "you hold 0" in answer.reasons[0].message


def test_one_natural_without_a_new_meld_may_go_onto_the_sides_meld():
    sheet = ROTH.replace(pile_new_meld=False)
    assert take(sheet, pair=1, table=[meld("9 9 9")]).yes  # 3 + 2 = 5 nines: the natural and the top card onto it
    assert "3 + 2 = 5 cards" in take(sheet, pair=1, table=[meld("9 9 9")]).why


def test_the_penalty_for_a_failed_take_is_said_before_the_pile_is_taken():
    answer = take(ROTH, pair=1)
    (said,) = [r for r in answer.reasons if r.option == "pile_take_penalty"]
    assert said.ok and "loses 100 points" in said.message
    assert "pile_take_penalty" not in [r.option for r in take(ROTH.replace(pile_take_penalty=0), pair=1).reasons]


# -- pile_new_meld -------------------------------------------------------------------------------------


def test_a_new_meld_sheet_never_lets_the_top_card_go_onto_a_meld_on_the_table():
    # Gather Together melds the top card any legal way; with a new meld asked for, not onto a meld on the table.
    sheet = load_sheet({"preset": "gather-together", "pile_new_meld": True})
    answer = take(sheet, pair=0, table=[meld("9 9 9 9 9 9 9"), meld("K K K")])
    assert failed(answer) == ["pile_new_meld"]
    # the near twin, today's Gather Together: the top nine goes onto the side's unfinished meld of nines
    assert take(load_sheet("gather-together"), pair=0, table=[meld("9 9 9")]).yes
    # with a pair from the hand the top card starts a meld of its own
    assert take(sheet, pair=2, table=[meld("9 9 9 9 9 9 9")]).yes


def test_a_new_meld_cannot_start_beside_an_unfinished_meld_of_its_rank():
    # A second meld of a rank waits for a book: with four nines down, a new meld of nines cannot start.
    sheet = load_sheet({"preset": "pagat", "pile_new_meld": True})
    answer = take(sheet, pair=2, table=[meld("9 9 9 9")])
    assert failed(answer) == ["pile_new_meld"]
    assert "unfinished meld of 9s (4 cards)" in answer.reasons[0].message
    assert take(sheet, pair=2, table=[meld("9 9 9 9 9 9 9")]).yes  # beside a book of nines it may
    assert take(load_sheet("pagat"), pair=2, table=[meld("9 9 9 9")]).yes  # without the rule: onto the four


def test_a_wild_card_on_top_cannot_start_a_new_meld():
    sheet = load_sheet({"preset": "gather-together", "pile_new_meld": True, "pile_blocked_by": ["black-three"]})
    answer = take(sheet, top_card=Card.JOKER, table=[meld("K K K K")])
    assert failed(answer) == ["pile_new_meld"]


# -- the options on the sheet ------------------------------------------------------------------------


def test_the_options_default_to_what_every_stored_sheet_meant():
    common = load_sheet("common")
    assert (common.pile_needs, common.pile_new_meld, common.pile_take_penalty) == (PileNeeds.NATURAL_PAIR, False, 0)
    assert "pile_new_meld" not in common.to_json() and "pile_take_penalty" not in common.to_json()


def test_the_options_in_words_and_as_json():
    assert ROTH.describe("pile_needs") == "one natural of the top card's rank from the hand, melded with it at once"
    assert ROTH.describe("pile_take_penalty") == "minus 100 points each"
    assert TANGLEWOOD.describe("pile_needs").startswith("two naturals of the top card's rank, or one and a wild card")
    assert ROTH.to_json()["pile_needs"] == "one-natural"
    assert load_sheet(ROTH.to_json()) == ROTH


@pytest.mark.parametrize("option, value", [("pile_needs", "one-wild"), ("pile_new_meld", "yes"),
                                           ("pile_take_penalty", -100)])
def test_a_value_the_options_cannot_hold_is_refused_naming_it(option, value):
    with pytest.raises(SheetError) as err:
        load_sheet({"preset": "common", option: value})
    assert err.value.field == f"sheet.{option}"


# -- a failed take, scored ---------------------------------------------------------------------------


def roth_deal(failed_takes: Any = None) -> dict[str, Any]:
    data = copy.deepcopy(BASE["common"])
    data["sheet"] = {"preset": "common", "pile_needs": "one-natural", "pile_new_meld": True, "pile_take_penalty": 100}
    if failed_takes is not None:
        data["sides"][1]["failed_takes"] = failed_takes
    return data


def test_each_failed_take_costs_the_side_the_sheets_penalty():
    without, with_two = score(Deal.from_json(roth_deal())), score(Deal.from_json(roth_deal(2)))
    (line,) = [line for line in with_two.sides[1].lines if line.code == "pile.failed_takes"]
    assert (line.count, line.each, line.points, line.option) == (2, -100, -200, "pile_take_penalty")
    assert line.points == 2 * -100  # two failed takes, 100 each
    assert with_two.sides[1].total == without.sides[1].total - 200
    assert with_two.sides[0].total == without.sides[0].total  # only the side that failed pays


def test_a_sheet_without_the_penalty_scores_no_failed_take():
    data = roth_deal(2)
    data["sheet"] = "common"
    lines = [line.code for side in score(Deal.from_json(data)).sides for line in side.lines]
    assert "pile.failed_takes" not in lines
    assert "pile.failed_takes" not in [s.code for s in plan(load_sheet("common"), 1).side]


def test_the_pad_prints_the_failed_take_line_only_where_the_sheet_charges_for_it():
    assert "Failed takes of the pile × -100" in [line.label for line in pad_lines(ROTH, 1)]
    assert not any("Failed takes" in line.label for line in pad_lines(load_sheet("pagat"), 1))


def test_failed_takes_are_read_and_written_back_only_when_there_are_some():
    deal = Deal.from_json(roth_deal(2))
    assert deal.sides[1].failed_takes == 2
    assert deal.to_json()["sides"][1]["failed_takes"] == 2
    assert "failed_takes" not in Deal.from_json(roth_deal()).to_json()["sides"][1]
    assert Deal.from_json(deal.to_json()) == deal


def test_failed_takes_that_are_no_count_cannot_be_read():
    with pytest.raises(ReadError) as err:
        Deal.from_json(roth_deal("two"))
    assert err.value.field == "sides[1].failed_takes"


def test_negative_failed_takes_are_a_violation_and_none_is_legal():
    report = validate(Deal.from_json(roth_deal(-1)))
    assert [(p.code, p.where) for p in report.violations] == [("count.negative", "sides[1].failed_takes")]
    assert validate(Deal.from_json(roth_deal(0))).ok  # the near twin


# -- opening.pile: the first melds hold the top card as the pile needs it ---------------------------------


def opening_deal(needs: str, melds: list[str], **sheet: Any) -> dict[str, Any]:
    data = copy.deepcopy(BASE["pagat"])
    data["sheet"] = {"preset": "pagat", "pile_needs": needs, **sheet}
    data["sides"][0]["opening"] = {"melds": melds, "pile_top": "9"}
    return data


def opening_codes(data: dict[str, Any]) -> list[tuple[str, str | None, str]]:
    return [(p.code, p.option, p.where) for p in validate(Deal.from_json(data)).violations]


def test_natural_and_wild_opening_holds_the_top_nine_with_a_natural_and_a_wild_card():
    # 9 9 2 + K K K = 10 + 10 + 20 + 30 = 70, at least Pagat's 50 in deal 1, the top nine counting.
    assert opening_codes(opening_deal("natural-and-wild", ["9 9 2", "K K K"])) == []
    assert opening_codes(opening_deal("natural-and-wild", ["9 9 9", "K K K"])) == []  # or a natural pair


def test_natural_and_wild_opening_with_the_top_nine_and_wild_cards_only_is_opening_pile():
    # Where wild cards may outnumber naturals, 9 JK JK is a meld, but it holds no nine from the hand:
    # 10 + 50 + 50 + 30 = 140 points, yet the pile was not taken as the sheet takes it.
    bad = opening_deal("natural-and-wild", ["9 JK JK", "K K K"], wild_ratio="none")
    assert opening_codes(bad) == [("opening.pile", "pile_needs", "sides[0].opening.pile_top")]
    assert opening_codes(opening_deal("natural-and-wild", ["9 9 JK", "K K K"], wild_ratio="none")) == []


def test_one_natural_opening_holds_the_top_nine_and_another_nine():
    bad = opening_deal("one-natural", ["9 2 2", "K K K"], wild_ratio="none")
    assert opening_codes(bad) == [("opening.pile", "pile_needs", "sides[0].opening.pile_top")]
    assert opening_codes(opening_deal("one-natural", ["9 9 2", "K K K"], wild_ratio="none")) == []
