"""What a phone at the table says of itself, per game: whom it enters deals for (one side,
the table's other phones entering the others, or every side, the form as one phone uses it)
and whose phone it is ("Dan's phone", one of the game's players). Kept in this browser's
session (its cookie), never in the database: the label is sent with each part it saves, a
name for the table to read, not a permission.

The session keeps ``phones``: ``[game id, side index or -1 for every side, player's name or ""]``,
the game chosen most recently first, at most :data:`MAX_PHONE_CHOICES` of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import session

from ..rules.limits import MAX_NAME, MAX_PHONE_CHOICES
from ..storage.reading import GameRecord

EVERY_SIDE = -1


@dataclass(frozen=True)
class Phone:
    """This phone in one game: the side it enters for (its index; None: every side) and
    whose phone it is (a player's name; None: not said yet). ``chosen``: the phone has said
    either, so the form does not ask again."""

    side: int | None
    owner: str | None
    chosen: bool

    def side_name(self, game: GameRecord) -> str | None:
        return game.sides[self.side]["name"] if self.side is not None else None

    @property
    def label(self) -> str | None:
        """``Dan's phone``, as the other phones read it; None when not said."""
        return f"{self.owner}’s phone" if self.owner else None


def _kept() -> list[list[object]]:
    kept = session.get("phones", [])
    return [e for e in kept if isinstance(e, list) and len(e) == 3] if isinstance(kept, list) else []


def phone(game: GameRecord) -> Phone:
    """This phone in ``game``: what it chose, checked against the game as it is now (a side
    or a player the game no longer has counts as not chosen)."""
    for game_id, side, owner in _kept():
        if game_id != game.id:
            continue
        shown = side if isinstance(side, int) and 0 <= side < len(game.sides) else None
        players = {p for s in game.sides for p in s["players"]}
        return Phone(shown, owner if isinstance(owner, str) and owner in players else None, True)
    return Phone(None, None, False)


def choose(game: GameRecord, side: int | None, owner: str | None) -> Phone:
    """Remember for ``game`` on this phone: the side it enters for (None: every side) and
    whose phone it is; the game chosen least recently is forgotten past the cap."""
    entry: list[object] = [game.id, EVERY_SIDE if side is None else side, (owner or "")[:MAX_NAME]]
    session["phones"] = [entry] + [e for e in _kept() if e[0] != game.id][:MAX_PHONE_CHOICES - 1]
    session.permanent = True
    return phone(game)
