"""A club night taken out and brought back as pages (issue 27, "after the evening"): the whole
event's export, the import page making a new event this browser organises, the club's season
ladder, and home listing the club nights this browser organises."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.backends

EVENT = {"name": "Tuesday club", "date": "2026-12-04", "club": "Lakemont", "format": "progressive", "rounds": "2",
         "players": "Ann #1042\nBen\nCy\nDi\nEd"}


def _event(client) -> str:
    made = client.post("/events/new", data=EVENT)
    assert made.status_code == 303, made.get_data(as_text=True)
    event_id = made.headers["Location"].rsplit("/", 1)[1]
    assert client.post(f"/events/{event_id}/rounds", data={}).status_code == 303
    return event_id


def test_the_export_is_the_whole_evening_and_the_import_a_new_event_this_phone_organises(client, app):
    event_id = _event(client)
    exported = client.get(f"/events/{event_id}/export.json")
    assert exported.status_code == 200 and exported.mimetype == "application/json"
    assert "attachment" in exported.headers["Content-Disposition"]
    document = json.loads(exported.get_data(as_text=True))
    assert len(document["rounds"]) == 1 and "organiser_key" not in json.dumps(document)
    other = app.test_client()
    imported = other.post("/events/import", data={"document": json.dumps(document)})
    assert imported.status_code == 303
    new_id = imported.headers["Location"].rsplit("/", 1)[1]
    assert new_id != event_id
    page = other.get(f"/events/{new_id}").get_data(as_text=True)
    assert "Start round 2" in page  # the organiser's actions: this phone organises it


def test_an_import_that_cannot_be_read_says_where(client):
    refused = client.post("/events/import", data={"document": '{"format": "scorepad.event", "version": 1}'})
    assert refused.status_code == 400
    assert "Where in the file" in refused.get_data(as_text=True)
    empty = client.post("/events/import", data={})
    assert empty.status_code == 400 and "hoose the exported file" in empty.get_data(as_text=True)


def test_the_clubs_ladder_lists_every_player_of_its_evenings(client):
    _event(client)
    page = client.get("/clubs/Lakemont/ladder")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    for name in ("Ann", "Ben", "Cy", "Di", "Ed"):
        assert f">{name}" in text
    assert "#1042" in text
    assert client.get("/clubs/Nowhere/ladder").status_code == 404


def test_home_lists_the_club_nights_this_phone_organises(client, viewer):
    event_id = _event(client)
    assert f"/events/{event_id}" in client.get("/").get_data(as_text=True)
    assert f"/events/{event_id}" not in viewer.get("/").get_data(as_text=True)
