"""The "This phone" form: whom this phone enters deals for, and whose phone it is, read
against the game's sides and players (:mod:`scorepad.web.phones` keeps the answer)."""

from __future__ import annotations

from collections.abc import Mapping

from ...storage.reading import GameSide
from . import FlaskForm


class PhoneForm(FlaskForm):
    """The CSRF token; the side and the owner are read by :func:`read_choice` (radios
    laid out from the game)."""


def read_choice(sides: list[GameSide], data: Mapping[str, str]) -> tuple[int | None, str | None, str | None]:
    """(side index or None for every side, the owner's name or None, what is wrong or None).
    A phone entering one side's part says whose phone it is: its parts carry that label."""
    side_sent, owner = str(data.get("side", "")), str(data.get("owner", "")).strip()
    players = [name for side in sides for name in side["players"]]
    if side_sent == "all" or side_sent == "":
        side = None
    elif side_sent.isascii() and side_sent.isdigit() and int(side_sent) < len(sides):
        side = int(side_sent)
    else:
        return None, None, "Choose a side of this game, or every side."
    if owner and owner not in players:
        return side, None, "Choose one of this game's players."
    if side is not None and not owner:
        return side, None, "Say whose phone this is: the other phones see it beside what this one enters."
    return side, owner or None, None
