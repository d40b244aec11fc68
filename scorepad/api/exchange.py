"""Export and import through the JSON API: a game's export document
(``/api/v1/games/<id>/export``), its score table as CSV (``.../scores.csv``), and an
export brought back as a new game (``POST /api/v1/games/import``). The document, its CSV
and how an import is read and judged are :mod:`scorepad.storage.document`'s; the files
are the pages' (:mod:`scorepad.web.exchange`); here they are only sent and received. See ``docs/api.md``.
"""

from __future__ import annotations

from flask import Response, request
from flask.typing import ResponseReturnValue

from .. import downloads
from ..rules.limits import MAX_IMPORT_BYTES
from ..storage.document import export_game, import_document
from . import http
from .blueprint import bp


@bp.url_value_preprocessor
def _import_body_limit(endpoint: str | None, _values: object) -> None:
    """An import may be as large as :data:`MAX_IMPORT_BYTES`: set before its body is read."""
    if endpoint == "api.import_api":
        request.max_content_length = request.max_form_memory_size = MAX_IMPORT_BYTES


@bp.get("/games/<game_id>/export")
def export_api(game_id: str) -> Response:
    document = export_game(game_id)
    if document is None:
        http.missing(game_id)
    return downloads.export_file(document)


@bp.get("/games/<game_id>/scores.csv")
def scores_api(game_id: str) -> Response:
    game = http.game(game_id)
    return downloads.per_revision(downloads.scores_file(game), game)


@bp.post("/games/import")
def import_api() -> ResponseReturnValue:
    # The API's body checks (a JSON object, nesting, number range); the document's own keys
    # are checked after its format and version, so a newer document is named as such.
    try:
        peek = request.get_json(silent=True)
    except RecursionError:  # nested past the parser's depth: http.body says so
        peek = None
    data = http.body(tuple(peek) if isinstance(peek, dict) else ())
    return http.write_once(lambda once: import_document(data, once), http.new_game, http.new_game_headers,
                           http.with_edit_key)
