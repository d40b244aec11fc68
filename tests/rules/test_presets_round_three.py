"""Specification: the presets added in rules round three, each with a four-deal game worked by hand.

``drwingnut`` (a family's partnership rules), ``bga`` (Board Game Arena's table with its common
contract), ``hand-knee-foot`` (the card rooms' Hand, Knee and Foot), ``tanglewood`` (a card room's
teams) and ``vegas`` (the Vegas set over Tanglewood's four hands). Each
game below is four players in two partnerships, Us (Ann, Cal) against Them (Bea, Dan); every
deal's score is worked out in the comment or the assertion beside it.

Card values unless a sheet says otherwise: joker 50, ace and 2 20, K to 8 10, 7 to 4 5, black
three 5.
"""

from __future__ import annotations

import pytest

from scorepad.rules import PRESETS, Card, load_sheet, preset
from scorepad.rules.choices import OpeningWho, PartnerFoot, PerDeal
from scorepad.rules.game import Game
from scorepad.rules.published import GROUPS
from scorepad.rules.sheet import presets_by_group
from tests.rules import test_published

ROUND_THREE = ("drwingnut", "bga", "hand-knee-foot", "tanglewood", "vegas")


def player(name: str, cards_left: str = "", **more: object) -> dict[str, object]:
    return {"name": name, "foot_picked_up": True, "cards_left": cards_left, **more}


def unopened(name: str, foot: str, cards_left: str = "", **more: object) -> dict[str, object]:
    return {"name": name, "foot_picked_up": False, "cards_left": cards_left, "foot": foot, **more}


def side(name: str, melds: list[str], *players: dict[str, object], **more: object) -> dict[str, object]:
    return {"name": name, "melds": melds, "players": list(players), **more}


def stock_out(us: dict[str, object], them: dict[str, object], **more: object) -> dict[str, object]:
    return {"ending": "stock_out", "sides": [us, them], **more}


def went_out(by: str, us: dict[str, object], them: dict[str, object], **more: object) -> dict[str, object]:
    return {"ending": "went_out", "went_out": by, "sides": [us, them], **more}


def game(sheet: object, *deals: dict[str, object]) -> Game:
    return Game.from_json({"sheet": sheet, "sides": ["Us", "Them"], "deals": list(deals)})


def deal_scores(played: Game) -> list[tuple[int, int]]:
    return [(v.breakdown.sides[0].total, v.breakdown.sides[1].total) for v in played.verdicts]


# -- every preset: a source by title and address, a group ---------------------------------------


@pytest.mark.parametrize("preset_id", ROUND_THREE)
def test_a_round_three_preset_cites_its_source_by_title_and_address_and_says_what_it_chose(preset_id):
    found = PRESETS[preset_id]
    assert found.source.title and found.source.url and found.source.url.startswith("https://")
    assert ".txt" not in str(found.source) and "shared/" not in str(found.source)  # never a file path
    assert found.not_stated and all(words for words in found.not_stated.values())
    assert found.version == 1


def test_every_preset_is_in_one_group_and_the_groups_list_every_preset_once():
    assert {p.group for p in PRESETS.values()} <= {group for group, _ in GROUPS}
    listed = [p.id for group in presets_by_group() for p in group.presets]
    assert sorted(listed) == sorted(PRESETS)
    used = {p.group for p in PRESETS.values()}
    assert [group.id for group in presets_by_group()] == [group for group, _ in GROUPS if group in used]
    assert (PRESETS["drwingnut"].group, PRESETS["bga"].group) == ("card-rooms", "online")
    assert {PRESETS["tanglewood"].group, PRESETS["vegas"].group} == {"card-rooms"}


@pytest.mark.parametrize(("preset_id", "set_id"), [("drwingnut", "drwingnut"), ("bga", "bga"),
                                                   ("hand-knee-foot", "hand-knee-foot"),
                                                   ("tanglewood", "tanglewood"), ("vegas", "vegas-twrtimes")])
def test_a_preset_plays_as_its_published_set_is_held(preset_id, set_id):
    """The preset and the published set's sheet (tests/rules/test_published.py) agree on every
    option, its house rules too."""
    held = load_sheet(test_published.SHEETS[set_id])
    assert held.replace(preset=preset_id, preset_version=1) == preset(preset_id)


# -- drwingnut: a four-deal game ------------------------------------------------------------------


