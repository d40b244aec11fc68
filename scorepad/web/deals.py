"""A game's deals: record one, show one with its rules, correct one, delete one, and the live
preview of the deal form while it is typed.

The deal form is read by :class:`~scorepad.web.forms.deal.DealForm`, the one reader of what
a phone posts: saving, checking and the preview all use it. A posted form is one action,
each its own function (:data:`ACTIONS`): more meld rows, check, save, save as played, and
"Yes, record it again" (a deal the same as the one before it, played again).
Every write goes through :mod:`scorepad.storage.writing`, a save made once per the form's
idempotency key (a form sent again after its answer was lost is not saved twice); scripts
only enhance (``static/deal.js`` keeps a draft in the browser and retries a save offline).
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, session, url_for
from flask.typing import ResponseReturnValue
from werkzeug.wrappers import Response

from .. import access, keyed_writes
from ..retry import send_again_page
from ..rules.dispute import sheet_name
from ..rules.limits import MAX_DEALS, MAX_IDEMPOTENCY_KEY
from ..rules.problems import Problem
from ..rules.verdict import Verdict
from ..storage import checks, idempotency, open_deals, reading, writing
from ..storage.errors import AlreadyRecorded, Conflict, Gone, OutOfSpace, RuleViolations, SameAsPrevious, StorageError
from ..storage.reading import DealRecord, GameRecord
from .common import (
    ago,
    ahead_is_stale,
    editable,
    explained_sides,
    history_entries,
    read_revision,
    what_changed,
)
from .errors import status as status_of
from .forms import preset_choices
from .forms.deal import NO_ENDING, RANKS, DealForm
from .forms.deal_blocks import card_label
from .forms.deal_meta import ConfirmForm, DealMetaForm
from .forms.deal_shown import card_groups, going_out
from .phones import Phone, phone

bp = Blueprint("deals", __name__)

UNREADABLE = "Some boxes could not be read; each says why."
# Warnings the table cannot act on (the melds of a counted side are counted, not listed, so not
# checked one by one): the deal form and its live score show them on a game's first deal only.
ONCE_A_GAME = ("counted.unchecked",)


def worth_a_look(warnings: Sequence[Problem], number: int) -> list[Problem]:
    """The referee's warnings the deal form shows for deal ``number``: every one, but those
    said once a game (:data:`ONCE_A_GAME`) only on the game's first deal."""
    return [w for w in warnings if number == 1 or w.code not in ONCE_A_GAME]


def new_key() -> str:
    """A new idempotency key for a deal form (the page's script makes its own per draft)."""
    return str(uuid.uuid4())


@dataclass(frozen=True)
class Recorded:
    """A new deal's number another phone recorded first, as the deal form shows it at the top
    and in its bar: the deal as saved (when, its totals, its as-played reason) beside this
    phone's (its totals; None when what was typed cannot be scored), and where "Keep the
    saved one" and "Replace it with mine" (a correction of it) go."""

    number: int
    saved_at: str | None
    saved: dict[str, int]
    saved_as_played: str | None
    yours: dict[str, int] | None
    keep_url: str
    replace_url: str


