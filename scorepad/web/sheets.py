"""A game's rule sheet: every option in words with what the table changed, and the amendment
of the sheet during the game (with a reason kept in the game's history).
"""

from __future__ import annotations

from flask import Blueprint, abort, flash, jsonify, make_response, redirect, render_template, request, session, url_for
from flask.typing import ResponseReturnValue

from .. import access, downloads
from ..rules import PRESETS
from ..rules.catalogue import options_by_group
from ..storage import checks, reading, writing
from ..storage.errors import Conflict, StorageError
from .common import ahead_is_stale, editable, read_revision, sheet_changes, what_changed
from .errors import status as status_of
from .forms.sheet_editor import AmendForm, SheetEditor, preset_displays

bp = Blueprint("sheets", __name__)


@bp.get("/sheets/words")
def words() -> ResponseReturnValue:
    """Each option's words for the sheet editor's boxes as typed (sent in the query, as the
    editor's GET forms send them): what sheet.js puts in the "Now:" hints without a round
    trip of the page. None for an option that cannot be read. It reads and keeps nothing."""
    preset_id = request.args.get("preset") or None
    editor = SheetEditor.from_form(request.args, preset_id if preset_id in PRESETS else None)
    response = jsonify({"words": editor.words()})
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/games/<game_id>/sheet")
def sheet(game_id: str) -> ResponseReturnValue:
    """The game's sheet page: for a watcher, the same at one revision (:func:`downloads.per_revision`)."""
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
    amendments = [dict(e, changes=sheet_changes(e["before"], e["after"])) for e in reading.amendments(game.id)]
    page = make_response(render_template("sheets/sheet.html", game=game, groups=groups, preset=preset,
                                         changes=list(changed.values()), amendments=amendments,
                                         can_edit=access.can_edit(game), house_rules=sheet.house_rules))
    if access.may_hold_key(game.id) or session.get("_flashes"):
        return page  # this phone's own: the amend button, or a message
    return downloads.per_revision(page, game)  # every watcher's


@bp.route("/games/<game_id>/sheet/amend", methods=["GET", "POST"])
def amend_sheet(game_id: str) -> ResponseReturnValue:
    game = editable(game_id)
    form = AmendForm()
    if request.method == "GET":
        form.revision.data = str(game.revision)
        preset_id = request.args.get("preset")
        if preset_id is not None and preset_id not in PRESETS:
            abort(404, f"There is no preset called {preset_id!r}.")
        editor = SheetEditor.for_preset(preset_id) if preset_id else SheetEditor.from_sheet(game.sheet)
        return render_template("sheets/amend.html", game=game, form=form, editor=editor, presets=preset_displays())
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
        based_on = read_revision(form.revision.data)
        try:
            with ahead_is_stale(game.id, based_on):
                said = checks.read_amend_reason(reason)
                with checks.stale_first(game.id, based_on):
                    sheet = checks.read_sheet(editor.sheet_json())
                writing.amend_sheet(game.id, sheet, said, based_on=based_on, key=access.key_held(game.id))
        except Conflict as err:
            status = 409
            form.revision.data = str(err.revision)
            editor.errors.append(f"Not amended: the game changed since you loaded it. {what_changed(err.changes)}. "
                                 "Your sheet is still below: check it, then save again.")
        except StorageError as err:
            status = status_of(err)
            if "reason" in err.field:
                reason_error = err.message
            else:
                editor.errors.append(err.message)
        else:
            flash("The sheet is amended; every deal is now scored under it.", "ok")
            return redirect(url_for("sheets.sheet", game_id=game.id), 303)
    problems = [("reason", reason_error)] if reason_error else []
    return render_template("sheets/amend.html", game=game, form=form, editor=editor, presets=preset_displays(),
                           reason_error=reason_error, problems=editor.problems() + problems), status
