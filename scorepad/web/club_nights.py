"""A club night's pages: a new event, the organiser's link, the event page (the organiser's,
with every action of the evening, or a viewer's: the rounds and the standings), the next
round's seats before it starts, deleting the event, and the wall board (a projector's or a
TV's page, refreshing itself).

Every read and write goes through :mod:`scorepad.storage.club_nights`; the organiser is the
browser holding the event's key (:func:`scorepad.access.organises`, granted by the organiser
link). Every write is based on the event's revision the page showed (a hidden field): a page
the event has moved past since is answered 409, with the event as it is now. Scripts only
enhance: every screen works with JavaScript off.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from flask import Blueprint, abort, flash, make_response, redirect, render_template, request, session, url_for
from flask.typing import ResponseReturnValue
from werkzeug.wrappers import Response

from .. import access
from ..links import external_url
from ..rules import PRESETS, ReadError
from ..rules.club_night import Format, RoundLength
from ..rules.movements import RoundSeats
from ..rules.standings import RoundPlay
from ..storage import club_nights
from ..storage.club_night_input import read_arrivals, read_new_event
from ..storage.club_nights import EventRecord, EventRound
from ..storage.errors import Conflict, Invalid, NotFound, StorageError
from .common import read_revision
from .errors import status as status_of
from .forms.club_night import ArrivalsInput, NewEventInput
from .forms.sheet_editor import SheetEditor, preset_displays

bp = Blueprint("events", __name__)
STALE = ("Not done: the event changed since this page was loaded (another organiser's page, or a moment ago "
         "on this one). Here it is as it is now: do it again if it is still needed.")


def event_or_404(event_id: str) -> EventRecord:
    """The event at this address, or a friendly 404."""
    event = club_nights.load_event(event_id)
    if event is None:
        abort(404, "There is no club night at this address. Check the link, or ask the organiser for it again.")
    return event


def organises(event: EventRecord) -> bool:
    return access.organises(event.id, event.organiser_key)


def organiser_or_403(event_id: str) -> EventRecord:
    """The event, when this browser organises it (else a 404 or 403)."""
    event = event_or_404(event_id)
    if not organises(event):
        abort(403, "Only the organiser may change this club night: open the organiser link on this phone first.")
    return event


def side_words(side: tuple[str, ...]) -> str:
    """A side as the pages name it: its partnership, or its two players."""
    return " and ".join(side)


# -- a new event -----------------------------------------------------------------------------------


@bp.route("/events/new", methods=["GET", "POST"])
def new_event() -> ResponseReturnValue:
    """The new club night's form; sent, the event, and this browser its organiser."""
    if request.method == "GET":
        preset_id = request.args.get("preset", "common")
        if preset_id not in PRESETS:
            abort(404, f"There is no preset called {preset_id!r}.")
        return _new_event_page(NewEventInput.blank(), SheetEditor.for_preset(preset_id))
    typed = NewEventInput.from_form(request.form)
    preset_id = request.form.get("preset") or request.form.get("sheet") or "common"
    if preset_id not in PRESETS:
        editor = SheetEditor.for_preset("common")
        editor.errors.append(f"There is no preset called {preset_id!r:.60}: choose the rules to start from.")
        return _new_event_page(typed, editor, 400)
    # The sheet as the editor's boxes give it, any option changed; a form sent without them: the preset's.
    sent_options = any(key.startswith("opt-") for key in request.form)
    editor = SheetEditor.from_form(request.form, preset_id) if sent_options else SheetEditor.for_preset(preset_id)
    if not editor.ok:
        return _new_event_page(typed, editor, 400)
    try:
        event = club_nights.create_event(read_new_event({**typed.to_json(), "sheet": editor.sheet_json()}))
    except StorageError as err:
        if err.field.startswith("sheet"):
            editor.errors.append(f"{err.field}: {err.message}")
        else:
            typed.place(err.field, err.message)
        return _new_event_page(typed, editor, status_of(err))
    access.grant_event(event.id, event.organiser_key)
    session["new_organiser_link"] = event.id
    flash("The club night is ready. Keep the organiser link below; start round 1 when the players are seated.", "ok")
    return redirect(url_for("events.event", event_id=event.id), 303)


def _new_event_page(typed: NewEventInput, editor: SheetEditor, status: int = 200) -> ResponseReturnValue:
    return render_template("events/new_event.html", typed=typed, editor=editor,
                           problems=[*typed.problems(), *editor.problems()], presets=preset_displays()), status


@bp.get("/events/<event_id>/organise/<key>")
def organise(event_id: str, key: str) -> ResponseReturnValue:
    """The organiser link: this browser now holds the event's key, and goes to its page."""
    event = event_or_404(event_id)
    if not hmac.compare_digest(key.encode("utf-8", "replace"), event.organiser_key.encode()):
        abort(403, "This organiser link is not right for this club night. Ask its organiser for it again.")
    access.grant_event(event.id, event.organiser_key)
    flash("This phone may now run the club night: start rounds, close tables, and change every table's game.", "ok")
    return redirect(url_for("events.event", event_id=event.id), 303)


