"""The JSON API's club nights (``/api/v1/events``, scorepad.api.club_nights, issue 27): an event
created with its organiser key, read with its rounds, its next round's seats and its standings;
rounds started as one game per table, a deal recorded at a table with the organiser's key or the
table's own edit key, a table closed, an open round ended, the standings hidden from view links
until the end, the event deleted with its games; and what is refused: a table's key starting a
round, bad input naming the field, a stale revision. On SQLite and on PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest

from scorepad.rules.limits import MAX_EVENT_IMPORT_BYTES
from tests.api.test_openapi import assert_meets
from tests.helpers import assert_error_shape, bearer, dump

pytestmark = pytest.mark.backends

API = "/api/v1/events"
PLAYERS = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


def new_event(client, **changes: Any) -> dict[str, Any]:
    """A progressive evening of eight players (two tables), three rounds, through the API: its answer."""
    body = {"name": "Tuesday club", "date": "2026-12-04", "club": "Lakemont", "sheet": "common",
            "players": PLAYERS, "format": "progressive", "rounds": 3, **changes}
    made = client.post(API, json=body)
    assert made.status_code == 201, made.get_data(as_text=True)
    return made.get_json()


def table_deal(client, game_id: str, number: int = 1) -> dict[str, Any]:
    """A legal deal at a table's game (two sides of two): its first side goes out with two books."""
    sides = client.get(f"/api/v1/games/{game_id}").get_json()["sides"]
    out, other = sides
    return {"deal": number, "ending": "went_out", "went_out": out["players"][0], "sides": [
        {"name": out["name"], "melds": ["K K K K K K K", "Q Q Q Q Q 2 2"],
         "players": [{"name": p, "foot_picked_up": True, "cards_left": {}} for p in out["players"]]},
        {"name": other["name"], "melds": ["J J J"],
         "players": [{"name": p, "foot_picked_up": True, "cards_left": "A 3B"} for p in other["players"]]}]}


def start(client, event: dict[str, Any]) -> dict[str, Any]:
    started = client.post(f"{API}/{event['id']}/rounds", headers=bearer(event["organiser_key"]))
    assert started.status_code == 201, started.get_data(as_text=True)
    return started.get_json()


def test_a_new_event_answers_its_organiser_key_its_links_and_the_first_rounds_seats(client):
    made = client.post(API, json={"name": "Tuesday club", "date": "2026-12-04", "sheet": "common",
                                  "players": PLAYERS, "format": "progressive", "rounds": 3})
    assert made.status_code == 201
    body = made.get_json()
    assert made.headers["Location"] == body["event_url"] == f"http://localhost{API}/{body['id']}"
    assert made.headers["Cache-Control"] == "no-store"
    assert body["organiser_url"] == f"http://localhost/events/{body['id']}/organise/{body['organiser_key']}"
    assert body["board_url"] == f"http://localhost/events/{body['id']}/board"
    assert (body["name"], body["date"], body["club"], body["revision"], body["rounds"]) == \
        ("Tuesday club", "2026-12-04", None, 0, [])
    assert body["plan"]["format"] == "progressive" and body["plan"]["tie_break"].startswith("most wins")
    assert "average of that round's winners" in body["plan"]["bye"]
    assert [p["name"] for p in body["players"]] == PLAYERS
    preview = body["next_round"]
    assert preview["number"] == 1 and len(preview["tables"]) == 2 and preview["byes"] == []
    assert preview["waiting_for"] == [] and preview["problem"] is None
    assert sorted(name for t in preview["tables"] for side in t["sides"] for name in side) == sorted(PLAYERS)


def test_the_event_as_anyone_reads_it_holds_no_key(client):
    event = new_event(client)
    start(client, event)
    read = client.get(f"{API}/{event['id']}")
    assert read.status_code == 200
    body = read.get_json()
    assert "organiser_key" not in body and "edit_key" not in str(body)
    (first,) = body["rounds"]
    table = first["tables"][0]
    assert table["game_url"] == f"http://localhost/api/v1/games/{table['game_id']}"
    assert table["view_url"] == f"http://localhost/games/{table['game_id']}"
    assert (table["finished"], table["closed_at"], table["totals"]) == (False, None, [0, 0])
    assert body["next_round"]["waiting_for"] == [1, 2]
    organiser = client.get(f"{API}/{event['id']}", headers=bearer(event["organiser_key"])).get_json()
    assert organiser["rounds"][0]["tables"][0]["edit_url"].startswith(f"http://localhost/games/{table['game_id']}/edit/")


