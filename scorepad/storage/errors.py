"""What storage refuses, in its own words: one vocabulary, with no HTTP status or exit code.

Every error is a :class:`StorageError` with the ``field`` it is about (a dotted path into
what was sent, or ``""`` when it is about no one field) and a ``message`` in words. Each
interface says what each kind means to it, in one table keyed by these classes: the API's
and the pages' HTTP statuses, the command line's exit codes.

- :class:`Invalid`: what was sent cannot be read (the field says where).
- :class:`NotFound`: there is no such game, or no such deal in it.
  :class:`Gone`, a kind of it: the game was deleted (when, and why, it says).
- :class:`Conflict`: the write was based on a revision the game has moved past; it carries
  what changed since.
- :class:`Full`: the game has no room for the write: it is over, or the game would hold
  more than the limit.
- :class:`AlreadyRecorded`: a new deal whose number is recorded already (another phone saved
  it first); it carries that deal and the one sent, side by side.
- :class:`RuleViolations`: a deal that breaks the rules, not saved; whether it may be saved as played.
- :class:`SameAsPrevious`: a new deal the same as the deal recorded just before it, not saved
  unless the request says it was played again (``repeat``).
- :class:`DealOpen`: a whole deal sent for a number being entered part by part (an open deal).
- :class:`NotNext`: a part of a deal that is not the game's next (recorded, or further on).
- :class:`PartEntered`: a part another phone entered, sent without naming the version it
  replaces (or naming an older one); it carries the part as it stands.
- :class:`ConfirmRefused`: a confirmation of a part by its own side or phone, or of a version
  that is no longer the part's.
- :class:`ImportRefused`: an export document whose deal the referee will not let in.
- :class:`KeyReplaced`: the edit key a write was allowed with was replaced before the write
  was made (another phone replaced the edit link in the moment between).

Two errors are not about the request, so are not :class:`StorageError`, and a door that
catches those to show what was wrong with what was sent lets them by:

- :class:`Busy`: another program held the write lock too long; nothing was written, send it again.
  :class:`Unreachable`, a kind of it: the database server could not be reached.
- :class:`OutOfSpace`: the database has no room left (its disk is full, or its file reached
  ``DATABASE_MAX_BYTES``): nothing was written; the same write may be sent again once space is freed.
- :class:`Unusable`: the database file cannot be used at all.
"""

from __future__ import annotations

from ..rules.problems import Problem
from ..rules.read import JSON
from ..rules.verdict import Verdict
from .parts import ENDING, OpenPart