def drwingnut_game() -> Game:
    foot = "K Q J 10 9 8 7 6 5 4 A"  # K to 8 60, 7 to 4 20, an ace 20: 100
    return game(
        "drwingnut",
        # 1. Us out: natural sevens 35 + 1,500 (counts as the clean book); kings 50 + 2s 40 + 300;
        #    queens 60 + joker 50 + 300; going out 100; Cal's 4 -5: 2,430. Them: aces 80, Bea's 9 -10: 70.
        went_out("Ann", side("Us", ["7 7 7 7 7 7 7", "K K K K K 2 2", "Q Q Q Q Q Q JK"], player("Ann"),
                             player("Cal", "4")),
                 side("Them", ["A A A A"], player("Bea", "9"), player("Dan"))),
        # 2. The stock runs out. Us: jacks 70 + 500, Ann's ace -20: 550.
        #    Them: eights 60 + 20 + 300, sixes 15, Bea's joker -50: 345.
        stock_out(side("Us", ["J J J J J J J"], player("Ann", "A"), player("Cal")),
                  side("Them", ["8 8 8 8 8 8 2", "6 6 6"], player("Bea", "JK"), player("Dan"))),
        # 3. Dan goes out without playing his foot: tens 70 + 500; nines 50 + 40 + 300; fives 25 + 70 + 300;
        #    going out 100; his unopened foot -100: 1,355. Us: kings 30, Ann's queen -10, Cal's black three -5: 15.
        went_out("Dan", side("Us", ["K K K"], player("Ann", "Q"), player("Cal", "3B")),
                 side("Them", ["10 10 10 10 10 10 10", "9 9 9 9 9 2 2", "5 5 5 5 5 JK 2"], player("Bea"),
                      unopened("Dan", foot))),
        # 4. The stock runs out. Us: sevens with a 2 are a dirty book, 30 + 20 + 300; aces 100: 450.
        #    Them: queens 40, Dan's two 2s -40: 0.
        stock_out(side("Us", ["7 7 7 7 7 7 2", "A A A A A"], player("Ann"), player("Cal")),
                  side("Them", ["Q Q Q Q"], player("Bea"), player("Dan", "2 2"))),
    )


def test_drwingnut_four_deals_score_as_worked_by_hand():
    played = drwingnut_game()
    assert all(v.ok for v in played.verdicts), [v.report.codes() for v in played.verdicts]
    assert deal_scores(played) == [
        (35 + 1500 + 50 + 40 + 300 + 60 + 50 + 300 + 100 - 5, 80 - 10),
        (70 + 500 - 20, 60 + 20 + 300 + 15 - 50),
        (30 - 10 - 5, 70 + 500 + 50 + 40 + 300 + 25 + 70 + 300 + 100 - 100),
        (30 + 20 + 300 + 100, 40 - 40),
    ]
    assert deal_scores(played) == [(2430, 70), (550, 345), (15, 1355), (450, 0)]
    assert played.running_totals() == [{"Us": 2430, "Them": 70}, {"Us": 2980, "Them": 415},
                                       {"Us": 2995, "Them": 1770}, {"Us": 3445, "Them": 1770}]
    assert played.result().over and played.result().winner == "Us"


def test_drwingnut_a_player_goes_out_without_the_foot_but_needs_two_dirty_books():
    sheet = preset("drwingnut")
    assert sheet.go_out_foot is False and sheet.opening_who is OpeningWho.SIDE
    assert sheet.opening_minimums == PerDeal((60, 90, 120, 150))
    one_dirty = went_out("Ann", side("Us", ["7 7 7 7 7 7 7", "K K K K K 2 2"], player("Ann"), player("Cal")),
                         side("Them", ["A A A"], player("Bea"), player("Dan")))
    assert game("drwingnut", one_dirty).verdicts[0].report.codes() == ["went_out.books"]


def test_drwingnut_deals_fewer_decks_than_players_at_six():
    sheet = preset("drwingnut")
    assert [sheet.decks_for(n) for n in (3, 4, 5, 6)] == [3, 4, 4, 5]
    assert sheet.special_bonus(Card.SEVEN) == 1500
    assert sheet.house_rules[0].startswith("A player may go out without playing the foot")


# -- Board Game Arena: a four-deal game -----------------------------------------------------------


