"""house_rules through the scorepad command: ``scorepad sheet`` prints them under the options,
one a line, marked when the table changed them; a sheet file carrying them scores a deal; a
rule too long is exit 2 naming it."""

from __future__ import annotations

import io
import json
from pathlib import Path

from scorepad.cli.scorepad_command import main

ROOT = Path(__file__).resolve().parents[2]
FOOT_RULE = "A player picks up the foot only once every card of the hand has been played."
RULES = ["The stock is split in two; a player draws from either half.",
         "Cards pass to the left in odd deals, to the right in even ones."]


def run(*argv: object) -> tuple[int, str]:
    out = io.StringIO()
    return main([str(a) for a in argv], out=out), out.getvalue()


def sheet_file(tmp_path: Path, sheet: dict) -> Path:
    path = tmp_path / "house.json"
    path.write_text(json.dumps(sheet), encoding="utf-8")
    return path


def test_scorepad_sheet_prints_a_tables_house_rules_one_a_line_and_marks_the_change(tmp_path):
    code, out = run("sheet", sheet_file(tmp_path, {"preset": "progressive", "house_rules": [FOOT_RULE, *RULES]}))
    assert code == 0
    assert (f"\nHouse rules\n * House rules:\n     - {FOOT_RULE}\n     - {RULES[0]}\n     - {RULES[1]}\n"
            f"\nChanged against progressive version 1 (marked *):\n"
            f"  House rules: {FOOT_RULE} -> {FOOT_RULE} {RULES[0]} {RULES[1]}\n") in out


def test_scorepad_sheet_of_a_sheet_without_house_rules_says_none(tmp_path):
    code, out = run("sheet", "common")
    assert code == 0 and out.endswith("\nHouse rules\n   House rules: none\n")
    code, out = run("sheet", sheet_file(tmp_path, {"preset": "progressive", "house_rules": []}))
    assert "\n * House rules: none\n" in out and f"House rules: {FOOT_RULE} -> none" in out


def test_scorepad_sheet_json_gives_house_rules_in_full(tmp_path):
    code, out = run("sheet", sheet_file(tmp_path, {"preset": "common", "house_rules": RULES}), "--json")
    body = json.loads(out)
    assert code == 0 and body["sheet"]["house_rules"] == RULES
    assert [c["option"] for c in body["changes"]] == ["house_rules"]


def test_a_deal_scores_under_a_sheet_file_with_house_rules(tmp_path):
    path = sheet_file(tmp_path, {"preset": "common", "house_rules": RULES})
    plain = run("score", ROOT / "tests" / "data" / "deal-common.json", "--json")
    ruled = run("score", ROOT / "tests" / "data" / "deal-common.json", "--sheet", path, "--json")
    assert ruled == plain  # never scored, never checked


def test_a_house_rule_too_long_is_exit_2_naming_it(tmp_path, capsys):
    code, _out = run("sheet", sheet_file(tmp_path, {"preset": "common", "house_rules": [RULES[0], "r" * 201]}))
    assert code == 2
    said = capsys.readouterr().err
    assert "house.json: sheet.house_rules[1]: is 201 characters; a house rule has at most 200" in said
