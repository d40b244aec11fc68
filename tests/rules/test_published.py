"""Specification: the twenty-one published rule sets beyond the presets, each held as a sheet.

The sets are the card-room sheets, club handouts, score apps, online tables and the boxed deck
summarised (in the project's words) in ``shared/rules/published/``: one summary a source, and
four summaries for Hand, Knee and Foot. Nineteen are held faithfully: each is a JSON sheet, a
preset (``common``: every option at its default) plus the options its summary gives, and each
has one deal that plays its distinctive rule, scored by hand below with the arithmetic written
out. Two are out of scope (:data:`OUT_OF_SCOPE`, with why). Where a summary leaves something
unsaid, or says a part was not readable, the comment beside the option says what we chose.
A set's rules of play that no recorded deal shows (split stock, walking into the foot, pass
direction...) are its ``house_rules``: never checked or scored, kept with the sheet.

Card values unless a sheet says otherwise: joker 50, ace and 2 20, K to 8 10, 7 to 4 5, black
three 5, red three nothing of its own (its bonus or penalty is a line of its own).
"""

from __future__ import annotations

from collections import Counter

import pytest

from scorepad.rules import Card, Deal, Meld, load_sheet, score, validate
from scorepad.rules.rulings import can_meld, can_take_pile

# Every published set, by the name of its summary (Hand, Knee and Foot: four summaries, one set;
# VegasVic103's web game ships two named sets, its "House Rules" and its "Real Rules").
PUBLISHED_SETS = (
    "hand-knee-foot",  # laguna-woods-app, handkneefoot-scorer, hkf-twrtimes, triple-play
    "bga", "hffe", "tanglewood", "vegas-twrtimes", "rogerdem-survey", "goodsams-florida",
    "handandfootcalculator", "nwpages", "benalderfer-app", "drwingnut", "txnetstars", "roth-family",
    "handnfoot-deck", "gocc", "lakemont-ridge", "rversofidaho", "vegasvic103-house", "vegasvic103-real",
    "catalystgather-scorer", "dollars-from-heaven",
)

# The two sets scorepad does not hold, and why: each needs a game other than Hand and Foot's.
OUT_OF_SCOPE = {
    "handnfoot-deck": "the boxed deck plays its own pack (12 numbered ranks of 16 cards each, Lords, Ladies, "
                      "Villains, Jesters at 25 and Jokers); every sheet scorepad holds is played with standard "
                      "decks, whose counts the referee's supply check and every card string are built on",
    "dollars-from-heaven": "its sequence canasta is a run of seven cards in one suit; scorepad's melds are sets "
                           "of one rank and its cards carry no suit, so a run cannot be recorded or scored",
}

_BANDS_HKF = [{"below": 15_000, "minimum": 50}, {"below": 30_000, "minimum": 90},
              {"below": 50_000, "minimum": 120}, {"minimum": 150}]

