"""Club nights kept (scorepad.storage.club_nights, issue 27): an event's rounds started as one
game per table with its seats, a round refused while a table still plays, a table closed as
played, the organiser's key granting every right on the event's games, and the event deleted
and purged as one unit. On SQLite and on PostgreSQL."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest

from scorepad.rules import Deal, preset
from scorepad.rules.choices import GameLength
from scorepad.rules.club_night import EventPlan, Format, RoundLength, Standings, read_partnerships, read_roster
from scorepad.storage import club_nights, db, reading, writing
from scorepad.storage.club_night_input import NewEvent
from scorepad.storage.errors import Conflict, Invalid, KeyReplaced, NotFound
from scorepad.storage.reading import stamp
from tests.helpers import sql

pytestmark = pytest.mark.backends

PLAYERS = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]


def _progressive(rounds: int = 3, **plan: object):
    return club_nights.create_event(NewEvent("Tuesday club", "2026-12-04", "Lakemont", preset("common"),
                                             EventPlan(Format.PROGRESSIVE, rounds, **plan), read_roster(PLAYERS), ()))


def test_a_round_makes_one_game_per_table_with_its_seats_and_sits_the_rest_out(database):
    with db.using(database):
        event = club_nights.start_round(_progressive())
        (first,) = event.rounds
        assert [t.number for t in first.tables] == [1, 2]
        assert len(first.byes) == 1
        seated = [name for t in first.tables for side in t.sides for name in side]
        assert sorted([*seated, *first.byes]) == sorted(PLAYERS)
        game = reading.load_game(first.tables[0].game_id)
        assert game is not None
        assert [side["players"] for side in game.sides] == [list(side) for side in first.tables[0].sides]
        assert game.name == "Tuesday club: round 1, table 1"
        assert game.sheet == preset("common")


def test_the_next_round_waits_for_every_table_to_finish_or_be_closed(database):
    with db.using(database):
        event = club_nights.start_round(_progressive())
        with pytest.raises(Invalid, match="tables 1, 2 of round 1 are still playing"):
            club_nights.start_round(event)
        event = club_nights.close_table(event, 1, 1)
        with pytest.raises(Invalid, match="table 2 of round 1 is still playing"):
            club_nights.start_round(event)
        event = club_nights.close_table(event, 1, 2)
        event = club_nights.start_round(event)
        assert [r.number for r in event.rounds] == [1, 2]
        assert event.rounds[1].byes != event.rounds[0].byes  # the bye moves on


def test_no_round_past_the_plans_rounds(database):
    with db.using(database):
        event = club_nights.start_round(_progressive(rounds=1))
        event = club_nights.close_table(club_nights.close_table(event, 1, 1), 1, 2)
        assert club_nights.is_over(event)
        assert club_nights.standings_of(event).final
        with pytest.raises(Invalid, match="rounds have all been started"):
            club_nights.start_round(event)


def test_a_write_based_on_an_older_revision_of_the_event_is_refused(database):
    with db.using(database):
        event = _progressive()
        club_nights.start_round(event)
        with pytest.raises(Conflict):
            club_nights.start_round(event, based_on=event.revision)


def test_an_open_round_plays_its_games_open_ended(database):
    with db.using(database):
        event = club_nights.start_round(_progressive(round_length=RoundLength.OPEN))
        game = reading.load_game(event.rounds[0].tables[0].game_id)
        assert game is not None and game.sheet.game_length is GameLength.OPEN


def test_partnerships_sit_as_one_side_each(database):
    roster = read_roster(["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"])
    pairs = read_partnerships([["Ann", "Ben"], ["Cat", "Dan"], ["Eve", "Fay"]], roster)
    with db.using(database):
        event = club_nights.create_event(NewEvent("Couples", "2026-12-04", None, preset("common"),
                                                  EventPlan(Format.PARTNERS, 3), roster, pairs))
        event = club_nights.start_round(event)
        (table,) = event.rounds[0].tables
        game = reading.load_game(table.game_id)
        assert game is not None
        assert [side["name"] for side in game.sides] == [side[0] for side in table.sides]
        assert len(event.rounds[0].byes) == 1


def test_the_organisers_key_writes_to_every_game_of_the_event_and_no_other(database):
    with db.using(database):
        event = club_nights.start_round(_progressive())
        table = event.rounds[0].tables[0]
        before = reading.load_game(table.game_id)
        replaced = writing.replace_edit_key(table.game_id, key=event.organiser_key)
        assert before is not None and replaced.edit_key != before.edit_key
        other = writing.create_game("Alone", preset("common"), [{"name": "A", "players": ["A"]},
                                                                 {"name": "B", "players": ["B"]}])
        with pytest.raises(KeyReplaced):
            writing.replace_edit_key(other.id, key=event.organiser_key)


def test_a_game_of_an_event_is_deleted_and_purged_only_with_it(database):
    with db.using(database):
        event = club_nights.start_round(_progressive())
        game_id = event.rounds[0].tables[0].game_id
        with pytest.raises(Invalid, match="deleted only with its event"):
            writing.delete_game(game_id)
        assert writing.purge(datetime.now(UTC) + timedelta(days=1)) == []
        assert reading.load_game(game_id) is not None
        club_nights.delete_event(event)
        assert club_nights.load_event(event.id) is None
        assert reading.load_game(game_id) is None
        assert reading.gone(game_id) is not None


def test_standings_follow_the_tables_games(database):
    with db.using(database):
        event = club_nights.start_round(_progressive())
        rounds = club_nights.played(event)
        assert [t.finished for t in rounds[0].tables] == [False, False]
        event = club_nights.close_table(event, 1, 1)
        assert [t.finished for t in club_nights.played(event)[0].tables] == [True, False]
        assert stamp(datetime.now(UTC)) >= event.updated_at


def test_ending_an_open_round_ends_each_tables_game_and_closes_the_round(database):
    with db.using(database):
        event = club_nights.start_round(_progressive(rounds=2, round_length=RoundLength.OPEN))
        event = club_nights.end_round(event)
        assert all(t.closed_at is not None for t in event.rounds[0].tables)
        assert not club_nights.is_over(event)
        event = club_nights.start_round(event)
        assert len(event.rounds) == 2


def test_hidden_standings_stay_hidden_until_the_end(database):
    with db.using(database):
        event = club_nights.start_round(_progressive(rounds=1, standings=Standings.HIDDEN))
        assert club_nights.standings_of(event).hidden
        event = club_nights.end_round(event)
        assert not club_nights.standings_of(event).hidden


def _table_deal(game, went_out: str) -> Deal:
    """A legal deal for a table's game: the side of ``went_out`` goes out with two books."""
    sides = []
    for side in game.sides:
        ours = went_out in side["players"]
        sides.append({"name": side["name"], "melds": ["K K K K K K K", "Q Q Q Q Q 2 2"] if ours else ["J J J"],
                      "players": [{"name": p, "foot_picked_up": True, "cards_left": {}} for p in side["players"]]})
    return Deal.from_json({"deal": 1, "ending": "went_out", "went_out": went_out, "sides": sides}, game.sheet)


