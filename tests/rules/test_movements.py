"""Specification: the seating movements of a club night (issue 27), worked by hand.

Progressive tables seat four as two sides of two, (North, South) v (East, West); partnerships
play two to a table. Each function gives the next round from the roster and the rounds before.
Small cases are written out seat by seat; the grids check what every round must keep: each
player at one seat, byes and seated together the roster, byes spread evenly.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations

import pytest

from scorepad.rules import ReadError
from scorepad.rules.limits import MAX_EVENT_PLAYERS, MAX_EVENT_ROUNDS, MAX_EVENT_TABLES
from scorepad.rules.movements import (
    Repeats,
    RoundSeats,
    TableSeats,
    generic,
    north_stays,
    partners_round,
    repeats,
)

Movement = Callable[[Sequence[str], Sequence[RoundSeats]], RoundSeats]
PROGRESSIVE: list[Movement] = [north_stays, generic]


def play(movement: Movement, roster: Sequence[str], count: int,
         before: Sequence[RoundSeats] = ()) -> list[RoundSeats]:
    """``count`` more rounds of ``movement`` after ``before``, the roster fixed."""
    rounds = list(before)
    for _ in range(count):
        rounds.append(movement(roster, rounds))
    return rounds


def seats(played: RoundSeats) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    return [table.sides for table in played.tables]


def names(count: int) -> list[str]:
    return [f"P{i:03}" for i in range(1, count + 1)]


def table(number: int, north: str, south: str, east: str, west: str) -> TableSeats:
    return TableSeats(number, ((north, south), (east, west)))


def match(number: int, first: str, second: str) -> TableSeats:
    return TableSeats(number, ((first,), (second,)))


# -- north stays ----------------------------------------------------------------------------------


def test_round_one_seats_the_roster_in_order_north_south_east_west():
    assert north_stays(list("ABCDEFGH"), []) == RoundSeats(
        1, (table(1, "A", "B", "C", "D"), table(2, "E", "F", "G", "H")), ())


def test_north_stays_south_moves_down_one_east_up_one_west_up_two():
    """12 players, 3 tables, round 2 seat by seat: A, E, I stay North; South B 1->3, F 2->1,
    J 3->2; East C 1->2, G 2->3, K 3->1; West D 1->3, H 2->1, L 3->2."""
    roster = list("ABCDEFGHIJKL")
    first = north_stays(roster, [])
    assert seats(first) == [(("A", "B"), ("C", "D")), (("E", "F"), ("G", "H")), (("I", "J"), ("K", "L"))]
    assert north_stays(roster, [first]) == RoundSeats(2, (
        table(1, "A", "F", "K", "H"),
        table(2, "E", "J", "C", "L"),
        table(3, "I", "B", "G", "D"),
    ), ())


def test_wrapping_from_table_one_south_goes_to_the_last():
    """4 tables: South of table 1 goes to table 4; East of table 4 to table 1; West of 3 to 1, of 4 to 2."""
    roster = names(16)
    first = north_stays(roster, [])
    second = north_stays(roster, [first])
    by_table = {t.table: t for t in second.tables}
    assert by_table[4].sides[0][1] == first.tables[0].sides[0][1]  # South 1 -> 4
    assert by_table[1].sides[1][0] == first.tables[3].sides[1][0]  # East 4 -> 1
    assert by_table[1].sides[1][1] == first.tables[2].sides[1][1]  # West 3 -> 1
    assert by_table[2].sides[1][1] == first.tables[3].sides[1][1]  # West 4 -> 2


def test_eight_players_at_two_tables_rounds_one_to_three_seat_by_seat():
    """Two tables: South and East both cross to the other table, West (up two) stays, so round 3
    is round 1 again."""
    rounds = play(north_stays, list("ABCDEFGH"), 3)
    assert rounds == [
        RoundSeats(1, (table(1, "A", "B", "C", "D"), table(2, "E", "F", "G", "H")), ()),
        RoundSeats(2, (table(1, "A", "F", "G", "D"), table(2, "E", "B", "C", "H")), ()),
        RoundSeats(3, (table(1, "A", "B", "C", "D"), table(2, "E", "F", "G", "H")), ()),
    ]
    # round 2 repeats no partnership, but West stays against North: A-D, E-H met in round 1, and
    # F-G, B-C cross together. Round 3 is round 1 again: its four partnerships, its 8 pairs of
    # opponents (those four a third time): 4 + 8 extra meetings.
    assert repeats(rounds[:2]) == Repeats(0, 4)
    assert repeats(rounds) == Repeats(4, 12)


def test_one_table_nobody_moves():
    rounds = play(north_stays, list("ABCD"), 2)
    assert rounds[1].tables == rounds[0].tables == (table(1, "A", "B", "C", "D"),)


def test_ten_players_two_sit_out_each_round_in_turn_and_their_seats_are_taken():
    """Round 1: the two past the tables (I, J) sit out. Round 2: A and B go to a bye; their
    seats after the movement (North of 1, South of 2) are taken by I and J, in roster order."""
    rounds = play(north_stays, list("ABCDEFGHIJ"), 6)
    assert [r.byes for r in rounds] == [("I", "J"), ("A", "B"), ("C", "D"), ("E", "F"), ("G", "H"), ("I", "J")]
    assert rounds[0].tables == (table(1, "A", "B", "C", "D"), table(2, "E", "F", "G", "H"))
    assert rounds[1].tables == (table(1, "I", "F", "G", "D"), table(2, "E", "J", "C", "H"))
    # round 3: C (East, 2 -> 1) and D (West, stays 1) go out; J (South, 2 -> 1) and I stays North
    assert rounds[2].tables == (table(1, "I", "J", "A", "B"), table(2, "E", "F", "G", "H"))


def test_late_arrival_is_seated():
    """I arrives for round 2: one player must sit out and I (counted with the fewest byes, 0)
    is not it; A, first of the rotation, goes out and I takes A's seat, North of table 1."""
    first = north_stays(list("ABCDEFGH"), [])
    second = north_stays(list("ABCDEFGHI"), [first])
    assert second == RoundSeats(2, (table(1, "I", "F", "G", "D"), table(2, "E", "B", "C", "H")), ("A",))