SHEETS: dict[str, dict[str, object]] = {
    # Hand, Knee and Foot: the card-room consensus of its four summaries (the laguna-woods app's
    # and the handkneefoot scorer's numbers agree exactly; twrtimes gives the piles and the pile rule).
    "hand-knee-foot": {
        "preset": "common",
        # four players in two partnerships with six decks (Triple Play; the scorer's 2 teams: 6 decks)
        "min_players": 4, "max_players": 4, "side_sizes": [2], "decks_rule": "fixed", "decks": 6,
        "hand_size": 15, "knee_size": 13, "foot_size": 11,
        "card_values": {"3B": 300},  # the scorer: a black three left costs 300 in this game
        "wild_books": True, "wild_book_bonus": 2500,
        # books of sevens and fives are special books; a dirty one (not stated) is a dirty book
        "special_books": {"7": 5000, "5": 3000},
        "three_books": {"3R": 1000},  # seven red threes: 7 x 100 + the 300 "red book bonus" = 1000 in all
        "book_caps": {"wild": 3, "7": 2, "5": 2},
        "going_out_bonus": 200,
        "red_three_penalty_hand": 500, "red_three_penalty_foot": 500,  # the scorer and twrtimes: -500 left
        "opening_by": "running-total", "opening_bands": _BANDS_HKF,
        "opening_who": "side",  # Triple Play: "a partnership must meet a minimum"
        "pile_take": "whole", "pile_needs_opened": False,  # twrtimes: two like cards take the whole pile
        "books_to_go_out": {"clean": 1, "dirty": 1, "wild": 1, "special": {"7": 1, "5": 1}},
        "go_out_partner_foot": "picked-up",  # not stated: as partnership sheets usually ask
        "go_out_permission": True,  # Triple Play: ask your partner before going out
        "house_rules": [
            "Each player plays the hand first, then the knee, then the foot.",
            "A seven or a five turned up to start the pile is buried and another turned, as a wild card or a "
            "three is.",
            "Red threes are laid with the side's melds once it has opened, and replaced from the stock.",
        ],
    },
    # Board Game Arena: a configurable table; its common contract for teams of two.
    "bga": {
        "preset": "common",
        "min_players": 2, "max_players": 12, "side_sizes": [1, 2, 3, 4],  # 2-7 singly, up to 12 in teams
        # not readable: the wild limit, the pile, the opening minimums: each the most common value
        "wild_books": True, "wild_book_bonus": 1500,
        "books_to_go_out": {"clean": 2, "dirty": 2, "wild": 1},
        "house_rules": [
            "Walking: a player who discards the last card of the hand picks up the foot but plays from it only "
            "on the next turn.",
            "Running: a player who plays out the hand without a discard picks up the foot and plays on at once.",
            "Red threes are laid and replaced at the start of their owner's turn.",
        ],
    },
    # HFFE's two-player game: 15 and 15; red threes charged, never laid, only when the other side went out.
    "hffe": {
        "preset": "common",
        "min_players": 2, "max_players": 2, "side_sizes": [1], "decks_rule": "fixed",
        "decks": 3,  # "three to five decks": three for two players (the choice for the fewest players)
        "hand_size": 15, "foot_size": 15,
        "opening_who": "side",  # "as a team"
        "red_three_mode": "held",
        "red_three_penalty_hand": 500, "red_three_penalty_hand_when": "opponents-out",
        "red_three_penalty_foot": 500, "red_three_penalty_foot_when": "opponents-out",
    },
    # Tanglewood's card room (twrtimes): red threes -500 held; exactly 3 taken with a natural pair
    # or a natural and a wild; a wild card freezes the pile.
    "tanglewood": {
        "preset": "common",
        "min_players": 4, "max_players": 8, "side_sizes": [2],  # teams, up to 8; partnerships of 2 (not stated)
        "decks_rule": "per-player",
        "card_values": {"9": 5, "8": 5},  # 4-9 5, 10-K 10
        "cut_bonus": 100,
        "opening_who": "side",  # not stated: the side's first melds, as partnership sheets usually play
        "pile_take": "top-if-full", "pile_cards": 3, "pile_needs": "natural-and-wild",
        "pile_needs_opened": False,  # not stated: the pile may be taken to open, as most sheets play
        "pile_frozen_by_wild": True,
        "red_three_mode": "held", "red_three_penalty_hand": 500, "red_three_penalty_foot": 500,
        # not readable: book bonuses, books to go out, the going-out bonus: the most common values
        "house_rules": [
            "One player of each side keeps every card the side lays down.",
            "Each player deals two piles of 11, one to the left-hand neighbour and one to the right.",
            "A discarded wild card is turned crossways: the pile stays frozen until someone takes it.",
        ],
    },
    # The "Vegas version" (twrtimes), as Tanglewood plays its four hands.
    "vegas-twrtimes": {
        "preset": "common",
        "min_players": 4, "max_players": 6, "side_sizes": [2],
        "decks_rule": "by-players", "decks_by_players": {"4": 6, "6": 8},
        "card_values": {"3B": 300}, "cut_bonus": 100,
        "draws_per_turn": [3, 3, 4, 5], "opening_minimums": [90, 120, 150, 180],
        "opening_who": "side",  # not readable: the side's first melds, as partnership sheets usually play
        "books_to_go_out": [{"clean": 3, "dirty": 3}, {"clean": 3, "dirty": 3},
                            {"clean": 4, "dirty": 4}, {"clean": 5, "dirty": 5}],
        "pile_take": "top", "pile_cards": [3, 3, 4, 5], "pile_needs_opened": False,  # not readable
        "book_growth": "any",  # cards may be buried on closed books
        "last_card": "meld",  # one may not discard to go out
        "red_three_mode": "held", "red_three_penalty_hand": 500, "red_three_penalty_foot": 500,
        "house_rules": [
            "Cards may be buried on the side's closed books, but not in the play that closes the book.",
            "The foot is picked up once the hand is played out.",
        ],
    },
    # The player survey's "standard rules".
    "rogerdem-survey": {
        "preset": "common",
        "min_players": 2, "max_players": 8, "decks_rule": "per-player",
        "opening_who": "side",  # the first player of a partnership to lay down
        "go_out_permission": True,
        # "threes always count minus", never played: red threes held; the scoring table was not readable,
        # so the penalty is 100, the smallest seen on a sheet that charges them
        "red_three_mode": "held", "red_three_penalty_hand": 100, "red_three_penalty_foot": 100,
        "house_rules": [
            "The hand is played out before the foot: a player who needs a discard to empty the hand plays "
            "from the foot only on the next turn; one who melds out goes straight on into it.",
        ],
    },
    # The Florida RV-club rally: three deals within an hour and a half.
    "goodsams-florida": {
        "preset": "common",
        "min_players": 4, "max_players": 4, "side_sizes": [2], "decks_rule": "fixed", "decks": 4,
        "hand_size": 13, "foot_size": 13, "cut_bonus": 100,
        "card_values": {"9": 5, "8": 5, "3B": 0},
        "game_length": "open",  # the time limit ends the game; three deals at most
        "opening_minimums": [90, 120, 150], "opening_who": "side",
        "pile_take": "top", "pile_cards": 6,
        "book_growth": "naturals",  # no wild cards on closed books; naturals (not stated) may go on
        "books_to_go_out": {"clean": 2, "dirty": 2},
        "go_out_permission": True, "last_card": "discard", "stock_out": "reshuffle",
        # the page stops at "red 3 -500": red threes held, charged wherever they are left
        "red_three_mode": "held", "red_three_penalty_hand": 500, "red_three_penalty_foot": 500,
        "house_rules": [
            "The game is three deals, or as many as are played in an hour and a half.",
            "Partners are drawn by lot; spouses never partner each other, and partners do not consult.",
        ],
    },
    # handandfootcalculator.com's default rules ("Dearie's rules").
    "handandfootcalculator": {
        "preset": "common",
        "deals": 5, "opening_minimums": [50, 90, 120, 150, "book"],
        "wild_books": True, "wild_book_bonus": 1500, "special_books": {"7": 1000},
        "three_books": {"3R": 1700},  # a canasta of red threes: their 100 each and 1000 more, 1700 in all
        "red_three_penalty_hand": 500, "red_three_penalty_foot": 500,
        "books_to_go_out": {"clean": 3, "dirty": 2, "wild": 1, "special": {"7": 1}},
    },
    # Bill's online table (nwpages): six rounds, the 200 round with a third pile, the tail.
    "nwpages": {
        "preset": "common",
        "min_players": 2, "max_players": 6, "side_sizes": [1, 2, 3],
        "deals": 6, "opening_minimums": [30, 60, 90, 120, 150, 200],
        "knee_size": [0, 0, 0, 0, 0, 11],  # the tail, held as the knee; its size is not stated: 11, as the foot
        "max_books_per_rank": 3,
        "books_to_go_out": {"clean": 3, "dirty": 3},  # host-set; the page's example
        "pile_take": "top",  # host-set count: 7, the usual
        "last_card": "discard",
        "house_rules": ["When the stock runs low another deck is shuffled in."],
    },
    # Ben Alderfer's Android score app.
    "benalderfer-app": {
        "preset": "common",
        "min_players": 4, "max_players": 8, "side_sizes": [2],  # "usually" teams of two, up to four teams
        "card_values": {"9": 5, "8": 5, "3B": 100},
        "upcard": "bury-wild-red-three",
        "opening_minimums": [75, 100, 125, 150], "opening_who": "player",
        "first_meld_bonus": 100,
        "wild_books": True, "wild_book_bonus": 1500, "wild_book_mixed_bonus": 1300,
        "red_three_mode": "held", "red_three_penalty_hand": 300, "red_three_penalty_foot": 300,
        "pile_take": "top", "pile_cards": 5,
        "books_to_go_out": {"clean": 3, "dirty": 2},
        "going_out_bonus": 300, "stock_out": "reshuffle",
    },
    # drwingnut's family partnership rules.
    "drwingnut": {
        "preset": "common",
        "min_players": 3, "max_players": 6, "side_sizes": [1, 2],
        # 4 decks for 4, 5 for 6; for 3 and 5 (not stated) one fewer than players, at least 3
        "decks_rule": "by-players", "decks_by_players": {"3": 3, "4": 4, "5": 4, "6": 5},
        "special_books": {"7": 1500},
        "opening_minimums": [60, 90, 120, 150], "opening_who": "side",
        "books_to_go_out": {"clean": 1, "dirty": 2},
        "go_out_foot": False,
        "house_rules": ["A player may go out without playing the foot, but only once the hand has been played.",
                        "Of a player's two piles of 11, the one with the lower bottom card is the hand."],
    },
    # txnetstars: 14 and 14, a split stock, books needed only in the fourth deal.
    "txnetstars": {
        "preset": "common",
        "hand_size": 14, "foot_size": 14, "card_values": {"3B": 0},
        "pile_take": "top", "pile_needs": "meld-top-card",
        "books_to_go_out": [{"clean": 0, "dirty": 0}, {"clean": 0, "dirty": 0}, {"clean": 0, "dirty": 0},
                            {"clean": 1, "dirty": 1}],
        "last_card": "discard",
        "red_three_mode": "held", "red_three_penalty_hand": 500, "red_three_penalty_foot": 500,
        "house_rules": ["The stock is split into two draw piles; a player draws one card from the top of each."],
    },
    # The Roth family's rules (chan.dev).
    "roth-family": {
        "preset": "common",
        "min_players": 4, "max_players": 8, "side_sizes": [2], "decks_rule": "per-player",
        "cut_bonus": 100, "card_values": {"9": 5, "8": 5, "3B": 0},
        "opening_by": "running-total",
        "opening_bands": [{"below": 2500, "minimum": 50}, {"below": 5000, "minimum": 90},
                          {"below": 7500, "minimum": 120}, {"minimum": 150}],
        "opening_who": "side",
        "game_length": "target", "target_score": 10_000,
        "book_growth": {"clean": "naturals", "dirty": "closed"},
        "pile_take": "top", "pile_needs": "one-natural", "pile_new_meld": True, "pile_take_penalty": 100,
        "pile_needs_opened": False,  # not stated
        "red_three_mode": "held", "red_three_penalty_hand": 500, "red_three_penalty_foot": 500,
        "books_to_go_out": {"clean": 5, "dirty": 4},
        "go_out_partner_foot": "picked-up", "last_card": "discard",
        "house_rules": [
            "After a failed take the cards go back on the pile in order and the turn is lost, with no discard.",
            "A player who melds the last card of the hand goes straight on into the foot and says so.",
            "A player may ask \"Can I go out?\"; the answer is yes or no, nothing more.",
        ],
    },
    # The GOCC club handout.
    "gocc": {
        "preset": "common",
        "min_players": 4, "max_players": 6, "side_sizes": [2, 3], "decks_rule": "per-player",
        "opening_who": "side", "pile_take": "top", "pile_cards": 1,
        "book_growth": "naturals",
        # not readable: book values and books to go out: the most common values
        "house_rules": [
            "Round 1 passes one pile to the left, round 2 to the right, round 3 to the partner; "
            "in round 4 each player keeps both.",
            "The first player moves one seat clockwise each round.",
        ],
    },
    # Lakemont Ridge Park's card room.
    "lakemont-ridge": {
        "preset": "common",
        "min_players": 4, "max_players": 6, "side_sizes": [2, 3], "decks_rule": "fixed", "decks": 6,
        "opening_who": "side",
        "pile_take": "top", "pile_needs_opened": False,  # "may always take the top 7"
        # "a 2 or a 3 on top": a wild card or any three blocks it (a joker, not named, as a 2)
        "house_rules": [
            "The stock is laid in 2 or 4 piles; a player draws two cards, at most one from any pile.",
            "Each player deals two hands of 11 and passes both to the left.",
            "Nobody looks through the discard pile.",
            "The hand is played out before the foot is picked up; the foot stays in plain view.",
        ],
    },
    # The RVers of Idaho's posted rules.
    "rversofidaho": {
        "preset": "common",
        "min_players": 2, "max_players": 8, "side_sizes": [1, 2, 3],
        "cut_bonus": 100, "pile_frozen_by_wild": True,
        "house_rules": [
            "The stock is laid in two piles with the discard pile between them.",
            "Each player in turn deals two piles of 11: one to the left-hand opponent as a hand, one kept as "
            "the dealer's own foot.",
        ],
    },
    # VegasVic103's web game, its group's own "House Rules".
    "vegasvic103-house": {
        "preset": "common",
        "min_players": 2, "max_players": 4, "side_sizes": [1],
        "decks_rule": "by-players", "decks_by_players": {"2": 4, "3": 5, "4": 6},  # players + 2
        "card_values": {"9": 5, "8": 5},
        "wild_ratio": "none", "max_wilds": 2, "min_naturals_with_wilds": 2,
        "book_growth": "any", "no_wild_on_clean_book": True,
        "red_three_mode": "held", "red_three_penalty_hand": 100, "red_three_penalty_foot": 100,
        "pile_take": "top", "last_card": "discard", "stock_out": "reshuffle",
        # the going-out bonus differs by version: 100 in the README and the engine, 500 in RULESETS.md
        "house_rules": [
            "The stock is split into 4 draw piles; a draw of two takes one card from each of two piles.",
            "The discard pile is shuffled into a new stock only once a deal, keeping its top card.",
        ],
    },
    # VegasVic103's "Real Rules", adapted from Bicycle's sheet.
    "vegasvic103-real": {
        "preset": "common",
        "min_players": 2, "max_players": 4, "side_sizes": [1], "decks_rule": "fixed", "decks": 5,
        "wild_ratio": "none", "max_wilds": 3, "min_naturals_with_wilds": 4,
        "red_three_penalty_hand": 100, "red_three_penalty_foot": 100,
        "last_card": "discard",
    },
    # catalystgather's score calculator.
    "catalystgather-scorer": {
        "preset": "common",
        "min_players": 4, "max_players": 8, "side_sizes": [2],
        # "typically" 5 decks for 4 players and one more for every two more
        "decks_rule": "by-players", "decks_by_players": {"4": 5, "6": 6, "8": 7},
        "opening_who": "side",
        "red_three_bonus_not_out": 50, "red_three_penalty_hand": 500,
    },
}


