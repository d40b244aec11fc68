"""A club night on paper (issue 27): the table cards of a round (a page a table: its number, its
seats, the sheet, its game's edit link written out and as a QR code; the organiser's only), the
results (the plan, the standings, each round's tables, the recorder's line; one page where it
fits, and a 40-table evening on more pages without a table cut in two), and every player's
rounds as CSV. Real PDFs through the routes, their text read back with poppler's pdftotext; on
SQLite and on PostgreSQL."""

from __future__ import annotations

import csv
import io
import shutil
import subprocess
from pathlib import Path

import pytest
import segno
from PIL import Image

from scorepad.rules import preset
from scorepad.rules.club_night import EventPlan, Format, Standings, read_partnerships, read_roster
from scorepad.storage import club_nights, db, reading
from scorepad.storage.club_night_input import NewEvent
from scorepad.storage.club_nights import EventRecord
from tests.helpers import bearer

pytestmark = [pytest.mark.backends,
              pytest.mark.skipif(shutil.which("pdftotext") is None,
                                 reason="pdftotext (Debian package poppler-utils) is not installed")]

PLAYERS = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]
# One deal a game, so that a deal recorded finishes its table.
ONE_DEAL = preset("common").replace(deals=1)
SHEET = "Common rules (individuals or partnerships), 1 option changed"
# Round 1 of nine players by north_stays: (North, South) v (East, West) at each table, Ivy out.
SEATS = {1: (("Ann", "Ben"), ("Cat", "Dan")), 2: (("Eve", "Fay"), ("Gus", "Hal"))}


# -- helpers ---------------------------------------------------------------------------------------


def pages_text(body: bytes, tmp_path: Path) -> list[str]:
    """Each page's text as pdftotext lays it out, runs of spaces made one on every line."""
    source = tmp_path / "paper.pdf"
    source.write_bytes(body)
    out = subprocess.run(["pdftotext", "-layout", str(source), "-"], check=True, capture_output=True,
                         timeout=60).stdout.decode("utf-8")
    pages = out.split("\f")
    if pages and not pages[-1].strip():
        pages.pop()
    return ["\n".join(" ".join(line.split()) for line in page.splitlines() if line.strip()) for page in pages]


def flat(page: str) -> str:
    return " ".join(page.split())


def progressive(database, rounds: int = 1, players: list[str] = PLAYERS, **plan: object) -> EventRecord:
    """Tuesday club at Lakemont, progressive on the common sheet, its first round started."""
    with db.using(database):
        event = club_nights.create_event(NewEvent(
            "Tuesday club", "2026-12-04", "Lakemont", ONE_DEAL,
            EventPlan(Format.PROGRESSIVE, rounds, **plan), read_roster(players), ()))  # type: ignore[arg-type]
        return club_nights.start_round(event)


def partners(database) -> EventRecord:
    """Couples night: three partnerships (Cat with a member number), its first round started."""
    roster = read_roster(["Ann", {"name": "Cat", "member": "1042"}, "Ben", "Dan", "Eve", "Fay"])
    pairs = read_partnerships([["Ann", "Ben"], ["Cat", "Dan"], ["Eve", "Fay"]], roster)
    with db.using(database):
        event = club_nights.create_event(NewEvent("Couples", "2026-12-05", None, ONE_DEAL,
                                                  EventPlan(Format.PARTNERS, 3), roster, pairs))
        return club_nights.start_round(event)


