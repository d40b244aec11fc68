"""The referee's desk: pages that answer the table's questions and settle disputes between sheets.

* ``/referee`` and ``/games/<id>/referee``: four questions (is this meld legal, may we go out,
  may I take the pile, do these first melds meet the minimum), each a GET form answered on
  the page, YES or NO with every reason and the sheet option it rests on. Questions change
  nothing, so the forms need no CSRF token and work with scripts off.
* ``/games/<id>/deals/<n>/explain``: the old address of a deal's score explained line by line,
  redirected to the deal's page (:func:`scorepad.web.deals.deal`), which does that.
* ``/games/<id>/rescore?sheet=pagat``: the game (or one deal, ``&deal=n``) under another
  sheet: what changes, line by line, and what becomes illegal.

``/referee`` and the rescore page choose their sheet with the new-game page's sheet editor
(:mod:`scorepad.web.forms.sheet_editor`): a preset, then any option changed, sent in the
query string, since both pages are GET forms; ``sheet`` and ``sheet_json`` still name one
for links and bookmarks.
* ``/sheets/compare?a=pagat&b=common``: two sheets side by side, where they differ.

The JSON twins live in :mod:`scorepad.api.referee`.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypedDict

from flask import Blueprint, redirect, render_template, request, session, url_for
from flask.typing import ResponseReturnValue
from werkzeug.wrappers import Response

from .. import access, builds
from ..rules import PRESETS, ReadError, RuleSheet
from ..rules.cards import NATURALS, WILDS
from ..rules.choices import PartnerFoot, rank_words
from ..rules.dispute import compare_sheets, rescore_game, rescore_game_deal, sheet_digest, sheet_name
from ..rules.limits import MAX_DEALS, MAX_PROBLEMS_SHOWN
from ..rules.questions import QUESTIONS, Context, ask_go_out, blank, current_deal, read_int, read_sheet
from ..rules.read import JSON
from ..rules.rulings import Ruling
from ..rules.sheet import Cited
from ..storage import db
from ..storage.reading import GameRecord
from .forms import preset_choices
from .forms.sheet_editor import SheetEditor, preset_displays

bp = Blueprint("desk", __name__)


# -- the four questions ----------------------------------------------------------------------------

class QuestionPage(TypedDict):
    """A question's heading, and the answer's words for yes and for no."""

    title: str
    yes: str
    no: str


class Reason(TypedDict):
    """One reason of an answer as the page shows it, with the rule it cites on the sheet."""

    ok: bool
    message: str
    rule: Cited | None


class Answered(TypedDict):
    yes: bool
    words: str
    reasons: list[Reason]


class QuestionForm(QuestionPage):
    """A question's form on the page: its values, errors (by input) and, once asked, its answer."""

    id: str
    values: dict[str, str]
    errors: dict[str, str]
    answer: Answered | None
    ranks: list[tuple[str, str]]  # the go-out question's boxes of special books by rank: (name, label)
    partners_played: bool  # whether the go-out question asks if the partner has played from the foot


# The meld question's card pad: a button for each rank a meld is built of, then the wilds, (code, name).
CARD_PAD: tuple[tuple[str, str], ...] = tuple((card.value, card.noun) for card in (*NATURALS, *WILDS))


# id, heading, the answer's words for yes and for no.
QUESTION_PAGES: dict[str, QuestionPage] = {
    "meld": {"title": "Is this meld legal?",
             "yes": "this meld is legal.", "no": "this meld is not legal."},
    "go-out": {"title": "May we go out now?",
               "yes": "you may go out.", "no": "you may not go out yet."},
    "pile": {"title": "May I take the pile?",
             "yes": "you may take the pile.", "no": "you may not take the pile."},
    "minimum": {"title": "Do these first melds meet the minimum?",
                "yes": "these melds meet the minimum.", "no": "these melds do not meet the minimum."},
}
BOOK_KINDS = ("clean", "dirty", "wild")


def rank_boxes(sheet: RuleSheet | None) -> list[tuple[str, str]]:
    """The go-out question's boxes for special books by rank, (name, label): a clean book of
    each rank ``special_books`` or ``three_books`` names, a dirty one of each
    ``special_books_dirty`` prices (what a requirement naming that rank counts)."""
    if sheet is None:
        return []
    clean = [(f"books.special.{card.value}", f"Books of {rank_words(card)}")
             for card, _ in (*sheet.special_books, *sheet.three_books)]
    return clean + [(f"books.special_dirty.{card.value}", f"Dirty books of {rank_words(card)}")
                    for card, _ in sheet.special_books_dirty]


