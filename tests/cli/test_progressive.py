"""The progressive preset through the scorepad command: its sheet, and a four-deal game.

The game is tests/data/game-progressive.json, worked by hand in tests/rules/test_progressive.py.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

from scorepad.cli.scorepad_command import main
from scorepad.rules import PRESETS
from tests.rules.test_progressive import DEAL_TOTALS, FINAL, GAME_FILE

ROOT = Path(__file__).resolve().parents[2]


def run(*argv: object) -> tuple[int, str]:
    out = io.StringIO()
    return main([str(a) for a in argv], out=out), out.getvalue()


def test_scorepad_sheet_progressive_json_gives_the_preset_in_full():
    done = subprocess.run([sys.executable, "-m", "scorepad.cli", "sheet", "progressive", "--json"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    body = json.loads(done.stdout)
    assert body["changes"] == []
    sheet = body["sheet"]
    assert sheet == json.loads(json.dumps(PRESETS["progressive"].sheet.to_json(full=True)))
    assert (sheet["preset"], sheet["preset_version"]) == ("progressive", 1)
    assert sheet["draws_per_turn"] == [3, 4, 5, 6]
    assert sheet["opening_minimums"] == [90, 120, 150, 180]
    assert sheet["books_to_go_out"] == [{"clean": n, "dirty": n, "wild": 0} for n in (3, 4, 5, 6)]
    assert sheet["going_out_bonus"] == [300, 400, 500, 600]
    assert sheet["special_books"] == {"7": 1000}
    assert (sheet["wild_books"], sheet["wild_book_bonus"]) == (True, 1500)
    assert (sheet["min_players"], sheet["max_players"], sheet["side_sizes"]) == (2, 6, [1, 2])


def test_scorepad_sheet_progressive_prints_its_house_rule_and_what_it_chose_where_the_sheet_is_silent():
    code, out = run("sheet", "progressive")
    assert code == 0
    assert out.startswith("Progressive house sheet (individuals or partnerships of 2)\n")
    assert out.endswith("\nHouse rules\n   House rules:\n"
                        "     - A player picks up the foot only once every card of the hand has been played.\n")
    assert out.count("A player picks up the foot") == 1
    assert "Books needed to go out: deal 1 3 clean + 3 dirty, deal 2 4 clean + 4 dirty, deal 3 5 clean + 5 dirty, " \
           "deal 4 6 clean + 6 dirty" in out
    for note in PRESETS["progressive"].not_stated.values():
        assert f"[{note}]" in out


def test_a_four_deal_progressive_game_scores_through_the_scorepad_command():
    code, out = run("game", GAME_FILE)
    assert code == 0
    assert out.count("No violations.") == 4
    assert "  Going out                                  1 x   300 =     300   (going_out_bonus)" in out
    assert "  Going out                                  1 x   600 =     600   (going_out_bonus)" in out
    assert "  Clean books of 7s                          1 x  1000 =   1,000   (special_books)" in out
    # Running totals: Ann 3,815, 3,820, 4,640, 10,890; Bea 5, 6,050, 5,990, 5,970.
    assert "     4           10,890           5,970" in out
    assert out.rstrip().endswith("Game over: Ann wins with 10,890.")


def test_the_progressive_game_as_json_gives_each_deals_totals_and_the_winner():
    code, out = run("game", GAME_FILE, "--json")
    assert code == 0
    data = json.loads(out)
    assert [{s["name"]: s["total"] for s in deal["sides"]} for deal in data["deals"]] == DEAL_TOTALS
    assert data["deals"][-1]["running_totals"] == FINAL
    assert (data["over"], data["winner"], data["next_deal"]) == (True, "Ann", None)


def test_after_two_deals_the_command_names_deal_3s_rising_requirements(tmp_path):
    data = json.loads(GAME_FILE.read_text(encoding="utf-8"))
    data["deals"] = data["deals"][:2]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out = run("game", path)
    assert code == 0
    # Before deal 3: Ann 3,815 + 5 = 3,820, Bea 5 + 6,045 = 6,050.
    assert out.rstrip().endswith("The game goes on. Deal 3 is next: opening minimum Ann 150, Bea 150 (totals before "
                                 "it: Ann 3,820, Bea 6,050); to go out 5 clean + 5 dirty books; going out +500.")
