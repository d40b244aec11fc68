"""A club night's table cards, as PDF bytes: one page a table of a round, to stand on the table.

Each card shows the table's number large enough to find across the hall, the event, the round
and the sheet, each seat (progressive: North, South, East and West, the two sides N-S v E-W;
partners: the two partnerships and their players), and the QR code of the table's game's edit
link with the link written out under it, so each phone at the table joins the game by scanning.
The cards carry edit links: only the organiser prints them.

Drawn straight on the canvas, a page a table: 40 tables cost well under a second. Names are
drawn at the largest size that fits their room (never below :data:`~.common.MIN_SIZE`), so a
name of :data:`~scorepad.rules.limits.MAX_NAME` characters stays on its card.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from ..rules.club_night import Format
from ..rules.event_results import SEATS, SIDE_WORDS, TableResult
from .common import BLACK, GREY, MARGIN, MIN_SIZE, Fonts, load_fonts, page_size, qr_rects
from .event_results import EventInfo

QR_SIZE = 190.0  # points: about 67 mm, which a phone reads from across the table
NUMBER_SIZE = 150.0  # the table's number
LINK_SIZE = 6.0  # the link written out shrinks to fit its line down to this, then takes two


@dataclass(frozen=True)
class Card:
    """One table of the round and its game's edit link."""

    table: TableResult
    edit_url: str


def fitted(text: str, font: str, size: float, width: float, least: float = MIN_SIZE) -> float:
    """The largest size, from ``size`` down to ``least``, at which ``text`` fits ``width``."""
    while size > least and pdfmetrics.stringWidth(text, font, size) > width:
        size -= 0.5
    return max(size, least)


def cut(text: str, font: str, size: float, width: float) -> str:
    """``text`` cut to ``width`` at ``size``, with "…" when it was longer."""
    if pdfmetrics.stringWidth(text, font, size) <= width:
        return text
    while text and pdfmetrics.stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text + "…"


class _Page:
    """The canvas of one card and where its lines go: ``y`` moves down the page."""

    def __init__(self, canv: Canvas, fonts: Fonts, paper: tuple[float, float]) -> None:
        self.canv, self.fonts = canv, fonts
        self.width, self.height = paper
        self.inner = self.width - 2 * MARGIN
        self.y = self.height - MARGIN

    def line(self, text: str, size: float, bold: bool = False, centre: float | None = None,
             width: float | None = None, down: float = 1.25) -> None:
        """One line of text at the largest size up to ``size`` that fits, left at the margin or
        centred on ``centre``; ``y`` moves down by ``down`` times its size."""
        font = self.fonts.bold if bold else self.fonts.regular
        room = width if width is not None else self.inner
        shown = fitted(text, font, size, room)
        text = cut(text, font, shown, room)
        self.y -= shown * down
        self.canv.setFont(font, shown)
        if centre is None:
            self.canv.drawString(MARGIN, self.y, text)
        else:
            self.canv.drawCentredString(centre, self.y, text)

    def named(self, seat: str, name: str, x: float, y: float, width: float) -> None:
        """A seat's label, small, over the player's name, bold, centred on ``x``, top at ``y``."""
        self.canv.setFont(self.fonts.regular, 10)
        self.canv.drawCentredString(x, y - 10, seat)
        size = fitted(name, self.fonts.bold, 18, width)
        self.canv.setFont(self.fonts.bold, size)
        self.canv.drawCentredString(x, y - 14 - size, cut(name, self.fonts.bold, size, width))


def table_cards(event: EventInfo, round_number: int, cards: Sequence[Card], paper: str = "letter") -> bytes:
    """The cards of one round, a page a table, in table order."""
    size = page_size(paper)
    fonts = load_fonts()
    buf = io.BytesIO()
    canv = Canvas(buf, pagesize=size, invariant=True, pageCompression=1)
    canv.setTitle(f"{event.name}: table cards, round {round_number}")
    canv.setAuthor("scorepad")
    canv.setSubject("A card for each table of the round: its seats and its game's QR code")
    for card in cards:
        _card(_Page(canv, fonts, size), event, round_number, card, len(cards))
        canv.showPage()
    if not cards:
        canv.showPage()
    canv.save()
    return buf.getvalue()