# -- the event page --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableShown:
    number: int
    game_id: str
    sides: tuple[str, ...]
    totals: tuple[int, ...]
    state: str  # "playing", "over" or "closed"


@dataclass(frozen=True, slots=True)
class RoundShown:
    number: int
    tables: tuple[TableShown, ...]
    byes: tuple[str, ...]

    @property
    def playing(self) -> list[int]:
        return [t.number for t in self.tables if t.state == "playing"]


def rounds_shown(rounds: Sequence[EventRound], plays: Sequence[RoundPlay]) -> list[RoundShown]:
    """Each round's tables as their games stand (``plays``, :func:`~scorepad.storage.club_nights.played`):
    seats, totals so far and whether still playing."""
    out = []
    for kept, played in zip(rounds, plays, strict=True):
        tables = []
        for table, play in zip(kept.tables, played.tables, strict=True):
            state = "closed" if table.closed_at is not None else "over" if play.finished else "playing"
            tables.append(TableShown(table.number, table.game_id, tuple(side_words(s) for s in table.sides),
                                     play.totals, state))
        out.append(RoundShown(kept.number, tuple(tables), kept.byes))
    return out


@bp.get("/events/<event_id>")
def event(event_id: str) -> ResponseReturnValue:
    """The event: for its organiser, every action of the evening; for anyone else, the rounds'
    tables and the standings (unless the plan hides them until the end)."""
    found = event_or_404(event_id)
    return event_page(found)


def event_page(event: EventRecord, status: int = 200, arrivals: ArrivalsInput | None = None,
               said: str | None = None) -> Response:
    """The event page; ``arrivals`` as typed and ``said`` (a refusal) when a form comes back."""
    organiser = organises(event)
    links = {"view": external_url("events.event", event_id=event.id),
             "board": external_url("events.board", event_id=event.id)}
    if organiser and session.pop("new_organiser_link", None) == event.id:
        links["organiser"] = external_url("events.organise", event_id=event.id, key=event.organiser_key)
    arrivals = arrivals or ArrivalsInput.blank()
    standings = club_nights.standings_of(event)  # the tables' games, read once for the page
    html = render_template("events/event.html", event=event, organiser=organiser, links=links,
                           rounds=rounds_shown(event.rounds, standings.played), standings=standings,
                           over=standings.final, arrivals=arrivals, problems=arrivals.problems(),
                           said=said, partners=event.plan.format is Format.PARTNERS,
                           open_rounds=event.plan.round_length is RoundLength.OPEN,
                           members={e.name: e.member for e in event.roster})
    response = make_response(html, status)
    response.headers["Cache-Control"] = "no-store"  # the organiser's page holds the organiser link
    return response


# -- the organiser's writes ------------------------------------------------------------------------


def _based_on() -> int | None:
    return read_revision(request.form.get("revision"))


def _written(event: EventRecord, write: Callable[[], object], done: str,
             back: str | None = None) -> ResponseReturnValue:
    """``write``, then back to the event page (or ``back``) saying ``done``; a page the event has
    moved past is answered 409 with the event as it is now, a refusal with its status and words."""
    try:
        write()
    except Conflict:
        return event_page(event_or_404(event.id), 409, said=STALE)
    except NotFound as err:
        abort(404, err.message[0].upper() + err.message[1:] + ".")
    except StorageError as err:
        return event_page(event_or_404(event.id), status_of(err), said=_sentence(err))
    flash(done, "ok")
    return redirect(back or url_for("events.event", event_id=event.id), 303)


def _sentence(err: StorageError) -> str:
    text = err.message[0].upper() + err.message[1:] if err.message else "That could not be done"
    return text if text.endswith(".") else text + "."


@bp.post("/events/<event_id>/players")
def add_players(event_id: str) -> ResponseReturnValue:
    """Late arrivals on the roster: they play from the next round on."""
    event = organiser_or_403(event_id)
    typed = ArrivalsInput.from_form(request.form)
    based_on = _based_on()
    try:
        data = typed.to_json()
        if not data["players"]:
            raise Invalid("players", "type at least one name, one a line")
        roster, partnerships = read_arrivals(data, event.plan, event.roster, event.partnerships)
        club_nights.add_players(event, roster, partnerships, based_on)
    except Conflict:
        return event_page(event_or_404(event.id), 409, typed, STALE)
    except StorageError as err:
        typed.place(err.field, err.message)
        return event_page(event, status_of(err), typed)
    added = len(roster) - len(event.roster)
    flash(f"{added} player{'s' if added != 1 else ''} added: they play from the next round on.", "ok")
    return redirect(url_for("events.event", event_id=event.id, _anchor="roster"), 303)


