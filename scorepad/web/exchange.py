"""Taking games out and bringing them back, over HTTP and as a command: the pages and the
JSON routes that export a game (:mod:`scorepad.storage.document`), give its scores as CSV
and import an export as a new game, and ``flask backup`` (:mod:`scorepad.storage.backup`).

An import that cannot be read is a 400 naming the field; one whose deal the referee will
not let in is a 422 naming the deal (:mod:`scorepad.web.errors`).

**Backup**: ``flask --app scorepad backup PATH`` copies the database with SQLite's online
backup API, in one step (one read transaction, so one consistent moment) while the server
keeps writing. It never writes over the database or the files SQLite keeps beside it, nor
over anything that is not a regular file.
"""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path
from typing import Any
from urllib.parse import quote

import click
from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    current_app,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.cli import with_appcontext
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import TextAreaField

from .. import access
from ..api import games as api
from ..cli.errors import failure
from ..rules import Problem
from ..rules.limits import MAX_FILENAME, MAX_IMPORT_BYTES
from ..storage import store
from ..storage.backup import BackupError, backup
from ..storage.document import export_game, import_document, scores_csv
from ..storage.errors import Invalid, Refused, StorageError, Unusable
from ..storage.store import GameRecord
from .errors import status

bp = Blueprint("exchange", __name__)
api_bp = Blueprint("exchange_api", __name__, url_prefix="/api/v1")


def init_app(app: Flask) -> None:
    """Register the pages, the JSON routes (exempt from CSRF, like the API) and ``flask backup``."""
    app.register_blueprint(bp)
    app.register_blueprint(api_bp)
    csrf = app.extensions.get("csrf")
    if csrf is not None:
        csrf.exempt(api_bp)
    app.cli.add_command(backup_command)


# -- responses ------------------------------------------------------------------------------------


def _filename(name: str, what: str) -> str:
    """``<game name> - <what>``, with nothing a file system or a header could trip on."""
    name = "".join(" " if unicodedata.category(ch)[0] in "CZ" or ch in '\\/:*?"<>|' else ch
                   for ch in unicodedata.normalize("NFC", name))
    return f"{' '.join(name.split()).strip(' .')[:MAX_FILENAME] or 'scorepad'} - {what}"


def _attachment(body: str, mimetype: str, filename: str) -> Response:
    plain = unicodedata.normalize("NFKD", filename).encode("ascii", "ignore").decode("ascii")
    plain = "".join(ch if ch.isalnum() or ch in " .,'()_+-" else "_" for ch in plain)
    response = current_app.response_class(body, mimetype=mimetype)  # sends even a bad stored name
    response.headers["Content-Disposition"] = (f'attachment; filename="{plain}"; '
                                               f"filename*=UTF-8''{quote(filename, safe='')}")
    response.headers["Cache-Control"] = "no-cache"
    return response


def _export_response(document: dict[str, Any]) -> Response:
    body = json.dumps(document, ensure_ascii=False) + "\n"  # compact: see MAX_IMPORT_BYTES
    return _attachment(body, "application/json", _filename(document["name"], "scorepad.json"))


def _csv_response(game: GameRecord) -> Response:
    # A byte-order mark, so a spreadsheet reads the names as UTF-8.
    response = _attachment("\ufeff" + scores_csv(game), "text/csv", _filename(game.name, "scores.csv"))
    response.mimetype = "text/csv"  # Werkzeug adds "; charset=utf-8" to a text/ type
    return response


def parse_text(text: str, where: str) -> Any:
    """The JSON document in ``text`` (a paste or an uploaded file), with the API's limits."""
    try:
        data = json.loads(text)
    except RecursionError:
        raise Invalid(where, "is nested too deeply") from None
    except ValueError as err:
        at = f" at line {err.lineno}, column {err.colno}" if isinstance(err, json.JSONDecodeError) else ""
        reason = err.msg if isinstance(err, json.JSONDecodeError) else str(err)
        raise Invalid(where, f"is not valid JSON: {reason}{at}") from None
    try:
        api._check_values(data)
    except api.ApiError as err:
        raise Invalid(err.field or where, err.message) from None
    return data


# -- the pages ------------------------------------------------------------------------------------


@bp.get("/games/<game_id>/export.json")
def export_page(game_id: str):
    document = export_game(game_id)
    if document is None:
        abort(404, access.NO_GAME)
    return _export_response(document)