# -- building deals -----------------------------------------------------------------------------


def player(name: str, cards_left: str = "", **more: object) -> dict[str, object]:
    return {"name": name, "foot_picked_up": True, "cards_left": cards_left, **more}


def side(name: str, melds: list[str], *players: dict[str, object], **more: object) -> dict[str, object]:
    return {"name": name, "melds": melds, "players": list(players), **more}


def deal(set_id: str, *sides: dict[str, object], number: int = 1, ending: str = "stock_out",
         **more: object) -> Deal:
    return Deal.from_json({"sheet": SHEETS[set_id], "deal": number, "ending": ending, "sides": list(sides), **more})


def went_out(set_id: str, *sides: dict[str, object], number: int = 1, by: str = "Ann", **more: object) -> Deal:
    return deal(set_id, *sides, number=number, ending="went_out", went_out=by, **more)


def totals(played: Deal) -> list[int]:
    return [s.total for s in score(played).sides]


def points(played: Deal, index: int = 0) -> Counter[str]:
    """A side's points by line code, lines of one code added up."""
    out: Counter[str] = Counter()
    for line in score(played).sides[index].lines:
        out[line.code] += line.points
    return out


def codes(played: Deal) -> list[str]:
    return validate(played).codes()


# -- the sets, in and out ---------------------------------------------------------------------------


