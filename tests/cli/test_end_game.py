"""``flask game end`` and ``flask game reopen`` (``game_length: open``, issue 23 item 1.9): the
command line ends a game its table ends and reopens it, through the same store as the pages
and the API; a deal recorded into an ended game is refused saying to reopen it; a game whose
sheet ends it is never ended by hand (exit 2, the field named).

``valid_deal`` scores Ann 1,060 and Bea 5 a deal (tests/storage/test_ended_games.py works it).
"""

from __future__ import annotations

import json

import pytest

from tests.cli.test_cli import DATA, run
from tests.cli.test_cli import write as write_file
from tests.cli.test_commands import load, new_game, write
from tests.helpers import valid_deal

pytestmark = pytest.mark.backends  # each test on a database of its own: on SQLite and on PostgreSQL

OPEN = {"preset": "common", "game_length": "open"}


def open_game(runner, tmp_path, deals: int = 2) -> str:
    game_id, _ = new_game(runner, name="Rally", sheet=write(tmp_path, "open.json", OPEN))
    for number in range(1, deals + 1):
        saved = runner.invoke(args=["deal", "record", game_id, write(tmp_path, f"d{number}.json", valid_deal(number)),
                                    *(["--repeat"] if number > 1 else [])])
        assert saved.exit_code == 0, saved.output
    return game_id


def test_game_end_names_the_winner_and_game_reopen_lets_the_next_deal_in(app, runner, tmp_path):
    game_id = open_game(runner, tmp_path)
    shown = runner.invoke(args=["game", "show", game_id])
    assert "Result: game goes on; next is deal 3" in shown.output
    ended = runner.invoke(args=["game", "end", game_id, "--revision", "2"])
    assert ended.exit_code == 0, ended.output
    assert f"Ended 'Rally' ({game_id}) after 2 deals: over: Ann won." in ended.output
    assert "Totals: Ann 2,120, Bea 10; over: Ann won." in ended.output  # 2 x 1,060 and 2 x 5
    assert "Result: Ann wins" in runner.invoke(args=["game", "show", game_id]).output

    refused = runner.invoke(args=["deal", "record", game_id, write(tmp_path, "d3.json", valid_deal(3)), "--repeat"])
    assert refused.exit_code == 2 and "reopen the game first" in refused.output

    reopened = runner.invoke(args=["game", "reopen", game_id])
    assert reopened.exit_code == 0, reopened.output
    assert f"Reopened 'Rally' ({game_id}): next: deal 3, opening minimum 120." in reopened.output
    again = runner.invoke(args=["deal", "record", game_id, write(tmp_path, "d3.json", valid_deal(3)), "--repeat"])
    assert again.exit_code == 0, again.output
    assert load(app, game_id).revision == 5  # two deals, the end, the reopening, deal 3


def test_game_end_on_a_stale_revision_ends_nothing(app, runner, tmp_path):
    game_id = open_game(runner, tmp_path)
    refused = runner.invoke(args=["game", "end", game_id, "--revision", "1"])
    assert refused.exit_code == 2 and "revision" in refused.output
    assert load(app, game_id).ended_at is None


def test_a_game_of_four_deals_is_not_ended_by_hand(app, runner, tmp_path):
    game_id, _ = new_game(runner)
    runner.invoke(args=["deal", "record", game_id, write(tmp_path, "d1.json", valid_deal(1))])
    for command in ("end", "reopen"):
        refused = runner.invoke(args=["game", command, game_id])
        assert refused.exit_code == 2 and "game_length:" in refused.output and "'open'" in refused.output
    assert load(app, game_id).revision == 1


# -- `scorepad game FILE`: a game file says "ended" ---------------------------------------------------


def test_scorepad_game_of_an_open_file_names_the_leader_until_the_file_says_ended(tmp_path):
    data = json.loads((DATA / "game-four-deals.json").read_text(encoding="utf-8"))
    data["sheet"] = OPEN
    code, out = run("game", write_file(tmp_path, "rally.json", data))
    # Bea 1,825 to Ann 1,590 after four deals: she leads; deal 5 keeps deal 4's minimum, 150.
    assert code == 0 and "The game goes on. Bea leads; the table ends the game" in out
    assert "Deal 5 is next: opening minimum Ann 150, Bea 150" in out
    code, out = run("game", write_file(tmp_path, "ended.json", {**data, "ended": True}))
    assert code == 0 and out.rstrip().endswith("Game over: Bea wins with 1,825.")
