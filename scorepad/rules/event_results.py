"""A club night's tables as played, for paper and for the players' CSV: each table of each round
with its sides (their names, players, seats and totals), who won it, and whether it finished
on its own, was closed as played by the organiser, or is still playing.

Pure data: :mod:`scorepad.storage.club_night_results` reads it from the event's games;
:mod:`scorepad.paper.event_results`, :mod:`scorepad.paper.table_cards` and
:mod:`scorepad.storage.club_night_csv` print it. Seats follow :mod:`.movements`: a progressive
table's sides are (North, South) v (East, West); a partners table's, one partnership each.
"""

from __future__ import annotations

from dataclasses import dataclass

from .choices import Choice
from .club_night import Format

# A progressive table's seats, side by side, and each side's short name.
SEATS: tuple[tuple[str, str], tuple[str, str]] = (("North", "South"), ("East", "West"))
SIDE_SEATS = ("N-S", "E-W")
SIDE_WORDS = ("North-South", "East-West")


class TableState(Choice):
    FINISHED = "finished"  # its game is over
    CLOSED = "closed as played"  # the organiser closed it before its game was over: it stands as it is
    PLAYING = "playing"  # still playing: its points count so far, no win or loss yet


@dataclass(frozen=True, slots=True)
class SeatedSide:
    """One side of a table: its game's name for it, who the standings credit (its two players,
    or its partnership), the players sitting, and its total so far."""

    name: str
    entrants: tuple[str, ...]
    players: tuple[str, ...]
    total: int


@dataclass(frozen=True, slots=True)
class TableResult:
    """One table of one round as its game stands."""

    number: int
    game_id: str
    sides: tuple[SeatedSide, ...]
    winners: tuple[int, ...]  # the places of the sides on the highest total once finished (several: a tie)
    state: TableState

    def result_of(self, side: int) -> str:
        """``win``, ``loss``, ``tie`` or, while the table plays, ``playing``."""
        if self.state is TableState.PLAYING:
            return "playing"
        if self.winners == (side,):
            return "win"
        return "tie" if side in self.winners else "loss"


@dataclass(frozen=True, slots=True)
class RoundResult:
    """One round: its tables, who sat it out and what a bye of it scores."""

    number: int
    tables: tuple[TableResult, ...]
    byes: tuple[str, ...]
    bye_points: int

    @property
    def finished(self) -> bool:
        return all(table.state is not TableState.PLAYING for table in self.tables)


def seat_of(event_format: Format, side: int, place: int) -> str:
    """A player's seat at a table: ``North``... for a progressive table, ``""`` for partners
    (a partnership sits together: its side is its seat)."""
    return SEATS[side][place] if event_format is Format.PROGRESSIVE and side < 2 and place < 2 else ""


def side_label(event_format: Format, side: int, table: TableResult) -> str:
    """A side as the paper and the CSV name it: ``N-S`` or ``E-W`` at a progressive table, else
    the partnership's name."""
    if event_format is Format.PROGRESSIVE and side < 2:
        return SIDE_SEATS[side]
    return table.sides[side].name
