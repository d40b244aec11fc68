"""The web pages: server-rendered screens for a phone held in one hand at a card table.

Every read and write goes through :mod:`scorepad.storage.store`; who may write is
:mod:`scorepad.access`. Scripts only enhance: every screen works with JavaScript off.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import segno
from flask import Blueprint, abort, flash, make_response, redirect, render_template, request, session, url_for
from markupsafe import Markup

from .. import access
from ..links import external_url
from ..rules import PRESETS, judge, load_sheet
from ..rules.limits import MAX_GAME_ID
from ..rules.sheet import OPTION_BY_NAME, options_by_group
from ..storage import cache, db, store
from ..storage.errors import Conflict, Rejected, StorageError
from ..storage.store import GameRecord
from .chart import running_totals_chart
from .errors import status as status_of
from .forms import (
    RANKS,
    AmendForm,
    ConfirmForm,
    DealForm,
    DealMetaForm,
    NewGameForm,
    SheetEditor,
    SidesForm,
    card_groups,
    card_label,
    preset_displays,
)

bp = Blueprint("pages", __name__)


@bp.record_once
def _compact_templates(state: Any) -> None:
    """Block tags leave no blank lines behind: the deal page must stay small."""
    state.app.jinja_env.trim_blocks = True
    state.app.jinja_env.lstrip_blocks = True


bp.after_app_request(access.keep_keys_private)


@bp.app_context_processor
def _helpers() -> dict[str, Any]:
    return {"option_label": lambda name: OPTION_BY_NAME[name].label if name in OPTION_BY_NAME else name,
            "presets_meta": list(PRESETS.items()), "preset_titles": {k: p.title for k, p in PRESETS.items()}}


# -- helpers ------------------------------------------------------------------------------------


def _editable(game_id: str) -> GameRecord:
    game = access.game_or_404(game_id)
    access.require_edit(game)
    return game


def _revision(value: Any) -> int | None:
    """The form's hidden revision; None (no check) when it is not one a game could have."""
    try:
        revision = int(value)
    except (TypeError, ValueError):
        return None
    return revision if 0 <= revision <= 1_000_000_000 else None


def _qr(url: str, what: str) -> Markup:
    """A QR code as inline SVG (presentation attributes only, no style)."""
    svg = segno.make(url, error="m").svg_inline(scale=4, border=2, omitsize=True, svgclass="qr", lineclass="qr-dark",
                                                 dark="#000", light="#fff", title=f"QR code: {what}")
    return Markup(svg.replace("<svg ", f'<svg role="img" aria-label="QR code: {Markup.escape(what)}" ', 1))


def _state(game: GameRecord) -> str:
    """Where a game stands, in a few words: ``deal 3 of 4``, ``Ann wins``, ``tie``."""
    result = game.game.result()
    if result.over:
        if result.tie:
            top = result.standings[0].total
            return f"tie at {top:,}"
        return f"{result.winner} wins"
    number = game.next_number
    last = game.sheet.last_deal()
    if last is not None:
        return f"deal {number} of {last}"
    return f"deal {number}, playing to {game.sheet.target_score:,}"


def _ago(at: str) -> str:
    """When a change happened, as a phone at the table would say it."""
    try:
        seconds = (datetime.now(UTC) - datetime.fromisoformat(at)).total_seconds()
    except (TypeError, ValueError):
        return ""
    if seconds < 90:
        return "a moment ago"
    if seconds < 3600:
        return f"{round(seconds / 60)} minutes ago"
    return "over an hour ago"


def _what_changed(changes: list[dict[str, Any]]) -> str:
    """``Deal 3 was recorded a moment ago``: the changes a stale form missed, in words."""
    shown = [f"{c['message']} {_ago(c['at'])}".strip() for c in changes[-4:]]
    if len(changes) > 4:
        shown.insert(0, f"{len(changes) - 4} earlier change{'s' if len(changes) > 5 else ''}")
    text = "; ".join(shown) or "someone else changed the game"
    return text[0].upper() + text[1:]


