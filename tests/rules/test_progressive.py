"""Specification: the progressive preset against its source, and a four-deal game scored by hand.

The source is ../shared/rules/sources/progressive-house-sheet.txt (the IndyBlue sheet published
with the open-source score keeper scottherren/hand-foot-scoring). Each option the sheet states
is checked against it, deal by deal; each point it leaves unsaid is declared in ``not_stated``
with the value VARIATIONS.md calls the most common. The game (tests/data/game-progressive.json)
is worked here as a player adds it up at the table; the command line, the API and the pages
score the same file (tests/cli, tests/api, tests/web: ``test_progressive.py``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorepad.rules import PRESETS, Deal, load_sheet, preset, validate
from scorepad.rules.cards import Card
from scorepad.rules.choices import (
    STANDARD_VALUES,
    BookGrowth,
    Books,
    DecksRule,
    GameLength,
    LastCard,
    OpeningBy,
    OpeningPileCards,
    OpeningWho,
    PartnerFoot,
    PileBlocker,
    PileNeeds,
    PileTake,
    SecondMeld,
    StockOut,
    Upcard,
    WildRatio,
)
from scorepad.rules.game import Game

GAME_FILE = Path(__file__).parent.parent / "data" / "game-progressive.json"
SHEET = preset("progressive")
FOUND = PRESETS["progressive"]


# -- what the sheet states, option by option ----------------------------------------------------


def test_progressive_rises_each_deal_as_its_sheet_lists_deal_1_to_4():
    # The sheet's per-deal table: draw 3/4/5/6, lay down 90/120/150/180,
    # books to go out 3+3, 4+4, 5+5, 6+6, winner 300/400/500/600.
    assert [SHEET.draws_per_turn.at(n) for n in (1, 2, 3, 4)] == [3, 4, 5, 6]
    assert SHEET.opening_by is OpeningBy.DEAL
    assert [SHEET.opening_minimum(n) for n in (1, 2, 3, 4)] == [90, 120, 150, 180]
    assert [SHEET.going_out_books(n) for n in (1, 2, 3, 4)] == [
        Books(clean=3, dirty=3), Books(clean=4, dirty=4), Books(clean=5, dirty=5), Books(clean=6, dirty=6)]
    assert [SHEET.going_out_bonus_at(n) for n in (1, 2, 3, 4)] == [300, 400, 500, 600]
    # Each rises by a fixed step: one more card drawn, 30 more points to open, one more book
    # of each kind and 100 more for going out, every deal.
    assert [SHEET.opening_minimum(n + 1) - SHEET.opening_minimum(n) for n in (1, 2, 3)] == [30, 30, 30]
    assert [SHEET.going_out_bonus_at(n + 1) - SHEET.going_out_bonus_at(n) for n in (1, 2, 3)] == [100, 100, 100]


def test_progressive_is_four_deals_of_eleven_card_hands_and_feet():
    assert (SHEET.game_length, SHEET.deals, SHEET.last_deal()) == (GameLength.DEALS, 4, 4)
    assert (SHEET.hand_size, SHEET.foot_size) == (11, 11)


def test_progressive_is_for_two_to_six_players_alone_or_in_partnerships_of_two():
    assert (SHEET.min_players, SHEET.max_players) == (2, 6)
    assert SHEET.side_sizes == (1, 2)
    assert "individuals or partnerships of 2" in FOUND.title  # the title says what it allows
    assert SHEET.describe("side_sizes") == "individuals or partnerships of 2"


def test_progressive_books_and_red_threes_score_as_its_sheet_says():
    # Clean book 500, dirty book 300, book of sevens 1,000, book of wilds 1,500, red threes 100 each.
    assert (SHEET.clean_book_bonus, SHEET.dirty_book_bonus) == (500, 300)
    assert SHEET.special_books == ((Card.SEVEN, 1000),) and SHEET.special_bonus(Card.SEVEN) == 1000
    assert SHEET.wild_books and SHEET.wild_book_bonus == 1500
    assert SHEET.red_three_bonus == 100
    assert SHEET.book_size == 7  # the score keeper: "a clean book is 7 natural cards"


@pytest.mark.parametrize("card, points", [
    (Card.JOKER, 50), (Card.TWO, 20), (Card.ACE, 20),
    (Card.KING, 10), (Card.QUEEN, 10), (Card.JACK, 10), (Card.TEN, 10), (Card.NINE, 10), (Card.EIGHT, 10),
    (Card.SEVEN, 5), (Card.SIX, 5), (Card.FIVE, 5), (Card.FOUR, 5), (Card.BLACK_THREE, 5)])
def test_progressive_card_values_are_the_sheets_each_the_standard_value(card, points):
    # joker 50; 2 and ace 20; eight through king 10; four through seven 5; black three 5.
    assert SHEET.value(card) == points == STANDARD_VALUES[card]


def test_progressive_melds_start_with_three_cards():
    # "you must have at least 3 of each card to equal that number" (the opening melds).
    assert SHEET.meld_min == 3
    assert "meld_min" in FOUND.not_stated  # a reading of the sheet, said as such


def test_the_foot_after_the_hand_is_a_house_rule_of_the_preset_printed_never_checked():
    # "The foot may be picked up only after every card of the hand has been laid down":
    # nothing a deal records shows when a foot was picked up, so it is printed, never checked.
    assert SHEET.house_rules == ("A player picks up the foot only once every card of the hand has been played.",)
    assert all(not PRESETS[other].sheet.house_rules for other in ("common", "pagat", "bicycle", "gather-together"))


# -- what the sheet leaves unsaid: declared, with VARIATIONS.md's most common value ----------------


@pytest.mark.parametrize("option, value", [
    ("decks_rule", DecksRule.PLAYERS_PLUS_ONE),             # decks: players + 1
    ("jokers_per_deck", 2),                                 # jokers per deck: 2
    ("cut_bonus", 0),                                       # cut bonus: none
    ("upcard", Upcard.BURY_WILD_THREE),                     # first upcard: buried
    ("book_growth", BookGrowth.CLOSED),                     # meld size 3 to 7: books past seven take no more
    ("second_meld", SecondMeld.AFTER_BOOK),                 # second meld of a rank: after a book
    ("wild_ratio", WildRatio.MORE),                         # wild limit: naturals > wilds ...
    ("max_wilds", 3),                                       # ... at most 3 wilds
    ("special_books", ((Card.SEVEN, 1000),)),               # a *clean* book of sevens: a dirty one is a dirty book
    ("red_three_penalty_hand", 0),                          # never laid: "varies"; the sheet gives a bonus only
    ("red_three_penalty_foot", 0),
    ("opening_who", OpeningWho.SIDE),                       # each player (individuals), the side (partners)
    ("opening_pile_cards", OpeningPileCards.TOP_CARD),      # only the top card counts
    ("pile_take", PileTake.TOP),                            # top 7 (all if fewer)
    ("pile_needs", PileNeeds.NATURAL_PAIR),                 # a pair in hand
    ("pile_needs_opened", False),                           # the pile may open the side (top card counts)
    ("pile_blocked_by", frozenset(PileBlocker)),            # a three or a wild on top
    ("pile_frozen_by_wild", False),
    ("books_to_go_out", None),                              # sevens and wild books not required: checked below
    ("go_out_foot", True),                                  # foot: required
    ("go_out_partner_foot", PartnerFoot.PICKED_UP),         # partnership sheets: the partner's foot ...
    ("go_out_permission", True),                            # ... and asking
    ("last_card", LastCard.EITHER),                         # meld it or discard it
    ("stock_out", StockOut.ENDS_DEAL),                      # the deal ends
])
def test_each_point_the_sheet_leaves_unsaid_is_declared_with_the_most_common_value(option, value):
    if value is not None:
        assert getattr(SHEET, option) == value
    assert FOUND.not_stated.get(option, "").strip(), f"{option} is not declared"


def test_the_pile_is_the_top_seven_cards_as_most_sheets_take_it():
    assert SHEET.pile_take is PileTake.TOP and SHEET.pile_cards.values == (7,)
    assert SHEET.describe("pile_take") == "the top 7 cards (all if fewer)"


def test_neither_a_book_of_sevens_nor_a_wild_book_is_needed_to_go_out():
    # The sheet lists both beside each deal's books; its score keeper does not require them.
    assert all(SHEET.going_out_books(n).wild == 0 for n in (1, 2, 3, 4))
    assert "score keeper" in FOUND.not_stated["books_to_go_out"]


def test_the_preset_cites_its_published_source_by_title_and_address():
    assert FOUND.source.url == "https://github.com/scottherren/hand-foot-scoring"
    assert "progressive" in FOUND.source.title


def test_a_table_may_change_any_progressive_option_as_on_any_preset():
    sheet = load_sheet({"preset": "progressive", "going_out_bonus": [300, 400, 500, 700]})
    assert [c.option for c in sheet.changes()] == ["going_out_bonus"]
    assert sheet.going_out_bonus_at(4) == 700 and sheet.going_out_bonus_at(3) == 500


# -- a four-deal game, worked by hand -------------------------------------------------------------


def progressive_game() -> Game:
    return Game.from_json(json.loads(GAME_FILE.read_text(encoding="utf-8")))


# Each deal's totals, as added at the table (Ann v Bea, 3 decks):
DEAL_TOTALS = [
    # Deal 1, Ann goes out with 3 clean (sevens, kings, queens) + 3 dirty books, a red three:
    # cards 7s 7x5 + K 7x10 + Q 7x10 + A 5x20 + 2 2x20 + J 6x10 + 2 + 10 5x10 + JK + 2 = 515;
    # sevens 1,000, 2 clean x 500, 3 dirty x 300, red three 100, going out 300 (deal 1).
    # Bea: 9 9 9 = 30, minus A and a black three (20 + 5).
    {"Ann": 35 + 70 + 70 + 140 + 80 + 120 + 1000 + 1000 + 900 + 100 + 300, "Bea": 30 - 20 - 5},
    # Deal 2, Bea goes out with 4 clean + 4 dirty books and a wild book:
    # clean K Q J 8 4 x 70; dirty A 6x20+20, 10 6x10+50, 9 5x10+2x20, 6 5x5+20+50;
    # wild 4x20+3x50; 4 clean x 500, 4 dirty x 300, wild 1,500, going out 400 (deal 2).
    # Ann: 5 5 5 5 = 20, minus K and a black three (10 + 5).
    {"Ann": 20 - 10 - 5, "Bea": 280 + 140 + 110 + 90 + 95 + 230 + 2000 + 1200 + 1500 + 400},
    # Deal 3, the stock runs out (no going-out bonus): Ann K x7 + clean 500, Q Q Q Q 2 = 60,
    # 2 red threes 200, minus 4 4; Bea A A A = 60, minus an 8 in hand and an unopened foot of
    # J 2 A K Q 10 9 7 6 5 4 = 10 + 20 + 20 + 10 + 10 + 10 + 10 + 5 + 5 + 5 + 5 = 110.
    {"Ann": 70 + 500 + 60 + 200 - 10, "Bea": 60 - 10 - 110},
    # Deal 4, Ann goes out with 6 clean + 6 dirty books:
    # clean K Q J 10 9 8 6 x 70; dirty A 6x20+20, 7 6 5 4 each 6x5+20, K 5x10+2x20;
    # 6 clean x 500, 6 dirty x 300, going out 600 (deal 4). Bea: Q Q Q = 30, minus a joker.
    {"Ann": 420 + 140 + 4 * 50 + 90 + 3000 + 1800 + 600, "Bea": 30 - 50},
]
FINAL = {"Ann": 3815 + 5 + 820 + 6250, "Bea": 5 + 6045 - 60 - 20}


def test_a_four_deal_progressive_game_scores_each_deal_with_that_deals_bonus():
    game = progressive_game()
    assert DEAL_TOTALS == [{"Ann": 3815, "Bea": 5}, {"Ann": 5, "Bea": 6045}, {"Ann": 820, "Bea": -60},
                           {"Ann": 6250, "Bea": -20}]
    for deal, verdict, expected in zip(game.deals, game.verdicts, DEAL_TOTALS, strict=True):
        assert verdict.report.violations == (), (deal.number, verdict.report.violations)
        assert {side.name: side.total for side in verdict.breakdown.sides} == expected
        going_out = [ln for side in verdict.breakdown.sides for ln in side.lines if ln.code == "going_out"]
        assert [ln.points for ln in going_out] == ([] if deal.number == 3 else [SHEET.going_out_bonus_at(deal.number)])
    assert game.totals() == FINAL == {"Ann": 10_890, "Bea": 5_970}
    result = game.result()
    assert result.over and result.winner == "Ann"


def test_each_deal_of_the_game_asks_its_own_requirements():
    game = progressive_game()
    asked = [(r.draws, r.opening_minimums["Ann"], str(r.going_out_books), r.going_out_bonus)
             for r in map(game.deal_rules, (1, 2, 3, 4))]
    assert asked == [(3, 90, "3 clean + 3 dirty", 300), (4, 120, "4 clean + 4 dirty", 400),
                     (5, 150, "5 clean + 5 dirty", 500), (6, 180, "6 clean + 6 dirty", 600)]


def five_and_five(number: int) -> Deal:
    """Ann goes out with 5 clean + 5 dirty books: enough in deal 3, one of each short in deal 4."""
    return Deal.from_json({"sheet": "progressive", "deal": number, "ending": "went_out", "went_out": "Ann", "sides": [
        {"name": "Ann", "melds": ["Kx7", "Qx7", "Jx7", "10x7", "9x7", "Ax6 2", "8x6 2", "6x6 2", "5x6 2", "4x6 2"],
         "players": [{"name": "Ann", "foot_picked_up": True}]},
        {"name": "Bea", "melds": [], "players": [{"name": "Bea", "foot_picked_up": True}]}]})


def test_five_clean_and_five_dirty_books_go_out_in_deal_3_but_not_in_deal_4():
    assert validate(five_and_five(3)).violations == ()
    problems = validate(five_and_five(4)).violations
    assert [p.code for p in problems] == ["went_out.books"]
    assert problems[0].option == "books_to_go_out"
    assert SHEET.going_out_books(4) == Books(clean=6, dirty=6)


def test_a_book_of_sevens_counts_as_a_clean_book_toward_going_out():
    # Deal 1 needs 3 clean + 3 dirty: sevens, kings and queens are the three clean books.
    deal = progressive_game().deals[0]
    assert validate(deal).violations == ()
    without_sevens = Deal.from_json(dict(deal.to_json(), sides=[
        dict(deal.to_json()["sides"][0], melds=deal.to_json()["sides"][0]["melds"][1:]),
        deal.to_json()["sides"][1]]))
    assert [p.code for p in validate(without_sevens).violations] == ["went_out.books"]