def test_late_arrivals_opening_a_table_keep_the_movement_where_tables_survive():
    """8 players become 12: the two tables move as before, the new table 3 is seated in roster order."""
    first = north_stays(list("ABCDEFGH"), [])
    second = north_stays(list("ABCDEFGHIJKL"), [first])
    assert second == RoundSeats(2, (
        table(1, "A", "F", "G", "D"), table(2, "E", "B", "C", "H"), table(3, "I", "J", "K", "L")), ())


# -- byes -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("movement", PROGRESSIVE, ids=lambda m: m.__name__)
@pytest.mark.parametrize("players", [5, 6, 7, 9, 11, 13, 14, 15, 21])
def test_byes_spread_evenly_nobody_sits_out_twice_before_everyone_once(movement: Movement, players: int):
    roster = names(players)
    out: Counter[str] = Counter()
    for played in play(movement, roster, MAX_EVENT_ROUNDS):
        out.update(played.byes)
        counts = [out[name] for name in roster]
        assert max(counts) - min(counts) <= 1, (played.round, out)
        assert len(played.byes) == players % 4


def test_a_late_arrival_counts_as_having_the_fewest_byes():
    """Five players, one table: in five rounds each sits out once. F arrives for round 6 (two
    byes a round now): F counts as having one bye, as everyone has, so in rounds 6 to 8 each of
    the six sits out once more, F too: neither all F's nor none."""
    five = play(north_stays, list("ABCDE"), 5)
    assert sorted(name for r in five for name in r.byes) == list("ABCDE")
    later = play(north_stays, list("ABCDEF"), 3, five)[5:]
    assert sorted(name for r in later for name in r.byes) == list("ABCDEF")


# -- every round, every movement: the properties --------------------------------------------------


