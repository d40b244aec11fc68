"""A deal entered part by part, the table's phones together (issue 24): each phone says once
per game whom it enters for and whose phone it is (:mod:`.phones`, the page
:func:`this_phone`); a phone entering one side's part is sent here from the deal form
(:func:`part`), which shows that side's boxes and the ending, and above them the open deal's
progress (each side's part: entered by which phone, its score, its confirmation; the ending).

Every save goes through :mod:`scorepad.storage.open_deals`, which keeps the parts in the
database and writes the deal when the last part makes it whole and clean. The form is the
deal form (:mod:`.deals`: the same boxes, reader and problems); its answers are new here:

- a part saved while others wait: the part's form again (a plain post's answer is a
  redirect to it), with the progress;
- the part that completes a clean deal: the game page, saying so;
- a completed deal with problems: nothing written; each phone sees its own side's problems
  on its form, and "Save as played" (with a reason) for the whole table;
- a part another phone entered first: theirs beside this phone's, to keep or to replace;
- with the game's ``confirm`` set to ``opponents``, a phone of another side confirms each
  part, having seen its score line by line (:func:`confirm`).

``live.js`` asks for the game's revision and open counter every few seconds and, when the
counter moves, puts :func:`progress` in place of the progress box; when the revision moves
(the deal was written), the box says so, visibly, with a link to the game.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from werkzeug.wrappers import Response

from .. import access, keyed_writes
from ..retry import send_again_page
from ..rules.choices import Confirm
from ..rules.problems import Problem
from ..rules.verdict import Verdict
from ..storage import checks, idempotency, open_deals, reading
from ..storage.errors import (
    ConfirmRefused,
    NotNext,
    OutOfSpace,
    PartEntered,
    RuleViolations,
    SameAsPrevious,
    StorageError,
)
from ..storage.open_deals import OpenDeal
from ..storage.parts import ENDING, ENDING_FIELDS, OpenPart
from ..storage.reading import DealRecord, GameRecord
from .common import ExplainedSide, editable, explained_sides
from .deals import DealPage, live, new_key
from .errors import status as status_of
from .forms.deal import DealForm
from .forms.deal_meta import DealMetaForm
from .forms.phone import PhoneForm, read_choice
from .phones import Phone, choose, phone

bp = Blueprint("parts", __name__)


@dataclass(frozen=True)
class PartShown:
    """One side's part as the progress box shows it: ``by`` the phone that entered it (None:
    waiting), its ``total`` in the deal as it stands, ``confirm`` in words, and whether this
    phone may confirm it (a phone of another side, in a game whose parts are confirmed), with
    its score line by line to check first."""

    position: int  # 1-based, as the store names a side's part
    name: str
    by: str | None = None
    total: int | None = None
    version: int = 0
    mine: bool = False
    confirm: str | None = None
    confirmed: bool = False
    can_confirm: bool = False
    lines: ExplainedSide | None = None


@dataclass(frozen=True)
class Progress:
    """The open deal ``number`` as every phone sees it: its parts, the ending in words, how
    many problems the referee found once every part is in (nothing is written then), the
    counters the page polls, and ``written``: the deal was written meanwhile, by whom."""

    number: int
    parts: list[PartShown]
    ending: str | None
    ending_by: str | None
    problems: int
    open: int
    revision: int
    written: str | None = None


# -- the open deal, as the store keeps it ------------------------------------------------------------


def open_deal(game: GameRecord, number: int) -> OpenDeal | None:
    """The open deal ``number`` (the game's next), with the parts saved so far; None when
    ``number`` is not the next deal."""
    try:
        return open_deals.read_open(game.id, number)
    except (NotNext, StorageError):
        return None


def _parts(opened: OpenDeal | None) -> dict[str, OpenPart]:
    """The open deal's parts by name (a side's 1-based position, or the ending)."""
    return {p.part: p for p in opened.parts} if opened is not None else {}


def _blank_side(game: GameRecord, index: int) -> dict[str, object]:
    side = game.sides[index]
    return {"name": side["name"], "books": {}, "meld_points": 0,
            "players": [{"name": name, "foot_picked_up": True, "cards_left_points": 0} for name in side["players"]]}


def _deal_json(game: GameRecord, number: int, parts: dict[str, OpenPart]) -> dict[str, object]:
    """The deal as its parts make it so far, a side not yet in as a blank one."""
    ending = parts.get(ENDING)
    said = ending.ending.to_json() if ending is not None and ending.ending is not None else {}
    deal: dict[str, object] = {k: v for k, v in said.items() if k not in ("as_played", "repeat")}
    deal.setdefault("ending", "went_out")
    deal.setdefault("went_out", None)
    deal["deal"] = number
    deal["sides"] = [parts[str(i + 1)].body() if str(i + 1) in parts else _blank_side(game, i)
                     for i in range(len(game.sides))]
    return deal


def _judged(game: GameRecord, number: int, parts: dict[str, OpenPart]) -> tuple[Verdict, Sequence[Problem]] | None:
    """The referee's verdict on the deal as its parts make it, with its problems; None when
    it cannot be read."""
    try:
        deal = checks.read_deal(game, _deal_json(game, number, parts), number)
    except StorageError:
        return None
    verdict = game.rules.judge(deal)
    refused = checks.rule_violations(game, deal, verdict)
    return verdict, refused.problems if refused else ()


def _ending_words(parts: dict[str, OpenPart]) -> tuple[str | None, str | None]:
    ending = parts.get(ENDING)
    if ending is None or ending.ending is None:
        return None, None
    said = ending.ending
    words = f"{said.went_out} went out" if said.went_out else "the stock ran out"
    return words[:1].upper() + words[1:], ending.phone


def progress_of(game: GameRecord, number: int, this: Phone, opened: OpenDeal | None) -> Progress:
    """The open deal ``number`` of ``game`` as ``this`` phone sees it."""
    parts = _parts(opened)
    judged = _judged(game, number, parts)
    totals = judged[0].breakdown.totals() if judged else {}
    explained = {s["name"]: s for s in explained_sides(judged[0], game.sheet)} if judged else {}
    confirming = game.confirm is Confirm.OPPONENTS
    shown = []
    for i, side in enumerate(game.sides):
        kept = parts.get(str(i + 1))
        if kept is None:
            shown.append(PartShown(i + 1, side["name"], mine=this.side == i))
            continue
        confirmed = kept.confirmed_by is not None
        words = (f"confirmed by {kept.confirmed_by}" if confirmed else "waiting for another side to confirm"
                 ) if confirming else None
        may = confirming and not confirmed and this.side is not None and this.side != i and this.label != kept.phone
        shown.append(PartShown(i + 1, side["name"], kept.phone, totals.get(side["name"]), kept.version,
                               this.side == i, words, confirmed, may, explained.get(side["name"]) if may else None))
    refused = opened.refused if opened is not None else None
    problems = len(refused.problems) if isinstance(refused, RuleViolations) else 1 if refused else 0
    ending, ending_by = _ending_words(parts)
    return Progress(number, shown, ending, ending_by, problems, opened.counter if opened else 0, game.revision,
                    _written(game, number))


def _written(game: GameRecord, number: int) -> str | None:
    """"Deal 3 was written by Dan's phone": the deal is recorded (the last part completed
    it, or a phone sent it whole), in words; None while it is open."""
    if game.deal(number) is None:
        return None
    parts = reading.entered_by(game.id).get(number, {})
    phones = sorted({part.phone for part in parts.values()})
    return f"Deal {number} was written{' by ' + ' and '.join(phones) if phones else ''}."


# -- the pages ---------------------------------------------------------------------------------------


@bp.route("/games/<game_id>/phone", methods=["GET", "POST"])
def this_phone(game_id: str) -> ResponseReturnValue:
    """Whom this phone enters for (a side, or every side) and whose it is, kept on the phone."""
    game = editable(game_id)
    form, error = PhoneForm(), None
    if request.method == "POST":
        if not form.validate():
            abort(400, "The form could not be read. Reload the page and try again.")
        side, owner, error = read_choice(game.sides, request.form)
        if error is None:
            chosen = choose(game, side, owner)
            flash(f"This phone enters {game.sides[side]['name'] + '’s part' if side is not None else 'every side'}"
                  f"{', as ' + chosen.label if chosen.label else ''}.", "ok")
            return redirect(url_for("deals.new_deal", game_id=game.id), 303)
    return render_template("deals/phone.html", game=game, form=form, phone=phone(game), error=error), \
        400 if error else 200


def _next_or_away(game: GameRecord, number: int) -> Response | None:
    """The game page when deal ``number`` is not the one to enter now (written, saying so)."""
    if game.next_number == number:
        return None
    written = _written(game, number)
    flash(written or "That deal is not the next one: here is the game.", "ok" if written else "info")
    return redirect(url_for("games.game", game_id=game.id, _anchor=f"deal-{number}" if written else None), 303)


def _page(game: GameRecord, number: int, this: Phone, form: DealForm | None = None,
          meta: DealMetaForm | None = None) -> DealPage:
    """The part's form: this phone's side (as kept, or ``form`` as posted) and the ending,
    under the progress; once every part is in and the deal was not written, the referee's
    problems of this side in place, and "Save as played" for any phone."""
    opened = open_deal(game, number)
    parts = _parts(opened)
    if form is None:
        form = (DealForm.from_deal(game.sides, game.sheet, _deal_json(game, number, parts), number) if parts
                else DealForm.blank(game.sides, game.sheet, number))
    if meta is None:
        meta = DealMetaForm(revision=str(game.revision))
        ending = parts.get(ENDING)
        meta.reason.data = ending.ending.as_played if ending and ending.ending else None
    page = DealPage(game, form, meta, number, editing=False, phone=this, part=progress_of(game, number, this, opened),
                    action_url=url_for("parts.part", game_id=game.id, number=number))
    refused = opened.refused if opened is not None else None
    if isinstance(refused, RuleViolations):
        _place_mine(page, refused.verdict, refused.problems, this)
        page.can_play, page.must_fix = refused.may_save_as_played, refused.never_as_played
        page.message = _not_written(game, refused, this)
    elif isinstance(refused, SameAsPrevious):
        page.preview, page.repeat_of = refused.verdict, refused.previous
        page.message = (f"Not written: deal {number} is the same as deal {refused.previous}, every side and the "
                        "ending. Record it again only if the table really played the same deal again.")
    return page


def _not_written(game: GameRecord, refused: RuleViolations, this: Phone) -> str:
    """Why the complete deal is not written, as this phone reads it: its own part's problems
    (shown on its form), then whose the others are."""
    mine = game.sides[this.side]["name"] if this.side is not None else None
    own = sum(1 for p in refused.problems if p.side in (None, mine))
    others = " and ".join(sorted({f"{p.side}’s" for p in refused.problems if p.side not in (None, mine)}))
    found = (f"{own} problem{'s' if own != 1 else ''} on this phone’s part, below" if own else "")
    if others:
        found += f"{', and some' if own else 'problems'} on {others} part, for its phone to correct"
    if not refused.may_save_as_played:
        then = "It cannot be saved as played as it is."
    else:
        then = "Correct it, or save the deal as played with a reason." if own else \
            "Or any phone saves the deal as played, with a reason (below)."
    return f"Not written: the referee found {found}. {then}"


def _place_mine(page: DealPage, verdict: Verdict, problems: Sequence[Problem], this: Phone) -> None:
    """The problems of this phone's side (and the whole deal's, the ending's) on its form."""
    name = page.game.sides[this.side]["name"] if this.side is not None else None
    page.judged(verdict, [p for p in problems if p.side in (None, name)])


