"""The games: the home page (this browser's games), a new game, a game's page, the edit link
that lets a phone change a game (and replacing it, when it leaked), ending a game the table
ends (and reopening it), and a game's history.

Every read and write goes through :mod:`scorepad.storage.writing`; who may write is
:mod:`scorepad.access`. Scripts only enhance: every screen works with JavaScript off.
"""

from __future__ import annotations

import hashlib

from flask import Blueprint, abort, flash, make_response, redirect, render_template, request, session, url_for
from flask.typing import ResponseReturnValue
from markupsafe import Markup, escape
from werkzeug.wrappers import Response

from .. import access, builds, downloads, keyed_writes
from ..links import external_url
from ..retry import send_again_page
from ..rules import PRESETS
from ..rules.choices import Confirm
from ..rules.limits import MAX_EVENTS_LISTED
from ..rules.views import GameView
from ..storage import cache, checks, club_nights, db, idempotency, reading, writing
from ..storage.club_nights import EventRecord
from ..storage.errors import Conflict, Full, KeyReplaced, NotFound, StorageError
from ..storage.reading import GameRecord
from .chart import running_totals_chart
from .common import ahead_is_stale, editable, history_entries, kept_qr, link_tag, qr_image, read_revision, what_changed
from .deals import new_key
from .errors import status as status_of
from .forms.deal_meta import ConfirmForm, ReplaceLinkForm
from .forms.sheet_editor import SheetEditor, preset_displays
from .forms.sides import NewGameForm, SidesForm
from .open_deals import Progress, open_deal, progress_of
from .phones import phone

bp = Blueprint("games", __name__)


@bp.get("/")
def home() -> ResponseReturnValue:
    """This browser's games, the one used most recently first: those it may edit and those
    it watches (opened without the key)."""
    games = reading.recent_games(access.my_games())
    return render_template("games/home.html", games=games, watching={g.id for g in games if not access.can_edit(g)},
                           events=_organised())


def _organised() -> list[EventRecord]:
    """The club nights this browser organises that are still kept, the latest first (a few)."""
    found = (club_nights.load_event(event_id) for event_id, _ in access.event_keys()[:MAX_EVENTS_LISTED])
    return [event for event in found if event is not None and access.organises(event.id, event.organiser_key)]


@bp.route("/new", methods=["GET", "POST"])
def new_game() -> ResponseReturnValue:
    form = NewGameForm()
    if request.method == "GET":
        preset_id = request.args.get("preset", "common")
        if preset_id not in PRESETS:
            abort(404, f"There is no preset called {preset_id!r}.")
        access.know_client()  # before any create it may send (its idempotency keys are scoped by it)
        return render_template("games/new_game.html", form=form, editor=SheetEditor.for_preset(preset_id),
                               sides=SidesForm.blank(), presets=preset_displays())
    if not form.validate() and set(form.errors) != {"name"}:  # the name's own error shows beside it
        abort(400, "; ".join(f"{form[k].label.text}: {' '.join(v)}" for k, v in form.errors.items()))
    preset_id = form.preset.data
    sides = SidesForm.from_form(request.form)
    editor = SheetEditor.from_form(request.form, preset_id)
    status = 400 if form.name.errors else 200
    if editor.ok and not form.name.errors:
        try:
            sides_json = sides.to_json()
            name = form.name.data.strip() if form.name.data and form.name.data.strip() else sides.game_name()
            sheet = checks.read_sheet(editor.sheet_json())
            table = checks.read_sides(sides_json, sheet)  # first: a game named after its sides shows their own error
            confirm = Confirm.OPPONENTS if form.confirm.data else Confirm.NONE
            game = writing.create_game(checks.read_game_name(name or "Hand and Foot", "name"), sheet, table,
                                       confirm=confirm)
        except StorageError as err:
            status = status_of(err)
            if err.field.startswith("sides"):
                sides.place_error(err.field, err.message)
            elif err.field == "name":
                form.name.errors = [err.message]
            else:
                editor.errors.append(f"{err.field}: {err.message}")
        else:
            access.grant(game)
            flash("The game is ready. Share the view link so the table can follow the score.", "ok")
            return redirect(url_for("games.game", game_id=game.id), 303)
    else:
        status = 400
    problems = [*sides.problems(), *(("name", f"Game name: {e}") for e in form.name.errors), *editor.problems()]
    return render_template("games/new_game.html", form=form, editor=editor, sides=sides,
                           presets=preset_displays(), problems=problems), status


