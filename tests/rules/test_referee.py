"""The referee's four questions, asked under each of the four presets.

Every question has a yes and a no case per preset; a no answer must put the failing reason
first and that reason must cite the sheet option it rests on, so a table can look it up.
"""

from __future__ import annotations

import pytest

from scorepad.rules import Card, Cards, Meld, Rank, load_sheet, preset
from scorepad.rules.choices import Books, LastCard, OpeningPileCards
from scorepad.rules.rulings import Ruling, can_go_out, can_meld, can_take_pile, meets_minimum

PRESET_IDS = ("common", "pagat", "bicycle", "gather-together")


def meld(cards: str) -> Meld:
    return Meld.from_json(cards)


def assert_no(answer: Ruling, option: str | None) -> None:
    """A no: failed reasons come first, and one of them cites ``option``."""
    assert answer.yes is False
    assert answer.reasons[0].ok is False
    assert option in failed_options(answer)


def assert_yes(answer: Ruling) -> None:
    assert answer.yes is True
    assert answer.reasons, "a yes still gives its reasons"
    assert all(r.ok for r in answer.reasons)


def failed_options(answer: Ruling) -> list[str | None]:
    return [r.option for r in answer.reasons if not r.ok]


# -- can_meld: a new meld ----------------------------------------------------------------------

# A meld with a wild card that each sheet allows, and one it refuses (and the option why).
NEW_MELD_YES = {
    "common": "Q Q 2",            # naturals outnumber wilds
    "pagat": "9 9 2",             # naturals at least twice the wilds
    "bicycle": "Q Q Q Q 2",       # a meld holding wilds needs 4 naturals
    "gather-together": "Q Q 2 2",  # wilds never more than naturals: equal is fine
}
NEW_MELD_NO = {
    "common": ("Q Q 2 2", "wild_ratio"),
    "pagat": ("Q Q Q 2 2", "wild_ratio"),
    "bicycle": ("Q Q Q 2", "min_naturals_with_wilds"),
    "gather-together": ("Q Q 2 2 2", "wild_ratio"),
}


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_new_meld_within_the_sheets_wild_limit_is_legal(preset_id):
    answer = can_meld(preset(preset_id), meld(NEW_MELD_YES[preset_id]))
    assert_yes(answer)
    assert "wild_ratio" in [r.option for r in answer.reasons]


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_new_meld_past_the_sheets_wild_limit_is_refused_citing_the_limit(preset_id):
    cards, option = NEW_MELD_NO[preset_id]
    assert_no(can_meld(preset(preset_id), meld(cards)), option)


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_three_natural_cards_are_a_legal_meld(preset_id):
    assert_yes(can_meld(preset(preset_id), meld("K K K")))


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_two_cards_are_too_few_for_a_meld(preset_id):
    assert_no(can_meld(preset(preset_id), meld("K K")), "meld_min")


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_threes_are_never_melded(preset_id):
    answer = can_meld(preset(preset_id), Meld(Rank.THREE, 3))
    assert answer.yes is False
    assert "never melded" in answer.reasons[0].message


@pytest.mark.parametrize("preset_id, legal", [("common", False), ("pagat", True), ("bicycle", False),
                                              ("gather-together", False)])
def test_a_meld_of_wild_cards_only_is_legal_only_where_the_sheet_allows_wild_books(preset_id, legal):
    answer = can_meld(preset(preset_id), meld("2 2 JK"))
    assert answer.yes is legal
    assert "wild_books" in [r.option for r in answer.reasons]


def test_pagat_worked_example_two_naturals_and_a_wild_is_a_meld_three_and_two_is_not():
    assert can_meld(preset("pagat"), meld("9 9 2")).yes is True
    assert_no(can_meld(preset("pagat"), meld("9 9 9 2 2")), "wild_ratio")


def test_common_worked_example_wild_limit():
    common = preset("common")
    assert_no(can_meld(common, meld("Q Q 2 2")), "wild_ratio")
    assert_yes(can_meld(common, meld("Q Q Q Q 2 2 JK")))       # a book of 4 naturals + 3 wilds
    assert_no(can_meld(common, meld("Q Q Q 2 2 JK JK")), "wild_ratio")  # 3 naturals + 4 wilds


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_second_meld_of_a_rank_waits_until_the_first_is_a_book(preset_id):
    sheet = preset(preset_id)
    assert_no(can_meld(sheet, meld("K K K"), table=[meld("K K K K")]), "second_meld")
    assert_yes(can_meld(sheet, meld("K K K"), table=[meld("K K K K K K K")]))


