"""A club night on paper: the table cards of a round, the results, and every player's rounds as CSV.

The documents are :mod:`scorepad.paper.table_cards`, :mod:`scorepad.paper.event_results` and
:mod:`scorepad.storage.club_night_csv`; this blueprint finds the event (404 when there is none),
reads ``?paper=letter|a4`` and ``?round=N``, and names the file after the event, as the game's
paper is named after the game. A document is built once per (event revision, its games'
revisions, paper) and kept in the app's cache (:func:`scorepad.builds.built`).

The table cards carry each table's edit link: only the organiser gets them, by the browser that
holds the event's key (:func:`scorepad.access.organises`) or by ``Authorization: Bearer <key>``
(403 otherwise). Their links start from :func:`scorepad.links.link_base`, so the cards are kept
per link base too. The results and the CSV are view documents, but while the plan keeps the
standings hidden until the end, they are the organiser's alone (403 for anyone else).

| route | what |
| --- | --- |
| ``GET /events/<id>/table-cards.pdf`` | a page a table of a round (``?round=N``, the latest): seats, QR code |
| ``GET /events/<id>/results.pdf`` | the plan, the standings, each round's tables, the recorder's signature line |
| ``GET /events/<id>/players.csv`` | one row per player per round |
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Hashable
from datetime import datetime

from flask import Blueprint, Response, abort, request

from .. import access, builds, downloads, links
from ..paper.common import PAPERS, changed_count, printed_date
from ..paper.event_results import EventInfo, Played, event_results
from ..paper.table_cards import Card, table_cards
from ..rules import PRESETS
from ..storage import club_nights, db, reading
from ..storage.club_night_csv import players_csv
from ..storage.club_night_results import EventResults, results_of
from ..storage.club_nights import EventRecord
from .paper import PDF_POLICY

bp = Blueprint("club_night_paper", __name__)

NO_EVENT = "There is no club night at this address. Check the link, or ask the organiser for it again."
NOT_ORGANISER = ("Only the organiser prints the table cards: they carry each table's edit link. Open the "
                 "event from the browser that created it, or send its key as 'Authorization: Bearer <key>'.")
HIDDEN = "The organiser keeps the standings hidden until the last round is over."


def _event_or_404(event_id: str) -> EventRecord:
    event = club_nights.load_event(event_id)
    if event is None:
        abort(404, NO_EVENT)
    return event


def _is_organiser(event: EventRecord) -> bool:
    """Whether this request holds the event's organiser key: in the browser, or as a bearer key."""
    key = access.bearer_key()
    if key is not None and secrets.compare_digest(key.encode(), event.organiser_key.encode()):
        return True
    return access.organises(event.id, event.organiser_key)


def _paper() -> str:
    """``?paper=``: ``letter`` (the default) or ``a4``; 400 naming anything else."""
    value = request.args.get("paper", "letter")
    if value.strip().lower() not in PAPERS:
        abort(400, f"paper must be 'letter' or 'a4', not {value[:20]!r}.")
    return value.strip().lower()


def _round(event: EventRecord) -> int:
    """``?round=``: a round the event has started (the latest by default); 400 for what is not
    a round's number, 404 for a round not started."""
    if not event.rounds:
        abort(404, "No round of this event has started yet: start round 1, then print its table cards.")
    value = request.args.get("round")
    if value is None:
        return event.rounds[-1].number
    if not (value.isascii() and value.isdigit() and len(value) < 4):
        abort(400, f"round must be the number of a round, not {value[:20]!r}.")
    number = int(value)
    if not 1 <= number <= len(event.rounds):
        abort(404, f"The event has no round {number} yet: its rounds so far are 1 to {len(event.rounds)}.")
    return number


def _info(event: EventRecord) -> EventInfo:
    preset = PRESETS.get(event.sheet.preset) if event.sheet.preset else None
    title = (preset.title + changed_count(event.sheet)) if preset else "the event's own sheet"
    try:
        held = printed_date(datetime.fromisoformat(event.held_on))
    except ValueError:
        held = event.held_on
    return EventInfo(event.name, held, event.club, title, event.plan)


def _built(what: Hashable, results: EventResults, build: Callable[[], bytes]) -> bytes:
    """The event's ``what`` as of its revision and its games' revisions: built once, then kept."""
    key = ("event-paper", db.path(), results.event.id, results.event.revision, results.revisions, what)
    return builds.built(key, build, len)


def _send(body: bytes, filename: str) -> Response:
    response = Response(body, mimetype="application/pdf")
    response.headers["Content-Disposition"] = downloads.content_disposition(filename)
    response.headers["Cache-Control"] = "no-cache, private"
    response.headers["Content-Security-Policy"] = PDF_POLICY
    response.headers["X-Frame-Options"] = "SAMEORIGIN"
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


def _edit_url(game_id: str) -> str:
    """The table's game's edit link (its view link, were the game gone: it prints a 410 page)."""
    game = reading.load_game(game_id)
    if game is None:
        return links.external_url("games.game", game_id=game_id)
    return links.external_url("games.edit_link", game_id=game_id, key=game.edit_key)


@bp.get("/events/<event_id>/table-cards.pdf")
def table_cards_pdf(event_id: str) -> Response:
    event = _event_or_404(event_id)
    if not _is_organiser(event):
        abort(403, NOT_ORGANISER)
    paper, number = _paper(), _round(event)
    results = results_of(event)
    tables = results.rounds[number - 1].tables

    def build() -> bytes:
        return table_cards(_info(event), number, [Card(t, _edit_url(t.game_id)) for t in tables], paper)
    body = _built(("cards", number, paper, links.link_base()), results, build)
    return _send(body, downloads.file_name(event.name, f"table cards round {number}.pdf"))


def _viewable(event: EventRecord, results: EventResults) -> None:
    if results.hidden and not _is_organiser(event):
        abort(403, HIDDEN)


@bp.get("/events/<event_id>/results.pdf")
def results_pdf(event_id: str) -> Response:
    event = _event_or_404(event_id)
    paper = _paper()
    results = results_of(event)
    _viewable(event, results)

    def build() -> bytes:
        return event_results(_info(event), Played(results.rounds, results.overall, results.final), paper)
    return _send(_built(("results", paper), results, build), downloads.file_name(event.name, "results.pdf"))


@bp.get("/events/<event_id>/players.csv")
def players_csv_file(event_id: str) -> Response:
    event = _event_or_404(event_id)
    results = results_of(event)
    _viewable(event, results)
    response = downloads.attachment("\ufeff" + players_csv(event, results), "text/csv",
                                    downloads.file_name(event.name, "players.csv"))
    response.mimetype = "text/csv"  # Werkzeug adds "; charset=utf-8" to a text/ type
    response.headers["Cache-Control"] = "no-cache, private"
    return response