@bp.get("/games/<game_id>")
def game(game_id: str) -> ResponseReturnValue:
    """The game page. What a viewer sees depends only on the game's revision, so it is
    rendered once per revision, kept in the app's cache, and answered with an ETag (a
    polling phone gets a 304). It is kept without a host: the view link and its QR code, which a
    watcher shares too, are filled in as it is sent (:func:`_with_view_link`), so no request's
    Host shapes what the next watcher gets; only the editor's page (never cached) holds the edit link.
    A club night's organiser may edit every table's game: a browser organising an event gets
    its own page (:func:`access.can_edit` says whether it edits this one)."""
    if access.may_hold_key(game_id) or access.event_keys() or session.get("_flashes"):
        game = access.game_or_404(game_id)
        replaced = access.replaced_key(game)
        if replaced is not None:
            flash(f"The edit link this phone had was replaced on {access.time_words(replaced)}: it can no longer "
                  "record or change deals. This is the view link; ask whoever keeps the score for the new edit "
                  "link.", "error")
        access.used(game)
        new_link = session.pop("new_edit_link", None) == game.id
        response = make_response(_game_page(game, new_link))
        response.headers["Cache-Control"] = "no-store"  # this browser's page: an editor's shows the edit link
        return response
    found = reading.revision(game_id)
    if found is None:
        access.missing(game_id)
    revision = found[0]  # the page writes no session: its watch mark records the game as watched (watching)
    kept = cache.current()
    html = kept.get(("games/game.html", db.path(), game_id, revision))
    if html is None:
        held = reading.cached_game(game_id)  # at the revision just read: the game as it was then, read again not
        game = held if held is not None and held.revision == revision else access.game_or_404(game_id)
        revision = game.revision  # a write may have landed since: file the page under what it shows
        html = _game_page(game, held=True).encode()  # kept as sent: a text may hold 4 bytes a character
        kept.put(("games/game.html", db.path(), game_id, revision), html)
    response = make_response(_with_view_link(html, game_id))
    response.set_etag(f"{game_id}.{revision}")
    response.headers["Cache-Control"] = "no-cache"  # revalidate every time: the score moves
    return response.make_conditional(request)


@bp.get("/games/<game_id>/watching")
def watching(game_id: str) -> ResponseReturnValue:
    """The watchers' page's watch mark (an image it loads, hidden): this browser opened the
    game, which goes to the front of its games on home, as one it watches. The page itself
    writes no session, so it is the same answer for every watcher, first visit or not (and
    :mod:`.replay` can answer it); the browser, with or without scripts, loads the mark
    with the page, never with live.js's refreshes of the score. A browser holding a key
    for the game is left as it is (its own page, never the watchers', counts it as used)."""
    if reading.revision(game_id) is None:
        access.missing(game_id)
    if not access.may_hold_key(game_id):
        access.watched(game_id)
    response = make_response("", 204)
    response.headers["Cache-Control"] = "no-store"  # every opening of the page counts: home is by last use
    return response


# Where the watchers' page, kept in the cache, holds the view link and its QR code until it is sent.
_VIEW_URL, _VIEW_QR = "https://view-link.invalid/", "<!-- the view link's QR code -->"
KEPT_FOR_EVER = "public, max-age=31536000, immutable"  # a QR code's image named by its link's digest


def _with_view_link(html: bytes, game_id: str) -> bytes:
    """The watchers' page as sent: its view link and its QR code's image from this request's
    link base."""
    view_url = external_url("games.game", game_id=game_id)
    return html.replace(_VIEW_URL.encode(), str(escape(view_url)).encode()).replace(
        _VIEW_QR.encode(), str(_view_qr_image(game_id, view_url)).encode())


def _view_qr_image(game_id: str, view_url: str) -> Markup:
    """The view link's QR code on a page: an image (:func:`view_qr`) whose address names the
    link it shows, so the phone keeps it for ever and the server draws it once a game and link."""
    src = url_for("games.view_qr", game_id=game_id, link=link_tag(view_url))
    return Markup('<img class="qr" src="{}" alt="QR code: the view link" width="192" height="192">').format(src)