def test_starting_a_round_makes_one_game_a_table_with_the_previews_seats(client):
    event = new_event(client)
    started = start(client, event)
    (first,) = started["rounds"]
    assert [t["sides"] for t in first["tables"]] == [t["sides"] for t in event["next_round"]["tables"]]
    assert started["revision"] == 1 and started["next_round"]["number"] == 2
    game = client.get(first["tables"][0]["game_url"]).get_json()
    assert [side["players"] for side in game["sides"]] == first["tables"][0]["sides"]
    assert game["name"] == "Tuesday club: round 1, table 1"


def test_a_deal_is_recorded_at_a_table_with_the_organisers_key_or_the_tables_own(client):
    event = new_event(client)
    tables = start(client, event)["rounds"][0]["tables"]
    one, two = tables[0], tables[1]
    by_organiser = client.post(f"/api/v1/games/{one['game_id']}/deals", json=table_deal(client, one["game_id"]),
                               headers=bearer(event["organiser_key"]))
    assert by_organiser.status_code == 201, by_organiser.get_data(as_text=True)
    by_table = client.post(f"/api/v1/games/{two['game_id']}/deals", json=table_deal(client, two["game_id"]),
                           headers=bearer(two["edit_key"]))
    assert by_table.status_code == 201, by_table.get_data(as_text=True)
    read = client.get(f"{API}/{event['id']}").get_json()
    totals = [t["totals"] for t in read["rounds"][0]["tables"]]
    assert all(first > second for first, second in totals)
    overall = read["standings"]["overall"]
    assert [s["points"] for s in overall] == sorted((s["points"] for s in overall), reverse=True)


def test_a_tables_edit_key_cannot_start_a_round_nor_change_the_event(client):
    event = new_event(client)
    table = start(client, event)["rounds"][0]["tables"][0]
    for method, path in (("POST", "/rounds"), ("POST", "/players"), ("POST", "/rounds/1/tables/1/close"),
                         ("POST", "/rounds/1/end"), ("DELETE", "")):
        refused = client.open(f"{API}/{event['id']}{path}", method=method, headers=bearer(table["edit_key"]),
                              json={"players": ["Ivy"]} if path == "/players" else None)
        assert_error_shape(refused, 403, None)
        assert refused.headers["WWW-Authenticate"] == 'Bearer error="insufficient_scope"'
    assert_error_shape(client.post(f"{API}/{event['id']}/rounds"), 401, None)
    assert client.get(f"{API}/{event['id']}").get_json()["revision"] == 1


def test_the_next_round_waits_for_every_table_then_a_closed_table_counts_as_played(client):
    event = new_event(client)
    start(client, event)
    key = bearer(event["organiser_key"])
    waiting = client.post(f"{API}/{event['id']}/rounds", headers=key)
    assert "tables 1, 2 of round 1 are still playing" in assert_error_shape(waiting, 400, "round")["message"]
    closed = client.post(f"{API}/{event['id']}/rounds/1/tables/1/close", headers=key)
    assert closed.status_code == 200
    table = closed.get_json()["rounds"][0]["tables"][0]
    assert table["finished"] and table["closed_at"]
    assert closed.get_json()["next_round"]["waiting_for"] == [2]
    assert_error_shape(client.post(f"{API}/{event['id']}/rounds/1/tables/9/close", headers=key), 404, "table")
    client.post(f"{API}/{event['id']}/rounds/1/tables/2/close", headers=key)
    second = client.post(f"{API}/{event['id']}/rounds", headers=key)
    assert second.status_code == 201 and len(second.get_json()["rounds"]) == 2


