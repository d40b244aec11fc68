"""Files a response hands over to be saved (an export, a score table): a name safe on any
file system, and the ``Content-Disposition`` that carries it. An HTTP helper shared by the
pages (:mod:`scorepad.web.exchange`) and the API (:mod:`scorepad.api.exchange`).
"""

from __future__ import annotations

import json
import unicodedata
from typing import Any
from urllib.parse import quote

from flask import Response, current_app

from .rules.limits import MAX_FILENAME


def filename(name: str, what: str) -> str:
    """``<game name> - <what>``, with nothing a file system or a header could trip on."""
    name = "".join(" " if unicodedata.category(ch)[0] in "CZ" or ch in '\\/:*?"<>|' else ch
                   for ch in unicodedata.normalize("NFC", name))
    return f"{' '.join(name.split()).strip(' .')[:MAX_FILENAME] or 'scorepad'} - {what}"


def attachment(body: str, mimetype: str, name: str) -> Response:
    """``body`` to be saved as the file ``name`` (an ASCII name for old clients, the exact
    one in ``filename*``)."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    plain = "".join(ch if ch.isalnum() or ch in " .,'()_+-" else "_" for ch in plain)
    response = current_app.response_class(body, mimetype=mimetype)  # sends even a bad stored name
    response.headers["Content-Disposition"] = (f'attachment; filename="{plain}"; '
                                               f"filename*=UTF-8''{quote(name, safe='')}")
    response.headers["Cache-Control"] = "no-cache"
    return response


def json_attachment(data: Any, name: str) -> Response:
    """``data`` as a compact JSON file (see :data:`~scorepad.rules.limits.MAX_IMPORT_BYTES`)."""
    return attachment(json.dumps(data, ensure_ascii=False) + "\n", "application/json", name)


def csv_attachment(text: str, name: str) -> Response:
    """``text`` as a CSV file, with a byte-order mark, so a spreadsheet reads it as UTF-8."""
    response = attachment("\ufeff" + text, "text/csv", name)
    response.mimetype = "text/csv"  # Werkzeug adds "; charset=utf-8" to a text/ type
    return response