def won_by_first_side(client, database, event: EventRecord, round_number: int, table: int) -> None:
    """One deal at the table, its first side going out: 1,060 to -20 on the common sheet, which
finishes its game."""
    found = next(t for t in event.rounds[round_number - 1].tables if t.number == table)
    with db.using(database):
        game = reading.load_game(found.game_id)
    assert game is not None
    (a, b) = game.sides
    deal = {"deal": 1, "ending": "went_out", "went_out": a["players"][0], "sides": [
        {"name": a["name"], "melds": ["K K K K K K K", "Q Q Q Q Q 2 2"],
         "players": [{"name": p, "foot_picked_up": True, "cards_left": {}} for p in a["players"]]},
        {"name": b["name"], "melds": ["J J J"],
         "players": [{"name": p, "foot_picked_up": True, "cards_left": "A 3B"} for p in b["players"]]}]}
    saved = client.post(f"/api/v1/games/{found.game_id}/deals", json=deal, headers=bearer(event.organiser_key))
    assert saved.status_code == 201, saved.get_json()


def played_evening(client, database) -> EventRecord:
    """Round 1 of Tuesday club over: table 1 played (N-S 1,060, E-W -20), table 2 closed as played at 0 all."""
    event = progressive(database)
    won_by_first_side(client, database, event, 1, 1)
    with db.using(database):
        return club_nights.close_table(club_nights.load_event(event.id), 1, 2)  # type: ignore[arg-type]


def edit_link(database, game_id: str) -> str:
    with db.using(database):
        game = reading.load_game(game_id)
    assert game is not None
    return f"http://localhost/games/{game_id}/edit/{game.edit_key}"


def pdf(client, path: str, key: str | None = None) -> bytes:
    response = client.get(path, headers=bearer(key) if key else {})
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    assert response.mimetype == "application/pdf" and response.data.startswith(b"%PDF-")
    return response.data


# -- table cards -----------------------------------------------------------------------------------


def test_each_table_card_is_a_page_with_its_number_seats_sheet_and_edit_link(client, database, tmp_path):
    event = progressive(database)
    pages = pages_text(pdf(client, f"/events/{event.id}/table-cards.pdf", event.organiser_key), tmp_path)
    assert len(pages) == 2
    for page, table in zip(pages, event.rounds[0].tables, strict=True):
        (north, south), (east, west) = SEATS[table.number]
        text = flat(page)
        assert text.startswith("Tuesday club Round 1 of 1 · 4 December 2026 · Lakemont Sheet: " + SHEET)
        assert f"Table {table.number} North {north}" in text
        assert f"West East {west} {east}" in text and f"South {south}" in text
        assert f"North-South: {north} and {south} v East-West: {east} and {west}" in text
        assert "Scan to score this table" in text
        assert f"Edit link: {edit_link(database, table.game_id)}" in text
        assert f"table {table.number} of 2" in text


def qr_modules(body: bytes, tmp_path: Path, page: int = 1) -> list[list[bool]]:
    """The QR code drawn in the card's lower left, read back from the page rendered by pdftoppm:
    its top-left corner is the first dark pixel down the page's left margin; its top-left finder
    pattern, 7 modules wide, gives the module's size; each module's centre is then sampled."""
    source = tmp_path / "card.pdf"
    source.write_bytes(body)
    subprocess.run(["pdftoppm", "-r", "200", "-gray", "-png", "-f", str(page), "-l", str(page), str(source),
                    str(tmp_path / f"card{page}")], check=True, capture_output=True, timeout=60)
    (png,) = tmp_path.glob(f"card{page}-*.png")
    image = Image.open(png).convert("L")

    def dark(x: float, y: float) -> bool:
        return image.getpixel((int(x), int(y))) < 128  # type: ignore[operator]
    width, height = image.size
    left = next(x for x in range(width) if any(dark(x, y) for y in range(int(height * 0.6), int(height * 0.9))))
    top = next(y for y in range(int(height * 0.5), height) if dark(left + 2, y))
    finder = next(x for x in range(left, width) if not dark(x, top + 2)) - left
    module = finder / 7
    right = max(x for x in range(left, int(width * 0.5)) if dark(x, top + 2))
    n = round((right + 1 - left) / module)
    cell = (right + 1 - left) / n
    return [[dark(left + (c + 0.5) * cell, top + (r + 0.5) * cell) for c in range(n)] for r in range(n)]


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is not installed")
def test_each_cards_qr_code_is_its_games_edit_link(client, database, tmp_path):
    event = progressive(database)
    body = pdf(client, f"/events/{event.id}/table-cards.pdf", event.organiser_key)
    for page, table in enumerate(event.rounds[0].tables, 1):
        expected = [[bool(v) for v in row] for row in segno.make(edit_link(database, table.game_id), error="m").matrix]
        assert qr_modules(body, tmp_path, page) == expected