def test_an_open_round_is_ended_by_the_organiser_and_its_tables_games_are_over(client):
    event = new_event(client, round_length="open", rounds=1)
    tables = start(client, event)["rounds"][0]["tables"]
    for table in tables:
        client.post(f"/api/v1/games/{table['game_id']}/deals", json=table_deal(client, table["game_id"]),
                    headers=bearer(event["organiser_key"]))
    key = bearer(event["organiser_key"])
    assert_error_shape(client.post(f"{API}/{event['id']}/rounds/2/end", headers=key), 404, "round")
    ended = client.post(f"{API}/{event['id']}/rounds/1/end", headers=key)
    assert ended.status_code == 200, ended.get_data(as_text=True)
    body = ended.get_json()
    assert all(t["finished"] for t in body["rounds"][0]["tables"])
    assert body["over"] and body["standings"]["final"] and body["next_round"] is None
    game = client.get(f"/api/v1/games/{tables[0]['game_id']}").get_json()
    assert game["over"]


def test_hidden_standings_are_shown_to_the_organiser_alone_until_the_end(client):
    event = new_event(client, standings="hidden", rounds=1)
    start(client, event)
    seen = client.get(f"{API}/{event['id']}/standings").get_json()
    assert (seen["hidden"], seen["final"], seen["overall"], seen["by_round"]) == (True, False, None, None)
    assert client.get(f"{API}/{event['id']}").get_json()["standings"]["overall"] is None
    organiser = client.get(f"{API}/{event['id']}/standings", headers=bearer(event["organiser_key"])).get_json()
    assert organiser["hidden"] and len(organiser["overall"]) == len(PLAYERS) and len(organiser["by_round"]) == 1
    key = bearer(event["organiser_key"])
    for table in (1, 2):
        client.post(f"{API}/{event['id']}/rounds/1/tables/{table}/close", headers=key)
    final = client.get(f"{API}/{event['id']}/standings").get_json()
    assert (final["hidden"], final["final"], len(final["overall"])) == (False, True, len(PLAYERS))


def test_late_arrivals_join_the_roster_for_the_next_round(client):
    event = new_event(client)
    added = client.post(f"{API}/{event['id']}/players", json={"players": ["Ivy", {"name": "Jon", "member": "1042"}],
                                                             "revision": 0}, headers=bearer(event["organiser_key"]))
    assert added.status_code == 200, added.get_data(as_text=True)
    body = added.get_json()
    assert body["players"][-1] == {"name": "Jon", "member": "1042"} and body["revision"] == 1
    preview = body["next_round"]
    assert len(preview["byes"]) == 2  # ten players, two tables


def test_deleting_the_event_takes_its_games_which_then_answer_410(client):
    event = new_event(client)
    table = start(client, event)["rounds"][0]["tables"][0]
    deleted = client.delete(f"{API}/{event['id']}", headers=bearer(event["organiser_key"]))
    assert deleted.status_code == 204 and deleted.get_data() == b""
    assert_error_shape(client.get(f"/api/v1/games/{table['game_id']}"), 410, None)
    missing = client.get(f"{API}/{event['id']}")
    assert "no event with this id" in assert_error_shape(missing, 404, None)["message"]


@pytest.mark.parametrize(("body", "field"), [
    ({"date": "2026-12-04", "players": PLAYERS, "format": "progressive", "rounds": 3}, "name"),
    ({"name": "N" * 41, "players": PLAYERS, "format": "progressive", "rounds": 3}, "name"),
    ({"name": "Club", "players": PLAYERS, "format": "progressive", "rounds": 13}, "rounds"),
    ({"name": "Club", "players": PLAYERS, "format": "swiss", "rounds": 3}, "format"),
    ({"name": "Club", "players": PLAYERS, "format": "progressive", "rounds": 3, "date": "4 December"}, "date"),
    ({"name": "Club", "players": [*PLAYERS, "ann"], "format": "progressive", "rounds": 3}, "players[8]"),
    ({"name": "Club", "players": [{"name": "Ann", "member": "9" * 21}, *PLAYERS[1:]], "format": "progressive",
      "rounds": 3}, "players[0].member"),
    ({"name": "Club", "players": PLAYERS, "format": "partners", "rounds": 3, "partnerships": [["Ann", "Zed"]]},
     "partnerships[0][1]"),
    ({"name": "Club", "players": PLAYERS, "format": "progressive", "rounds": 3, "tables": 2}, "tables"),
    ({"name": "Club", "players": PLAYERS, "format": "progressive", "rounds": 3, "partnerships": 0}, "partnerships"),
])
def test_a_new_event_that_cannot_be_read_is_a_400_naming_the_field(client, body, field):
    assert_error_shape(client.post(API, json=body), 400, field)