@pytest.mark.parametrize("movement", PROGRESSIVE, ids=lambda m: m.__name__)
@pytest.mark.parametrize("players", [4, 5, 8, 10, 12, 16, 19, 24, 40])
def test_every_round_seats_each_playing_player_exactly_once(movement: Movement, players: int):
    roster = names(players)
    for number, played in enumerate(play(movement, roster, 8), start=1):
        assert played.round == number
        assert [t.table for t in played.tables] == list(range(1, players // 4 + 1))
        assert all(len(side) == 2 for t in played.tables for side in t.sides)
        seated = played.seated
        assert len(seated) == len(set(seated)) == 4 * (players // 4)
        assert not set(seated) & set(played.byes)
        assert sorted(seated + played.byes) == sorted(roster)  # byes + seated == roster


@pytest.mark.parametrize("movement", [*PROGRESSIVE, partners_round], ids=lambda m: m.__name__)
def test_the_same_input_gives_the_same_round(movement: Movement):
    roster = names(22)
    assert play(movement, roster, 6) == play(movement, roster, 6)


def test_a_growing_roster_is_seated_every_round():
    rounds: list[RoundSeats] = []
    for size in (8, 9, 10, 13, 16, 17, 17, 20):
        for movement in PROGRESSIVE:
            played = movement(names(size), rounds)
            assert sorted(played.seated + played.byes) == names(size)
        rounds.append(north_stays(names(size), rounds))


# -- generic --------------------------------------------------------------------------------------


def test_generic_movement_of_16_players_repeats_no_partner_in_5_rounds():
    rounds = play(generic, names(16), 5)
    assert repeats(rounds).partners == 0


@pytest.mark.parametrize("players", [8, 12, 20, 40])
def test_generic_movement_repeats_no_partner_while_new_partners_are_plenty(players: int):
    assert repeats(play(generic, names(players), 5)).partners == 0


def test_generic_movement_repeats_fewer_than_north_stays():
    roster = names(40)
    searched, moved = repeats(play(generic, roster, 8)), repeats(play(north_stays, roster, 8))
    assert (searched.partners, searched.opponents) < (moved.partners, moved.opponents)


def test_generic_movement_seats_40_tables_for_round_12_in_under_a_second():
    roster = names(MAX_EVENT_PLAYERS)
    before = play(generic, roster, MAX_EVENT_ROUNDS - 1)
    start = time.perf_counter()
    last = generic(roster, before)
    assert time.perf_counter() - start < 1.0
    assert len(last.tables) == MAX_EVENT_TABLES and last.round == MAX_EVENT_ROUNDS


def test_generic_movement_of_one_table_tries_its_three_pairings():
    """Four players can partner in only three ways: three rounds without a repeated partnership."""
    rounds = play(generic, list("ABCD"), 3)
    assert repeats(rounds).partners == 0
    assert {frozenset(map(frozenset, r.tables[0].sides)) for r in rounds} == {
        frozenset({frozenset("AB"), frozenset("CD")}), frozenset({frozenset("AC"), frozenset("BD")}),
        frozenset({frozenset("AD"), frozenset("BC")})}


# -- partnerships ---------------------------------------------------------------------------------


def test_circle_method_of_four_partnerships_by_hand():
    """A stays; B, C, D turn one place a round: A-D B-C, then A-C D-B, then A-B C-D; round 4 is round 1."""
    rounds = play(partners_round, list("ABCD"), 4)
    assert rounds[:3] == [
        RoundSeats(1, (match(1, "A", "D"), match(2, "B", "C")), ()),
        RoundSeats(2, (match(1, "A", "C"), match(2, "D", "B")), ()),
        RoundSeats(3, (match(1, "A", "B"), match(2, "C", "D")), ()),
    ]
    assert rounds[3].tables == rounds[0].tables and rounds[3].round == 4


def test_circle_method_with_an_odd_count_gives_one_partnership_a_bye():
    """Seven: a bye slot makes eight; whoever faces it sits out (A first, then F, D, B...)."""
    rounds = play(partners_round, list("ABCDEFG"), 2)
    assert rounds == [
        RoundSeats(1, (match(1, "B", "G"), match(2, "C", "F"), match(3, "D", "E")), ("A",)),
        RoundSeats(2, (match(1, "A", "G"), match(2, "B", "E"), match(3, "C", "D")), ("F",)),
    ]


@pytest.mark.parametrize("count", [2, 3, 4, 5, 7, 8, 12, 13, 20])
def test_circle_method_meets_every_partnership_once(count: int):
    roster = names(count)
    full = count - 1 if count % 2 == 0 else count  # rounds in one turn of the circle
    rounds = play(partners_round, roster, min(full, MAX_EVENT_ROUNDS))
    met = Counter(frozenset(t.players) for r in rounds for t in r.tables)
    assert set(met.values()) == {1}
    assert repeats(rounds) == Repeats(0, 0)
    if full <= MAX_EVENT_ROUNDS:
        assert set(met) == {frozenset(pair) for pair in combinations(roster, 2)}
        if count % 2:
            assert sorted(name for r in rounds for name in r.byes) == roster  # each sits out once


def test_after_a_whole_circle_the_pairings_begin_again():
    rounds = play(partners_round, names(6), 7)
    assert [r.tables for r in rounds[5:]] == [rounds[0].tables, rounds[1].tables]


@pytest.mark.parametrize("count", [2, 5, 8, 9, 20])
def test_partners_round_seats_each_partnership_once(count: int):
    roster = names(count)
    for played in play(partners_round, roster, 8):
        assert all(len(side) == 1 for t in played.tables for side in t.sides)
        assert len(played.seated) == len(set(played.seated)) == count - count % 2
        assert sorted(played.seated + played.byes) == roster


def test_late_entry_falls_back_to_a_search_without_repeats():
    """Six partnerships play two rounds; a seventh enters: the search pairs them so that nobody
    meets an opponent again, the newcomer plays (it counts as having the fewest byes)."""
    six = play(partners_round, list("ABCDEF"), 2)
    later = play(partners_round, list("ABCDEFG"), 3, six)
    assert repeats(later) == Repeats(0, 0)
    assert "G" in later[2].seated
    assert all(len(r.byes) == 1 for r in later[2:])
    assert len({name for r in later[2:] for name in r.byes}) == 3


# -- repeats --------------------------------------------------------------------------------------


def test_repeats_count_each_extra_partnership_and_each_extra_pair_of_opponents():
    one = RoundSeats(1, (table(1, "A", "B", "C", "D"),), ())
    swapped = RoundSeats(2, (table(1, "A", "B", "D", "C"),), ())  # the same four partnerships
    crossed = RoundSeats(3, (table(1, "A", "C", "B", "D"),), ())  # A-C, B-D partners; A-B, A-D, C-B, C-D meet
    assert repeats([one]) == Repeats(0, 0)
    assert repeats([one, swapped]) == Repeats(2, 4)
    assert repeats([one, swapped, crossed]) == Repeats(2, 4 + 2)  # A-D and B-C a third time; A-B, C-D were partners


def test_repeats_of_partnerships_count_no_partners():
    rounds = [RoundSeats(1, (match(1, "A", "B"),), ("C",)), RoundSeats(2, (match(1, "B", "A"),), ("C",))]
    assert repeats(rounds) == Repeats(0, 1)


@pytest.mark.parametrize(("found", "said"), [
    (Repeats(0, 0), "no repeats"),
    (Repeats(2, 5), "2 repeated partnerships, 5 repeated opponents"),
    (Repeats(1, 1), "1 repeated partnership, 1 repeated opponent"),
    (Repeats(0, 3), "0 repeated partnerships, 3 repeated opponents"),
])
def test_repeats_say_what_they_count(found: Repeats, said: str):
    assert str(found) == said


# -- what cannot be seated ------------------------------------------------------------------------


@pytest.mark.parametrize("movement", PROGRESSIVE, ids=lambda m: m.__name__)
def test_fewer_than_four_players_is_refused_naming_the_roster(movement: Movement):
    with pytest.raises(ValueError, match="the roster has 3: Ann, Bea, Cy") as refused:
        movement(["Ann", "Bea", "Cy"], [])
    assert isinstance(refused.value, ReadError) and refused.value.field == "players"


def test_fewer_than_two_partnerships_is_refused():
    with pytest.raises(ValueError, match="the roster has 1: Smiths") as refused:
        partners_round(["Smiths"], [])
    assert isinstance(refused.value, ReadError) and refused.value.field == "partnerships"


@pytest.mark.parametrize(("movement", "roster", "field", "reason"), [
    (north_stays, ["Ann", "Bea", "Cy", "Ann"], "players", "Ann is on the roster twice"),
    (generic, ["Ann", "Bea", "Cy", " "], "players", "blank"),
    (generic, names(MAX_EVENT_PLAYERS + 1), "players", f"at most {MAX_EVENT_PLAYERS}"),
    (partners_round, names(2 * MAX_EVENT_TABLES + 1), "partnerships", f"at most {2 * MAX_EVENT_TABLES}"),
])
def test_a_roster_past_its_bounds_is_refused_naming_the_field(movement: Movement, roster: list[str], field: str,
                                                               reason: str):
    with pytest.raises(ReadError, match=reason) as refused:
        movement(roster, [])
    assert refused.value.field == field


def test_a_round_past_the_last_is_refused():
    roster = names(8)
    rounds = play(north_stays, roster, MAX_EVENT_ROUNDS)
    with pytest.raises(ReadError, match=f"at most {MAX_EVENT_ROUNDS} rounds") as refused:
        north_stays(roster, rounds)
    assert refused.value.field == "rounds"


def test_rounds_given_out_of_order_are_refused():
    first = north_stays(names(8), [])
    with pytest.raises(ReadError, match="must be 1, not 2") as refused:
        north_stays(names(8), [RoundSeats(2, first.tables, ())])
    assert refused.value.field == "rounds[0].round"
