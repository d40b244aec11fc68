"""``flask deal part``, ``deal open``, ``deal confirm``, ``deal abandon`` (issue 24): a deal
entered part by part on the server, through the same store as the API; ``game new --confirm
opponents`` makes a game whose sides' parts wait for another side's confirmation.

``valid_deal`` scores Ann 1,060 and Bea 5.
"""

from __future__ import annotations

import pytest

from tests.cli.test_commands import load, new_game, write
from tests.helpers import valid_deal

pytestmark = pytest.mark.backends  # each test on a database of its own: on SQLite and on PostgreSQL

ANN, BEA = valid_deal()["sides"]
ANN_OUT = {"ending": "went_out", "went_out": "Ann"}


def part(runner, tmp_path, game_id: str, which: int | str, data, *options: str):
    where = ["--ending"] if which == "ending" else ["--side", str(which)]
    return runner.invoke(args=["deal", "part", game_id, *where, write(tmp_path, f"part-{which}.json", data),
                               *options])


def test_parts_saved_one_by_one_write_the_deal_with_the_last(app, runner, tmp_path):
    game_id, _ = new_game(runner)
    first = part(runner, tmp_path, game_id, 1, ANN, "--phone", "Dan's phone")
    assert first.exit_code == 0, first.output
    assert "side 1 (Ann): version 1, entered by Dan's phone" in first.output
    assert "missing: side 2 (Bea), the ending" in first.output
    assert part(runner, tmp_path, game_id, "ending", ANN_OUT).exit_code == 0
    shown = runner.invoke(args=["deal", "open", game_id])
    assert "ending: version 1, entered by the server" in shown.output
    assert load(app, game_id).deals == []
    last = part(runner, tmp_path, game_id, 2, BEA, "--phone", "Eve's phone")
    assert last.exit_code == 0, last.output
    assert "Deal 1 recorded from its parts." in last.output and "Ann 1,060, Bea 5" in last.output
    assert [d.number for d in load(app, game_id).deals] == [1]


def test_another_phones_part_is_refused_with_exit_4_unless_replaces_names_its_version(app, runner, tmp_path):
    game_id, _ = new_game(runner)
    part(runner, tmp_path, game_id, 1, ANN, "--phone", "Dan's phone")
    refused = part(runner, tmp_path, game_id, 1, {**ANN, "red_threes": 1}, "--phone", "Eve's phone")
    assert refused.exit_code == 4 and "was entered by Dan's phone (version 1)" in refused.output
    replaced = part(runner, tmp_path, game_id, 1, {**ANN, "red_threes": 1}, "--phone", "Eve's phone",
                    "--replaces", "1")
    assert replaced.exit_code == 0 and "version 2, entered by Eve's phone" in replaced.output


def test_a_complete_deal_with_problems_is_not_written_and_shows_them(app, runner, tmp_path):
    game_id, _ = new_game(runner)
    part(runner, tmp_path, game_id, 1, {"melds": ["J J J"], "players": [{"name": "Ann", "foot_picked_up": True}]})
    part(runner, tmp_path, game_id, 2, BEA)
    shown = part(runner, tmp_path, game_id, "ending", ANN_OUT)
    assert shown.exit_code == 0 and "Not written: every part is in" in shown.output and "  - Ann: " in shown.output
    assert load(app, game_id).deals == []
    abandoned = runner.invoke(args=["deal", "abandon", game_id])
    assert abandoned.exit_code == 0 and "3 parts removed" in abandoned.output


def test_with_confirm_opponents_a_part_is_written_once_another_sides_phone_confirms_it(app, runner, tmp_path):
    made = runner.invoke(args=["game", "new", "--name", "Porch", "--sheet", "common", "--side", "Ann", "--side",
                               "Bea", "--confirm", "opponents"])
    assert made.exit_code == 0, made.output
    game_id = dict(line.split(": ", 1) for line in made.stdout.splitlines())["id"]
    part(runner, tmp_path, game_id, 1, ANN, "--phone", "Dan's phone")
    part(runner, tmp_path, game_id, 2, BEA, "--phone", "Eve's phone")
    waiting = part(runner, tmp_path, game_id, "ending", ANN_OUT, "--phone", "Dan's phone")
    assert "waiting for confirmation: side 1 (Ann), side 2 (Bea)" in waiting.output
    own = runner.invoke(args=["deal", "confirm", game_id, "--side", "1", "--by-side", "1", "--phone", "Fay"])
    assert own.exit_code == 2 and "side:" in own.output
    assert runner.invoke(args=["deal", "confirm", game_id, "--side", "1", "--by-side", "2", "--phone",
                               "Eve's phone"]).exit_code == 0
    done = runner.invoke(args=["deal", "confirm", game_id, "--side", "2", "--by-side", "1", "--phone",
                               "Dan's phone"])
    assert done.exit_code == 0 and "Deal 1 recorded from its parts." in done.output


def test_a_whole_deal_for_an_open_deal_exits_4_and_bad_parts_exit_2_naming_the_field(app, runner, tmp_path):
    game_id, _ = new_game(runner)
    part(runner, tmp_path, game_id, 1, ANN)
    whole = runner.invoke(args=["deal", "record", game_id, write(tmp_path, "d1.json", valid_deal(1))])
    assert whole.exit_code == 4 and "being entered part by part" in whole.output
    assert "side:" in part(runner, tmp_path, game_id, 3, ANN).output
    neither = runner.invoke(args=["deal", "part", game_id, write(tmp_path, "x.json", ANN)])
    assert neither.exit_code == 2 and "--side N or --ending" in neither.output
