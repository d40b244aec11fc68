"""Files sent for download: a safe file name and its ``Content-Disposition`` header; and an
answer the same for every watcher of a game at one revision (:func:`per_revision`).

An HTTP helper shared by the web pages (the PDFs, the export and the CSV) and the API: a
game's name is typed by a player, so it may hold anything a file system or a header could
trip on. The file name keeps the name's own letters (in ``filename*``, RFC 5987 / RFC 6266)
and offers an ASCII fallback (``filename``) for old clients.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping
from urllib.parse import quote

from flask import Response, current_app, request

from .rules.limits import MAX_FILENAME
from .storage.document import scores_csv
from .storage.reading import GameRecord


def safe_filename(name: str) -> str:
    """A name fit for a file on any system: no path separators, reserved characters or
    control characters, spaces collapsed, at most 80 characters.

    >>> safe_filename('  Fri/day: "night" <b>  ')
    'Fri day night b'
    """
    name = unicodedata.normalize("NFC", name)
    name = "".join(" " if unicodedata.category(ch)[0] in "CZ" else ch for ch in name)
    name = re.sub(r'[\\/:*?"<>|]+', " ", name)
    name = " ".join(name.split()).strip(" .")
    return name[:MAX_FILENAME].strip(" .") or "scorepad"


def file_name(base: str, what: str) -> str:
    """``<base> - <what>``: a game's (or a preset's) file, named after it.

    >>> file_name("Friday: night", "scores.csv")
    'Friday night - scores.csv'
    """
    return f"{safe_filename(base)} - {what}"


def ascii_filename(name: str) -> str:
    """The ASCII fallback for old clients: accents dropped, anything else replaced.

    >>> ascii_filename("Zoë's café - house rules.pdf")
    "Zoe's cafe - house rules.pdf"
    """
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    plain = re.sub(r"[^A-Za-z0-9 .,'()_+-]", "_", plain)
    plain = " ".join(plain.split()).strip(" .")
    return plain if plain.strip("_ .-") else "scorepad" + (name[name.rindex("."):] if "." in name else "")


def content_disposition(filename: str, disposition: str = "inline") -> str:
    """``inline`` (a browser shows it, ready to print) or ``attachment`` (it is saved), with
    an ASCII ``filename`` and the exact UTF-8 name in ``filename*``."""
    return (f'{disposition}; filename="{ascii_filename(filename)}"; '
            f"filename*=UTF-8''{quote(filename, safe='')}")


def attachment(body: str, mimetype: str, name: str) -> Response:
    """``body`` as a file to save, named ``name``; sent even when a stored name is odd."""
    response = current_app.response_class(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = content_disposition(name, "attachment")
    response.headers["Cache-Control"] = "no-cache"
    return response


def export_file(document: Mapping[str, object]) -> Response:
    """A game's export document as a compact JSON file (see
    :data:`~scorepad.rules.limits.MAX_IMPORT_BYTES`), named after the game."""
    body = json.dumps(document, ensure_ascii=False) + "\n"
    return attachment(body, "application/json", file_name(str(document["name"]), "scorepad.json"))


def scores_file(game: GameRecord) -> Response:
    """A game's score table as a CSV file, with a byte-order mark so a spreadsheet reads
    the names as UTF-8, named after the game."""
    response = attachment("\ufeff" + scores_csv(game), "text/csv", file_name(game.name, "scores.csv"))
    response.mimetype = "text/csv"  # Werkzeug adds "; charset=utf-8" to a text/ type
    return response


def per_revision(response: Response, game: GameRecord) -> Response:
    """``response`` marked as the same for every watcher of ``game`` at its revision (no
    edit link, no message for this phone in it): its ETag ``"<id>.<revision>"``,
    ``Cache-Control: no-cache`` (revalidated each time: the score moves), a 304 for a client
    that holds it. :mod:`scorepad.web.replay` answers such an answer again, without Flask,
    while the game's revision is the same."""
    response.set_etag(f"{game.id}.{game.revision}")
    response.headers["Cache-Control"] = "no-cache"
    response.make_conditional(request)  # itself, made a 304 when the client holds it
    return response
