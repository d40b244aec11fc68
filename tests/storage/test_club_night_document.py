"""A club night exported and imported whole (scorepad.storage.club_night_document, issue 27),
and its club's season ladder read from the store (scorepad.storage.club_ladder): export, then
import, gives a new event (new id and keys) with the same standings and the same games' deals;
a broken document is refused naming the field, within its table's game; an import that fails
anywhere leaves nothing behind. On SQLite and on PostgreSQL."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from scorepad.rules import preset
from scorepad.rules.club_night import EventPlan, Format, RoundLength, read_partnerships, read_roster
from scorepad.rules.limits import MAX_EVENT_IMPORT_BYTES, MAX_EVENT_TABLES, MAX_GAME_BYTES, MAX_REASON
from scorepad.storage import club_ladder, club_night_document, club_nights, db, reading
from scorepad.storage.club_night_input import NewEvent
from scorepad.storage.errors import Full, ImportRefused, Invalid
from tests import json_writes as writing

pytestmark = pytest.mark.backends

PLAYERS = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]
OUT_MELDS = ["K K K K K K K", "Q Q Q Q Q 2 2"]


def _side(side: dict[str, Any], melds: list[str], held: tuple[str, str]) -> dict[str, Any]:
    return {"name": side["name"], "melds": melds,
            "players": [{"name": p, "foot_picked_up": True, "cards_left": h}
                        for p, h in zip(side["players"], held, strict=True)]}


def _deal(game: reading.GameRecord, number: int, out: int = 0) -> dict[str, Any]:
    """A legal deal of a table's game: side ``out``'s first player goes out (1,055 to 5)."""
    sides = [_side(side, OUT_MELDS, ("", "4")) if i == out else _side(side, ["J J J"], ("A", "3B"))
             for i, side in enumerate(game.sides)]
    return {"deal": number, "ending": "went_out", "went_out": game.sides[out]["players"][0], "sides": sides}


def _play(game_id: str, outs: list[int]) -> None:
    game = reading.load_game(game_id)
    assert game is not None
    for number, out in enumerate(outs, 1):
        writing.record_deal(game_id, _deal(game, number, out), repeat=True)


def _evening(club: str = "Lakemont", **plan: Any) -> club_nights.EventRecord:
    """Two rounds played: round 1's first table to its end (4 deals), its second closed after
    one deal; round 2 under way, one deal at its first table."""
    event = club_nights.create_event(NewEvent("Tuesday club", "2026-12-04", club, preset("common"),
                                              EventPlan(Format.PROGRESSIVE, 3, **plan), read_roster(PLAYERS), ()))
    event = club_nights.start_round(event)
    first, second = event.rounds[0].tables
    _play(first.game_id, [0, 0, 1, 0])
    _play(second.game_id, [1])
    event = club_nights.start_round(club_nights.close_table(event, 1, 2))
    _play(event.rounds[1].tables[0].game_id, [1])
    reloaded = club_nights.load_event(event.id)
    assert reloaded is not None
    return reloaded


def _deals(game_id: str) -> list[tuple[int, Any, str | None]]:
    game = reading.load_game(game_id)
    assert game is not None
    return [(d.number, d.deal.to_json(with_sheet=False), d.as_played) for d in game.deals]


def _without_export_times(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_export_times(v) for k, v in value.items() if k != "exported_at"}
    if isinstance(value, list):
        return [_without_export_times(v) for v in value]
    return value


def _games(event: club_nights.EventRecord) -> list[str]:
    return [t.game_id for r in event.rounds for t in r.tables]


def test_an_event_exported_and_imported_is_a_new_event_with_the_same_standings_and_deals(database):
    with db.using(database):
        event = _evening()
        exported = club_night_document.export_event(event)
        made = club_night_document.import_event(club_night_document.parse_event_text(json.dumps(exported)))
        assert made.id != event.id and made.organiser_key != event.organiser_key
        assert (made.name, made.held_on, made.club, made.sheet, made.plan, made.roster) == \
               (event.name, event.held_on, event.club, event.sheet, event.plan, event.roster)
        assert club_nights.standings_of(made) == club_nights.standings_of(event)
        assert [(r.number, r.byes, r.started_at, [(t.number, t.sides, t.closed_at) for t in r.tables])
                for r in made.rounds] == \
               [(r.number, r.byes, r.started_at, [(t.number, t.sides, t.closed_at) for t in r.tables])
                for r in event.rounds]
        assert not set(_games(made)) & set(_games(event))
        for old, new in zip(_games(event), _games(made), strict=True):
            assert _deals(new) == _deals(old)
            was, now = reading.load_game(old), reading.load_game(new)
            assert was is not None and now is not None and now.edit_key != was.edit_key
            assert reading.organiser_key_of(new) == made.organiser_key  # a game of the new event
        again = club_night_document.export_event(made)
        assert _without_export_times(again) == _without_export_times(exported)


def test_a_partners_event_round_trips_with_its_partnerships(database):
    roster = read_roster(["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"])
    pairs = read_partnerships([["Ann", "Ben"], ["Cat", "Dan"], ["Eve", "Fay"]], roster)
    with db.using(database):
        event = club_nights.create_event(NewEvent("Couples", "2026-12-04", None, preset("common"),
                                                  EventPlan(Format.PARTNERS, 3, round_length=RoundLength.OPEN),
                                                  roster, pairs))
        event = club_nights.start_round(event)
        _play(event.rounds[0].tables[0].game_id, [0, 1])
        event = club_nights.end_round(event)  # the open round's game ended by the organiser
        made = club_night_document.import_event(club_night_document.export_event(event))
        assert made.partnerships == event.partnerships
        assert club_nights.standings_of(made) == club_nights.standings_of(event)
        game = reading.load_game(made.rounds[0].tables[0].game_id)
        assert game is not None and game.ended_at is not None


def _refused(database: Any, document: Any, kind: type[Exception] = Invalid) -> Any:
    """The import refused as ``kind``; nothing of a new event written."""
    with db.using(database):
        before = len(db.query("game_all_recent", 10_000)), club_nights.events_of_club("Lakemont")
        with pytest.raises(kind) as err:
            club_night_document.import_event(document)
        assert (len(db.query("game_all_recent", 10_000)), club_nights.events_of_club("Lakemont")) == before
    return err.value


def test_a_broken_deal_in_a_tables_game_is_refused_naming_it_within_the_table(database):
    with db.using(database):
        exported = club_night_document.export_event(_evening())
    broken = copy.deepcopy(exported)
    broken["rounds"][0]["tables"][0]["game"]["deals"][2]["deal"]["ending"] = "sideways"
    assert _refused(database, broken).field == "rounds[0].tables[0].game.deals[2].deal.ending"
    illegal = copy.deepcopy(exported)
    deal = illegal["rounds"][1]["tables"][0]["game"]["deals"][0]["deal"]
    deal["sides"][0]["melds"].append("J J 2 2 2")  # more wilds than naturals, with no as-played reason
    for entry in illegal["rounds"][1]["tables"][0]["game"]["deals"][0]["history"]:
        entry["after"] = deal
    refused = _refused(database, illegal, ImportRefused)
    assert refused.field == "rounds[1].tables[0].game.deals[0]" and refused.number == 1


@pytest.mark.parametrize(("change", "field"), [
    (lambda d: d.update(format="scorepad.game"), "format"),
    (lambda d: d["plan"].update(rounds=1), "rounds"),
    (lambda d: d["plan"].update(ranking="luck"), "plan.ranking"),
    (lambda d: d["players"].append("ann"), "players[9]"),
    (lambda d: d["rounds"][0]["tables"][0]["seats"][0].__setitem__(1, "Zed"), "rounds[0].tables[0].seats[0][1]"),
    (lambda d: d["rounds"][0]["tables"][1]["seats"][1].__setitem__(0, d["rounds"][0]["tables"][0]["seats"][0][0]),
     "rounds[0].tables[1].seats[1][0]"),
    (lambda d: d["rounds"][1].update(number=3), "rounds[1].number"),
    (lambda d: d["rounds"][0].update(tables=d["rounds"][0]["tables"] * (MAX_EVENT_TABLES // 2 + 1)),
     "rounds[0].tables"),  # two tables a round: past the bound
    (lambda d: d["rounds"][1]["tables"][0]["game"]["sides"].reverse(), "rounds[1].tables[0].game.sides[0].players"),
    (lambda d: d["rounds"][0]["tables"][0].update(closed_at="tonight"), "rounds[0].tables[0].closed_at"),
])
def test_a_broken_document_is_refused_naming_the_field(database, change, field):
    with db.using(database):
        broken = club_night_document.export_event(_evening())
    change(broken)
    assert _refused(database, broken).field == field


def test_an_import_that_fails_while_writing_leaves_nothing_of_the_new_event(database):
    """The last table's game too large to keep (Full, at write time): every game written
    before it in the event's one transaction is rolled back with it."""
    with db.using(database):
        exported = club_night_document.export_event(_evening())
    game = exported["rounds"][1]["tables"][0]["game"]
    (played,) = game["deals"]
    entry = {"action": "edit", "at": played["history"][0]["at"], "before": played["deal"], "after": played["deal"],
             "old_totals": None, "new_totals": None, "reason": "x" * MAX_REASON, "entered_by": None}
    played["history"] += [entry] * (MAX_GAME_BYTES // 1000)
    for item in [*game["deals"], *game["deleted_deals"]]:
        for each in item["history"]:
            each.pop("seq", None)
    for amendment in game["amendments"]:
        amendment.pop("seq", None)
    refused = _refused(database, exported, Full)
    assert refused.field == "rounds[1].tables[0].game"


def test_a_document_past_its_bound_is_refused_before_it_is_read():
    with pytest.raises(Invalid, match="imports at most"):
        club_night_document.parse_event_text("x" * (MAX_EVENT_IMPORT_BYTES + 1), "document")


def test_the_clubs_ladder_reads_every_event_of_the_club(database):
    with db.using(database):
        event = _evening()
        _evening(club="Elsewhere")
        rows = {row.name: row for row in club_ladder.club_ladder("Lakemont")}
        assert set(rows) == set(PLAYERS)
        first, second = event.rounds[0].tables
        # Round 1: the first table's side 0 out in 3 deals of its 4 (3,170 to 1,070, over); the
        # second table closed after side 1 went out (1,055 to 5). Round 2 still playing: no win.
        assert {name for name, row in rows.items() if row.wins} == {*first.sides[0], *second.sides[1]}
        assert sum(r.wins for r in rows.values()) == 4
        assert sum(r.deals for r in rows.values()) == 4 * (4 + 1 + 1)  # four players a deal
        assert sum(r.points for r in rows.values()) == 6 * 2 * (1055 + 5)  # each player her side's score
        assert sum(r.books for r in rows.values()) == 6 * 2 * 2  # two books a deal, counted for both partners
        assert sum(r.went_out for r in rows.values()) == 4 + 1 + 1
        assert all(r.events == 1 for r in rows.values())
        assert club_ladder.club_ladder("Nobody") == []
