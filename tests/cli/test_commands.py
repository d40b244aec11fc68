"""``flask game ...`` and ``flask deal ...``: the CLI doors into the store, on a real SQLite
file and on a PostgreSQL database."""

from __future__ import annotations

import json

import pytest

from scorepad.storage import reading
from tests.helpers import db_state

pytestmark = pytest.mark.backends  # each test on a database of its own: on SQLite and on PostgreSQL

TWO = ("--side", "Ann", "--side", "Bea")


def two_player_deal(ann_melds=("K K K",), bea_melds=("Q Q Q",)) -> dict:
    return {"ending": "stock_out",
            "sides": [{"name": "Ann", "melds": list(ann_melds),
                       "players": [{"name": "Ann", "foot_picked_up": True, "cards_left": ""}]},
                      {"name": "Bea", "melds": list(bea_melds),
                       "players": [{"name": "Bea", "foot_picked_up": True, "cards_left": ""}]}]}


BAD_DEAL = two_player_deal(bea_melds=("Q Q 2 2",))  # common: more naturals than wilds


def new_game(runner, *sides: str, name: str = "Friday", sheet: str = "common") -> tuple[str, str]:
    result = runner.invoke(args=["game", "new", "--name", name, "--sheet", sheet, *(sides or TWO)])
    assert result.exit_code == 0, result.output
    lines = dict(line.split(": ", 1) for line in result.stdout.splitlines())
    return lines["id"], lines["edit key"]


def write(tmp_path, name: str, data) -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(path)


def load(app, game_id):
    with app.app_context():
        return reading.load_game(game_id)


# -- game new / list / show -----------------------------------------------------------------------


def test_game_new_prints_id_view_path_and_key(app, runner):
    result = runner.invoke(args=["game", "new", "--name", "Friday", "--sheet", "common",
                                 "--side", "North-South=Ann,Cal", "--side", "East-West=Bea,Dan"])
    assert result.exit_code == 0, result.output
    game_id = result.stdout.split("id: ")[1].split()[0]
    assert f"view: /games/{game_id}" in result.stdout
    game = load(app, game_id)
    assert f"edit key: {game.edit_key}" in result.stdout
    assert game.sides == [{"name": "North-South", "players": ["Ann", "Cal"]},
                          {"name": "East-West", "players": ["Bea", "Dan"]}]


def test_no_game_id_or_key_starts_with_a_dash_which_a_command_line_reads_as_an_option():
    """One url-safe id in 64 started with '-': ``flask game show -AbC...`` then failed as an
    unknown option (found as a test that failed now and then)."""
    ids = [reading.new_id() for _ in range(3000)]
    assert not [i for i in ids if i.startswith("-")]
    assert all(len(i) == 22 for i in ids) and len(set(ids)) == len(ids)


def test_game_new_takes_a_sheet_file(app, runner, tmp_path):
    sheet = write(tmp_path, "sheet.json", {"preset": "common"})
    game_id, _ = new_game(runner, sheet=sheet)
    assert load(app, game_id).sheet.to_json() == {"preset": "common", "preset_version": 1}


def test_game_new_refuses_a_bad_side_naming_the_field(app, runner):
    before = db_state(app)
    result = runner.invoke(args=["game", "new", "--name", "X", "--sheet", "common", "--side", "Ann"])
    assert result.exit_code == 2
    assert "sides" in result.stderr and "Traceback" not in result.output
    assert db_state(app) == before


def test_game_new_refuses_an_unknown_preset(runner):
    result = runner.invoke(args=["game", "new", "--name", "X", "--sheet", "nonesuch", *TWO])
    assert result.exit_code == 2
    assert "Error:" in result.stderr


def test_game_rekey_prints_a_new_key_and_link_and_the_old_key_changes_nothing(app, runner):
    game_id, old = new_game(runner)
    result = runner.invoke(args=["game", "rekey", game_id])
    assert result.exit_code == 0, result.output
    lines = dict(line.split(": ", 1) for line in result.stdout.splitlines() if ": " in line)
    new = lines["edit key"]
    assert new != old and new == load(app, game_id).edit_key
    assert lines["edit"].endswith(f"/games/{game_id}/edit/{new}") and "can no longer change the game" in result.stdout
    api = app.test_client()
    refused = api.post(f"/api/v1/games/{game_id}/deals", json=two_player_deal(),
                       headers={"Authorization": f"Bearer {old}"})
    assert refused.status_code == 401 and "was replaced" in refused.get_json()["detail"]
    assert [e["action"] for e in api.get(f"/api/v1/games/{game_id}/history").get_json()["history"]] == ["rekey"]
    missing = runner.invoke(args=["game", "rekey", "nosuchgame"])
    assert missing.exit_code == 2 and "no game" in missing.output