def test_second_meld_of_a_rank_anytime_where_the_sheet_allows_it():
    sheet = load_sheet({"preset": "common", "second_meld": "anytime"})
    assert_yes(can_meld(sheet, meld("K K K"), table=[meld("K K K K")]))


# -- can_meld: adding to a meld on the table ---------------------------------------------------

# (cards added, meld on the table) that each sheet allows, and that it refuses.
ADD_YES = {
    "common": ("2", "K K K"),
    "pagat": ("2", "K K K K"),
    "bicycle": ("2", "K K K K"),
    "gather-together": ("2", "K K 2"),
}
ADD_NO = {
    "common": ("2", "K K 2", "wild_ratio"),
    "pagat": ("2", "K K 2", "wild_ratio"),
    "bicycle": ("2", "K K K", "min_naturals_with_wilds"),
    "gather-together": ("2", "K K 2 2", "wild_ratio"),
}


def added(cards: str, rank: Rank = Rank.KING) -> Meld:
    return Meld.from_cards(Cards.parse(cards), rank=rank)


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_adding_a_wild_card_that_keeps_the_meld_within_the_limit_is_legal(preset_id):
    cards, on_table = ADD_YES[preset_id]
    assert_yes(can_meld(preset(preset_id), added(cards), adding_to=meld(on_table)))


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_adding_a_wild_card_that_breaks_the_limit_is_refused_citing_the_limit(preset_id):
    cards, on_table, option = ADD_NO[preset_id]
    # The meld on the table was legal before the card was added.
    assert can_meld(preset(preset_id), meld(on_table)).yes is True
    assert_no(can_meld(preset(preset_id), added(cards), adding_to=meld(on_table)), option)


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_adding_a_natural_card_to_its_own_rank_is_legal(preset_id):
    assert_yes(can_meld(preset(preset_id), added("K"), adding_to=meld("K K K")))


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_a_finished_book_takes_no_more_cards(preset_id):
    assert_no(can_meld(preset(preset_id), added("K"), adding_to=meld("K K K K K K K")), "book_growth")


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_a_card_of_another_rank_cannot_be_added(preset_id):
    answer = can_meld(preset(preset_id), added("Q", Rank.QUEEN), adding_to=meld("K K K"))
    assert answer.yes is False
    assert "cannot go on" in answer.reasons[0].message


def test_a_book_may_grow_with_naturals_where_the_sheet_says_so_but_not_with_wilds():
    sheet = load_sheet({"preset": "common", "book_growth": "naturals"})
    assert_yes(can_meld(sheet, added("K"), adding_to=meld("K K K K K K K")))
    assert_no(can_meld(sheet, added("2"), adding_to=meld("K K K K K K K")), "book_growth")


@pytest.mark.parametrize("preset_id", ["bicycle", "gather-together"])
def test_a_book_grown_with_naturals_gets_the_same_answer_as_a_new_meld_or_added_to(preset_id):
    # A book of 7 here holds at most 3 wilds (4 naturals + 3). Growing with naturals only,
    # 8 cards with 4 wilds can only come from a wild added to a book: refused either way
    # it is asked. 5 naturals + 3 wilds (a natural added to 8 8 8 8 2 2 JK) is fine either way.
    sheet = load_sheet({"preset": preset_id, "book_growth": "naturals"})
    assert_no(can_meld(sheet, meld("8 8 8 8 2 2 JK JK")), "book_growth")
    assert_no(can_meld(sheet, added("2", Rank.EIGHT), adding_to=meld("8 8 8 8 2 2 JK")), "book_growth")
    assert_yes(can_meld(sheet, meld("8 8 8 8 8 2 2 JK")))
    assert_yes(can_meld(sheet, added("8", Rank.EIGHT), adding_to=meld("8 8 8 8 2 2 JK")))


# -- can_go_out --------------------------------------------------------------------------------

