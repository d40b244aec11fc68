"""Specification: rule sheets, presets, card strings and reading a deal.

The preset tests follow the preset table of /work/shared/rules/VARIATIONS.md row by row.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import re
from pathlib import Path

import pytest

from scorepad.rules import (
    OPTIONS,
    PRESETS,
    SOURCES,
    Card,
    Cards,
    Deal,
    Meld,
    Rank,
    ReadError,
    RuleSheet,
    SheetError,
    load_sheet,
    preset,
)
from scorepad.rules.choices import (
    Books,
    DecksRule,
    GameLength,
    LastCard,
    OpeningPileCards,
    OpeningWho,
    PartnerFoot,
    PileBlocker,
    PileNeeds,
    PileTake,
    StockOut,
    WildRatio,
)
from scorepad.rules.validate import pack

PRESET_IDS = ("common", "pagat", "bicycle", "gather-together")  # VARIATIONS.md's preset table
SHIPPED = (*PRESET_IDS, "progressive",  # and the progressive sheet (tests/rules/test_progressive.py)
           # and round three's (tests/rules/test_presets_round_three.py)
           "drwingnut", "bga", "hand-knee-foot", "tanglewood", "vegas")
PARTNERSHIP_PRESETS = ("pagat", "bicycle", "gather-together")


# ---------------------------------------------------------------------------------------
# The presets, against VARIATIONS.md's preset table
# ---------------------------------------------------------------------------------------


def test_the_shipped_presets_are_these():
    assert sorted(PRESETS) == sorted(SHIPPED)
    for preset_id in SHIPPED:
        assert preset(preset_id).preset == preset_id
        assert PRESETS[preset_id].source  # each preset cites its source


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_a_preset_cites_a_published_source_by_title_and_address_never_a_file(preset_id):
    source = PRESETS[preset_id].source
    assert SOURCES[source.id] is source
    assert source.title and "sources/" not in str(source) and ".txt" not in str(source)
    assert source.url is None or source.url.startswith("https://")


def test_common_plays_individuals_two_to_six_with_partnerships_optional():
    sheet = preset("common")
    assert (sheet.min_players, sheet.max_players) == (2, 6)
    assert sheet.side_sizes == (1, 2)
    assert not sheet.individuals  # partnerships are allowed too


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_a_preset_title_that_names_a_way_to_play_names_every_way_its_sheet_allows(preset_id):
    """The common preset allows partnerships of 2 as well as individuals: its title says both
    (it read "individual play" alone)."""
    title, sizes = PRESETS[preset_id].title.lower(), preset(preset_id).side_sizes
    if "individual" in title or "partnership" in title:
        assert ("individual" in title) == (1 in sizes), title
        assert ("partnership" in title) == any(size > 1 for size in sizes), title


@pytest.mark.parametrize("preset_id", PARTNERSHIP_PRESETS)
def test_partnership_presets_are_four_players_in_two_partnerships(preset_id):
    sheet = preset(preset_id)
    assert (sheet.min_players, sheet.max_players) == (4, 4)
    assert sheet.side_sizes == (2,)


def test_common_uses_one_deck_more_than_players_with_two_jokers_each():
    sheet = preset("common")
    assert sheet.decks_rule is DecksRule.PLAYERS_PLUS_ONE
    assert sheet.jokers_per_deck == 2
    assert [sheet.decks_for(n) for n in (2, 3, 4, 6)] == [3, 4, 5, 7]
    # the common rules page: two players use three decks, 162 cards
    assert pack(sheet, 2).total == 162


@pytest.mark.parametrize("preset_id", PARTNERSHIP_PRESETS)
def test_partnership_presets_use_five_decks_of_two_jokers(preset_id):
    sheet = preset(preset_id)
    assert sheet.decks_rule is DecksRule.FIXED
    assert (sheet.decks, sheet.jokers_per_deck) == (5, 2)
    assert sheet.decks_for(4) == 5
    cards = pack(sheet, 4)
    assert cards.total == 270  # 5 x 54
    assert cards[Card.JOKER] == 10
    assert cards[Card.KING] == 20
    assert cards[Card.RED_THREE] == cards[Card.BLACK_THREE] == 10


@pytest.mark.parametrize("preset_id, hand, foot", [
    ("common", 11, 11), ("pagat", 13, 13), ("bicycle", 11, 11), ("gather-together", 11, 11)])
def test_preset_hand_and_foot_sizes(preset_id, hand, foot):
    sheet = preset(preset_id)
    assert (sheet.hand_size, sheet.foot_size) == (hand, foot)


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_preset_card_values_joker_50_two_and_ace_20_king_to_8_ten_7_to_4_and_black_three_five(preset_id):
    sheet = preset(preset_id)
    expected = {Card.JOKER: 50, Card.TWO: 20, Card.ACE: 20, Card.KING: 10, Card.QUEEN: 10, Card.JACK: 10,
                Card.TEN: 10, Card.NINE: 10, Card.EIGHT: 10, Card.SEVEN: 5, Card.SIX: 5, Card.FIVE: 5,
                Card.FOUR: 5, Card.BLACK_THREE: 5, Card.RED_THREE: 0}
    assert {card: sheet.value(card) for card in Card} == expected


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_preset_melds_are_three_to_seven_and_a_second_meld_waits_for_a_book(preset_id):
    sheet = preset(preset_id)
    assert (sheet.meld_min, sheet.book_size) == (3, 7)
    assert sheet.second_meld.value == "after-book"
    assert sheet.book_growth.value == "closed"


@pytest.mark.parametrize("preset_id, ratio, max_wilds, min_naturals", [
    ("common", WildRatio.MORE, 3, 0),            # naturals > wilds, at most 3 wilds
    ("pagat", WildRatio.TWICE, None, 0),         # naturals >= 2 x wilds
    ("bicycle", WildRatio.NONE, None, 4),        # a meld holding wilds needs 4 naturals
    ("gather-together", WildRatio.AT_LEAST, None, 0),  # wilds never more than naturals
])
def test_preset_wild_limit(preset_id, ratio, max_wilds, min_naturals):
    sheet = preset(preset_id)
    assert (sheet.wild_ratio, sheet.max_wilds, sheet.min_naturals_with_wilds) == (ratio, max_wilds, min_naturals)


@pytest.mark.parametrize("preset_id, allowed", [
    ("common", False), ("pagat", True), ("bicycle", False), ("gather-together", False)])
def test_preset_wild_books_only_on_pagat_worth_1500(preset_id, allowed):
    sheet = preset(preset_id)
    assert sheet.wild_books is allowed
    if allowed:
        assert sheet.wild_book_bonus == 1500


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_preset_bonuses_clean_500_dirty_300_red_three_100_going_out_100(preset_id):
    sheet = preset(preset_id)
    assert (sheet.clean_book_bonus, sheet.dirty_book_bonus) == (500, 300)
    assert sheet.red_three_bonus == 100
    assert [sheet.going_out_bonus_at(n) for n in (1, 2, 3, 4)] == [100, 100, 100, 100]
    assert sheet.special_books == ()
    assert sheet.cut_bonus == 0


@pytest.mark.parametrize("preset_id, penalty", [
    ("common", 0), ("pagat", 100), ("bicycle", 0), ("gather-together", 0)])
def test_preset_red_three_in_a_foot_never_picked_up(preset_id, penalty):
    assert preset(preset_id).red_three_penalty_foot == penalty
    assert preset(preset_id).red_three_penalty_hand == 0


@pytest.mark.parametrize("preset_id, who", [
    ("common", OpeningWho.PLAYER), ("pagat", OpeningWho.SIDE), ("bicycle", OpeningWho.SIDE),
    ("gather-together", OpeningWho.SIDE)])
def test_preset_opening_minimums_50_90_120_150_by_deal(preset_id, who):
    sheet = preset(preset_id)
    assert [sheet.opening_minimum(n) for n in (1, 2, 3, 4)] == [50, 90, 120, 150]
    assert sheet.opening_who is who


def test_common_pile_is_top_seven_only_when_seven_are_there_with_a_pair_after_opening_blocked_by_wild_or_three():
    sheet = preset("common")
    assert sheet.pile_take is PileTake.TOP_IF_FULL
    assert sheet.pile_cards.at(1) == 7
    assert sheet.pile_needs is PileNeeds.NATURAL_PAIR
    assert sheet.pile_needs_opened is True
    assert sheet.pile_blocked_by == {PileBlocker.BLACK_THREE, PileBlocker.RED_THREE, PileBlocker.WILD}


@pytest.mark.parametrize("preset_id", ["pagat", "bicycle"])
def test_pagat_and_bicycle_pile_is_top_seven_all_if_fewer_with_a_pair_blocked_by_a_three(preset_id):
    sheet = preset(preset_id)
    assert sheet.pile_take is PileTake.TOP
    assert sheet.pile_cards.at(1) == 7
    assert sheet.pile_needs is PileNeeds.NATURAL_PAIR
    assert sheet.pile_blocked_by == {PileBlocker.BLACK_THREE, PileBlocker.RED_THREE}
    assert PileBlocker.WILD not in sheet.pile_blocked_by
    # buried cards do not count toward the minimum
    assert sheet.opening_pile_cards is OpeningPileCards.TOP_CARD


def test_gather_together_pile_melds_the_top_card_then_takes_the_next_seven_blocked_by_a_black_three():
    sheet = preset("gather-together")
    assert sheet.pile_needs is PileNeeds.MELD_TOP_CARD
    assert sheet.pile_cards.at(1) == 1 + 7
    assert sheet.pile_blocked_by == {PileBlocker.BLACK_THREE}


@pytest.mark.parametrize("preset_id, books, partner_foot, permission, last_card", [
    ("common", Books(clean=1, dirty=1), PartnerFoot.NO, False, LastCard.EITHER),
    ("pagat", Books(clean=2, dirty=2, wild=1), PartnerFoot.PLAYED, True, LastCard.EITHER),
    ("bicycle", Books(clean=1, dirty=1), PartnerFoot.NO, False, LastCard.DISCARD),
    ("gather-together", Books(clean=1, dirty=1), PartnerFoot.PICKED_UP, False, LastCard.EITHER),
])
def test_preset_going_out(preset_id, books, partner_foot, permission, last_card):
    sheet = preset(preset_id)
    assert [sheet.going_out_books(n) for n in (1, 2, 3, 4)] == [books] * 4
    assert sheet.go_out_foot is True
    assert sheet.go_out_partner_foot is partner_foot
    assert sheet.go_out_permission is permission
    assert sheet.last_card is last_card


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_preset_stock_out_ends_the_deal_and_a_game_is_four_deals(preset_id):
    sheet = preset(preset_id)
    assert sheet.stock_out is StockOut.ENDS_DEAL
    assert sheet.game_length is GameLength.DEALS
    assert sheet.deals == 4
    assert sheet.last_deal() == 4


def test_presets_record_what_their_source_leaves_unsaid():
    assert "red_three_penalty_foot" in PRESETS["common"].not_stated
    assert "red_three_penalty_foot" in PRESETS["bicycle"].not_stated
    assert "last_card" in PRESETS["gather-together"].not_stated
    assert "red_three_penalty_foot" not in PRESETS["pagat"].not_stated  # Pagat states -100
    for found in PRESETS.values():
        assert set(found.not_stated) <= {o.name for o in OPTIONS}
        assert all(reason.strip() for reason in found.not_stated.values())


# ---------------------------------------------------------------------------------------
# Impossible sheets are refused, naming the option
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("data, field", [
    ({"preset": "common", "book_size": 2}, "sheet.book_size"),
    ({"preset": "common", "decks": -1}, "sheet.decks"),
    ({"preset": "pagat", "jokers_per_deck": -2}, "sheet.jokers_per_deck"),
    ({"preset": "common", "hand_size": 0}, "sheet.hand_size"),
    ({"preset": "common", "opening_minimums": [50, 90]}, "sheet.opening_minimums"),
    ({"preset": "common", "going_out_bonus": [100, 200, 300]}, "sheet.going_out_bonus"),
    ({"preset": "common", "min_players": 5, "max_players": 3}, "sheet.min_players"),
    ({"preset": "common", "books_to_go_out": {"clean": 1, "dirty": 1, "wild": 1}}, "sheet.books_to_go_out"),
    ({"preset": "pagat", "wild_books": False}, "sheet.books_to_go_out"),
    ({"preset": "common", "books_to_go_out": {"clean": 1, "muddy": 1}}, "sheet.books_to_go_out.muddy"),
    ({"preset": "common", "meld_min": 8}, "sheet.meld_min"),
    ({"preset": "common", "wild_ratio": "lots"}, "sheet.wild_ratio"),
    ({"preset": "common", "wild_books": "yes"}, "sheet.wild_books"),
    ({"preset": "common", "hand_size": True}, "sheet.hand_size"),
    ({"preset": "common", "card_values": {"3R": 5}}, "sheet.card_values.3R"),
    ({"preset": "common", "special_books": {"2": 1000}}, "sheet.special_books.2"),
    ({"preset": "common", "colour": "red"}, "sheet.colour"),
    ({"preset": "house"}, "sheet.preset"),
    ("house", "sheet"),
    (42, "sheet"),
], ids=["book_size-2", "negative-decks", "negative-jokers", "hand_size-0", "opening_minimums-short",
        "going_out_bonus-short", "min-over-max", "wild-book-required-without-wild-books",
        "pagat-without-wild-books", "unknown-book-kind", "meld-bigger-than-book", "unknown-wild-ratio",
        "bool-not-text", "bool-count", "red-three-value", "special-book-of-twos", "unknown-option",
        "unknown-preset-in-object", "unknown-preset-id", "not-a-sheet"])
def test_impossible_sheet_is_refused_naming_the_option(data, field):
    with pytest.raises(SheetError) as caught:
        load_sheet(data)
    assert caught.value.field == field
    assert isinstance(caught.value, ValueError)


def test_sheet_without_preset_must_give_every_option():
    full = preset("common").to_json(full=True)
    del full["preset"]
    del full["book_size"]
    with pytest.raises(SheetError) as caught:
        load_sheet(full)
    assert caught.value.field == "sheet.book_size"


def test_replace_checks_the_whole_sheet_again():
    with pytest.raises(SheetError) as caught:
        preset("common").replace(book_size=2)
    assert caught.value.field == "book_size"
    assert preset("common").replace(book_size=8).book_size == 8


def test_an_opening_minimum_list_as_long_as_the_game_is_accepted():
    sheet = load_sheet({"preset": "common", "opening_minimums": [60, 90, 120, 150]})
    assert [sheet.opening_minimum(n) for n in (1, 2, 3, 4)] == [60, 90, 120, 150]


def test_opening_by_running_total_uses_the_bands():
    sheet = load_sheet({"preset": "common", "opening_by": "running-total"})
    assert [sheet.opening_minimum(1, total) for total in (0, 2499, 2500, 5000, 7499, 7500, 20_000)] == \
        [50, 50, 90, 120, 120, 150, 150]


# ---------------------------------------------------------------------------------------
# JSON round trips and changes()
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset_id", SHIPPED)
def test_preset_json_is_just_the_preset_id_and_round_trips(preset_id):
    sheet = preset(preset_id)
    assert sheet.to_json() == {"preset": preset_id, "preset_version": PRESETS[preset_id].version}
    assert load_sheet(sheet.to_json()) == sheet
    assert load_sheet(preset_id) == sheet


@pytest.mark.parametrize("preset_id", SHIPPED)
def test_full_sheet_json_round_trips_through_real_json(preset_id):
    sheet = preset(preset_id)
    full = json.loads(json.dumps(sheet.to_json(full=True)))
    assert full["preset"] == preset_id
    assert set(full) == {"preset", "preset_version"} | {o.name for o in OPTIONS}
    again = load_sheet(full)
    assert again == sheet
    assert again.preset == preset_id
    assert again.changes() == []


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_full_sheet_without_a_preset_round_trips(preset_id):
    full = json.loads(json.dumps(preset(preset_id).to_json(full=True)))
    del full["preset"], full["preset_version"]
    sheet = load_sheet(full)
    assert sheet == preset(preset_id)  # the preset is not an option
    assert sheet.preset is None
    assert sheet.changes() == []  # nothing to compare against
    assert sheet.to_json() == full  # without a preset, every option is written
    assert load_sheet(json.loads(json.dumps(sheet.to_json()))) == sheet


def test_changed_sheet_round_trips_and_writes_only_its_changes():
    data = {"preset": "pagat", "hand_size": 11, "foot_size": 11, "special_books": {"7": 1000},
            "opening_minimums": [60, 90, 120, 150], "pile_blocked_by": ["black-three"],
            "books_to_go_out": [{"clean": 1, "dirty": 1}, {"clean": 2, "dirty": 1},
                                {"clean": 2, "dirty": 2}, {"clean": 3, "dirty": 2, "wild": 1}],
            "max_wilds": 2, "card_values": {"9": 5}}
    sheet = load_sheet(data)
    written = json.loads(json.dumps(sheet.to_json()))
    assert load_sheet(written) == sheet
    assert set(written) == set(data) | {"preset_version"}
    assert written["card_values"]["9"] == 5 and written["card_values"]["8"] == 10
    assert sheet.going_out_books(4) == Books(clean=3, dirty=2, wild=1)
    assert sheet.special_bonus(Card.SEVEN) == 1000
    full = sheet.to_json(full=True)
    assert load_sheet(full) == sheet


def test_changes_lists_exactly_the_options_that_differ_from_the_preset():
    sheet = load_sheet({"preset": "pagat", "hand_size": 11, "foot_size": 11, "going_out_bonus": 200,
                        "wild_ratio": "twice",  # same as Pagat: not a change
                        "card_values": {"9": 5}})
    changes = sheet.changes()
    assert [c.option for c in changes] == ["hand_size", "foot_size", "card_values", "going_out_bonus"]
    hand = changes[0]
    assert (hand.label, hand.preset_value, hand.value) == ("Cards in the hand", "13", "11")
    going_out = changes[3]
    assert "100" in going_out.preset_value and "200" in going_out.value


def test_setting_a_preset_value_again_is_not_a_change():
    sheet = load_sheet({"preset": "pagat", "hand_size": 13, "wild_books": True})
    assert sheet.changes() == []
    assert sheet.to_json() == {"preset": "pagat", "preset_version": 2}


def test_a_changed_sheet_is_not_equal_to_its_preset():
    assert load_sheet({"preset": "common", "hand_size": 13}) != preset("common")
    assert load_sheet({"preset": "common", "hand_size": 13}) == preset("common").replace(hand_size=13)


# ---------------------------------------------------------------------------------------
# The catalogue
# ---------------------------------------------------------------------------------------


def test_every_option_is_a_sheet_field_and_every_field_an_option():
    fields = {f.name for f in dataclasses.fields(RuleSheet)} - {"preset", "preset_version"}
    names = [o.name for o in OPTIONS]
    assert len(names) == len(set(names))
    assert set(names) == fields


@pytest.mark.parametrize("option", OPTIONS, ids=lambda o: o.name)
def test_every_option_has_a_group_label_help_and_words_for_every_preset(option):
    from scorepad.rules.catalogue import GROUPS
    assert option.group in {g for g, _ in GROUPS}
    assert option.label.strip()
    assert option.help.strip()
    for preset_id in PRESET_IDS:
        words = preset(preset_id).describe(option.name)
        assert isinstance(words, str) and words.strip()


def readme_option_rows() -> list[list[str]]:
    """The option names of each row of the README's option table (``| option | meaning |``)."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    table = readme.split("| option | meaning |\n| --- | --- |\n", 1)[1].split("\n\n", 1)[0]
    return [re.findall(r"`([a-z_]+)`", row.split("|")[1]) for row in table.splitlines()]


