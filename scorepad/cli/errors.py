"""What the ``flask`` commands answer to each storage error: one table of exit statuses, and
the error click prints for it (``Error: <field>: <message>`` on stderr)."""

from __future__ import annotations

import click

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

EXIT_VIOLATIONS, EXIT_UNUSABLE, EXIT_BUSY = 1, 2, 3
EXIT_RECORDED = 4  # the deal's number is recorded already: `deal correct` replaces it
EXIT_NO_SPACE = 5  # the database is out of space: nothing was saved; run it again once space is freed
EXIT_FAILED = 1  # the database itself cannot be used (as when the app cannot start)

EXIT_CODES: dict[type[Exception], int] = {
    Invalid: EXIT_UNUSABLE, NotFound: EXIT_UNUSABLE, Gone: EXIT_UNUSABLE, Conflict: EXIT_UNUSABLE,
    Full: EXIT_UNUSABLE, ImportRefused: EXIT_UNUSABLE, OutOfSpace: EXIT_NO_SPACE,
    RuleViolations: EXIT_VIOLATIONS,  # each command shows the verdict itself, then exits with this
    Busy: EXIT_BUSY, Unusable: EXIT_FAILED,
    AlreadyRecorded: EXIT_RECORDED,
    SameAsPrevious: EXIT_VIOLATIONS,  # not saved as sent; --repeat records it
    KeyReplaced: EXIT_UNUSABLE,  # never: the commands write with no edit key
    DealOpen: EXIT_RECORDED,  # the deal is open, being entered part by part: `deal abandon` lets a whole one in
    NotNext: EXIT_UNUSABLE, ConfirmRefused: EXIT_UNUSABLE,
    PartEntered: EXIT_RECORDED,  # another phone's part: `deal part --replaces VERSION` replaces it
}


def exit_code(err: Exception) -> int:
    """The exit status of ``err``'s kind, or of the nearest kind it is one of."""
    return next(EXIT_CODES[kind] for kind in type(err).__mro__ if kind in EXIT_CODES)


def failure(err: Exception, message: str | None = None) -> click.ClickException:
    """``err`` as click reports it: ``message``, else the field it names and its words."""
    if message is None:
        field = getattr(err, "field", "")
        message = f"{field}: {err}" if field else str(err)
    failed = click.ClickException(message)
    failed.exit_code = exit_code(err)  # type: ignore[misc]  # click declares it per class; this one varies
    return failed
