"""``flask game delete`` and ``flask purge`` (issue 21, item 7): deleting a game from the
command line asks first (unless ``--yes``), purge removes the games not changed for
``RETAIN_DAYS`` days and prints each, and a deleted game's commands say it was deleted."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from scorepad.app import StartupError
from scorepad.storage import reading
from tests.cli.test_commands import new_game
from tests.helpers import db_state, sql

pytestmark = pytest.mark.backends  # each test on a database of its own: on SQLite and on PostgreSQL


def test_game_delete_asks_first_and_then_deletes_the_game_for_good(app, runner):
    game_id, _ = new_game(runner)
    before = db_state(app) if not app.config["DATABASE"].startswith("postgresql") else None
    kept = runner.invoke(args=["game", "delete", game_id], input="n\n")
    assert kept.exit_code == 1 and "Delete 'Friday'" in kept.output and "Aborted" in kept.output
    if before is not None:
        assert db_state(app) == before
    done = runner.invoke(args=["game", "delete", game_id], input="y\n")
    assert done.exit_code == 0, done.output
    assert f"Deleted 'Friday' ({game_id}, 0 deals) at 20" in done.output
    with app.app_context():
        assert reading.load_game(game_id) is None and reading.gone(game_id) is not None

    shown = runner.invoke(args=["game", "show", game_id])
    assert shown.exit_code == 2 and "deleted by its editor on 20" in shown.output
    again = runner.invoke(args=["game", "delete", game_id, "--yes"])
    assert again.exit_code == 2 and "deleted by its editor" in again.output


def test_game_delete_with_a_stale_revision_deletes_nothing(app, runner):
    game_id, _ = new_game(runner)
    refused = runner.invoke(args=["game", "delete", game_id, "--yes", "--revision", "3"])
    assert refused.exit_code == 2 and "revision" in refused.output
    with app.app_context():
        assert reading.load_game(game_id) is not None


def _aged(app, runner, name: str, days: int) -> str:
    game_id, _ = new_game(runner, name=name)
    then = (datetime.now(UTC) - timedelta(days=days)).isoformat(timespec="seconds")
    sql(app.config["DATABASE"], "UPDATE game SET updated_at = ? WHERE id = ?", (then, game_id))
    return game_id


def test_purge_removes_the_games_not_changed_for_retain_days_and_prints_each(make_app):
    app = make_app(RETAIN_DAYS=30)
    runner = app.test_cli_runner()
    old, fresh = _aged(app, runner, "Old", 45), _aged(app, runner, "Fresh", 2)

    dry = runner.invoke(args=["purge", "--dry-run"])
    assert dry.exit_code == 0, dry.output
    assert f"Would remove {old}  Old  (last changed 20" in dry.output and fresh not in dry.output
    assert "Would remove 1 game not changed for 30 days" in dry.output
    with app.app_context():
        assert reading.load_game(old) is not None

    done = runner.invoke(args=["purge"])
    assert done.exit_code == 0, done.output
    assert f"Removed {old}  Old" in done.output and "Removed 1 game not changed for 30 days" in done.output
    with app.app_context():
        assert reading.load_game(old) is None and reading.load_game(fresh) is not None
    shown = runner.invoke(args=["game", "show", old])
    assert shown.exit_code == 2
    assert "removed, not having changed for longer than this server keeps games" in shown.output
    assert app.test_client().get(f"/api/v1/games/{old}").status_code == 410

    fewer = runner.invoke(args=["purge", "--days", "1"])  # --days in place of the setting
    assert "Removed 1 game not changed for 1 day" in fewer.output and fresh in fewer.output


def test_purge_without_retain_days_or_days_removes_nothing_and_says_what_to_set(app, runner):
    game_id = _aged(app, runner, "Ancient", 4000)
    done = runner.invoke(args=["purge"])
    assert done.exit_code == 2 and "RETAIN_DAYS" in done.output and "--days" in done.output
    with app.app_context():
        assert reading.load_game(game_id) is not None


@pytest.mark.backends("sqlite")
@pytest.mark.parametrize("bad", ["30 days", "0", "-3", "", True, 2.5])
def test_a_retain_days_that_is_no_count_of_days_stops_start_up_naming_it(make_app, bad):
    with pytest.raises(StartupError, match="RETAIN_DAYS"):
        make_app(RETAIN_DAYS=bad)


@pytest.mark.backends("sqlite")
def test_retain_days_is_read_from_the_environment_and_kept_as_a_number(make_app, monkeypatch):
    assert make_app().config["RETAIN_DAYS"] is None  # by default every game is kept
    monkeypatch.setenv("SCOREPAD_RETAIN_DAYS", "90")
    assert make_app().config["RETAIN_DAYS"] == 90
    monkeypatch.setenv("SCOREPAD_RETAIN_DAYS", "ninety")
    with pytest.raises(StartupError, match=r"RETAIN_DAYS \(SCOREPAD_RETAIN_DAYS\) must be .*'ninety'"):
        make_app()


def test_purge_removes_a_club_night_whole_once_neither_it_nor_any_table_changed(make_app, tmp_path):
    app = make_app(RETAIN_DAYS=30)
    runner = app.test_cli_runner()
    source = tmp_path / "event.json"
    source.write_text('{"name": "Old club night", "format": "progressive", "rounds": 2, '
                      '"players": ["Ann", "Ben", "Cat", "Dan"]}')
    made = runner.invoke(args=["event", "create", str(source)])
    event_id = dict(line.split(": ", 1) for line in made.stdout.splitlines())["id"]
    assert runner.invoke(args=["event", "start-round", event_id]).exit_code == 0
    then = (datetime.now(UTC) - timedelta(days=45)).isoformat(timespec="seconds")
    database = app.config["DATABASE"]
    sql(database, "UPDATE event SET updated_at = ? WHERE id = ?", (then, event_id))
    (game_id,) = [row[0] for row in sql(database, "SELECT id FROM game WHERE event_id = ?", (event_id,))]
    sql(database, "UPDATE game SET updated_at = ? WHERE id = ?", (then, game_id))

    done = runner.invoke(args=["purge"])
    assert done.exit_code == 0, done.output
    assert "Removed 0 games not changed" in done.output  # a table's game is never purged alone
    assert f"Removed the club night {event_id}  Old club night" in done.output and "1 game with it" in done.output
    with app.app_context():
        assert reading.load_game(game_id) is None and reading.gone(game_id) is not None
