"""The game view: one walk of a game, with the arithmetic written out.

Every deal here ends when the stock runs out, each side melding one meld and holding
nothing, so a side's points are its meld's cards: on the common sheet a king, queen, jack,
nine or eight is 10, an ace or a 2 is 20 (no book, no going-out bonus, nothing left).
"""

from __future__ import annotations

from typing import Any

import pytest

from scorepad.rules.game import Game, Standing
from scorepad.rules.views import GameView, view_of


def deal(number: int, ann: str, bea: str) -> dict[str, Any]:
    return {"deal": number, "ending": "stock_out", "sides": [
        {"name": name, "melds": [meld], "players": [{"name": name, "foot_picked_up": True, "cards_left": ""}]}
        for name, meld in (("Ann", ann), ("Bea", bea))]}


def game(*deals: dict[str, Any], sheet: Any = "common") -> Game:
    return Game.from_json({"sheet": sheet, "sides": ["Ann", "Bea"], "deals": list(deals)})


def rows(view: GameView) -> list[tuple[int, dict[str, int], dict[str, int]]]:
    return [(row.number, row.points, row.running) for row in view.rows]


def test_a_deleted_middle_deal_leaves_a_gap_that_is_the_next_deal():
    # Deal 1: Ann K K K K = 40, Bea Q Q Q = 30. Deal 2 was deleted. Deal 3: Ann 9 9 9 = 30,
    # Bea 8 8 8 8 8 = 50. Running: after 1 Ann 40, Bea 30; after 3 Ann 40+30 = 70, Bea 30+50 = 80.
    view = view_of(game(deal(1, "K K K K", "Q Q Q"), deal(3, "9 9 9", "8 8 8 8 8")))
    assert rows(view) == [(1, {"Ann": 40, "Bea": 30}, {"Ann": 40, "Bea": 30}),
                          (3, {"Ann": 30, "Bea": 50}, {"Ann": 70, "Bea": 80})]
    assert view.numbers == (1, 3)
    assert view.totals == {"Ann": 70, "Bea": 80}
    # The next deal is 2, the lowest not recorded: the common sheet's minimum for deal 2 is 90
    # (deal 4's would be 150), and the totals before it are deal 1's alone.
    assert view.next_deal.number == 2
    assert view.next_deal.opening_minimums == {"Ann": 90, "Bea": 90}
    assert view.next_deal.totals_before == {"Ann": 40, "Bea": 30}
    assert view.fills_gap
    assert view.state == "deal 2 of 4"
    # Not over after 2 of 4 deals: standings highest first, nobody has won.
    assert view.result.standings == (Standing("Bea", 80), Standing("Ann", 70))
    assert (view.result.over, view.result.winner, view.result.tie) == (False, None, False)
    assert view.lead == 80 - 70  # Bea ahead by 10
    assert [p.message for p in view.problems] == ["Deal 2 is not recorded, and deal 3 is."]
    assert not view.ok


def test_the_next_deal_after_the_last_one_fills_no_gap():
    view = view_of(game(deal(1, "K K K K", "Q Q Q")))
    assert view.next_deal.number == 2 and not view.fills_gap
    assert view.problems == () and view.ok


def test_an_as_played_deal_keeps_its_reason_its_problems_and_its_score():
    # Deal 2: Bea's 8 8 2 2 has as many wild cards as naturals, which the common sheet
    # forbids; the table let it stand. It still scores: Ann 9 9 9 = 30, Bea 10+10+20+20 = 60.
    view = view_of(game(deal(1, "K K K K", "Q Q Q"), deal(2, "9 9 9", "8 8 2 2")),
                   as_played=[None, "we let it stand"])
    first, second = view.rows
    assert (first.as_played, first.ok, first.breaks_sheet) == (None, True, False)
    assert (second.as_played, second.ok, second.breaks_sheet) == ("we let it stand", False, False)
    assert [p.code for p in second.verdict.report.violations] == ["meld.wild_ratio"]
    assert second.points == {"Ann": 30, "Bea": 60}
    assert second.running == {"Ann": 40 + 30, "Bea": 30 + 60}
    assert view.as_played == (second,)
    assert view.problems == () and not view.ok  # a deal breaks the sheet: the game is not clean


def test_a_deal_that_breaks_the_sheet_without_a_reason_is_marked_so():
    view = view_of(game(deal(1, "9 9 9", "8 8 2 2")))
    assert view.rows[0].breaks_sheet and view.as_played == ()