def _inputs(question: str, game: GameRecord | None = None, sheet: RuleSheet | None = None) -> tuple[str, ...]:
    """The names of a question's inputs on the page (a side to take the running total of
    only on a game's page; special books by rank where the sheet has them)."""
    names = tuple(n for n in QUESTIONS[question][1] if n != "side" or game is not None)
    if question == "go-out":
        names = (tuple(n for n in names if n != "books") + tuple(f"books.{k}" for k in BOOK_KINDS)
                 + tuple(name for name, _ in rank_boxes(sheet)))
    return names


def _defaults(question: str, deal: int, game: GameRecord | None = None,
              sheet: RuleSheet | None = None) -> dict[str, str]:
    values = {name: "" for name in _inputs(question, game, sheet)}
    if "deal" in values:
        values["deal"] = str(deal)
    # Count boxes start empty, an empty box counting none (their placeholder shows 0): a box
    # holding 0 became 10 when a 1 was typed after it.
    if question == "go-out":
        values.update(foot_played="yes", knee_played="")
        if game is not None and all(len(side["players"]) <= 1 for side in game.sides):
            values["partners_picked_up"] = "none"  # a game of individuals: nobody has a partner
    if question == "pile":
        values.update(opened="no", pile_has_wild="no")
    return values


def _form_data(question: str, args: Mapping[str, str], game: GameRecord | None,
               sheet: RuleSheet | None = None) -> dict[str, JSON]:
    """The question's fields from the query string, shaped as the readers take them."""
    data: dict[str, JSON] = {name: args.get(name, "") for name in _inputs(question, game) if "." not in name}
    if question == "go-out":
        books: dict[str, JSON] = {k: args.get(f"books.{k}", "") for k in BOOK_KINDS}
        for name, _ in rank_boxes(sheet):
            _, kind, rank = name.split(".")
            by_rank = books.setdefault(kind, {})
            if isinstance(by_rank, dict):
                by_rank[rank] = args.get(name, "")
        data["books"] = books
    return data


def _reasons(answer: Ruling, sheet: RuleSheet) -> list[Reason]:
    """Each reason of an answer, with the rule it cites on ``sheet`` (None for a rule every sheet shares)."""
    return [{"ok": r.ok, "message": r.message, "rule": sheet.cite(r.option)} for r in answer.reasons]


def _questions(sheet: RuleSheet | None, args: Mapping[str, str], game: GameRecord | None,
               deal: int) -> tuple[list[QuestionForm], int]:
    """Each question's form values, errors and (for the one asked) answer; and the page's status."""
    asked = args.get("ask")
    status = 200
    out: list[QuestionForm] = []
    for question, page in QUESTION_PAGES.items():
        values = _defaults(question, deal, game, sheet)
        errors: dict[str, str] = {}
        answer: Answered | None = None
        if question == asked and sheet is not None:
            values.update({name: args.get(name, "") for name in _inputs(question, game, sheet)})
            ask = QUESTIONS[question][0]
            data = _form_data(question, args, game, sheet)
            try:
                # The desk's go-out answer speaks to every condition the sheet sets, said or not.
                result = (ask_go_out(sheet, data, True, Context(game), every_condition=True)
                          if question == "go-out" else ask(sheet, data, True, Context(game)))
            except ReadError as err:
                name = (err.field or "").split("[")[0]
                errors[name if name in values else ""] = err.reason
                status = 400
            else:
                answer = {"yes": result.yes, "words": page["yes"] if result.yes else page["no"],
                          "reasons": _reasons(result, sheet)}
        out.append({"id": question, **page, "values": values, "errors": errors, "answer": answer,
                    "ranks": rank_boxes(sheet) if question == "go-out" else [],
                    "partners_played": (question == "go-out" and sheet is not None
                                        and sheet.go_out_partner_foot is PartnerFoot.PLAYED)})
    return out, status


def short_name(sheet: RuleSheet) -> str:
    """A sheet's name for a narrow column: its preset's title up to the first comma or bracket.

    >>> from scorepad.rules import preset
    >>> short_name(preset("pagat")), short_name(preset("common").replace(hand_size=13))
    ('Pagat', 'Common rules, changed')
    """
    found = PRESETS.get(sheet.preset) if sheet.preset else None
    if found is None:
        return "Own sheet"
    name = found.title.split(",")[0].split(" (")[0]
    return name + (", changed" if sheet.changes() else "")