@bp.get("/games/<game_id>/view-link.svg")
def view_qr(game_id: str) -> ResponseReturnValue:
    """The view link's QR code as an SVG image (the game page's ``<img>``): the link from this
    request's link base, as the page shows it. Asked with ``?link=`` the digest of that link
    (:func:`.common.link_tag`: what the page asks), it never changes and is kept for ever;
    asked otherwise (a page of another link base), revalidated by its ETag. Drawn once per
    game and link, kept in the app's cache."""
    if reading.revision(game_id) is None:
        access.missing(game_id)
    view_url = external_url("games.game", game_id=game_id)
    tag = link_tag(view_url)
    kept = cache.current()
    key = ("view-qr", db.path(), game_id, view_url)
    image = kept.get(key)
    if not isinstance(image, bytes):
        image = qr_image(view_url, "the view link")
        kept.put(key, image)
    response = make_response(image)
    response.mimetype = "image/svg+xml"
    response.set_etag(tag)
    response.headers["Cache-Control"] = KEPT_FOR_EVER if request.args.get("link") == tag else "no-cache"
    return response.make_conditional(request)


def _game_page(game: GameRecord, new_link: bool = False, held: bool = False) -> str:
    """The game page, worded from the game's view (worked out once per revision); with
    ``new_link``, the edit link just made is shown open. A page ``held`` in the cache for
    watchers holds the view link's place, not the link (:func:`_with_view_link`)."""
    view = game.view
    editor = access.can_edit(game)
    if held:
        links: dict[str, object] = {"view": _VIEW_URL, "view_qr": Markup(_VIEW_QR)}
    else:  # a watcher shares the view link too
        view_url = external_url("games.game", game_id=game.id)
        links = {"view": view_url, "view_qr": _view_qr_image(game.id, view_url)}
    if editor:
        edit_url = external_url("games.edit_link", game_id=game.id, key=game.edit_key)
        links.update(edit=edit_url, edit_qr=kept_qr(game.id, edit_url, "the edit link"))
    chart = running_totals_chart(view.sides, view.numbers, view.running_totals)
    return render_template("games/game.html", game=game, view=view, can_edit=editor, links=links, chart=chart,
                           standings=standings_line(view), new_link=new_link and editor,
                           open_deal=_being_entered(game) if editor and not held else None)


def _being_entered(game: GameRecord) -> Progress | None:
    """For the editor's page: the next deal's parts as the part forms show them
    (:func:`.open_deals.progress_of`), or None while no part of it is saved (the watchers'
    page, kept per revision, never says: a part moves no revision)."""
    number = game.next_number
    opened = open_deal(game, number) if number is not None else None
    if number is None or opened is None or not opened.parts:
        return None
    return progress_of(game, number, phone(game), opened)


def standings_line(view: GameView) -> str:
    """The game page's first line, the score at a glance: who is ahead and by how much, or
    who won, with the totals from the view's result (highest first).

    ``Us ahead by 370: 4,120 to 3,750``, ``Tied at 1,200: Us and Them``, ``Winner: Them,
    8,270 to 7,900``, ``Game tied at 8,270: Us and Them``; with three sides or more the
    others are named, ``Ann ahead by 40: 160 to Bea 120, Cy 90``.
    """
    standings, result = view.result.standings, view.result
    if not standings:
        return ""
    if not view.rows and not result.over:
        return "No score yet: every side at 0."
    top = standings[0].total
    leaders = [s.name for s in standings if s.total == top]
    rest = standings[len(leaders):]
    if len(leaders) > 1:
        names = ", ".join(leaders[:-1]) + " and " + leaders[-1]
        others = "".join(f"; {s.name} {s.total:,}" for s in rest)
        return f"{'Game tied' if result.over else 'Tied'} at {top:,}: {names}{others}"
    behind = (f"{rest[0].total:,}" if len(standings) == 2
              else ", ".join(f"{s.name} {s.total:,}" for s in rest))
    if result.over:
        return f"Winner: {leaders[0]}, {top:,} to {behind}"
    return f"{leaders[0]} ahead by {view.lead:,}: {top:,} to {behind}"


