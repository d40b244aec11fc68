"""``flask game end`` and ``flask game reopen`` (``game_length: open``, issue 23 item 1.9): the
command line ends a game its table ends and reopens it, through the same store as the pages
and the API; a deal recorded into an ended game is refused saying to reopen it; a game whose
sheet ends it is never ended by hand (exit 2, the field named).

``valid_deal`` scores Ann 1,060 and Bea 5 a deal (tests/storage/test_ended_games.py works it).
"""

from __future__ import annotations

import pytest

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