@bp.route("/games/<game_id>/deals/<int:number>/part", methods=["GET", "POST"])
def part(game_id: str, number: int) -> ResponseReturnValue:
    """This phone's part of the open deal ``number``: its side's boxes and the ending."""
    game = editable(game_id)
    away = _next_or_away(game, number)
    if away is not None:
        return away
    this = phone(game)
    if this.side is None or this.label is None:  # every side: the deal's own form
        return redirect(url_for("deals.new_deal", game_id=game.id), 303)
    if request.method == "GET":
        return _page(game, number, this).render()
    meta = DealMetaForm()
    if not meta.validate() and set(meta.errors) != {"reason"}:
        abort(400, "; ".join(f"{meta[k].label.text}: {' '.join(v)}" for k, v in meta.errors.items()))
    key = request.headers.get("Idempotency-Key") or meta.idempotency_key.data
    if key and not keyed_writes.is_key(key):
        abort(400, "The form's idempotency key could not be read. Reload the page and try again; nothing was saved.")
    action = request.form.get("action", "save")
    itemise = action.removeprefix("itemise-s")
    wanted = itemise != action and itemise.isascii() and itemise.isdigit() and len(itemise) < 3
    itemised = int(itemise) if wanted else None
    form = DealForm.from_form(game.sides, game.sheet, request.form, number=number, itemise=itemised,
                              more_rows=action == "more")
    page = _page(game, number, this, form, meta)
    if action in ("save", "replace", "keep", "as_played", "repeat"):
        done = _save(page, this, key or None, action)
        return done.render() if isinstance(done, DealPage) else done
    return page.render()  # more meld rows, a side itemised, or a check: the form again, as typed