@dataclass
class DealPage:
    """The deal form as it is shown: the form, and what the last action found. ``can_play``
    offers saving it as played; ``must_fix`` lists the problems that must be corrected
    before it could be (the store's ``never_as_played``)."""

    game: GameRecord
    form: DealForm
    meta: DealMetaForm
    number: int
    editing: bool
    summary: list[tuple[str, str]] = field(default_factory=list)
    preview: Verdict | None = None
    can_play: bool = False
    must_fix: Sequence[Problem] = ()
    message: str | None = None
    message_ok: bool = False
    message_at: str | None = None  # the id of the control the message is about
    conflict: dict[str, object] | None = None
    recorded: Recorded | None = None  # the deal's number was recorded first by another phone
    repeat_of: int | None = None  # the deal is the same as this one, recorded before it: confirm
    phone: Phone | None = None  # what this phone enters for and whose it is (a new deal's form)
    part: object | None = None  # this phone enters one side's part: the open deal's progress (.open_deals)
    action_url: str | None = None  # where the form posts, when not the deal's own form (a part)
    taken: object | None = None  # the part another phone entered first (.open_deals.Taken): keep or replace
    open_parts: int = 0  # parts of this deal other phones saved (it is being entered part by part)
    status: int = 200

    def render(self) -> tuple[str, int]:
        game, sheet, number = self.game, self.game.sheet, self.number
        if not self.meta.idempotency_key.data:
            self.meta.idempotency_key.data = new_key()
        if not self.editing:
            self.meta.deal_number.data = str(number)
        context = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "status"}
        rules = game.rules.deal_rules(number)
        context.update(
            groups=card_groups(sheet), ranks=RANKS + tuple(card.value for card, _ in sheet.three_books),
            card_label=card_label, rules=rules,
            outs=going_out(rules.going_out_books, sheet, self.preview.deal if self.preview else None, self.form.sides),
            # Counts chosen in one touch: naturals 0 to a book (at most 7+), wild cards 0-3+ and 0-2+
            # (a meld rarely holds more), red threes 0-6+, failed takes of the pile 0-3+; what the
            # script's segments offer.
            segs=f"naturals:{min(sheet.book_size, 7)} twos:3 jokers:2 red_threes:6 b:6 failed:3",
            action=self.action_url or (url_for("deals.edit_deal", game_id=game.id, number=number) if self.editing
                                       else url_for("deals.new_deal", game_id=game.id)),
            shown=[self.phone.side] if self.phone and self.phone.side is not None and self.part else None,
        )
        return render_template("deals/deal_form.html", **context), self.status

    def judged(self, verdict: Verdict, problems: Sequence[Problem]) -> None:
        """Place the referee's problems on the form, with its warnings and score."""
        self.summary = self.form.place_problems(problems)
        self.form.warnings = [p.message for p in worth_a_look(verdict.report.warnings, self.number)]
        self.form.not_checked = [u.reason for u in verdict.report.not_checked]
        self.preview = verdict


# -- the actions of a posted deal form -------------------------------------------------------------


def _more(page: DealPage) -> DealPage:
    """More meld rows (the form was read with four more): nothing else changes."""
    return page


def _read(page: DealPage) -> dict[str, object] | None:
    """The deal as typed, in canonical JSON, naming the deal it is (None: some input says why
    it cannot be read)."""
    return page.form.to_json(page.number)


def _unreadable(page: DealPage, status: int = 400) -> DealPage:
    """The form again, saying what to do: who went out, when that is missing, before the rest."""
    form = page.form
    if not form.ending_problems:
        return dataclasses.replace(page, status=status, message=UNREADABLE)
    others = len(form.form_errors) > len(form.ending_problems)
    return dataclasses.replace(page, status=status, message=NO_ENDING + (" " + UNREADABLE if others else ""),
                               message_at="ending")


def _check(page: DealPage) -> DealPage:
    """The referee's verdict on the deal as typed, without saving it."""
    data = _read(page)
    if data is None:
        return _unreadable(page)
    try:
        deal = checks.read_deal(page.game, data, page.number)
    except StorageError as err:
        page.form.place(err.field, err.message)
        return _unreadable(page, status_of(err))
    verdict = page.game.rules.judge(deal)
    refused = checks.rule_violations(page.game, deal, verdict)
    problems = refused.problems if refused else []
    page.judged(verdict, problems)
    n = len(problems)
    return dataclasses.replace(
        page, can_play=bool(refused and refused.may_save_as_played),
        must_fix=refused.never_as_played if refused else (), message_ok=not problems,
        message=(f"Not saved yet. The referee found {n} problem{'s' if n != 1 else ''}." if problems
                 else "Not saved yet. The referee finds nothing wrong."))


def _save(page: DealPage) -> DealPage | Response:
    """Save the deal (new or corrected) if the referee finds nothing wrong."""
    data = _read(page)
    return _unreadable(page) if data is None else _write(page, data, None)