def test_the_readme_option_table_lists_every_option_of_the_catalogue_once_and_no_other():
    rows = readme_option_rows()
    assert all(rows), "a row of the README's option table names no option"
    listed = [name for row in rows for name in row]
    catalogue = [option.name for option in OPTIONS]
    assert sorted(set(catalogue) - set(listed)) == [], "options missing from the README's table"
    assert sorted(set(listed) - set(catalogue)) == [], "README rows for options the catalogue does not have"
    assert len(listed) == len(set(listed)), "an option listed twice in the README's table"
    assert listed == [name for name in catalogue if name in listed], "the README lists options out of catalogue order"


def test_describe_puts_the_wild_limit_in_words():
    assert preset("common").describe("wild_ratio") == "more natural cards than wild cards"
    assert preset("pagat").describe("wild_ratio") == "at least twice as many natural cards as wild cards"
    assert preset("pagat").describe("books_to_go_out") == "2 clean + 2 dirty + 1 wild"
    assert preset("common").describe("side_sizes") == "individuals or partnerships of 2"


def test_a_ruling_cites_an_option_by_its_label_and_what_this_sheet_says():
    changed = preset("pagat").replace(hand_size=11)
    cited = changed.cite("hand_size")
    assert (cited.option, cited.label, cited.words) == ("hand_size", "Cards in the hand", "11")
    assert str(preset("common").cite("wild_ratio")) == "Wild cards against naturals: more natural cards than wild cards"
    assert changed.cite(None) is None and changed.cite("no_such_option") is None