# What each sheet asks before a player may go out, all of it met.
GO_OUT_YES = {
    "common": dict(books=Books(clean=1, dirty=1)),
    "pagat": dict(books=Books(clean=2, dirty=2, wild=1), partners_picked_up=[True], permission=True),
    "bicycle": dict(books=Books(clean=1, dirty=1), last_card=LastCard.DISCARD),
    "gather-together": dict(books=Books(clean=1, dirty=1), partners_picked_up=[True]),
}
# One thing each sheet asks for, missing, and the option that asks for it.
GO_OUT_NO = {
    "common": (dict(books=Books(clean=2, dirty=0)), "books_to_go_out"),
    "pagat": (dict(permission=False), "go_out_permission"),
    "bicycle": (dict(last_card=LastCard.MELD), "last_card"),
    "gather-together": (dict(partners_picked_up=[False]), "go_out_partner_foot"),
}


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_going_out_with_everything_the_sheet_asks_for_is_allowed(preset_id):
    answer = can_go_out(preset(preset_id), 1, **GO_OUT_YES[preset_id])
    assert_yes(answer)
    assert "books_to_go_out" in [r.option for r in answer.reasons]


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_going_out_without_what_the_sheet_asks_for_is_refused_citing_it(preset_id):
    change, option = GO_OUT_NO[preset_id]
    answer = can_go_out(preset(preset_id), 1, **{**GO_OUT_YES[preset_id], **change})
    assert_no(answer, option)
    assert failed_options(answer) == [option]


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_going_out_short_of_the_books_is_refused(preset_id):
    answer = can_go_out(preset(preset_id), 1, **{**GO_OUT_YES[preset_id], "books": Books(clean=1)})
    assert_no(answer, "books_to_go_out")


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_a_clean_book_does_not_stand_in_for_a_dirty_one(preset_id):
    need = preset(preset_id).going_out_books(1)
    more_clean = Books(clean=need.clean + need.dirty, dirty=0, wild=need.wild)
    answer = can_go_out(preset(preset_id), 1, **{**GO_OUT_YES[preset_id], "books": more_clean})
    assert_no(answer, "books_to_go_out")
    assert "does not stand in" in answer.reasons[0].message


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_going_out_before_playing_the_foot_is_refused(preset_id):
    answer = can_go_out(preset(preset_id), 1, **{**GO_OUT_YES[preset_id], "foot_played": False})
    assert_no(answer, "go_out_foot")


@pytest.mark.parametrize("preset_id, required", [("common", False), ("pagat", True), ("bicycle", False),
                                                 ("gather-together", True)])
def test_a_partner_who_has_not_picked_up_the_foot_stops_going_out_where_the_sheet_says(preset_id, required):
    answer = can_go_out(preset(preset_id), 1, **{**GO_OUT_YES[preset_id], "partners_picked_up": [False]})
    assert answer.yes is not required
    if required:
        assert_no(answer, "go_out_partner_foot")


def test_pagat_player_must_ask_the_partner_before_going_out():
    base = {**GO_OUT_YES["pagat"]}
    del base["permission"]
    answer = can_go_out(preset("pagat"), 1, **base)
    assert_no(answer, "go_out_permission")
    assert "may I go out?" in answer.reasons[0].message


def test_pagat_partner_saying_no_forbids_going_out_even_without_the_partners_foot_given():
    answer = can_go_out(preset("pagat"), 1, books=Books(clean=2, dirty=2, wild=1), permission=False)
    assert_no(answer, "go_out_permission")


def test_gather_together_player_may_go_out_without_asking_permission():
    assert_yes(can_go_out(preset("gather-together"), 1, books=Books(clean=1, dirty=1),
                          partners_picked_up=[True], permission=False))


@pytest.mark.parametrize("last_card, allowed", [(LastCard.DISCARD, True), (LastCard.MELD, False)])
def test_bicycle_last_card_must_be_a_discard(last_card, allowed):
    answer = can_go_out(preset("bicycle"), 1, books=Books(clean=1, dirty=1), last_card=last_card)
    assert answer.yes is allowed
    assert "last_card" in [r.option for r in answer.reasons]


@pytest.mark.parametrize("preset_id", ["common", "pagat", "gather-together"])
def test_last_card_melded_or_discarded_is_fine_where_the_sheet_allows_either(preset_id):
    for last_card in (LastCard.MELD, LastCard.DISCARD):
        assert_yes(can_go_out(preset(preset_id), 1, **{**GO_OUT_YES[preset_id], "last_card": last_card}))


def test_books_for_going_out_are_counted_from_the_melds_on_the_table():
    common = preset("common")
    assert_yes(can_go_out(common, 1, melds=[meld("K K K K K K K"), meld("Q Q Q Q Q 2 2"), meld("A A A")]))
    assert_no(can_go_out(common, 1, melds=[meld("K K K K K K K"), meld("A A A A A A A")]), "books_to_go_out")