def test_late_arrivals_that_cannot_be_read_are_a_400_naming_the_field(client):
    event = new_event(client)
    refused = client.post(f"{API}/{event['id']}/players", json={"players": ["Ann"]},
                          headers=bearer(event["organiser_key"]))
    assert_error_shape(refused, 400, "players[0]")


def test_a_write_based_on_a_stale_revision_is_a_409_with_the_revision_now(client):
    event = new_event(client)
    start(client, event)
    stale = client.post(f"{API}/{event['id']}/rounds/1/tables/1/close", json={"revision": 0},
                        headers=bearer(event["organiser_key"]))
    assert "the event changed" in assert_error_shape(stale, 409, "revision")["message"]
    assert (stale.get_json()["revision"], stale.get_json()["changes"]) == (1, [])
    assert client.get(f"{API}/{event['id']}").get_json()["rounds"][0]["tables"][0]["closed_at"] is None


def test_an_unknown_event_is_a_404_saying_so(client):
    for method, path in (("GET", ""), ("GET", "/standings"), ("POST", "/rounds"), ("DELETE", "")):
        missing = client.open(f"{API}/nosuchevent{path}", method=method, headers=bearer("k"))
        assert "no event with this id" in assert_error_shape(missing, 404, None)["message"]


def test_a_new_event_with_an_idempotency_key_is_made_once(client):
    body = {"name": "Tuesday club", "players": PLAYERS, "format": "progressive", "rounds": 3}
    first = client.post(API, json=body, headers={"Idempotency-Key": "evening-1"})
    again = client.post(API, json=body, headers={"Idempotency-Key": "evening-1"})
    assert first.status_code == again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json()["id"] == first.get_json()["id"]
    assert again.get_json()["organiser_key"] == first.get_json()["organiser_key"]


def test_a_rounds_tables_count_as_one_create_against_the_rate_limit(make_app):
    client = make_app(RATELIMIT_ENABLED=True, LIMIT_CREATE="3 per minute").test_client()
    event = new_event(client)  # one
    started = start(client, event)  # two, for both tables
    assert len(started["rounds"][0]["tables"]) == 2
    assert client.post("/api/v1/games", json={"name": "Friday", "sheet": "common", "sides": [
        {"name": "Ann", "players": ["Ann"]}, {"name": "Bea", "players": ["Bea"]}]}).status_code == 201  # three
    refused = client.post(API, json={"name": "Wednesday", "players": PLAYERS, "format": "progressive", "rounds": 1})
    assert_error_shape(refused, 429, None)
    assert "Retry-After" in refused.headers


def test_the_events_answers_meet_their_documented_schemas(client):
    doc = client.get("/api/v1/openapi.json").get_json()
    made = client.post(API, json={"name": "Tuesday club", "players": PLAYERS, "format": "progressive", "rounds": 1,
                                  "standings": "hidden"})
    assert_meets(doc, "/api/v1/events", "post", made)
    event = made.get_json()
    key = bearer(event["organiser_key"])
    started = client.post(f"{API}/{event['id']}/rounds", headers=key)
    assert_meets(doc, "/api/v1/events/{event_id}/rounds", "post", started)
    table = started.get_json()["rounds"][0]["tables"][0]
    client.post(f"/api/v1/games/{table['game_id']}/deals", json=table_deal(client, table["game_id"]), headers=key)
    for response, path in ((client.get(f"{API}/{event['id']}"), "/api/v1/events/{event_id}"),
                           (client.get(f"{API}/{event['id']}", headers=key), "/api/v1/events/{event_id}"),
                           (client.get(f"{API}/{event['id']}/standings"), "/api/v1/events/{event_id}/standings")):
        assert_meets(doc, path, "get", response)
    closed = client.post(f"{API}/{event['id']}/rounds/1/tables/1/close", headers=key)
    assert_meets(doc, "/api/v1/events/{event_id}/rounds/{number}/tables/{table}/close", "post", closed)
    ended = client.post(f"{API}/{event['id']}/rounds/1/end", headers=key)
    assert_meets(doc, "/api/v1/events/{event_id}/rounds/{number}/end", "post", ended)
    stale = client.post(f"{API}/{event['id']}/players", json={"players": ["Ivy"], "revision": 0}, headers=key)
    assert_meets(doc, "/api/v1/events/{event_id}/players", "post", stale)