# ---------------------------------------------------------------------------------------
# Card strings
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("text, counts", [
    ("K K K K 2 JK", {"K": 4, "2": 1, "JK": 1}),
    ("Kx3", {"K": 3}),
    ("K*3 kx2", {"K": 5}),
    ("10 10 t 4x2, 3B", {"10": 3, "4": 2, "3B": 1}),
    ("joker JO w jk", {"JK": 4}),
    ("3R 3r 3b", {"3R": 2, "3B": 1}),
    ("", {}),
    ("  ,  ", {}),
], ids=["spaces", "times-count", "star-count-and-lower-case", "ten-and-commas", "joker-spellings",
        "threes", "empty", "only-separators"])
def test_card_string_forms_parse_as_documented(text, counts):
    assert Cards.parse(text).to_json() == counts
    assert Cards.from_json(text) == Cards.from_json(counts)


@pytest.mark.parametrize("text", ["3", "Z", "K K 1", "Kx", "11"])
def test_unreadable_card_strings_are_refused(text):
    with pytest.raises(ReadError) as caught:
        Cards.parse(text, "cards_left")
    assert caught.value.field == "cards_left"


def test_a_card_string_writes_back_in_its_own_form():
    assert str(Cards.parse("JK 2 Kx2")) == "K K 2 JK"
    assert Cards.parse(str(Cards.parse("Ax2 3B 3R"))) == Cards.parse("A A 3B 3R")