def test_the_21_published_sets_are_19_held_as_sheets_and_2_out_of_scope():
    assert len(PUBLISHED_SETS) == len(set(PUBLISHED_SETS)) == 21
    assert set(SHEETS) | set(OUT_OF_SCOPE) == set(PUBLISHED_SETS)
    assert not set(SHEETS) & set(OUT_OF_SCOPE)
    assert len(SHEETS) == 19


def test_the_two_out_of_scope_are_the_boxed_decks_own_pack_and_dollars_from_heavens_runs_in_suit():
    assert set(OUT_OF_SCOPE) == {"handnfoot-deck", "dollars-from-heaven"}
    assert "own pack" in OUT_OF_SCOPE["handnfoot-deck"]
    assert "run" in OUT_OF_SCOPE["dollars-from-heaven"] and "suit" in OUT_OF_SCOPE["dollars-from-heaven"]


@pytest.mark.parametrize("set_id", sorted(SHEETS))
def test_each_held_set_reads_as_a_sheet_and_keeps_its_house_rules(set_id):
    sheet = load_sheet(SHEETS[set_id])
    assert list(sheet.house_rules) == SHEETS[set_id].get("house_rules", [])
    assert load_sheet(sheet.to_json()) == sheet  # the sheet's JSON form reads back as the same sheet


# -- Hand, Knee and Foot: the knee, named special books, caps ------------------------------------------


def _hkf_winners(fives: str = "5 5 5 5 5 5 5") -> dict[str, object]:
    knees = {"knee_picked_up": True}
    return side("Us", ["2 2 2 2 JK JK JK", "7 7 7 7 7 7 7", "7 7 7 7 7 7 7", "7 7 7 7 7 7 7", fives,
                       "K K K K K K K", "Q Q Q Q Q 2 2"],
                player("Ann", **knees), player("Cal", "6", **knees), red_threes=2)


def _hkf_losers() -> dict[str, object]:
    return side("Them", ["9 9 9 9"], player("Bea", "3B", knee_picked_up=True),
                {"name": "Dan", "knee_picked_up": False, "foot_picked_up": False, "cards_left": "4 4",
                 "knee": "3R K Q J 10 9 8 7 6 5 4 A 2", "foot": "K K Q Q J J 10 10 9 9 8"})


def test_hand_knee_foot_goes_out_with_its_five_books_and_a_third_sevens_book_scores_no_bonus():
    played = went_out("hand-knee-foot", _hkf_winners(), _hkf_losers(), permission="asked-yes")
    assert codes(played) == []
    us = points(played)
    assert us["books.special"] == 2 * 5000 + 3000  # two sevens books (the cap is 2), one fives book
    assert us["books.wild"] == 2500 and us["going_out"] == 200
    assert totals(played)[0] == (
        21 * 5 + 7 * 5 + 7 * 10 + 5 * 10 + 6 * 20 + 3 * 50  # sevens, fives, kings, queens, 2s, jokers: 530
        + 500 + 300 + 2500 + 2 * 5000 + 3000  # clean, dirty, wild, sevens (the third capped), fives
        + 2 * 100 + 200  # two red threes laid, going out
        - 5)  # Cal's six
    assert totals(played)[0] == 17_225
    # Them: nines 40; Bea's black three 300; Dan's hand two 4s, his unopened knee (K Q J 10 9 8 60,
    # 7 6 5 4 20, A 20, 2 20 = 120) and its red three 500, his unopened foot (eleven cards of 10)
    assert totals(played)[1] == 4 * 10 - 300 - 2 * 5 - 120 - 500 - 11 * 10 == -1000


def test_hand_knee_foot_a_book_of_sixes_does_not_stand_in_for_the_fives_book():
    played = went_out("hand-knee-foot", _hkf_winners(fives="6 6 6 6 6 6 6"), _hkf_losers(),
                      permission="asked-yes")
    assert "went_out.books" in codes(played)


# -- Board Game Arena: the contract of 2 clean + 2 dirty + 1 wild --------------------------------------