def bga_game() -> Game:
    return game(
        "bga",
        # 1. The stock runs out. Us: kings 70 + 500, queens 40 + a 2 20, a red three 100, Cal's 5 -5: 725.
        #    Them: a wild book, four 2s 80 + three jokers 150 + 1,500, Bea's black three -5: 1,725.
        stock_out(side("Us", ["K K K K K K K", "Q Q Q Q 2"], player("Ann"), player("Cal", "5"), red_threes=1),
                  side("Them", ["2 2 2 2 JK JK JK"], player("Bea", "3B"), player("Dan"))),
        # 2. Ann goes out with the contract: aces 140 + 500, jacks 70 + 500, tens 50 + 40 + 300,
        #    nines 50 + 70 + 300, seven 2s 140 + 1,500, going out 100: 3,760.
        #    Them: eights 30, Bea's joker -50, Dan's unopened foot (K to 8 60, 7 to 4 20, black three 5) -85: -105.
        went_out("Ann", side("Us", ["A A A A A A A", "J J J J J J J", "10 10 10 10 10 2 2", "9 9 9 9 9 JK 2",
                                    "2 2 2 2 2 2 2"], player("Ann"), player("Cal")),
                 side("Them", ["8 8 8"], player("Bea", "JK"), unopened("Dan", "K Q J 10 9 8 7 6 5 4 3B"))),
        # 3. Bea goes out: queens 70 + 500, kings 70 + 500, sixes 25 + 40 + 300, fives 30 + 50 + 300,
        #    a wild book 150 + 80 + 1,500, going out 100: 3,715. Us: fours 20, two red threes 200, Ann's aces -40: 180.
        went_out("Bea", side("Us", ["4 4 4 4"], player("Ann", "A A"), player("Cal"), red_threes=2),
                 side("Them", ["Q Q Q Q Q Q Q", "K K K K K K K", "6 6 6 6 6 2 2", "5 5 5 5 5 5 JK",
                               "JK JK JK 2 2 2 2"], player("Bea"), player("Dan"))),
        # 4. The stock runs out. Us: jacks 60 + 20 + 300, Cal's 7 -5: 375. Them: nines 30, two black threes -10: 20.
        stock_out(side("Us", ["J J J J J J 2"], player("Ann"), player("Cal", "7")),
                  side("Them", ["9 9 9"], player("Bea", "3B 3B"), player("Dan"))),
    )


def test_bga_four_deals_score_as_worked_by_hand():
    played = bga_game()
    assert all(v.ok for v in played.verdicts), [v.report.codes() for v in played.verdicts]
    assert deal_scores(played) == [
        (70 + 500 + 40 + 20 + 100 - 5, 80 + 150 + 1500 - 5),
        (140 + 500 + 70 + 500 + 50 + 40 + 300 + 50 + 70 + 300 + 140 + 1500 + 100, 30 - 50 - 85),
        (20 + 200 - 40, 70 + 500 + 70 + 500 + 25 + 40 + 300 + 30 + 50 + 300 + 150 + 80 + 1500 + 100),
        (60 + 20 + 300 - 5, 30 - 10),
    ]
    assert deal_scores(played) == [(725, 1725), (3760, -105), (180, 3715), (375, 20)]
    assert played.running_totals() == [{"Us": 725, "Them": 1725}, {"Us": 4485, "Them": 1620},
                                       {"Us": 4665, "Them": 5335}, {"Us": 5040, "Them": 5355}]
    assert played.result().winner == "Them"


def test_bga_the_contract_needs_the_wild_book():
    short = went_out("Ann", side("Us", ["A A A A A A A", "J J J J J J J", "10 10 10 10 10 2 2", "9 9 9 9 9 JK 2"],
                                 player("Ann"), player("Cal")),
                     side("Them", ["8 8 8"], player("Bea"), player("Dan")))
    assert game("bga", short).verdicts[0].report.codes() == ["went_out.books"]


def test_bga_walking_and_running_are_its_house_rules_and_it_seats_up_to_twelve_in_teams():
    found = PRESETS["bga"]
    assert [rule.split(":")[0] for rule in found.sheet.house_rules[:2]] == ["Walking", "Running"]
    assert (found.sheet.max_players, found.sheet.side_sizes) == (12, (1, 2, 3, 4))
    assert found.sheet.go_out_partner_foot is PartnerFoot.NO


# -- Hand, Knee and Foot: a four-deal game --------------------------------------------------------


def knee(name: str, cards_left: str = "", **more: object) -> dict[str, object]:
    return {"name": name, "knee_picked_up": True, "foot_picked_up": True, "cards_left": cards_left, **more}