def test_game_list_shows_where_each_game_stands(runner):
    assert "No games yet" in runner.invoke(args=["game", "list"]).stdout
    game_id, _ = new_game(runner, name="Friday")
    result = runner.invoke(args=["game", "list"])
    assert result.exit_code == 0
    assert game_id in result.stdout and "Friday" in result.stdout and "next: deal 1" in result.stdout


def test_game_list_rejects_a_bad_limit(runner):
    assert runner.invoke(args=["game", "list", "--limit", "0"]).exit_code == 2


def test_game_show_table_and_json(runner, tmp_path):
    game_id, _ = new_game(runner)
    deal = write(tmp_path, "deal.json", two_player_deal())
    assert runner.invoke(args=["deal", "record", game_id, deal]).exit_code == 0
    result = runner.invoke(args=["game", "show", game_id])
    assert result.exit_code == 0, result.output
    assert "Ann total" in result.stdout and "Result: game goes on; next is deal 2" in result.stdout
    data = json.loads(runner.invoke(args=["game", "show", game_id, "--json"]).stdout)
    assert data["id"] == game_id and [d["number"] for d in data["deals"]] == [1]
    assert data["running_totals"][0]["deal"] == 1 and data["next_deal"]["number"] == 2
    assert "edit_key" not in json.dumps(data)


def test_game_show_edit_link_prints_the_edit_link_again_from_the_root(app, runner):
    """Without PUBLIC_URL the command cannot know the address phones open: the link is a path
    from the site's root, and stderr says what to put before it. The link works."""
    game_id, key = new_game(runner)
    result = runner.invoke(args=["game", "show", game_id, "--edit-link"])
    assert result.exit_code == 0, result.output
    assert result.stdout == f"/games/{game_id}/edit/{key}\n"
    assert "SCOREPAD_PUBLIC_URL" in result.stderr
    browser = app.test_client()
    assert browser.get(result.stdout.strip()).status_code == 303
    assert browser.get(f"/games/{game_id}/deals/new").status_code == 200  # it grants edit rights


def test_game_show_edit_link_starts_with_public_url(make_app):
    runner = make_app(PUBLIC_URL="https://scores.example.org").test_cli_runner()
    game_id, key = new_game(runner)
    result = runner.invoke(args=["game", "show", game_id, "--edit-link"])
    assert result.exit_code == 0, result.output
    assert (result.stdout, result.stderr) == (f"https://scores.example.org/games/{game_id}/edit/{key}\n", "")


def test_game_show_unknown_game_exits_2(runner):
    result = runner.invoke(args=["game", "show", "nope"])
    assert result.exit_code == 2
    assert "game" in result.stderr and "nope" in result.stderr and "Traceback" not in result.output


# -- deal record / correct / delete ---------------------------------------------------------------


def test_deal_recorded_by_cli_shows_in_store_and_game_page(app, runner, tmp_path):
    game_id, _ = new_game(runner)
    result = runner.invoke(args=["deal", "record", game_id, write(tmp_path, "d.json", two_player_deal())])
    assert result.exit_code == 0, result.output
    assert "Deal 1 recorded." in result.stdout and "Ann:" in result.stdout and "Bea:" in result.stdout
    game = load(app, game_id)
    assert [d.number for d in game.deals] == [1]
    page = app.test_client().get(f"/games/{game_id}")
    assert page.status_code == 200
    ann = game.deals[0].verdict.breakdown.totals()["Ann"]
    assert f"{ann:,}" in page.get_data(as_text=True)


def test_deal_record_from_stdin(app, runner):
    game_id, _ = new_game(runner)
    result = runner.invoke(args=["deal", "record", game_id, "-"], input=json.dumps(two_player_deal()))
    assert result.exit_code == 0, result.output
    assert len(load(app, game_id).deals) == 1


