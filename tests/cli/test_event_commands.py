"""``flask event ...`` (issue 27): a club night run from the server's command line, as its
organiser (no key asked), through the same store as the pages and the API: created from a JSON
file (or stdin), shown, its roster grown, its rounds started, a table closed as played, an open
round ended, its standings (shown even while the board hides them, saying so) and its
deletion. Bad input exits 2 naming the field, never with a traceback. On SQLite and on
PostgreSQL."""

from __future__ import annotations

import json

import pytest

from scorepad.storage import club_nights, reading
from tests.cli.test_commands import write
from tests.helpers import db_state

pytestmark = pytest.mark.backends  # each test on a database of its own: on SQLite and on PostgreSQL

PLAYERS = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]
PROGRESSIVE = {"name": "Tuesday club", "date": "2026-12-04", "club": "Lakemont", "sheet": "common",
               "format": "progressive", "rounds": 3, "players": PLAYERS}
PARTNERS = {"name": "Couples", "date": "2026-12-04", "format": "partners", "rounds": 3,
            "players": ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"],
            "partnerships": [["Ann", "Ben"], ["Cat", "Dan"], ["Eve", "Fay"]]}


def create(runner, tmp_path, **changes: object) -> tuple[str, str]:
    """A new event from a JSON file: its id and organiser key, as ``event create`` prints them."""
    result = runner.invoke(args=["event", "create", write(tmp_path, "event.json", {**PROGRESSIVE, **changes})])
    assert result.exit_code == 0, result.output
    lines = dict(line.split(": ", 1) for line in result.stdout.splitlines())
    return lines["id"], lines["organiser key"]


def load(app, event_id: str):
    with app.app_context():
        return club_nights.load_event(event_id)