def hkf_game() -> Game:
    return game(
        "hand-knee-foot",
        # 1. Ann goes out with the five books: a wild book (four 2s 80, three jokers 150) 2,500, sevens 35 + 5,000,
        #    fives 35 + 3,000, kings 70 + 500, queens 50 + two 2s 40 + 300, going out 200, a red three 100: 12,060.
        #    Them: nines 70 + 500; Bea's black three -300; Dan's unopened knee (twelve cards of 10, an ace) -140
        #    and foot (eight cards of 5, two aces, a 2) -100: 30.
        went_out("Ann", side("Us", ["2 2 2 2 JK JK JK", "7 7 7 7 7 7 7", "5 5 5 5 5 5 5", "K K K K K K K",
                                    "Q Q Q Q Q 2 2"], knee("Ann"), knee("Cal"), red_threes=1),
                 side("Them", ["9 9 9 9 9 9 9"], knee("Bea", "3B"),
                      {"name": "Dan", "knee_picked_up": False, "foot_picked_up": False, "cards_left": "",
                       "knee": "K K Q Q J J 10 10 9 9 8 8 A", "foot": "4 4 4 4 6 6 6 6 A A 2"}),
                 permission="asked-yes"),
        # 2. The stock runs out. Us: three books of sevens, 105, but only two score the bonus: 2 x 5,000: 10,105.
        #    Them: fives 35 + 3,000, Dan's red three -500: 2,535.
        stock_out(side("Us", ["7 7 7 7 7 7 7"] * 3, knee("Ann"), knee("Cal")),
                  side("Them", ["5 5 5 5 5 5 5"], knee("Bea"), knee("Dan", "3R"))),
        # 3. Bea goes out: a wild book (three 2s 60, four jokers 200) 2,500, sevens 35 + 5,000, fives 35 + 3,000,
        #    aces 140 + 500, kings 60 + a 2 20 + 300, going out 200, three red threes 300: 12,350.
        #    Us: queens 40; Ann's black three -300; Cal's unopened foot (K to 8 60, 7 to 4 20) -80 and its red
        #    three -500: -840.
        went_out("Bea", side("Us", ["Q Q Q Q"], knee("Ann", "3B"),
                             {"name": "Cal", "knee_picked_up": True, "foot_picked_up": False, "cards_left": "",
                              "foot": "3R K Q J 10 9 8 7 6 5 4"}),
                 side("Them", ["2 2 2 JK JK JK JK", "7 7 7 7 7 7 7", "5 5 5 5 5 5 5", "A A A A A A A",
                               "K K K K K K 2"], knee("Bea"), knee("Dan"), red_threes=3),
                 permission="asked-yes"),
        # 4. The stock runs out. Us: a book of seven red threes, 1,000 in all; jacks 70 + 500: 1,570.
        #    Them: eights 30, Bea's 2 -20: 10.
        stock_out(side("Us", ["3R 3R 3R 3R 3R 3R 3R", "J J J J J J J"], knee("Ann"), knee("Cal")),
                  side("Them", ["8 8 8"], knee("Bea", "2"), knee("Dan"))),
    )


def test_hand_knee_foot_four_deals_score_as_worked_by_hand():
    played = hkf_game()
    assert all(v.ok for v in played.verdicts), [v.report.codes() for v in played.verdicts]
    assert deal_scores(played) == [
        (4 * 20 + 3 * 50 + 2500 + 35 + 5000 + 35 + 3000 + 70 + 500 + 50 + 40 + 300 + 200 + 100,
         70 + 500 - 300 - (12 * 10 + 20) - (8 * 5 + 2 * 20 + 20)),
        (3 * 35 + 2 * 5000, 35 + 3000 - 500),
        (40 - 300 - (6 * 10 + 4 * 5) - 500,
         3 * 20 + 4 * 50 + 2500 + 35 + 5000 + 35 + 3000 + 140 + 500 + 60 + 20 + 300 + 200 + 3 * 100),
        (1000 + 70 + 500, 30 - 20),
    ]
    assert deal_scores(played) == [(12060, 30), (10105, 2535), (-840, 12350), (1570, 10)]
    assert played.running_totals() == [{"Us": 12060, "Them": 30}, {"Us": 22165, "Them": 2565},
                                       {"Us": 21325, "Them": 14915}, {"Us": 22895, "Them": 14925}]
    assert played.result().winner == "Us"


