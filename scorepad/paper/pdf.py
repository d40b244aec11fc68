"""Printed paper, as PDF bytes: the house-rule sheet, a blank score pad, a game's results.

Everything here is a pure function of a rule sheet (and, for a game, its name, sides and
deals): no web framework, no files read but fonts. :mod:`scorepad.web.paper` serves them.

* :func:`house_rules`: exactly one page. Every option of the sheet in plain words, grouped
  as a player reads a sheet, the card values, what the table changed against its preset
  (marked ``* CHANGED`` and listed ``preset value → new value``), the preset's title,
  source and the points its source leaves unsaid, lines for the players to sign, and the
  game's view link as a QR code. The text shrinks step by step (never below 7 pt) until it
  fits the page.
* :func:`score_pad`: a block per deal, one column per side, with the lines this sheet
  scores and the deal's opening minimum and going-out requirement in its header; for a
  game in progress, its next deal as :class:`scorepad.rules.game.Game` says.
* :func:`results`: every deal's itemised lines per side, running totals, the winner or
  tie (or the next deal), deals saved "as played" (at most :data:`MAX_PROBLEMS_SHOWN` problems
  each, then "and N more") and the amendments of the sheet. :func:`printed_results` builds it
  once without its link, and :meth:`Printed.with_link` writes each reader's link into those
  bytes (an incremental update appended to the PDF), so one built PDF serves every host.

Black and white throughout: marks are words and symbols, never colour alone. User text
(game, side and player names, reasons) is escaped before it reaches a Paragraph, so it is
drawn literally.

>>> from scorepad.rules import preset
>>> house_rules(preset("pagat"))[:5]
b'%PDF-'
"""

from __future__ import annotations

import io
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any, cast
from xml.sax.saxutils import escape

import segno
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, LETTER, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, KeepTogether, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from ..rules import PRESETS, load_sheet
from ..rules.cards import Card
from ..rules.limits import MAX_PROBLEMS_SHOWN
from ..rules.sheet import (
    OPTION_BY_NAME,
    GameLength,
    OpeningBy,
    PileTake,
    RuleSheet,
    options_by_group,
)

PAPERS: dict[str, tuple[float, float]] = {"letter": LETTER, "a4": A4}
MARGIN = 30.0                               # points; about 10.5 mm, inside any printer's margin
SHEET_SIZES = (11.0, 10.5, 10.0, 9.5, 9.0, 8.5, 8.0, 7.5, 7.0)  # body text of the house-rule sheet
MIN_SIZE = 7.0
TARGET_PAD_DEALS = 6                        # blocks on a pad for a sheet played to a target
BLACK = colors.black
GREY = colors.Color(0.55, 0.55, 0.55)

# The order cards are listed in the value table: wild cards, naturals high to low, black three.
VALUE_ORDER = (Card.JOKER, Card.TWO, Card.ACE, Card.KING, Card.QUEEN, Card.JACK, Card.TEN, Card.NINE,
               Card.EIGHT, Card.SEVEN, Card.SIX, Card.FIVE, Card.FOUR, Card.BLACK_THREE)


def page_size(paper: str) -> tuple[float, float]:
    """The page size for ``letter`` or ``a4``; ValueError naming any other value.

    >>> page_size("a4") == A4
    True
    """
    try:
        return PAPERS[paper]
    except (KeyError, TypeError):
        raise ValueError(f"paper must be 'letter' or 'a4', not {paper!r}") from None


@dataclass(frozen=True)
class GameInfo:
    """What the paper shows of a game: its name, its sides (name and players, in seat
    order), its view link, the date to print and, while it goes on, its next deal in words
    (:meth:`scorepad.rules.game.NextDeal.words`)."""

    name: str
    sides: tuple[tuple[str, tuple[str, ...]], ...]
    view_url: str | None = None
    date: str | None = None
    next_deal: str | None = None

    @classmethod
    def of(cls, name: str, sides: Iterable[Mapping[str, Any]], view_url: str | None = None,
           date: str | None = None, next_deal: str | None = None) -> GameInfo:
        """From a game's stored sides: ``[{"name": ..., "players": [...]}]``."""
        return cls(name, tuple((s["name"], tuple(s.get("players") or ())) for s in sides), view_url, date,
                   next_deal)

    @property
    def players(self) -> list[tuple[str, str]]:
        """(player, side) for every player, side by side."""
        return [(player, side) for side, players in self.sides for player in players]


def printed_date(when: datetime | None = None) -> str:
    """A date in words that reads the same everywhere: ``1 June 2025``."""
    when = when or datetime.now()
    return f"{when.day} {when:%B %Y}"


# -- fonts -----------------------------------------------------------------------------------------

# A condensed sans with wide coverage where the system has one (Debian: fonts-dejavu-core),
# else Bitstream Vera, which ships inside reportlab itself.
FONT_DIRS: list[Path] = [Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/dejavu"),
                         Path("/usr/share/fonts/TTF"), Path("/usr/local/share/fonts"),
                         Path("/Library/Fonts"), Path.home() / ".fonts"]
_FAMILIES = (
    ("SPDejaVuCond", ("DejaVuSansCondensed.ttf", "DejaVuSansCondensed-Bold.ttf",
                      "DejaVuSansCondensed-Oblique.ttf", "DejaVuSansCondensed-BoldOblique.ttf")),
)
_VERA = ("Vera.ttf", "VeraBd.ttf", "VeraIt.ttf", "VeraBI.ttf")


@dataclass(frozen=True)
class Fonts:
    regular: str
    bold: str
    italic: str
    arrow: str   # "→" where the font has it, else "->"
    times: str   # "×" (every candidate font has it)


@cache
def load_fonts() -> Fonts:
    """Register the fonts once per process and name them."""
    import reportlab
    found: tuple[str, list[Path]] | None = None
    for family, files in _FAMILIES:
        for folder in FONT_DIRS:
            paths = [folder / name for name in files]
            if all(p.is_file() for p in paths):
                found = (family, paths)
                break
        if found:
            break
    if found is None:
        folder = Path(reportlab.__file__).resolve().parent / "fonts"
        found = ("SPVera", [folder / name for name in _VERA])
    family, paths = found
    names = [f"{family}{suffix}" for suffix in ("", "-Bold", "-Italic", "-BoldItalic")]
    for name, path in zip(names, paths, strict=True):
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, str(path)))
    pdfmetrics.registerFontFamily(family, normal=names[0], bold=names[1], italic=names[2],
                                  boldItalic=names[3])
    glyphs = cast(TTFont, pdfmetrics.getFont(names[0])).face.charToGlyph  # registered above as a TTFont
    return Fonts(names[0], names[1], names[2], "→" if ord("→") in glyphs else "->", "×")


# -- text ------------------------------------------------------------------------------------------