@bp.get("/games/<game_id>/edit/<key>")
def edit_link(game_id: str, key: str) -> ResponseReturnValue:
    game = access.game_or_404(game_id)
    if not access.key_matches(game, key):
        replaced = reading.replaced_at(game.id, key)
        if replaced is not None:
            if not access.can_edit(game):  # the old key, if this phone held it, is forgotten: it watches
                access.watched(game.id)
            return access.key_replaced_page(game, replaced, opened=True)
        abort(403, "This edit link is not right for this game. Ask whoever started the game for it again.")
    access.grant(game)
    flash("This phone may now record and correct deals in this game.", "ok")
    return redirect(url_for("games.game", game_id=game.id), 303)


@bp.route("/games/<game_id>/replace-edit-link", methods=["GET", "POST"])
def replace_edit_link(game_id: str) -> ResponseReturnValue:
    """Replace the edit link of a game whose link leaked: asked to confirm first; then the
    old link (and every phone holding it) changes nothing, and the game page shows the new
    link and its QR code to this phone, which keeps its edit rights.

    The confirmation carries an idempotency key, and the replacement is made once per key
    (:func:`idempotency.once`), scoped to the edit key this phone held when it asked (its digest):
    when the answer to the first replacement was lost (and the cookie with the new key with
    it), the same form sent again with the old key does not meet "this link was replaced"
    but is given the game's key as it is now, and shows the new link. Another phone holding
    the old key, with a form of its own, is told the link was replaced. A later replacement
    forgets the kept key (:func:`writing.replace_edit_key`), so a replay never gets a newer key.
    The same form sent again once its answer came through (this phone holds the key it made)
    replaces nothing either: the session remembers which form made it."""
    game = access.game_or_404(game_id)
    form = ReplaceLinkForm()
    held = access.key_held(game.id)
    if request.method == "GET" or held is None:
        access.require_edit(game)  # a 403 for a phone without a key, before the form is read
    if request.method == "GET":
        form.idempotency_key.data = new_key()
        response = make_response(render_template("games/replace_edit_link.html", game=game, form=form))
        response.headers["Cache-Control"] = "no-store"
        return response
    if not form.validate():
        abort(400, "The form could not be read.")
    key = form.idempotency_key.data or None
    if key is not None and access.can_edit(game) and session.get("replaced_by") == [game.id, key]:
        return _link_replaced(game, key)  # this form made the key this phone holds: sent again, it shows it

    def write(once: idempotency.Once[GameRecord] | None) -> GameRecord:
        access.require_edit(game)  # not reached by a replay: the key this phone held is replaced by then
        return writing.replace_edit_key(game.id, once, access.key_held(game.id))

    try:
        if key is None or held is None:
            write(None)
        else:
            found = keyed_writes.make_once(game.id, key, hashlib.sha256(request.path.encode()).hexdigest(),
                                           client=reading.key_digest(held),  # the key this phone held
                                           write=write)
            if found is idempotency.KeyTaken.IN_PROGRESS:
                return send_again_page(503, "Still replacing", "The edit link is being replaced just now. Send this "
                                   "again in a moment to see the new link; it will not be replaced twice.",
                                   retry_after=1)
            if found is idempotency.KeyTaken.REUSED:  # the digest is the path's: only another game's form
                abort(400, "The form could not be read.")
    except KeyReplaced as err:  # another phone replaced it first: this phone's key is the old one
        abort(access.key_replaced_page(game, err.at))
    except StorageError as err:
        flash(f"The edit link was not replaced: {err.message}. The edit link as it was still works.", "error")
        return redirect(url_for("games.game", game_id=game.id), 303)
    # Made now or replayed, the game's key now is the one this replacement made: a later one
    # forgets the kept key. The answer is the game page with the new link, either way.
    return _link_replaced(access.game_or_404(game.id), key)


def _link_replaced(game: GameRecord, key: str | None) -> Response:
    """The answer to a replaced edit link: this phone may edit with the game's key, and the game
    page shows it the new link, once; the form's ``key`` is remembered as the one that made it."""
    access.grant(game)
    session["new_edit_link"] = game.id
    if key is not None:
        session["replaced_by"] = [game.id, key]
    said = ("The edit link was replaced. The old one, and every phone that opened it, can no longer change the "
            "game: give the new one below to whoever keeps the score.")
    if ("ok", said) not in map(tuple, session.get("_flashes", [])):  # the first answer's came through
        flash(said, "ok")
    return redirect(url_for("games.game", game_id=game.id, _anchor="edit-link"), 303)