def test_a_meld_reads_its_rank_from_its_natural_cards():
    assert Meld.from_json("K K K K 2 JK") == Meld(Rank.KING, naturals=4, twos=1, jokers=1)
    assert Meld.from_json("2 2 JK") == Meld(Rank.WILD, twos=2, jokers=1)
    assert Meld.from_json({"rank": "Q", "cards": "Qx5 2"}) == Meld(Rank.QUEEN, 5, 1, 0)
    assert Meld.from_json({"rank": "t", "naturals": 3}) == Meld(Rank.TEN, 3)


# ---------------------------------------------------------------------------------------
# Reading a deal: ReadError names the field
# ---------------------------------------------------------------------------------------


def _deal_json() -> dict:
    return {
        "sheet": "common", "deal": 1, "ending": "went_out", "went_out": "Ann",
        "sides": [
            {"name": "Ann", "red_threes": 1,
             "melds": ["K K K K K K K", {"rank": "Q", "naturals": 5, "twos": 2}],
             "players": [{"name": "Ann", "foot_picked_up": True, "cards_left": {}}]},
            {"name": "Bea", "melds": ["J J J"],
             "players": [{"name": "Bea", "foot_picked_up": False, "cards_left": "A 3B",
                          "foot": "Ax2 Kx3 9x2 7 6 5 JK"}]},
        ],
    }