def test_pagat_wild_book_counted_from_the_melds_lets_the_side_go_out():
    melds = [meld("K K K K K K K"), meld("A A A A A A A"), meld("Q Q Q Q Q 2 2"), meld("J J J J J JK 2"),
             meld("2 2 2 2 JK JK JK")]
    assert_yes(can_go_out(preset("pagat"), 1, melds=melds, partners_picked_up=[True], permission=True))
    assert_no(can_go_out(preset("pagat"), 1, melds=melds[:4], partners_picked_up=[True], permission=True),
              "books_to_go_out")


def test_books_needed_to_go_out_can_rise_by_deal():
    sheet = load_sheet({"preset": "common", "books_to_go_out": [
        {"clean": 1, "dirty": 1}, {"clean": 2, "dirty": 1}, {"clean": 2, "dirty": 1}, {"clean": 3, "dirty": 2}]})
    assert_yes(can_go_out(sheet, 1, books=Books(clean=1, dirty=1)))
    assert_no(can_go_out(sheet, 2, books=Books(clean=1, dirty=1)), "books_to_go_out")
    assert_yes(can_go_out(sheet, 4, books=Books(clean=3, dirty=2)))


# -- can_take_pile -----------------------------------------------------------------------------

# A pile each sheet lets the player take.
TAKE_YES = {
    # top 7, only when 7 or more are there; natural pair; only after opening
    "common": dict(top_card=Card.NINE, pair=2, opened=True, pile_size=7),
    # top 7, all if fewer; natural pair; the pile may be taken to open
    "pagat": dict(top_card=Card.NINE, pair=2, opened=False, pile_size=3),
    "bicycle": dict(top_card=Card.NINE, pair=2, opened=False, pile_size=3),
    # the top card melded at once any way: here with one natural and a wild card
    "gather-together": dict(top_card=Card.NINE, pair=1, wilds=1, opened=False, pile_size=12),
}
# The same pile with one thing changed, and the option that then refuses it.
TAKE_NO = {
    "common": (dict(top_card=Card.TWO), "pile_blocked_by"),          # a wild card on top blocks
    "pagat": (dict(top_card=Card.RED_THREE), "pile_blocked_by"),     # any three on top blocks
    "bicycle": (dict(pair=1, wilds=1), "pile_needs"),                # a natural pair, not a wild
    "gather-together": (dict(top_card=Card.BLACK_THREE), "pile_blocked_by"),
}


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_pile_may_be_taken_when_the_sheets_conditions_are_met(preset_id):
    answer = can_take_pile(preset(preset_id), 1, **TAKE_YES[preset_id])
    assert_yes(answer)
    assert "pile_cards" in [r.option for r in answer.reasons]


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_pile_is_refused_citing_the_sheets_condition(preset_id):
    change, option = TAKE_NO[preset_id]
    assert_no(can_take_pile(preset(preset_id), 1, **{**TAKE_YES[preset_id], **change}), option)


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_a_black_three_on_top_blocks_the_pile_on_every_preset(preset_id):
    answer = can_take_pile(preset(preset_id), 1, **{**TAKE_YES[preset_id], "top_card": Card.BLACK_THREE})
    assert_no(answer, "pile_blocked_by")
    assert "black three" in answer.reasons[0].message


@pytest.mark.parametrize("preset_id", ["common", "pagat", "bicycle"])
def test_natural_pair_sheets_refuse_the_pile_with_one_natural_in_hand(preset_id):
    answer = can_take_pile(preset(preset_id), 1, **{**TAKE_YES[preset_id], "pair": 1})
    assert_no(answer, "pile_needs")
    assert "you hold 1" in answer.reasons[0].message


def test_pagat_pile_cannot_be_taken_with_a_three_on_top():
    for three in (Card.BLACK_THREE, Card.RED_THREE):
        assert_no(can_take_pile(preset("pagat"), 1, top_card=three, pair=2, opened=True, pile_size=9),
                  "pile_blocked_by")


def test_pagat_pile_cannot_be_taken_with_a_wild_card_on_top():
    # Not a blocker on Pagat's sheet, but no natural pair can match a wild card.
    assert_no(can_take_pile(preset("pagat"), 1, top_card=Card.JOKER, pair=2, opened=True, pile_size=9),
              "pile_needs")