def _bga_us(wild: bool = True) -> dict[str, object]:
    melds = ["K K K K K K K", "Q Q Q Q Q Q Q", "J J J J J 2 2", "10 10 10 10 10 JK 2"]
    return side("Us", melds + (["2 2 2 2 JK JK JK"] if wild else []), player("Ann"), player("Cal", "8"),
                red_threes=1)


def _bga_them() -> dict[str, object]:
    return side("Them", ["A A A"], player("Bea", "3B"), player("Dan"))


def test_bga_a_side_with_its_contract_goes_out():
    played = went_out("bga", _bga_us(), _bga_them())
    assert codes(played) == []
    cards = 7 * 10 + 7 * 10 + 5 * 10 + 5 * 10 + 7 * 20 + 4 * 50  # K, Q, J, 10, seven 2s, four jokers: 580
    assert totals(played) == [cards + 2 * 500 + 2 * 300 + 1500 + 100 + 100 - 10,  # books, red three, out, Cal's 8
                              3 * 20 - 5]  # Them: three aces, less Bea's black three
    assert totals(played) == [3870, 55]


def test_bga_without_the_wild_book_a_side_has_not_its_contract():
    assert "went_out.books" in codes(went_out("bga", _bga_us(wild=False), _bga_them()))


def test_bga_walking_and_running_into_the_foot_are_house_rules():
    rules = load_sheet(SHEETS["bga"]).house_rules
    assert any(rule.startswith("Walking") for rule in rules) and any(rule.startswith("Running") for rule in rules)


# -- HFFE: red threes charged only when the other side went out ------------------------------------------


def _hffe(ending: str) -> Deal:
    ann = side("Ann", ["K K K K K K K", "Q Q Q Q Q 2 2"], player("Ann"))
    bea = side("Bea", ["J J J"], player("Bea", "3R 9"))
    return deal("hffe", ann, bea, ending=ending, **({"went_out": "Ann"} if ending == "went_out" else {}))


def test_hffe_a_red_three_in_hand_costs_500_when_the_other_side_went_out():
    played = _hffe("went_out")
    assert codes(played) == [] and validate(played).warnings == ()  # held red threes: no warning
    assert totals(played) == [70 + 500 + 5 * 10 + 2 * 20 + 300 + 100,  # kings book, queens dirty book, going out
                              3 * 10 - 10 - 500]  # Bea: jacks, less a nine and the red three
    assert totals(played) == [1060, -480]


def test_hffe_a_red_three_in_hand_costs_nothing_when_the_stock_ran_out():
    assert totals(_hffe("stock_out")) == [1060 - 100, 3 * 10 - 10]


def test_hffe_a_red_three_laid_is_a_violation_where_they_are_never_laid():
    ann = side("Ann", ["K K K K K K K"], player("Ann"), red_threes=1)
    assert "red_three.laid" in codes(deal("hffe", ann, side("Bea", ["J J J"], player("Bea"))))
    # its near-twin: the same deal with no red three laid
    assert codes(deal("hffe", side("Ann", ["K K K K K K K"], player("Ann")), side("Bea", ["J J J"], player("Bea")))) \
        == []


# -- Tanglewood: held red threes, the pile taken with a natural and a wild --------------------------------


def test_tanglewood_red_threes_cost_500_in_a_hand_and_in_an_unopened_foot():
    us = side("Us", ["K K K K K K K", "9 9 9 9 2"], player("Ann", "3R 8", cut_bonus=True),
              {"name": "Cal", "foot_picked_up": False, "cards_left": "", "foot": "3R K Q J 10 9 8 7 6 5 4"})
    played = deal("tanglewood", us, side("Them", ["A A A"], player("Bea"), player("Dan")))
    assert codes(played) == []
    assert totals(played)[0] == (7 * 10 + 500 + 4 * 5 + 20  # kings book; four nines at 5 and a 2
                                 + 100  # Ann's cut
                                 - 5 - 500  # Ann's eight (at 5) and red three
                                 - (4 * 10 + 6 * 5) - 500)  # Cal's foot: K Q J 10, 9 to 4 at 5; its red three
    assert totals(played) == [-365, 60]


def test_tanglewood_takes_exactly_three_with_a_natural_pair_or_a_natural_and_a_wild():
    sheet = load_sheet(SHEETS["tanglewood"])
    take = {"top_card": Card.NINE, "opened": True, "pile_size": 5}
    assert can_take_pile(sheet, 1, pair=2, **take).yes
    assert can_take_pile(sheet, 1, pair=1, wilds=1, **take).yes
    assert not can_take_pile(sheet, 1, pair=1, **take).yes  # one natural alone is not enough
    assert not can_take_pile(sheet, 1, pair=2, top_card=Card.NINE, opened=True, pile_size=2).yes  # fewer than 3
    # a frozen pile: only two naturals take it
    assert not can_take_pile(sheet, 1, pair=1, wilds=1, pile_has_wild=True, **take).yes
    assert can_take_pile(sheet, 1, pair=2, pile_has_wild=True, **take).yes


# -- Vegas: the rising schedule, buried cards, held threes ------------------------------------------------


def _vegas_us() -> dict[str, object]:
    clean = ["K K K K K K K K K", "Q Q Q Q Q Q Q", "J J J J J J J", "A A A A A A A"]  # kings: two buried
    dirty = ["10 10 10 10 10 2 2", "9 9 9 9 9 9 JK", "8 8 8 8 8 8 2", "6 6 6 6 6 JK JK"]
    return side("Us", clean + dirty, player("Ann"), player("Cal"))


def _vegas_them() -> dict[str, object]:
    return side("Them", ["5 5 5"], player("Bea", "3B 3R"), player("Dan", "4"))


def test_vegas_deal_three_goes_out_with_four_clean_and_four_dirty_books_melding_the_last_card():
    played = went_out("vegas-twrtimes", _vegas_us(), _vegas_them(), number=3, last_card="meld")
    assert codes(played) == []
    cards = (9 * 10 + 7 * 10 + 7 * 10 + 7 * 20  # K (nine), Q, J, A: 370
             + 5 * 10 + 6 * 10 + 6 * 10 + 5 * 5  # 10, 9, 8, 6: 195
             + 3 * 20 + 3 * 50)  # three 2s, three jokers: 210
    assert totals(played) == [cards + 4 * 500 + 4 * 300 + 100, 3 * 5 - 300 - 500 - 5]
    assert totals(played) == [4075, -790]


