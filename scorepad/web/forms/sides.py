"""A new game's sides: up to eight sides of up to four players, in seat order, blanks ignored;
and the new-game form (its name, the preset it starts from, and whether opponents confirm each
side's score).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TypedDict

from wtforms import BooleanField, SelectField, StringField

from ...rules.limits import MAX_NAME, MAX_PER_SIDE, MAX_SIDES
from ...rules.text import untyped
from . import FlaskForm, PlainText, preset_choices


class NewGameForm(FlaskForm):
    name = StringField("Game name", [PlainText()])  # the store checks the rest, and says what is wrong inline
    preset = SelectField("Start from the sheet", choices=preset_choices, default="common")
    # confirm: opponents (a side's part of a deal entered part by part waits for another side's confirmation)
    confirm = BooleanField("Opponents confirm each side's score")


# -- sides and players --------------------------------------------------------------------------


@dataclass
class SideRow:
    index: int
    name: str = ""
    players: list[str] = field(default_factory=lambda: [""] * MAX_PER_SIDE)
    error: str | None = None


class SideJSON(TypedDict):
    """A side as the store takes it."""

    name: str
    players: list[str]


class SidesForm:
    """Up to eight sides of up to four players each, in seat order; blank rows are ignored."""

    def __init__(self, rows: list[SideRow]) -> None:
        self.rows = rows
        self.error: str | None = None

    @classmethod
    def blank(cls) -> SidesForm:
        return cls([SideRow(i) for i in range(MAX_SIDES)])

    @classmethod
    def from_form(cls, form: Mapping[str, str]) -> SidesForm:
        """The rows posted. One side and one player past the bounds are read too, and kept when
        filled in, so a table too large is refused by the store naming the field, and shown
        again as typed rather than cut down to size."""
        rows = []
        for i in range(MAX_SIDES + 1):
            players = [_clean(form.get(f"side-{i}-p{j}", "")) for j in range(MAX_PER_SIDE + 1)]
            row = SideRow(i, _clean(form.get(f"side-{i}-name", "")), players if players[-1] else players[:-1])
            if i < MAX_SIDES or row.name or any(row.players):
                rows.append(row)
        return cls(rows)

    def more_open(self) -> bool:
        """Whether the rows past the second hold anything (their section then starts open)."""
        return any(r.name or any(r.players) or r.error for r in self.rows[2:])

    def used(self) -> list[SideRow]:
        return [r for r in self.rows if r.name or any(r.players)]

    def to_json(self) -> list[SideJSON]:
        """The sides as the store takes them; a side without a name is named after its players."""
        out: list[SideJSON] = []
        for row in self.used():
            players = [p for p in row.players if p]
            name = row.name or " & ".join(players)
            out.append({"name": name, "players": players})
        return out

    def game_name(self) -> str:
        names = [s["name"] for s in self.to_json() if s["name"]]
        text = " v ".join(names)
        return text if len(text) <= MAX_NAME else text[:MAX_NAME - 1] + "…"

    def problems(self) -> list[tuple[str, str]]:
        """(the id of the box, the message) for each error, for the form's error summary."""
        out = [("side-0-p0", self.error)] if self.error else []
        return out + [(f"side-{r.index}-p0", f"Side {r.index + 1}: {r.error}") for r in self.rows if r.error]

    def place_error(self, field_path: str, message: str) -> None:
        """Put a store error on the row it names (``sides[1].players[0]``), else on the whole."""
        match = re.match(r"sides\[(\d+)\]", field_path)
        used = self.used()
        if match and int(match.group(1)) < len(used):
            used[int(match.group(1))].error = message
        else:
            self.error = message


def _clean(value: str) -> str:
    """A typed name, spaces made one; one holding a character nobody types is kept as it
    is, for the store to refuse naming its field."""
    text = str(value or "").strip()
    return text if untyped(text) else " ".join(text.split())