def test_a_table_of_long_names_records_its_deals(database):
    long = ["Annabelle Christina Montgomery-Smythe", "Benedict Alexander Fitzwilliam-Jones",
            "Catherine Elizabeth Worthington", "Dominic Sebastian Harrington-Lowe"]
    with db.using(database):
        event = club_nights.create_event(NewEvent("Long names", "2026-12-04", None, preset("common"),
                                                  EventPlan(Format.PROGRESSIVE, 1), read_roster(long), ()))
        event = club_nights.start_round(event)
        game = reading.load_game(event.rounds[0].tables[0].game_id)
        assert game is not None and all(len(side["name"]) <= 40 for side in game.sides)
        writing.record_deal(game.id, _table_deal(game, long[0]))
        (standing, *_) = club_nights.standings_of(event).overall
        assert standing.points > 0


def test_ending_an_open_round_ends_a_game_with_deals_through_its_end_action(database):
    with db.using(database):
        event = club_nights.start_round(_progressive(rounds=1, round_length=RoundLength.OPEN))
        table = event.rounds[0].tables[0]
        game = reading.load_game(table.game_id)
        assert game is not None
        writing.record_deal(game.id, _table_deal(game, game.sides[0]["players"][0]))
        event = club_nights.end_round(event)
        ended = reading.load_game(table.game_id)
        assert ended is not None and ended.ended_at is not None
        assert [entry["action"] for entry in reading.history(table.game_id)][-1] == "end"
        assert club_nights.is_over(event)