# -- export, import and the season ladder (scorepad.api.club_night_exchange) ----------------------------


def played_evening(client) -> dict[str, Any]:
    """``new_event``'s evening with its first round played: a deal at each table (the first side
    wins), both tables closed; the organiser's answer to the last write."""
    event = new_event(client)
    tables = start(client, event)["rounds"][0]["tables"]
    key = bearer(event["organiser_key"])
    for table in tables:
        recorded = client.post(f"/api/v1/games/{table['game_id']}/deals", json=table_deal(client, table["game_id"]),
                               headers=key)
        assert recorded.status_code == 201, recorded.get_data(as_text=True)
    for table in (1, 2):
        closed = client.post(f"{API}/{event['id']}/rounds/1/tables/{table}/close", headers=key)
        assert closed.status_code == 200, closed.get_data(as_text=True)
    return {**closed.get_json(), "organiser_key": event["organiser_key"]}


def exported(client, event_id: str) -> dict[str, Any]:
    answer = client.get(f"{API}/{event_id}/export")
    assert answer.status_code == 200 and answer.mimetype == "application/json"
    assert answer.headers["Content-Disposition"].startswith('attachment; filename="Tuesday club - scorepad.json"')
    return answer.get_json()


def test_an_export_imported_is_a_new_event_with_the_same_rounds_and_standings(client):
    evening = played_evening(client)
    document = exported(client, evening["id"])
    assert document["format"] == "scorepad.event" and len(document["rounds"]) == 1
    assert evening["organiser_key"] not in str(document) and "edit_key" not in str(document)
    imported = client.post(f"{API}/import", json=document)
    assert imported.status_code == 201, imported.get_data(as_text=True)
    made = imported.get_json()
    assert made["id"] != evening["id"] and made["organiser_key"] != evening["organiser_key"]
    assert imported.headers["Location"] == made["event_url"] == f"http://localhost{API}/{made['id']}"
    assert imported.headers["Cache-Control"] == "no-store"
    assert made["organiser_url"] == f"http://localhost/events/{made['id']}/organise/{made['organiser_key']}"
    assert made["standings"]["overall"] == evening["standings"]["overall"]
    assert made["standings"]["by_round"] == evening["standings"]["by_round"]
    old, new = evening["rounds"][0], made["rounds"][0]
    assert [(t["sides"], t["totals"], t["finished"]) for t in new["tables"]] == \
        [(t["sides"], t["totals"], t["finished"]) for t in old["tables"]]
    assert not {t["game_id"] for t in new["tables"]} & {t["game_id"] for t in old["tables"]}
    assert made["next_round"]["number"] == 2 and made["next_round"]["waiting_for"] == []
    started = start(client, made)  # the organiser key of the import runs the new event
    assert len(started["rounds"]) == 2


def test_the_export_of_an_import_is_the_same_document(client):
    evening = played_evening(client)
    document = exported(client, evening["id"])
    made = client.post(f"{API}/import", json=document).get_json()
    again = exported(client, made["id"])

    def timeless(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: timeless(v) for k, v in value.items() if k != "exported_at"}
        return [timeless(v) for v in value] if isinstance(value, list) else value
    assert timeless(again) == timeless(document)


def test_an_import_with_an_idempotency_key_is_made_once_and_counts_as_one_create(make_app):
    app = make_app(RATELIMIT_ENABLED=True, LIMIT_CREATE="5 per minute")
    client = app.test_client()
    event = new_event(client)  # one
    start(client, event)  # two: a round, however many tables
    document = exported(client, event["id"])
    first = client.post(f"{API}/import", json=document, headers={"Idempotency-Key": "import-1"})  # three
    before = dump(app.config["DATABASE"])
    again = client.post(f"{API}/import", json=document, headers={"Idempotency-Key": "import-1"})  # four, a replay
    assert dump(app.config["DATABASE"]) == before  # no second event, no more games
    assert first.status_code == again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert (again.get_json()["id"], again.get_json()["organiser_key"]) == \
        (first.get_json()["id"], first.get_json()["organiser_key"])
    assert client.get(f"{API}/{first.get_json()['id']}").status_code == 200
    assert client.post(f"{API}/import", json=document).status_code == 201  # five: its two games count as one
    assert_error_shape(client.post(f"{API}/import", json=document), 429, None)