def _card(page: _Page, event: EventInfo, round_number: int, card: Card, count: int) -> None:
    canv, mid = page.canv, page.width / 2
    canv.setFillColor(BLACK)
    page.line(event.name, 22, bold=True)
    page.line(f"Round {round_number} of {event.plan.rounds} · {event.date}" + (f" · {event.club}" if event.club
                                                                                 else ""), 13)
    page.line(f"Sheet: {event.sheet_title}", 11)
    page.y -= 10
    page.line("Table", 30, bold=True, centre=mid)
    page.line(str(card.table.number), NUMBER_SIZE, bold=True, centre=mid, down=0.95)
    page.y -= 18
    sides = card.table.sides
    if event.plan.format is Format.PROGRESSIVE and len(sides) == 2 and all(len(s.players) == 2 for s in sides):
        _compass(page, card.table)
    else:
        _partnerships(page, card.table)
    _join(page, card.edit_url)
    canv.setFont(page.fonts.regular, MIN_SIZE)
    canv.drawString(MARGIN, MARGIN - 2, cut(f"scorepad: {event.name}: round {round_number}, table "
                                            f"{card.table.number}", page.fonts.regular, MIN_SIZE, page.inner - 80))
    canv.drawRightString(page.width - MARGIN, MARGIN - 2, f"table {card.table.number} of {count}")


def _compass(page: _Page, table: TableResult) -> None:
    """The four seats round a drawn table: North above it, South below, West left, East right;
    then the two sides, North-South v East-West."""
    canv, mid = page.canv, page.width / 2
    square = 96.0
    seat_w = (page.inner - square) / 2 - 8
    (north, south), (east, west) = table.sides[0].players[:2], table.sides[1].players[:2]
    top = page.y
    page.named(SEATS[0][0], north, mid, top, page.inner * 0.6)
    box_top = top - 48
    canv.setLineWidth(1.5)
    canv.setStrokeColor(GREY)
    canv.rect(mid - square / 2, box_top - square, square, square)
    canv.setStrokeColor(BLACK)
    middle = box_top - square / 2 + 16
    page.named(SEATS[1][1], west, MARGIN + seat_w / 2, middle, seat_w)
    page.named(SEATS[1][0], east, page.width - MARGIN - seat_w / 2, middle, seat_w)
    page.named(SEATS[0][1], south, mid, box_top - square - 4, page.inner * 0.6)
    page.y = box_top - square - 58
    page.line(f"{SIDE_WORDS[0]}: {north} and {south}  v  {SIDE_WORDS[1]}: {east} and {west}", 12, centre=mid)


def _partnerships(page: _Page, table: TableResult) -> None:
    """The partnerships at the table, one over the other, each with its players."""
    mid = page.width / 2
    for i, side in enumerate(table.sides):
        if i:
            page.line("v", 16, centre=mid, down=1.6)
        page.line(side.name, 24, bold=True, centre=mid)
        if tuple(side.players) != (side.name,):
            page.line("Players: " + ", ".join(side.players), 12, centre=mid)
    page.y -= 14


def _join(page: _Page, url: str) -> None:
    """The QR code of the game's edit link, what it is for, and the link written out under it,
    white all round the code (its quiet zone: three modules at the least)."""
    canv = page.canv
    bottom = MARGIN + 52
    size = min(QR_SIZE, page.y - bottom - 12)
    x = MARGIN
    canv.setFillColor(BLACK)
    path = canv.beginPath()
    for rect in qr_rects(url, x, bottom, size):
        path.rect(*rect)
    canv.drawPath(path, stroke=0, fill=1)
    text_x = x + size + 26
    text_w = page.width - MARGIN - text_x
    y = bottom + size - 16
    canv.setFont(page.fonts.bold, 15)
    canv.drawString(text_x, y, "Scan to score this table")
    words = ("Each phone at the table scans this code to join the table's game and record its deals. "
             "The link lets whoever holds it score: keep the card at the table.")
    canv.setFont(page.fonts.regular, 11)
    for piece in _wrapped(words, page.fonts.regular, 11, text_w):
        y -= 15
        canv.drawString(text_x, y, piece)
    canv.setFont(page.fonts.bold, 9)
    canv.drawString(MARGIN, MARGIN + 24, "Edit link:")
    link_size = fitted(url, page.fonts.regular, 10, page.inner, LINK_SIZE)
    pieces = _broken(url, page.fonts.regular, link_size, page.inner)
    canv.setFont(page.fonts.regular, link_size)
    for i, piece in enumerate(pieces):  # one line, but for a link longer than any page is wide
        canv.drawString(MARGIN, MARGIN + 22 - (i + 1) * (link_size + 1), piece)


def _broken(text: str, font: str, size: float, width: float) -> list[str]:
    """``text`` broken anywhere into lines that fit ``width``: a link is written out whole."""
    lines = [""]
    for ch in text:
        if lines[-1] and pdfmetrics.stringWidth(lines[-1] + ch, font, size) > width:
            lines.append("")
        lines[-1] += ch
    return lines


def _wrapped(text: str, font: str, size: float, width: float) -> list[str]:
    """``text`` broken into lines that fit ``width``, at spaces."""
    lines: list[str] = []
    for word in text.split():
        if lines and pdfmetrics.stringWidth(f"{lines[-1]} {word}", font, size) <= width:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return lines