def _save_as_played(page: DealPage) -> DealPage | Response:
    """Save the deal as it was played, against the sheet, with the table's reason."""
    data = _read(page)
    if data is None:
        return _unreadable(page)
    reason = page.meta.reason
    if reason.errors:
        return dataclasses.replace(page, status=400, can_play=True,
                                   message="The reason could not be read; it says why.")
    text = (reason.data or "").strip()
    if not text:
        reason.errors = ["Say briefly why the deal stands as played."]
        return dataclasses.replace(page, status=400, can_play=True, message="A deal saved as played needs a reason.")
    return _write(page, data, text)


def _save_again(page: DealPage) -> DealPage | Response:
    """"Yes, record it again": the deal is the same as the one before it, and the table says it
    was played so. Kept on the form (its hidden ``repeat``), so a save as played carries it too."""
    page.meta.repeat.data = "1"
    return _save_as_played(page) if (page.meta.reason.data or "").strip() else _save(page)


ACTIONS: dict[str, Callable[[DealPage], DealPage | Response]] = {
    "more": _more, "check": _check, "save": _save, "as_played": _save_as_played, "repeat": _save_again}


def _write(page: DealPage, data: dict[str, object], as_played: str | None) -> DealPage | Response:
    """Record or correct the deal through the store; the form again, saying why, if it is not saved.

    With the form's idempotency key (the ``Idempotency-Key`` header a script sends, else the
    hidden ``idempotency_key`` field), the save is made once per key (:func:`idempotency.once`,
    scoped by this route, the game and the edit key this phone holds, so never one of the
    API's keys, nor once the key is replaced): the same form sent again
    after its answer was lost ends on the saved deal (:func:`_saved`, from what the first
    save made), and nothing is written twice."""
    game, number, editing = page.game, page.number, page.editing
    based_on = read_revision(page.meta.revision.data)
    key = request.headers.get("Idempotency-Key") or page.meta.idempotency_key.data or None
    repeat = not editing and page.meta.repeat.data == "1"

    def write(once: idempotency.Once[DealRecord] | None) -> DealRecord:
        with ahead_is_stale(game.id, based_on):
            reason = checks.read_reason_field(as_played)
            with checks.stale_first(game.id, based_on):
                read = checks.read_correction(game, data, number) if editing else checks.read_new_deal(game, data)
            if editing:
                return writing.update_deal(game.id, number, read, as_played=reason, based_on=based_on, once=once,
                                           key=access.key_held(game.id))
            return writing.record_deal(game.id, read, as_played=reason, based_on=based_on, once=once, repeat=repeat,
                                       key=access.key_held(game.id), named=checks.names_its_number(data))

    try:
        if key is None:
            saved: DealRecord | idempotency.Made = write(None)
        else:
            sent = [request.path, data, as_played, based_on] + (["repeat"] if repeat else [])
            found = keyed_writes.make_once(game.id, key, keyed_writes.digest_of(sent),
                                           client=reading.key_digest(game.edit_key),  # the key this phone holds
                                           write=write)
            if found is idempotency.KeyTaken.REUSED:
                return _key_reused(page)
            if found is idempotency.KeyTaken.IN_PROGRESS:
                return send_again_page(503, "Still saving", "This deal is being saved just now. Send it again in a "
                                   "moment to see it saved; it will not be saved twice.", retry_after=1)
            saved = found
    except (StorageError, OutOfSpace) as err:
        return _refused(page, err, as_played is not None)
    return _saved(game, editing, saved)