def esc(text: Any) -> str:
    """User or sheet text made safe for a Paragraph: markup characters escaped, control
    characters dropped, so ``<script>`` prints as those eight characters."""
    text = str(text)
    if not text.isprintable():  # printable text holds no control character: most text, kept as it is
        text = "".join(ch for ch in text if unicodedata.category(ch) != "Cc" or ch == " ")
    return escape(text, {'"': "&quot;"})


def _num(n: int) -> str:
    return f"{n:,}"


def _signed(n: int) -> str:
    return f"{n:,}" if n >= 0 else f"-{-n:,}"


def _styles(fonts: Fonts, size: float, spacing: float = 1.2) -> dict[str, ParagraphStyle]:
    lead = round(size * spacing, 2)
    base = ParagraphStyle("base", fontName=fonts.regular, fontSize=size, leading=lead, textColor=BLACK,
                          splitLongWords=True)
    return {
        "base": base,
        "option": ParagraphStyle("option", parent=base, leftIndent=size * 0.9, firstLineIndent=-size * 0.9,
                                 spaceAfter=size * (spacing - 1) * 1.1),
        "group": ParagraphStyle("group", parent=base, fontName=fonts.bold, fontSize=size + 1.5,
                                leading=(size + 1.5) * spacing, spaceBefore=size * (spacing - 0.45),
                                spaceAfter=size * (spacing - 0.75)),
        "small": ParagraphStyle("small", parent=base, fontSize=max(MIN_SIZE, size - 1),
                                leading=max(MIN_SIZE, size - 1) * 1.2),
        "title": ParagraphStyle("title", parent=base, fontName=fonts.bold, fontSize=size + 7,
                                leading=(size + 7) * 1.15),
        "h2": ParagraphStyle("h2", parent=base, fontName=fonts.bold, fontSize=size + 3,
                             leading=(size + 3) * 1.2, spaceBefore=size, spaceAfter=size * 0.4),
        "cell": ParagraphStyle("cell", parent=base, leading=size * 1.15),
        "cellbold": ParagraphStyle("cellbold", parent=base, fontName=fonts.bold, leading=size * 1.15),
    }


class _Heading(Paragraph):
    """A group heading: bold, with a rule under it, kept with what follows."""

    keep_with_next = True

    def draw(self) -> None:
        super().draw()
        self.canv.setLineWidth(0.7)
        self.canv.setStrokeColor(BLACK)
        self.canv.line(0, -1.8, self.width, -1.8)


# -- the house-rule sheet ----------------------------------------------------------------------------


def _unused(sheet: RuleSheet, name: str) -> bool:
    """True when another option makes this one irrelevant (it is still printed)."""
    return ((name == "opening_bands" and sheet.opening_by is OpeningBy.DEAL)
            or (name == "opening_minimums" and sheet.opening_by is OpeningBy.RUNNING_TOTAL)
            or (name == "target_score" and sheet.game_length is GameLength.DEALS)
            or (name == "deals" and sheet.game_length is GameLength.TARGET)
            or (name == "pile_cards" and sheet.pile_take in (PileTake.WHOLE, PileTake.NEVER)))


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 1].rstrip(" ,;") + "…"


