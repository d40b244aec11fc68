"""What the JSON API answers to each error: the table of storage errors to statuses and
problem types (:data:`ERRORS`), and the blueprint's handlers that answer each as a problem
(``application/problem+json``, :mod:`.problems`), input the rules core cannot read
(:class:`ReadError`) among them: the routes read their input and leave its errors to these."""

from __future__ import annotations

from flask import Response, jsonify, request

from ..rules import ReadError
from ..rules.limits import MAX_PROBLEMS_LISTED
from ..storage.checks import never_as_played
from ..storage.errors import (
    AlreadyRecorded,
    Busy,
    ConfirmRefused,
    Conflict,
    DealOpen,
    Full,
    Gone,
    ImportRefused,
    Invalid,
    KeyReplaced,
    NotFound,
    NotNext,
    OutOfSpace,
    PartEntered,
    RuleViolations,
    SameAsPrevious,
    StorageError,
    Unusable,
)
from . import http, names, problems
from .blueprint import bp
from .http import ApiError, PreconditionFailed

# -- the error table ------------------------------------------------------------------------------

# What the API answers to each storage error: its status and problem type. Busy and
# OutOfSpace are answered by the app's handlers (scorepad.app), Busy with Retry-After;
# Unusable stops the app at start-up.
ERRORS: dict[type[Exception], tuple[int, str | None]] = {
    Invalid: (400, "invalid-field"), NotFound: (404, "not-found"), Gone: (410, "gone"),
    Conflict: (409, "stale-revision"), Full: (409, "no-room"), RuleViolations: (422, "rule-violations"),
    ImportRefused: (422, "import-refused"), Busy: (503, "busy"), OutOfSpace: (507, "out-of-space"),
    Unusable: (500, None),
    AlreadyRecorded: (409, "deal-recorded"), SameAsPrevious: (422, "same-as-previous"),
    KeyReplaced: (401, "edit-key-replaced"),
    DealOpen: (409, "deal-open"), NotNext: (409, "not-next-deal"), PartEntered: (409, "part-entered"),
    ConfirmRefused: (409, "confirmation-refused"),
}
ERROR_STATUS: dict[type[Exception], int] = {kind: status for kind, (status, _) in ERRORS.items()}


def error_kind(err: Exception) -> tuple[int, str | None]:
    """The status and problem type of ``err``'s kind in :data:`ERRORS`, or of the nearest
    kind it is one of; a storage error about no one field is a body that cannot be read."""
    status, slug = next(ERRORS[kind] for kind in type(err).__mro__ if kind in ERRORS)
    if slug == "invalid-field" and not getattr(err, "field", None):
        slug = "invalid-body"
    return status, slug


@bp.errorhandler(ApiError)
@bp.errorhandler(StorageError)
def refused(err: ApiError | StorageError) -> Response:
    if isinstance(err, KeyReplaced):  # as the door refuses a replaced key: when, and the view link
        err = http.replaced_key(http.game(str((request.view_args or {}).get("game_id", ""))), err.at)
    if isinstance(err, ApiError):
        return problems.answer(err.status, err.message, err.field,
                               err.problem or problems.for_status(err.status, err.field), err.headers,
                               **err.extensions)
    status, slug = error_kind(err)
    return problems.answer(status, err.message, err.field, slug)


@bp.errorhandler(ReadError)
def unreadable(err: ReadError) -> Response:
    """Input the rules core cannot read: a 400 naming the field (``invalid-field``), or the
    body as a whole (``invalid-body``) when it names none."""
    return problems.answer(400, err.reason, err.field, problems.for_status(400, err.field))


@bp.errorhandler(Conflict)
def conflict(err: Conflict) -> Response:
    """A stale write (409, or 412 when its revision came in ``If-Match``): the error, the
    game's revision now, and every change since the revision the write was based on."""
    status, slug = (412, "precondition-failed") if isinstance(err, PreconditionFailed) else error_kind(err)
    return problems.answer(status, err.message, err.field, slug, revision=err.revision,
                           changes=[names.numbered(change) for change in err.changes])


@bp.errorhandler(Gone)
def gone(err: Gone) -> Response:
    """A deleted game (410): when it was deleted, in ``deleted_at``."""
    status, slug = error_kind(err)
    return problems.answer(status, err.message, None, slug, deleted_at=err.at)


@bp.errorhandler(RuleViolations)
def rejected(err: RuleViolations) -> Response:
    """A deal not saved (422): the report, every problem (each saying whether it can
    ever be saved as played), and ``may_save_as_played`` for the deal as a whole."""
    n = len(err.problems)
    named = err.never_as_played or err.problems  # the first problem to correct
    first = named[0] if named else None
    message = (f"the deal breaks the rules in {n} place{'s' if n != 1 else ''} and was not saved: "
               f"{first.message if first else ''} Correct it, or save it as played with "
               '"as_played": {"reason": "..."}.')
    if first is not None and first.code.startswith(("game.", "deal.number")):
        message = f"the deal does not fit this game and was not saved: {first.message}"
    elif first is not None and not err.may_save_as_played:
        message = (f"the deal was not saved, and cannot be saved as played until this is corrected: "
                   f"{first.message}")
    never = set(err.never_as_played)
    status, slug = error_kind(err)
    listed = ([first] if first else []) + [p for p in err.problems if p is not first]  # detail's first
    return problems.answer(status, message, first.where if first else None, slug,
                           report=err.verdict.to_json(), may_save_as_played=err.may_save_as_played,
                           problems=[{**p.to_json(), "never_as_played": p in never} for p in err.problems],
                           errors=[{"code": p.code, "message": p.message, "field": p.where}
                                   for p in listed[:MAX_PROBLEMS_LISTED]])


@bp.errorhandler(ImportRefused)
def refused_import(err: ImportRefused) -> Response:
    """An import with a deal the referee will not let in (422): the deal's number and its problems."""
    status, slug = error_kind(err)
    return problems.answer(status, err.message, err.field, slug, number=err.number, deal=err.number,
                           problems=[{**p.to_json(), "never_as_played": never_as_played(p)} for p in err.problems])


@bp.get("/problems/<slug>")
def problem_type(slug: str) -> Response:
    """What one problem type means: the documentation its ``type`` URL points to."""
    kind = problems.TYPES.get(slug)
    if kind is None:
        raise ApiError(404, None, f"there is no problem type {slug[:40]!r}; the types are "
                       f"{', '.join(problems.TYPES)}")
    return jsonify(kind.to_json())