def test_a_finished_game_has_a_winner():
    # Four deals of the common sheet. Ann: 40 + 60 + 30 + 30 = 160; Bea: 30 + 30 + 50 + 30 = 140.
    view = view_of(game(deal(1, "K K K K", "Q Q Q"), deal(2, "A A A", "J J J"),
                        deal(3, "9 9 9", "8 8 8 8 8"), deal(4, "K K K", "Q Q Q")))
    assert view.totals == {"Ann": 160, "Bea": 140}
    assert view.result.standings == (Standing("Ann", 160), Standing("Bea", 140))
    assert (view.result.over, view.result.winner, view.result.tie) == (True, "Ann", False)
    assert view.next_deal is None and not view.fills_gap
    assert view.state == "Ann wins" and view.top == 160 and view.tied == ()
    assert view.lead == 160 - 140


def test_a_finished_game_can_end_in_a_tie():
    # Ann: 40 + 60 + 30 + 30 = 160; Bea: 30 + 30 + 50 + 50 = 160.
    view = view_of(game(deal(1, "K K K K", "Q Q Q"), deal(2, "A A A", "J J J"),
                        deal(3, "9 9 9", "8 8 8 8 8"), deal(4, "K K K", "Q Q Q Q Q")))
    assert view.totals == {"Ann": 160, "Bea": 160}
    assert (view.result.over, view.result.winner, view.result.tie) == (True, None, True)
    assert view.tied == ("Ann", "Bea") and view.top == 160 and view.lead == 0
    assert view.state == "tie at 160"


TARGET = {"preset": "common", "game_length": "target", "target_score": 100}


def test_a_game_played_to_a_target_goes_on_until_a_side_reaches_it():
    # Ann 40, Bea 30: nobody has 100.
    view = view_of(game(deal(1, "K K K K", "Q Q Q"), sheet=TARGET))
    assert not view.result.over and view.next_deal.number == 2
    assert view.state == "deal 2, playing to 100"


def test_a_game_played_to_a_target_ends_with_the_deal_that_reaches_it():
    # After deal 2: Ann 40 + 60 = 100 reaches the target, Bea 30 + 30 = 60. Deal 3 was played
    # anyway (Ann 30, Bea 50): the score table's totals count it (Ann 130, Bea 110), the
    # result does not, and the game says deal 3 came after the end.
    view = view_of(game(deal(1, "K K K K", "Q Q Q"), deal(2, "A A A", "J J J"), deal(3, "9 9 9", "8 8 8 8 8"),
                        sheet=TARGET))
    assert [row.running for row in view.rows] == [{"Ann": 40, "Bea": 30}, {"Ann": 100, "Bea": 60},
                                                  {"Ann": 130, "Bea": 110}]
    assert view.totals == {"Ann": 130, "Bea": 110}
    assert view.result.standings == (Standing("Ann", 100), Standing("Bea", 60))
    assert (view.result.over, view.result.winner) == (True, "Ann")
    assert view.next_deal is None and view.state == "Ann wins"
    assert [p.code for p in view.problems] == ["game.over"]


def test_a_view_is_the_rules_game_read_once():
    played = game(deal(1, "K K K K", "Q Q Q"), deal(3, "9 9 9", "8 8 8 8 8"))
    view = view_of(played, as_played=["first", None])
    assert list(view.running_totals) == played.running_totals()
    assert view.result == played.result() and view.next_deal == played.upcoming()
    assert [row.verdict for row in view.rows] == list(played.verdicts)
    assert view.to_json()["rows"][0] == {"number": 1, "points": {"Ann": 40, "Bea": 30},
                                         "running": {"Ann": 40, "Bea": 30}, "as_played": "first", "ok": True}
    assert view == view_of(played, as_played=["first"])  # reasons missing at the end: none


def test_a_view_of_a_game_without_deals_starts_at_deal_1():
    view = view_of(game())
    assert view.rows == () and view.totals == {"Ann": 0, "Bea": 0} and view.next_deal.number == 1
    assert view.next_deal.opening_minimums == {"Ann": 50, "Bea": 50}


def test_more_reasons_than_deals_is_a_mistake_of_the_caller():
    with pytest.raises(ValueError):
        view_of(game(), as_played=["why"])