def _version(name: str) -> int | None:
    sent = request.form.get(name, "")
    return int(sent) if sent.isascii() and sent.isdigit() and len(sent) < 10 else None


# Any: the deal's JSON as the form builds it (DealForm.to_json), read by the store's readers
def _ending_sent(page: DealPage, action: str, data: dict[str, Any],  # Any: the form's deal JSON
                 kept: OpenPart | None) -> dict[str, Any] | None | DealPage:  # Any: the ending's JSON
    """The ending this save sends: as typed, else as kept (None: not said yet); for "Save as
    played" (or "Yes, record it again"), with the table's reason. A page saying what is missing."""
    # Any: the ending's JSON, as the form built it or as kept
    said: dict[str, Any] | None = ({k: data[k] for k in ENDING_FIELDS if k in data} if page.form.ending
                                   else dict(kept.ending.to_json()) if kept and kept.ending else None)
    if action == "keep":  # "Keep theirs" of the ending another phone entered: this side's part alone
        return dict(kept.ending.to_json()) if kept and kept.ending else None
    if action not in ("as_played", "repeat"):
        return said
    reason = (page.meta.reason.data or "").strip()
    if said is None:
        return dataclasses.replace(page, status=400, message_at="ending", message="Say who went out, or that the "
                                   "stock ran out, to save the deal as played.")
    if action == "as_played" and not reason:
        page.meta.reason.errors = ["Say briefly why the deal stands as played."]
        return dataclasses.replace(page, status=400, can_play=True, message="A deal saved as played needs a reason.")
    said = {k: v for k, v in said.items() if k not in ("as_played", "repeat")}
    if reason:
        said["as_played"] = {"reason": reason}
    if action == "repeat" or page.meta.repeat.data == "1":
        said["repeat"] = True
    return said