@pytest.mark.parametrize(("change", "field"), [
    (lambda d: d.update(format="scorepad.game"), "format"),
    (lambda d: d.update(version=2), "version"),
    (lambda d: d.update(tables=2), "tables"),
    (lambda d: d.pop("players"), "players"),
    (lambda d: d["plan"].update(rounds=13), "plan.rounds"),
    (lambda d: d["players"].append({"name": "ann", "member": None}), "players[8]"),
    (lambda d: d.update(partnerships=0), "partnerships"),
    (lambda d: d.update(rounds=0), "rounds"),
    (lambda d: d["rounds"][0].update(number=2), "rounds[0].number"),
    (lambda d: d["rounds"][0]["tables"][1]["seats"][0].__setitem__(0, "Zed"), "rounds[0].tables[1].seats[0][0]"),
    (lambda d: d["rounds"][0]["tables"][1]["seats"][0].__setitem__(0, "Cat"), "rounds[0].tables[1].seats[0][0]"),
    (lambda d: d["rounds"][0]["tables"][0]["game"].update(name="N" * 41), "rounds[0].tables[0].game.name"),
    (lambda d: d["rounds"][0]["tables"][0]["game"]["deals"][0]["deal"]["sides"][0]["melds"].__setitem__(
        0, {"rank": "K", "naturals": "7"}), "rounds[0].tables[0].game.deals[0].deal.sides[0].melds[0].naturals"),
])
def test_a_document_that_cannot_be_read_is_a_400_naming_the_field_and_nothing_is_saved(app, client, change, field):
    document = exported(client, played_evening(client)["id"])
    change(document)
    before = dump(app.config["DATABASE"])
    assert_error_shape(client.post(f"{API}/import", json=document), 400, field)
    assert dump(app.config["DATABASE"]) == before


def test_a_tables_deal_the_referee_will_not_let_in_is_a_422_naming_the_tables_game_and_the_deal(app, client):
    document = exported(client, played_evening(client)["id"])
    deal = document["rounds"][0]["tables"][1]["game"]["deals"][0]["deal"]
    deal["sides"][1]["melds"] = ["A A 2 2"]
    before = dump(app.config["DATABASE"])
    refused = client.post(f"{API}/import", json=document)
    error = assert_error_shape(refused, 422, "rounds[0].tables[1].game.deals[0]")
    assert "deal 1" in error["message"]
    body = refused.get_json()
    assert body["type"] == "/api/v1/problems/import-refused" and (body["number"], body["deal"]) == (1, 1)
    assert body["problems"] and body["problems"][0]["code"] == "meld.wild_ratio"
    assert dump(app.config["DATABASE"]) == before


def test_a_body_past_the_event_import_bound_is_a_413(client):
    refused = client.post(f"{API}/import", data="x" * (MAX_EVENT_IMPORT_BYTES + 1), content_type="application/json")
    assert f"{MAX_EVENT_IMPORT_BYTES // 1024:,} KB" in assert_error_shape(refused, 413, None)["message"]


def test_the_import_path_is_the_imports_alone(client):
    for method in ("GET", "DELETE"):
        refused = client.open(f"{API}/import", method=method, headers=bearer("k"))
        assert_error_shape(refused, 405, None)
        assert set(refused.headers["Allow"].split(", ")) == {"OPTIONS", "POST"}


def test_the_ladder_lists_the_clubs_players_with_their_figures_across_its_events(client):
    evening = played_evening(client)
    other = new_event(client, club="Elsewhere")
    start(client, other)
    ladder = client.get("/api/v1/clubs/Lakemont/ladder")
    assert ladder.status_code == 200 and ladder.headers["Cache-Control"] == "no-cache"
    body = ladder.get_json()
    assert body["club"] == "Lakemont" and sorted(row["name"] for row in body["players"]) == sorted(PLAYERS)
    winners = {side for table in evening["rounds"][0]["tables"] for side in table["sides"][0]}
    first = [row for row in body["players"] if row["place"] == 1]
    assert {row["name"] for row in first} == winners
    assert all((row["events"], row["games"], row["wins"], row["deals"]) == (1, 1, 1, 1) for row in first)
    assert all(row["wins"] == 0 and row["points"] < 0 for row in body["players"] if row["name"] not in winners)
    client.post(f"{API}/import", json=exported(client, evening["id"]))  # the same evening again, of the club
    again = {row["name"]: row for row in client.get("/api/v1/clubs/Lakemont/ladder").get_json()["players"]}
    assert all((row["events"], row["games"]) == (2, 2) for row in again.values())