def test_common_pile_needs_seven_cards_and_an_opened_side():
    common = preset("common")
    assert_no(can_take_pile(common, 1, top_card=Card.NINE, pair=2, opened=True, pile_size=6), "pile_take")
    assert_no(can_take_pile(common, 1, top_card=Card.NINE, pair=2, opened=False, pile_size=9),
              "pile_needs_opened")


@pytest.mark.parametrize("preset_id", ["pagat", "bicycle", "gather-together"])
def test_partnership_presets_let_a_side_take_the_pile_to_open(preset_id):
    answer = can_take_pile(preset(preset_id), 1, **{**TAKE_YES[preset_id], "opened": False})
    assert_yes(answer)
    assert "opening_pile_cards" in [r.option for r in answer.reasons]


def test_pagat_takes_the_top_seven_or_the_whole_pile_when_smaller():
    pagat = preset("pagat")
    assert "take 7 cards" in can_take_pile(pagat, 1, top_card=Card.NINE, pair=2, opened=True, pile_size=12).why
    assert "take 3 cards" in can_take_pile(pagat, 1, top_card=Card.NINE, pair=2, opened=True, pile_size=3).why


def test_gather_together_melds_the_top_card_then_takes_the_next_seven():
    answer = can_take_pile(preset("gather-together"), 1, top_card=Card.NINE, pair=2, opened=True, pile_size=20)
    assert "take 8 cards" in answer.why


def test_gather_together_top_card_can_go_on_the_sides_unfinished_meld():
    sheet = preset("gather-together")
    assert_yes(can_take_pile(sheet, 1, top_card=Card.NINE, pair=0, opened=True, pile_size=9,
                             table=[meld("9 9 9")]))
    assert_no(can_take_pile(sheet, 1, top_card=Card.NINE, pair=1, opened=True, pile_size=9), "pile_needs")


def test_gather_together_wild_card_on_top_is_taken_only_onto_an_unfinished_meld():
    sheet = preset("gather-together")
    assert_yes(can_take_pile(sheet, 1, top_card=Card.TWO, pair=0, opened=True, pile_size=9,
                             table=[meld("K K K K")]))
    assert_no(can_take_pile(sheet, 1, top_card=Card.TWO, pair=0, opened=True, pile_size=9), "pile_needs")


def test_a_sheet_that_never_lets_the_pile_be_taken():
    sheet = load_sheet({"preset": "pagat", "pile_take": "never"})
    assert_no(can_take_pile(sheet, 1, top_card=Card.NINE, pair=2, opened=True, pile_size=9), "pile_take")


@pytest.mark.parametrize("preset_id", ["common", "pagat", "bicycle"])
@pytest.mark.parametrize("nines", [5, 6])
def test_a_pair_cannot_take_the_pile_onto_an_unfinished_meld_it_would_take_past_a_book(preset_id, nines):
    # 5 (or 6) nines on the table: the pair and the top card may not start a second meld of
    # nines before the first is a book, and on it they make 5 + 3 = 8 (6 + 3 = 9) cards,
    # more than a book of 7, which takes no more.
    sheet = preset(preset_id)
    on_table = [meld("K K K"), meld(" ".join(["9"] * nines))]
    answer = can_take_pile(sheet, 1, **{**TAKE_YES[preset_id], "table": on_table})
    assert_no(answer, "second_meld")
    assert "book_growth" in failed_options(answer)
    assert f"{nines} + 3 = {nines + 3} cards" in answer.reasons[0].message


@pytest.mark.parametrize("preset_id", ["common", "pagat", "bicycle"])
def test_a_pair_takes_the_pile_onto_four_nines_or_beside_a_book_of_nines(preset_id):
    sheet = preset(preset_id)
    # 4 nines + the pair + the top card = 7: the meld becomes a book.
    onto_four = can_take_pile(sheet, 1, **{**TAKE_YES[preset_id], "table": [meld("9 9 9 9")]})
    assert_yes(onto_four)
    assert "4 + 3 = 7 cards" in onto_four.why
    # A book of nines is finished: the pair and the top card start a new meld of 3.
    assert_yes(can_take_pile(sheet, 1, **{**TAKE_YES[preset_id], "table": [meld("9 9 9 9 9 9 9")]}))


