"""What a deal carries for the referee, on the command line: ``scorepad score`` judges an
opening (exit 1 with ``opening.minimum`` below the minimum) and, without one, exits 0 listing
the opening as not checked; ``flask deal record`` refuses the deal as the API does.

Common, Ann v Bea: K K K + Q Q Q is 3 × 10 + 3 × 10 = 60, enough for deal 1 (50), short of
deal 3 (120) (VARIATIONS.md's worked example).
"""

from __future__ import annotations

import json
from typing import Any

from tests.cli.test_cli import run, write
from tests.cli.test_commands import load, new_game
from tests.cli.test_commands import write as write_text
from tests.helpers import db_state


def kings_and_queens(number: int | None, opening: bool = True) -> dict[str, Any]:
    ann: dict[str, Any] = {"name": "Ann", "foot_picked_up": True}
    if opening:
        ann["opening"] = {"melds": ["K K K", "Q Q Q"]}
    deal: dict[str, Any] = {"ending": "stock_out", "sides": [
        {"name": "Ann", "melds": ["K K K", "Q Q Q"], "players": [ann]},
        {"name": "Bea", "melds": ["J J J J"], "players": [{"name": "Bea", "foot_picked_up": True}]}]}
    if number is not None:
        deal |= {"sheet": "common", "deal": number}
    return deal


def test_score_refuses_first_melds_below_the_minimum(tmp_path):
    code, out = run("score", write(tmp_path, "d.json", kings_and_queens(3)))
    assert code == 1
    assert "opening.minimum: Ann (Ann): Ann's opening: the minimum for each player's first melds at deal 3 is 120; " \
           "these count 60" in out
    assert "[sheet: opening_minimums]" in out
    code, out = run("score", write(tmp_path, "d1.json", kings_and_queens(1)))
    assert code == 0 and "opening.minimum" not in out


def test_score_without_an_opening_exits_0_and_lists_it_not_checked(tmp_path):
    code, out = run("score", write(tmp_path, "d.json", kings_and_queens(3, opening=False)))
    assert code == 0
    assert "Not checked (the deal does not say):" in out
    assert "  opening: Ann: Ann's first melds are not given, so the opening minimum (Minimum by deal: deal 1 50, " \
           "deal 2 90, deal 3 120, deal 4 150) is not checked. [give: sides[0].opening]" in out
    assert "No violations." in out
    code, out = run("score", write(tmp_path, "d.json", kings_and_queens(3, opening=False)), "--json")
    data = json.loads(out)
    assert code == 0 and data["warnings"] == []
    assert [(u["what"], u["side"]) for u in data["not_checked"]] == [("opening", "Ann"), ("opening", "Bea")]


def test_flask_deal_record_refuses_an_opening_below_the_minimum(app, runner, tmp_path):
    game_id, _ = new_game(runner)
    for number in (1, 2):
        deal = write_text(tmp_path, f"{number}.json", kings_and_queens(None, opening=number == 1))
        assert runner.invoke(args=["deal", "record", game_id, deal]).exit_code == 0
    before = db_state(app)
    result = runner.invoke(args=["deal", "record", game_id, write_text(tmp_path, "3.json", kings_and_queens(None))])
    assert result.exit_code == 1
    assert "Not saved" in result.stdout and "(opening.minimum)" in result.stdout
    assert db_state(app) == before
    result = runner.invoke(args=["deal", "record", game_id,
                                 write_text(tmp_path, "3b.json", kings_and_queens(None, opening=False)),
                                 "--repeat"])  # as deal 2 went
    assert result.exit_code == 0, result.output
    assert "not checked: Ann's first melds are not given" in result.stdout
    assert len(load(app, game_id).deals) == 3