def _sheet_changes(before: dict[str, Any] | None, after: dict[str, Any] | None) -> list[dict[str, str]]:
    """What an amendment changed, option by option, in words."""
    try:
        old, new = load_sheet(before), load_sheet(after)
    except Exception:  # an old sheet that no longer reads: say nothing rather than fail
        return []
    out = []
    for option in OPTION_BY_NAME.values():
        if getattr(old, option.name) != getattr(new, option.name):
            out.append({"label": option.label, "old": old.describe(option.name), "new": new.describe(option.name)})
    if old.preset != new.preset:
        out.insert(0, {"label": "Preset", "old": str(old.preset), "new": str(new.preset)})
    return out


# -- home and a new game ------------------------------------------------------------------------


@bp.get("/")
def home():
    games = store.recent_games(access.my_games())
    return render_template("home.html", games=[(g, _state(g)) for g in games])


@bp.route("/new", methods=["GET", "POST"])
def new_game():
    form = NewGameForm()
    if request.method == "GET":
        preset_id = request.args.get("preset", "common")
        if preset_id not in PRESETS:
            abort(404, f"There is no preset called {preset_id!r}.")
        return render_template("new_game.html", form=form, editor=SheetEditor.for_preset(preset_id),
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
            game = store.create_game(name or "Hand and Foot", editor.sheet_json(), sides_json)
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
            return redirect(url_for("pages.game", game_id=game.id), 303)
    else:
        status = 400
    return render_template("new_game.html", form=form, editor=editor, sides=sides, presets=preset_displays()), status


# -- a game -------------------------------------------------------------------------------------


@bp.get("/games/<game_id>")
def game(game_id: str):
    """The game page. What a viewer sees depends only on the game's revision, so it is
    rendered once per revision, kept in the app's cache, and answered with an ETag (a
    polling phone gets a 304). It holds no link: only the editor's page (never cached) does."""
    if access.may_hold_key(game_id) or session.get("_flashes"):
        game = access.game_or_404(game_id)
        access.used(game)
        response = make_response(_game_page(game))
        response.headers["Cache-Control"] = "no-store"  # this browser's page: an editor's shows the edit link
        return response
    found = store.revision(game_id) if len(game_id) <= MAX_GAME_ID else None
    if found is None:
        abort(404, access.NO_GAME)
    revision = found[0]
    kept = cache.current()
    html = kept.get(("game.html", db.path(), game_id, revision))
    if html is None:
        game = access.game_or_404(game_id)
        revision = game.revision  # a write may have landed since: file the page under what it shows
        html = _game_page(game)
        kept.put(("game.html", db.path(), game_id, revision), html)
    response = make_response(html)
    response.set_etag(f"{game_id}.{revision}")
    response.headers["Cache-Control"] = "no-cache"  # revalidate every time: the score moves
    return response.make_conditional(request)


def _game_page(game: GameRecord) -> str:
    played = game.game
    result = played.result()
    editor = access.can_edit(game)
    rows = []
    for record, totals in zip(game.deals, played.running_totals(), strict=True):
        verdict = record.verdict
        rows.append({"record": record, "totals": verdict.breakdown.totals(), "running": totals,
                     "ok": verdict.ok})
    upcoming = played.upcoming()
    links = None
    if editor:
        view_url = external_url("pages.game", game_id=game.id)
        edit_url = external_url("pages.edit_link", game_id=game.id, key=game.edit_key)
        links = {"view": view_url, "edit": edit_url, "view_qr": _qr(view_url, "the view link"),
                 "edit_qr": _qr(edit_url, "the edit link")}
    chart = running_totals_chart(game.side_names, [r.number for r in game.deals], played.running_totals())
    return render_template("game.html", game=game, rows=rows, result=result, can_edit=editor, upcoming=upcoming,
                           links=links, chart=chart, state=_state(game), problems=played.problems())


@bp.get("/games/<game_id>/edit/<key>")
def edit_link(game_id: str, key: str):
    game = access.game_or_404(game_id)
    if not access.key_matches(game, key):
        abort(403, "This edit link is not right for this game. Ask whoever started the game for it again.")
    access.grant(game)
    flash("This phone may now record and correct deals in this game.", "ok")
    return redirect(url_for("pages.game", game_id=game.id), 303)


@bp.get("/games/<game_id>/history")
def history(game_id: str):
    game = access.game_or_404(game_id)
    entries = store.history(game.id)
    for entry in entries:
        if entry["action"] == "amend":
            entry["changes"] = _sheet_changes(entry["before"], entry["after"])
    return render_template("history.html", game=game, entries=entries, can_edit=access.can_edit(game))


# -- the sheet ----------------------------------------------------------------------------------


@bp.get("/games/<game_id>/sheet")
def sheet(game_id: str):
    game = access.game_or_404(game_id)
    sheet = game.sheet
    preset = PRESETS.get(sheet.preset) if sheet.preset else None
    changed = {c.option: c for c in sheet.changes()}
    groups = []
    for group, title, options in options_by_group():
        groups.append((group, title, [{"name": o.name, "label": o.label, "help": o.help,
                                       "words": sheet.describe(o.name), "change": changed.get(o.name),
                                       "not_stated": preset.not_stated.get(o.name) if preset else None}
                                      for o in options]))
    amendments = [dict(e, changes=_sheet_changes(e["before"], e["after"])) for e in store.amendments(game.id)]
    return render_template("sheet.html", game=game, groups=groups, preset=preset, changes=list(changed.values()),
                           amendments=amendments, can_edit=access.can_edit(game))


@bp.route("/games/<game_id>/sheet/amend", methods=["GET", "POST"])
def amend_sheet(game_id: str):
    game = _editable(game_id)
    form = AmendForm()
    if request.method == "GET":
        form.revision.data = str(game.revision)
        preset_id = request.args.get("preset")
        if preset_id is not None and preset_id not in PRESETS:
            abort(404, f"There is no preset called {preset_id!r}.")
        editor = SheetEditor.for_preset(preset_id) if preset_id else SheetEditor.from_sheet(game.sheet)
        return render_template("amend.html", game=game, form=form, editor=editor, presets=preset_displays())
    if not form.validate() and set(form.errors) != {"reason"}:  # the reason's own error shows beside it
        abort(400, "; ".join(f"{form[k].label.text}: {' '.join(v)}" for k, v in form.errors.items()))
    preset_id = form.preset.data or None
    editor = SheetEditor.from_form(request.form, preset_id)
    reason_error = " ".join(form.reason.errors) or None
    status = 400
    reason = (form.reason.data or "").strip()
    if not reason:
        reason_error = "Say why the table changes the sheet; the reason is kept in the game's history."
    if editor.ok and not reason_error:
        try:
            store.amend_sheet(game.id, editor.sheet_json(), reason, based_on=_revision(form.revision.data))
        except Conflict as err:
            status = 409
            form.revision.data = str(err.revision)
            editor.errors.append(f"Not amended: the game changed since you loaded it. {_what_changed(err.changes)}. "
                                 "Your sheet is still below: check it, then save again.")
        except StorageError as err:
            status = status_of(err)
            if "reason" in err.field:
                reason_error = err.message
            else:
                editor.errors.append(err.message)
        else:
            flash("The sheet is amended; every deal is now scored under it.", "ok")
            return redirect(url_for("pages.sheet", game_id=game.id), 303)
    return render_template("amend.html", game=game, form=form, editor=editor, presets=preset_displays(),
                           reason_error=reason_error), status


# -- deals --------------------------------------------------------------------------------------


def _deal_page(game: GameRecord, form: DealForm, meta: DealMetaForm, number: int, *, editing: bool,
               summary: list[tuple[str, str]] | None = None, preview: Any = None, can_play: bool = False,
               status: int = 200, message: str | None = None, message_ok: bool = False,
               conflict: dict[str, Any] | None = None, must_fix: Any = ()):
    """The deal form; ``can_play`` offers saving it as played, ``must_fix`` lists the
    problems that must be corrected before it could be (the store's ``never_as_played``)."""
    sheet = game.sheet
    context = {
        "game": game, "form": form, "meta": meta, "number": number, "editing": editing,
        "summary": summary or [], "preview": preview, "can_play": can_play, "message": message,
        "message_ok": message_ok, "conflict": conflict, "must_fix": must_fix,
        "groups": card_groups(sheet), "ranks": RANKS, "card_label": card_label,
        "sheet_json": json.dumps(sheet.brief_json()),
        "books": sheet.going_out_books(number),
        "minimums": [(name, sheet.opening_minimum(number, total))
                     for name, total in game.totals_before(number).items()],
        "action": (url_for("pages.edit_deal", game_id=game.id, number=number) if editing
                   else url_for("pages.new_deal", game_id=game.id)),
    }
    return render_template("deal_form.html", **context), status


def _save_deal(game: GameRecord, number: int, editing: bool):  # noqa: C901 (four actions in one; issue 9 section 4 makes one function per action)
    """Read the posted deal; check it, or save it through the store (new or corrected)."""
    meta = DealMetaForm()
    if not meta.validate() and set(meta.errors) != {"reason"}:  # the reason's own error shows beside it
        abort(400, "; ".join(f"{meta[k].label.text}: {' '.join(v)}" for k, v in meta.errors.items()))
    action = request.form.get("action", "save")
    form = DealForm.from_form(game.sides, game.sheet, request.form, more_rows=action == "more")
    if action == "more":
        return _deal_page(game, form, meta, number, editing=editing)
    data = form.to_json(number if editing else None)
    if data is None:
        return _deal_page(game, form, meta, number, editing=editing, status=400,
                          message="Some boxes could not be read; each says why.")
    if action == "check":
        try:
            deal = store.read_deal(game, data, number)
        except StorageError as err:
            form.place(err.field, err.message)
            return _deal_page(game, form, meta, number, editing=editing, status=status_of(err),
                              message="Some boxes could not be read; each says why.")
        verdict = judge(deal)
        refused = store.refusal(game, deal, verdict)
        problems = refused.problems if refused else []
        summary = form.place_problems(problems)
        form.warnings = [p.message for p in verdict.report.warnings]
        return _deal_page(game, form, meta, number, editing=editing, summary=summary, preview=verdict,
                          can_play=bool(refused and refused.may_save_as_played),
                          must_fix=refused.never_as_played if refused else (), message_ok=not problems,
                          message=(f"Not saved yet. The referee found {len(problems)} problem"
                                   f"{'s' if len(problems) != 1 else ''}." if problems
                                   else "Not saved yet. The referee finds nothing wrong."))
    reason = (meta.reason.data or "").strip() if action == "as_played" else None
    if action == "as_played" and meta.reason.errors:
        return _deal_page(game, form, meta, number, editing=editing, status=400, can_play=True,
                          message="The reason could not be read; it says why.")
    if action == "as_played" and not reason:
        meta.reason.errors = ["Say briefly why the deal stands as played."]
        return _deal_page(game, form, meta, number, editing=editing, status=400, can_play=True,
                          message="A deal saved as played needs a reason.")
    try:
        if editing:
            store.update_deal(game.id, number, data, as_played=reason, based_on=_revision(meta.revision.data))
        else:
            store.record_deal(game.id, data, as_played=reason, based_on=_revision(meta.revision.data))
    except Rejected as err:
        summary = form.place_problems(err.problems)
        form.warnings = [p.message for p in err.verdict.report.warnings]
        n = len(err.problems)
        return _deal_page(game, form, meta, number, editing=editing, summary=summary, preview=err.verdict,
                          can_play=err.may_save_as_played, must_fix=err.never_as_played, status=422,
                          message=f"Not saved: the referee found {n} problem{'s' if n != 1 else ''}. "
                                  + ("Correct the deal, or save it as played with a reason." if err.may_save_as_played
                                     else "Correct the deal: it cannot be saved as played as it is."))
    except Conflict as err:
        # Another phone wrote first. Nothing typed is lost: the form comes back as it was
        # sent, now based on the game as it stands, with what changed in between.
        now = store.load_game(game.id) or game
        meta.revision.data = str(now.revision)
        changes = [dict(c, text=f"{c['message']} {_ago(c['at'])}".strip())
                   for c in store.changes_since(game.id, err.based_on) if c["revision"] <= now.revision]
        if not editing and now.next_number is not None:
            number = now.next_number
        conflict = {"changes": changes, "standings": now.game.result().standings,
                    "last": now.deals[-1].number if now.deals else None}
        return _deal_page(now, form, meta, number, editing=editing, status=409, conflict=conflict,
                          message=f"Not saved: the game changed since you loaded it. {_what_changed(changes)}; "
                                  "here is the game now. What you entered is still below: check it, then save "
                                  "again.")
    except StorageError as err:
        if status_of(err) == 404:
            abort(404, err.message)
        if err.field.startswith(("sides", "went_out", "ending")):
            form.place(err.field, err.message)
        elif err.field == "as_played.reason":
            meta.reason.errors = [err.message]
        return _deal_page(game, form, meta, number, editing=editing, status=status_of(err),
                          can_play=action == "as_played",  # keep the reason typed
                          message=f"Not saved ({status_of(err)}): {err.message}.")
    flash(f"Deal {number} {'corrected' if editing else 'saved'}.", "ok")
    return redirect(url_for("pages.game", game_id=game.id, _anchor=f"deal-{number}"), 303)


@bp.route("/games/<game_id>/deals/new", methods=["GET", "POST"])
def new_deal(game_id: str):
    game = _editable(game_id)
    number = game.next_number
    if number is None:
        flash("The game is over: correct a deal instead of adding one.", "info")
        return redirect(url_for("pages.game", game_id=game.id), 303)
    if request.method == "POST":
        return _save_deal(game, number, editing=False)
    meta = DealMetaForm(revision=str(game.revision))
    return _deal_page(game, DealForm.blank(game.sides, game.sheet), meta, number, editing=False)


@bp.get("/games/<game_id>/deals/<int:number>")
def deal(game_id: str, number: int):
    game = access.game_or_404(game_id)
    record = game.deal(number)
    if record is None:
        abort(404, f"Deal {number} of this game is not recorded.")
    verdict = record.verdict
    return render_template("deal.html", game=game, record=record, verdict=verdict,
                           sides=explained_sides(verdict, game.sheet),
                           history=store.history(game.id, number), can_edit=access.can_edit(game),
                           melds={s.name: s for s in record.deal.sides})


def explained_sides(verdict: Any, sheet: Any) -> list[dict[str, Any]]:
    """Each side's lines, each with the rule behind it: the option's label and the sheet's words."""
    sides = []
    for side in verdict.breakdown.sides:
        lines = []
        for line in side.lines:
            option = OPTION_BY_NAME.get(line.option)
            lines.append({"line": line, "label": option.label if option else line.option,
                          "says": sheet.describe(line.option) if option else ""})
        sides.append({"name": side.name, "total": side.total, "lines": lines})
    return sides


@bp.route("/games/<game_id>/deals/<int:number>/edit", methods=["GET", "POST"])
def edit_deal(game_id: str, number: int):
    game = _editable(game_id)
    record = game.deal(number)
    if record is None:
        abort(404, f"Deal {number} of this game is not recorded.")
    if request.method == "POST":
        return _save_deal(game, number, editing=True)
    meta = DealMetaForm(revision=str(game.revision), reason=record.as_played or "")
    form = DealForm.from_deal(game.sides, game.sheet, record.deal.to_json(with_sheet=False))
    return _deal_page(game, form, meta, number, editing=True, can_play=bool(record.as_played))


@bp.route("/games/<game_id>/deals/<int:number>/delete", methods=["GET", "POST"])
def delete_deal(game_id: str, number: int):
    game = _editable(game_id)
    record = game.deal(number)
    if record is None:
        abort(404, f"Deal {number} of this game is not recorded.")
    form = ConfirmForm()
    if request.method == "POST":
        if not form.validate():
            abort(400, "The form could not be read.")
        try:
            store.delete_deal(game.id, number, based_on=_revision(form.revision.data))
        except Conflict as err:
            now = store.load_game(game.id) or game
            still = now.deal(number) is not None
            flash(f"Not deleted: the game changed since you loaded it. {_what_changed(err.changes)}; "
                  f"here {'it' if still else 'the game'} is now.", "error")
            if still:
                return redirect(url_for("pages.deal", game_id=game.id, number=number), 303)
            return redirect(url_for("pages.game", game_id=game.id), 303)
        except StorageError as err:
            if status_of(err) == 404:
                abort(404, err.message)
            flash(f"Not deleted ({status_of(err)}): {err.message}.", "error")
            return redirect(url_for("pages.deal", game_id=game.id, number=number), 303)
        flash(f"Deal {number} deleted. What it held is kept in the game's history.", "ok")
        return redirect(url_for("pages.game", game_id=game.id), 303)
    form.revision.data = str(game.revision)
    return render_template("delete.html", game=game, record=record, form=form,
                           totals=record.verdict.breakdown.totals())