def _chosen_sheet(args: Mapping[str, str], default: str | None = "common", shown: str = "common"
                  ) -> tuple[RuleSheet | None, SheetEditor, dict[str, str]]:
    """The sheet a page's query names, and the sheet editor showing it.

    The page's own form sends the editor's boxes (``preset`` and ``opt-…``); links and
    bookmarks may name a sheet by ``sheet`` (a preset id, ``default`` when not given) or
    ``sheet_json`` (a sheet as JSON, before ``sheet``). Returns the sheet (None when none is
    named or it cannot be read); the editor, showing that sheet, or the boxes as typed with a
    message on each that cannot be read, or the preset ``shown`` when nothing is named; and
    the error of ``sheet`` or ``sheet_json`` by name (an editor's errors are its own)."""
    if any(key.startswith("opt-") for key in args):
        editor = SheetEditor.from_form(args, args.get("preset") or None)
        return (editor.sheet if editor.ok else None), editor, {}
    text, preset_id = args.get("sheet_json", ""), args.get("sheet", default or "")
    try:
        if not blank(text):
            sheet: RuleSheet | None = read_sheet(text, "sheet_json", text=True)
        else:
            sheet = None if blank(preset_id) else read_sheet(preset_id, "sheet", text=True)
    except ReadError as err:
        name = "sheet_json" if (err.field or "").startswith("sheet_json") else "sheet"
        editor = SheetEditor.for_preset(preset_id if preset_id in PRESETS else shown)
        if name == "sheet_json":
            editor.errors.append(f"The sheet in this link cannot be read: {err}")
        return None, editor, {name: str(err) if err.field and err.field != name else err.reason}
    return sheet, SheetEditor.from_sheet(sheet) if sheet else SheetEditor.for_preset(shown), {}


def _carried(sheet: RuleSheet | None) -> dict[str, str]:
    """The hidden fields that carry the chosen sheet into each question's form: its preset,
    and the sheet as JSON when it is not that preset as it stands."""
    if sheet is None:
        return {}
    brief = sheet.brief_json()
    if isinstance(brief, str):
        return {"sheet": brief}
    return {"sheet": sheet.preset or "", "sheet_json": json.dumps(brief, separators=(",", ":"))}


def _problems(editor: SheetEditor, sheet_errors: Mapping[str, str], *more: tuple[str, str | None]
              ) -> list[tuple[str, str]]:
    """The error summary's lines: the preset chooser's, the editor's, then any other field's."""
    chooser = [("preset-choice", sheet_errors["sheet"])] if "sheet" in sheet_errors else []
    return chooser + editor.problems() + [(target, message) for target, message in more if message]


@bp.get("/referee")
def referee() -> ResponseReturnValue:
    sheet, editor, sheet_errors = _chosen_sheet(request.args)
    deal = 1
    questions, status = _questions(sheet, request.args, None, deal)
    problems = _problems(editor, sheet_errors)
    if problems:
        status = 400
    return render_template("referee/desk.html", game=None, sheet=sheet, editor=editor, sheet_errors=sheet_errors,
                           problems=problems, carried=_carried(sheet), sheet_presets=preset_displays(),
                           sheet_title=sheet_name(sheet) if sheet else None, questions=questions, deal=deal,
                           card_pad=CARD_PAD, action=url_for("desk.referee")), status


@bp.get("/games/<game_id>/referee")
def game_referee(game_id: str) -> ResponseReturnValue:
    game = access.game_or_404(game_id)
    deal = current_deal(game)
    questions, status = _questions(game.sheet, request.args, game, deal)
    totals = game.totals_before(deal)
    # Over, the game's totals are those after its last deal; the questions still ask about it.
    shown = totals if game.next_number else game.totals_before(deal + 1)
    return render_template("referee/desk.html", game=game, sheet=game.sheet, sheet_errors={},
                           sheet_title=sheet_name(game.sheet), questions=questions, deal=deal, totals=shown,
                           side_options=[(name, f"{name} (running total {total:,})") for name, total in totals.items()],
                           presets=preset_choices(), card_pad=CARD_PAD,
                           deals=[(d, d.score.totals()) for d in game.deals],
                           action=url_for("desk.game_referee", game_id=game.id)), status


# -- explaining a recorded deal ------------------------------------------------------------------


@bp.get("/games/<game_id>/deals/<int:number>/explain")
def explain(game_id: str, number: int) -> Response:
    """The old address of a deal explained: the deal's page explains it (a permanent redirect)."""
    game = access.game_or_404(game_id)
    record = access.deal_or_404(game, number)
    return redirect(url_for("deals.deal", game_id=game.id, number=record.number), 301)


# -- another sheet -----------------------------------------------------------------------------------


