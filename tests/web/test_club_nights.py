"""A club night through its pages (the Flask test client, a real database): created through the
form (an error shown beside the field it names, with everything typed kept), the organiser link
(once, and a wrong key refused), the organiser's page against a viewer's, "Start round N+1"
refused while a table still plays and allowed once it is closed, a stale page answered 409,
late arrivals, deleting the event, and the wall board with its standings or the hidden notice."""

from __future__ import annotations

import re
from typing import Any

import pytest

from scorepad.storage import club_nights, reading
from tests.helpers import form_fields, text_of

pytestmark = pytest.mark.backends

PLAYERS = "Ann #1042\nBen\nCy\n\nDi\nEd\nFay\nGus\nHal\nIvy"


def new_event(client, **fields: str):
    """The new-event form, as a browser sends it (the form's own defaults, then ``fields``)."""
    data = form_fields(client.get("/events/new").get_data(as_text=True), "/events/new")
    data.update({"name": "Tuesday", "players": PLAYERS, "rounds": "3", **fields})
    return client.post("/events/new", data=data)


def made(client, **fields: str) -> str:
    response = new_event(client, **fields)
    assert response.status_code == 303, text_of(response.get_data(as_text=True))[:600]
    return response.headers["Location"].rsplit("/", 1)[1]