@bp.post("/events/<event_id>/leaving")
def leaving(event_id: str) -> ResponseReturnValue:
    """An entrant leaves the evening (``gone=1``: seated no more from the next round), or comes back."""
    event = organiser_or_403(event_id)
    name, gone = request.form.get("name", ""), request.form.get("gone", "1") != "0"
    done = (f"{name} leaves the evening: seated no more from the next round; what they played stands." if gone
            else f"{name} is back: seated again from the next round.")
    return _written(event, lambda: club_nights.set_withdrawn(event, name, gone, _based_on()), done,
                    url_for("events.event", event_id=event.id, _anchor="roster"))


@bp.get("/events/<event_id>/rounds/next")
def next_round(event_id: str) -> ResponseReturnValue:
    """Before "Start round N+1": the new seats per table, and the tables of round N still
    playing, each with its close button."""
    return next_round_page(organiser_or_403(event_id))


def next_round_page(event: EventRecord, status: int = 200, said: str | None = None) -> Response:
    seats: RoundSeats | None = None
    unseated = None
    all_started = len(event.rounds) >= event.plan.rounds
    if not all_started:
        try:
            seats = club_nights.next_seats(event)
        except ReadError as err:
            unseated = err.reason[0].upper() + err.reason[1:] + "."
    last = event.rounds[-1:]  # only the last round's tables are shown: only its games are read
    shown = rounds_shown(last, club_nights.played(event, last))
    response = make_response(render_template(
        "events/next_round.html", event=event, seats=seats, unseated=unseated, all_started=all_started,
        last=shown[-1] if shown else None, said=said, number=len(event.rounds) + 1,
        open_rounds=event.plan.round_length is RoundLength.OPEN), status)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/events/<event_id>/rounds")
def start_round(event_id: str) -> ResponseReturnValue:
    """The next round started: one game per table with its seats (refused while a table of the
    last round is still playing)."""
    event = organiser_or_403(event_id)
    try:
        club_nights.start_round(event, _based_on())
    except Conflict:
        return next_round_page(event_or_404(event.id), 409, STALE)
    except StorageError as err:
        return next_round_page(event, status_of(err), _sentence(err))
    flash(f"Round {len(event.rounds) + 1} started: print the table cards, or show each table its game.", "ok")
    return redirect(url_for("events.event", event_id=event.id, _anchor=f"round-{len(event.rounds) + 1}"), 303)


@bp.post("/events/<event_id>/rounds/<int:round_number>/tables/<int:table>/close")
def close_table(event_id: str, round_number: int, table: int) -> ResponseReturnValue:
    """A table closed as played: its game stands as it is for the standings."""
    event = organiser_or_403(event_id)
    back = url_for("events.next_round", event_id=event.id) if request.form.get("back") == "next" else None
    return _written(event, lambda: club_nights.close_table(event, round_number, table, _based_on()),
                    f"Table {table} of round {round_number} is closed as played.", back)


@bp.post("/events/<event_id>/rounds/end")
def end_round(event_id: str) -> ResponseReturnValue:
    """The last round ended (an open round, played to the clock): every table closed as played."""
    event = organiser_or_403(event_id)
    number = len(event.rounds)
    return _written(event, lambda: club_nights.end_round(event, _based_on()),
                    f"Round {number} is over: every table's game ends as it stands.")


@bp.route("/events/<event_id>/delete", methods=["GET", "POST"])
def delete_event(event_id: str) -> ResponseReturnValue:
    """Delete the event with every table's game, for its organiser: asked first."""
    event = organiser_or_403(event_id)
    if request.method == "GET":
        games = sum(len(r.tables) for r in event.rounds)
        return render_template("events/delete.html", event=event, games=games)
    try:
        club_nights.delete_event(event, _based_on())
    except Conflict:
        return event_page(event_or_404(event.id), 409, said=STALE)
    flash(f"“{event.name}” was deleted, with every table's game.", "ok")
    return redirect(url_for("games.home"), 303)


# -- the wall board --------------------------------------------------------------------------------

BOARD_REFRESH = 20  # seconds between the board's reloads: a table's deal moves no event revision


@bp.get("/events/<event_id>/board")
def board(event_id: str) -> ResponseReturnValue:
    """The wall board, for a projector or a TV across the hall: the round being played, the
    tables still playing, and the standings (overall and this round's), or that they are hidden
    until the end. It refreshes itself every :data:`BOARD_REFRESH` seconds (``static/board.js``
    fetches it again: axe refuses a meta refresh), since the tables' deals move the standings
    but not the event's revision."""
    event = event_or_404(event_id)
    standings = club_nights.standings_of(event)  # the tables' games, read once a refresh
    shown = rounds_shown(event.rounds, standings.played)
    response = make_response(render_template(
        "events/board.html", event=event, last=shown[-1] if shown else None,
        standings=standings, over=standings.final, refresh=BOARD_REFRESH,
        partners=event.plan.format is Format.PARTNERS))
    response.headers["Cache-Control"] = "no-store"
    return response