def test_vegas_going_out_by_a_discard_is_refused():
    played = went_out("vegas-twrtimes", _vegas_us(), _vegas_them(), number=3, last_card="discard")
    assert "went_out.last_card" in codes(played)


# -- the player survey: permission to go out -------------------------------------------------------


def _survey(permission: str) -> Deal:
    us = side("Us", ["K K K K K K K", "Q Q Q Q Q 2 2"], player("Ann"), player("Cal", "5"))
    them = side("Them", ["J J J J"], player("Bea"), player("Dan", "3R 3B"))
    return went_out("rogerdem-survey", us, them, permission=permission)


def test_rogerdem_survey_goes_out_with_the_partners_yes_and_charges_a_red_three_held():
    played = _survey("asked-yes")
    assert codes(played) == []
    assert totals(played) == [70 + 500 + 50 + 40 + 300 + 100 - 5, 4 * 10 - 5 - 100]
    assert totals(played) == [1055, -65]


def test_rogerdem_survey_going_out_after_a_no_is_refused():
    assert "went_out.permission" in codes(_survey("asked-no"))


# -- Florida Good Sams: 2 + 2 books, a discard to go out, the game open -----------------------------------


def _goodsams(last_card: str) -> Deal:
    us = side("Us", ["K K K K K K K", "Q Q Q Q Q Q Q", "9 9 9 9 9 2 2", "8 8 8 8 8 8 JK"],
              player("Ann"), player("Cal", "4", cut_bonus=True))
    them = side("Them", ["A A A"], player("Bea", "3B"), player("Dan", "3R"))
    return went_out("goodsams-florida", us, them, last_card=last_card, permission="asked-yes")


def test_goodsams_goes_out_with_two_red_and_two_black_books_on_a_discard():
    played = _goodsams("discard")
    assert codes(played) == []
    cards = 7 * 10 + 7 * 10 + 5 * 5 + 6 * 5 + 2 * 20 + 50  # kings, queens, nines and eights at 5, 2s, joker
    assert totals(played) == [cards + 2 * 500 + 2 * 300 + 100 + 100 - 5,  # books, going out, Cal's cut, his 4
                              3 * 20 - 0 - 500]  # Them: aces; Bea's black three counts 0, Dan's red three 500
    assert totals(played) == [2080, -440]


def test_goodsams_going_out_by_melding_the_last_card_is_refused():
    assert "went_out.last_card" in codes(_goodsams("meld"))


def test_goodsams_the_opening_minimum_keeps_its_last_value_past_the_third_deal():
    assert load_sheet(SHEETS["goodsams-florida"]).opening_minimums.at(4) == 150


# -- handandfootcalculator: the fifth deal opened with a complete book -------------------------------------


def _calculator(opening: list[str]) -> Deal:
    melds = ["7 7 7 7 7 7 7", "K K K K K K K", "Q Q Q Q Q Q Q", "J J J J J J J", "10 10 10 10 10 2 2",
             "9 9 9 9 9 9 JK", "2 2 2 2 JK JK JK"]
    ann = side("Ann", melds, player("Ann", opening={"melds": opening}))
    return went_out("handandfootcalculator", ann, side("Bea", ["A A A"], player("Bea", "3R 5")), number=5)


def test_handandfootcalculator_deal_five_opens_with_a_book_and_goes_out_with_sevens_and_wild_books():
    played = _calculator(["K K K K K K K"])
    assert codes(played) == []
    cards = 7 * 5 + 3 * 7 * 10 + 5 * 10 + 6 * 10 + 6 * 20 + 4 * 50  # sevens, K Q J, tens, nines, 2s, jokers
    assert cards == 675
    assert totals(played) == [cards + 1000 + 3 * 500 + 2 * 300 + 1500 + 100,  # sevens, clean, dirty, wild, out
                              3 * 20 - 5 - 500]  # Bea: aces, less a five and an unplayed red three
    assert totals(played) == [5375, -445]


def test_handandfootcalculator_deal_five_opened_without_a_complete_book_is_refused():
    assert "opening.minimum" in codes(_calculator(["K K K", "Q Q Q"]))


# -- nwpages: the tail in the 200 round, at most 3 books a rank ----------------------------------------


def _nwpages(kings: list[str]) -> Deal:
    tail = {"knee_picked_up": True}
    us = side("Us", kings + ["Q Q Q Q Q Q Q", "J J J J J J J", "10 10 10 10 10 2 2"],
              player("Ann", **tail), player("Cal", **tail), player("Eve", "4", **tail))
    them = side("Them", ["A A A"], player("Bea", **tail), player("Dan", **tail),
                {"name": "Fay", "knee_picked_up": False, "foot_picked_up": False, "cards_left": "",
                 "knee": "K Q J 10 9 8 7 6 5 4 A", "foot": "Q Q Q J J J 9 9 9 8 8"})
    return went_out("nwpages", us, them, number=6, last_card="discard")


def test_nwpages_round_six_deals_a_tail_and_three_books_of_kings_are_allowed():
    played = _nwpages(["K K K K K K K", "K K K K K 2 2", "K K K K K JK 2"])
    assert codes(played) == []
    cards = 17 * 10 + 7 * 10 + 7 * 10 + 5 * 10 + 5 * 20 + 50  # kings, queens, jacks, tens, five 2s, a joker
    assert totals(played) == [cards + 3 * 500 + 3 * 300 + 100 - 5,  # books, going out, Eve's four
                              3 * 20 - (6 * 10 + 4 * 5 + 20) - 11 * 10]  # Them: aces; Fay's tail and foot
    assert totals(played) == [3005, -150]


def test_nwpages_a_fourth_book_of_kings_is_refused():
    played = _nwpages(["K K K K K K K", "K K K K K 2 2", "K K K K K JK 2", "K K K K K 2 JK"])
    assert "meld.books_per_rank" in codes(played)


def test_nwpages_deals_no_tail_before_the_200_round():
    sheet = load_sheet(SHEETS["nwpages"])
    assert [sheet.knee_size.at(n) for n in range(1, 7)] == [0, 0, 0, 0, 0, 11]