def test_a_partners_card_names_both_partnerships_and_their_players(client, database, tmp_path):
    event = partners(database)
    (page,) = pages_text(pdf(client, f"/events/{event.id}/table-cards.pdf", event.organiser_key), tmp_path)
    (first,), (second,) = event.rounds[0].tables[0].sides
    text = flat(page)
    assert f"Table 1 {first} Players: {first.replace(' and ', ', ')} v {second}" in text
    assert "North" not in text
    assert edit_link(database, event.rounds[0].tables[0].game_id) in text


def test_the_cards_print_the_latest_round_unless_asked_for_another(client, database, tmp_path):
    event = progressive(database, rounds=2)
    with db.using(database):
        event = club_nights.start_round(club_nights.end_round(event))
    latest = flat(pages_text(pdf(client, f"/events/{event.id}/table-cards.pdf", event.organiser_key), tmp_path)[0])
    first = flat(pages_text(pdf(client, f"/events/{event.id}/table-cards.pdf?round=1", event.organiser_key),
                            tmp_path)[0])
    assert "Round 2 of 2" in latest and edit_link(database, event.rounds[1].tables[0].game_id) in latest
    assert "Round 1 of 2" in first and edit_link(database, event.rounds[0].tables[0].game_id) in first
    for asked, status in (("3", 404), ("0", 404), ("two", 400), ("-1", 400)):
        response = client.get(f"/events/{event.id}/table-cards.pdf?round={asked}", headers=bearer(event.organiser_key))
        assert response.status_code == status, asked
        assert "round" in response.get_data(as_text=True)


def test_a_forty_table_round_prints_forty_cards(client, database, tmp_path):
    players = [f"Player {n}" for n in range(1, 161)]
    event = progressive(database, players=players)
    pages = pages_text(pdf(client, f"/events/{event.id}/table-cards.pdf?paper=a4", event.organiser_key), tmp_path)
    assert len(pages) == 40
    for page, table in zip(pages, event.rounds[0].tables, strict=True):
        assert f"Table {table.number} North {table.sides[0][0]}" in flat(page)
        assert edit_link(database, table.game_id) in flat(page)


# -- results ---------------------------------------------------------------------------------------


def test_the_results_give_the_plan_the_standings_each_table_and_the_recorders_line(client, database, tmp_path):
    event = played_evening(client, database)
    (page,) = pages_text(pdf(client, f"/events/{event.id}/results.pdf"), tmp_path)
    lines = page.splitlines()
    assert lines[0] == "Tuesday club: results"
    text = flat(page)
    assert f"Date: 4 December 2026. Club: Lakemont. Sheet: {SHEET}." in text
    assert ("Format: progressive: players change partners every round (North stays; South moves down one table, "
            "East up one, West up two).") in text
    assert "Rounds: 1, each a game of the sheet's length." in text
    assert "Ranking: most wins, then most points; entrants equal on both share a place." in text
    assert "Byes: a bye scores the average of that round's winners, and is neither a win nor a loss." in text
    # Ivy's bye scores the one table won outright: 1,060; a tie at table 2 wins nobody anything.
    standings = ["Place Player Played Won Lost Tied Byes Points",
                 "1 Ann 1 1 0 0 0 1,060", "1 Ben 1 1 0 0 0 1,060", "3 Ivy 0 0 0 0 1 1,060",
                 "4 Eve 1 0 0 1 0 0", "4 Fay 1 0 0 1 0 0", "4 Gus 1 0 0 1 0 0", "4 Hal 1 0 0 1 0 0",
                 "8 Cat 1 0 1 0 0 -20", "8 Dan 1 0 1 0 0 -20"]
    at = lines.index("Final standings")
    assert lines[at + 1:at + 1 + len(standings)] == standings
    at = lines.index("Round 1")
    assert lines[at + 1:at + 5] == ["Sat out (a bye, 1,060 points): Ivy.",
                                    "Table Side Total Side Total Result",
                                    "1 N-S: Ann and Ben 1,060 E-W: Cat and Dan -20 N-S won",
                                    "2 N-S: Eve and Fay 0 E-W: Gus and Hal 0 closed as played; tie"]
    assert lines[-3:-1] == ["The recorder signs that these are the evening's results.", "Recorder: Date:"]