def _saved(game: GameRecord, editing: bool, saved: DealRecord | idempotency.Made) -> Response:
    """The answer to a saved deal: the game page at its top, flashing what was saved; the
    same to a form sent again after its answer was lost (``saved`` is then what the first
    save made), its flash not shown twice."""
    if isinstance(saved, idempotency.Made):
        said = f"Deal {saved.deal} {'corrected' if saved.kind is idempotency.Kind.DEAL_CORRECTED else 'saved'}."
    elif editing and saved.revision == game.revision:  # the same deal as recorded: nothing was written
        said = f"Deal {saved.number} unchanged: it was already recorded just so."
    else:
        said = f"Deal {saved.number} {'corrected' if editing else 'saved'}."
    if ("ok", said) not in map(tuple, session.get("_flashes", [])):  # the first answer's came through
        flash(said, "ok")
    # At the top of the page (#main): what was saved, the standings and "Record deal N+1" in view.
    return redirect(url_for("games.game", game_id=game.id, _anchor="main"), 303)


def _refused(page: DealPage, err: StorageError | OutOfSpace, as_played: bool) -> DealPage:
    """The form again, saying why the store did not save it."""
    if isinstance(err, RuleViolations):
        return _rejected(page, err)
    if isinstance(err, AlreadyRecorded):
        return _already_recorded(page, err.yours)
    if isinstance(err, SameAsPrevious):
        return _same_as_previous(page, err)
    if isinstance(err, Conflict):
        return _conflict(page, err)
    return _not_saved(page, err, as_played)


def _key_reused(page: DealPage) -> DealPage:
    """The form's key was kept for a save of other entries (a form saved, then changed and
    sent again as it was): nothing saved now; the entries come back with a new key, based on
    the game as it now stands, to check and save again."""
    now = reading.load_game(page.game.id) or page.game
    page.meta.revision.data = str(now.revision)
    page.meta.idempotency_key.data = new_key()
    if not page.editing and now.deal(page.number) is not None:
        return _already_recorded(page, None)
    return dataclasses.replace(  # the same deal's form: a save is never moved to another number
        page, game=now, status=422,
        message="Not saved: this form was saved before with other entries. What you entered is still below, "
                "with the game as it now stands: check it, then save again.")


def _rejected(page: DealPage, err: RuleViolations) -> DealPage:
    """The referee refused the deal: its problems on the form, and whether it may stand as played."""
    page.judged(err.verdict, err.problems)
    n = len(err.problems)
    return dataclasses.replace(
        page, can_play=err.may_save_as_played, must_fix=err.never_as_played, status=422,
        message=f"Not saved: the referee found {n} problem{'s' if n != 1 else ''}. "
                + ("Correct the deal, or save it as played with a reason." if err.may_save_as_played
                   else "Correct the deal: it cannot be saved as played as it is."))


def _conflict(page: DealPage, err: Conflict) -> DealPage:
    """Another phone wrote first. Nothing typed is lost: the form comes back as it was sent,
    now based on the game as it stands, with what changed in between."""
    game = page.game
    now = reading.load_game(game.id) or game
    if not page.editing and now.deal(page.number) is not None:  # this very deal, recorded meanwhile
        return _already_recorded(page, None)
    page.meta.revision.data = str(now.revision)
    changes = [dict(c, text=f"{c['message']} {ago(c['at'])}".strip())
               for c in reading.changes_since(game.id, err.based_on)
               if isinstance(c["revision"], int) and c["revision"] <= now.revision]
    conflict: dict[str, object] = {"changes": changes, "standings": now.view.result.standings,
                                   "last": now.deals[-1].number if now.deals else None}
    return dataclasses.replace(  # the same deal's form: a save is never moved to another number
        page, game=now, status=409, conflict=conflict,
        message=f"Not saved: the game changed since you loaded it. {what_changed(changes)}; here is the game now. "
                "What you entered is still below: check it, then save again.")