def test_hand_knee_foot_deals_fifteen_thirteen_and_eleven_and_opens_by_the_running_total():
    sheet = preset("hand-knee-foot")
    assert (sheet.hand_size, sheet.knee_size.at(1), sheet.foot_size) == (15, 13, 11)
    played = hkf_game()
    assert played.opening_minimum("Us", 2) == 50  # 12,060: below 15,000
    assert played.opening_minimum("Us", 3) == 90  # 22,165: from 15,000 to 29,999
    assert played.opening_minimum("Them", 4) == 50  # 14,915: still below 15,000


# -- Tanglewood: a four-deal game -----------------------------------------------------------------
# Its card values: joker 50, ace and 2 20, K to 10 10, 9 to 4 5, black three 5. A red three is
# never laid: one still in a hand or a foot never picked up costs 500. A cut of exactly 22 is 100.


def tanglewood_game() -> Game:
    return game(
        "tanglewood",
        # 1. Ann goes out: kings 70 + 500; nines (at 5) 25 + two 2s 40 + 300; eights (at 5) 15; going out 100;
        #    Ann's cut 100; Cal's red three -500 and seven -5: 645.
        #    Them: aces 80, sixes 15; Bea's nine and eight -10; Dan's foot never picked up, its red three -500
        #    and K Q J 10 40, 9 to 4 30: -570; Dan's cut 100: -385.
        went_out("Ann", side("Us", ["K K K K K K K", "9 9 9 9 9 2 2", "8 8 8"], player("Ann", cut_bonus=True),
                             player("Cal", "3R 7")),
                 side("Them", ["A A A A", "6 6 6"], player("Bea", "9 8"),
                      unopened("Dan", "3R K Q J 10 9 8 7 6 5 4", cut_bonus=True))),
        # 2. The stock runs out. Us: queens 70 + 500, Ann's red three -500, Cal's four -5: 65.
        #    Them: jacks 50 + two 2s 40 + 300, sevens 20, Bea's cut 100, Dan's joker -50: 460.
        stock_out(side("Us", ["Q Q Q Q Q Q Q"], player("Ann", "3R"), player("Cal", "4")),
                  side("Them", ["J J J J J 2 2", "7 7 7 7"], player("Bea", cut_bonus=True), player("Dan", "JK"))),
        # 3. Bea goes out: tens 70 + 500; fives 25 + a joker and a 2 70 + 300; aces 60; going out 100;
        #    Dan's nine -5: 1,120. Us: eights (at 5) 35 + 500, fours 15, Ann's two red threes -1,000,
        #    Cal's ace -20, Ann's cut 100: -370.
        went_out("Bea", side("Us", ["8 8 8 8 8 8 8", "4 4 4"], player("Ann", "3R 3R", cut_bonus=True),
                             player("Cal", "A")),
                 side("Them", ["10 10 10 10 10 10 10", "5 5 5 5 5 JK 2", "A A A"], player("Bea"), player("Dan", "9"))),
        # 4. The stock runs out. Us: jacks 70 + 500, sixes (at 5) 30 + a 2 20 + 300, Cal's king -10: 910.
        #    Them: queens 40, Bea's black three -5, Dan's red three -500: -465.
        stock_out(side("Us", ["J J J J J J J", "6 6 6 6 6 6 2"], player("Ann"), player("Cal", "K")),
                  side("Them", ["Q Q Q Q"], player("Bea", "3B"), player("Dan", "3R"))),
    )


def test_tanglewood_four_deals_score_as_worked_by_hand():
    played = tanglewood_game()
    assert all(v.ok for v in played.verdicts), [v.report.codes() for v in played.verdicts]
    assert deal_scores(played) == [
        (70 + 500 + 25 + 40 + 300 + 15 + 100 + 100 - 500 - 5, 80 + 15 - 10 - 500 - (40 + 30) + 100),
        (70 + 500 - 500 - 5, 50 + 40 + 300 + 20 + 100 - 50),
        (35 + 500 + 15 - 1000 - 20 + 100, 70 + 500 + 25 + 70 + 300 + 60 + 100 - 5),
        (70 + 500 + 30 + 20 + 300 - 10, 40 - 5 - 500),
    ]
    assert deal_scores(played) == [(645, -385), (65, 460), (-370, 1120), (910, -465)]
    assert played.running_totals() == [{"Us": 645, "Them": -385}, {"Us": 710, "Them": 75},
                                       {"Us": 340, "Them": 1195}, {"Us": 1250, "Them": 730}]
    assert played.result().over and played.result().winner == "Us"


