"""Printed paper on the web: the house-rule sheet, a blank score pad and a game's results.

The PDFs themselves are built by :mod:`scorepad.paper`; this blueprint finds the sheet or
the game, reads ``?paper=letter|a4``, and names the file after the game. Every route only
reads, so the view link is enough: no edit rights are needed. A game's PDFs are built once
per (game, revision, paper) and kept in the app's cache, without the game's link: the link
(and on the house-rule sheet its QR code) is written in as each response is sent
(:meth:`scorepad.paper.Printed.with_link`), from :func:`scorepad.links.link_base`.

| route | what |
| --- | --- |
| ``GET /games/<id>/sheet.pdf`` | the game's house-rule sheet, one page, with its view link as a QR code |
| ``GET /games/<id>/pad.pdf`` | a blank score pad with the game's sides |
| ``GET /games/<id>/results.pdf`` | every deal line by line, totals, winner, amendments |
| ``GET /sheets/<preset>.pdf`` | a preset's house-rule sheet |
| ``GET /sheets/<preset>/pad.pdf`` | a blank score pad for a preset (``?sides=2..8``) |
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, Response, abort, request
from werkzeug.routing import BuildError

from .. import access, builds, downloads, links
from ..paper.common import PAPERS, GameInfo, Printed, load_fonts, printed_date
from ..paper.house_rules import house_rules, printed_house_rules
from ..paper.pad import score_pad
from ..paper.results import printed_results
from ..rules import PRESETS, Preset
from ..rules.limits import MAX_SIDES, MIN_SIDES
from ..storage import db, reading
from ..storage.reading import GameRecord

bp = Blueprint("paper", __name__)


@bp.record_once
def _load_fonts(state: object) -> None:
    """Read the fonts when the app is made, not on the first PDF asked for (a few tenths of
    a second, once a process)."""
    load_fonts()


# -- helpers --------------------------------------------------------------------------------------


def _paper() -> str:
    """``?paper=``: ``letter`` (the default) or ``a4``; 400 naming anything else."""
    value = request.args.get("paper", "letter")
    paper = value.strip().lower()
    if paper not in PAPERS:
        abort(400, f"paper must be 'letter' or 'a4', not {value[:20]!r}.")
    return paper


def _preset_or_404(preset_id: str) -> Preset:
    found = PRESETS.get(preset_id)
    if found is None:
        abort(404, f"There is no preset called {preset_id!r}. The presets are "
                   f"{', '.join(sorted(PRESETS))}.")
    return found


def _view_url(game: GameRecord) -> str | None:
    """The game's view link, from the pages' own route (None if the pages have none)."""
    try:
        return links.external_url("games.game", game_id=game.id)
    except BuildError:
        return None


def _info(game: GameRecord) -> GameInfo:
    upcoming = game.view.next_deal
    return GameInfo.of(game.name, game.sides, None, printed_date(), upcoming.words() if upcoming else None)


# A browser shows a PDF inside a page of its own making, with inline styles and an
# embedded viewer: the pages' policy (object-src 'none', no inline style) would leave it
# blank in Chrome. A PDF runs no script of ours, so its policy only keeps it out of
# other sites' frames.
PDF_POLICY = "default-src 'none'; object-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'self'"


def _send(body: bytes, filename: str) -> Response:
    response = Response(body, mimetype="application/pdf")
    response.headers["Content-Disposition"] = downloads.content_disposition(filename)
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Content-Security-Policy"] = PDF_POLICY
    response.headers["X-Frame-Options"] = "SAMEORIGIN"
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


def _name(base: str, what: str) -> str:
    return downloads.file_name(base, f"{what}.pdf")


# -- a game's paper -------------------------------------------------------------------------------


@bp.get("/games/<game_id>/sheet.pdf")
def game_sheet(game_id: str) -> Response:
    game = access.game_or_404(game_id)
    paper = _paper()
    info = _info(game)
    printed = _built(game, f"sheet {info.date}", paper, lambda: printed_house_rules(game.sheet, paper, info))
    return _send(printed.with_link(_view_url(game)), _name(game.name, "house rules"))


def _built(game: GameRecord, what: str, paper: str, build: Callable[[], Printed]) -> Printed:
    """The game's ``what`` PDF on ``paper`` as of its revision: built once, then kept."""
    key = ("pdf", db.path(), game.id, game.revision, what, paper)
    return builds.built(key, build, lambda printed: len(printed.body))


@bp.get("/games/<game_id>/pad.pdf")
def game_pad(game_id: str) -> Response:
    game = access.game_or_404(game_id)
    paper = _paper()
    info = _info(game)
    printed = _built(game, f"pad {info.date}", paper, lambda: Printed(score_pad(game.sheet, paper, info)))
    return _send(printed.body, _name(game.name, "score pad"))


@bp.get("/games/<game_id>/results.pdf")
def game_results(game_id: str) -> Response:
    game = access.game_or_404(game_id)
    paper = _paper()

    def build() -> Printed:
        return printed_results(game, reading.amendments(game.id), paper, corrections=reading.corrections(game.id),
                               entered=reading.entered_by(game.id))
    sent = _send(_built(game, "results", paper, build).with_link(_view_url(game)), _name(game.name, "results"))
    return downloads.per_revision(sent, game)  # undated, unlike the sheet and the pad: the same all the revision long


# -- a preset's paper -----------------------------------------------------------------------------


@bp.get("/sheets/<preset_id>.pdf")
def preset_sheet(preset_id: str) -> Response:
    found = _preset_or_404(preset_id)
    paper = _paper()
    return _send(house_rules(found.sheet, paper), _name(found.title, "house rules"))


@bp.get("/sheets/<preset_id>/pad.pdf")
def preset_pad(preset_id: str) -> Response:
    found = _preset_or_404(preset_id)
    paper = _paper()
    sides = request.args.get("sides")
    count = None
    if sides is not None:
        if not (sides.isascii() and sides.isdigit() and len(sides) < 3) or not MIN_SIDES <= int(sides) <= MAX_SIDES:
            abort(400, f"sides must be a number from {MIN_SIDES} to {MAX_SIDES}, not {sides[:20]!r}.")
        count = int(sides)
    return _send(score_pad(found.sheet, paper, sides=count), _name(found.title, "score pad"))