def _already_recorded(page: DealPage, yours: Verdict | None) -> DealPage:
    """Another phone (or this form, sent before) recorded this deal's number first: nothing
    saved, nothing moved to another number. The form comes back as it was sent, based on the
    game as it now stands, with the deal as saved beside this phone's (``yours``, judged by
    the store; else judged here, when what was typed can be), to keep or to replace it with
    (a correction)."""
    now = reading.load_game(page.game.id) or page.game
    saved = now.deal(page.number)
    if saved is None:  # deleted again meanwhile: the number is free, the form as it was
        return dataclasses.replace(page, game=now, status=409, message="Not saved: the game changed since you "
                                   "loaded it. What you entered is still below: check it, then save again.")
    page.meta.revision.data = str(now.revision)  # "Replace it with mine" corrects the deal as shown
    if yours is None:
        data = _read(page)
        try:
            yours = now.rules.judge(checks.read_deal(now, data, page.number)) if data is not None else None
        except StorageError:
            yours = None
    entries = reading.history(now.id, page.number)
    recorded = Recorded(page.number, entries[-1]["at"] if entries else None, saved.verdict.breakdown.totals(),
                        saved.as_played, yours.breakdown.totals() if yours else None,
                        url_for("games.game", game_id=now.id, _anchor=f"deal-{page.number}"),
                        url_for("deals.edit_deal", game_id=now.id, number=page.number))
    when = ago(recorded.saved_at or "")
    return dataclasses.replace(
        page, game=now, status=409, recorded=recorded, message_at="recorded",
        message=f"Not saved: deal {page.number} was already saved{' ' + when if when else ''}, perhaps by another "
                "phone. Keep the saved one, or replace it with yours (what you entered is still below).")


def _same_as_previous(page: DealPage, err: SameAsPrevious) -> DealPage:
    """The deal is the same as the one recorded before it, every side and the ending: a deal
    saved twice, unless the table says it was played again ("Yes, record it again")."""
    page.preview = err.verdict  # its score in the bar; its warnings are not the question now
    return dataclasses.replace(
        page, status=422, repeat_of=err.previous, can_play=bool(page.meta.reason.data), message_at="repeat",
        message=f"Not saved: deal {err.number} is the same as deal {err.previous}, every side and the ending. "
                "Record it again only if the table really played the same deal again.")


def _not_saved(page: DealPage, err: StorageError | OutOfSpace, as_played: bool) -> DealPage:
    """The store could not take the deal: its message next to the input it names. Out of
    space, the form as typed, to be sent again as it is once space is freed."""
    if isinstance(err, OutOfSpace):
        return dataclasses.replace(page, status=status_of(err), can_play=as_played,
                                   message="Not saved: the server is out of space. What you entered is still "
                                           "below: save it again once whoever runs the server has freed space.")
    if isinstance(err, Gone):
        access.missing(page.game.id)
    if status_of(err) == 404:
        abort(404, err.message)
    if err.field.startswith(("sides", "went_out", "ending")):
        page.form.place(err.field, err.message)
    elif err.field == "as_played.reason":
        page.meta.reason.errors = [err.message]
    return dataclasses.replace(page, status=status_of(err), can_play=as_played,  # keep the reason typed
                               message=f"Not saved ({status_of(err)}): {err.message}.")


def _posted(game: GameRecord, number: int, editing: bool) -> ResponseReturnValue:
    """Read the posted deal form and do what its button asks."""
    meta = DealMetaForm()
    if not meta.validate() and set(meta.errors) != {"reason"}:  # the reason's own error shows beside it
        abort(400, "; ".join(f"{meta[k].label.text}: {' '.join(v)}" for k, v in meta.errors.items()))
    key = request.headers.get("Idempotency-Key") or meta.idempotency_key.data
    if key and not keyed_writes.is_key(key):
        abort(400, f"The form's idempotency key must be 1 to {MAX_IDEMPOTENCY_KEY} printable ASCII characters. "
                   "Reload the page and try again; nothing was saved.")
    action = request.form.get("action", "save")
    itemise = _itemised_side(action)
    if itemise is not None:
        action = "more"  # the same form again, that side now in meld rows; nothing else changes
    form = DealForm.from_form(game.sides, game.sheet, request.form, more_rows=action == "more" and itemise is None,
                              itemise=itemise, number=number)
    page = DealPage(game, form, meta, number, editing, phone=None if editing else phone(game))
    done = ACTIONS.get(action, _save)(page)
    return done.render() if isinstance(done, DealPage) else done