def test_an_event_not_changed_nor_any_game_of_it_is_purged_as_one_unit(database):
    with db.using(database):
        event = club_nights.start_round(_progressive())
        games = [t.game_id for t in event.rounds[0].tables]
        now = datetime.now(UTC) + timedelta(seconds=2)
        assert [e.id for e in club_nights.purge_events(now, dry_run=True)] == [event.id]
        assert club_nights.load_event(event.id) is not None  # a dry run removes nothing
        assert club_nights.purge_events(datetime.now(UTC) - timedelta(days=1)) == []  # changed since: kept
        assert [e.id for e in club_nights.purge_events(now)] == [event.id]
        assert club_nights.load_event(event.id) is None
        assert all(reading.load_game(g) is None and reading.gone(g) is not None for g in games)


def test_an_event_whose_table_played_since_is_kept_by_the_purge(database):
    with db.using(database):
        event = club_nights.start_round(_progressive())
        moment = datetime.now(UTC) + timedelta(seconds=2)
        game = reading.load_game(event.rounds[0].tables[0].game_id)
        assert game is not None
        db.run("game_touch", stamp(moment + timedelta(seconds=1)), game.id)  # the table wrote after the moment
        assert club_nights.purge_events(moment) == []
        assert club_nights.load_event(event.id) is not None


def test_a_stale_end_of_round_ends_no_game(database):
    with db.using(database):
        event = club_nights.start_round(_progressive(rounds=1, round_length=RoundLength.OPEN))
        table = event.rounds[0].tables[0]
        game = reading.load_game(table.game_id)
        assert game is not None
        writing.record_deal(game.id, _table_deal(game, game.sides[0]["players"][0]))
        with pytest.raises(Conflict):
            club_nights.end_round(event, based_on=event.revision + 5)
        kept = reading.load_game(table.game_id)
        assert kept is not None and kept.ended_at is None


def test_a_player_who_leaves_is_seated_no_more_but_keeps_their_standing(database):
    with db.using(database):
        event = club_nights.start_round(_progressive())  # nine players: two tables, one bye
        sat_out = event.rounds[0].byes[0]
        leaving = next(name for name in PLAYERS if name != sat_out)
        event = club_nights.set_withdrawn(event, leaving.upper(), True)  # any case names them
        assert event.withdrawn == (leaving,)
        for table in (1, 2):
            event = club_nights.close_table(event, 1, table)
        event = club_nights.start_round(event)
        second = event.rounds[1]
        seated = {name for t in second.tables for side in t.sides for name in side}
        assert leaving not in seated and leaving not in second.byes
        assert sorted([*seated, *second.byes]) == sorted(p for p in PLAYERS if p != leaving)
        assert leaving in {s.name for s in club_nights.standings_of(event).overall}
        event = club_nights.set_withdrawn(event, leaving, False)  # back for the next round
        assert event.withdrawn == ()


def test_leaving_is_refused_when_too_few_would_be_left_to_seat_a_table(database):
    with db.using(database):
        event = club_nights.create_event(NewEvent("Four", "2026-12-04", None, preset("common"),
                                                  EventPlan(Format.PROGRESSIVE, 2), read_roster(PLAYERS[:4]), ()))
        with pytest.raises(Invalid, match="a table needs 4 players"):
            club_nights.set_withdrawn(event, "Ann", True)
        with pytest.raises(NotFound):
            club_nights.set_withdrawn(event, "Zed", True)


def test_two_organiser_phones_starting_the_same_round_at_once_make_it_once(database, database_setting):
    """Both read the event at one revision and send "Start round 1" together: one round is
    started with one game a table; the other is refused as stale, writing nothing."""
    with db.using(database):
        event = _progressive()
    barrier, outcomes = threading.Barrier(2), []

    def phone() -> None:
        with db.using(database):
            barrier.wait()
            try:
                outcomes.append(len(club_nights.start_round(event).rounds))
            except Conflict:
                outcomes.append("stale")

    threads = [threading.Thread(target=phone) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(map(str, outcomes)) == ["1", "stale"]
    with db.using(database):
        kept = club_nights.load_event(event.id)
        assert kept is not None and len(kept.rounds) == 1
        tables = [t.game_id for t in kept.rounds[0].tables]
        assert len(tables) == 2 and all(reading.load_game(g) is not None for g in tables)
    # No game written by the refused one: every game of the event is a table of its one round.
    assert sql(database_setting, "SELECT COUNT(*) FROM game WHERE event_id = ?", (event.id,))[0][0] == 2
