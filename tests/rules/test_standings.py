"""An event's standings (scorepad.rules.standings) and its plan read from JSON
(scorepad.rules.club_night): each case worked out by hand."""

from __future__ import annotations

import pytest

from scorepad.rules.club_night import Entrant, EventPlan, Format, Ranking, read_partnerships, read_roster
from scorepad.rules.errors import ReadError
from scorepad.rules.standings import RoundPlay, TablePlay, standings

PROGRESSIVE = EventPlan(Format.PROGRESSIVE, rounds=3)


def _rows(plan, entrants, rounds):
    return [(s.place, s.name, s.wins, s.losses, s.ties, s.byes, s.points) for s in standings(plan, entrants, rounds)]


def test_each_player_scores_the_side_total_and_the_side_alone_on_top_wins():
    table = TablePlay(1, (("Ann", "Ben"), ("Cat", "Dan")), (1_450, 980), finished=True)
    assert _rows(PROGRESSIVE, ["Ann", "Ben", "Cat", "Dan"], [RoundPlay(1, (table,), ())]) == [
        (1, "Ann", 1, 0, 0, 0, 1_450), (1, "Ben", 1, 0, 0, 0, 1_450),
        (3, "Cat", 0, 1, 0, 0, 980), (3, "Dan", 0, 1, 0, 0, 980)]


def test_sides_sharing_the_top_total_tie_neither_winning_nor_losing():
    table = TablePlay(1, (("Ann", "Ben"), ("Cat", "Dan")), (700, 700), finished=True)
    rows = _rows(PROGRESSIVE, ["Ann", "Ben", "Cat", "Dan"], [RoundPlay(1, (table,), ())])
    assert {(name, wins, losses, ties) for _, name, wins, losses, ties, _, _ in rows} == {
        ("Ann", 0, 0, 1), ("Ben", 0, 0, 1), ("Cat", 0, 0, 1), ("Dan", 0, 0, 1)}
    assert {place for place, *_ in rows} == {1}


def test_a_table_still_playing_adds_its_points_so_far_but_no_win():
    table = TablePlay(1, (("Ann", "Ben"), ("Cat", "Dan")), (300, 120), finished=False)
    rows = _rows(PROGRESSIVE, ["Ann", "Ben", "Cat", "Dan"], [RoundPlay(1, (table,), ())])
    assert rows[0] == (1, "Ann", 0, 0, 0, 0, 300)
    assert rows[-1] == (3, "Dan", 0, 0, 0, 0, 120)


def test_a_bye_scores_the_average_of_the_rounds_winners_rounded_half_up():
    # Winners: table 1 on 1,000, table 2 on 1,501: (1,000 + 1,501) / 2 = 1,250.5, so 1,251.
    tables = (TablePlay(1, (("Ann", "Ben"), ("Cat", "Dan")), (1_000, 500), True),
              TablePlay(2, (("Eve", "Fay"), ("Gus", "Hal")), (200, 1_501), True))
    rows = {name: (wins, losses, byes, points)
            for _, name, wins, losses, _, byes, points in _rows(PROGRESSIVE, [], [RoundPlay(1, tables, ("Ivy",))])}
    assert rows["Ivy"] == (0, 0, 1, 1_251)


def test_a_tied_table_has_no_winner_to_average():
    tables = (TablePlay(1, (("Ann", "Ben"), ("Cat", "Dan")), (800, 800), True),
              TablePlay(2, (("Eve", "Fay"), ("Gus", "Hal")), (900, 600), True))
    assert RoundPlay(1, tables, ("Ivy",)).winners_average() == 900


def test_a_fixed_bye_score_is_the_stated_points():
    plan = EventPlan(Format.PROGRESSIVE, rounds=3, bye_points=500)
    tables = (TablePlay(1, (("Ann", "Ben"), ("Cat", "Dan")), (1_000, 500), True),)
    rows = {row[1]: row for row in _rows(plan, [], [RoundPlay(1, tables, ("Eve",))])}
    assert rows["Eve"] == (3, "Eve", 0, 0, 0, 1, 500)  # level with Cat and Dan (0 wins, 500)