@bp.get("/games/<game_id>/scores.csv")
def scores_page(game_id: str):
    return _csv_response(access.game_or_404(game_id))


@bp.url_value_preprocessor
@api_bp.url_value_preprocessor
def _import_body_limit(endpoint: str | None, _values: Any) -> None:
    """An import may be as large as :data:`MAX_IMPORT_BYTES`. Set before the request's
    ``before_request`` functions run, as the CSRF check reads the form there."""
    if endpoint in ("exchange.import_page", "exchange_api.import_api"):
        request.max_content_length = request.max_form_memory_size = MAX_IMPORT_BYTES


class ImportForm(FlaskForm):
    file = FileField("The exported file")
    document = TextAreaField("Or paste the export here")


@bp.route("/import", methods=["GET", "POST"])
def import_page():
    form = ImportForm()
    if request.method == "GET":
        return render_template("import.html", form=form, error=None)
    if not form.validate():
        abort(400, "; ".join(f"{form[k].label.text}: {' '.join(v)}" for k, v in form.errors.items()))
    problems: list[Problem] = []
    try:
        upload = form.file.data
        raw = upload.read() if upload is not None and getattr(upload, "filename", "") else b""
        if raw.strip():
            try:
                text = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                raise Invalid("file", "is not text: choose the .json file scorepad exported") from None
            data = parse_text(text, "file")
        elif (form.document.data or "").strip():
            data = parse_text(form.document.data, "document")
        else:
            raise Invalid("file", "choose the exported file, or paste its text")
        game = import_document(data)
    except StorageError as err:
        if isinstance(err, Refused):
            problems = err.problems
        error = {"status": status(err), "field": err.field or None, "message": err.message}
        return render_template("import.html", form=form, error=error, problems=problems), status(err)
    access.grant(game)
    flash(f"“{game.name}” is imported as a new game, with its own view and edit links. "
          "This phone may record and correct its deals.", "ok")
    return redirect(url_for("pages.game", game_id=game.id), 303)


# -- the JSON routes ------------------------------------------------------------------------------

api_bp.register_error_handler(api.ApiError, api._refused)
api_bp.register_error_handler(StorageError, api._refused)


@api_bp.errorhandler(Refused)
def _refused(err: Refused):
    status = api.error_status(err)
    body = api.error_body(status, err.field, err.message)
    body["deal"] = err.number
    body["problems"] = [{**p.to_json(), "never_as_played": store.never_as_played(p)} for p in err.problems]
    return jsonify(body), status


@api_bp.get("/games/<game_id>/export")
def export_api(game_id: str):
    document = export_game(game_id)
    if document is None:
        raise api.ApiError(404, None, "there is no game with this id")
    return _export_response(document)


@api_bp.get("/games/<game_id>/scores.csv")
def scores_api(game_id: str):
    return _csv_response(api._game(game_id))


@api_bp.post("/games/import")
def import_api():
    # The API's body checks (a JSON object, nesting, number range); the document's own keys
    # are checked after its format and version, so a newer document is named as such.
    try:
        peek = request.get_json(silent=True)
    except RecursionError:  # nested past the parser's depth: api._body says so
        peek = None
    data = api._body(tuple(peek) if isinstance(peek, dict) else ())
    game = import_document(data)
    body = {"id": game.id, **api.game_links(game), "edit_key": game.edit_key, "revision": game.revision}
    return jsonify(body), 201, {"Location": url_for("api.get_game", game_id=game.id),
                                "Cache-Control": "no-store"}  # the body holds the edit key


@click.command("backup")
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--force", is_flag=True, help="Overwrite PATH if it exists.")
@with_appcontext
def backup_command(path: Path, force: bool) -> None:
    """Copy the database to PATH, consistently, while the server runs.

    To restore: stop the server, delete instance/scorepad.sqlite-wal and -shm if present,
    copy the backup over instance/scorepad.sqlite, and start the server.

    Exit status 2 when PATH cannot be used: it exists (without --force), it is a folder or
    not a regular file, or it is the database itself or one of its -wal, -shm, -journal.
    """
    try:
        result = backup(current_app.config["DATABASE"], path, force)
    except (BackupError, Unusable) as err:
        raise failure(err) from None
    click.echo(f"Wrote {result.path}: {result.games} game{'s' if result.games != 1 else ''}, "
               f"{result.deals} deal{'s' if result.deals != 1 else ''} ({result.size:,} bytes).")