def test_tanglewood_never_lays_a_red_three():
    laid = stock_out(side("Us", ["K K K K K K K"], player("Ann"), player("Cal"), red_threes=1),
                     side("Them", ["Q Q Q"], player("Bea"), player("Dan")))
    assert game("tanglewood", laid).verdicts[0].report.codes() == ["red_three.laid"]
    held = stock_out(side("Us", ["K K K K K K K"], player("Ann", "3R"), player("Cal")),
                     side("Them", ["Q Q Q"], player("Bea"), player("Dan")))
    assert game("tanglewood", held).verdicts[0].ok  # the same red three held: a cost, not a breach


def test_tanglewood_deals_a_deck_a_player_and_takes_exactly_three_from_the_pile():
    sheet = preset("tanglewood")
    assert [sheet.decks_for(n) for n in (4, 6, 8)] == [4, 6, 8]
    assert (sheet.pile_cards.at(1), sheet.pile_cards.at(4), sheet.pile_frozen_by_wild) == (3, 3, True)
    assert [sheet.value(card) for card in (Card.TEN, Card.NINE, Card.EIGHT, Card.FOUR)] == [10, 5, 5, 5]


# -- Vegas: a four-deal game ----------------------------------------------------------------------
# Standard card values but a black three left costs 300; a red three is never laid, and one left
# in a hand or a foot never picked up costs 500. Books to go out by deal: 3 clean + 3 dirty, 3 + 3,
# 4 + 4, 5 + 5; the last card is melded, never discarded. A closed book may take more cards.


def vegas_game() -> Game:
    return game(
        "vegas",
        # 1. Ann goes out with 3 clean and 3 dirty books: kings (eight, one buried) 80 + 500, queens 70 + 500,
        #    jacks 70 + 500; tens 50 + two 2s 40 + 300, nines 60 + a joker 50 + 300, eights 50 + a joker and
        #    a 2 70 + 300; going out 100; Cal's cut 100: 3,140.
        #    Them: aces 80; Bea's black three -300 and red three -500; Dan's five -5: -725.
        went_out("Ann", side("Us", ["K K K K K K K K", "Q Q Q Q Q Q Q", "J J J J J J J", "10 10 10 10 10 2 2",
                                    "9 9 9 9 9 9 JK", "8 8 8 8 8 JK 2"], player("Ann"), player("Cal", cut_bonus=True)),
                 side("Them", ["A A A A"], player("Bea", "3B 3R"), player("Dan", "5")), last_card="meld"),
        # 2. The stock runs out. Us: aces 140 + 500, sevens 20, Ann's black three -300: 360.
        #    Them: sixes 30 + a 2 20 + 300; fives (nine, two buried) 45 + 500; Dan's red three -500;
        #    Bea's cut 100: 495.
        stock_out(side("Us", ["A A A A A A A", "7 7 7 7"], player("Ann", "3B"), player("Cal")),
                  side("Them", ["6 6 6 6 6 6 2", "5 5 5 5 5 5 5 5 5"], player("Bea", cut_bonus=True),
                       player("Dan", "3R"))),
        # 3. Bea goes out with 4 clean and 4 dirty books: kings, queens, jacks, tens 4 x (70 + 500); nines
        #    50 + two 2s 40 + 300, eights 60 + a joker 50 + 300, sevens 25 + two jokers 100 + 300, fours 30 +
        #    a 2 20 + 300; going out 100: 3,955.
        #    Us: aces 60; Ann's two red threes -1,000; Cal's foot never picked up: its black three -300,
        #    K to 8 60, 7 to 4 20: -380: -1,320.
        went_out("Bea", side("Us", ["A A A"], player("Ann", "3R 3R"), unopened("Cal", "3B K Q J 10 9 8 7 6 5 4")),
                 side("Them", ["K K K K K K K", "Q Q Q Q Q Q Q", "J J J J J J J", "10 10 10 10 10 10 10",
                               "9 9 9 9 9 2 2", "8 8 8 8 8 8 JK", "7 7 7 7 7 JK JK", "4 4 4 4 4 4 2"],
                      player("Bea"), player("Dan")), last_card="meld"),
        # 4. Cal goes out with 5 clean and 5 dirty books: kings (nine, two buried) 90, queens 70, jacks 70,
        #    aces 140, sixes 35, and 5 x 500; tens 50 + two 2s 40, nines 60 + a joker 50, eights 50 + two 2s 40,
        #    fives 25 + two jokers 100, fours 30 + a 2 20, and 5 x 300; going out 100; Ann's cut 100: 5,070.
        #    Them: sevens 35 + 500, Bea's black three -300, Dan's joker and 2 -70: 165.
        went_out("Cal", vegas_deal_four_winners(), side("Them", ["7 7 7 7 7 7 7"], player("Bea", "3B"),
                                                        player("Dan", "JK 2")), last_card="meld"),
    )


