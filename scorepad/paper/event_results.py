"""A club night's results, as PDF bytes: the event (name, date, club, sheet), its plan in words
(format, rounds, ranking with its tie-break, what a bye scores), the overall standings, each
round's tables with their sides and totals (a table the organiser closed as played marked so),
and a line for the recorder to sign.

On one page where it fits: the text shrinks step by step (down to :data:`SIZES`' last) until it
does. A large evening (40 tables, 12 rounds) runs on to further pages: the standings and each
round's tables carry their header row onto the next page, and a row (one table) is never cut
in two. :class:`EventInfo` is what both this and :mod:`.table_cards` print of the event.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Flowable, KeepTogether, Paragraph, Spacer, Table, TableStyle

from ..rules.club_night import EventPlan, Format, Movement, RoundLength
from ..rules.event_results import SIDE_SEATS, RoundResult, TableResult, TableState
from ..rules.standings import Standing
from .common import (
    BLACK,
    GREY,
    Cell,
    Fonts,
    TableCommand,
    document,
    esc,
    load_fonts,
    num,
    page_footer,
    page_size,
    signed,
    styles,
)

SIZES = (9.0, 8.0, 7.0)  # the text sizes tried, largest first, until the results fit one page
LISTED_TABLES = 8  # the tables still playing named in the standings' title, up to this many; past it, counted
MANY_ROWS = 90  # past this many rows (standings and tables) only the smallest size is tried: they cannot fit one page


@dataclass(frozen=True)
class EventInfo:
    """What the paper prints of an event: its name, its date in words, its club, its sheet's
    title (with how many options it changed) and its plan."""

    name: str
    date: str
    club: str | None
    sheet_title: str
    plan: EventPlan


@dataclass(frozen=True)
class Played:
    """What the results print: the rounds as played, the overall standings, and whether the
    event is over."""

    rounds: Sequence[RoundResult]
    standings: Sequence[Standing]
    final: bool


MOVEMENT_WORDS = {Movement.NORTH_STAYS: "North stays; South moves down one table, East up one, West up two",
                  Movement.GENERIC: "seats found each round to avoid repeated partners and opponents"}


def plan_words(plan: EventPlan) -> list[tuple[str, str]]:
    """The plan in words: (label, sentence), as the results print them.

    >>> plan_words(EventPlan(Format.PARTNERS, 3))[0]
    ('Format', 'partners: fixed partnerships play each other, avoiding repeat opponents')
    """
    if plan.format is Format.PROGRESSIVE:
        how = f"progressive: players change partners every round ({MOVEMENT_WORDS[plan.movement]})"
    else:
        how = "partners: fixed partnerships play each other, avoiding repeat opponents"
    length = ("each a game of the sheet's length" if plan.round_length is RoundLength.GAME
              else "each ended by the organiser (open)")
    return [("Format", how), ("Rounds", f"{plan.rounds}, {length}"),
            ("Ranking", plan.tie_break), ("Byes", plan.bye_words)]


def event_results(event: EventInfo, played: Played, paper: str = "letter") -> bytes:
    """The results, on one page where they fit at one of :data:`SIZES`."""
    size = page_size(paper)
    fonts = load_fonts()
    rows = len(played.standings) + sum(len(r.tables) + 2 for r in played.rounds)
    sizes = SIZES if rows <= MANY_ROWS else SIZES[-1:]
    body = b""
    for text_size in sizes:
        buf = io.BytesIO()
        doc = document(buf, size, f"{event.name}: results", "A club night's standings and every table's game")
        width = size[0] - doc.leftMargin - doc.rightMargin
        footer = page_footer(fonts, f"scorepad: {event.name}: results")
        doc.build(_story(event, played, fonts, styles(fonts, text_size), width), onFirstPage=footer,
                  onLaterPages=footer)
        body = buf.getvalue()
        if doc.page == 1:
            break
    return body


def _story(event: EventInfo, played: Played, fonts: Fonts, st: dict[str, ParagraphStyle],
           width: float) -> list[Flowable]:
    about = [f"<b>Date:</b> {esc(event.date)}"] + ([f"<b>Club:</b> {esc(event.club)}"] if event.club else []) \
        + [f"<b>Sheet:</b> {esc(event.sheet_title)}"]
    story: list[Flowable] = [Paragraph(f"{esc(event.name)}: results", st["title"]),
                             Paragraph(". ".join(about) + ".", st["base"])]
    story += [Paragraph(f"<b>{label}:</b> {esc(words)}.", st["base"]) for label, words in plan_words(event.plan)]
    story += _standings(event, played, fonts, st, width)
    for played_round in played.rounds:
        story += _round(event.plan.format, played_round, fonts, st, width)
    story.append(_signature(fonts, st, width))
    return story


def _standing_title(event: EventInfo, played: Played) -> str:
    if played.final:
        return "Final standings"
    if not played.rounds:
        return "Standings: no round played yet"
    last = played.rounds[-1]
    playing = [str(t.number) for t in last.tables if t.state is TableState.PLAYING]
    if len(playing) > LISTED_TABLES:
        still = f" ({len(playing)} tables still playing)"
    else:
        still = f" (table{'s' if len(playing) > 1 else ''} {', '.join(playing)} still playing)" if playing else ""
    return f"Standings after round {last.number} of {event.plan.rounds}{still}"


def _grid(rows: list[list[Cell]], widths: list[float], fonts: Fonts, size: float,
          extra: Sequence[TableCommand] = ()) -> Table:
    """A ruled table, its header row repeated on each page it runs onto."""
    table = Table(rows, colWidths=widths, hAlign="LEFT", repeatRows=1)
    table.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, -1), fonts.regular, size),
        ("FONT", (0, 0), (-1, 0), fonts.bold, size),
        ("GRID", (0, 0), (-1, -1), 0.4, GREY),
        ("BOX", (0, 0), (-1, -1), 0.9, BLACK),
        ("LINEBELOW", (0, 0), (-1, 0), 0.9, BLACK),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), 1.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
        *extra]))
    return table


def _standings(event: EventInfo, played: Played, fonts: Fonts, st: dict[str, ParagraphStyle],
               width: float) -> list[Flowable]:
    """The overall standings: place, entrant, tables played, wins, losses, ties, byes, points."""
    who = "Player" if event.plan.format is Format.PROGRESSIVE else "Partnership"
    rows: list[list[Cell]] = [["Place", who, "Played", "Won", "Lost", "Tied", "Byes", "Points"]]
    cell = st["cell"]
    for s in played.standings:
        rows.append([str(s.place), Paragraph(esc(s.name), cell), str(s.played), str(s.wins), str(s.losses),
                     str(s.ties), str(s.byes), signed(s.points)])
    size = cell.fontSize
    numbers, points = size * 4.4, size * 6
    widths = [size * 4.6, width - size * 4.6 - 5 * numbers - points, *[numbers] * 5, points]
    grid = _grid(rows, widths, fonts, size, [("ALIGN", (2, 0), (-1, -1), "RIGHT"), ("ALIGN", (0, 0), (0, -1), "RIGHT")])
    return [Paragraph(_standing_title(event, played), st["h2"]), grid]


def _side_words(fmt: Format, table: TableResult, i: int) -> str:
    """A side in a round's table: ``N-S: Ann and Ben`` at a progressive table, else its
    partnership's name."""
    side = table.sides[i]
    if fmt is Format.PROGRESSIVE and i < len(SIDE_SEATS):
        return f"{SIDE_SEATS[i]}: {' and '.join(side.players)}"
    return side.name


