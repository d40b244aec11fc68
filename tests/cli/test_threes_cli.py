"""``flask deal record`` under issue 23's options: a deal that names the first to meld is
recorded with it and scored with the bonus; a red three laid where red threes are held is
refused, and saved only as played."""

from __future__ import annotations

import json

from tests.cli.test_commands import load, new_game, write

SHEET = {"preset": "common", "first_meld_bonus": 100, "red_three_mode": "held", "red_three_penalty_hand": 500}


def deal(**extra) -> dict:
    return {"ending": "stock_out", **extra, "sides": [
        {"name": "Ann", "melds": ["K K K"], "players": [{"name": "Ann", "foot_picked_up": True, "cards_left": "3R"}]},
        {"name": "Bea", "melds": ["Q Q Q"], "players": [{"name": "Bea", "foot_picked_up": True, "cards_left": ""}]}]}


def test_flask_deal_record_reads_the_first_to_meld_and_scores_the_bonus(app, runner, tmp_path):
    sheet = write(tmp_path, "sheet.json", SHEET)
    game_id, _ = new_game(runner, "--side", "Ann", "--side", "Bea", sheet=sheet)
    result = runner.invoke(args=["deal", "record", game_id, write(tmp_path, "deal.json", deal(first_meld="Bea"))])
    assert result.exit_code == 0, result.output
    game = load(app, game_id)
    assert game.deals[0].deal.first_meld == "Bea"
    shown = json.loads(runner.invoke(args=["game", "show", game_id, "--json"]).stdout)
    assert shown["deals"][0]["deal"]["first_meld"] == "Bea"
    # Ann: 3 kings 30, her red three held -500; Bea: 3 queens 30, first to meld 100
    assert {s["name"]: s["total"] for s in shown["standings"]} == {"Ann": 30 - 500, "Bea": 30 + 100}


def test_flask_deal_record_refuses_a_red_three_laid_where_they_are_held(app, runner, tmp_path):
    sheet = write(tmp_path, "sheet.json", SHEET)
    game_id, _ = new_game(runner, "--side", "Ann", "--side", "Bea", sheet=sheet)
    laid = deal()
    laid["sides"][1]["red_threes"] = 1
    path = write(tmp_path, "laid.json", laid)
    refused = runner.invoke(args=["deal", "record", game_id, path])
    assert refused.exit_code != 0 and "never laid" in refused.output
    assert runner.invoke(args=["deal", "record", game_id, path, "--as-played", "we laid it"]).exit_code == 0