def page_of(client, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, (url, response.status_code)
    return response.get_data(as_text=True)


def errors_of(page: str) -> dict[str, str]:
    """Each error beside a box: the box's id, its message."""
    return {box: text_of(message).strip() for box, message in
            re.findall(r'<p class="error" id="(ev-[\w]+)-error">(.*?)</p>', page)}


def post_form(client, page_url: str, action: str, **extra: str):
    """The form to ``action`` on the page at ``page_url``, sent as shown (its revision too)."""
    fields: dict[str, Any] = form_fields(page_of(client, page_url), action)
    fields.update(extra)
    return client.post(action, data=fields)


def start(client, event_id: str):
    return post_form(client, f"/events/{event_id}/rounds/next", f"/events/{event_id}/rounds")


def test_the_home_page_links_to_running_a_club_night(client):
    assert 'href="/events/new"' in page_of(client, "/")
    assert "Run a club night" in page_of(client, "/")


def test_the_new_event_form_starts_from_today_and_the_common_sheet(client):
    page = page_of(client, "/events/new")
    fields = form_fields(page, "/events/new")
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", fields["date"]) and fields["preset"] == "common"
    assert fields["opt-hand_size"] == "11"  # every option of the sheet, in its editor
    assert fields["format"] == "progressive" and fields["bye_score"] == "winners_average"


def test_an_event_made_through_the_form_is_kept_with_its_roster_and_plan(app, client):
    event_id = made(client, club="Riverside", ranking="points", bye_score="fixed", bye_points="500",
                    standings="hidden", round_length="open", movement="generic")
    with app.app_context():
        event = club_nights.load_event(event_id)
    assert event is not None and event.name == "Tuesday" and event.club == "Riverside"
    assert [e.name for e in event.roster] == ["Ann", "Ben", "Cy", "Di", "Ed", "Fay", "Gus", "Hal", "Ivy"]
    assert event.roster[0].member == "1042"
    plan = event.plan.to_json()
    assert plan == {"format": "progressive", "movement": "generic", "rounds": 3, "round_length": "open",
                    "ranking": "points", "bye_score": 500, "standings": "hidden"}


def test_a_partners_event_reads_its_partnerships_one_a_line(app, client):
    event_id = made(client, format="partners", players="Ann\nBen\nCy\nDi", partnerships="Ann & Ben\nCy & Di")
    with app.app_context():
        event = club_nights.load_event(event_id)
    assert event is not None and event.entrants == ["Ann and Ben", "Cy and Di"]


@pytest.mark.parametrize(("fields", "box", "words"), [
    ({"name": ""}, "ev-name", "name"),
    ({"date": "31/12/2026"}, "ev-date", "date such as"),
    ({"rounds": "13"}, "ev-rounds", "1 to 12"),
    ({"rounds": "six"}, "ev-rounds", "1 to 12"),
    ({"bye_score": "fixed", "bye_points": "lots"}, "ev-bye_score", "points"),
    ({"players": "Ann\nBen\n\nAnn"}, "ev-players", "Line 4: 'Ann' is in the event already"),
    ({"players": "Ann\nBen"}, "ev-players", "at least four players"),
    ({"format": "partners", "players": "Ann\nBen\nCy\nDi", "partnerships": "Ann & Ben\nCy & Zed"},
     "ev-partnerships", "Line 2: 'Zed' is not on the event's roster"),
    ({"partnerships": "Ann & Ben"}, "ev-partnerships", "Only a partners event"),
])
def test_a_refused_event_names_its_field_beside_the_box_and_keeps_what_was_typed(client, fields, box, words):
    response = new_event(client, club="Riverside", **fields)
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    errors = errors_of(page)
    assert list(errors) == [box] and words in errors[box], errors
    assert f'href="#{box}"' in page  # the summary at the top links to the box
    kept = form_fields(page, "/events/new")
    assert kept["club"] == "Riverside" and kept["players"].strip() == fields.get("players", PLAYERS).strip()


def test_an_unknown_preset_is_refused_keeping_what_was_typed(client):
    response = new_event(client, club="Riverside", preset="nope")
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "There is no preset called &#39;nope&#39;" in page or "There is no preset called 'nope'" in page
    assert form_fields(page, "/events/new")["club"] == "Riverside"


def test_a_custom_sheet_is_every_tables_sheet(app, client):
    """The sheet editor's options, changed from the preset, are the sheet of every table's game."""
    event_id = made(client, preset="pagat", **{"opt-hand_size": "13"})
    with app.app_context():
        event = club_nights.load_event(event_id)
        assert event is not None and event.sheet.preset == "pagat" and event.sheet.hand_size == 13
    assert client.post(f"/events/{event_id}/rounds", data={}).status_code == 303
    with app.app_context():
        event = club_nights.load_event(event_id)
        game = reading.load_game(event.rounds[0].tables[0].game_id)
    assert game is not None and game.sheet.hand_size == 13


def test_the_organiser_link_is_shown_once_and_grants_the_event_to_another_browser(app, client):
    event_id = made(client)
    first = page_of(client, f"/events/{event_id}")
    link, = re.findall(r'href="(http://[^"]+/events/[^"]+/organise/[^"]+)"', first)
    assert "/organise/" not in page_of(client, f"/events/{event_id}")  # once
    other = app.test_client()
    assert "Close table" not in page_of(other, f"/events/{event_id}") and "Add players" not in page_of(
        other, f"/events/{event_id}")
    opened = other.get(link.split("localhost", 1)[1])
    assert opened.status_code == 303 and opened.headers["Location"] == f"/events/{event_id}"
    assert "Add players" in page_of(other, f"/events/{event_id}")


def test_a_wrong_organiser_key_is_a_403_page(client, viewer):
    event_id = made(client)
    response = viewer.get(f"/events/{event_id}/organise/not-the-key")
    assert response.status_code == 403 and response.mimetype == "text/html"
    assert "organiser link is not right" in response.get_data(as_text=True)
    assert page_of(viewer, "/events/nope", 404)


def test_the_organiser_sees_every_action_and_a_viewer_the_rounds_and_standings(app, client, viewer):
    event_id = made(client)
    assert start(client, event_id).status_code == 303
    organiser = page_of(client, f"/events/{event_id}")
    for words in ("Close table 1 as played", "Close table 2 as played", "Add players", "Start round 2",
                  "The wall board", "Delete the club night"):
        assert words in organiser, words
    for href in (f"/events/{event_id}/table-cards.pdf", f"/events/{event_id}/results.pdf",
                 f"/events/{event_id}/players.csv", f"/events/{event_id}/board"):
        assert f'href="{href}"' in organiser, href
    with app.app_context():
        event = club_nights.load_event(event_id)
    assert event is not None
    table = event.rounds[0].tables[0]
    assert f'href="/games/{table.game_id}"' in organiser
    watched = page_of(viewer, f"/events/{event_id}")
    seats = " and ".join(table.sides[0])
    assert seats in text_of(watched) and "Overall, as the tables stand" in watched
    for words in ("Close table", "Add players", "Start round", "Delete the club night", "/organise/"):
        assert words not in watched, words
    assert event.organiser_key not in watched
    for url in (f"/events/{event_id}/rounds/next", f"/events/{event_id}/delete"):
        assert viewer.get(url).status_code == 403
    assert viewer.post(f"/events/{event_id}/rounds", data={"revision": "1"}).status_code == 403
    assert viewer.post(f"/events/{event_id}/rounds/1/tables/1/close", data={}).status_code == 403


def test_the_organiser_edits_every_table_game_from_the_event(app, client, viewer):
    event_id = made(client)
    start(client, event_id)
    with app.app_context():
        event = club_nights.load_event(event_id)
    assert event is not None
    game_id = event.rounds[0].tables[1].game_id
    assert f"/games/{game_id}/deals/new" in page_of(client, f"/games/{game_id}")
    assert f"/games/{game_id}/deals/new" not in page_of(viewer, f"/games/{game_id}")


def test_the_next_round_shows_its_seats_and_is_refused_while_a_table_is_still_playing(client):
    event_id = made(client)
    preview = page_of(client, f"/events/{event_id}/rounds/next")
    assert "The seats of round 1" in preview and "Table 2" in preview and "Sitting out (bye)" in preview
    assert start(client, event_id).status_code == 303
    preview = page_of(client, f"/events/{event_id}/rounds/next")
    assert "2 tables still playing" in preview and "The seats of round 2" in preview
    assert "Close table 1 as played" in preview
    assert f'action="/events/{event_id}/rounds"' not in preview  # no start button while they play
    refused = client.post(f"/events/{event_id}/rounds", data={"revision": "1"})
    assert refused.status_code == 400
    assert "Tables 1, 2 of round 1 are still playing" in text_of(refused.get_data(as_text=True))


def test_closing_the_tables_lets_the_next_round_start(app, client):
    event_id = made(client)
    start(client, event_id)
    closed = post_form(client, f"/events/{event_id}/rounds/next", f"/events/{event_id}/rounds/1/tables/1/close")
    assert closed.status_code == 303 and closed.headers["Location"] == f"/events/{event_id}/rounds/next"
    preview = page_of(client, f"/events/{event_id}/rounds/next")
    assert "1 table still playing" in preview and "closed as played" in preview
    assert post_form(client, f"/events/{event_id}", f"/events/{event_id}/rounds/1/tables/2/close").status_code == 303
    assert start(client, event_id).status_code == 303
    with app.app_context():
        event = club_nights.load_event(event_id)
    assert event is not None and len(event.rounds) == 2


def test_an_open_round_is_ended_by_the_organiser(app, client):
    event_id = made(client, round_length="open")
    start(client, event_id)
    assert "End round 1" in page_of(client, f"/events/{event_id}")
    assert post_form(client, f"/events/{event_id}", f"/events/{event_id}/rounds/end").status_code == 303
    with app.app_context():
        event = club_nights.load_event(event_id)
        assert event is not None and club_nights.unfinished_tables(event) == []


def test_a_page_the_event_moved_past_is_answered_409_with_the_event_as_it_is(client):
    event_id = made(client)
    start(client, event_id)
    stale = form_fields(page_of(client, f"/events/{event_id}"), f"/events/{event_id}/rounds/1/tables/1/close")
    assert post_form(client, f"/events/{event_id}", f"/events/{event_id}/rounds/1/tables/2/close").status_code == 303
    response = client.post(f"/events/{event_id}/rounds/1/tables/1/close", data=stale)
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert "the event changed since this page was loaded" in page and "closed as played" in page


def test_late_arrivals_join_the_roster_and_a_refused_one_keeps_what_was_typed(app, client):
    event_id = made(client)
    added = post_form(client, f"/events/{event_id}", f"/events/{event_id}/players", players="Jo #77\nKim")
    assert added.status_code == 303
    with app.app_context():
        event = club_nights.load_event(event_id)
    assert event is not None and [e.name for e in event.roster][-2:] == ["Jo", "Kim"]
    refused = post_form(client, f"/events/{event_id}", f"/events/{event_id}/players", players="Lu\nann")
    assert refused.status_code == 400
    page = refused.get_data(as_text=True)
    assert "Line 2: 'ann' is in the event already" in errors_of(page)["ev-players"]
    assert form_fields(page, f"/events/{event_id}/players")["players"].strip() == "Lu\nann"


def test_deleting_the_event_asks_first_and_takes_its_games(app, client):
    event_id = made(client)
    start(client, event_id)
    with app.app_context():
        event = club_nights.load_event(event_id)
    assert event is not None
    asked = page_of(client, f"/events/{event_id}/delete")
    assert "every table's game (2 games)" in text_of(asked)
    assert post_form(client, f"/events/{event_id}/delete", f"/events/{event_id}/delete").status_code == 303
    assert client.get(f"/events/{event_id}").status_code == 404
    assert client.get(f"/games/{event.rounds[0].tables[0].game_id}").status_code == 410


def test_the_board_shows_the_round_the_tables_playing_and_the_standings(client, viewer):
    event_id = made(client)
    start(client, event_id)
    post_form(client, f"/events/{event_id}", f"/events/{event_id}/rounds/1/tables/1/close")
    board = page_of(viewer, f"/events/{event_id}/board")
    assert 'data-refresh="20"' in board and "board.js" in board  # refreshes itself every 20 s
    words = text_of(board)
    assert "Tuesday" in words and "Round 1 of 3" in words and "Still playing: table 2" in words
    assert "Overall" in words and "Ann" in words and "This round alone" in words
    assert "board.css" in board


def test_hidden_standings_show_on_the_board_and_to_viewers_as_a_notice(client, viewer):
    event_id = made(client, standings="hidden")
    start(client, event_id)
    board = text_of(page_of(viewer, f"/events/{event_id}/board"))
    assert "Standings are hidden until the end" in board and "Pts" not in board
    assert "hidden until the end of the evening" in text_of(page_of(viewer, f"/events/{event_id}"))
    assert "Overall, as the tables stand" in page_of(client, f"/events/{event_id}")  # the organiser sees them


@pytest.mark.parametrize("name", ["<script>alert(1)</script>", '"><img src=x onerror=alert(1)>'])
def test_names_that_look_like_markup_are_text_on_the_event_pages(client, name):
    event_id = made(client, name=name[:40], players=f"{name[:40]}\nBen\nCy\nDi")
    start(client, event_id)
    for url in (f"/events/{event_id}", f"/events/{event_id}/board", f"/events/{event_id}/rounds/next"):
        page = page_of(client, url)
        assert name[:40] not in page and name[:40] in text_of(page), url


def test_a_rounds_games_count_as_one_create_against_the_organisers_rate_limit(make_app):
    client = make_app(RATELIMIT_ENABLED=True, LIMIT_CREATE="2 per minute").test_client()
    event_id = made(client)  # one create
    assert start(client, event_id).status_code == 303  # its two tables' games: one create more
    assert new_event(client).status_code == 429


def test_a_tables_game_page_links_back_to_its_club_night(client):
    made = client.post("/events/new", data={"name": "Tuesday", "rounds": "1", "players": "Ann\nBen\nCy\nDi"})
    event_id = made.headers["Location"].rsplit("/", 1)[1]
    assert client.post(f"/events/{event_id}/rounds", data={}).status_code == 303
    page = client.get(f"/events/{event_id}").get_data(as_text=True)
    game_id = page.split("/games/", 1)[1].split('"', 1)[0].split("/", 1)[0]
    game_page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert f'href="/events/{event_id}"' in game_page
    assert "Delete this game" not in game_page  # a table goes only with its event


def test_a_player_who_leaves_is_marked_and_seated_no_more_and_may_come_back(client):
    made = client.post("/events/new", data={"name": "Tuesday", "rounds": "3", "players": "Ann\nBen\nCy\nDi\nEd"})
    event_id = made.headers["Location"].rsplit("/", 1)[1]
    left = client.post(f"/events/{event_id}/leaving", data={"name": "Ed", "gone": "1"})
    assert left.status_code == 303
    page = client.get(f"/events/{event_id}").get_data(as_text=True)
    assert "Ed leaves the evening" in page and "Ed is back" in page
    next_round = client.get(f"/events/{event_id}/rounds/next").get_data(as_text=True)
    assert "Ed" not in next_round.split("<main", 1)[1]  # neither seated nor sitting out
    back = client.post(f"/events/{event_id}/leaving", data={"name": "Ed", "gone": "0"})
    assert back.status_code == 303
    assert "Ed leaves" in client.get(f"/events/{event_id}").get_data(as_text=True)


def test_leaving_is_the_organisers_alone(client, viewer):
    made = client.post("/events/new", data={"name": "Tuesday", "rounds": "3", "players": "Ann\nBen\nCy\nDi\nEd"})
    event_id = made.headers["Location"].rsplit("/", 1)[1]
    assert viewer.post(f"/events/{event_id}/leaving", data={"name": "Ed"}).status_code == 403