def _outcome(fmt: Format, table: TableResult) -> str:
    """How the table stands: who won (or the tie), marked when the organiser closed it as played."""
    if table.state is TableState.PLAYING:
        return "still playing"
    names = [SIDE_SEATS[i] if fmt is Format.PROGRESSIVE and i < 2 else table.sides[i].name for i in table.winners]
    result = f"{names[0]} won" if len(names) == 1 else "tie"
    return f"closed as played; {result}" if table.state is TableState.CLOSED else result


def _round(fmt: Format, played: RoundResult, fonts: Fonts, st: dict[str, ParagraphStyle],
           width: float) -> list[Flowable]:
    """One round: its tables, a row each (its sides with their totals, and how it stands), and its byes."""
    cell = st["cell"]
    rows: list[list[Cell]] = [["Table", "Side", "Total", "Side", "Total", "Result"]]
    for table in played.tables:
        sides: list[tuple[Cell, str]] = [
            (Paragraph(esc(_side_words(fmt, table, i)), cell), signed(table.sides[i].total))
            for i in range(min(2, len(table.sides)))]
        while len(sides) < 2:
            sides.append(("", ""))
        rows.append([str(table.number), sides[0][0], sides[0][1], sides[1][0], sides[1][1],
                     Paragraph(esc(_outcome(fmt, table)), cell)])
    size = cell.fontSize
    total_w, first_w, result_w = size * 5.5, size * 4.6, size * 11
    side_w = (width - first_w - 2 * total_w - result_w) / 2
    grid = _grid(rows, [first_w, side_w, total_w, side_w, total_w, result_w], fonts, size,
                 [("ALIGN", (2, 0), (2, -1), "RIGHT"), ("ALIGN", (4, 0), (4, -1), "RIGHT"),
                  ("ALIGN", (0, 0), (0, -1), "RIGHT")])
    byes = ""
    if played.byes:
        byes = (f" Sat out (a bye, {num(played.bye_points)} point{'s' if played.bye_points != 1 else ''}): "
                + ", ".join(played.byes) + ".")
    head = Paragraph(f"Round {played.number}", st["h2"])
    head.keepWithNext = True
    story: list[Flowable] = [head]
    if byes:
        story.append(Paragraph(esc(byes.strip()), st["base"]))
    story[-1].keepWithNext = True
    return [*story, grid]


def _signature(fonts: Fonts, st: dict[str, ParagraphStyle], width: float) -> Flowable:
    """``Recorder: ______  Date: ____``: the recorder signs that these are the evening's results."""
    rows: list[list[Cell]] = [["Recorder:", "", "Date:", ""]]
    table = Table(rows, colWidths=[52, width * 0.5, 34, width * 0.25], rowHeights=24, hAlign="LEFT")
    table.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, -1), fonts.bold, 9),
        ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
        ("LINEBELOW", (1, 0), (1, 0), 0.8, BLACK),
        ("LINEBELOW", (3, 0), (3, 0), 0.8, BLACK),
        ("ALIGN", (2, 0), (2, 0), "RIGHT"),
    ]))
    return KeepTogether([Spacer(1, 10), Paragraph("The recorder signs that these are the evening's results.",
                                                  st["base"]), table])
