"""Properties of the rules core that must hold for every input, checked with hypothesis.

* No input crashes the engine: whatever JSON reaches ``Deal.from_json`` and then ``judge``,
  the only exception is a ReadError; ``load_sheet`` builds a sheet or raises SheetError.
* A side's total is the sum of its lines, and each line is count × each.
* Adding a natural card to a legal unfinished meld never lowers the side's score.
* The supply check agrees with a direct count of every card recorded.
"""

from __future__ import annotations

import copy
import json
import os
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scorepad.rules import Card, Cards, Deal, ReadError, SheetError, Verdict, judge, load_sheet, preset, score
from scorepad.rules.cards import Rank
from scorepad.rules.catalogue import OPTIONS
from scorepad.rules.choices import Choice
from scorepad.rules.deal import Meld
from scorepad.rules.melds import meld_problems
from scorepad.rules.validate import validate

PRESET_IDS = ("common", "pagat", "bicycle", "gather-together")
NATURAL_RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4")
CARD_CODES = (*NATURAL_RANKS, "2", "JK", "3B", "3R")

# Moderate example counts keep the whole file to about ten seconds; deadline off because
# the first examples pay for imports and warm-up. SCOREPAD_PROPERTY_SCALE=30 (say) runs
# thirty times as many examples, for a deeper search before a release.
SCALE = max(float(os.environ.get("SCOREPAD_PROPERTY_SCALE", "1")), 0.01)
FUZZ = settings(max_examples=max(int(80 * SCALE), 1), deadline=None,
                suppress_health_check=[HealthCheck.too_slow])
PROPERTY = settings(max_examples=max(int(80 * SCALE), 1), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


# ---------------------------------------------------------------------------------------
# Strategies
# ---------------------------------------------------------------------------------------

# JSON's numbers: whole numbers as JSON can carry them, and floats of any kind.
json_ints = st.integers(min_value=-(2**63), max_value=2**63)
json_scalars = st.none() | st.booleans() | json_ints | st.floats() | st.text(max_size=12)
# Values that reach deeper into the reader than random text does.
tricky = st.sampled_from([
    0, 1, -1, 2, 3, 7, 11, 13, 100, 10**9, -(10**9), 1.0, 2.5, True, False, None, "", " ",
    "K", "k", "3", "3R", "3B", "wild", "JK", "2", "T", "A", "K K 2", "Kx3", "K*200", "3R 3B", "K Q",
    "common", "pagat", "bicycle", "gather-together", "house", "went_out", "stock_out",
    "Ann", "players+1", "fixed", "closed", "any", "twice", [], {}, [1, 2], {"K": 2}, {"clean": 1},
])
json_values = st.recursive(
    json_scalars | tricky,
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=8) | st.sampled_from(CARD_CODES), children, max_size=4),
    max_leaves=12,
)


@st.composite
def card_counts(draw: st.DrawFn, max_each: int = 3, kinds: tuple[str, ...] = CARD_CODES) -> dict[str, int]:
    chosen = draw(st.lists(st.sampled_from(kinds), max_size=5, unique=True))
    return {code: draw(st.integers(1, max_each)) for code in chosen}


@st.composite
def melds(draw: st.DrawFn, big: bool = False) -> dict[str, Any]:
    """A meld in the canonical count form: mostly natural ranks, sometimes wild or threes."""
    rank = draw(st.sampled_from(NATURAL_RANKS) | st.sampled_from(("wild", "3")))
    top = 12 if big else 8
    meld: dict[str, Any] = {"rank": rank}
    if rank != "wild":
        meld["naturals"] = draw(st.integers(0, top))
    meld["twos"] = draw(st.integers(0, 6 if big else 3))
    meld["jokers"] = draw(st.integers(0, 4 if big else 2))
    return meld


