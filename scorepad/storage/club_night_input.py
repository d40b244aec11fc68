"""What a club night's writes are given, read once at the door into the rules core's values
(as :mod:`.checks` does for a game): a new event's name, date, club, sheet, plan, roster and
partnerships (:func:`read_new_event`), and late arrivals (:func:`read_arrivals`). Every door
(the pages, the JSON API, the CLI) hands the same JSON-shaped data here; what cannot be read
is :class:`~.errors.Invalid`, naming the field.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date

from ..rules import ReadError, RuleSheet, load_sheet
from ..rules.club_night import (
    PLAN_KEYS,
    Entrant,
    EventPlan,
    Format,
    Partnership,
    read_partnerships,
    read_roster,
)
from ..rules.limits import MAX_NAME
from ..rules.text import read_name
from .errors import Invalid

EVENT_KEYS = ("name", "date", "club", "sheet", "players", "partnerships", *PLAN_KEYS)


@dataclass(frozen=True, slots=True)
class NewEvent:
    name: str
    held_on: str  # YYYY-MM-DD
    club: str | None
    sheet: RuleSheet
    plan: EventPlan
    roster: tuple[Entrant, ...]
    partnerships: tuple[Partnership, ...]


@contextmanager
def _invalid() -> Iterator[None]:
    try:
        yield
    except ReadError as err:
        raise Invalid(err.field, err.reason) from None


def read_new_event(data: Mapping[str, object]) -> NewEvent:
    """A new event from its JSON: ``name``, ``date`` (YYYY-MM-DD, today when absent), ``club``
    (optional), ``sheet`` (a preset id or a sheet object), ``format``, ``rounds`` and the plan's
    other settings, ``players`` (names, or ``{"name", "member"}``) and, for ``partners``,
    ``partnerships`` (pairs of the players' names)."""
    for key in data:
        if key not in EVENT_KEYS:
            raise Invalid(key, f"is not a field here; expected {', '.join(EVENT_KEYS)}")
    with _invalid():
        name = read_name(data.get("name"), "name", MAX_NAME)
        club = None if data.get("club") in (None, "") else read_name(data.get("club"), "club", MAX_NAME)
        held_on = read_date(data.get("date"))
        plan = EventPlan.from_json(data)
        sheet = load_sheet(data.get("sheet", "common"), "sheet")
        roster = read_roster(data.get("players"))
        partnerships: tuple[Partnership, ...] = ()
        if plan.format is Format.PARTNERS:
            partnerships = read_partnerships(data.get("partnerships"), roster)
        elif data.get("partnerships") not in (None, []):  # false, 0 or "" too: never read as none
            raise ReadError("partnerships", "only a partners event has partnerships: a progressive one changes "
                            "partners every round")
    return NewEvent(name, held_on, club, sheet, plan, roster, partnerships)


def read_date(value: object) -> str:
    """An evening's date, ``YYYY-MM-DD``; today's when none is given."""
    if value is None or value == "":
        return date.today().isoformat()
    if isinstance(value, str):
        try:
            return date.fromisoformat(value.strip()).isoformat()
        except ValueError:
            pass
    raise ReadError("date", f"must be a date such as 2026-12-04, not {value!r:.40}")


def read_arrivals(data: Mapping[str, object], plan: EventPlan, roster: tuple[Entrant, ...],
                  partnerships: tuple[Partnership, ...]) -> tuple[tuple[Entrant, ...], tuple[Partnership, ...]]:
    """The roster and partnerships with late arrivals added: ``players`` (and, for a partners
    event, ``partnerships`` pairing them)."""
    for key in data:
        if key not in ("players", "partnerships", "revision"):
            raise Invalid(key, "is not a field here; expected players, partnerships, revision")
    with _invalid():
        grown = read_roster(data.get("players"), "players", roster)
        if plan.format is Format.PARTNERS:
            return grown, read_partnerships(data.get("partnerships"), grown, partnerships)
        if data.get("partnerships"):
            raise ReadError("partnerships", "only a partners event has partnerships")
        return grown, partnerships