@bp.get("/games/<game_id>/rescore")
def rescore(game_id: str) -> ResponseReturnValue:
    """The game under another sheet. Rescoring judges every deal again, so a page that
    rescores is built in the build turn and kept in the app's cache for the game's revision
    and the question as read: the sheet's canonical form and the deal's number, however the
    query spelt them (a preset's id, ``sheet_json``, the editor's boxes; any other field is
    ignored), and drawn from those alone. It holds no host. A page that asks for nothing,
    or cannot be read, rescores nothing and is not kept."""
    game = access.game_or_404(game_id)
    asked = _rescore_question(game)
    if asked.status != 200 or asked.other is None:
        return _rescore_page(game, asked), asked.status
    flashes = bool(session.get("_flashes"))  # a page showing a message for this phone is not kept
    key = None if flashes else ("rescore.html", db.path(), game.id, game.revision, sheet_digest(asked.other),
                                asked.number)
    return builds.built(key, lambda: _rescore_page(game, asked.read()).encode())


@dataclass(frozen=True)
class RescoreQuestion:
    """What a rescore page's query asks: the other sheet (None when none is named or it cannot
    be read), the deal (None: every deal), the editor showing the sheet, and what cannot be read."""

    other: RuleSheet | None
    number: int | None
    editor: SheetEditor
    sheet_errors: dict[str, str]
    deal_error: str | None
    status: int

    def read(self) -> RescoreQuestion:
        """The question as read, without how it was typed: the editor shows the sheet itself,
        so a page built from it is the same for every query asking the same."""
        if self.other is None:
            return self
        return dataclasses.replace(self, editor=SheetEditor.from_sheet(self.other))


def _rescore_question(game: GameRecord) -> RescoreQuestion:
    suggested = "pagat" if game.sheet.preset != "pagat" else "common"
    other, editor, sheet_errors = _chosen_sheet(request.args, default=None, shown=suggested)
    status = 200
    number = None
    deal_error = None
    text = request.args.get("deal", "")
    if not blank(text) and text.strip() != "all":
        try:
            number = read_int(text, "deal", 1, MAX_DEALS, forms=True)
        except ReadError as err:
            deal_error, status = err.reason, 400
        else:
            if game.deal(number) is None:
                deal_error, status = f"deal {number} is not recorded", 404
    if status == 200 and _problems(editor, sheet_errors):
        status = 400
    return RescoreQuestion(other, number, editor, sheet_errors, deal_error, status)


def _rescore_page(game: GameRecord, asked: RescoreQuestion) -> str:
    other, number, editor = asked.other, asked.number, asked.editor
    context: dict[str, object] = {"game": game, "editor": editor, "sheet_errors": asked.sheet_errors,
                               "deal_error": asked.deal_error,
                               "problems": _problems(editor, asked.sheet_errors, ("other-deal", asked.deal_error)),
                               "sheet_presets": preset_displays(),
                               "number": number, "presets": preset_choices(), "sheet_title": sheet_name(game.sheet),
                               "other": other, "comparison": None, "change": None, "deal_change": None,
                               "most_per_deal": MAX_PROBLEMS_SHOWN}
    if other is not None and asked.deal_error is None:
        context["other_title"] = sheet_name(other)
        context["other_short"] = short_name(other)
        context["game_short"] = "This game" if short_name(other) != short_name(game.sheet) else "This game's sheet"
        context["comparison"] = compare_sheets(game.sheet, other)
        if number is None:
            context["change"] = rescore_game(game.rules, other)
        else:
            context["deal_change"] = rescore_game_deal(game.rules, other, number)  # as a deal of the game
    return render_template("referee/rescore.html", **context)


@bp.get("/sheets/compare")
def compare() -> ResponseReturnValue:
    status = 200
    chosen = {"a": request.args.get("a", ""), "b": request.args.get("b", "")}
    errors: dict[str, str] = {}
    sheets: dict[str, RuleSheet] = {}
    if not (blank(chosen["a"]) and blank(chosen["b"])):
        for key in ("a", "b"):
            try:
                sheets[key] = read_sheet(chosen[key], key, text=True)
            except ReadError as err:
                errors[key] = str(err) if err.field and err.field != key else err.reason
                status = 400
    comparison = compare_sheets(sheets["a"], sheets["b"]) if len(sheets) == 2 else None
    return render_template("referee/compare.html", chosen=chosen, errors=errors, comparison=comparison,
                           presets=preset_choices(), names={k: sheet_name(s) for k, s in sheets.items()},
                           short={k: short_name(s) for k, s in sheets.items()}), status