def test_results_while_a_round_plays_say_which_tables_are_still_playing(client, database, tmp_path):
    event = progressive(database, rounds=3)
    text = flat(pages_text(pdf(client, f"/events/{event.id}/results.pdf?paper=a4"), tmp_path)[0])
    assert "Standings after round 1 of 3 (tables 1, 2 still playing)" in text
    assert "1 N-S: Ann and Ben 0 E-W: Cat and Dan 0 still playing" in text


def test_a_forty_table_evening_runs_on_to_more_pages_and_never_cuts_a_table(client, database, tmp_path):
    players = [f"Player {n}" for n in range(1, 161)]
    event = progressive(database, rounds=3, players=players)
    with db.using(database):
        for _ in range(2):
            event = club_nights.start_round(club_nights.end_round(event))
    pages = pages_text(pdf(client, f"/events/{event.id}/results.pdf"), tmp_path)
    assert len(pages) > 1
    assert "Final standings" not in "".join(pages) and "Recorder: Date:" in pages[-1]
    for played_round in event.rounds:
        for table in played_round.tables:
            (north, south), (east, west) = table.sides
            row = f"{table.number} N-S: {north} and {south} 0 E-W: {east} and {west} 0"
            assert sum(page.count(f"\n{row} ") for page in pages) == 1, row  # the whole row on one line of one page
    # each page that a round's tables run onto starts them with their header row
    for page in pages[1:]:
        first = page.splitlines()[0]
        if first[0].isdigit() and "N-S:" in first:
            pytest.fail(f"a page starts a round's tables without their header: {first}")


def test_partners_results_rank_partnerships(client, database, tmp_path):
    event = partners(database)
    won_by_first_side(client, database, event, 1, 1)
    (page,) = pages_text(pdf(client, f"/events/{event.id}/results.pdf"), tmp_path)
    (first,), (second,) = event.rounds[0].tables[0].sides
    (bye,) = event.rounds[0].byes
    assert "Place Partnership Played Won Lost Tied Byes Points" in page
    assert f"1 {first} 1 1 0 0 0 1,060" in page and f"3 {second} 1 0 1 0 0 -20" in page
    assert f"2 {bye} 0 0 0 0 1 1,060" in page  # no win: below the winners, above the losers
    assert f"1 {first} 1,060 {second} -20 {first} won" in page


# -- the players' CSV ------------------------------------------------------------------------------