def ok(runner, *args: str) -> str:
    result = runner.invoke(args=["event", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def refused(runner, *args: str, field: str, stdin: str | None = None) -> str:
    """The command exits 2 with ``Error: <field>: ...`` on stderr, and no traceback."""
    result = runner.invoke(args=["event", *args], input=stdin)
    assert result.exit_code == 2, result.output
    assert f"Error: {field}: " in result.stderr, result.stderr
    assert "Traceback" not in result.output and isinstance(result.exception, SystemExit)
    return result.stderr


def team_deal(game, winner: int = 0) -> dict:
    """A legal deal on the common sheet for a table's game (two sides of two): side ``winner``
    goes out with a clean and a dirty book."""
    sides = []
    for i, side in enumerate(game.sides):
        out = i == winner
        sides.append({"name": side["name"], "melds": ["K K K K K K K", "Q Q Q Q Q 2 2"] if out else ["J J J"],
                      "players": [{"name": p, "foot_picked_up": True, "cards_left": {} if out else "A 3B"}
                                  for p in side["players"]]})
    return {"deal": 1, "ending": "went_out", "went_out": game.sides[winner]["players"][0], "sides": sides}


# -- create ---------------------------------------------------------------------------------------


def test_create_from_a_json_file_prints_the_id_key_organiser_link_and_board(app, runner, tmp_path):
    event_id, key = create(runner, tmp_path)
    event = load(app, event_id)
    assert event.organiser_key == key
    assert event.name == "Tuesday club" and event.held_on == "2026-12-04" and event.club == "Lakemont"
    assert [e.name for e in event.roster] == PLAYERS and event.plan.rounds == 3
    out = ok(runner, "show", event_id)
    assert "Tuesday club" in out


def test_create_prints_the_organiser_link_and_board_paths(app, runner, tmp_path):
    result = runner.invoke(args=["event", "create", write(tmp_path, "event.json", PROGRESSIVE)])
    event_id = result.stdout.split("id: ")[1].split()[0]
    key = load(app, event_id).organiser_key
    assert f"organiser: /events/{event_id}/organise/{key}\n" in result.stdout
    assert f"board: /events/{event_id}/board\n" in result.stdout


def test_create_json_prints_the_same_as_json(app, runner, tmp_path):
    result = runner.invoke(args=["event", "create", "--json", write(tmp_path, "event.json", PARTNERS)])
    assert result.exit_code == 0, result.output
    made = json.loads(result.stdout)
    event = load(app, made["id"])
    assert made["organiser_key"] == event.organiser_key
    assert made["organiser_link"] == f"/events/{event.id}/organise/{event.organiser_key}"
    assert made["board_link"] == f"/events/{event.id}/board"
    assert made["plan"]["format"] == "partners"
    assert [p["name"] for p in made["partnerships"]] == ["Ann and Ben", "Cat and Dan", "Eve and Fay"]


def test_create_reads_stdin_for_a_dash(app, runner):
    result = runner.invoke(args=["event", "create", "-"], input=json.dumps(PROGRESSIVE))
    assert result.exit_code == 0, result.output
    assert load(app, result.stdout.split("id: ")[1].split()[0]) is not None


@pytest.mark.parametrize(("changes", "field"), [
    ({"rounds": 0}, "rounds"),
    ({"format": "swiss"}, "format"),
    ({"players": ["Ann", "Ann"]}, "players[1]"),
    ({"date": "tomorrow"}, "date"),
    ({"colour": "red"}, "colour"),
    ({"players": ["Ann", "Ben"]}, "players"),  # a progressive event needs four
    ({"partnerships": [["Ann", "Ben"]]}, "partnerships"),  # only a partners event has them
])
def test_create_refuses_a_bad_field_naming_it_and_writes_nothing(app, runner, tmp_path, changes, field):
    before = db_state(app)
    refused(runner, "create", write(tmp_path, "event.json", {**PROGRESSIVE, **changes}), field=field)
    assert db_state(app) == before


def test_create_refuses_what_is_not_a_json_object(runner, tmp_path):
    assert "not valid JSON" in refused(runner, "create", write(tmp_path, "event.json", "{nope"), field="event")
    assert "JSON object" in refused(runner, "create", "-", field="event", stdin="[1, 2]")
    assert "cannot read" in refused(runner, "create", str(tmp_path / "missing.json"), field="event")


# -- show -----------------------------------------------------------------------------------------


def test_show_gives_the_plan_roster_and_the_first_rounds_seats_before_it_starts(runner, tmp_path):
    event_id, _ = create(runner, tmp_path, players=[{"name": "Ann", "member": "1042"}, *PLAYERS[1:]])
    out = ok(runner, "show", event_id)
    assert "Held on 2026-12-04, Lakemont" in out
    assert "Format: progressive, movement north_stays; 3 rounds" in out
    assert "Ranking: most wins, then most points" in out
    assert "Players (9): Ann (#1042), Ben, Cat" in out
    assert "No round started yet." in out
    assert "Round 1 would seat" in out and "Table 2: North-South:" in out and "Bye: " in out


def test_unknown_event_is_refused_naming_the_event(runner):
    for command in (["show"], ["start-round"], ["standings"], ["close-table", "1", "1"], ["end-round"],
                    ["add-players", "Jo"], ["delete", "--yes"]):
        args = [command[0], "no-such-event", *command[1:]]
        assert "there is no event 'no-such-event'" in refused(runner, *args, field="event")


# -- rounds ---------------------------------------------------------------------------------------


def test_start_round_makes_a_game_per_table_and_show_lists_them_still_playing(app, runner, tmp_path):
    event_id, _ = create(runner, tmp_path)
    out = ok(runner, "start-round", event_id)
    assert "Round 1 of 3 started: 2 tables." in out
    event = load(app, event_id)
    tables = event.rounds[0].tables
    with app.app_context():
        game = reading.load_game(tables[0].game_id)
    assert f"game {game.id}; edit: /games/{game.id}/edit/{game.edit_key}" in out
    assert f"Bye: {event.rounds[0].byes[0]}" in out
    shown = ok(runner, "show", event_id)
    assert "Round 1 (started " in shown
    north, south = tables[0].sides[0]
    assert f"Table 1: North-South: {north} and {south}; East-West:" in shown
    assert f"game {tables[1].game_id}: 0 deals;" in shown
    assert "Round 2 would seat" in shown
    assert "Still playing in round 1: tables 1, 2" in shown


def test_start_round_waits_for_every_table_and_close_table_closes_one(app, runner, tmp_path):
    event_id, _ = create(runner, tmp_path)
    ok(runner, "start-round", event_id)
    assert "tables 1, 2 of round 1 are still playing" in refused(runner, "start-round", event_id, field="round")
    out = ok(runner, "close-table", event_id, "1", "2")
    assert "Table 2 of round 1 closed as played." in out and "Still playing: table 1." in out
    assert "closed as played at " in ok(runner, "show", event_id)
    out = ok(runner, "close-table", event_id, "1", "1")
    assert f"start-round {event_id} starts round 2" in out
    ok(runner, "start-round", event_id)
    assert len(load(app, event_id).rounds) == 2


def test_close_table_refuses_a_table_or_round_there_is_not(runner, tmp_path):
    event_id, _ = create(runner, tmp_path)
    ok(runner, "start-round", event_id)
    assert "round 1 has no table 9" in refused(runner, "close-table", event_id, "1", "9", field="table")
    assert "no round 4" in refused(runner, "close-table", event_id, "4", "1", field="round")


def test_the_last_round_closed_says_the_event_is_over_and_no_more_start(runner, tmp_path):
    event_id, _ = create(runner, tmp_path, rounds=1)
    ok(runner, "start-round", event_id)
    ok(runner, "close-table", event_id, "1", "1")
    assert "The event is over" in ok(runner, "close-table", event_id, "1", "2")
    assert "Over: every round has been played." in ok(runner, "show", event_id)
    assert "rounds have all been started" in refused(runner, "start-round", event_id, field="round")


def test_end_round_closes_every_table_of_an_open_round(app, runner, tmp_path):
    event_id, _ = create(runner, tmp_path, rounds=2, round_length="open")
    ok(runner, "start-round", event_id)
    assert "Round 1 ended: 2 tables closed as played." in ok(runner, "end-round", event_id)
    assert all(t.closed_at for t in load(app, event_id).rounds[0].tables)
    assert "no round has been started" in refused(runner, "end-round", create(runner, tmp_path)[0], field="round")


# -- roster ---------------------------------------------------------------------------------------


def test_add_players_adds_late_arrivals_with_member_numbers(app, runner, tmp_path):
    event_id, _ = create(runner, tmp_path)
    assert "Added 2 players" in ok(runner, "add-players", event_id, "Jo#1042", "Kim")
    roster = load(app, event_id).roster
    assert [(e.name, e.member) for e in roster[-2:]] == [("Jo", "1042"), ("Kim", None)]
    assert "Jo (#1042), Kim" in ok(runner, "show", event_id)


def test_add_players_refuses_a_name_in_the_event_already_naming_it(app, runner, tmp_path):
    event_id, _ = create(runner, tmp_path)
    before = db_state(app)
    assert "in the event already" in refused(runner, "add-players", event_id, "Jo", "ann", field="players[1]")
    assert db_state(app) == before
    refused(runner, "add-players", event_id, field="players")  # nobody named


def test_add_players_pairs_partners_in_a_partners_event(app, runner, tmp_path):
    result = runner.invoke(args=["event", "create", write(tmp_path, "event.json", PARTNERS)])
    event_id = result.stdout.split("id: ")[1].split()[0]
    out = ok(runner, "add-players", event_id, "Gus", "Hal", "--partner", "Gus", "Hal")
    assert "4 partnerships" in out
    assert load(app, event_id).partnerships[-1].name == "Gus and Hal"
    assert "another partnership" in refused(runner, "add-players", event_id, "Ivy", "--partner", "Ivy", "Ann",
                                            field="partnerships[0][1]")


def test_a_progressive_event_takes_no_partners(runner, tmp_path):
    event_id, _ = create(runner, tmp_path)
    assert "only a partners event" in refused(runner, "add-players", event_id, "Jo", "Kim",
                                              "--partner", "Jo", "Kim", field="partnerships")


# -- standings ------------------------------------------------------------------------------------


def test_standings_is_a_table_with_the_tie_break(app, runner, tmp_path):
    event_id, _ = create(runner, tmp_path)
    ok(runner, "start-round", event_id)
    table = load(app, event_id).rounds[0].tables[0]
    with app.app_context():
        game = reading.load_game(table.game_id)
    saved = runner.invoke(args=["deal", "record", game.id, write(tmp_path, "deal.json", team_deal(game))])
    assert saved.exit_code == 0, saved.output
    ok(runner, "close-table", event_id, "1", "1")
    out = ok(runner, "standings", event_id)
    lines = out.splitlines()
    assert lines[0] == "Tuesday club: Standings so far"
    assert lines[1].split() == ["Place", "Name", "Wins", "Losses", "Ties", "Byes", "Points"]
    first = lines[2].split()
    assert first[0] == "1" and first[1] in table.sides[0] and first[2:6] == ["1", "0", "0", "0"]
    assert "Ties: most wins, then most points; entrants equal on both share a place." in out
    assert "Byes: a bye scores the average of that round's winners" in out
    by_round = ok(runner, "standings", event_id, "--round", "1")
    assert by_round.splitlines()[0] == "Tuesday club: Round 1 of 3"
    shown = json.loads(ok(runner, "standings", event_id, "--json"))
    assert shown["standings"][0]["wins"] == 1 and shown["hidden"] is False


def test_hidden_standings_are_shown_to_the_organiser_with_a_note(runner, tmp_path):
    event_id, _ = create(runner, tmp_path, standings="hidden")
    ok(runner, "start-round", event_id)
    out = ok(runner, "standings", event_id)
    assert "(hidden on the board until the last round is over)" in out.splitlines()[0]
    assert "Place" in out


def test_standings_of_a_round_there_is_not_names_the_round(runner, tmp_path):
    event_id, _ = create(runner, tmp_path)
    assert "no round started yet" in refused(runner, "standings", event_id, "--round", "1", field="round")
    ok(runner, "start-round", event_id)
    assert "no round 2" in refused(runner, "standings", event_id, "--round", "2", field="round")


# -- delete ---------------------------------------------------------------------------------------


def test_delete_removes_the_event_with_its_games(app, runner, tmp_path):
    event_id, _ = create(runner, tmp_path)
    ok(runner, "start-round", event_id)
    game_id = load(app, event_id).rounds[0].tables[0].game_id
    assert "Deleted 'Tuesday club'" in ok(runner, "delete", event_id, "--yes")
    assert load(app, event_id) is None
    with app.app_context():
        assert reading.load_game(game_id) is None and reading.gone(game_id) is not None
    refused(runner, "show", event_id, field="event")


def test_delete_asks_first_without_yes(app, runner, tmp_path):
    event_id, _ = create(runner, tmp_path)
    result = runner.invoke(args=["event", "delete", event_id], input="n\n")
    assert result.exit_code == 1 and "Aborted" in result.output
    assert load(app, event_id) is not None



def test_an_event_exported_and_imported_is_a_new_event_with_the_same_rounds(runner, tmp_path):
    event_id, _ = create(runner, tmp_path)
    ok(runner, "start-round", event_id)
    out = tmp_path / "exported.json"
    ok(runner, "export", event_id, "-o", str(out))
    imported = ok(runner, "import", str(out))
    assert "with 1 round" in imported
    new_id = dict(line.split(": ", 1) for line in imported.splitlines()[1:])["id"]
    assert new_id != event_id
    assert "Round 1" in ok(runner, "show", new_id)


def test_the_clubs_ladder_lists_its_players(runner, tmp_path):
    event_id, _ = create(runner, tmp_path)
    ok(runner, "start-round", event_id)
    ladder = json.loads(ok(runner, "ladder", "Lakemont", "--json"))
    assert {row["name"] for row in ladder["players"]} == set(PLAYERS)
    refused(runner, "ladder", "Nobody's club", field="club")


def test_a_player_leaves_the_evening_and_comes_back(runner, tmp_path):
    event_id, _ = create(runner, tmp_path)
    assert "Ivy leaves the evening. Left the evening: Ivy." in ok(runner, "leave", event_id, "ivy")
    assert "Left the evening: nobody." in ok(runner, "leave", event_id, "Ivy", "--back")
    refused(runner, "leave", event_id, "Zed", field="name")
