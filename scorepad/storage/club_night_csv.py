"""Every player's rounds of a club night, as CSV: one row per player per round they were in,
player by player in roster order, round by round.

Each row: the event, its date, the round, the player (and member number), the table, the seat
(North, South, East, West at a progressive table; none for a partnership, which sits as one
side), the side (``N-S``, ``E-W``, or the partnership's name), the partner(s), the opponents,
the side's total, the result (``win``, ``loss``, ``tie``, ``bye``, or ``playing`` while the
table plays) and the points the standings count for it (the side's total, or what the bye
scores). Cells are made safe to open in a spreadsheet (:func:`.document.spreadsheet_safe`).
"""

from __future__ import annotations

import csv
import io

from ..rules.event_results import RoundResult, seat_of, side_label
from .club_night_results import EventResults, results_of
from .club_nights import EventRecord
from .document import Cell, spreadsheet_safe

HEADER: tuple[str, ...] = ("Event", "Date", "Round", "Player", "Member", "Table", "Seat", "Side", "Partners",
                           "Opponents", "Side total", "Result", "Points counted")


def _seated(results: EventResults, played: RoundResult) -> dict[str, list[Cell]]:
    """Each player at a table of the round: the row's cells from the table on."""
    fmt = results.event.plan.format
    out: dict[str, list[Cell]] = {}
    for table in played.tables:
        for i, side in enumerate(table.sides):
            others = [s for j, s in enumerate(table.sides) if j != i]
            opponents = " and ".join(p for s in others for p in s.players)
            for place, player in enumerate(side.players):
                partners = " and ".join(p for p in side.players if p != player)
                out[player] = [table.number, seat_of(fmt, i, place), side_label(fmt, i, table), partners,
                               opponents, side.total, table.result_of(i), side.total]
    return out


def _byes(results: EventResults, played: RoundResult) -> dict[str, list[Cell]]:
    """Each player sitting the round out: no table, the bye's points."""
    players = results.players
    return {player: ["", "", "", "", "", "", "bye", played.bye_points]
            for entrant in played.byes for player in players.get(entrant, (entrant,))}


def player_rows(results: EventResults) -> list[list[Cell]]:
    """The CSV's rows, the header first."""
    event = results.event
    rows: list[list[Cell]] = [list(HEADER)]
    by_round = [{**_seated(results, r), **_byes(results, r)} for r in results.rounds]
    for entrant in event.roster:
        for played, cells in zip(results.rounds, by_round, strict=True):
            if entrant.name in cells:
                rows.append([event.name, event.held_on, played.number, entrant.name, entrant.member or "",
                             *cells[entrant.name]])
    return rows


def players_csv(event: EventRecord, results: EventResults | None = None) -> str:
    """The event's players' rounds as CSV text (``results``: read now when not given)."""
    out = io.StringIO()
    rows = player_rows(results or results_of(event))
    csv.writer(out).writerows([[spreadsheet_safe(cell) for cell in row] for row in rows])
    return out.getvalue()