def _with(path: tuple, value: object) -> dict:
    data = _deal_json()
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


def test_the_base_deal_reads():
    from scorepad.rules import validate
    deal = Deal.from_json(_deal_json())
    assert deal.sides[1].players[0].foot.total == 11
    assert validate(deal).codes() == []


@pytest.mark.parametrize("data, field", [
    (_with(("sides", 1, "players", 0, "cards_left"), {"A": "3"}), "sides[1].players[0].cards_left.A"),
    (_with(("sides", 1, "players", 0, "cards_left"), {"A": True}), "sides[1].players[0].cards_left.A"),
    (_with(("sides", 1, "players", 0, "cards_left"), {"A": 1.0}), "sides[1].players[0].cards_left.A"),
    (_with(("sides", 1, "players", 0, "cards_left"), {"Z": 1}), "sides[1].players[0].cards_left.Z"),
    (_with(("sides", 1, "players", 0, "cards_left"), "A Z"), "sides[1].players[0].cards_left"),
    (_with(("sides", 1, "players", 0, "cards_left"), {"3": 1}), "sides[1].players[0].cards_left.3"),
    (_with(("sides", 1, "players", 0, "foot"), ["A"]), "sides[1].players[0].foot"),
    (_with(("sides", 0, "melds", 1, "naturals"), "5"), "sides[0].melds[1].naturals"),
    (_with(("sides", 0, "melds", 1, "twos"), False), "sides[0].melds[1].twos"),
    (_with(("sides", 0, "melds", 0), "K K Q"), "sides[0].melds[0]"),
    (_with(("sides", 0, "melds", 0), {"rank": "Q", "cards": "K K K"}), "sides[0].melds[0].cards"),
    (_with(("sides", 0, "melds", 0), {"rank": "Q", "cards": "Q Q Q", "naturals": 3}), "sides[0].melds[0].cards"),
    (_with(("sides", 0, "melds", 0), {"naturals": 3}), "sides[0].melds[0].rank"),
    (_with(("sides", 0, "melds", 0), {"rank": "Z", "naturals": 3}), "sides[0].melds[0].rank"),
    (_with(("sides", 0, "melds", 0), 7), "sides[0].melds[0]"),
    (_with(("sides", 0, "red_threes"), "1"), "sides[0].red_threes"),
    (_with(("sides", 0, "colour"), "red"), "sides[0].colour"),
    (_with(("sides", 0, "players", 0, "colour"), "red"), "sides[0].players[0].colour"),
    (_with(("sides", 0, "players", 0, "foot_picked_up"), "yes"), "sides[0].players[0].foot_picked_up"),
    (_with(("sides", 0, "players", 0, "cut_bonus"), 1), "sides[0].players[0].cut_bonus"),
    (_with(("sides", 0, "players", 0, "name"), "  "), "sides[0].players[0].name"),
    (_with(("sides", 0, "name"), None), "sides[0].name"),
    (_with(("sides", 0, "melds"), "K K K"), "sides[0].melds"),
    (_with(("colour",), "red"), "colour"),
    (_with(("ending",), "gave_up"), "ending"),
    (_with(("deal",), "1"), "deal"),
    (_with(("deal",), True), "deal"),
    (_with(("went_out",), 3), "went_out"),
    (_with(("sides",), {}), "sides"),
    (_with(("sheet",), {"preset": "common", "book_size": 2}), "sheet.book_size"),
], ids=["count-as-text", "bool-count", "float-count", "unknown-card-key", "unknown-card-in-string",
        "three-without-colour", "foot-as-list", "meld-naturals-as-text", "meld-twos-bool", "meld-mixed-ranks",
        "meld-rank-disagrees-with-cards", "meld-cards-and-counts", "meld-without-rank", "meld-unknown-rank",
        "meld-not-an-object", "red-threes-as-text", "unknown-side-key", "unknown-player-key",
        "foot-picked-up-not-bool", "cut-bonus-not-bool", "blank-player-name", "missing-side-name",
        "melds-not-a-list", "unknown-deal-key", "unknown-ending", "deal-number-as-text", "deal-number-bool",
        "went-out-not-a-name", "sides-not-a-list", "impossible-sheet"])
