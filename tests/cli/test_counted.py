"""``scorepad score``, ``game`` and ``rescore`` on counted deals, the same core with the same exit
codes, and ``flask deal record`` saving one."""

from __future__ import annotations

import copy
import json

from tests.cli.test_cli import run, write
from tests.cli.test_commands import new_game
from tests.rules.test_counted import BENCH


def test_score_prints_the_counted_lines_and_exits_0(tmp_path):
    code, out = run("score", write(tmp_path, "bench.json", BENCH))
    assert code == 0
    assert "Us: 2,970" in out and "Them: 1,150" in out
    assert "Melded card points                         1 x   415 =     415   (card_values)" in out
    assert "Cal's hand: points                         1 x   -45 =     -45   (card_values)" in out
    assert out.count("counted.unchecked") == 2


def test_score_as_json_lists_the_counted_lines(tmp_path):
    code, out = run("score", write(tmp_path, "bench.json", BENCH), "--json")
    body = json.loads(out)
    assert code == 0 and [(side["name"], side["total"]) for side in body["sides"]] == [("Us", 2970), ("Them", 1150)]
    assert body["sides"][1]["lines"][-1]["code"] == "cards_left.points"


def test_too_few_melded_points_exit_1_and_unreadable_counts_exit_2(tmp_path, capsys):
    low = copy.deepcopy(BENCH)
    low["sides"][1]["meld_points"] = 80  # a clean book 7 × 5 = 35 and a dirty one 6 × 5 + 20 = 50: 85
    code, out = run("score", write(tmp_path, "low.json", low))
    assert code == 1 and "counted.meld_points" in out
    both = copy.deepcopy(BENCH)
    both["sides"][0]["melds"] = []
    code, _ = run("score", write(tmp_path, "both.json", both))
    assert code == 2 and "sides[0].books: give melds or books, not both" in capsys.readouterr().err


def test_a_counted_game_scores_and_rescores(tmp_path):
    game = {"sheet": "common", "sides": ["Us", "Them"],
            "deals": [{key: value for key, value in BENCH.items() if key != "sheet"}]}
    code, out = run("game", write(tmp_path, "game.json", game), "--json")
    standings = json.loads(out)["standings"]
    assert code == 0 and standings == [{"name": "Us", "total": 2970}, {"name": "Them", "total": 1150}]
    code, out = run("rescore", write(tmp_path, "bench.json", BENCH), "--sheet", "pagat")
    assert "went_out.books" in out


def test_flask_deal_record_takes_a_counted_deal(runner, tmp_path):
    game_id, _ = new_game(runner, "--side", "Us=Ann,Cal", "--side", "Them=Bea,Dan")
    deal = write(tmp_path, "deal.json", {key: value for key, value in BENCH.items() if key != "sheet"})
    result = runner.invoke(args=["deal", "record", game_id, str(deal)])
    assert result.exit_code == 0, result.output
    assert "Deal 1 recorded." in result.stdout and "Totals: Us 2,970, Them 1,150;" in result.stdout