def _save(page: DealPage, this: Phone, key: str | None, action: str) -> DealPage | Response:
    """Save this phone's side's part, and the ending when it is given and differs from the one
    kept (as played, with the reason, for "Save as played"): made once per the form's key."""
    game, number, mine = page.game, page.number, this.side
    assert mine is not None and this.label is not None
    data = page.form.to_json(number, need_ending=False)
    if data is None:
        return dataclasses.replace(page, status=400, message="Not saved: some boxes could not be read; each says why.")
    kept = _parts(open_deal(game, number)).get(ENDING)
    ending_sent = _ending_sent(page, action, data, kept)
    if isinstance(ending_sent, DealPage):
        return ending_sent
    try:
        result = _store(page, this, key, action, data, ending_sent, kept)
    except PartEntered as err:
        return _taken(page, err, data)
    except NotNext as err:
        if err.recorded:
            return _written_answer(game, number)
        abort(409, err.message)
    except (StorageError, OutOfSpace) as err:
        message = err.message if isinstance(err, StorageError) else "the server is out of space"
        if isinstance(err, StorageError) and err.field:
            page.form.place(err.field if err.field.startswith(("sides", "ending", "went_out")) else
                            f"sides[{mine}].{err.field}", err.message)
        return dataclasses.replace(page, status=status_of(err), message=f"Not saved: {message}.")
    if isinstance(result, DealPage | Response):
        return result
    if isinstance(result, DealRecord) or (isinstance(result, idempotency.Made)
                                          and result.kind is idempotency.Kind.DEAL_RECORDED):
        return _written_answer(game, number)
    flash(f"{game.sides[mine]['name']}’s part saved.", "ok")
    return redirect(url_for("parts.part", game_id=game.id, number=number), 303)