def test_unreadable_deal_raises_read_error_naming_the_field(data, field):
    with pytest.raises(ReadError) as caught:
        Deal.from_json(data)
    assert caught.value.field == field


@pytest.mark.parametrize("key, field", [
    ("ending", "ending"), ("sides", "sides"), ("sheet", "sheet"), ("deal", "deal")])
def test_a_deal_missing_a_required_field_names_it(key, field):
    data = _deal_json()
    del data[key]
    with pytest.raises(ReadError) as caught:
        Deal.from_json(data)
    assert caught.value.field == field


def test_a_player_missing_foot_picked_up_is_refused():
    data = _deal_json()
    del data["sides"][0]["players"][0]["foot_picked_up"]
    with pytest.raises(ReadError) as caught:
        Deal.from_json(data)
    assert caught.value.field == "sides[0].players[0].foot_picked_up"


def test_a_deal_in_a_game_takes_the_game_sheet_and_number():
    data = _deal_json()
    del data["sheet"], data["deal"]
    deal = Deal.from_json(data, sheet=preset("bicycle"), number=3)
    assert deal.sheet.preset == "bicycle" and deal.number == 3
    with pytest.raises(ReadError) as caught:
        Deal.from_json(_deal_json(), sheet=preset("bicycle"))
    assert caught.value.field == "sheet"