@pytest.mark.parametrize("path", [f"{API}/nosuchevent/export", "/api/v1/clubs/Nowhere/ladder",
                                  "/api/v1/clubs/lakemont/ladder", f"/api/v1/clubs/{'L' * 41}/ladder",
                                  "/api/v1/clubs/Lake%00mont/ladder"])
def test_an_unknown_event_or_a_club_with_no_event_is_a_404(client, path):
    new_event(client)
    missing = assert_error_shape(client.get(path), 404, None)
    assert "no event with this id" in missing["message"] or "no club night of this club" in missing["message"]


def test_the_exchanges_answers_meet_their_documented_schemas(client):
    doc = client.get("/api/v1/openapi.json").get_json()
    evening = played_evening(client)
    export = client.get(f"{API}/{evening['id']}/export")
    assert_meets(doc, "/api/v1/events/{event_id}/export", "get", export)
    assert_meets(doc, "/api/v1/events/import", "post", client.post(f"{API}/import", json=export.get_json()))
    assert_meets(doc, "/api/v1/clubs/{club}/ladder", "get", client.get("/api/v1/clubs/Lakemont/ladder"))


def test_an_entrant_leaves_the_evening_through_the_api_and_comes_back(client):
    made = client.post("/api/v1/events", json={"name": "Tuesday", "format": "progressive", "rounds": 2,
                                                "players": ["Ann", "Ben", "Cat", "Dan", "Eve"]})
    assert made.status_code == 201
    event_id, key = made.get_json()["id"], made.get_json()["organiser_key"]
    url = f"/api/v1/events/{event_id}/leaving"
    assert client.post(url, json={"name": "eve"}).status_code == 401
    left = client.post(url, json={"name": "eve", "revision": 0}, headers={"Authorization": f"Bearer {key}"})
    assert left.status_code == 200, left.get_json()
    assert left.get_json()["withdrawn"] == ["Eve"]
    seated = {name for t in left.get_json()["next_round"]["tables"] for side in t["sides"] for name in side}
    assert "Eve" not in seated and "Eve" not in left.get_json()["next_round"]["byes"]
    refused = client.post(url, json={"name": "Ann"}, headers={"Authorization": f"Bearer {key}"})
    assert refused.status_code == 400 and refused.get_json()["field"] == "name"  # three left: no table
    back = client.post(url, json={"name": "Eve", "gone": False}, headers={"Authorization": f"Bearer {key}"})
    assert back.status_code == 200 and back.get_json()["withdrawn"] == []
    bad = client.post(url, json={"name": "Eve", "gone": "yes"}, headers={"Authorization": f"Bearer {key}"})
    assert bad.status_code == 400 and bad.get_json()["field"] == "gone"
    nobody = client.post(url, json={"name": "Zed"}, headers={"Authorization": f"Bearer {key}"})
    assert nobody.status_code == 404 and nobody.get_json()["field"] == "name"


@pytest.mark.backends
def test_the_organiser_and_the_tables_phone_sending_one_deal_write_it_once(client):
    """The organiser's phone and the table's phone both send deal 1 of a table, based on one revision:
    one is saved, the other is told it was recorded meanwhile (or is stale); the game holds it once."""
    event = new_event(client)
    table = start(client, event)["rounds"][0]["tables"][0]
    url = f"/api/v1/games/{table['game_id']}/deals"
    deal = {**table_deal(client, table["game_id"]), "revision": 0}
    first = client.post(url, json=deal, headers=bearer(event["organiser_key"]))
    second = client.post(url, json=deal, headers=bearer(table["edit_key"]))
    assert first.status_code == 201, first.get_data(as_text=True)
    assert second.status_code in (200, 409), second.get_data(as_text=True)
    game = client.get(f"/api/v1/games/{table['game_id']}").get_json()
    assert [d["number"] for d in game["deals"]] == [1]
    history = client.get(f"/api/v1/games/{table['game_id']}/history").get_json()
    assert [e["action"] for e in history["history"] if e.get("number") == 1].count("record") == 1