# -- Ben Alderfer's app: two grades of wild book, a bonus to the first to lay down --------------------------


def test_benalderfer_a_wild_book_of_one_kind_is_1500_a_mixed_one_1300_and_the_first_meld_100():
    books = ["K K K K K K K", "Q Q Q Q Q Q Q", "J J J J J J J", "10 10 10 10 10 2 2", "9 9 9 9 9 9 JK"]
    us = side("Us", books + ["2 2 2 2 2 2 2", "2 2 2 JK JK JK JK"], player("Ann"), player("Cal", "3R 3B"))
    # the discard pile is reshuffled when the stock runs out: a deal ends when someone goes out
    played = went_out("benalderfer-app", us, side("Them", ["9 9 9 9"], player("Bea"), player("Dan", "8")),
                      first_meld="Ann")
    assert codes(played) == []
    assert totals(played) == [3 * 7 * 10 + 5 * 10 + 6 * 5 + 2 * 20 + 50  # K Q J, tens, nines at 5, a 2, a joker
                              + 3 * 500 + 2 * 300 + 300  # three clean and two dirty books, going out
                              + 7 * 20 + 1500  # seven 2s, a wild book of one kind
                              + 3 * 20 + 4 * 50 + 1300  # three 2s and four jokers, a mixed wild book
                              + 100  # Ann laid down first
                              - 100 - 300,  # Cal's black three (100 on this sheet) and held red three
                              4 * 5 - 5]  # Them: nines and an eight at 5
    assert totals(played) == [5680, 15]


# -- drwingnut: 1 clean + 2 dirty, natural sevens 1500, going out without the foot ------------------------


def _drwingnut(dirty: list[str]) -> Deal:
    us = side("Us", ["7 7 7 7 7 7 7", *dirty],
              {"name": "Ann", "foot_picked_up": False, "cards_left": "", "foot": "K Q J 10 9 8 7 6 5 4 A"},
              player("Cal"))
    return went_out("drwingnut", us, side("Them", ["A A A"], player("Bea", "9"), player("Dan")))


def test_drwingnut_goes_out_with_a_sevens_book_and_two_dirty_books_without_the_foot():
    played = _drwingnut(["Q Q Q Q Q 2 2", "J J J J J J 2"])
    assert codes(played) == []
    assert totals(played) == [7 * 5 + 1500  # the natural sevens book, the clean book it counts as
                              + 5 * 10 + 2 * 20 + 300 + 6 * 10 + 20 + 300 + 100  # two dirty books, going out
                              - (6 * 10 + 4 * 5 + 20),  # Ann's unopened foot still counts against
                              3 * 20 - 10]
    assert totals(played) == [2305, 50]


def test_drwingnut_one_dirty_book_is_not_enough_to_go_out():
    assert "went_out.books" in codes(_drwingnut(["Q Q Q Q Q 2 2"]))


# -- txnetstars: books asked only in the fourth deal ----------------------------------------------------


def _txnetstars(number: int) -> Deal:
    ann = side("Ann", ["K K K", "Q Q Q Q"], player("Ann"))
    return went_out("txnetstars", ann, side("Bea", ["J J J"], player("Bea", "3R 3B 4")), number=number,
                    last_card="discard")


def test_txnetstars_goes_out_without_a_book_in_the_first_deal():
    played = _txnetstars(1)
    assert codes(played) == []
    assert totals(played) == [3 * 10 + 4 * 10 + 100, 3 * 10 - 500 - 0 - 5]  # Bea: red three 500, black 0, a 4
    assert totals(played) == [170, -475]


def test_txnetstars_the_fourth_deal_asks_a_red_and_a_black_book():
    assert "went_out.books" in codes(_txnetstars(4))


# -- the Roth family: a failed take costs 100, clean books grow and dirty ones close ----------------------


def _roth(dirty: str) -> Deal:
    us = side("Us", ["K K K K K K K K K", dirty], player("Ann", cut_bonus=True), player("Cal", "9"),
              failed_takes=2)
    return deal("roth-family", us, side("Them", ["A A A"], player("Bea"), player("Dan")))


def test_roth_two_failed_takes_cost_200_and_a_clean_book_grows_to_nine():
    played = _roth("Q Q Q Q Q Q 2")
    assert codes(played) == []
    assert points(played)["pile.failed_takes"] == 2 * -100
    assert totals(played) == [9 * 10 + 500 + 6 * 10 + 20 + 300 + 100 - 2 * 100 - 5, 3 * 20]  # Cal's 9 at 5
    assert totals(played) == [865, 60]


def test_roth_a_dirty_book_grown_past_seven_is_refused():
    assert "meld.size" in codes(_roth("Q Q Q Q Q Q Q 2"))


def test_roth_takes_the_pile_with_one_natural_to_start_a_new_meld():
    sheet = load_sheet(SHEETS["roth-family"])
    assert can_take_pile(sheet, 1, top_card=Card.NINE, pair=1, opened=False, pile_size=10).yes
    assert not can_take_pile(sheet, 1, top_card=Card.NINE, pair=0, wilds=2, opened=False, pile_size=10).yes
    # the top card starts a new meld, never goes onto the nines already on the table (and a second
    # meld of nines waits for the first to be a book)
    assert not can_take_pile(sheet, 1, top_card=Card.NINE, pair=1, opened=True, pile_size=10,
                             table=[Meld.from_json("9 9 9")]).yes


# -- GOCC: books grow with naturals; the pile's top card only -------------------------------------------


def test_gocc_a_clean_book_grows_with_naturals_and_no_wild_meld_is_allowed():
    us = side("Us", ["K K K K K K K K K", "Q Q Q Q 2"], player("Ann"), player("Cal", "7"))
    played = deal("gocc", us, side("Them", ["J J J"], player("Bea"), player("Dan", "A")))
    assert codes(played) == []
    assert totals(played) == [9 * 10 + 500 + 4 * 10 + 20 - 5, 3 * 10 - 20]
    assert totals(played) == [645, 10]
    wild = side("Us", ["K K K K K K K", "2 2 2"], player("Ann"), player("Cal"))
    assert "meld.rank" in codes(deal("gocc", wild, side("Them", ["J J J"], player("Bea"), player("Dan"))))