# Any: the deal's JSON as the form builds it (DealForm.to_json), read by the store's readers
def _store(page: DealPage, this: Phone, key: str | None, action: str, data: dict[str, Any],  # Any: as above
           ending_sent: dict[str, Any] | None, kept: OpenPart | None) -> object:  # Any: the ending's JSON
    """The part (then the ending, unless it is as kept) through the store, once per ``key``:
    what the store returned, or the page that says why nothing was saved."""
    game, number, mine, label = page.game, page.number, this.side or 0, this.label or ""
    replacing, held = action == "replace", access.key_held(game.id)
    side = open_deals.read_side(game, mine + 1, data["sides"][mine])
    ending = open_deals.read_ending(game, ending_sent) if ending_sent is not None else None
    same_ending = ending is None or (kept is not None and kept.ending is not None
                                     and kept.ending.to_json() == ending.to_json())

    def write(once: idempotency.Once[object] | None) -> object:
        if not same_ending and ending is not None:  # first: another phone's ending is never passed over
            replaces = (_version("replaces_ending") if replacing else kept.version if kept and action != "save"
                        else None)
            ended = open_deals.save_ending(game.id, number, ending, label, replaces, None, held)
            if isinstance(ended, DealRecord):  # this side's part was in, as it is now: the ending completed it
                return ended
        return open_deals.save_side(game.id, number, mine + 1, side, label,
                                    _version("replaces_side") if replacing else None, once, held)

    if key is None:
        return write(None)
    sent = [request.path, data["sides"][mine], ending_sent, replacing and request.form.get("replaces_side")]
    result = keyed_writes.make_once(game.id, key, keyed_writes.digest_of(sent),
                                    client=reading.key_digest(game.edit_key), write=write)
    if result is idempotency.KeyTaken.IN_PROGRESS:
        return send_again_page(503, "Still saving", "This part is being saved just now. Send it again in a "
                               "moment to see it saved; it will not be saved twice.", retry_after=1)
    if result is idempotency.KeyTaken.REUSED:
        page.meta.idempotency_key.data = new_key()
        return dataclasses.replace(page, status=422, message="Not saved: this form was saved before with other "
                                   "entries. What you entered is still below: save it again.")
    return result


def _written_answer(game: GameRecord, number: int) -> Response:
    """The deal is written (this save completed it, or another phone's): the game page, saying so."""
    now = reading.load_game(game.id) or game
    flash(_written(now, number) or f"Deal {number} written.", "ok")
    return redirect(url_for("games.game", game_id=game.id, _anchor="main"), 303)


@dataclass(frozen=True)
class Taken:
    """A part another phone entered first, as the form shows it: whose it is, its totals beside
    this phone's, and the version "Replace it with mine" replaces."""

    name: str
    by: str
    at: str
    version: int
    field: str  # the hidden field naming the version replaced: replaces_side or replaces_ending
    theirs: str
    yours: str


def _taken(page: DealPage, err: PartEntered, data: dict[str, object]) -> DealPage:
    """Nothing overwritten: the part as the other phone entered it, beside this phone's, to
    keep theirs or replace it with this phone's."""
    game, number, kept = page.game, page.number, err.part
    parts = _parts(open_deal(game, number))
    ending = kept.part == ENDING
    if ending:
        theirs, _ = _ending_words({ENDING: kept})
        yours, _ = _ending_words({ENDING: dataclasses.replace(kept, ending=open_deals.read_ending(game, {
            k: data[k] for k in ENDING_FIELDS if k in data}))})
        name = "The ending"
    else:
        name = game.sides[int(kept.part) - 1]["name"]
        theirs = _total_words(game, number, parts, name)
        mine = {**parts, kept.part: dataclasses.replace(kept, side=open_deals.read_side(
            game, int(kept.part), data["sides"][int(kept.part) - 1]))}  # type: ignore[index]
        yours = _total_words(game, number, mine, name)
    taken = Taken(name, kept.phone, kept.entered_at, kept.version, "replaces_ending" if ending else "replaces_side",
                  theirs or "", yours or "")
    page.taken = taken
    return dataclasses.replace(page, status=409, message_at="taken",
                               message=f"Not saved: {name if ending else name + '’s part'} was entered by "
                                       f"{kept.phone} first. Keep theirs, or replace it with yours.")