class StorageError(Exception):
    """A request storage refuses: ``field`` names what is wrong (``""``: nothing in
    particular), ``message`` says what, in words."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field, self.message = field, message


class Invalid(StorageError):
    """What was sent cannot be read: ``field`` names where."""


class NotFound(StorageError):
    """There is no such game, or the game has no such deal."""


DELETED_BY = {"editor": "deleted by its editor",
              "retention": "removed, not having changed for longer than this server keeps games",
              "event": "deleted with its club night (its event)"}
"""Why a game is no more (``deleted_game.why``), in words."""


class Gone(NotFound):
    """The game was deleted: ``at`` says when (UTC, as the database keeps times; ``when`` in
    words), ``why`` by whom or for what (a key of :data:`DELETED_BY`). Everything it held
    went with it."""

    def __init__(self, at: str, why: str) -> None:
        super().__init__("", f"the game was {DELETED_BY.get(why, 'deleted')}; its deals and history went with it")
        self.at, self.why = at, why
        self.when = f"{at.replace('T', ' ').removesuffix('+00:00')[:16]} UTC"

    @property
    def sentence(self) -> str:
        """``The game was deleted by its editor on 2026-12-01 21:30 UTC.``"""
        return f"The game was {DELETED_BY.get(self.why, 'deleted')} on {self.when}."


class Conflict(StorageError):
    """A write based on a revision the game has moved past: ``changes`` lists what happened
    since (see :func:`scorepad.storage.reading.changes_since`), ``revision`` is the game's
    revision now (``what``: the game, or a club night's event). Nothing was written."""

    def __init__(self, based_on: int, revision: int, changes: list[dict[str, JSON]], what: str = "game") -> None:
        said = "; ".join(str(c["message"]) for c in changes)
        super().__init__("revision", f"the {what} changed since you loaded it (revision {based_on}, now "
                         f"{revision}){': ' + said if said else ''}; reload it and try again")
        self.based_on, self.revision, self.changes = based_on, revision, changes


class Full(StorageError):
    """The game has no room for this write: it is over (no next deal), or it would hold more
    than it may. Nothing was written."""


class AlreadyRecorded(StorageError):
    """A new deal whose number is recorded already: another phone (or an earlier request) saved
    it first, and a save is never moved to another number. Nothing was written. ``revision``
    is the game's revision as read (a correction based on it replaces the deal, with
    history); ``recorded`` is the referee's verdict on the deal as it stands, with its
    ``recorded_as_played`` reason and ``recorded_at`` (when it was last saved);
    ``yours`` the verdict on the deal sent, judged as this game's deal ``number``, with its
    ``as_played`` reason."""

    def __init__(self, number: int, revision: int, recorded: Verdict, recorded_as_played: str | None,
                 recorded_at: str | None, yours: Verdict, as_played: str | None) -> None:
        super().__init__("deal", f"deal {number} is already recorded (another phone, or an earlier request, "
                         "saved it), so this one was not saved: keep the saved one, or correct it with yours")
        self.number, self.revision = number, revision
        self.recorded, self.recorded_as_played, self.recorded_at = recorded, recorded_as_played, recorded_at
        self.yours, self.as_played = yours, as_played


class RuleViolations(StorageError):
    """A deal with violations, not saved: the referee's verdict, every problem, and those
    of them no reason lets stand (``never_as_played``). Every door reads
    ``may_save_as_played`` to decide whether to offer saving it as played."""

    def __init__(self, verdict: Verdict, problems: list[Problem], never_as_played: list[Problem]) -> None:
        super().__init__("deal", "the deal has violations")
        self.verdict, self.problems, self.never_as_played = verdict, problems, never_as_played

    @property
    def may_save_as_played(self) -> bool:
        """True when the same deal, sent again with a reason, would be saved."""
        return not self.never_as_played


class SameAsPrevious(StorageError):
    """A new deal whose every side and ending equal those of the deal recorded just before it
    (``previous``, its number), as when one deal is saved twice: not saved. ``problem`` says so
    (code ``deal.same_as_previous``); the same request saying the table played it again
    (``repeat``) records it. ``verdict`` is the referee's on the deal sent."""

    CODE = "deal.same_as_previous"

    def __init__(self, number: int, previous: int, verdict: Verdict) -> None:
        message = (f"Deal {number} is the same as deal {previous}: every side and the ending. Record it only if "
                   "the table really played the same deal again.")
        super().__init__("deal", f"deal {number} is the same as deal {previous} (every side and the ending) and "
                         "was not saved; if the table really played it again, say so (repeat)")
        self.number, self.previous, self.verdict = number, previous, verdict
        self.problem = Problem(self.CODE, message, None, "deal")


class KeyReplaced(StorageError):
    """The edit key the door allowed this write with is no longer the game's: the edit link
    was replaced (at ``at``) between the door's check and the write. Nothing was written;
    sent again, the door refuses the old key as replaced."""

    def __init__(self, at: str) -> None:
        super().__init__("edit_key", "the edit key was replaced while this write waited; nothing was saved")
        self.at = at


def _part_name(part: str) -> str:
    return "the ending" if part == ENDING else f"side {part}'s part"


class DealOpen(StorageError):
    """A whole deal sent for deal ``number`` while it is being entered part by part (it has
    ``parts`` parts saved): not saved. Its parts complete it, or abandoning it lets a whole
    deal be sent."""

    def __init__(self, number: int, parts: int) -> None:
        super().__init__("deal", f"deal {number} is being entered part by part ({parts} part"
                         f"{'' if parts == 1 else 's'} saved), so a whole deal for it was not saved: finish "
                         "entering its parts, or abandon the open deal first")
        self.number, self.parts = number, parts


class NotNext(StorageError):
    """A part of deal ``number``, which is not the game's next deal (``next``; None when the
    game is over): it is recorded already, or further on. Nothing was saved."""

    def __init__(self, number: int, next_number: int | None, recorded: bool) -> None:
        said = (f"deal {number} is recorded already" if recorded else f"deal {number} is not the game's next deal"
                + (f" ({next_number})" if next_number is not None else ""))
        super().__init__("deal", f"{said}: parts are entered for the next deal only; nothing was saved")
        self.number, self.next_number, self.recorded = number, next_number, recorded


class PartEntered(StorageError):
    """A part that another phone entered (``part``, as it stands), sent without naming the
    version it replaces, or naming another (``sent``): nothing was overwritten. Look at it,
    then send yours again naming its version to replace it."""

    def __init__(self, part: OpenPart, sent: int | None) -> None:
        said = "without naming the version it replaces" if sent is None else f"replacing version {sent}"
        super().__init__("version", f"{_part_name(part.part)} was entered by {part.phone} (version {part.version}), "
                         f"and yours was sent {said}, so it was not saved: look at theirs, "
                         f"then send yours with version {part.version} to replace it")
        self.part, self.sent = part, sent


class ConfirmRefused(StorageError):
    """A confirmation not made: ``field`` says why (``side``: the part's own side, or the
    ending, which no side confirms; ``phone``: the phone that entered it; ``version``: the
    part changed since it was seen; ``part``: there is no such part)."""


class ImportRefused(StorageError):
    """An export document with a deal the referee will not let in: ``field`` names the deal
    in the document, ``number`` is its number, ``problems`` say why. Nothing was imported."""

    def __init__(self, field: str, message: str, number: int, problems: list[Problem]) -> None:
        super().__init__(field, message)
        self.number, self.problems = number, problems


class Busy(Exception):
    """Another process held the database's write lock for longer than a write may wait:
    nothing was written, and the same write may be sent again in a moment."""

    def __init__(self, message: str = "the database is busy with another program's write; nothing was saved, "
                                      "try again in a moment") -> None:
        super().__init__(message)


class Unreachable(Busy):
    """The database server (PostgreSQL) could not be reached, or gave no connection in time:
    nothing was written, and the same request may be sent again once it is back."""

    def __init__(self) -> None:
        super().__init__("the database cannot be reached just now; nothing was saved, try again in a moment")


class OutOfSpace(Exception):
    """The database has no room left for a write: its disk is full (SQLite's ``SQLITE_FULL``,
    PostgreSQL's ``53100 disk_full``) or its file reached ``DATABASE_MAX_BYTES``. Nothing was
    written; the same write may be sent again once whoever runs the server frees space."""

    def __init__(self) -> None:
        super().__init__("the server is out of space to store anything: nothing was saved; send it again once "
                         "space is freed (tell whoever runs the server)")


class Unusable(Exception):
    """The database file cannot be used: the message names the file, says why and what to do."""


ERRORS: tuple[type[Exception], ...] = (Invalid, NotFound, Gone, Conflict, Full, RuleViolations, ImportRefused, Busy,
                                       OutOfSpace, Unusable, AlreadyRecorded, SameAsPrevious, KeyReplaced, DealOpen,
                                       NotNext, PartEntered, ConfirmRefused)
"""Every error storage raises (some as subclasses: ``cache.BuildBusy``, ``Unreachable`` are ``Busy``): each
interface's table gives each of them its answer."""