@bp.get("/games/<game_id>/history")
def history(game_id: str) -> ResponseReturnValue:
    """The game's history. Every correction in it is scored again to show what it changed,
    so the page is built in the build turn and kept for the game's revision (it is the same
    for every phone: it holds no link), unless it shows this phone a message; so it is sent
    (:func:`downloads.per_revision`)."""
    game = access.game_or_404(game_id)
    key = None if session.get("_flashes") else ("games/history.html", db.path(), game.id, game.revision)

    def build() -> bytes:
        entries = history_entries(game, reading.history_shown(game.id))
        return render_template("games/history.html", game=game, entries=entries).encode()
    page = make_response(builds.built(key, build))
    return page if key is None else downloads.per_revision(page, game)


@bp.route("/games/<game_id>/delete", methods=["GET", "POST"])
def delete_game(game_id: str) -> ResponseReturnValue:
    """Delete the game, for its editor: a page that asks first, saying what goes with it
    (and offering the export), then the deletion, based on the revision the page showed."""
    game = editable(game_id)
    form = ConfirmForm()
    if request.method == "GET":
        form.revision.data = str(game.revision)
        return render_template("games/delete.html", game=game, form=form)
    if not form.validate():
        abort(400, "The form could not be read.")
    based_on = read_revision(form.revision.data)
    try:
        with ahead_is_stale(game.id, based_on):
            writing.delete_game(game.id, based_on=based_on, key=access.key_held(game.id))
    except Conflict as err:
        flash(f"Not deleted: the game changed since you loaded it. {what_changed(err.changes)}; here it is now.",
              "error")
        return redirect(url_for("games.game", game_id=game.id), 303)
    except NotFound:  # another phone deleted it first: its 410 page
        access.missing(game.id)
    except KeyReplaced as err:  # another phone replaced the edit link in the moment between
        abort(access.key_replaced_page(game, err.at))
    flash(f"“{game.name}” was deleted, with its {len(game.deals)} deal{'s' if len(game.deals) != 1 else ''} and "
          "their history. Its links now say so.", "ok")
    return redirect(url_for("games.home"), 303)


@bp.route("/games/<game_id>/end", methods=["GET", "POST"])
def end_game(game_id: str) -> ResponseReturnValue:
    """End a game the table ends (an open sheet's, played to the clock), for its editor: a
    page that asks first, with the totals it would end on, then the write, based on the
    revision the page showed. Sent twice, the second finds it ended and says so."""
    return _ending(game_id, True)


@bp.route("/games/<game_id>/reopen", methods=["GET", "POST"])
def reopen_game(game_id: str) -> ResponseReturnValue:
    """Reopen a game its table ended, for its editor: asked first, as ending is."""
    return _ending(game_id, False)


def _ending(game_id: str, ending: bool) -> ResponseReturnValue:
    game = editable(game_id)
    if not game.rules.table_ends:
        abort(409, f"This game ends by its sheet ({game.sheet.describe('game_length')}): only a game its table "
                   "ends is ended or reopened here.")
    form = ConfirmForm()
    if request.method == "GET":
        form.revision.data = str(game.revision)
        return render_template("games/end.html", game=game, view=game.view, form=form, ending=ending,
                               standings=standings_line(game.view))
    if not form.validate():
        abort(400, "The form could not be read.")
    based_on = read_revision(form.revision.data)
    write = writing.end_game if ending else writing.reopen_game
    done = "ended" if ending else "reopened"
    try:
        with ahead_is_stale(game.id, based_on):
            write(game.id, based_on=based_on, key=access.key_held(game.id))
    except Conflict as err:
        now = access.game_or_404(game.id)
        if (now.ended_at is not None) == ending:  # sent twice, or another phone did it first: as asked
            flash(f"The game is {done} already.", "info")
        else:
            flash(f"Not {done}: the game changed since you loaded it. {what_changed(err.changes)}; here it is now.",
                  "error")
        return redirect(url_for("games.game", game_id=game.id), 303)
    except Full as err:
        flash(f"Not {done}: {err.message}.", "error")
        return redirect(url_for("games.game", game_id=game.id), 303)
    except KeyReplaced as err:
        abort(access.key_replaced_page(game, err.at))
    flash("The game is over: the table ended it here. Reopen it to record another deal." if ending
          else "The game is reopened: record the next deal, or end it again.", "ok")
    return redirect(url_for("games.game", game_id=game.id), 303)