def test_a_pair_takes_the_pile_onto_five_nines_where_books_grow_or_second_melds_start_anytime():
    five = {**TAKE_YES["pagat"], "table": [meld("9 9 9 9 9")]}
    # 5 + 3 = 8 naturals: a book may grow past 7 with natural cards.
    assert_yes(can_take_pile(load_sheet({"preset": "pagat", "book_growth": "naturals"}), 1, **five))
    # Or the pair and the top card start a second meld of nines beside the five.
    assert_yes(can_take_pile(load_sheet({"preset": "pagat", "second_meld": "anytime"}), 1, **five))


def test_gather_together_top_card_goes_onto_five_nines_even_with_a_pair_in_hand():
    # The top card alone goes onto the unfinished meld: 5 + 1 = 6, no book overrun.
    assert_yes(can_take_pile(preset("gather-together"), 1, top_card=Card.NINE, pair=2, opened=True, pile_size=9,
                             table=[meld("9 9 9 9 9")]))


def test_pagat_worked_example_nine_nine_and_a_two_take_a_discarded_nine():
    assert_yes(can_take_pile(preset("pagat"), 1, top_card=Card.NINE, pair=2, wilds=1, opened=False,
                             pile_size=10))


# -- meets_minimum -----------------------------------------------------------------------------

KINGS_QUEENS = [meld("K K K"), meld("Q Q Q")]  # 60 points


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_kings_and_queens_worth_60_meet_the_deal_1_minimum_of_50(preset_id):
    answer = meets_minimum(preset(preset_id), 1, KINGS_QUEENS)
    assert_yes(answer)
    assert answer.reasons[0].option == "opening_minimums"
    assert "is 50; these count 60" in answer.reasons[0].message


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_kings_and_queens_worth_60_do_not_meet_the_deal_3_minimum_of_120(preset_id):
    answer = meets_minimum(preset(preset_id), 3, KINGS_QUEENS)
    assert_no(answer, "opening_minimums")
    assert "is 120; these count 60" in answer.reasons[0].message


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_minimum_rises_by_deal_50_90_120_150(preset_id):
    sheet = preset(preset_id)
    worth_90 = [meld("A A A"), meld("K K K")]  # 60 + 30
    assert [meets_minimum(sheet, d, worth_90).yes for d in (1, 2, 3, 4)] == [True, True, False, False]


NINES_AND_FIVES = [meld("9 9 9"), meld("5 5 5 5")]  # 30 + 20, one 9 from the pile


@pytest.mark.parametrize("preset_id", ["pagat", "bicycle", "gather-together"])
def test_the_piles_top_card_counts_toward_the_minimum(preset_id):
    answer = meets_minimum(preset(preset_id), 1, NINES_AND_FIVES, top_card=Card.NINE)
    assert_yes(answer)
    assert "worth 50, without it 40" in answer.why


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_without_the_piles_top_card_the_same_melds_fall_short(preset_id):
    sheet = preset(preset_id).replace(opening_pile_cards=OpeningPileCards.NONE)
    answer = meets_minimum(sheet, 1, NINES_AND_FIVES, top_card=Card.NINE)
    assert_no(answer, "opening_minimums")
    assert "these count 40" in answer.reasons[0].message


@pytest.mark.parametrize("preset_id", ["pagat", "bicycle", "gather-together"])
def test_a_card_buried_in_the_pile_does_not_count_toward_the_minimum(preset_id):
    answer = meets_minimum(preset(preset_id), 1, NINES_AND_FIVES, top_card=Card.NINE, buried=Cards.parse("5"))
    assert_no(answer, "opening_minimums")
    assert "these count 45" in answer.reasons[0].message


def test_common_first_melds_never_count_the_piles_top_card_the_pile_waits_for_them():
    # Common: the pile may be taken only once the first melds are down, so first melds hold
    # no card from it. 9 9 9 + 5 5 5 5 is 30 + 20 = 50 with a 9 from the pile, 40 from the
    # hand: short of deal 1's 50, and the 9 was never the player's to meld.
    answer = meets_minimum(preset("common"), 1, NINES_AND_FIVES, top_card=Card.NINE)
    assert_no(answer, "pile_needs_opened")
    assert "opening_minimums" in failed_options(answer)
    assert "these count 40" in answer.why
    # Worth 60 from the hand (K K K + Q Q Q), the minimum is met, but melds using the pile still are not.
    kings_queens = meets_minimum(preset("common"), 1, KINGS_QUEENS, top_card=Card.KING)
    assert_no(kings_queens, "pile_needs_opened")
    assert failed_options(kings_queens) == ["pile_needs_opened"]
    assert "these count 50" in kings_queens.why