def _itemised_side(action: str) -> int | None:
    """The side an "Itemise melds" button names (``itemise-s1``: side 1), else None."""
    side = action.removeprefix("itemise-s")
    return int(side) if side != action and side.isascii() and side.isdigit() and len(side) < 3 else None


# -- routes ------------------------------------------------------------------------------------------


def _form_number() -> int | None:
    """The number of the new deal a posted form was opened for (its hidden ``deal_number``);
    None for a form that does not say (one opened before forms said it): then the next deal."""
    sent = request.form.get("deal_number", "")
    if not sent:
        return None
    if not (sent.isascii() and sent.isdigit() and len(sent) <= len(str(MAX_DEALS)) and 1 <= int(sent) <= MAX_DEALS):
        abort(400, f"The form's deal number must be 1 to {MAX_DEALS}. Reload the page and try again; nothing "
                   "was saved.")
    return int(sent)


@bp.route("/games/<game_id>/deals/new", methods=["GET", "POST"])
def new_deal(game_id: str) -> ResponseReturnValue:
    """The form for the next deal; posted, a save of the deal it was opened for, never another."""
    game = editable(game_id)
    number = (_form_number() if request.method == "POST" else None) or game.next_number
    if number is None:
        flash("The table ended the game: reopen it (on the game page) to record another deal." if game.ended_at
              else "The game is over: correct a deal instead of adding one.", "info")
        return redirect(url_for("games.game", game_id=game.id), 303)
    if request.method == "POST":
        return _posted(game, number, editing=False)
    this = phone(game)
    if this.side is not None:  # this phone enters one side's part (.open_deals)
        return redirect(url_for("parts.part", game_id=game.id, number=number), 303)
    meta = DealMetaForm(revision=str(game.revision))
    try:
        opened = len(open_deals.read_open(game.id, number).parts)
    except StorageError:
        opened = 0
    return DealPage(game, DealForm.blank(game.sides, game.sheet, number), meta, number, editing=False,
                    phone=this, open_parts=opened).render()


@bp.post("/games/<game_id>/deals/<int:number>/preview")
def preview(game_id: str, number: int) -> ResponseReturnValue:
    """The live score and the referee's problems of the deal form as typed so far, as the
    fragment the form shows under its inputs: read by the same reader as a saved deal,
    nothing saved. The deal need not say yet who went out. A box the form refuses (one it
    cannot read, a negative count) makes its side's score "?", never counted."""
    game = access.game_or_404(game_id)
    form = DealForm.from_form(game.sides, game.sheet, request.form, number=number)
    return live(game, number, form, form.to_json(need_ending=False, refused_as_blank=True))


# Any: the deal's JSON as the form builds it (DealForm.to_json), nested dicts filled in place
def live(game: GameRecord, number: int, form: DealForm, data: dict[str, Any] | None, mine: int | None = None,
         ending_waiting: bool = False) -> str:
    """The live preview of ``data`` (the deal as ``form`` read it, a refused box as blank),
    for one side's part (``mine``: that side's score, problems and going out only), else every side.
    ``ending_waiting``: no phone has said how the deal ended yet, which is progress, not a problem."""
    unknown = form.refused_sides()  # a side's score never counts what the form refuses: "?"
    try:
        deal = checks.read_deal(game, data, number)
    except StorageError as err:
        error = f"{err.message} ({err.field})" if err.field else err.message
        return render_template("deals/_live.html", error=error)
    verdict = game.rules.judge(deal)
    refused = checks.rule_violations(game, deal, verdict)
    unknown |= {p.side for p in (refused.problems if refused else []) if p.code == "count.negative" and p.side}

    def ours(problem: Problem) -> bool:
        if ending_waiting and problem.code == "went_out.player":
            return False  # said as progress below
        return mine is None or problem.side in (None, game.sides[mine]["name"])

    problems = form.place_problems([p for p in refused.problems if ours(p)] if refused else [])
    warnings = [(form.place_problem(p), p.message) for p in worth_a_look(verdict.report.warnings, number) if ours(p)]
    outs = going_out(game.rules.deal_rules(number).going_out_books, game.sheet, deal, form.sides)
    sides = [s for i, s in enumerate(verdict.breakdown.sides) if mine in (None, i)]
    return render_template("deals/_live.html", sides=sides, problems=problems, warnings=warnings,
                           outs=[o for o in outs if mine in (None, o.side)], unknown=unknown,
                           unread=form.form_errors[:1], ending_waiting=ending_waiting)