def test_deal_with_violations_is_not_saved_without_a_reason(app, runner, tmp_path):
    game_id, _ = new_game(runner)
    bad = write(tmp_path, "bad.json", BAD_DEAL)
    before = db_state(app)
    result = runner.invoke(args=["deal", "record", game_id, bad])
    assert result.exit_code == 1
    assert "Not saved" in result.stdout and "violation:" in result.stdout and "--as-played" in result.stdout
    assert db_state(app) == before
    result = runner.invoke(args=["deal", "record", game_id, bad, "--as-played", "we agreed"])
    assert result.exit_code == 0, result.output
    assert "as played (we agreed)" in result.stdout and "violation:" in result.stdout
    assert load(app, game_id).deals[0].as_played == "we agreed"


def test_deal_record_unreadable_json_exits_2(app, runner, tmp_path):
    game_id, _ = new_game(runner)
    before = db_state(app)
    result = runner.invoke(args=["deal", "record", game_id, write(tmp_path, "x.json", "{not json")])
    assert result.exit_code == 2
    assert "deal" in result.stderr and "not valid JSON" in result.stderr and "Traceback" not in result.output
    missing = runner.invoke(args=["deal", "record", game_id, str(tmp_path / "missing.json")])
    assert missing.exit_code == 2 and "cannot read" in missing.stderr
    assert db_state(app) == before


def test_deal_record_unknown_game_and_bad_field_exit_2(runner, tmp_path):
    deal = write(tmp_path, "d.json", two_player_deal())
    assert runner.invoke(args=["deal", "record", "nope", deal]).exit_code == 2
    game_id, _ = new_game(runner)
    wrong = two_player_deal()
    wrong["ending"] = "sideways"
    result = runner.invoke(args=["deal", "record", game_id, write(tmp_path, "w.json", wrong)])
    assert result.exit_code == 2
    assert "ending" in result.stderr


def test_deal_record_the_same_as_the_deal_before_exits_1_until_repeat(app, runner, tmp_path):
    game_id, _ = new_game(runner)
    deal = write(tmp_path, "d.json", two_player_deal())
    assert runner.invoke(args=["deal", "record", game_id, deal]).exit_code == 0
    before = db_state(app)
    result = runner.invoke(args=["deal", "record", game_id, deal])
    assert result.exit_code == 1
    assert "Not saved: deal 2 is the same as deal 1, every side and the ending." in result.stdout
    assert "--repeat" in result.stdout and db_state(app) == before
    result = runner.invoke(args=["deal", "record", game_id, deal, "--repeat"])
    assert result.exit_code == 0, result.output
    assert "Deal 2 recorded." in result.stdout
    assert [d.number for d in load(app, game_id).deals] == [1, 2]


def test_deal_record_of_a_deal_recorded_already_exits_4_showing_both(app, runner, tmp_path):
    game_id, _ = new_game(runner)
    assert runner.invoke(args=["deal", "record", game_id, write(tmp_path, "d.json", two_player_deal())]).exit_code == 0
    mine = write(tmp_path, "m.json", {**two_player_deal(ann_melds=("K K K", "A A A")), "deal": 1})
    before = db_state(app)
    result = runner.invoke(args=["deal", "record", game_id, mine])
    assert result.exit_code == 4
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Not saved: deal 1 is already recorded (saved at ") and lines[0].endswith(
        " UTC); a deal is never moved to another number.")
    assert lines[1:4] == ["  saved: Ann 30, Bea 30", "  yours: Ann 90, Bea 30",
                          f"Keep the saved one, or replace it with yours: flask --app scorepad deal correct "
                          f"{game_id} 1 DEAL.json"]
    assert db_state(app) == before


