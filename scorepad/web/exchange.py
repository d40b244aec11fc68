"""Taking games out and bringing them back, as pages: a game's export document and its
scores as CSV to download (:mod:`scorepad.storage.document`), and the import page, which
makes a new game from an export. The same through the JSON API is :mod:`scorepad.api.exchange`;
``flask backup`` is :mod:`scorepad.cli.flask_commands`'s.

An import that cannot be read is a 400 naming the field; one whose deal the referee will
not let in is a 422 naming the deal (:mod:`scorepad.web.errors`).
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from werkzeug.datastructures import FileStorage
from wtforms import TextAreaField

from .. import access, downloads
from ..rules import Problem
from ..rules.limits import MAX_IMPORT_BYTES
from ..storage.document import export_game, import_document, parse_text
from ..storage.errors import ImportRefused, Invalid, StorageError
from .errors import status
from .forms import FileField, FlaskForm

bp = Blueprint("exchange", __name__)


# -- the pages ------------------------------------------------------------------------------------


@bp.get("/games/<game_id>/export.json")
def export_page(game_id: str) -> Response:
    document = export_game(game_id)
    if document is None:
        access.missing(game_id)
    return downloads.export_file(document)


@bp.get("/games/<game_id>/scores.csv")
def scores_page(game_id: str) -> Response:
    game = access.game_or_404(game_id)
    return downloads.per_revision(downloads.scores_file(game), game)


@bp.url_value_preprocessor
def _import_body_limit(endpoint: str | None, _values: object) -> None:
    """An import may be as large as :data:`MAX_IMPORT_BYTES`. Set before the request's
    ``before_request`` functions run, as the CSRF check reads the form there."""
    if endpoint == "exchange.import_page":
        request.max_content_length = request.max_form_memory_size = MAX_IMPORT_BYTES


class ImportForm(FlaskForm):
    file = FileField("The exported file")
    document = TextAreaField("Or paste the export here")


@bp.route("/import", methods=["GET", "POST"])
def import_page() -> ResponseReturnValue:
    form = ImportForm()
    if request.method == "GET":
        access.know_client()  # before any import it may send (its idempotency keys are scoped by it)
        return render_template("exchange/import.html", form=form, error=None)
    if not form.validate():
        abort(400, "; ".join(f"{form[k].label.text}: {' '.join(v)}" for k, v in form.errors.items()))
    problems: list[Problem] = []
    try:
        upload = form.file.data  # flask_wtf's FileField holds the upload (a FileStorage), or None
        raw = upload.read() if isinstance(upload, FileStorage) and upload.filename else b""
        pasted = form.document.data or ""
        if raw.strip():
            try:
                text = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                raise Invalid("file", "is not text: choose the .json file scorepad exported") from None
            data = parse_text(text, "file")
        elif pasted.strip():
            data = parse_text(pasted, "document")
        else:
            raise Invalid("file", "choose the exported file, or paste its text")
        game = import_document(data)
    except StorageError as err:
        if isinstance(err, ImportRefused):
            problems = err.problems
        error = {"status": status(err), "field": err.field or None, "message": err.message}
        return render_template("exchange/import.html", form=form, error=error, problems=problems), status(err)
    access.grant(game)
    flash(f"“{game.name}” is imported as a new game, with its own view and edit links. "
          "This phone may record and correct its deals.", "ok")
    return redirect(url_for("games.game", game_id=game.id), 303)