def players_rows(client, event: EventRecord) -> list[list[str]]:
    response = client.get(f"/events/{event.id}/players.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    body = response.get_data(as_text=True)
    assert body.startswith("\ufeff")
    return list(csv.reader(io.StringIO(body[1:])))


HEADER = ["Event", "Date", "Round", "Player", "Member", "Table", "Seat", "Side", "Partners", "Opponents",
          "Side total", "Result", "Points counted"]


def test_the_csv_has_a_row_per_player_per_round_progressive(client, database):
    event = played_evening(client, database)
    day = ["Tuesday club", "2026-12-04", "1"]
    assert players_rows(client, event) == [
        HEADER,
        [*day, "Ann", "", "1", "North", "N-S", "Ben", "Cat and Dan", "1060", "win", "1060"],
        [*day, "Ben", "", "1", "South", "N-S", "Ann", "Cat and Dan", "1060", "win", "1060"],
        [*day, "Cat", "", "1", "East", "E-W", "Dan", "Ann and Ben", "-20", "loss", "-20"],
        [*day, "Dan", "", "1", "West", "E-W", "Cat", "Ann and Ben", "-20", "loss", "-20"],
        [*day, "Eve", "", "2", "North", "N-S", "Fay", "Gus and Hal", "0", "tie", "0"],
        [*day, "Fay", "", "2", "South", "N-S", "Eve", "Gus and Hal", "0", "tie", "0"],
        [*day, "Gus", "", "2", "East", "E-W", "Hal", "Eve and Fay", "0", "tie", "0"],
        [*day, "Hal", "", "2", "West", "E-W", "Gus", "Eve and Fay", "0", "tie", "0"],
        [*day, "Ivy", "", "", "", "", "", "", "", "bye", "1060"],
    ]


def test_the_csv_has_a_row_per_player_per_round_partners(client, database):
    event = partners(database)
    won_by_first_side(client, database, event, 1, 1)
    with db.using(database):
        event = club_nights.start_round(club_nights.load_event(event.id))  # type: ignore[arg-type]
    # Round 1: Cat and Dan v Eve and Fay, Ann and Ben out; round 2: Ann and Ben v Eve and Fay, Cat and Dan out.
    assert [t.sides for r in event.rounds for t in r.tables] == [(("Cat and Dan",), ("Eve and Fay",)),
                                                                 (("Ann and Ben",), ("Eve and Fay",))]
    assert [r.byes for r in event.rounds] == [("Ann and Ben",), ("Cat and Dan",)]
    day = ["Couples", "2026-12-05"]
    # Roster order (Cat second), each player's rounds in turn. Round 1's bye scores its winners' 1,060;
    # round 2's, nothing yet: no table of it has finished.
    assert players_rows(client, event) == [
        HEADER,
        [*day, "1", "Ann", "", "", "", "", "", "", "", "bye", "1060"],
        [*day, "2", "Ann", "", "1", "", "Ann and Ben", "Ben", "Eve and Fay", "0", "playing", "0"],
        [*day, "1", "Cat", "1042", "1", "", "Cat and Dan", "Dan", "Eve and Fay", "1060", "win", "1060"],
        [*day, "2", "Cat", "1042", "", "", "", "", "", "", "bye", "0"],
        [*day, "1", "Ben", "", "", "", "", "", "", "", "bye", "1060"],
        [*day, "2", "Ben", "", "1", "", "Ann and Ben", "Ann", "Eve and Fay", "0", "playing", "0"],
        [*day, "1", "Dan", "", "1", "", "Cat and Dan", "Cat", "Eve and Fay", "1060", "win", "1060"],
        [*day, "2", "Dan", "", "", "", "", "", "", "", "bye", "0"],
        [*day, "1", "Eve", "", "1", "", "Eve and Fay", "Fay", "Cat and Dan", "-20", "loss", "-20"],
        [*day, "2", "Eve", "", "1", "", "Eve and Fay", "Fay", "Ann and Ben", "0", "playing", "0"],
        [*day, "1", "Fay", "", "1", "", "Eve and Fay", "Eve", "Cat and Dan", "-20", "loss", "-20"],
        [*day, "2", "Fay", "", "1", "", "Eve and Fay", "Eve", "Ann and Ben", "0", "playing", "0"],
    ]


# -- the routes ------------------------------------------------------------------------------------


def test_an_unknown_event_is_a_404_for_each_document(client):
    for what in ("table-cards.pdf", "results.pdf", "players.csv"):
        response = client.get(f"/events/no-such-event/{what}")
        assert response.status_code == 404, what
        assert "no club night at this address" in response.get_data(as_text=True)


def test_the_table_cards_are_the_organisers_alone(client, viewer, database):
    event = progressive(database)
    path = f"/events/{event.id}/table-cards.pdf"
    refused = viewer.get(path)
    assert refused.status_code == 403 and "Only the organiser prints the table cards" in refused.get_data(as_text=True)
    assert viewer.get(path, headers=bearer(event.rounds[0].tables[0].game_id)).status_code == 403
    with db.using(database):
        table_key = reading.load_game(event.rounds[0].tables[0].game_id).edit_key  # type: ignore[union-attr]
    assert viewer.get(path, headers=bearer(table_key)).status_code == 403  # a table's own key is not enough
    by_key = client.get(path, headers=bearer(event.organiser_key))
    assert by_key.status_code == 200 and by_key.mimetype == "application/pdf"
    assert by_key.headers["Content-Disposition"] == ('inline; filename="Tuesday club - table cards round 1.pdf"; '
                                                     "filename*=UTF-8''Tuesday%20club%20-%20table%20cards%20round%201.pdf")
    with client.session_transaction() as session:
        session["events"] = [[event.id, event.organiser_key]]
    assert client.get(path).status_code == 200  # the browser that holds the organiser's key


def test_the_results_and_csv_are_view_documents_named_after_the_event(viewer, database):
    event = progressive(database)
    results = viewer.get(f"/events/{event.id}/results.pdf")
    assert results.status_code == 200 and results.mimetype == "application/pdf"
    assert 'filename="Tuesday club - results.pdf"' in results.headers["Content-Disposition"]
    players = viewer.get(f"/events/{event.id}/players.csv")
    assert players.status_code == 200 and players.mimetype == "text/csv"
    assert players.headers["Content-Disposition"].startswith('attachment; filename="Tuesday club - players.csv"')
    assert viewer.get(f"/events/{event.id}/results.pdf?paper=tabloid").status_code == 400


def test_hidden_standings_keep_the_results_and_csv_for_the_organiser_until_the_end(client, viewer, database):
    event = progressive(database, standings=Standings.HIDDEN)
    for what in ("results.pdf", "players.csv"):
        hidden = viewer.get(f"/events/{event.id}/{what}")
        assert hidden.status_code == 403 and "hidden until the last round is over" in hidden.get_data(as_text=True)
        assert client.get(f"/events/{event.id}/{what}", headers=bearer(event.organiser_key)).status_code == 200
    with db.using(database):
        club_nights.end_round(event)
    for what in ("results.pdf", "players.csv"):
        assert viewer.get(f"/events/{event.id}/{what}").status_code == 200


def test_the_results_are_built_again_once_a_table_scores(client, database, tmp_path):
    event = progressive(database, rounds=2)
    before = flat(pages_text(pdf(client, f"/events/{event.id}/results.pdf"), tmp_path)[0])
    won_by_first_side(client, database, event, 1, 1)
    after = flat(pages_text(pdf(client, f"/events/{event.id}/results.pdf"), tmp_path)[0])
    assert "1 N-S: Ann and Ben 0 E-W: Cat and Dan 0 still playing" in before
    assert "1 N-S: Ann and Ben 1,060 E-W: Cat and Dan -20 N-S won" in after


def test_names_that_look_like_markup_print_as_typed(client, database, tmp_path):
    names = ["<b>Ann</b>", "Ben & co", "=SUM(A1)", "Dan"]
    event = progressive(database, players=names)
    cards = flat(pages_text(pdf(client, f"/events/{event.id}/table-cards.pdf", event.organiser_key), tmp_path)[0])
    results = flat(pages_text(pdf(client, f"/events/{event.id}/results.pdf"), tmp_path)[0])
    for name in names:
        assert name in cards and name in results
    rows = players_rows(client, event)
    assert "'=SUM(A1)" in [row[3] for row in rows]  # a formula start made text for a spreadsheet
