"""A club night taken out and brought back through the JSON API: the whole event's export
document (``GET /api/v1/events/<id>/export``), such a document brought back as a new event
(``POST /api/v1/events/import``), and a club's season ladder across its events (``GET
/api/v1/clubs/<club>/ladder``). The document, how an import is read and judged, and the
ladder are storage's (:mod:`scorepad.storage.club_night_document`,
:mod:`scorepad.storage.club_ladder`); the pages are :mod:`scorepad.web.club_night_exchange`;
here they are only sent and received, as a game's are (:mod:`.exchange`).

The export holds no key: anyone with the event's id may read it. The import needs no key: its
answer holds the new event's organiser key, as a new event's does (:func:`.club_nights.created`),
counts as one create against the rate limit however many games it brings, and takes an
``Idempotency-Key``. What cannot be read is a 400 naming the field, a table's game's within its
table (``rounds[0].tables[1].game.deals[2]``); a deal the referee will not let in a 422 naming
the table's game and the deal. See ``docs/api.md`` (Club nights).
"""

from __future__ import annotations

from flask import Response, jsonify, request
from flask.typing import ResponseReturnValue

from .. import downloads
from ..rules.limits import MAX_EVENT_IMPORT_BYTES, MAX_NAME
from ..storage import club_ladder, club_night_document
from ..storage.club_nights import EventRecord
from ..storage.idempotency import Once
from . import http
from .blueprint import bp
from .club_nights import created, created_headers, event
from .http import ApiError


@bp.url_value_preprocessor
def _import_body_limit(endpoint: str | None, _values: object) -> None:
    """An event's import may be as large as :data:`MAX_EVENT_IMPORT_BYTES` (a 413 past it): set
    before its body is read."""
    if endpoint == "api.import_event":
        request.max_content_length = request.max_form_memory_size = MAX_EVENT_IMPORT_BYTES


@bp.get("/events/<event_id>/export")
def export_event(event_id: str) -> Response:
    """The whole event as one document: its plan, roster, rounds and every table's game."""
    return downloads.export_file(club_night_document.export_event(event(event_id)))


@bp.post("/events/import")
def import_event() -> ResponseReturnValue:
    """A new event from an export document (new ids and keys, every table's game a new game)."""
    # The API's body checks (a JSON object, nesting, number range); the document's own keys
    # are checked after its format and version, so a newer document is named as such.
    try:
        peek = request.get_json(silent=True)
    except RecursionError:  # nested past the parser's depth: http.body says so
        peek = None
    data = http.body(tuple(peek) if isinstance(peek, dict) else ())

    def bring_in(once: Once[EventRecord] | None) -> EventRecord:
        return club_night_document.import_event(data, once)

    return http.write_once(bring_in, created, created_headers)


@bp.get("/clubs/<club>/ladder")
def get_club_ladder(club: str) -> ResponseReturnValue:
    """The club's season ladder: every player of its events (matched by member number, else
    name), ranked by wins, then average deal score; a 404 for a club with no event here."""
    rows = club_ladder.club_ladder(club) if len(club) <= MAX_NAME else []
    if not rows:
        raise ApiError(404, None, "no club night of this club is kept here: check the club's name as its events "
                       "give it (its case too)")
    return jsonify({"club": club, "players": [row.to_json() for row in rows]}), {"Cache-Control": "no-cache"}