@bp.get("/games/<game_id>/deals/<int:number>")
def deal(game_id: str, number: int) -> ResponseReturnValue:
    game = access.game_or_404(game_id)
    record = access.deal_or_404(game, number)
    verdict = record.verdict
    return render_template("deals/deal.html", game=game, record=record, verdict=verdict,
                           rules=game.rules.deal_rules(number),
                           sides=explained_sides(verdict, game.sheet), sheet_title=sheet_name(game.sheet),
                           presets=preset_choices(),
                           history=history_entries(game, reading.history(game.id, number)),
                           can_edit=access.can_edit(game),
                           melds={s.name: s for s in record.deal.sides})


@bp.route("/games/<game_id>/deals/<int:number>/edit", methods=["GET", "POST"])
def edit_deal(game_id: str, number: int) -> ResponseReturnValue:
    game = editable(game_id)
    record = access.deal_or_404(game, number)
    if any(side.counted != player.counted and (player.counted or player.holds_cards)
           for side in record.deal.sides for player in side.players):
        # A side's form is counted (points left) or itemised (cards left) throughout: a deal
        # recorded elsewhere with both in one side would lose its cards or its points here.
        flash(f"Deal {number} gives one side's hands both ways (cards and points), which this form cannot "
              "show; nothing was changed. Correct it with 'flask deal correct' or the API.", "error")
        return redirect(url_for("deals.deal", game_id=game.id, number=number), 303)
    if request.method == "POST":
        return _posted(game, number, editing=True)
    meta = DealMetaForm(revision=str(game.revision), reason=record.as_played or "")
    form = DealForm.from_deal(game.sides, game.sheet, record.deal.to_json(with_sheet=False), number)
    return DealPage(game, form, meta, number, editing=True, preview=record.verdict,
                    can_play=bool(record.as_played)).render()


@bp.route("/games/<game_id>/deals/<int:number>/delete", methods=["GET", "POST"])
def delete_deal(game_id: str, number: int) -> ResponseReturnValue:
    game = editable(game_id)
    record = access.deal_or_404(game, number)
    form = ConfirmForm()
    if request.method == "POST":
        if not form.validate():
            abort(400, "The form could not be read.")
        based_on = read_revision(form.revision.data)
        try:
            with ahead_is_stale(game.id, based_on):
                writing.delete_deal(game.id, number, based_on=based_on, key=access.key_held(game.id))
        except Conflict as err:
            now = reading.load_game(game.id) or game
            still = now.deal(number) is not None
            flash(f"Not deleted: the game changed since you loaded it. {what_changed(err.changes)}; "
                  f"here {'it' if still else 'the game'} is now.", "error")
            if still:
                return redirect(url_for("deals.deal", game_id=game.id, number=number), 303)
            return redirect(url_for("games.game", game_id=game.id), 303)
        except StorageError as err:
            if status_of(err) == 404:
                abort(404, err.message)
            flash(f"Not deleted ({status_of(err)}): {err.message}.", "error")
            return redirect(url_for("deals.deal", game_id=game.id, number=number), 303)
        flash(f"Deal {number} deleted. What it held is kept in the game's history.", "ok")
        return redirect(url_for("games.game", game_id=game.id), 303)
    form.revision.data = str(game.revision)
    return render_template("deals/delete.html", game=game, record=record, form=form,
                           totals=record.score.totals())