def test_ranking_by_wins_puts_more_wins_above_more_points():
    # Round 1: Ann and Ben (600) beat Cat and Dan (500). Round 2: Ben and Dan (2,000) beat Ann and Cat (300).
    r1 = RoundPlay(1, (TablePlay(1, (("Ann", "Ben"), ("Cat", "Dan")), (600, 500), True),), ())
    r2 = RoundPlay(2, (TablePlay(1, (("Ann", "Cat"), ("Ben", "Dan")), (300, 2_000), True),), ())
    by_wins = _rows(PROGRESSIVE, ["Ann", "Ben", "Cat", "Dan"], [r1, r2])
    # Ben: 2 wins, 2,600. Ann: 1 win, 900. Dan: 1 win, 2,500. Cat: 0 wins, 800.
    assert [(place, name) for place, name, *_ in by_wins] == [(1, "Ben"), (2, "Dan"), (3, "Ann"), (4, "Cat")]
    by_points = _rows(EventPlan(Format.PROGRESSIVE, rounds=3, ranking=Ranking.POINTS), ["Ann", "Ben", "Cat", "Dan"],
                      [r1, r2])
    assert [(name, points) for _, name, *_, points in by_points] == [("Ben", 2_600), ("Dan", 2_500), ("Ann", 900),
                                                                     ("Cat", 800)]


def test_partnerships_are_ranked_as_one_entrant():
    plan = EventPlan(Format.PARTNERS, rounds=3)
    table = TablePlay(1, (("Ann and Ben",), ("Cat and Dan",)), (1_200, 1_300), True)
    assert _rows(plan, ["Ann and Ben", "Cat and Dan"], [RoundPlay(1, (table,), ())]) == [
        (1, "Cat and Dan", 1, 0, 0, 0, 1_300), (2, "Ann and Ben", 0, 1, 0, 0, 1_200)]


def test_the_tie_break_is_stated_in_words():
    assert PROGRESSIVE.tie_break == "most wins, then most points; entrants equal on both share a place"


@pytest.mark.parametrize(("data", "field"), [
    ({"format": "progressive"}, "rounds"),
    ({"format": "progressive", "rounds": 13}, "rounds"),
    ({"format": "progressive", "rounds": True}, "rounds"),
    ({"rounds": 3}, "format"),
    ({"format": "teams", "rounds": 3}, "format"),
    ({"format": "partners", "rounds": 3, "bye_score": -5}, "bye_score"),
    ({"format": "partners", "rounds": 3, "movement": "howell"}, "movement"),
])
def test_a_plan_that_cannot_be_read_names_the_field(data, field):
    with pytest.raises(ReadError) as err:
        EventPlan.from_json(data)
    assert err.value.field == field


def test_a_plan_reads_back_from_its_json():
    plan = EventPlan.from_json({"format": "partners", "rounds": 4, "bye_score": 750, "ranking": "points",
                                "standings": "hidden"})
    assert EventPlan.from_json(plan.to_json()) == plan
    assert plan.bye_points == 750


def test_names_are_unique_in_an_event_whatever_their_case():
    roster = read_roster(["Ann", {"name": "Ben", "member": "1042"}])
    assert roster == (Entrant("Ann"), Entrant("Ben", "1042"))
    with pytest.raises(ReadError) as err:
        read_roster(["ann"], before=roster)
    assert err.value.field == "players[0]"


def test_a_partnership_names_two_players_of_the_roster_each_once():
    roster = read_roster(["Ann", "Ben", "Cat", "Dan"])
    pairs = read_partnerships([["Ann", "ben"], ["Cat", "Dan"]], roster)
    assert [p.name for p in pairs] == ["Ann and Ben", "Cat and Dan"]
    with pytest.raises(ReadError) as err:
        read_partnerships([["Ann", "Eve"]], roster)
    assert err.value.field == "partnerships[0][1]"
    with pytest.raises(ReadError):
        read_partnerships([["Ann", "Ben"], ["Ann", "Cat"]], roster)