def _total_words(game: GameRecord, number: int, parts: dict[str, OpenPart], name: str) -> str | None:
    judged = _judged(game, number, parts)
    total = judged[0].breakdown.totals().get(name) if judged else None
    return f"{total:,}" if total is not None else None


@bp.post("/games/<game_id>/deals/<int:number>/confirm")
def confirm(game_id: str, number: int) -> ResponseReturnValue:
    """"Confirmed": this phone, of another side, confirms a side's part as it saw it."""
    game = editable(game_id)
    this = phone(game)
    form = PhoneForm()
    if not form.validate():
        abort(400, "The form could not be read. Reload the page and try again.")
    position, version = _version("part"), _version("version")
    if position is None or version is None or this.side is None or this.label is None:
        flash("Not confirmed: say first what this phone enters and whose it is.", "error")
        return redirect(url_for("parts.this_phone", game_id=game.id), 303)
    try:
        done = open_deals.confirm_part(game.id, number, position, this.label, this.side + 1, version,
                                       key=access.key_held(game.id))
    except NotNext as err:
        if err.recorded:
            return _written_answer(game, number)
        abort(409, err.message)
    except ConfirmRefused as err:
        flash(f"Not confirmed: {err.message}.", "error")
        return redirect(url_for("parts.part", game_id=game.id, number=number), 303)
    if isinstance(done, DealRecord):
        return _written_answer(game, number)
    flash(f"{game.sides[position - 1]['name']}’s part confirmed.", "ok")
    return redirect(url_for("parts.part", game_id=game.id, number=number), 303)


@bp.post("/games/<game_id>/deals/<int:number>/abandon")
def abandon(game_id: str, number: int) -> ResponseReturnValue:
    """Abandon the open deal: every part saved so far goes, nothing of it is written (the
    table starts the deal's entry again, on one phone or on several)."""
    game = editable(game_id)
    if not PhoneForm().validate():
        abort(400, "The form could not be read. Reload the page and try again.")
    try:
        removed = open_deals.abandon(game.id, number, key=access.key_held(game.id))
    except NotNext as err:
        if err.recorded:
            return _written_answer(game, number)
        abort(409, err.message)
    flash(f"Deal {number}’s entry abandoned: {removed} part{'s' if removed != 1 else ''} dropped, nothing written."
          if removed else f"Deal {number} had no part saved: nothing to abandon.", "ok")
    return redirect(url_for("deals.new_deal", game_id=game.id), 303)


@bp.get("/games/<game_id>/deals/<int:number>/progress")
def progress(game_id: str, number: int) -> ResponseReturnValue:
    """The progress box alone, for ``live.js`` to put in place of the page's when the game's
    open counter moves; once the deal is written, it says so and by whom."""
    game = editable(game_id)
    if number != game.next_number and game.deal(number) is None:
        abort(404, f"Deal {number} is neither being entered nor recorded.")
    return render_template("deals/_progress_only.html", game=game,
                           part=progress_of(game, number, phone(game), open_deal(game, number)))


@bp.post("/games/<game_id>/deals/<int:number>/part/preview")
def part_preview(game_id: str, number: int) -> ResponseReturnValue:
    """The live preview of this phone's part as typed, in the deal as the other parts make it
    so far (their sides, and the ending when this phone has not said it): this side's score,
    problems and going out."""
    game = access.game_or_404(game_id)
    this = phone(game)
    form = DealForm.from_form(game.sides, game.sheet, request.form, number=number)
    data = form.to_json(need_ending=False, refused_as_blank=True)
    if this.side is None or data is None:
        return live(game, number, form, data, this.side)
    parts = _parts(open_deal(game, number))
    kept = _deal_json(game, number, parts)
    data["sides"] = [data["sides"][i] if i == this.side else parts[str(i + 1)].body() if str(i + 1) in parts
                     else _blank_side(game, i) for i in range(len(game.sides))]
    if not form.ending:
        data.update({k: v for k, v in kept.items() if k in ENDING_FIELDS})
    return live(game, number, form, data, this.side, ending_waiting=not form.ending and ENDING not in parts)