@st.composite
def deals(draw: st.DrawFn, presets: tuple[str, ...] = PRESET_IDS, big: bool = False) -> dict[str, Any]:
    """A deal in canonical JSON form: the right shape, its counts plausible but not checked.

    ``big`` widens the counts so the pack's supply is often exceeded.
    """
    preset_id = draw(st.sampled_from(presets))
    sheet = preset(preset_id)
    if preset_id == "common":
        side_size = draw(st.sampled_from((1, 2)))
        n_sides = draw(st.integers(2, 6 // side_size))
    else:
        side_size = 2
        n_sides = draw(st.integers(2, 3))
    max_each = 9 if big else 3
    sides = []
    names = []
    for i in range(n_sides):
        players = []
        for j in range(side_size):
            name = f"P{i}{j}"
            names.append(name)
            picked = draw(st.booleans())
            player: dict[str, Any] = {"name": name, "foot_picked_up": picked,
                                      "cards_left": draw(card_counts(max_each))}
            # A foot that was picked up is a violation of its own, and its cards are not
            # counted: the supply test checks that they are left out.
            if not picked or (big and draw(st.integers(0, 4)) == 0):
                # Mostly a foot of the right size, sometimes any cards at all.
                foot = draw(card_counts(max_each))
                if draw(st.booleans()):
                    filler = draw(st.sampled_from(CARD_CODES))
                    foot[filler] = foot.get(filler, 0) + max(sheet.foot_size - sum(foot.values()), 0)
                player["foot"] = foot
            players.append(player)
        sides.append({"name": f"Side {i}", "melds": draw(st.lists(melds(big), max_size=7)),
                      "red_threes": draw(st.integers(0, 12 if big else 4)), "players": players})
    ending = draw(st.sampled_from(("went_out", "stock_out")))
    deal: dict[str, Any] = {"sheet": preset_id, "deal": draw(st.integers(1, 5)), "ending": ending,
                            "sides": sides}
    if ending == "went_out" or draw(st.booleans()):
        deal["went_out"] = draw(st.sampled_from(names))
    return deal


@st.composite
def legal_unfinished_melds(draw: st.DrawFn, sheet_id: str) -> dict[str, Any]:
    """A natural-rank meld that breaks no rule on its own and is short of a book."""
    sheet = preset(sheet_id)
    naturals = draw(st.integers(1, sheet.book_size - 1))
    wilds = draw(st.integers(0, sheet.book_size - 1 - naturals))
    twos = draw(st.integers(0, wilds))
    meld = {"rank": draw(st.sampled_from(NATURAL_RANKS)), "naturals": naturals, "twos": twos,
            "jokers": wilds - twos}
    assume(not list(meld_problems(sheet, Meld.from_json(meld))))
    return meld


# ---------------------------------------------------------------------------------------
# Mutating valid deals
# ---------------------------------------------------------------------------------------

# Valid deals in canonical form, one per preset; the sheet-object form appears too.
VALID_DEALS: tuple[dict[str, Any], ...] = (
    {"sheet": "common", "deal": 1, "ending": "went_out", "went_out": "Ann", "sides": [
        {"name": "Ann", "red_threes": 1, "melds": [
            {"rank": "K", "naturals": 7}, {"rank": "Q", "naturals": 5, "twos": 1, "jokers": 1},
            {"rank": "5", "naturals": 3}],
         "players": [{"name": "Ann", "foot_picked_up": True, "cards_left": {}}]},
        {"name": "Bea", "red_threes": 0, "melds": [{"rank": "J", "naturals": 4, "twos": 1}],
         "players": [{"name": "Bea", "foot_picked_up": False, "cards_left": {"A": 1, "3B": 1},
                      "foot": {"K": 2, "9": 3, "2": 1, "JK": 1, "3R": 1, "7": 3}}]},
        {"name": "Cy", "red_threes": 0, "melds": [],
         "players": [{"name": "Cy", "foot_picked_up": True, "cards_left": {"4": 2}}]}]},
    {"sheet": {"preset": "pagat", "hand_size": 11, "foot_size": 11}, "deal": 2, "ending": "stock_out",
     "sides": [
         {"name": "North-South", "red_threes": 2, "melds": [
             {"rank": "wild", "twos": 4, "jokers": 3}, {"rank": "A", "naturals": 4, "twos": 2},
             {"rank": "8", "naturals": 7}],
          "players": [{"name": "Nell", "foot_picked_up": True, "cards_left": {"6": 1}},
                      {"name": "Sam", "foot_picked_up": True, "cards_left": {}}]},
         {"name": "East-West", "red_threes": 0, "melds": [{"rank": "10", "naturals": 3}],
          "players": [{"name": "Ed", "foot_picked_up": True, "cards_left": {"JK": 1}},
                      {"name": "Wu", "foot_picked_up": True, "cards_left": {"Q": 2, "3B": 1}}]}]},
    {"sheet": "bicycle", "deal": 4, "ending": "went_out", "went_out": "Ida", "sides": [
        {"name": "Us", "red_threes": 1, "melds": [
            {"rank": "7", "naturals": 7}, {"rank": "9", "naturals": 4, "jokers": 3}],
         "players": [{"name": "Ida", "foot_picked_up": True, "cards_left": {}},
                     {"name": "Joe", "foot_picked_up": True, "cards_left": {"5": 1}}]},
        {"name": "Them", "red_threes": 1, "melds": [{"rank": "4", "naturals": 3}],
         "players": [{"name": "Kim", "foot_picked_up": True, "cards_left": {"K": 1}},
                     {"name": "Lou", "foot_picked_up": True, "cards_left": {}}]}]},
    {"sheet": "gather-together", "deal": 3, "ending": "stock_out", "sides": [
        {"name": "Reds", "red_threes": 0, "melds": [{"rank": "6", "naturals": 2, "twos": 2}],
         "players": [{"name": "Max", "foot_picked_up": True, "cards_left": {"2": 1}},
                     {"name": "Ned", "foot_picked_up": True, "cards_left": {}}]},
        {"name": "Blues", "red_threes": 3, "melds": [{"rank": "J", "naturals": 3}],
         "players": [{"name": "Ola", "foot_picked_up": True, "cards_left": {"A": 2}},
                     {"name": "Pia", "foot_picked_up": True, "cards_left": {}}]}]},
)

# Keys the reader knows, so that an inserted key is sometimes a real field.
KNOWN_KEYS = ("sheet", "deal", "ending", "went_out", "sides", "name", "melds", "red_threes", "players",
              "rank", "naturals", "twos", "jokers", "cards", "foot_picked_up", "cards_left", "foot",
              "cut_bonus", "preset", *(option.name for option in OPTIONS), *CARD_CODES)


def _paths(value: Any, here: tuple = ()) -> list[tuple]:
    """The path to every value inside ``value`` (itself included, as ``()``)."""
    found = [here]
    if isinstance(value, dict):
        for key, child in value.items():
            found += _paths(child, (*here, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += _paths(child, (*here, index))
    return found


def _at(value: Any, path: tuple) -> Any:
    for step in path:
        value = value[step]
    return value


def _replacement(old: Any) -> st.SearchStrategy:
    """A new value for ``old``: mostly one of the same kind, so the reader gets past it and
    the referee sees odd values (negative or huge counts, unknown names); sometimes anything."""
    if isinstance(old, bool):
        similar = st.booleans()
    elif isinstance(old, int):
        similar = st.integers(-3, 30) | json_ints
    elif isinstance(old, str):
        similar = tricky.filter(lambda v: isinstance(v, str)) | st.text(max_size=6)
    elif isinstance(old, list):
        similar = st.just(old[:-1]) | st.just(old + old[-1:])
    else:
        similar = st.just({})
    return st.one_of(similar, similar, similar, json_values)


@st.composite
def mutated(draw: st.DrawFn, base: Any) -> Any:
    """``base`` with one to three random values replaced, deleted or inserted."""
    data = copy.deepcopy(base)
    for _ in range(draw(st.sampled_from((1, 1, 2, 3)))):
        # Deepest paths first: hypothesis favours the first choices, and the leaves are
        # where the referee's checks are.
        path = draw(st.sampled_from(_paths(data)[::-1]))
        new_value = draw(_replacement(_at(data, path)))
        action = draw(st.sampled_from(("replace", "replace", "replace", "delete", "insert")))
        if not path:
            if action == "replace" and draw(st.integers(0, 9)) == 0:
                data = new_value
                continue
            action = "insert"
        target = _at(data, path) if action == "insert" else _at(data, path[:-1])
        if action == "insert":
            if isinstance(target, dict):
                key = draw(st.sampled_from(KNOWN_KEYS) | st.sampled_from(KNOWN_KEYS) | st.text(max_size=6))
                target[key] = new_value
            elif isinstance(target, list):
                target.insert(draw(st.integers(0, len(target))), new_value)
            else:  # a scalar: replace it instead
                if not path:
                    data = new_value
                else:
                    _at(data, path[:-1])[path[-1]] = new_value
        elif action == "delete":
            del target[path[-1]]
        else:
            target[path[-1]] = new_value
    return data


def _judge_or_read_error(data: Any) -> None:
    """``Deal.from_json`` then ``judge``: a ReadError or a Verdict, never anything else."""
    try:
        deal = Deal.from_json(data)
    except ReadError:
        return
    verdict = judge(deal)
    assert isinstance(verdict, Verdict)
    json.dumps(verdict.to_json())  # the verdict is plain JSON all the way down


def test_the_valid_deals_used_for_mutation_are_valid():
    for data in VALID_DEALS:
        deal = Deal.from_json(data)
        assert validate(deal).codes() == [], data["sheet"]
        assert deal.to_json() == Deal.from_json(deal.to_json()).to_json()


# ---------------------------------------------------------------------------------------
# No input crashes the engine
# ---------------------------------------------------------------------------------------


@FUZZ
@given(json_values)
def test_no_input_crashes_the_engine_arbitrary_json(data):
    _judge_or_read_error(data)


@FUZZ
@given(st.fixed_dictionaries(
    {"sheet": st.sampled_from(PRESET_IDS) | json_values, "deal": json_ints | json_values,
     "ending": st.sampled_from(("went_out", "stock_out")) | json_values,
     "sides": st.lists(st.dictionaries(st.sampled_from(("name", "melds", "red_threes", "players")),
                                       json_values), max_size=3) | json_values},
    optional={"went_out": json_values}))
def test_no_input_crashes_the_engine_deal_shaped_json(data):
    _judge_or_read_error(data)


@FUZZ
@given(st.sampled_from(VALID_DEALS).flatmap(mutated))
def test_no_input_crashes_the_engine_mutated_valid_deals(data):
    _judge_or_read_error(data)


@FUZZ
@given(deals().flatmap(mutated))
def test_no_input_crashes_the_engine_mutated_generated_deals(data):
    _judge_or_read_error(data)


@FUZZ
@given(deals())
def test_no_input_crashes_the_engine_generated_deals(data):
    verdict = judge(Deal.from_json(data))
    assert isinstance(verdict, Verdict)


def _load_sheet_or_sheet_error(data: Any) -> None:
    try:
        sheet = load_sheet(data)
    except SheetError:
        return
    # A sheet that builds can be written back and read again to the same sheet.
    assert load_sheet(sheet.to_json()) == sheet
    assert load_sheet(sheet.to_json(full=True)) == sheet


# Every value a shipped sheet gives any option, and every word of every choice: plausible
# values for the wrong option, or the right one.
OPTION_VALUES = sorted({json.dumps(value, sort_keys=True)
                        for preset_id in PRESET_IDS
                        for value in preset(preset_id).to_json(full=True).values()}
                       | {json.dumps(choice.value) for kind in Choice.__subclasses__() for choice in kind})
option_values = st.sampled_from(OPTION_VALUES).map(json.loads) | st.integers(-2, 40) | json_values


@FUZZ
@given(st.sampled_from(PRESET_IDS), st.sampled_from([o.name for o in OPTIONS]) | st.text(max_size=8),
       option_values)
def test_no_input_crashes_the_engine_sheet_option_values(preset_id, option, value):
    _load_sheet_or_sheet_error({"preset": preset_id, option: value})


@FUZZ
@given(st.sampled_from(PRESET_IDS).map(lambda p: preset(p).to_json(full=True))
       .flatmap(lambda full: st.sampled_from([full, {k: v for k, v in full.items() if k != "preset"}]))
       .flatmap(mutated))
def test_no_input_crashes_the_engine_mutated_sheets(data):
    _load_sheet_or_sheet_error(data)


@FUZZ
@given(json_values)
def test_no_input_crashes_the_engine_arbitrary_sheet_json(data):
    _load_sheet_or_sheet_error(data)


# ---------------------------------------------------------------------------------------
# A side's total is the sum of its lines
# ---------------------------------------------------------------------------------------


@PROPERTY
@given(deals())
def test_side_total_is_sum_of_lines_and_each_line_is_count_times_each(data):
    breakdown = score(Deal.from_json(data))
    assert [side.name for side in breakdown.sides] == [side["name"] for side in data["sides"]]
    for side in breakdown.sides:
        assert side.total == sum(line.points for line in side.lines)
        for line in side.lines:
            assert line.points == line.count * line.each, line


# ---------------------------------------------------------------------------------------
# Adding a natural to a legal unfinished meld never lowers the score
# ---------------------------------------------------------------------------------------


@PROPERTY
@given(st.data())
def test_adding_a_natural_to_a_legal_unfinished_meld_never_lowers_the_score(data):
    base = data.draw(deals())
    sheet = preset(base["sheet"])
    side_index = data.draw(st.integers(0, len(base["sides"]) - 1))
    melds_ = base["sides"][side_index]["melds"]
    melds_.insert(data.draw(st.integers(0, len(melds_))), data.draw(legal_unfinished_melds(base["sheet"])))
    checked = 0
    for meld_index, meld in enumerate(melds_):
        parsed = Meld.from_json(meld)
        if (parsed.rank in (Rank.WILD, Rank.THREE) or parsed.size >= sheet.book_size
                or list(meld_problems(sheet, parsed))):
            continue
        grown = copy.deepcopy(base)
        grown["sides"][side_index]["melds"][meld_index]["naturals"] += 1
        assert Meld.from_json(grown["sides"][side_index]["melds"][meld_index]).size == parsed.size + 1
        before = score(Deal.from_json(base)).sides[side_index].total
        after = score(Deal.from_json(grown)).sides[side_index].total
        assert after >= before, (meld, before, after)
        # Exactly: the card's own points, and the book bonus if the meld became a book.
        gain = sheet.card_values[Card(meld["rank"])]
        if parsed.size + 1 == sheet.book_size:
            gain += sheet.dirty_book_bonus if parsed.wilds else sheet.clean_book_bonus
        assert after - before == gain, (meld, before, after)
        checked += 1
    assert checked >= 1


# ---------------------------------------------------------------------------------------
# The supply check agrees with a direct count
# ---------------------------------------------------------------------------------------


def _direct_count(data: dict[str, Any]) -> dict[str, int]:
    """Every card the deal's JSON records, counted by hand: melds (a meld of threes as black
    threes; a wild meld's naturals have no rank to count), red threes laid, cards left and
    the feet never picked up."""
    counts = dict.fromkeys(CARD_CODES, 0)
    for side in data["sides"]:
        for meld in side["melds"]:
            rank = meld["rank"]
            if rank == "3":
                counts["3B"] += meld.get("naturals", 0)
            elif rank != "wild":
                counts[rank] += meld.get("naturals", 0)
            counts["2"] += meld.get("twos", 0)
            counts["JK"] += meld.get("jokers", 0)
        counts["3R"] += side["red_threes"]
        for player in side["players"]:
            for code, n in player["cards_left"].items():
                counts[code] += n
            if not player["foot_picked_up"]:
                for code, n in player.get("foot", {}).items():
                    counts[code] += n
    return counts


def _pack_by_hand(preset_id: str, players: int) -> dict[str, int]:
    decks = players + 1 if preset_id == "common" else 5
    pack = {code: 4 * decks for code in (*NATURAL_RANKS, "2")}
    pack["JK"] = 2 * decks  # every shipped preset has 2 jokers a deck
    pack["3R"] = pack["3B"] = 2 * decks
    return pack


@PROPERTY
@given(deals(big=True) | deals())
def test_supply_check_agrees_with_a_direct_count(data):
    players = sum(len(side["players"]) for side in data["sides"])
    counted = _direct_count(data)
    pack = _pack_by_hand(data["sheet"], players)
    over = [code for code in CARD_CODES if counted[code] > pack[code]]
    codes = validate(Deal.from_json(data)).codes()
    assert ("supply" in codes) == bool(over), (over, counted, pack)
    assert codes.count("supply") == len(over)


def test_pack_by_hand_matches_the_sheets():
    for preset_id in PRESET_IDS:
        assert preset(preset_id).jokers_per_deck == 2
    assert sum(_pack_by_hand("pagat", 4).values()) == 270


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_supply_check_fires_one_past_the_pack(preset_id):
    # The edge the generated deals rarely hit exactly: the full pack, then one card more.
    players = 4
    pack = _pack_by_hand(preset_id, players)
    for code in ("K", "2", "JK", "3R", "3B"):
        for extra, expected in ((0, False), (1, True)):
            names = iter(("A1", "A2", "B1", "B2"))
            sides = [{"name": f"S{i}", "melds": [], "red_threes": 0,
                      "players": [{"name": next(names), "foot_picked_up": True, "cards_left": {}}
                                  for _ in range(2)]} for i in range(2)]
            sides[0]["players"][0]["cards_left"] = {code: pack[code] + extra}
            data = {"sheet": preset_id, "deal": 1, "ending": "stock_out", "sides": sides}
            codes = validate(Deal.from_json(data)).codes()
            assert ("supply" in codes) is expected, (preset_id, code, extra)


# Spellings of one card that a card string may hold, in mixed case, and what else it may hold.
ONE_CARD_SPELLINGS = st.sampled_from((*CARD_CODES, "T", "JOKER", "JO", "W")).flatmap(
    lambda code: st.tuples(*(st.sampled_from((ch.lower(), ch.upper())) for ch in code)).map("".join))
SEPARATORS = st.sampled_from((" ", ",", ", ", "  ", "\n", " \n ", " ,, "))


@FUZZ
@given(st.lists(st.tuples(ONE_CARD_SPELLINGS, SEPARATORS), max_size=30))
def test_a_card_string_of_single_cards_reads_as_the_same_cards_counted_one_by_one(tokens):
    """A card string of single cards (looked up token by token) reads as the same string with
    each card counted ``x1`` (which only the long way reads), separators and case whatever."""
    text = "".join(token + gap for token, gap in tokens)
    counted = "".join(f"{token}x1{gap}" for token, gap in tokens)
    assert Cards.parse(text).counts() == Cards.parse(counted).counts()
    assert sum(Cards.parse(text).counts()) == len(tokens)

