"""What the pages answer to each storage error: one table of HTTP statuses (the API has its
own, :data:`scorepad.api.errors.ERROR_STATUS`; the command line its exit codes)."""

from __future__ import annotations

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
    Unusable,
)

STATUS: dict[type[Exception], int] = {
    Invalid: 400, NotFound: 404, Gone: 410, Conflict: 409, Full: 409, RuleViolations: 422, ImportRefused: 422,
    Busy: 503,  # answered by the app's handler (scorepad.app): the form comes back to send again
    OutOfSpace: 507,  # likewise (the deal form comes back itself, with the message)
    Unusable: 500,  # found at start-up, which it stops
    AlreadyRecorded: 409,  # the deal form shows the deal as saved beside what was typed
    SameAsPrevious: 422,  # the deal form asks "Yes, record it again"
    KeyReplaced: 401,  # the edit link this phone holds was replaced while its write waited (as the API)
    DealOpen: 409,  # the deal is being entered part by part: its parts complete it
    NotNext: 409, PartEntered: 409, ConfirmRefused: 409,  # an open deal's part: as the API
}


def status(err: Exception) -> int:
    """The status the pages answer ``err`` with: its kind's, or the nearest kind it is one of."""
    return next(STATUS[kind] for kind in type(err).__mro__ if kind in STATUS)