def vegas_deal_four_winners(*, clean: int = 5, dirty: int = 5) -> dict[str, object]:
    """Us in deal 4, going out with the first ``clean`` and ``dirty`` of its books."""
    cleans = ["K K K K K K K K K", "Q Q Q Q Q Q Q", "J J J J J J J", "A A A A A A A", "6 6 6 6 6 6 6"]
    dirties = ["10 10 10 10 10 2 2", "9 9 9 9 9 9 JK", "8 8 8 8 8 2 2", "5 5 5 5 5 JK JK", "4 4 4 4 4 4 2"]
    return side("Us", cleans[:clean] + dirties[:dirty], player("Ann", cut_bonus=True), player("Cal"))


def test_vegas_four_deals_score_as_worked_by_hand():
    played = vegas_game()
    assert all(v.ok for v in played.verdicts), [v.report.codes() for v in played.verdicts]
    assert deal_scores(played) == [
        (80 + 70 + 70 + 3 * 500 + 50 + 40 + 60 + 50 + 50 + 70 + 3 * 300 + 100 + 100, 80 - 300 - 500 - 5),
        (140 + 500 + 20 - 300, 30 + 20 + 300 + 45 + 500 - 500 + 100),
        (60 - 1000 - (300 + 60 + 20),
         4 * (70 + 500) + 50 + 40 + 60 + 50 + 25 + 100 + 30 + 20 + 4 * 300 + 100),
        (90 + 70 + 70 + 140 + 35 + 5 * 500 + 50 + 40 + 60 + 50 + 50 + 40 + 25 + 100 + 30 + 20 + 5 * 300 + 100 + 100,
         35 + 500 - 300 - 70),
    ]
    assert deal_scores(played) == [(3140, -725), (360, 495), (-1320, 3955), (5070, 165)]
    assert played.running_totals() == [{"Us": 3140, "Them": -725}, {"Us": 3500, "Them": -230},
                                       {"Us": 2180, "Them": 3725}, {"Us": 7250, "Them": 3890}]
    assert played.result().over and played.result().winner == "Us"


def test_vegas_opens_at_90_120_150_and_180_and_draws_three_three_four_and_five():
    played = vegas_game()
    assert [played.opening_minimum("Us", n) for n in (1, 2, 3, 4)] == [90, 120, 150, 180]
    sheet = preset("vegas")
    assert [sheet.draws_per_turn.at(n) for n in (1, 2, 3, 4)] == [3, 3, 4, 5]
    assert [sheet.pile_cards.at(n) for n in (1, 2, 3, 4)] == [3, 3, 4, 5]
    assert [sheet.decks_for(n) for n in (4, 6)] == [6, 8]


def test_vegas_deal_four_needs_five_clean_and_five_dirty_books_to_go_out():
    """Four and four took deal 3 out; in deal 4 they are refused, naming the books to go out."""
    deals = vegas_game().to_json()["deals"]
    short = went_out("Cal", vegas_deal_four_winners(clean=4, dirty=4),
                     side("Them", ["7 7 7 7 7 7 7"], player("Bea", "3B"), player("Dan", "JK 2")), last_card="meld")
    refused = game("vegas", *deals[:3], short).verdicts[3]
    assert refused.report.codes() == ["went_out.books"]
    (problem,) = refused.report.violations
    assert problem.option == "books_to_go_out" and "5 clean + 5 dirty" in problem.message


def test_vegas_the_last_card_is_melded_never_discarded():
    deals = vegas_game().to_json()["deals"]
    by_discard = {**deals[0], "last_card": "discard"}
    assert "went_out.last_card" in game("vegas", by_discard).verdicts[0].report.codes()