def _value_table(sheet: RuleSheet, fonts: Fonts, size: float, width: float) -> Table:
    """The card values, as many cards to a row as fit (seven for the usual values); a value
    the table changed carries a ``*``."""
    base = sheet.base()
    names = {Card.JOKER: "JK", Card.BLACK_THREE: "3B"}
    values = [_num(sheet.value(card)) + ("*" if base and base.value(card) != sheet.value(card) else "")
              for card in VALUE_ORDER]
    widest = max(pdfmetrics.stringWidth(v, fonts.regular, size) for v in values) + 4
    per_row = max(2, min(7, int(width // widest)))
    per_row = -(-len(VALUE_ORDER) // -(-len(VALUE_ORDER) // per_row))  # rows as even as they can be
    cells: list[list[str]] = []
    style: list[tuple] = [
        ("FONT", (0, 0), (-1, -1), fonts.regular, size),
        ("ALIGN", (0, 0), (-1, -1), "CENTER"),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("GRID", (0, 0), (-1, -1), 0.5, BLACK),
        ("TOPPADDING", (0, 0), (-1, -1), 0),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
        ("LEFTPADDING", (0, 0), (-1, -1), 1),
        ("RIGHTPADDING", (0, 0), (-1, -1), 1),
    ]
    for start in range(0, len(VALUE_ORDER), per_row):
        cards = VALUE_ORDER[start:start + per_row]
        pad = [""] * (per_row - len(cards))
        style.append(("FONT", (0, len(cells)), (-1, len(cells)), fonts.bold, size))
        cells.append([names.get(card, card.value) for card in cards] + pad)
        cells.append(values[start:start + per_row] + pad)
    table = Table(cells, colWidths=[width / per_row] * per_row, rowHeights=[size * 1.45] * len(cells),
                  hAlign="LEFT")
    table.setStyle(TableStyle(style))
    table.spaceBefore = size * 0.2
    table.spaceAfter = size * 0.5
    return table


@dataclass(frozen=True)
class _Fit:
    """How hard the sheet is squeezed onto its page."""

    columns: int = 3
    short_changes: bool = False  # no separate list of changes: each is marked in place with the preset's value
    tight: bool = False          # less space between lines and groups
    clip: int | None = None      # cut option values longer than this (only for sheets no table plays)


# Each way of setting the sheet, from the most generous to the most squeezed: the text
# shrinks from 11 pt to 7 pt, then four columns, then the changes marked in place only,
# then tighter lines, and last (for sheets no table plays) clipped values.
_LADDER: tuple[tuple[_Fit, float], ...] = (
    *((_Fit(3), size) for size in SHEET_SIZES),
    (_Fit(4), MIN_SIZE), (_Fit(4, True), MIN_SIZE), (_Fit(4, True, True), MIN_SIZE),
    *((_Fit(4, True, True, clip), MIN_SIZE) for clip in (400, 160, 80, 40)),
)
_FIRST_PROBE = SHEET_SIZES.index(10.5)


def _sheet_items(sheet: RuleSheet, fonts: Fonts, size: float, width: float, fit: _Fit) -> list[Flowable]:
    """The flowing part of the sheet: what changed, then every option by group."""
    st = _styles(fonts, size, 1.1 if fit.tight else 1.2)
    preset = PRESETS.get(sheet.preset) if sheet.preset else None
    changes = {c.option: c for c in sheet.changes()}
    items: list[Flowable] = []
    if changes and not fit.short_changes:
        items.append(_Heading(f"Changed from the preset ({len(changes)})", st["group"]))
        for c in changes.values():
            items.append(Paragraph(
                f"<b>* {esc(c.label)}</b>: {esc(_clip(c.preset_value, 60))} {fonts.arrow} "
                f"<b>{esc(_clip(c.value, 80))}</b>", st["option"]))
    for _group, title, options in options_by_group():
        items.append(_Heading(esc(title), st["group"]))
        for option in options:
            words = sheet.describe(option.name)
            if fit.clip:
                words = _clip(words, fit.clip)
            text = f"<b>{esc(option.label)}</b>: {esc(words)}"
            change = changes.get(option.name)
            if change is not None:
                text = f"<b>*</b> {text} <b>CHANGED</b>"
                if fit.short_changes:
                    text += f" <i>(preset: {esc(_clip(change.preset_value, 40))})</i>"
            elif preset and option.name in preset.not_stated:
                text += f" <i>({esc(preset.not_stated[option.name])})</i>"
            if _unused(sheet, option.name):
                text += " <i>(not used)</i>"
            items.append(Paragraph(text, st["option"]))
            if option.name == "card_values":
                items.append(_value_table(sheet, fonts, size, width))
                items.append(Paragraph("JK: joker. 3B: black three, which counts against when left in a hand."
                                       + (" *: changed by this table." if "card_values" in changes else ""),
                                       st["option"]))
    return items


def _layout(items: list[Flowable], columns: Sequence[tuple[float, float, float, float]]
            ) -> tuple[list[tuple[Flowable, float, float]] | None, float]:
    """Where each of ``items`` goes down ``columns`` (x, bottom, width, top), as
    (flowable, x, y), and the share of the columns' height used; None for the places when
    they do not all fit. Nothing is drawn.

    A paragraph too long for what is left of a column splits into the next one; a heading
    moves on with its first lines. Each placed flowable was last wrapped at its column's
    width, so it draws as measured.
    """
    queue = list(items)
    placed: list[tuple[Flowable, float, float]] = []
    used = capacity = 0.0
    for x, bottom, width, top in columns:
        capacity += top - bottom
        if queue:
            used += _fill_column(queue, placed, x, bottom, width, top)
    return (None if queue else placed), used / capacity if capacity else 1.0


def _fill_column(queue: list[Flowable], placed: list[tuple[Flowable, float, float]], x: float, bottom: float,
                 width: float, top: float) -> float:
    """Place what fits of ``queue`` in one column; returns the height used (all of it when
    something had to move on to the next column)."""
    y, at_top = top, True
    while queue:
        item = queue[0]
        before = 0.0 if at_top else item.getSpaceBefore()
        avail = y - before - bottom
        if avail <= 0:
            break
        keep = getattr(item, "keep_with_next", False) and len(queue) > 1
        need = 0.0
        if keep:
            follower = queue[1]
            _fw, fh = follower.wrap(width, avail)
            leading = getattr(getattr(follower, "style", None), "leading", fh)
            need = item.getSpaceAfter() + follower.getSpaceBefore() + min(fh, 2 * leading)
        _w, h = item.wrap(width, avail)
        if h + need <= avail + 0.01:
            placed.append((item, x, y - before - h))
            y -= before + h + item.getSpaceAfter()
            at_top = False
            queue.pop(0)
            continue
        if not keep:
            parts = item.split(width, avail)
            if len(parts) >= 2:
                _w, h0 = parts[0].wrap(width, avail)
                if h0 <= avail + 0.01:
                    placed.append((parts[0], x, y - before - h0))
                    queue[0:1] = parts[1:]
        return top - bottom
    return top - y


def _qr_rects(url: str, x: float, y: float, size: float) -> list[tuple[float, float, float, float]]:
    """The QR code of ``url`` as black rectangles (x, y, width, height), one per run of
    dark modules in a row, its bottom-left corner at (x, y)."""
    matrix = segno.make(url, error="m").matrix
    n = len(matrix)
    cell = size / n
    rects = []
    for r, row in enumerate(matrix):
        c = 0
        while c < n:
            if row[c]:
                start = c
                while c < n and row[c]:
                    c += 1
                rects.append((x + start * cell, y + size - (r + 1) * cell, (c - start) * cell + 0.05, cell + 0.05))
            else:
                c += 1
    return rects


def _draw_qr(canv: Canvas, url: str, x: float, y: float, size: float) -> None:
    """The QR code of ``url`` in black squares, its bottom-left corner at (x, y)."""
    path = canv.beginPath()
    for rect in _qr_rects(url, x, y, size):
        path.rect(*rect)
    canv.setFillColor(BLACK)
    canv.drawPath(path, stroke=0, fill=1)


def _signatures(canv: Canvas, fonts: Fonts, sheet: RuleSheet, game: GameInfo | None, x: float, y: float,
                width: float, size: float) -> float:
    """Lines to sign, with the players' names under them and the date; returns the height used."""
    if game is not None:
        slots = [(player if side == player else f"{player} ({side})") for player, side in game.players]
    else:
        slots = ["Player" for _ in range(min(sheet.max_players, 8))]
    slots.append("Date")
    per_row = 5 if len(slots) > 8 else 4 if len(slots) > 3 else len(slots)
    rows = [slots[i:i + per_row] for i in range(0, len(slots), per_row)]
    gap = 14.0
    slot_w = (width - gap * (per_row - 1)) / per_row
    row_h = 30.0
    label = max(MIN_SIZE, size - 0.5)
    canv.setFont(fonts.bold, size)
    canv.drawString(x, y - size, "We agree to play by these rules:")
    top = y - size * 1.6
    canv.setLineWidth(0.6)
    canv.setStrokeColor(BLACK)
    canv.setFillColor(BLACK)
    for r, row in enumerate(rows):
        line_y = top - (r + 1) * row_h + label * 1.6
        for i, name in enumerate(row):
            sx = x + i * (slot_w + gap)
            canv.line(sx, line_y, sx + slot_w, line_y)
            canv.setFont(fonts.regular, label)
            text = name
            while pdfmetrics.stringWidth(text, fonts.regular, label) > slot_w and len(text) > 2:
                text = text[:-2] + "…"
            canv.drawString(sx, line_y - label * 1.15, text)
            if name == "Date" and game is not None and game.date:
                canv.setFont(fonts.regular, size + 1)
                canv.drawString(sx + 2, line_y + 3, game.date)
    return size * 1.6 + len(rows) * row_h


def _signature_height(sheet: RuleSheet, game: GameInfo | None, size: float) -> float:
    slots = (len(game.players) if game is not None else min(sheet.max_players, 8)) + 1
    per_row = 5 if slots > 8 else 4 if slots > 3 else slots
    return size * 1.6 + -(-slots // per_row) * 30.0


class _SheetPage:
    """The house-rule sheet laid out at one text size and squeeze; ``fits`` says whether
    everything went on the page, :meth:`render` draws it."""

    def __init__(self, sheet: RuleSheet, game: GameInfo | None, paper: tuple[float, float], size: float,
                 fit: _Fit, link_later: bool = False) -> None:
        self.sheet, self.game, self.paper, self.size, self.fit = sheet, game, paper, size, fit
        self.fonts = fonts = load_fonts()
        st = _styles(fonts, size)
        width, height = paper
        preset = PRESETS.get(sheet.preset) if sheet.preset else None
        self.title = (f"{game.name}: house rules" if game is not None
                      else f"House rules: {preset.title}" if preset else "House rules")

        # Header: title, preset and source, the sides; the QR code of the view link at the right.
        self.qr = 74.0 if game is not None and (game.view_url or link_later) else 0.0
        self.slot = LinkSlot(self.fonts, size, "") if game is not None and link_later else None
        text_w = width - 2 * MARGIN - (self.qr + 12 if self.qr else 0)
        top = height - MARGIN
        lines: list[Flowable] = [Paragraph(esc(self.title), st["title"])]  # and the LinkSlot
        changes = len(sheet.changes())
        if preset:
            about = f"<b>Preset:</b> {esc(preset.title)}. <b>Source:</b> {esc(preset.source)}. "
            about += (f"<b>{changes} option{'s' if changes != 1 else ''} changed by this table, marked * CHANGED.</b>"
                      if changes else "No option changed by this table.")
            if preset.not_stated:
                about += " <i>(In brackets and italics: where the source says nothing, what the preset chose.)</i>"
            lines.append(Paragraph(about, st["base"]))
        else:
            lines.append(Paragraph("<b>Preset:</b> none; every option was set by the table.", st["base"]))
        if game is not None:
            sides = "; ".join(f"<b>{esc(name)}</b>" + (f" ({esc(', '.join(players))})"
                                                       if players and list(players) != [name] else "")
                              for name, players in game.sides)
            lines.append(Paragraph(f"<b>Sides:</b> {sides}", st["base"]))
            if self.slot is not None:  # the link on a line of its own, written in later
                lines += [Paragraph("<b>Follow the score</b> (scan the code or type the link):", st["base"]),
                          self.slot]
            elif game.view_url:
                lines.append(Paragraph(f"<b>Follow the score</b> (scan the code or type the link): "
                                       f"{esc(game.view_url)}", st["base"]))
        self.header: list[tuple[Flowable, float, float]] = []
        y = top
        for para in lines:
            _w, h = para.wrap(text_w, y - MARGIN)
            self.header.append((para, MARGIN, y - h))
            y -= h + size * 0.25
        if self.qr:
            y = min(y, top - self.qr - 4)
        self.rule_y = y - 2
        body_top = self.rule_y - size * 0.6

        # Footer: the lines to sign, across the page; the options flow in columns between.
        self.foot_h = _signature_height(sheet, game, size)
        self.body_bottom = MARGIN + self.foot_h + size * 1.2
        gutter = 12.0 if fit.columns == 3 else 9.0
        col_w = (width - 2 * MARGIN - gutter * (fit.columns - 1)) / fit.columns
        frames = [(MARGIN + i * (col_w + gutter), self.body_bottom, col_w, body_top) for i in range(fit.columns)]
        self.body, self.fill = _layout(_sheet_items(sheet, fonts, size, col_w, fit), frames)

    @property
    def fits(self) -> bool:
        return self.body is not None

    def render(self) -> bytes:
        width, height = self.paper
        buf = io.BytesIO()
        canv = Canvas(buf, pagesize=self.paper, invariant=True, pageCompression=1)
        canv.setTitle(self.title)
        canv.setAuthor("scorepad")
        canv.setSubject("The rule sheet this table agreed, every option in plain words")
        for flowable, x, y in self.header + (self.body or []):
            flowable.drawOn(canv, x, y)
        if self.qr and self.slot is None:
            _draw_qr(canv, self.game.view_url, width - MARGIN - self.qr,  # type: ignore[union-attr, arg-type]
                     height - MARGIN - self.qr, self.qr)
        canv.setLineWidth(1.2)
        canv.setStrokeColor(BLACK)
        canv.line(MARGIN, self.rule_y, width - MARGIN, self.rule_y)
        canv.line(MARGIN, self.body_bottom - self.size * 0.6, width - MARGIN, self.body_bottom - self.size * 0.6)
        _signatures(canv, self.fonts, self.sheet, self.game, MARGIN, MARGIN + self.foot_h, width - 2 * MARGIN,
                    self.size)
        canv.showPage()
        canv.save()
        return buf.getvalue()


def house_rules(sheet: RuleSheet, paper: str = "letter", game: GameInfo | None = None) -> bytes:
    """The house-rule sheet on exactly one page.

    The body text is as large as fits, from 11 pt down to 7 pt in half points, in three
    columns; at 7 pt it tries four columns, then marks the changed options in place only
    (with the preset's value) instead of listing them first, then tightens the lines. Only
    a sheet no table could play (fifty-deal lists, twenty opening bands) has its longest
    values cut short, ending in "…".
    """
    return _fit_house_rules(sheet, paper, game).render()


def printed_house_rules(sheet: RuleSheet, paper: str, game: GameInfo) -> Printed:
    """The game's house-rule sheet with room for its link and the link's QR code, both
    written in per reader by :meth:`Printed.with_link` (``game.view_url`` is not used)."""
    page = _fit_house_rules(sheet, paper, game, link_later=True)
    body = page.render()
    width, height = page.paper
    qr = (1, width - MARGIN - page.qr, height - MARGIN - page.qr, page.qr)
    return Printed(body, page.slot.place if page.slot is not None else None, page.size, qr)


def _fit_house_rules(sheet: RuleSheet, paper: str, game: GameInfo | None, link_later: bool = False) -> _SheetPage:
    """The most generous layout that fits: a binary search down :data:`_LADDER`, starting
    at 10.5 pt, so a usual sheet takes two layouts (and one drawing)."""
    size = page_size(paper)
    lo, hi, probe = 0, len(_LADDER) - 1, _FIRST_PROBE
    best: _SheetPage | None = None
    while lo <= hi:
        fit, text_size = _LADDER[probe]
        # Text takes room as the square of its size: a larger size that cannot fit by that
        # measure is not laid out at all.
        hopeless = (best is not None and fit == best.fit
                    and best.fill * (text_size / best.size) ** 2 > 1.0)
        page = None if hopeless else _SheetPage(sheet, game, size, text_size, fit, link_later)
        if page is not None and page.fits:
            best, hi = page, probe - 1
        else:
            lo = probe + 1
        probe = (lo + hi) // 2
    if best is None:  # pragma: no cover: values clipped to 40 characters always fit
        raise ValueError("this sheet does not fit on one page")
    return best


def pad_lines(sheet: RuleSheet, deal: int) -> list[tuple[str, bool]]:
    """The lines a side scores on this sheet in this deal: (label, has a count column), read
    from the rules' one table of score lines (:func:`scorepad.rules.lines.pad_lines`).

    >>> from scorepad.rules import preset
    >>> [label for label, _ in pad_lines(preset("common"), 1)][:3]
    ['Melded card points', 'Clean books × 500', 'Dirty books × 300']
    """
    from ..rules.lines import pad_lines as score_pad_lines  # here, so the move to paper/pad.py takes one function
    return list(score_pad_lines(sheet, deal))


def deal_conditions(sheet: RuleSheet, deal: int) -> str:
    """The deal's opening minimum and going-out requirement, in words (plain text).

    >>> from scorepad.rules import preset
    >>> deal_conditions(preset("pagat"), 2)
    'Opening minimum 90 (the side, once). To go out: 2 clean + 2 dirty + 1 wild books. Going out +100.'
    """
    who = sheet.describe("opening_who")
    if sheet.opening_by is OpeningBy.DEAL:
        opening = f"Opening minimum {sheet.opening_minimum(deal)} ({who})"
    else:
        opening = f"Opening minimum by the side's total before the deal ({who}): {sheet.describe('opening_bands')}"
    bonus = _num(sheet.going_out_bonus_at(deal))
    out = f"{opening}. To go out: {sheet.going_out_books(deal)} books. Going out +{bonus}."
    extras = []
    if not sheet.draws_per_turn.single:
        extras.append(f"draw {sheet.draws_per_turn.at(deal)}")
    if not sheet.pile_cards.single and sheet.pile_take in (PileTake.TOP, PileTake.TOP_IF_FULL):
        extras.append(f"the pile: top {sheet.pile_cards.at(deal)}")
    if extras:
        out += " This deal: " + ", ".join(extras) + "."
    return out


def _changed_count(sheet: RuleSheet) -> str:
    n = len(sheet.changes())
    return f", {n} option{'s' if n != 1 else ''} changed" if n else ""


def _pad_deals(sheet: RuleSheet) -> list[int]:
    last = sheet.last_deal()
    return list(range(1, (last if last is not None else TARGET_PAD_DEALS) + 1))


def _doc(buf: io.BytesIO, paper: tuple[float, float], title: str, subject: str) -> SimpleDocTemplate:
    return SimpleDocTemplate(buf, pagesize=paper, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN,
                             bottomMargin=MARGIN + 10, title=title, author="scorepad", subject=subject,
                             invariant=True, pageCompression=1)


def _page_footer(fonts: Fonts, text: str):
    def draw(canv: Canvas, doc: Any) -> None:
        canv.saveState()
        canv.setFont(fonts.regular, MIN_SIZE)
        canv.setFillColor(BLACK)
        canv.drawString(MARGIN, MARGIN - 2, text)
        canv.drawRightString(doc.pagesize[0] - MARGIN, MARGIN - 2, f"page {doc.page}")
        canv.restoreState()
    return draw


def score_pad(sheet: RuleSheet, paper: str = "letter", game: GameInfo | None = None,
              sides: int | None = None) -> bytes:
    """A blank score pad for this sheet: one block per deal, one column per side.

    For a game the columns carry its side names; otherwise ``sides`` blank headers
    (default: two sides for a partnership sheet, up to four for individuals).
    """
    size = page_size(paper)
    fonts = load_fonts()
    if game is not None:
        columns = [(name, ", ".join(p for p in players if p != name)) for name, players in game.sides]
    else:
        count = sides or _default_sides(sheet)
        columns = [(f"Side {i}", "") for i in range(1, count + 1)]
    if len(columns) > 4:
        size = landscape(size)
    st = _styles(fonts, 9)
    preset = PRESETS.get(sheet.preset) if sheet.preset else None
    name = game.name if game is not None else (preset.title if preset else "House rules")
    buf = io.BytesIO()
    doc = _doc(buf, size, f"{name}: score pad", "A blank score pad for keeping score with a pen")
    story: list[Flowable] = [Paragraph(f"{esc(name)}: score pad", st["title"])]
    intro = []
    if preset:
        intro.append(f"<b>Sheet:</b> {esc(preset.title)}" + _changed_count(sheet))
    intro.append(f"<b>Card values:</b> {esc(sheet.describe('card_values'))}")
    if sheet.game_length is GameLength.TARGET:
        intro.append(f"<b>Play to {_num(sheet.target_score)}</b>: the game ends after the deal in which a side "
                     f"reaches it; {len(_pad_deals(sheet))} deals here, carry the total to a new pad if needed")
    else:
        intro.append(f"<b>{sheet.deals} deals.</b> The highest total wins")
    if sheet.special_books:
        intro.append("A clean book of a special rank scores its own bonus, not the clean-book bonus")
    intro.append("For each line, write how many in <b>no.</b> and the points in <b>points</b>; "
                 "take the cards left off")
    if game is not None and game.next_deal:
        intro.append(esc(game.next_deal.rstrip(".")))
    story.append(Paragraph(". ".join(intro) + ".", st["base"]))
    story.append(Spacer(1, 6))
    avail = size[0] - 2 * MARGIN
    label_w = min(190.0, max(140.0, avail * 0.3))
    side_w = (avail - label_w) / len(columns)
    count_w = max(20.0, side_w * 0.3)
    widths = [label_w] + [count_w, side_w - count_w] * len(columns)
    for number in _pad_deals(sheet):
        story.append(KeepTogether([_pad_block(sheet, number, columns, widths, fonts, st), Spacer(1, 8)]))
    doc.build(story, onFirstPage=_page_footer(fonts, f"scorepad: {name}"),
              onLaterPages=_page_footer(fonts, f"scorepad: {name}"))
    return buf.getvalue()


def _default_sides(sheet: RuleSheet) -> int:
    most = max(sheet.max_players // size for size in sheet.side_sizes)
    return 2 if sheet.side_sizes == (2,) or most <= 2 else min(4, most)


def _pad_block(sheet: RuleSheet, number: int, columns: list[tuple[str, str]], widths: list[float],
               fonts: Fonts, st: dict[str, ParagraphStyle]) -> Table:
    n = len(columns)
    head: list[Any] = [Paragraph(f"<b>Deal {number}</b>", st["h2"])]
    for side, players in columns:
        text = f"<b>{esc(side)}</b>" + (f"<br/>{esc(players)}" if players else "")
        head += [Paragraph(text, st["cell"]), ""]
    cond: list[Any] = [Paragraph(esc(deal_conditions(sheet, number)), st["cell"])] + [""] * (2 * n)
    sub: list[Any] = [""] + ["no.", "points"] * n
    rows = [head, cond, sub]
    style: list[tuple] = [
        ("FONT", (0, 0), (-1, -1), fonts.regular, 9),
        ("FONT", (1, 2), (-1, 2), fonts.italic, MIN_SIZE),
        ("SPAN", (0, 1), (-1, 1)),
        ("GRID", (0, 0), (-1, -1), 0.5, BLACK),
        ("BOX", (0, 0), (-1, -1), 1.4, BLACK),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("ALIGN", (1, 2), (-1, 2), "CENTER"),
        ("TOPPADDING", (0, 0), (-1, -1), 2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
    ]
    for i in range(n):
        style.append(("SPAN", (1 + 2 * i, 0), (2 + 2 * i, 0)))
        style.append(("LINEBEFORE", (1 + 2 * i, 0), (1 + 2 * i, -1), 1.4, BLACK))
    for label, counted in pad_lines(sheet, number):
        r = len(rows)
        rows.append([Paragraph(esc(label), st["cell"])] + [""] * (2 * n))
        if not counted:
            for i in range(n):
                style.append(("SPAN", (1 + 2 * i, r), (2 + 2 * i, r)))
        else:
            for i in range(n):
                style.append(("LINEAFTER", (1 + 2 * i, r), (1 + 2 * i, r), 0.3, GREY))
    total_row = len(rows)
    rows.append(["Deal total"] + [""] * (2 * n))
    rows.append(["Running total"] + [""] * (2 * n))
    for r in (total_row, total_row + 1):
        for i in range(n):
            style.append(("SPAN", (1 + 2 * i, r), (2 + 2 * i, r)))
    style += [
        ("FONT", (0, total_row), (0, total_row + 1), fonts.bold, 9.5),
        ("LINEABOVE", (0, total_row), (-1, total_row), 1.4, BLACK),
        ("LINEABOVE", (0, total_row + 1), (-1, total_row + 1), 0.9, BLACK),
    ]
    heights: list[float | None] = [None, None, 11]
    for row in rows[3:]:
        label = row[0]
        needed = label.wrap(widths[0] - 12, 1000)[1] + 5 if isinstance(label, Paragraph) else 0
        heights.append(max(16.5, needed))
    table = Table(rows, colWidths=widths, rowHeights=heights, hAlign="LEFT")
    table.setStyle(TableStyle(style))
    return table


# -- results ------------------------------------------------------------------------------------------


def sheet_changes(before: Any, after: Any) -> list[tuple[str, str, str]]:
    """What an amendment changed: (label, old words, new words), option by option."""
    try:
        old, new = load_sheet(before), load_sheet(after)
    except Exception:  # a stored sheet that no longer reads: say nothing rather than fail
        return []
    out = [(option.label, old.describe(option.name), new.describe(option.name))
           for option in OPTION_BY_NAME.values() if getattr(old, option.name) != getattr(new, option.name)]
    if old.preset != new.preset:
        out.insert(0, ("Preset", str(old.preset), str(new.preset)))
    return out


def shown_problems(problems: Sequence[Any], most: int = MAX_PROBLEMS_SHOWN) -> str:
    """The first ``most`` problems' messages, then ``and N more``: what a deal's problems
    print as, so a deal with hundreds costs no more than one with five."""
    text = "; ".join(p.message for p in problems[:most])
    if len(problems) > most:
        text += f"; and {len(problems) - most:,} more"
    return text


# -- links written into a built PDF -------------------------------------------------------------


class LinkSlot(Flowable):
    """One line reading ``Online:`` (or ``label``), the rest left blank for the link; once drawn,
    ``place`` is where the link goes: (page, x, y of the baseline, width)."""

    def __init__(self, fonts: Fonts, size: float, label: str = "Online: ") -> None:
        super().__init__()
        self.fonts, self.size, self.label = fonts, size, label
        self.place: tuple[int, float, float, float] | None = None

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        self.width = avail_width
        return avail_width, self.size * 1.2

    def draw(self) -> None:
        label = self.label
        baseline = self.size * 0.3
        self.canv.setFont(self.fonts.bold, self.size)
        self.canv.setFillColor(BLACK)
        self.canv.drawString(0, baseline, label)
        shift = pdfmetrics.stringWidth(label, self.fonts.bold, self.size)
        x, y = self.canv.absolutePosition(shift, baseline)
        self.place = (self.canv.getPageNumber(), x, y, self.width - shift)


@dataclass(frozen=True)
class Printed:
    """A PDF built once, and where each reader's link is written into it (None: nowhere)."""

    body: bytes
    link_at: tuple[int, float, float, float] | None = None
    size: float = 8.5
    qr_at: tuple[int, float, float, float] | None = None  # page, x, y, size of the link's QR code

    def with_link(self, url: str | None) -> bytes:
        """The PDF with ``url`` on its link line, in Helvetica (every PDF reader has it),
        shrunk to fit the line down to 5 pt; the bytes before are the built PDF's."""
        if not url or self.link_at is None:
            return self.body
        page, x, y, width = self.link_at
        text = "".join(ch if " " <= ch <= "~" else "?" for ch in url)
        size = self.size
        while size > 5 and pdfmetrics.stringWidth(text, "Helvetica", size) > width:
            size -= 0.5
        literal = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        ops = f"q 0 g BT /SPLink {size:g} Tf {x:.2f} {y:.2f} Td ({literal}) Tj ET Q"
        if self.qr_at is not None and self.qr_at[0] == page:
            rects = _qr_rects(url, *self.qr_at[1:])
            ops += " q 0 g " + " ".join(f"{a:.3f} {b:.3f} {c:.3f} {d:.3f} re" for a, b, c, d in rects) + " f Q"
        return stamp(self.body, page, ops.encode("latin-1"))


_XREF = re.compile(rb"xref\s+(\d+) (\d+)\s+")


def _object(body: bytes, offsets: dict[int, int], number: int) -> bytes:
    start = body.index(b"obj", offsets[number]) + 3
    return body[start:body.index(b"endobj", start)].strip()


def stamp(body: bytes, page: int, ops: bytes) -> bytes:
    """``body``, a PDF as reportlab writes it (one cross-reference table), with the content
    stream ``ops`` drawn on page ``page`` (from 1) over what is there, Helvetica named
    ``/SPLink``: an incremental update appended to the file, which leaves the bytes before
    it as they were, so it costs the same whatever the PDF's size."""
    head = body.rindex(b"startxref")
    prev = int(body[head + 9:].split()[0])
    trailer = body[body.rindex(b"trailer", 0, head):head]
    found = _XREF.match(body, prev)
    if found is None:
        raise ValueError("not a PDF with a cross-reference table")
    first, count = int(found[1]), int(found[2])
    rows = body[found.end():found.end() + 20 * count]
    offsets = {first + i: int(rows[20 * i:20 * i + 10]) for i in range(count)}
    size = int(re.search(rb"/Size (\d+)", trailer)[1])  # type: ignore[index]
    root = int(re.search(rb"/Root (\d+) 0 R", trailer)[1])  # type: ignore[index]
    pages = _object(body, offsets, int(re.search(rb"/Pages (\d+) 0 R", _object(body, offsets, root))[1]))  # type: ignore[index]
    kids = re.findall(rb"(\d+) 0 R", re.search(rb"/Kids \[([^\]]*)\]", pages)[1])  # type: ignore[index]
    number = int(kids[page - 1])
    old = _object(body, offsets, number)
    contents = re.search(rb"/Contents (\d+ 0 R|\[[^\]]*\])", old)
    if contents is None:
        raise ValueError("the page has no contents to add to")
    stream, font = size, size + 1
    new_page = old[:contents.start()] + b"/Contents [ " + contents[1].strip(b"[] ") + b" %d 0 R ]" % stream \
        + old[contents.end():]
    # The page's fonts are one shared dictionary: the page gets its own, with ours added.
    fonts = re.search(rb"/Font (\d+) 0 R", new_page)
    if fonts is None:
        raise ValueError("the page names no font dictionary")
    shared = _object(body, offsets, int(fonts[1]))
    inner = shared[shared.index(b"<<") + 2:shared.rindex(b">>")]
    new_page = new_page[:fonts.start()] + b"/Font << " + inner.strip() + b" /SPLink %d 0 R >>" % font \
        + new_page[fonts.end():]
    out = io.BytesIO()
    out.write(body if body.endswith(b"\n") else body + b"\n")
    at: dict[int, int] = {}
    for obj, text in ((stream, b"<< /Length %d >>\nstream\n" % len(ops) + ops + b"\nendstream"),
                      (font, b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"),
                      (number, new_page)):
        at[obj] = out.tell()
        out.write(b"%d 0 obj\n" % obj + text + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 1\n0000000000 65535 f \n")
    out.write(b"%d 1\n%010d 00000 n \n" % (number, at[number]))
    out.write(b"%d 2\n%010d 00000 n \n%010d 00000 n \n" % (stream, at[stream], at[font]))
    kept = b"".join(m[0] + b" " for m in re.finditer(rb"/(?:Info|ID)\s*(?:\d+ 0 R|\[[^\]]*\])", trailer))
    out.write(b"trailer\n<< /Size %d /Root %d 0 R %s/Prev %d >>\nstartxref\n%d\n%%%%EOF\n"
              % (font + 1, root, kept, prev, xref))
    return out.getvalue()


def results(record: Any, amendments: Sequence[Mapping[str, Any]] = (), paper: str = "letter",
            view_url: str | None = None) -> bytes:
    """A game's results (see :func:`printed_results`), with ``view_url`` as its link."""
    return printed_results(record, amendments, paper, link=view_url is not None).with_link(view_url)


def printed_results(record: Any, amendments: Sequence[Mapping[str, Any]] = (), paper: str = "letter",  # noqa: C901 (a whole document's layout; issue 9 splits pdf.py into paper/)
                    link: bool = True) -> Printed:
    """A game's results: standings, running totals, every deal line by line, deals saved
    "as played" and the sheet's amendments; with ``link``, a line for the game's link,
    written in per reader by :meth:`Printed.with_link`.

    ``record`` is a :class:`scorepad.storage.store.GameRecord` (name, sheet, sides, deals, game);
    ``amendments`` are its history entries whose action is ``amend``.
    """
    size = page_size(paper)
    fonts = load_fonts()
    st = _styles(fonts, 8.5)
    game = record.game
    sheet: RuleSheet = record.sheet
    sides = list(record.side_names)
    result = game.result()
    running = game.running_totals()
    preset = PRESETS.get(sheet.preset) if sheet.preset else None
    buf = io.BytesIO()
    doc = _doc(buf, size, f"{record.name}: results", "A game's scores, deal by deal")
    story: list[Flowable] = [Paragraph(f"{esc(record.name)}: results", st["title"]), Spacer(1, 3)]

    if result.over and result.tie:
        tied = [s.name for s in result.standings if s.total == result.standings[0].total]
        verdict = f"A tie at {_signed(result.standings[0].total)} between {', '.join(tied)}."
    elif result.over:
        verdict = f"{result.winner} wins with {_signed(result.standings[0].total)}."
    else:
        last = sheet.last_deal()
        played = len(record.deals)
        verdict = (f"Game in progress: {played} deal{'s' if played != 1 else ''} recorded"
                   + (f" of {last}." if last else f", playing to {_num(sheet.target_score)}."))
    story.append(Paragraph(f"<b>{esc(verdict)}</b>", st["h2"]))
    upcoming = game.upcoming()
    if upcoming is not None:
        story.append(Paragraph(esc(upcoming.words()), st["base"]))
    sheet_name = esc(preset.title) if preset else "the table's own"
    about = [f"<b>Sheet:</b> {sheet_name}"
             + _changed_count(sheet)
             + " (every deal scored under the game's sheet as it stands now)"]
    about.append("<b>Sides:</b> " + "; ".join(
        f"{esc(s['name'])}" + (f" ({esc(', '.join(s['players']))})" if s.get("players") and s["players"] != [s["name"]]
                               else "") for s in record.sides))
    about.append(f"<b>Started:</b> {esc(str(record.created_at)[:10])}; <b>last change:</b> "
                 f"{esc(str(record.updated_at)[:10])}")
    for line in about:
        story.append(Paragraph(line, st["base"]))
    slot = LinkSlot(fonts, 8.5) if link else None
    if slot is not None:
        story.append(slot)
    story.append(Spacer(1, 6))

    # Standings and running totals: a row per deal, a column pair (deal, total) per side.
    cell = st["cell"]
    bold = st["cellbold"]
    head = [Paragraph("<b>Deal</b>", cell)] + [Paragraph(f"<b>{esc(s)}</b>", cell) for s in sides]
    rows: list[list[Any]] = [head]
    for record_deal, totals in zip(record.deals, running, strict=True):
        deal_totals = record_deal.verdict.breakdown.totals()
        mark = " (as played)" if record_deal.as_played else ""
        rows.append([f"Deal {record_deal.number}{mark}"]
                    + [f"{_signed(deal_totals.get(s, 0))}  →  {_signed(totals.get(s, 0))}".replace("→", fonts.arrow)
                       for s in sides])
    final = dict((s.name, s.total) for s in result.standings)
    winner_mark = {result.winner: " (winner)"} if result.winner else {}
    if result.tie:
        winner_mark = {s.name: " (tie)" for s in result.standings if s.total == result.standings[0].total}
    rows.append([Paragraph("<b>Total</b>", bold)]
                + [Paragraph(f"<b>{_signed(final.get(s, 0))}{esc(winner_mark.get(s, ''))}</b>", bold) for s in sides])
    avail = size[0] - 2 * MARGIN
    first = 110.0
    table = Table(rows, colWidths=[first] + [(avail - first) / max(1, len(sides))] * len(sides),
                  hAlign="LEFT", repeatRows=1)
    table.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, -1), fonts.regular, 8.5),
        ("GRID", (0, 0), (-1, -1), 0.5, BLACK),
        ("LINEBELOW", (0, 0), (-1, 0), 1.2, BLACK),
        ("LINEABOVE", (0, -1), (-1, -1), 1.2, BLACK),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("ALIGN", (1, 1), (-1, -1), "RIGHT"),
    ]))
    story.append(Paragraph("Running totals (each deal's score " + fonts.arrow + " the total after it)", st["h2"]))
    story.append(table)

    # Deals saved as played.
    story.append(Paragraph("Deals saved as played", st["h2"]))
    kept = [d for d in record.deals if d.as_played]
    if not kept:
        story.append(Paragraph("None: every deal met the sheet.", st["base"]))
    # The referee's problems follow on lines of their own, in one plain style: reportlab
    # wraps a paragraph of one style many times faster than one that mixes bold and italic.
    lead_in = ParagraphStyle("as-played", parent=st["option"], spaceAfter=0, keepWithNext=1)
    found = ParagraphStyle("found", parent=st["option"], firstLineIndent=0)
    for d in kept:
        problems = shown_problems(d.verdict.report.violations)
        if not problems:
            story.append(Paragraph(f"<b>Deal {d.number}</b>: {esc(d.as_played)}", st["option"]))
            continue
        story.append(Paragraph(f"<b>Deal {d.number}</b>: {esc(d.as_played)}. <i>The referee found:</i>", lead_in))
        story.append(Paragraph(esc(problems), found))

    # Amendments of the sheet.
    story.append(Paragraph("Sheet amendments", st["h2"]))
    if not amendments:
        story.append(Paragraph("None: the game kept the sheet it started with.", st["base"]))
    for entry in amendments:
        changes = sheet_changes(entry.get("before"), entry.get("after"))
        words = "; ".join(f"{label}: {old} {fonts.arrow} {new}" for label, old, new in changes) or "no option changed"
        story.append(Paragraph(f"<b>{esc(str(entry.get('at', ''))[:10])}</b>: {esc(entry.get('reason') or '')}. "
                               f"<i>Changed:</i> {esc(words)}", st["option"]))

    # Every deal, line by line, sides side by side (two to a row).
    for d, totals in zip(record.deals, running, strict=True):
        deal = d.deal
        how = (f"{deal.went_out} went out" if deal.ending.value == "went_out" and deal.went_out
               else "the stock ran out")
        title = f"Deal {d.number}: {how}" + (" (saved as played)" if d.as_played else "")
        sides = d.verdict.breakdown.sides
        block: list[Flowable] = [Paragraph(esc(title), st["h2"])]
        block += [_SidePair(sides[i:i + 2], totals, fonts, avail) for i in range(0, len(sides), 2)]
        story.append(KeepTogether(block))
    footer = _page_footer(fonts, f"scorepad: {record.name}")
    doc.build(story, onFirstPage=footer, onLaterPages=footer)
    return Printed(buf.getvalue(), slot.place if slot is not None else None)


class _SidePair(Flowable):
    """Up to two sides' lines of a deal, side by side: label, count × each, = points; then
    the deal total and the running total. Drawn straight on the canvas, three strings a
    line and one path for the rules: a hundred deals of a dozen lines a side cost a
    fraction of a second, where a Table with a Paragraph a cell cost many."""

    LEAD = 10.5
    SIZE = 8.5
    GAP = 12.0

    def __init__(self, sides: Sequence[Any], running: Mapping[str, int], fonts: Fonts, width: float) -> None:
        super().__init__()
        self.fonts, self.box_w = fonts, (width - self.GAP) / 2
        self.boxes = [self._rows(side, running.get(side.name)) for side in sides]

    def _rows(self, side: Any, running: int | None) -> list[tuple[str, str, str, bool]]:
        label_w = self.box_w - 30 - 48 - 52 - 6
        rows = [(self._fit(line.label, self.fonts.regular, label_w), f"{_num(line.count)} × {_signed(line.each)}",
                 f"= {_signed(line.points)}", False) for line in side.lines]
        if not rows:
            rows.append(("nothing scored", "", "0", False))
        rows.append(("Deal total", "", _signed(side.total), True))
        if running is not None:
            rows.append(("Running total", "", _signed(running), True))
        return [(self._fit(side.name, self.fonts.bold, self.box_w - 6), "", "", True)] + rows

    @staticmethod
    def _fit(text: str, font: str, width: float) -> str:
        """``text`` without control characters, cut to ``width`` with "…" when longer."""
        if not text.isprintable():
            text = "".join(ch for ch in text if unicodedata.category(ch) != "Cc")
        if pdfmetrics.stringWidth(text, font, _SidePair.SIZE) <= width:
            return text
        while text and pdfmetrics.stringWidth(text + "…", font, _SidePair.SIZE) > width:
            text = text[:-1]
        return text + "…"

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        self.height = max(len(rows) for rows in self.boxes) * self.LEAD + 6
        return avail_width, self.height

    def draw(self) -> None:
        canv, fonts, lead, size = self.canv, self.fonts, self.LEAD, self.SIZE
        canv.saveState()
        canv.setFillColor(BLACK)
        width = pdfmetrics.stringWidth
        for i, rows in enumerate(self.boxes):
            x0, top = i * (self.box_w + self.GAP), self.height
            bottom = top - len(rows) * lead
            right, mid = x0 + self.box_w - 3, x0 + self.box_w - 3 - 52
            text = canv.beginText()  # one text object for the box: a drawString each costs many times more
            font = None
            for r, (label, amount, points, bold) in enumerate(rows):
                y = top - (r + 1) * lead + 3
                for x, string, face, align in (
                        (x0 + 3, label, fonts.bold if bold else fonts.italic if label == "nothing scored"
                         else fonts.regular, False),
                        (mid, amount, fonts.bold if bold else fonts.regular, True),
                        (right, points, fonts.bold if bold else fonts.regular, True)):
                    if not string:
                        continue
                    if face != font:
                        text.setFont(face, size)
                        font = face
                    text.setTextOrigin(x - width(string, face, size) if align else x, y)
                    text.textOut(string)
            canv.drawText(text)
            totals = len(rows) - sum(1 for row in rows[1:] if row[3])
            canv.setStrokeColor(GREY)
            canv.setLineWidth(0.3)
            canv.lines([(x0, top - r * lead, x0 + self.box_w, top - r * lead) for r in range(2, totals)])
            canv.setStrokeColor(BLACK)
            canv.setLineWidth(1.0)
            canv.lines([(x0, top - lead, x0 + self.box_w, top - lead),
                        (x0, top - totals * lead, x0 + self.box_w, top - totals * lead)])
            canv.setLineWidth(0.8)
            canv.rect(x0, bottom, self.box_w, top - bottom)
        canv.restoreState()


__all__ = ["GameInfo", "PAPERS", "Printed", "deal_conditions", "house_rules", "load_fonts", "page_size", "pad_lines",
           "printed_date", "printed_house_rules", "printed_results", "results", "score_pad", "sheet_changes",
           "shown_problems", "stamp"]
