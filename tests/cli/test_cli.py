"""The scorepad command: score a deal, a game, or show a rule sheet.

Exit status: 0 when everything is valid, 1 when the referee found violations, 2 when the
input cannot be read (a message naming the file and the field, never a traceback).
Most tests call :func:`scorepad.cli.scorepad_command` in process; a few run the real entry point.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from scorepad.cli.scorepad_command import main
from scorepad.rules import PRESETS

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).parent.parent / "data"
EXAMPLE_DEAL = ROOT / "examples" / "deal.json"   # Pagat, deal 2: North-South short of books
VALID_DEAL = DATA / "deal-common.json"            # common, deal 1: Ann 1,060, Bea 5
FOUR_DEALS = DATA / "game-four-deals.json"        # common: Bea 1,825 beats Ann 1,590
TIE_GAME = DATA / "game-tie.json"                 # common: Ann and Bea tie at 650


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main([str(a) for a in argv], out=out)
    return code, out.getvalue()


def write(tmp_path: Path, name: str, data) -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


# -- score -------------------------------------------------------------------------------------


def test_score_a_valid_deal_exits_0_and_prints_each_sides_lines():
    code, out = run("score", VALID_DEAL)
    assert code == 0
    assert "Deal 1, common: Ann went out" in out
    assert "Ann: 1,060" in out and "Bea: 5" in out
    assert "Clean books" in out and "(clean_book_bonus)" in out
    assert "No violations." in out


def test_score_a_deal_with_violations_exits_1_and_cites_the_sheet():
    code, out = run("score", EXAMPLE_DEAL)
    assert code == 1
    assert "Violations:" in out
    assert "went_out.books" in out
    assert "[sheet: books_to_go_out]" in out
    assert "No violations." not in out


def test_score_header_follows_how_the_deal_ended_not_a_stray_went_out(tmp_path):
    data = load(VALID_DEAL)
    data["ending"] = "stock_out"  # went_out is still "Ann": a recording slip
    code, out = run("score", write(tmp_path, "deal.json", data))
    assert code == 1
    assert out.startswith("Deal 1, common: the stock ran out")
    assert "went_out.player" in out
    assert "Going out" not in out


def test_score_a_missing_file_exits_2_naming_it(tmp_path, capsys):
    missing = tmp_path / "nowhere.json"
    code, out = run("score", missing)
    err = capsys.readouterr().err
    assert code == 2
    assert out == ""
    assert str(missing) in err
    assert err.startswith("scorepad: cannot read")


def test_score_invalid_json_exits_2_saying_where(tmp_path, capsys):
    path = write(tmp_path, "broken.json", '{"sheet": "pagat",\n "deal": }')
    code, _ = run("score", path)
    err = capsys.readouterr().err
    assert code == 2
    assert "is not valid JSON" in err
    assert "line 2" in err


@pytest.mark.parametrize("change, field", [
    (lambda d: d["sides"][0]["melds"].__setitem__(0, {"rank": "K", "naturals": "seven"}), "sides[0].melds[0].naturals"),
    (lambda d: d["sides"][1]["players"][0].pop("foot_picked_up"), "sides[1].players[0].foot_picked_up"),
    (lambda d: d.__setitem__("ending", "gave_up"), "ending"),
    (lambda d: d.__setitem__("sheet", "house"), "sheet"),
    (lambda d: d.__setitem__("sheet", {"preset": "common", "book_size": 2}), "sheet.book_size"),
    (lambda d: d["sides"][0]["players"][0].__setitem__("cards_left", "K Z"), "sides[0].players[0].cards_left"),
])
def test_score_a_readable_json_but_unreadable_deal_exits_2_naming_the_field(tmp_path, capsys, change, field):
    data = load(VALID_DEAL)
    change(data)
    code, out = run("score", write(tmp_path, "deal.json", data))
    err = capsys.readouterr().err
    assert code == 2
    assert out == ""
    assert f"deal.json: {field}:" in err
    assert "Traceback" not in err


def test_score_reads_the_deal_from_standard_input(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(VALID_DEAL.read_text(encoding="utf-8")))
    code, out = run("score", "-")
    assert code == 0
    assert "Ann: 1,060" in out


def test_score_unreadable_standard_input_is_named_as_such(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("[]"))
    code, _ = run("score", "-")
    assert code == 2
    assert "standard input: a deal must be a JSON object" in capsys.readouterr().err


def test_score_sheet_option_scores_under_another_preset():
    # Under the common sheet there are no wild books, and 1 clean + 1 dirty is enough to go out.
    code, out = run("score", EXAMPLE_DEAL, "--sheet", "common", "--json")
    data = json.loads(out)
    assert code == 1
    codes = [v["code"] for v in data["violations"]]
    assert "meld.rank" in codes
    assert "went_out.books" not in codes
    text_code, text = run("score", EXAMPLE_DEAL, "--sheet", "common")
    assert text_code == 1
    assert text.startswith("Deal 2, common: Ann went out")


def test_score_sheet_option_reads_a_sheet_file(tmp_path):
    sheet = write(tmp_path, "house.json", {"preset": "pagat", "books_to_go_out": {"clean": 1, "dirty": 1}})
    code, out = run("score", EXAMPLE_DEAL, "--sheet", sheet)
    assert code == 0
    assert out.startswith("Deal 2, pagat (changed): Ann went out")


def test_score_sheet_option_replaces_the_deals_own_sheet_even_an_unreadable_one(tmp_path):
    data = load(VALID_DEAL)
    data["sheet"] = "house"
    code, _ = run("score", write(tmp_path, "deal.json", data), "--sheet", "common")
    assert code == 0


def test_score_sheet_option_that_is_neither_preset_nor_file_exits_2(capsys):
    code, _ = run("score", VALID_DEAL, "--sheet", "house")
    err = capsys.readouterr().err
    assert code == 2
    assert "'house' is neither a preset" in err


def test_score_sheet_file_with_an_impossible_option_exits_2_naming_it(tmp_path, capsys):
    sheet = write(tmp_path, "house.json", {"preset": "pagat", "hand_size": 0})
    code, _ = run("score", VALID_DEAL, "--sheet", sheet)
    assert code == 2
    assert "house.json: sheet.hand_size: must be from 1 to 30, not 0" in capsys.readouterr().err


def test_score_json_shape():
    code, out = run("score", EXAMPLE_DEAL, "--json")
    data = json.loads(out)
    assert code == 1
    assert set(data) == {"ok", "violations", "warnings", "not_checked", "sides"}
    assert data["ok"] is False
    assert data["warnings"] == []
    (violation,) = data["violations"]
    assert {"code", "message"} <= set(violation)
    assert violation["code"] == "went_out.books"
    assert violation["option"] == "books_to_go_out"
    assert [set(side) for side in data["sides"]] == [{"name", "total", "lines"}] * 2
    assert [(s["name"], s["total"]) for s in data["sides"]] == [("North-South", 2955), ("East-West", 425)]
    line = data["sides"][0]["lines"][0]
    assert {"code", "label", "count", "each", "points", "option"} <= set(line)


def test_score_json_of_a_valid_deal_is_ok_with_no_violations():
    code, out = run("score", VALID_DEAL, "--json")
    data = json.loads(out)
    assert code == 0
    assert data["ok"] is True and data["violations"] == []
    assert {s["name"]: s["total"] for s in data["sides"]} == {"Ann": 1060, "Bea": 5}


# -- game --------------------------------------------------------------------------------------


def test_game_prints_each_deal_the_running_totals_and_the_winner():
    code, out = run("game", FOUR_DEALS)
    assert code == 0
    assert out.count("No violations.") == 4
    assert "Running totals" in out
    rows = [line.split() for line in out.splitlines() if line.strip()[:1].isdigit() and len(line.split()) == 3]
    assert rows == [["1", "1,060", "5"], ["2", "1,080", "735"], ["3", "1,025", "1,795"], ["4", "1,590", "1,825"]]
    assert out.rstrip().endswith("Game over: Bea wins with 1,825.")


def test_game_that_ends_level_at_the_top_prints_a_tie():
    code, out = run("game", TIE_GAME)
    assert code == 0
    assert out.rstrip().endswith("Game over: a tie at 650.")


def test_game_not_yet_over_names_the_next_deal(tmp_path):
    data = load(FOUR_DEALS)
    data["deals"] = data["deals"][:2]
    code, out = run("game", write(tmp_path, "game.json", data))
    assert code == 0
    # Before deal 3: Ann 1,060 + 20 = 1,080, Bea 5 + 730 = 735; deal 3's minimum is 120.
    assert out.rstrip().endswith("The game goes on. Deal 3 is next: opening minimum Ann 120, Bea 120 (totals before "
                                 "it: Ann 1,080, Bea 735); to go out 1 clean + 1 dirty books; going out +100.")


def test_game_json_shape():
    code, out = run("game", FOUR_DEALS, "--json")
    data = json.loads(out)
    assert code == 0
    assert set(data) == {"ok", "deals", "standings", "winner", "over", "tie", "problems", "next_deal"}
    assert data["ok"] is True
    assert data["standings"] == [{"name": "Bea", "total": 1825}, {"name": "Ann", "total": 1590}]
    assert (data["winner"], data["over"], data["tie"], data["problems"]) == ("Bea", True, False, [])
    assert [d["deal"] for d in data["deals"]] == [1, 2, 3, 4]
    for deal in data["deals"]:
        assert {"ok", "violations", "warnings", "sides", "running_totals"} <= set(deal)
    assert data["deals"][2]["running_totals"] == {"Ann": 1025, "Bea": 1795}


def test_game_json_of_a_tie_has_no_winner():
    data = json.loads(run("game", TIE_GAME, "--json")[1])
    assert (data["winner"], data["tie"], data["over"]) == (None, True, True)


def test_game_with_a_deal_after_the_target_exits_1_and_reports_game_over(tmp_path):
    data = load(FOUR_DEALS)
    data["sheet"] = {"preset": "common", "game_length": "target", "target_score": 1500}
    path = write(tmp_path, "game.json", data)
    code, out = run("game", path, "--json")
    result = json.loads(out)
    assert code == 1
    assert result["ok"] is False
    assert [p["code"] for p in result["problems"]] == ["game.over"]
    assert result["winner"] == "Bea"
    assert all(d["ok"] for d in result["deals"])
    code, text = run("game", path)
    assert code == 1
    assert "Game problems:" in text and "game.over" in text


def test_game_with_a_deal_breaking_the_rules_exits_1(tmp_path):
    data = load(FOUR_DEALS)
    data["deals"][1]["sides"][0]["melds"].append("Q Q 2 2")
    code, out = run("game", write(tmp_path, "game.json", data), "--json")
    result = json.loads(out)
    assert code == 1
    assert result["ok"] is False and result["problems"] == []
    assert [d["ok"] for d in result["deals"]] == [True, False, True, True]


def test_game_unreadable_exits_2_naming_the_deal_and_field(tmp_path, capsys):
    data = load(FOUR_DEALS)
    data["deals"][1]["sheet"] = "pagat"
    code, _ = run("game", write(tmp_path, "game.json", data))
    err = capsys.readouterr().err
    assert code == 2
    assert "game.json: deals[1].sheet:" in err


def test_game_missing_file_exits_2(tmp_path, capsys):
    code, _ = run("game", tmp_path / "nowhere.json")
    assert code == 2
    assert "cannot read" in capsys.readouterr().err


# -- sheet -------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset_id", sorted(PRESETS))
def test_sheet_shows_a_preset_unchanged_with_its_source(preset_id):
    code, out = run("sheet", preset_id)
    assert code == 0
    first = out.splitlines()[0]
    assert first == PRESETS[preset_id].title
    assert f"Preset: {preset_id}, version {PRESETS[preset_id].version}; source: {PRESETS[preset_id].source}" in out
    assert "sources/" not in out
    assert not any(line.startswith(" * ") for line in out.splitlines())
    assert "Changed against" not in out


def test_sheet_shows_what_the_preset_leaves_unsaid():
    out = run("sheet", "pagat")[1]
    assert "Cut bonus: none  [not stated: no cut bonus]" in out


def test_sheet_file_marks_what_it_changes_against_its_preset(tmp_path):
    path = write(tmp_path, "house.json", {"preset": "pagat", "hand_size": 11, "foot_size": 11})
    code, out = run("sheet", path)
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == "Pagat, four-player partnerships (changed)"
    assert " * Cards in the hand: 11" in lines
    assert " * Cards in the foot: 11" in lines
    assert "   Cards in the hand: 11" not in lines
    assert sum(line.startswith(" * ") for line in lines) == 2
    assert "Changed against pagat version 2 (marked *):" in lines
    assert "  Cards in the hand: 13 -> 11" in lines


def test_sheet_json_gives_every_option_and_the_changes(tmp_path):
    path = write(tmp_path, "house.json", {"preset": "pagat", "hand_size": 11})
    code, out = run("sheet", path, "--json")
    data = json.loads(out)
    assert code == 0
    assert set(data) == {"sheet", "changes"}
    assert data["sheet"]["preset"] == "pagat"
    assert data["sheet"]["hand_size"] == 11 and data["sheet"]["foot_size"] == 13
    assert "wild_ratio" in data["sheet"] and "target_score" in data["sheet"]
    assert data["changes"] == [{"option": "hand_size", "label": "Cards in the hand",
                                "preset_value": "13", "value": "11"}]


def test_sheet_json_of_a_preset_has_no_changes_and_reads_back_as_the_same_sheet(tmp_path):
    data = json.loads(run("sheet", "gather-together", "--json")[1])
    assert data["changes"] == []
    full = dict(data["sheet"])
    full.pop("preset"), full.pop("preset_version")
    code, out = run("sheet", write(tmp_path, "full.json", full), "--json")
    assert code == 0
    again = json.loads(out)["sheet"]
    assert {k: v for k, v in again.items() if k != "preset"} == full


def test_sheet_refuses_an_unknown_preset_with_exit_2(capsys):
    code, out = run("sheet", "house")
    err = capsys.readouterr().err
    assert code == 2
    assert out == ""
    assert f"'house' is neither a preset ({', '.join(sorted(PRESETS))}) nor a sheet file" in err
    assert "bicycle, common, " in err


def test_sheet_file_naming_an_unknown_preset_exits_2(tmp_path, capsys):
    code, _ = run("sheet", write(tmp_path, "house.json", {"preset": "house"}))
    assert code == 2
    assert "house.json: sheet.preset: 'house' is not a preset" in capsys.readouterr().err


def test_a_command_is_required():
    with pytest.raises(SystemExit) as exit_:
        main([], out=io.StringIO())
    assert exit_.value.code == 2


# -- the real console entry point -------------------------------------------------------------


def console(*argv: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scorepad.cli", *map(str, argv)], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=60)


def test_console_exit_status_is_0_for_a_valid_deal_and_1_for_violations():
    valid = console("score", VALID_DEAL)
    assert valid.returncode == 0, valid.stderr
    assert "Ann: 1,060" in valid.stdout
    broken = console("score", EXAMPLE_DEAL, "--json")
    assert broken.returncode == 1
    assert json.loads(broken.stdout)["violations"][0]["code"] == "went_out.books"


def test_console_reads_standard_input_and_reports_unreadable_input_without_a_traceback():
    good = console("game", "-", "--json", stdin=FOUR_DEALS.read_text(encoding="utf-8"))
    assert good.returncode == 0, good.stderr
    assert json.loads(good.stdout)["winner"] == "Bea"
    data = load(VALID_DEAL)
    data["sides"][0]["melds"][0] = {"rank": "K", "naturals": -1.5}
    bad = console("score", "-", stdin=json.dumps(data))
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert bad.stderr.strip() == ("scorepad: standard input: sides[0].melds[0].naturals: "
                                  "must be a whole number, not -1.5")
    not_json = console("score", "-", stdin="{")
    assert not_json.returncode == 2
    assert "Traceback" not in not_json.stderr and "not valid JSON" in not_json.stderr


def test_console_missing_file_and_unknown_preset_exit_2_without_a_traceback(tmp_path):
    for argv in (("score", tmp_path / "nowhere.json"), ("sheet", "house")):
        done = console(*argv)
        assert done.returncode == 2
        assert done.stderr.startswith("scorepad: ")
        assert "Traceback" not in done.stderr