def test_common_with_the_pile_open_before_the_first_melds_counts_its_top_card():
    # The near twin: the same sheet letting the pile be taken to open; the top 9 counts: 50.
    sheet = load_sheet({"preset": "common", "pile_needs_opened": False})
    answer = meets_minimum(sheet, 1, NINES_AND_FIVES, top_card=Card.NINE)
    assert_yes(answer)
    assert "these count 50" in answer.why


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_an_illegal_meld_never_meets_the_minimum(preset_id):
    answer = meets_minimum(preset(preset_id), 1, [meld("K K K K K K K"), meld("Q Q")])  # 90 points
    assert_no(answer, "meld_min")


def test_pagat_worked_example_nine_nine_two_and_the_discarded_nine_make_50_and_meet_deal_1():
    answer = meets_minimum(preset("pagat"), 1, [meld("9 9 9 2")], top_card=Card.NINE)
    assert_yes(answer)
    assert "these count 50" in answer.reasons[0].message


def test_pagat_worked_example_a_two_buried_in_the_pile_does_not_count():
    answer = meets_minimum(preset("pagat"), 1, [meld("9 9 9 2")], top_card=Card.NINE, buried=Cards.parse("2"))
    assert_no(answer, "opening_minimums")
    assert "these count 30" in answer.reasons[0].message
    assert "buried" in answer.why


def test_bicycle_nine_nine_nine_two_is_not_a_legal_opening():
    assert_no(meets_minimum(preset("bicycle"), 1, [meld("9 9 9 2")], top_card=Card.NINE),
              "min_naturals_with_wilds")


def test_minimum_by_running_total_follows_the_bands():
    sheet = load_sheet({"preset": "common", "opening_by": "running-total"})
    assert_yes(meets_minimum(sheet, 3, KINGS_QUEENS, running_total=2499))
    answer = meets_minimum(sheet, 1, KINGS_QUEENS, running_total=2500)
    assert_no(answer, "opening_bands")
    assert "running total of 2,500 is 90" in answer.reasons[0].message


# -- the answer as JSON ------------------------------------------------------------------------


def test_answer_json_gives_yes_and_each_reason_with_what_the_sheet_says():
    sheet = preset("common")
    data = meets_minimum(sheet, 3, KINGS_QUEENS).to_json(sheet)
    assert set(data) == {"yes", "reasons"}
    assert data["yes"] is False
    assert data["reasons"] == [{
        "ok": False,
        "message": "The minimum for each player's first melds at deal 3 is 120; these count 60.",
        "option": "opening_minimums",
        "sheet_says": sheet.describe("opening_minimums"),
        "label": "Minimum by deal",
    }]
    assert "deal 3 120" in data["reasons"][0]["sheet_says"]


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_answer_json_lists_failed_reasons_first_each_with_five_keys(preset_id):
    sheet = preset(preset_id)
    data = can_go_out(sheet, 1, books=Books(), foot_played=False).to_json(sheet)
    assert data["yes"] is False
    for reason in data["reasons"]:
        assert set(reason) == {"ok", "message", "option", "sheet_says", "label"}
        assert isinstance(reason["message"], str) and reason["message"]
        assert reason["sheet_says"] == (sheet.describe(reason["option"]) if reason["option"] else None)
    oks = [r["ok"] for r in data["reasons"]]
    assert oks == sorted(oks)  # every False before every True
    assert {"books_to_go_out", "go_out_foot"} <= {r["option"] for r in data["reasons"] if not r["ok"]}


def test_answer_json_reason_resting_on_no_option_says_nothing_of_the_sheet():
    sheet = preset("common")
    data = can_meld(sheet, added("Q", Rank.QUEEN), adding_to=meld("K K K")).to_json(sheet)
    assert data["reasons"][0]["option"] is None
    assert data["reasons"][0]["sheet_says"] is None and data["reasons"][0]["label"] is None


def test_going_out_short_of_a_wild_book_does_not_blame_clean_books_for_dirty_ones():
    short_of_wild = can_go_out(preset("pagat"), 1, books=Books(clean=2, dirty=2, wild=0))
    assert not short_of_wild.yes and "stand in" not in short_of_wild.why
    extra_clean = can_go_out(preset("common"), 1, books=Books(clean=2, dirty=0))
    assert not extra_clean.yes and "A clean book does not stand in for a dirty one." in extra_clean.why