def test_deal_correct(app, runner, tmp_path):
    game_id, _ = new_game(runner)
    runner.invoke(args=["deal", "record", game_id, write(tmp_path, "d.json", two_player_deal())])
    fixed = write(tmp_path, "f.json", two_player_deal(ann_melds=("K K K", "A A A")))
    result = runner.invoke(args=["deal", "correct", game_id, "1", fixed])
    assert result.exit_code == 0, result.output
    assert "Deal 1 corrected." in result.stdout
    game = load(app, game_id)
    assert len(game.deals[0].deal.sides[0].melds) == 2 and game.deals[0].history_size == 2
    bad = runner.invoke(args=["deal", "correct", game_id, "1", write(tmp_path, "b.json", BAD_DEAL)])
    assert bad.exit_code == 1
    missing = runner.invoke(args=["deal", "correct", game_id, "7", fixed])
    assert missing.exit_code == 2 and "deal 7 is not recorded" in missing.stderr


def test_deal_delete(app, runner, tmp_path):
    game_id, _ = new_game(runner)
    runner.invoke(args=["deal", "record", game_id, write(tmp_path, "d.json", two_player_deal())])
    result = runner.invoke(args=["deal", "delete", game_id, "1"])
    assert result.exit_code == 0, result.output
    assert "Deal 1 deleted" in result.stdout
    assert load(app, game_id).deals == []
    again = runner.invoke(args=["deal", "delete", game_id, "1"])
    assert again.exit_code == 2 and "deal:" in again.stderr


# -- export / import ------------------------------------------------------------------------------


def test_export_and_import_round_trip(app, runner, tmp_path):
    game_id, key = new_game(runner)
    runner.invoke(args=["deal", "record", game_id, write(tmp_path, "d.json", two_player_deal())])
    out = tmp_path / "game.json"
    result = runner.invoke(args=["game", "export", game_id, "-o", str(out)])
    assert result.exit_code == 0, result.output
    document = json.loads(out.read_text())
    assert document["format"] == "scorepad.game" and len(document["deals"]) == 1
    assert key not in out.read_text()
    printed = json.loads(runner.invoke(args=["game", "export", game_id]).stdout)
    assert printed["deals"] == document["deals"]
    result = runner.invoke(args=["game", "import", str(out)])
    assert result.exit_code == 0, result.output
    new_id = result.stdout.split("id: ")[1].split()[0]
    assert new_id != game_id
    assert [d.number for d in load(app, new_id).deals] == [1]
    via_stdin = runner.invoke(args=["game", "import", "-"], input=out.read_text())
    assert via_stdin.exit_code == 0, via_stdin.output


def test_export_unknown_game_exits_2(runner):
    result = runner.invoke(args=["game", "export", "nope"])
    assert result.exit_code == 2 and "game" in result.stderr


def test_import_a_bad_document_exits_2_naming_the_field(app, runner, tmp_path):
    before = db_state(app)
    result = runner.invoke(args=["game", "import", write(tmp_path, "x.json", {"format": "other"})])
    assert result.exit_code == 2
    assert "Error:" in result.stderr and "Traceback" not in result.output
    assert db_state(app) == before


def test_help_says_writes_need_no_edit_key(runner):
    for group in ("game", "deal"):
        assert "no edit key" in runner.invoke(args=[group, "--help"]).stdout


def test_every_link_a_command_prints_starts_with_the_site_root(make_app):
    """Under PREFIX (or PUBLIC_URL's path) the links game new, game show --edit-link and game
    rekey print are under it too (rekey printed PUBLIC_URL's host without its path)."""
    for config, base in (({"PREFIX": "/hf"}, "/hf/"), ({"PUBLIC_URL": "https://club.example.org/cards"},
                                                       "https://club.example.org/cards/")):
        runner = make_app(**config).test_cli_runner()
        made = runner.invoke(args=["game", "new", "--name", "Friday", "--sheet", "common", "--side", "Ann",
                                   "--side", "Bea"])
        game_id, key = new_game(runner)
        assert f"view: {base}games/" in made.stdout and f"edit: {base}games/" in made.stdout, made.stdout
        result = runner.invoke(args=["game", "show", game_id, "--edit-link"])
        assert result.exit_code == 0, result.output
        assert result.stdout == f"{base}games/{game_id}/edit/{key}\n"
        rekeyed = runner.invoke(args=["game", "rekey", game_id])
        assert rekeyed.exit_code == 0, rekeyed.output
        [new_key] = [line.split(": ", 1)[1] for line in rekeyed.stdout.splitlines() if line.startswith("edit key: ")]
        assert f"edit: {base}games/{game_id}/edit/{new_key}\n" in rekeyed.stdout