def test_gocc_takes_only_the_top_card_with_a_pair_and_passes_by_round():
    sheet = load_sheet(SHEETS["gocc"])
    assert sheet.pile_cards.at(1) == 1
    assert can_take_pile(sheet, 1, top_card=Card.NINE, pair=2, opened=True, pile_size=9).yes
    assert any("round 4" in rule for rule in sheet.house_rules)


# -- Lakemont Ridge: a split stock; the pile blocked by a 2 or a 3 --------------------------------------


def test_lakemont_ridge_plays_a_split_stock_and_a_2_on_top_blocks_the_pile():
    sheet = load_sheet(SHEETS["lakemont-ridge"])
    assert any("at most one from any pile" in rule for rule in sheet.house_rules)
    assert not can_take_pile(sheet, 1, top_card=Card.TWO, pair=2, opened=True, pile_size=9).yes
    assert not can_take_pile(sheet, 1, top_card=Card.BLACK_THREE, pair=2, opened=True, pile_size=9).yes
    assert can_take_pile(sheet, 1, top_card=Card.NINE, pair=2, opened=False, pile_size=9).yes
    played = went_out("lakemont-ridge", side("Us", ["K K K K K K K", "Q Q Q Q Q 2 2"], player("Ann"), player("Cal")),
                      side("Them", ["J J J"], player("Bea", "3B"), player("Dan")))
    assert codes(played) == []
    assert totals(played) == [70 + 500 + 50 + 40 + 300 + 100, 30 - 5]


# -- RVers of Idaho: the cut bonus to the team, a wild card freezes the pile ------------------------------


def test_rversofidaho_a_cut_of_exactly_22_scores_100_to_the_team():
    us = side("Us", ["K K K K K K K", "Q Q Q Q Q 2 2"], player("Ann"), player("Cal", cut_bonus=True))
    played = went_out("rversofidaho", us, side("Them", ["J J J"], player("Bea", "3B"), player("Dan")))
    assert codes(played) == []
    assert totals(played) == [70 + 500 + 50 + 40 + 300 + 100 + 100, 30 - 5]
    sheet = load_sheet(SHEETS["rversofidaho"])
    assert sheet.pile_frozen_by_wild is True


# -- VegasVic103's House Rules: no wild card onto a clean book -----------------------------------------


def test_vegasvic103_house_books_grow_but_a_clean_one_takes_no_wild_card():
    sheet = load_sheet(SHEETS["vegasvic103-house"])
    clean, dirty = Meld.from_json("K K K K K K K"), Meld.from_json("Q Q Q Q Q Q 2")
    refused = can_meld(sheet, Meld.from_json("2"), adding_to=clean)
    assert not refused.yes and any(r.option == "no_wild_on_clean_book" for r in refused.reasons if not r.ok)
    assert can_meld(sheet, Meld.from_json("K"), adding_to=clean).yes  # its near-twin: a natural
    assert can_meld(sheet, Meld.from_json("2"), adding_to=dirty).yes  # a dirty book takes a wild (2 of 2)


def test_vegasvic103_house_a_red_three_in_a_foot_never_reached_costs_100():
    ann = side("Ann", ["K K K K K K K K", "Q Q Q Q Q Q 2 2"], player("Ann"))
    bea = side("Bea", ["J J J"], {"name": "Bea", "foot_picked_up": False, "cards_left": "",
                                  "foot": "3R K Q J 10 9 8 7 6 5 4"})
    # the discard pile is reshuffled when the stock runs out: a deal ends when someone goes out
    played = went_out("vegasvic103-house", ann, bea, last_card="discard")
    assert codes(played) == []
    assert totals(played) == [8 * 10 + 500 + 6 * 10 + 2 * 20 + 300 + 100,  # books grown to eight, going out
                              3 * 10 - (4 * 10 + 2 * 5 + 4 * 5) - 100]  # the foot: K Q J 10, 9 8 at 5, 7 to 4
    assert totals(played) == [1080, -140]


# -- VegasVic103's Real Rules: 4 naturals in a meld with wilds, red threes laid or charged ------------------


def test_vegasvic103_real_a_red_three_laid_scores_100_and_one_left_in_hand_costs_100():
    ann = side("Ann", ["K K K K K K K", "Q Q Q Q 2 2 2"], player("Ann"), red_threes=1)
    played = went_out("vegasvic103-real", ann, side("Bea", ["J J J"], player("Bea", "3R 6")), last_card="discard")
    assert codes(played) == []
    assert totals(played) == [70 + 500 + 4 * 10 + 3 * 20 + 300 + 100 + 100, 30 - 5 - 100]
    assert totals(played) == [1170, -75]


def test_vegasvic103_real_a_meld_with_wilds_needs_four_naturals():
    ann = side("Ann", ["K K K K K K K", "Q Q Q 2 2"], player("Ann"))
    assert "meld.wild_ratio" in codes(deal("vegasvic103-real", ann, side("Bea", ["J J J"], player("Bea"))))


# -- catalystgather: a laid red three 100 to a side that went out, 50 to one that did not ---------------------


def _catalyst(ending: str) -> Deal:
    us = side("Us", ["K K K K K K K", "Q Q Q Q Q 2 2"], player("Ann"), player("Cal"), red_threes=2)
    them = side("Them", ["J J J J"], player("Bea", "3R"), player("Dan", "3B"), red_threes=3)
    return deal("catalystgather-scorer", us, them, ending=ending,
                **({"went_out": "Ann"} if ending == "went_out" else {}))


def test_catalystgather_red_threes_laid_score_100_when_the_side_went_out_and_50_when_not():
    played = _catalyst("went_out")
    assert codes(played) == []
    assert points(played, 0)["red_threes.laid"] == 2 * 100
    assert points(played, 1)["red_threes.laid_not_out"] == 3 * 50
    assert totals(played) == [570 + 390 + 100 + 2 * 100, 40 + 3 * 50 - 500 - 5]  # Them: red three stuck 500
    assert totals(played) == [1260, -315]


def test_catalystgather_when_the_stock_runs_out_every_side_has_50_a_red_three():
    played = _catalyst("stock_out")
    assert totals(played) == [570 + 390 + 2 * 50, 40 + 3 * 50 - 500 - 5]
