"""Specification: the referee's violations and warnings, code by code.

Every case starts from a small legal deal under one preset (BASE below) and changes as little
as it can: once to break exactly one rule, once more (the near twin) to stay legal. Each
case checks the whole list of violations, and the option, JSON path, side and player each
names.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

import pytest

from scorepad.rules import Card, Deal, Meld, Rank, load_sheet, preset, validate
from scorepad.rules.melds import meld_problems
from scorepad.rules.problems import VIOLATION_CODES, WARNING_CODES

# ---------------------------------------------------------------------------------------
# Legal base deals, one per preset
# ---------------------------------------------------------------------------------------

BASE: dict[str, dict[str, Any]] = {
    # Two players, individuals. Ann went out with a clean and a dirty book; Bea never
    # reached her foot.
    "common": {
        "sheet": "common", "deal": 1, "ending": "went_out", "went_out": "Ann",
        "sides": [
            {"name": "Ann", "red_threes": 1,
             "melds": ["K K K K K K K", "Q Q Q Q Q 2 2", "J J J"],
             "players": [{"name": "Ann", "foot_picked_up": True, "cards_left": ""}]},
            {"name": "Bea", "melds": ["9 9 9 JK"],
             "players": [{"name": "Bea", "foot_picked_up": False, "cards_left": "A 3B",
                          "foot": "A A 10 10 10 8 8 7 6 5 JK"}]},
        ],
    },
    # Pagat: North-South go out with 2 clean + 2 dirty + 1 wild book; Cy, Ann's partner,
    # has picked up the foot. Dan never did; his foot holds a red three.
    "pagat": {
        "sheet": "pagat", "deal": 1, "ending": "went_out", "went_out": "Ann",
        "sides": [
            {"name": "North-South", "red_threes": 2,
             "melds": ["Kx7", "Qx7", "Jx5 2 2", "10x5 JK 2", "2x4 JKx3"],
             "players": [{"name": "Ann", "foot_picked_up": True, "cards_left": ""},
                         {"name": "Cy", "foot_picked_up": True, "cards_left": "7 4"}]},
            {"name": "East-West", "red_threes": 1,
             "melds": ["8x6 2", "5 5 5"],
             "players": [{"name": "Bea", "foot_picked_up": True, "cards_left": "A K JK 2"},
                         {"name": "Dan", "foot_picked_up": False, "cards_left": "K Q",
                          "foot": "3R 9 9 9 6 6 5 4 A 2 JK Q 3B"}]},
        ],
    },
    # Bicycle: no partner rule, so Ann may go out while Cy is still in the hand.
    "bicycle": {
        "sheet": "bicycle", "deal": 1, "ending": "went_out", "went_out": "Ann",
        "sides": [
            {"name": "North-South",
             "melds": ["Kx7", "Q Q Q Q 2 2 JK", "A A A A 2"],
             "players": [{"name": "Ann", "foot_picked_up": True, "cards_left": ""},
                         {"name": "Cy", "foot_picked_up": False, "cards_left": "9 9",
                          "foot": "J J J 10 10 6 6 5 4 2 3R"}]},
            {"name": "East-West", "melds": ["8 8 8 8 2", "7 7 7"],
             "players": [{"name": "Bea", "foot_picked_up": True, "cards_left": "4"},
                         {"name": "Dan", "foot_picked_up": True, "cards_left": ""}]},
        ],
    },
    # Gather Together: wild cards may equal the naturals (5 5 2 2).
    "gather-together": {
        "sheet": "gather-together", "deal": 1, "ending": "went_out", "went_out": "Ann",
        "sides": [
            {"name": "North-South",
             "melds": ["Kx7", "Q Q Q Q 2 2 2", "5 5 2 2"],
             "players": [{"name": "Ann", "foot_picked_up": True, "cards_left": ""},
                         {"name": "Cy", "foot_picked_up": True, "cards_left": "J"}]},
            {"name": "East-West", "melds": ["6 6 6"],
             "players": [{"name": "Bea", "foot_picked_up": True, "cards_left": ""},
                         {"name": "Dan", "foot_picked_up": False, "cards_left": "",
                          "foot": "A A 9 9 9 7 6 4 2 JK 3R"}]},
        ],
    },
}

Edit = Callable[[dict], None]


def _walk(data: Any, path: str) -> tuple[Any, Any]:
    """The container and key a dotted path ("sides.1.players.0.cards_left") ends at."""
    keys: list[Any] = [int(k) if re.fullmatch(r"-?\d+", k) else k for k in path.split(".")]
    for key in keys[:-1]:
        data = data[key]
    return data, keys[-1]


def put(path: str, value: Any) -> Edit:
    """Set the value at a path (a list index may be one past the end: append)."""
    def edit(data: dict) -> None:
        container, key = _walk(data, path)
        if isinstance(container, list) and key == len(container):
            container.append(value)
        else:
            container[key] = value
    return edit


def drop(path: str) -> Edit:
    def edit(data: dict) -> None:
        container, key = _walk(data, path)
        del container[key]
    return edit


def sheet(**changes: Any) -> Edit:
    """Play the deal under its preset with some options changed."""
    def edit(data: dict) -> None:
        data["sheet"] = {"preset": data["sheet"], **changes}
    return edit


def make(preset_id: str, *edits: Edit) -> Deal:
    data = copy.deepcopy(BASE[preset_id])
    for edit in edits:
        edit(data)
    return Deal.from_json(data)


def violations(deal: Deal) -> list[tuple]:
    return [(p.code, p.option, p.where, p.side, p.player) for p in validate(deal).violations]


PAIR_OF_PARTNERS = [{"name": "Eve", "foot_picked_up": True, "cards_left": ""},
                    {"name": "Fay", "foot_picked_up": True, "cards_left": ""}]


# Bea's unopened knee of 13 cards, for the common deal played under knee_size 13.
BEA_KNEE = put("sides.1.players.0.knee", "K K Q Q J J 9 9 6 6 4 4 8")


@pytest.mark.parametrize("preset_id", sorted(BASE))
def test_base_deal_is_legal_with_no_warnings(preset_id):
    report = validate(make(preset_id))
    assert report.violations == ()
    assert report.warnings == ()
    assert report.ok


# ---------------------------------------------------------------------------------------
# Every violation code: alone, and a near twin that is legal
# ---------------------------------------------------------------------------------------

# (id, preset, edits that break the rule, edits of the legal near twin, expected violations
#  as (code, option, where, side, player))
CASES = [
    # -- meld.rank ------------------------------------------------------------------------
    ("meld.rank-threes-are-never-melded", "common",
     [put("sides.1.melds.0", "3B 3B 3B")], [put("sides.1.melds.0", "4 4 4")],
     [("meld.rank", None, "sides[1].melds[0]", "Bea", None)]),
    ("meld.rank-red-threes-are-never-melded", "pagat",
     [put("sides.1.melds.1", "3R 3R 3R")], [put("sides.1.melds.1", "5 5 5")],
     [("meld.rank", None, "sides[1].melds[1]", "East-West", None)]),
    ("meld.rank-common-has-no-wild-melds", "common",
     [put("sides.1.melds.0", "2 2 JK")], [put("sides.1.melds.0", "2 2 JK"), sheet(wild_books=True)],
     [("meld.rank", "wild_books", "sides[1].melds[0]", "Bea", None)]),
    ("meld.rank-a-wild-meld-holds-no-naturals", "pagat",
     [put("sides.1.melds.1", {"rank": "wild", "naturals": 1, "twos": 2})],
     [put("sides.1.melds.1", {"rank": "wild", "twos": 3})],
     [("meld.rank", "wild_books", "sides[1].melds[1]", "East-West", None)]),
    # -- meld.size ------------------------------------------------------------------------
    ("meld.size-a-meld-needs-three-cards", "common",
     [put("sides.1.melds.0", "9 9")], [put("sides.1.melds.0", "9 9 9")],
     [("meld.size", "meld_min", "sides[1].melds[0]", "Bea", None)]),
    ("meld.size-a-book-takes-no-eighth-card", "common",
     [put("sides.0.melds.0", "Kx8")], [put("sides.0.melds.0", "Kx8"), sheet(book_growth="naturals")],
     [("meld.size", "book_growth", "sides[0].melds[0]", "Ann", None)]),
    # Bicycle's book of 7 holds at most 3 wilds (a meld with wilds needs 4 naturals): growing
    # with naturals only, 8 cards may be 5 naturals + 3 wilds, never 4 + 4 (a wild went onto a book).
    ("meld.size-a-book-grown-with-naturals-holds-no-more-wilds-than-a-book", "bicycle",
     [sheet(book_growth="naturals"), put("sides.1.melds.0", "8 8 8 8 2 2 JK JK")],
     [sheet(book_growth="naturals"), put("sides.1.melds.0", "8 8 8 8 8 2 2 JK")],
     [("meld.size", "book_growth", "sides[1].melds[0]", "East-West", None)]),
    ("meld.size-a-wild-meld-needs-three-cards", "pagat",
     [put("sides.1.melds.1", "2 JK")], [put("sides.1.melds.1", "2 2 JK")],
     [("meld.size", "meld_min", "sides[1].melds[1]", "East-West", None)]),
    # -- meld.wild_ratio ------------------------------------------------------------------
    ("meld.wild_ratio-common-naturals-must-outnumber-wilds", "common",
     [put("sides.0.melds.2", "J J 2 2")], [put("sides.0.melds.2", "J J 2")],
     [("meld.wild_ratio", "wild_ratio", "sides[0].melds[2]", "Ann", None)]),
    ("meld.wild_ratio-common-at-most-three-wilds", "common",
     [sheet(wild_ratio="none"), put("sides.0.melds.2", "J J J 2 2 2 2")],
     [sheet(wild_ratio="none"), put("sides.0.melds.2", "J J J J 2 2 2")],
     [("meld.wild_ratio", "max_wilds", "sides[0].melds[2]", "Ann", None)]),
    ("meld.wild_ratio-pagat-naturals-twice-the-wilds", "pagat",
     [put("sides.1.melds.1", "5 5 5 2 2")], [put("sides.1.melds.1", "5 5 5 5 2 2")],
     [("meld.wild_ratio", "wild_ratio", "sides[1].melds[1]", "East-West", None)]),
    ("meld.wild_ratio-bicycle-four-naturals-with-wilds", "bicycle",
     [put("sides.1.melds.1", "7 7 7 2")], [put("sides.1.melds.1", "7 7 7 7 2")],
     [("meld.wild_ratio", "min_naturals_with_wilds", "sides[1].melds[1]", "East-West", None)]),
    ("meld.wild_ratio-gather-together-wilds-never-outnumber-naturals", "gather-together",
     [put("sides.0.melds.2", "5 5 2 2 2")], [put("sides.0.melds.2", "5 5 5 2 2 2")],
     [("meld.wild_ratio", "wild_ratio", "sides[0].melds[2]", "North-South", None)]),
    ("meld.wild_ratio-a-natural-meld-of-only-wilds", "pagat",
     [put("sides.1.melds.1", {"rank": "5", "twos": 3})], [put("sides.1.melds.1", {"rank": "wild", "twos": 3})],
     [("meld.wild_ratio", "wild_ratio", "sides[1].melds[1]", "East-West", None)]),
    # -- meld.duplicate_rank --------------------------------------------------------------
    ("meld.duplicate_rank-second-meld-only-after-a-book", "common",
     [put("sides.0.melds.3", "J J J")], [put("sides.0.melds.3", "K K K")],
     [("meld.duplicate_rank", "second_meld", "sides[0].melds[3]", "Ann", None)]),
    ("meld.duplicate_rank-anytime-sheet-allows-it", "pagat",
     [put("sides.1.melds.2", "5 5 5")], [put("sides.1.melds.2", "5 5 5"), sheet(second_meld="anytime")],
     [("meld.duplicate_rank", "second_meld", "sides[1].melds[2]", "East-West", None)]),
    # -- supply ---------------------------------------------------------------------------
    ("supply-three-decks-hold-six-jokers", "common",
     [put("sides.1.players.0.cards_left", "JKx5 A 3B")], [put("sides.1.players.0.cards_left", "JKx4 A 3B")],
     [("supply", "jokers_per_deck", "sides", None, None)]),
    ("supply-three-decks-hold-twelve-kings", "common",
     [put("sides.1.players.0.cards_left", "Kx6 A 3B")], [put("sides.1.players.0.cards_left", "Kx5 A 3B")],
     [("supply", "decks_rule", "sides", None, None)]),
    ("supply-five-decks-hold-ten-red-threes", "pagat",
     # 9 laid by North-South + 1 laid by East-West + 1 in Dan's foot = 11 of 10
     [put("sides.0.red_threes", 9)], [put("sides.0.red_threes", 8)],
     [("supply", "decks_rule", "sides", None, None)]),
    # -- foot.size ------------------------------------------------------------------------
    ("foot.size-an-unopened-foot-holds-foot_size-cards", "common",
     [put("sides.1.players.0.foot", "A 10 10 10 8 8 7 6 5 JK")],
     [put("sides.1.players.0.foot", "A 10 10 10 8 8 7 6 5 JK"), sheet(foot_size=10)],
     [("foot.size", "foot_size", "sides[1].players[0].foot", "Bea", "Bea")]),
    ("foot.size-pagat-foot-is-thirteen", "pagat",
     [put("sides.1.players.1.foot", "3R 9 9 9 6 6 5 4 A 2 JK Q 3B K")],
     [put("sides.1.players.1.foot", "3R 9 9 9 6 6 5 4 A 2 JK Q 3B")],
     [("foot.size", "foot_size", "sides[1].players[1].foot", "East-West", "Dan")]),
    # -- foot.picked_up -------------------------------------------------------------------
    ("foot.picked_up-a-picked-up-foot-is-not-recorded-as-a-foot", "common",
     [put("sides.1.players.0.foot_picked_up", True)],
     [put("sides.1.players.0.foot_picked_up", True), drop("sides.1.players.0.foot")],
     [("foot.picked_up", None, "sides[1].players[0].foot", "Bea", "Bea")]),
    # -- knee.size, knee.picked_up: a third pile, dealt between the hand and the foot -------------
    # Under knee_size 13 Bea, who never reached her foot, never picked up her knee either
    # (knee_picked_up absent: as foot_picked_up), so its 13 cards are listed (BEA_KNEE).
    ("knee.size-an-unopened-knee-holds-knee_size-cards", "common",
     [sheet(knee_size=13), put("sides.1.players.0.knee", "K K Q Q J J 9 9 6 6 4 4")],
     [sheet(knee_size=13), BEA_KNEE],
     [("knee.size", "knee_size", "sides[1].players[0].knee", "Bea", "Bea")]),
    ("knee.size-an-unopened-knee-is-listed-as-a-foot-is", "common",
     [sheet(knee_size=13), put("sides.1.players.0.knee_picked_up", False)],
     [sheet(knee_size=13), put("sides.1.players.0.knee_picked_up", False), BEA_KNEE],
     [("knee.size", "knee_size", "sides[1].players[0].knee", "Bea", "Bea")]),
    ("knee.size-a-deal-without-a-knee-lists-none", "common",
     # the knee only in deal 1 (nwpages' tail in one round): deal 2 deals hand and foot
     [sheet(knee_size=[13, 0, 0, 0]), put("deal", 2), BEA_KNEE],
     [sheet(knee_size=[13, 0, 0, 0]), put("deal", 1), BEA_KNEE],
     [("knee.size", "knee_size", "sides[1].players[0].knee", "Bea", "Bea")]),
    ("knee.picked_up-a-foot-picked-up-means-the-knee-was", "common",
     [sheet(knee_size=13), put("sides.1.players.0.foot_picked_up", True), drop("sides.1.players.0.foot"),
      put("sides.1.players.0.knee_picked_up", False)],
     [sheet(knee_size=13), put("sides.1.players.0.foot_picked_up", True), drop("sides.1.players.0.foot"),
      put("sides.1.players.0.knee_picked_up", True)],
     [("knee.picked_up", "knee_size", "sides[1].players[0].knee_picked_up", "Bea", "Bea")]),
    ("knee.picked_up-a-picked-up-knee-is-not-recorded-as-a-knee", "common",
     [sheet(knee_size=13), put("sides.1.players.0.knee_picked_up", True), BEA_KNEE],
     [sheet(knee_size=13), put("sides.1.players.0.knee_picked_up", True)],
     [("knee.picked_up", None, "sides[1].players[0].knee", "Bea", "Bea")]),
    ("knee.picked_up-a-deal-without-a-knee-says-nothing-of-one", "common",
     [put("sides.1.players.0.knee_picked_up", False)],
     [put("sides.1.players.0.knee_picked_up", False), BEA_KNEE, sheet(knee_size=13)],
     [("knee.picked_up", "knee_size", "sides[1].players[0].knee_picked_up", "Bea", "Bea")]),
    ("went_out.cards_left-the-knee-is-played-before-going-out", "common",
     # Ann went out from her foot but says she never picked up her knee: two rules broken
     [sheet(knee_size=13), BEA_KNEE, put("sides.0.players.0.knee_picked_up", False)],
     [sheet(knee_size=13), BEA_KNEE, put("sides.0.players.0.knee_picked_up", True)],
     [("knee.picked_up", "knee_size", "sides[0].players[0].knee_picked_up", "Ann", "Ann"),
      ("went_out.cards_left", "go_out_foot", "sides[0].players[0].knee_picked_up", "Ann", "Ann")]),
    # -- went_out.books -------------------------------------------------------------------
    ("went_out.books-common-one-clean-and-one-dirty", "common",
     [put("sides.0.melds.1", "Q Q Q Q Q 2")], [put("sides.0.melds.1", "Q Q Q Q Q Q 2")],
     [("went_out.books", "books_to_go_out", "sides[0].melds", "Ann", "Ann")]),
    ("went_out.books-a-clean-book-does-not-stand-in-for-a-dirty-one", "common",
     [put("sides.0.melds.1", "Qx7")], [put("sides.0.melds.1", "Qx7"), sheet(books_to_go_out={"clean": 2})],
     [("went_out.books", "books_to_go_out", "sides[0].melds", "Ann", "Ann")]),
    ("went_out.books-pagat-needs-a-wild-book", "pagat",
     [put("sides.0.melds.4", "2 2 2 JK JK JK")], [put("sides.0.melds.4", "2 2 2 2 JK JK JK")],
     [("went_out.books", "books_to_go_out", "sides[0].melds", "North-South", "Ann")]),
    ("went_out.books-rising-by-deal", "common",
     [sheet(books_to_go_out=[{"clean": 1, "dirty": 1}, {"clean": 2, "dirty": 1}, {"clean": 2, "dirty": 1},
                             {"clean": 2, "dirty": 1}]), put("deal", 2)],
     [sheet(books_to_go_out=[{"clean": 1, "dirty": 1}, {"clean": 2, "dirty": 1}, {"clean": 2, "dirty": 1},
                             {"clean": 2, "dirty": 1}]), put("deal", 1)],
     [("went_out.books", "books_to_go_out", "sides[0].melds", "Ann", "Ann")]),
    # -- went_out.partner_foot ------------------------------------------------------------
    ("went_out.partner_foot-pagat-partner-must-have-the-foot", "pagat",
     [put("sides.0.players.1.foot_picked_up", False),
      put("sides.0.players.1.foot", "K K Q Q J J 10 10 9 9 8 8 6")],
     [put("sides.0.players.1.foot_picked_up", False),
      put("sides.0.players.1.foot", "K K Q Q J J 10 10 9 9 8 8 6"), sheet(go_out_partner_foot=False)],
     [("went_out.partner_foot", "go_out_partner_foot", "sides[0].players[1].foot_picked_up",
       "North-South", "Cy")]),
    ("went_out.partner_foot-gather-together-partner-must-have-the-foot", "gather-together",
     [put("went_out", "Bea"), put("sides.1.melds", ["Ax7", "6 6 6 6 6 2 2"])],
     [put("went_out", "Bea"), put("sides.1.melds", ["Ax7", "6 6 6 6 6 2 2"]),
      put("sides.1.players.1.foot_picked_up", True), drop("sides.1.players.1.foot")],
     [("went_out.partner_foot", "go_out_partner_foot", "sides[1].players[1].foot_picked_up",
       "East-West", "Dan")]),
    # -- went_out.cards_left --------------------------------------------------------------
    ("went_out.cards_left-going-out-leaves-no-cards", "common",
     [put("sides.0.players.0.cards_left", "7")], [put("sides.1.players.0.cards_left", "7 A 3B")],
     [("went_out.cards_left", None, "sides[0].players[0].cards_left", "Ann", "Ann")]),
    ("went_out.cards_left-the-foot-is-played-first", "common",
     [put("sides.0.players.0.foot_picked_up", False), put("sides.0.players.0.foot", "Ax2 10x3 8x2 7 6 5 4")],
     [put("sides.0.players.0.foot_picked_up", False), put("sides.0.players.0.foot", "Ax2 10x3 8x2 7 6 5 4"),
      sheet(go_out_foot=False)],
     [("went_out.cards_left", "go_out_foot", "sides[0].players[0].foot_picked_up", "Ann", "Ann")]),
    # -- went_out.player ------------------------------------------------------------------
    ("went_out.player-nobody-goes-out-when-the-stock-runs-out", "common",
     [put("ending", "stock_out")], [put("ending", "stock_out"), drop("went_out")],
     [("went_out.player", None, "went_out", None, None)]),
    ("went_out.player-say-who-went-out", "common",
     [drop("went_out")], [],
     [("went_out.player", None, "went_out", None, None)]),
    ("went_out.player-who-went-out-must-be-playing", "pagat",
     [put("went_out", "Zed")], [put("went_out", "Ann")],
     [("went_out.player", None, "went_out", None, None)]),
    # -- deal.number ----------------------------------------------------------------------
    ("deal.number-a-game-has-four-deals", "common",
     [put("deal", 5)], [put("deal", 4)],
     [("deal.number", "deals", "deal", None, None)]),
    ("deal.number-deals-start-at-one", "bicycle",
     [put("deal", 0)], [put("deal", 1)],
     [("deal.number", "deals", "deal", None, None)]),
    ("deal.number-a-longer-game", "gather-together",
     [put("deal", 7), sheet(deals=6, opening_minimums=50)], [put("deal", 6), sheet(deals=6, opening_minimums=50)],
     [("deal.number", "deals", "deal", None, None)]),
    ("deal.number-a-target-game-keeps-a-hundred-deals", "common",
     [put("deal", 101), sheet(game_length="target")], [put("deal", 100), sheet(game_length="target")],
     [("deal.number", "game_length", "deal", None, None)]),
    # -- deal.ending ----------------------------------------------------------------------
    ("deal.ending-a-reshuffle-sheet-ends-only-by-going-out", "common",
     [put("ending", "stock_out"), drop("went_out"), sheet(stock_out="reshuffle")],
     [put("ending", "stock_out"), drop("went_out")],
     [("deal.ending", "stock_out", "ending", None, None)]),
    # -- table.players --------------------------------------------------------------------
    ("table.players-pagat-is-for-four", "pagat",
     [put("sides.2", {"name": "Third", "melds": ["6 6 6"], "players": PAIR_OF_PARTNERS})],
     [put("sides.2", {"name": "Third", "melds": ["6 6 6"], "players": PAIR_OF_PARTNERS}), sheet(max_players=6)],
     [("table.players", "max_players", "sides", None, None)]),
    ("table.players-too-few", "common",
     [sheet(min_players=3)], [sheet(min_players=3),
                              put("sides.2", {"name": "Cy", "melds": ["6 6 6"], "players": PAIR_OF_PARTNERS[:1]})],
     [("table.players", "min_players", "sides", None, None)]),
    ("table.players-common-at-most-six", "common",
     [put(f"sides.{i}", {"name": f"P{i}", "melds": ["6 6 6"],
                         "players": [{"name": f"P{i}", "foot_picked_up": True}]}) for i in range(2, 7)],
     [put(f"sides.{i}", {"name": f"P{i}", "melds": ["6 6 6"],
                         "players": [{"name": f"P{i}", "foot_picked_up": True}]}) for i in range(2, 6)],
     [("table.players", "max_players", "sides", None, None)]),
    # -- table.sides ----------------------------------------------------------------------
    ("table.sides-a-game-needs-two-sides", "common",
     [put("sides.0.players.1", {"name": "Bea", "foot_picked_up": True}), drop("sides.1")],
     [put("sides.0.players.1", {"name": "Bea", "foot_picked_up": True}), drop("sides.1"),
      put("sides.1", {"name": "Cy-Dan", "melds": ["6 6 6"], "players": [
          {"name": "Cy", "foot_picked_up": True}, {"name": "Dan", "foot_picked_up": True}]})],
     [("table.sides", None, "sides", None, None)]),
    ("table.sides-sides-are-the-same-size", "common",
     [put("sides.0.players.1", {"name": "Cy", "foot_picked_up": True})],
     [put("sides.0.players.1", {"name": "Cy", "foot_picked_up": True}),
      put("sides.1.players.1", {"name": "Dan", "foot_picked_up": True})],
     [("table.sides", "side_sizes", "sides", None, None)]),
    ("table.sides-pagat-has-no-individuals", "pagat",
     [put("sides.2", {"name": "Cy", "melds": ["6 6 6"], "players": [{"name": "Cy", "foot_picked_up": True}]}),
      put("sides.3", {"name": "Dan", "melds": ["4 4 4"], "players": [{"name": "Dan", "foot_picked_up": True}]}),
      drop("sides.1.players.1"), drop("sides.0.players.1")],
     [put("sides.2", {"name": "Cy", "melds": ["6 6 6"], "players": [{"name": "Cy", "foot_picked_up": True}]}),
      put("sides.3", {"name": "Dan", "melds": ["4 4 4"], "players": [{"name": "Dan", "foot_picked_up": True}]}),
      drop("sides.1.players.1"), drop("sides.0.players.1"),
      sheet(side_sizes=[1, 2], books_to_go_out={"clean": 1, "dirty": 1}, go_out_partner_foot=False)],
     [("table.sides", "side_sizes", "sides", None, None)]),
    # -- side.players ---------------------------------------------------------------------
    ("side.players-a-side-has-players", "common",
     [put("sides.2", {"name": "Cy", "melds": ["6 6 6"], "players": []})],
     [put("sides.2", {"name": "Cy", "melds": ["6 6 6"], "players": [{"name": "Cy", "foot_picked_up": True}]})],
     [("side.players", None, "sides[2].players", "Cy", None)]),
    # -- side.name ------------------------------------------------------------------------
    ("side.name-two-sides-share-a-name", "pagat",
     [put("sides.1.name", "NORTH-SOUTH")], [put("sides.1.name", "South-North")],
     [("side.name", None, "sides[1].name", "NORTH-SOUTH", None)]),
    # -- player.name ----------------------------------------------------------------------
    ("player.name-two-players-share-a-name", "pagat",
     [put("sides.1.players.1.name", "CY")], [put("sides.1.players.1.name", "Cyd")],
     [("player.name", None, "sides[1].players[1].name", "East-West", "CY")]),
    # -- count.negative -------------------------------------------------------------------
    ("count.negative-cards-left", "common",
     [put("sides.1.players.0.cards_left", {"A": -1, "3B": 1})],
     [put("sides.1.players.0.cards_left", {"A": 0, "3B": 1})],
     [("count.negative", None, "sides[1].players[0].cards_left", "Bea", "Bea")]),
    ("count.negative-foot", "common",
     [put("sides.1.players.0.foot", {"A": 3, "10": 3, "8": 2, "7": 1, "6": 1, "5": 2, "JK": -1})],
     [put("sides.1.players.0.foot", {"A": 3, "10": 3, "8": 2, "7": 1, "6": 1, "5": 1, "JK": 0})],
     [("count.negative", None, "sides[1].players[0].foot", "Bea", "Bea")]),
    ("count.negative-red-threes", "pagat",
     [put("sides.1.red_threes", -1)], [put("sides.1.red_threes", 0)],
     [("count.negative", None, "sides[1].red_threes", "East-West", None)]),
    ("count.negative-meld", "common",
     [put("sides.1.melds.0", {"rank": "9", "naturals": -3})], [put("sides.1.melds.0", {"rank": "9", "naturals": 3})],
     [("count.negative", None, "sides[1].melds[0]", "Bea", None)]),
    # -- counted.meld_points --------------------------------------------------------------
    # Bea counted: a clean book is at least 7 × 5 = 35 points on common, so 30 is too few
    ("counted.meld_points-below-the-cheapest-books", "common",
     [put("sides.1", {"name": "Bea", "books": {"clean": 1}, "meld_points": 30,
                      "players": [{"name": "Bea", "foot_picked_up": True, "cards_left_points": 25}]})],
     [put("sides.1", {"name": "Bea", "books": {"clean": 1}, "meld_points": 35,
                      "players": [{"name": "Bea", "foot_picked_up": True, "cards_left_points": 25}]})],
     [("counted.meld_points", "card_values", "sides[1].meld_points", "Bea", None)]),
    # -- opening.minimum ------------------------------------------------------------------
    # Common deal 1, each player's minimum 50: J J J is 3 × 10 = 30; K K K + Q Q Q is 60
    ("opening.minimum-first-melds-below-the-deal's-minimum", "common",
     [put("sides.0.players.0.opening", {"melds": ["J J J"]})],
     [put("sides.0.players.0.opening", {"melds": ["K K K", "Q Q Q"]})],
     [("opening.minimum", "opening_minimums", "sides[0].players[0].opening.melds", "Ann", "Ann")]),
    # -- opening.pile ---------------------------------------------------------------------
    # Common takes the pile only once opened: K K K K + Q Q Q (70, 60 without the top K) used
    # the pile's top king; where the pile may be taken to open, the same melds are legal
    ("opening.pile-the-pile-only-after-opening", "common",
     [put("sides.0.players.0.opening", {"melds": ["K K K K", "Q Q Q"], "pile_top": "K"})],
     [put("sides.0.players.0.opening", {"melds": ["K K K K", "Q Q Q"], "pile_top": "K"}),
      sheet(pile_needs_opened=False)],
     [("opening.pile", "pile_needs_opened", "sides[0].players[0].opening.pile_top", "Ann", "Ann")]),
    # -- went_out.last_card ---------------------------------------------------------------
    ("went_out.last_card-bicycle's-last-card-is-a-discard", "bicycle",
     [put("last_card", "meld")], [put("last_card", "discard")],
     [("went_out.last_card", "last_card", "last_card", "North-South", "Ann")]),
    # -- went_out.permission --------------------------------------------------------------
    ("went_out.permission-pagat-asks-the-partner", "pagat",
     [put("permission", "asked-no")], [put("permission", "asked-yes")],
     [("went_out.permission", "go_out_permission", "permission", "North-South", "Ann")]),
    # -- cut_bonus ------------------------------------------------------------------------
    ("cut_bonus-only-where-the-sheet-pays-one", "common",
     [put("sides.1.players.0.cut_bonus", True)], [put("sides.1.players.0.cut_bonus", True), sheet(cut_bonus=100)],
     [("cut_bonus", "cut_bonus", "sides[1].players[0].cut_bonus", "Bea", "Bea")]),
    # -- issue 23: at most so many books of a rank ------------------------------------------
    # Ann's second book of queens (5 + 5 queens, 3 decks hold 12) is one past a limit of 1
    ("meld.books_per_rank-one-book-of-a-rank-past-the-limit", "common",
     [put("sides.0.melds.2", "Q Q Q Q Q 2 JK"), sheet(max_books_per_rank=1)],
     [put("sides.0.melds.2", "Q Q Q Q Q 2 JK"), sheet(max_books_per_rank=2)],
     [("meld.books_per_rank", "max_books_per_rank", "sides[0].melds[2]", "Ann", None)]),
    # -- issue 13: the variations the sheet could not say -----------------------------------
    ("meld.wild_ratio-special_book_wilds-never-keeps-a-special-rank-clean", "common",
     [put("sides.1.melds.0", "7 7 7 JK"), sheet(special_books={"7": 1000}, special_book_wilds="never")],
     [put("sides.1.melds.0", "7 7 7 JK"), sheet(special_books={"7": 1000}, special_book_wilds="allowed")],
     [("meld.wild_ratio", "special_book_wilds", "sides[1].melds[0]", "Bea", None)]),
    ("meld.rank-three_books-names-only-black-threes", "common",
     [put("sides.1.melds.0", "3R 3R 3R"), sheet(three_books={"3B": 500})],
     [put("sides.1.melds.0", "3R 3R 3R"), sheet(three_books={"3R": 1000})],
     [("meld.rank", "three_books", "sides[1].melds[0]", "Bea", None)]),
    ("meld.rank-threes-are-never-melded-without-three_books", "common",
     [put("sides.1.melds.0", {"rank": "3B", "naturals": 3})],
     [put("sides.1.melds.0", {"rank": "3B", "naturals": 3}), sheet(three_books={"3B": 500})],
     [("meld.rank", None, "sides[1].melds[0]", "Bea", None)]),
    ("meld.wild_ratio-a-book-of-threes-holds-no-wild-card", "common",
     [put("sides.1.melds.0", "3R 3R 3R JK"), sheet(three_books={"3R": 1000})],
     [put("sides.1.melds.0", "3R 3R 3R"), sheet(three_books={"3R": 1000})],
     [("meld.wild_ratio", "three_books", "sides[1].melds[0]", "Bea", None)]),
    ("foot.played-a-foot-never-picked-up-was-not-played", "common",
     [put("sides.1.players.0.foot_played", True)], [put("sides.1.players.0.foot_played", False)],
     [("foot.played", None, "sides[1].players[0].foot_played", "Bea", "Bea")]),
    ("went_out.partner_foot-pagat-partner-must-have-played-from-the-foot", "pagat",
     [put("sides.0.players.1.foot_played", False)],
     [put("sides.0.players.1.foot_played", False), sheet(go_out_partner_foot="picked-up")],
     [("went_out.partner_foot", "go_out_partner_foot", "sides[0].players[1].foot_played", "North-South", "Cy")]),
    ("went_out.books-a-special-book-asked-for", "common",
     [sheet(special_books={"7": 1000}, books_to_go_out={"clean": 1, "dirty": 1, "special": 1})],
     [sheet(special_books={"7": 1000}, books_to_go_out={"clean": 1, "dirty": 1, "special": 1}),
      put("sides.0.melds.2", "7x7")],
     [("went_out.books", "books_to_go_out", "sides[0].melds", "Ann", "Ann")]),
    ("went_out.books-a-special-book-that-counts-as-none", "common",
     [sheet(special_books={"K": 1000}, special_books_count_as="none")],
     [sheet(special_books={"K": 1000}, special_books_count_as="clean")],
     [("went_out.books", "books_to_go_out", "sides[0].melds", "Ann", "Ann")]),
    ("went_out.books-a-dirty-special-book-counts-once", "common",
     # the dirty book of queens fills the special requirement, so it is not also the dirty book
     [sheet(special_books={"Q": 1000}, books_to_go_out={"clean": 1, "dirty": 1, "special": 1})],
     [sheet(special_books={"Q": 1000}, books_to_go_out={"clean": 1, "dirty": 1, "special": 1}),
      put("sides.0.melds.2", "J J J J J 2 2")],
     [("went_out.books", "books_to_go_out", "sides[0].melds", "Ann", "Ann")]),
    ("went_out.books-a-wild-book-counts-as-clean-where-the-sheet-says", "pagat",
     [sheet(books_to_go_out={"clean": 3, "dirty": 2})],
     [sheet(books_to_go_out={"clean": 3, "dirty": 2}, wild_books_count_as="clean")],
     [("went_out.books", "books_to_go_out", "sides[0].melds", "North-South", "Ann")]),
]


@pytest.mark.parametrize("name, preset_id, bad, good, expected", CASES, ids=[c[0] for c in CASES])
def test_violation_alone_and_its_legal_near_twin(name, preset_id, bad, good, expected):
    assert violations(make(preset_id, *bad)) == expected
    assert violations(make(preset_id, *good)) == []


def test_every_violation_code_has_a_case():
    covered = {code for *_, expected in CASES for code, *_ in expected}
    assert covered == set(VIOLATION_CODES)
    assert not set(VIOLATION_CODES) & set(WARNING_CODES)


def test_problem_meld_index_and_messages():
    report = validate(make("common", put("sides.0.melds.2", "J J 2 2")))
    (problem,) = report.violations
    assert problem.meld == 2
    assert "natural" in problem.message
    assert problem.to_json() == {"code": "meld.wild_ratio", "message": problem.message, "option": "wild_ratio",
                                 "where": "sides[0].melds[2]", "side": "Ann", "player": None, "meld": 2}
    for case in CASES:
        for found in validate(make(case[1], *case[2])).violations:
            assert found.message.strip().endswith(".")


# ---------------------------------------------------------------------------------------
# Several problems at once are all reported, in a stable order
# ---------------------------------------------------------------------------------------


def test_several_violations_are_all_reported():
    deal = make("common", put("deal", 5), put("sides.0.melds.2", "J J 2 2"),
                put("sides.0.players.0.cards_left", "7"), put("sides.1.players.0.cut_bonus", True))
    assert validate(deal).codes() == ["deal.number", "meld.wild_ratio", "cut_bonus", "went_out.cards_left"]


def test_an_eight_card_meld_of_three_naturals_and_five_wilds_breaks_size_and_both_wild_limits():
    deal = make("common", put("sides.0.melds.2", "J J J 2 2 JK JK JK"))
    assert [(p.code, p.option) for p in validate(deal).violations] == [
        ("meld.size", "book_growth"), ("meld.wild_ratio", "wild_ratio"), ("meld.wild_ratio", "max_wilds")]


# ---------------------------------------------------------------------------------------
# Warnings are kept apart from violations
# ---------------------------------------------------------------------------------------


def test_red_three_left_in_hand_is_a_warning_not_a_violation():
    report = validate(make("common", put("sides.1.players.0.cards_left", "A 3B 3R")))
    assert report.violations == ()
    assert report.ok
    assert [(p.code, p.option, p.where, p.side, p.player) for p in report.warnings] == [
        ("red_three.in_hand", "red_three_penalty_hand", "sides[1].players[0].cards_left", "Bea", "Bea")]


def test_a_red_three_in_an_unopened_foot_is_no_warning():
    # the foot was never seen: nobody could have laid it
    deal = make("pagat")
    assert deal.sides[1].players[1].foot[Card.RED_THREE] == 1
    assert validate(deal).warnings == ()


def test_a_side_with_no_melds_is_a_warning_not_a_violation():
    report = validate(make("common", put("sides.1.melds", [])))
    assert report.violations == ()
    assert [(p.code, p.option, p.where, p.side) for p in report.warnings] == [
        ("side.no_melds", None, "sides[1].melds", "Bea")]


def test_warnings_and_violations_together_stay_apart():
    deal = make("common", put("sides.1.melds", []), put("sides.1.players.0.cards_left", "A 3R"), put("deal", 9))
    report = validate(deal)
    assert report.codes() == ["deal.number"]
    assert [p.code for p in report.warnings] == ["side.no_melds", "red_three.in_hand"]
    assert not report.ok


# ---------------------------------------------------------------------------------------
# Worked meld rules, straight from the sources (single melds)
# ---------------------------------------------------------------------------------------


def _meld_codes(preset_id: str, text: str) -> list[tuple[str, str | None]]:
    return [(p.code, p.option) for p in meld_problems(preset(preset_id), Meld.from_json(text))]


@pytest.mark.parametrize("preset_id, meld, expected", [
    ("pagat", "K K 2", []),
    ("pagat", "K K K K 2 2", []),
    ("pagat", "K K K 2 2", [("meld.wild_ratio", "wild_ratio")]),
    ("pagat", "K K K K 2 2 2", [("meld.wild_ratio", "wild_ratio")]),
    ("common", "K K 2", []),
    ("common", "K K 2 2", [("meld.wild_ratio", "wild_ratio")]),
    ("common", "K K K K 2 2 JK", []),
    ("common", "K K K 2 2 JK JK", [("meld.wild_ratio", "wild_ratio"), ("meld.wild_ratio", "max_wilds")]),
    ("bicycle", "K K K K 2 2 2", []),
    ("bicycle", "K K K 2", [("meld.wild_ratio", "min_naturals_with_wilds")]),
    ("bicycle", "K K K", []),
    ("gather-together", "K K 2 2", []),
    ("gather-together", "K K 2 2 2", [("meld.wild_ratio", "wild_ratio")]),
    ("gather-together", "K K K 2 2 2 JK", [("meld.wild_ratio", "wild_ratio")]),
    ("pagat", "2 2 2 2 JK JK JK", []),
    ("bicycle", "2 2 2 2 JK JK JK", [("meld.rank", "wild_books")]),
])
def test_wild_limit_of_each_preset(preset_id, meld, expected):
    assert _meld_codes(preset_id, meld) == expected


@pytest.mark.parametrize("preset_id", sorted(BASE))
def test_an_eight_card_clean_meld_is_too_big_on_every_preset(preset_id):
    assert _meld_codes(preset_id, "Kx8") == [("meld.size", "book_growth")]
    assert _meld_codes(preset_id, "Kx7") == []


@pytest.mark.parametrize("preset_id, most", [("common", 3), ("pagat", 2), ("bicycle", 3), ("gather-together", 3)])
def test_a_book_grown_with_naturals_holds_at_most_the_wilds_of_a_legal_book(preset_id, most):
    # The most wilds in a book of 7: common 4 + 3 (more naturals, at most 3), Pagat 5 + 2
    # (twice as many naturals), Bicycle 4 + 3 (4 naturals with wilds), Gather Together 4 + 3
    # (wilds never outnumber naturals). Past 7, naturals only are added: 8 cards hold one
    # natural more and the same wilds, never one wild more.
    sheet = load_sheet({"preset": preset_id, "book_growth": "naturals"})
    assert list(meld_problems(sheet, Meld(Rank.EIGHT, 8 - most, most))) == []
    problems = [(p.code, p.option) for p in meld_problems(sheet, Meld(Rank.EIGHT, 7 - most, most + 1))]
    assert ("meld.size", "book_growth") in problems


def test_book_growth_naturals_lets_a_book_grow_with_naturals_only():
    sheet = load_sheet({"preset": "common", "book_growth": "naturals"})
    assert list(meld_problems(sheet, Meld(Rank.KING, 9))) == []
    assert list(meld_problems(sheet, Meld(Rank.KING, 5, 3))) == []  # a dirty book, then a natural
    any_growth = load_sheet({"preset": "common", "book_growth": "any", "max_wilds": None})
    assert list(meld_problems(any_growth, Meld(Rank.KING, 5, 4))) == []
