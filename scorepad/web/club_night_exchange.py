"""A club night taken out and brought back, as pages: the whole event's export document to
download (its plan, roster, rounds and every table's game: :mod:`scorepad.storage.club_night_document`),
the import page, which makes a new event of it (new ids and keys, this browser its organiser),
and a club's season ladder across its events (:mod:`scorepad.storage.club_ladder`).

An import that cannot be read is a 400 naming the field; one whose deal the referee will not
let in is a 422 naming the table's game and the deal (:mod:`scorepad.web.errors`).
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from werkzeug.datastructures import FileStorage
from wtforms import TextAreaField

from .. import access, downloads
from ..rules import Problem
from ..rules.limits import MAX_EVENT_IMPORT_BYTES, MAX_NAME
from ..storage.club_ladder import club_ladder
from ..storage.club_night_document import export_event, import_event, parse_event_text
from ..storage.errors import ImportRefused, Invalid, StorageError
from .club_nights import event_or_404
from .errors import status
from .forms import FileField, FlaskForm

bp = Blueprint("event_exchange", __name__)


@bp.get("/events/<event_id>/export.json")
def export_page(event_id: str) -> Response:
    """The whole event as one document (no key in it: anyone with the view link may keep it)."""
    return downloads.export_file(export_event(event_or_404(event_id)))


@bp.url_value_preprocessor
def _import_body_limit(endpoint: str | None, _values: object) -> None:
    """An event's import may be as large as :data:`MAX_EVENT_IMPORT_BYTES` (set before the CSRF
    check reads the form)."""
    if endpoint == "event_exchange.import_page":
        request.max_content_length = request.max_form_memory_size = MAX_EVENT_IMPORT_BYTES


class EventImportForm(FlaskForm):
    file = FileField("The exported file")
    document = TextAreaField("Or paste the export here")


def _sent(form: EventImportForm) -> object:
    """The document sent: the file chosen, else the text pasted."""
    upload = form.file.data  # flask_wtf's FileField holds the upload (a FileStorage), or None
    raw = upload.read() if isinstance(upload, FileStorage) and upload.filename else b""
    if raw.strip():
        try:
            return parse_event_text(raw.decode("utf-8-sig"), "file")
        except UnicodeDecodeError:
            raise Invalid("file", "is not text: choose the .json file scorepad exported") from None
    pasted = form.document.data or ""
    if pasted.strip():
        return parse_event_text(pasted, "document")
    raise Invalid("file", "choose the exported file, or paste its text")


@bp.route("/events/import", methods=["GET", "POST"])
def import_page() -> ResponseReturnValue:
    form = EventImportForm()
    if request.method == "GET":
        return render_template("events/import.html", form=form, error=None)
    if not form.validate():
        abort(400, "; ".join(f"{form[k].label.text}: {' '.join(v)}" for k, v in form.errors.items()))
    problems: list[Problem] = []
    try:
        event = import_event(_sent(form))  # type: ignore[arg-type]  # parse_event_text gives JSON
    except StorageError as err:
        if isinstance(err, ImportRefused):
            problems = err.problems
        error = {"status": status(err), "field": err.field or None, "message": err.message}
        return render_template("events/import.html", form=form, error=error, problems=problems), status(err)
    access.grant_event(event.id, event.organiser_key)
    flash(f"“{event.name}” is imported as a new club night, with its own links and every table's game. "
          "This phone is its organiser.", "ok")
    return redirect(url_for("events.event", event_id=event.id), 303)


@bp.get("/clubs/<club>/ladder")
def ladder(club: str) -> ResponseReturnValue:
    """The club's season ladder: every player of its events, matched by member number, else name."""
    if len(club) > MAX_NAME:
        abort(404, "There is no club of that name here.")
    rows = club_ladder(club)
    if not rows:
        abort(404, f"No club night of “{club}” is kept here. Check the club's name as its events give it.")
    return render_template("events/ladder.html", club=club, rows=rows)