def test_a_negative_count_is_read_for_the_referee_to_report():
    deal = Deal.from_json(_with(("sides", 1, "players", 0, "cards_left"), {"A": -1}))
    assert deal.sides[1].players[0].cards_left[Card.ACE] == -1


def test_deal_round_trips_through_its_json():
    deal = Deal.from_json(_deal_json())
    written = json.loads(json.dumps(deal.to_json()))
    assert written["sheet"] == "common"
    assert written["sides"][0]["melds"][1] == {"rank": "Q", "naturals": 5, "twos": 2}
    assert Deal.from_json(written) == deal
    assert Deal.from_json(written).to_json() == written


def test_deal_with_a_changed_sheet_and_cut_bonus_round_trips():
    data = _deal_json()
    data["sheet"] = {"preset": "pagat", "hand_size": 11, "foot_size": 11, "cut_bonus": 100}
    data["sides"][0]["players"][0]["cut_bonus"] = True
    deal = Deal.from_json(data)
    written = json.loads(json.dumps(deal.to_json()))
    assert written["sheet"] == {"preset": "pagat", "preset_version": 2, "hand_size": 11, "foot_size": 11,
                                "cut_bonus": 100}
    again = Deal.from_json(written)
    assert again == deal
    assert again.sheet.changes() == deal.sheet.changes()
    assert again.sides[0].players[0].cut_bonus is True


def test_deal_json_without_sheet_is_for_a_deal_in_a_game():
    deal = Deal.from_json(_deal_json())
    written = deal.to_json(with_sheet=False)
    assert "sheet" not in written
    assert Deal.from_json(copy.deepcopy(written), sheet=preset("common")) == deal
