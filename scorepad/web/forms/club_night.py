"""The club night's forms: a new event (:class:`NewEventInput`) and late arrivals
(:class:`ArrivalsInput`), read by hand from what was typed into the JSON-shaped data
:mod:`scorepad.storage.club_night_input` reads (the same the API and the command line hand
it), and a storage error placed back beside the field it names, with everything typed kept.

Players are typed one a line, ``Name`` or ``Name #member``; partnerships one a line,
``Ann & Ben``. A storage error names ``players[3]`` (the fourth name): it is shown beside
the players' box as "Line 5: ...", the line it was typed on (blank lines are skipped).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date

from ...rules.club_night import WINNERS_AVERAGE

# The new event's boxes, in the order the form shows them: the storage field each stands for.
NEW_EVENT_FIELDS = ("name", "date", "club", "format", "movement", "rounds", "round_length", "ranking",
                    "bye_score", "standings", "players", "partnerships")
LABELS = {"name": "Name", "date": "Date", "club": "Club", "sheet": "Sheet", "format": "Format",
          "movement": "Movement", "rounds": "Rounds", "round_length": "Round length", "ranking": "Ranking",
          "bye_score": "Bye score", "standings": "Standings", "players": "Players",
          "partnerships": "Partnerships", "round": "Round", "table": "Table"}
_INDEX = re.compile(r"^(\w+)\[(\d+)\](.*)$")


def roster_lines(text: str) -> tuple[list[object], list[int]]:
    """The players typed one a line (``Name`` or ``Name #member``), as the store reads them, and
    the line number each came from."""
    players: list[object] = []
    lines: list[int] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        name, hashed, member = line.rpartition("#") if "#" in line else (line, "", "")
        players.append({"name": name.strip(), "member": member.strip()} if hashed else line.strip())
        lines.append(number)
    return players, lines


def partnership_lines(text: str) -> tuple[list[object], list[int]]:
    """The partnerships typed one a line (``Ann & Ben``), as pairs of names, and their lines."""
    pairs: list[object] = []
    lines: list[int] = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            pairs.append([part.strip() for part in line.split("&")])
            lines.append(number)
    return pairs, lines


def whole_number(value: str) -> object:
    """A box's whole number, or what was typed (which the store then refuses, naming the box)."""
    text = value.strip()
    return int(text) if re.fullmatch(r"\d{1,9}", text) else text


@dataclass
class _Typed:
    """What a form's boxes hold as typed, the lines its list boxes' entries came from, and the
    errors placed beside each box."""

    values: dict[str, str]
    lines: dict[str, list[int]] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)

    def place(self, name: str, message: str) -> None:
        """A storage error naming ``name`` (``players[2].member``), beside its box, worded for it."""
        box, where = name, ""
        found = _INDEX.match(name)
        if found is not None:
            box = found.group(1)
            index = int(found.group(2))
            lines = self.lines.get(box, [])
            where = f"Line {lines[index]}: " if index < len(lines) else ""
        if box not in self.values:
            box = next(iter(self.values))  # a field with no box of its own: beside the first
        said = message[0].upper() + message[1:] if message else message
        self.errors[box] = f"{where}{said}." if not said.endswith(".") else f"{where}{said}"

    def problems(self) -> list[tuple[str, str]]:
        """The error summary's entries: (the box's id, its label and error)."""
        return [(f"ev-{box}", f"{LABELS.get(box, box)}: {message}") for box, message in self.errors.items()]


class NewEventInput(_Typed):
    """The new-event form as typed (today's date when first shown); its sheet is the page's sheet
    editor's (:class:`~.sheet_editor.SheetEditor`), read beside it."""

    @classmethod
    def blank(cls) -> NewEventInput:
        return cls({"name": "", "date": date.today().isoformat(), "club": "",
                    "format": "progressive", "movement": "north_stays", "rounds": "6", "round_length": "game",
                    "ranking": "wins", "bye_score": WINNERS_AVERAGE, "bye_points": "", "standings": "live",
                    "players": "", "partnerships": ""})

    @classmethod
    def from_form(cls, form: Mapping[str, str]) -> NewEventInput:
        blank = cls.blank().values
        return cls({key: str(form.get(key, "" if key in ("name", "club", "players", "partnerships", "date",
                                                        "bye_points", "rounds") else blank[key]))
                    for key in blank})

    def to_json(self) -> dict[str, object]:
        """The event as the store reads it (:func:`~scorepad.storage.club_night_input.read_new_event`)."""
        v = self.values
        players, self.lines["players"] = roster_lines(v["players"])
        data: dict[str, object] = {"name": v["name"], "date": v["date"], "club": v["club"],
                                   "format": v["format"], "rounds": whole_number(v["rounds"]),
                                   "round_length": v["round_length"], "ranking": v["ranking"],
                                   "standings": v["standings"], "players": players}
        data["bye_score"] = (WINNERS_AVERAGE if v["bye_score"] == WINNERS_AVERAGE
                             else whole_number(v["bye_points"]) if v["bye_score"] == "fixed" else v["bye_score"])
        if v["format"] == "progressive":
            data["movement"] = v["movement"]
        if v["partnerships"].strip():
            data["partnerships"], self.lines["partnerships"] = partnership_lines(v["partnerships"])
        return data

    def place(self, name: str, message: str) -> None:
        super().place("bye_score" if name == "bye_points" else name, message)


class ArrivalsInput(_Typed):
    """Late arrivals: their names (and, for a partners event, their partnerships)."""

    @classmethod
    def blank(cls) -> ArrivalsInput:
        return cls({"players": "", "partnerships": ""})

    @classmethod
    def from_form(cls, form: Mapping[str, str]) -> ArrivalsInput:
        return cls({"players": str(form.get("players", "")), "partnerships": str(form.get("partnerships", ""))})

    def to_json(self) -> dict[str, object]:
        """The arrivals as :func:`~scorepad.storage.club_night_input.read_arrivals` reads them."""
        players, self.lines["players"] = roster_lines(self.values["players"])
        data: dict[str, object] = {"players": players}
        if self.values["partnerships"].strip():
            data["partnerships"], self.lines["partnerships"] = partnership_lines(self.values["partnerships"])
        return data
