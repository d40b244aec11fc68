"""The house-rule sheet, as PDF bytes, on exactly one page.

Every option that applies to the sheet in plain words (one that another option makes moot,
``RuleSheet.unused``, is left out), grouped as a player reads a sheet, the card values,
what the table changed against its preset (marked ``* CHANGED`` and listed ``preset value →
new value``), the table's house rules under the options (one line each), the preset's
title, source and the points its source leaves unsaid, lines for the players to sign, and
the game's view link as a QR code. The text shrinks step by step (never below 7 pt) until
it fits the page. A pure function of a rule sheet (and a game's
name and sides): :mod:`scorepad.web.paper` serves it.

>>> from scorepad.rules import preset
>>> house_rules(preset("pagat"))[:5]
b'%PDF-'
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Paragraph, Table, TableStyle

from ..rules import PRESETS
from ..rules.cards import Card
from ..rules.catalogue import options_by_group
from ..rules.sheet import RuleSheet
from .common import (
    BLACK,
    MARGIN,
    MIN_SIZE,
    Fonts,
    GameInfo,
    Heading,
    LinkSlot,
    Printed,
    TableCommand,
    esc,
    load_fonts,
    num,
    page_size,
    qr_rects,
    styles,
)

SHEET_SIZES = (11.0, 10.5, 10.0, 9.5, 9.0, 8.5, 8.0, 7.5, 7.0)  # body text of the house-rule sheet

# The order cards are listed in the value table: wild cards, naturals high to low, black three.
VALUE_ORDER = (Card.JOKER, Card.TWO, Card.ACE, Card.KING, Card.QUEEN, Card.JACK, Card.TEN, Card.NINE,
               Card.EIGHT, Card.SEVEN, Card.SIX, Card.FIVE, Card.FOUR, Card.BLACK_THREE)



# -- the house-rule sheet ----------------------------------------------------------------------------


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 1].rstrip(" ,;") + "…"


def _value_table(sheet: RuleSheet, fonts: Fonts, size: float, width: float) -> Table:
    """The card values, as many cards to a row as fit (seven for the usual values); a value
    the table changed carries a ``*``."""
    base = sheet.base()
    names = {Card.JOKER: "JK", Card.BLACK_THREE: "3B"}
    values = [num(sheet.value(card)) + ("*" if base and base.value(card) != sheet.value(card) else "")
              for card in VALUE_ORDER]
    widest = max(pdfmetrics.stringWidth(v, fonts.regular, size) for v in values) + 4
    per_row = max(2, min(7, int(width // widest)))
    per_row = -(-len(VALUE_ORDER) // -(-len(VALUE_ORDER) // per_row))  # rows as even as they can be
    cells: list[list[str]] = []
    style: list[TableCommand] = [
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
    st = styles(fonts, size, 1.1 if fit.tight else 1.2)
    preset = PRESETS.get(sheet.preset) if sheet.preset else None
    changes = {c.option: c for c in sheet.changes()}
    items: list[Flowable] = []
    if changes and not fit.short_changes:
        items.append(Heading(f"Changed from the preset ({len(changes)})", st["group"]))
        for c in changes.values():
            items.append(Paragraph(
                f"<b>* {esc(c.label)}</b>: {esc(_clip(c.preset_value, 60))} {fonts.arrow} "
                f"<b>{esc(_clip(c.value, 80))}</b>", st["option"]))
    for group, title, options in options_by_group():
        if group == "house":
            items += _house_rule_lines(sheet, title, "house_rules" in changes, st)
            continue
        items.append(Heading(esc(title), st["group"]))
        for option in options:
            if sheet.unused(option.name) and not (fit.short_changes and option.name in changes):
                continue  # another option makes it moot (a change to it is listed above)
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
            items.append(Paragraph(text, st["option"]))
            if option.name == "card_values":
                items.append(_value_table(sheet, fonts, size, width))
                items.append(Paragraph("JK: joker. 3B: black three, which counts against when left in a hand."
                                       + (" *: changed by this table." if "card_values" in changes else ""),
                                       st["option"]))
    return items


def _house_rule_lines(sheet: RuleSheet, title: str, changed: bool, st: dict[str, ParagraphStyle]) -> list[Flowable]:
    """The table's own rules of play, under the options: one line each, never cut short
    (nothing, not even the heading, for a sheet that has none unless the table dropped its
    preset's)."""
    if not sheet.house_rules and not changed:
        return []
    items: list[Flowable] = [Heading(f"* {esc(title)} CHANGED" if changed else esc(title), st["group"])]
    items += [Paragraph(f"• {esc(rule)}", st["option"])
              for rule in sheet.house_rules]
    if not sheet.house_rules:
        items.append(Paragraph("None: the table dropped its preset's.", st["option"]))
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


def _draw_qr(canv: Canvas, url: str, x: float, y: float, size: float) -> None:
    """The QR code of ``url`` in black squares, its bottom-left corner at (x, y)."""
    path = canv.beginPath()
    for rect in qr_rects(url, x, y, size):
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
        st = styles(fonts, size)
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
            about = f"<b>Preset:</b> {esc(preset.title)}. <b>Source:</b> {esc(str(preset.source))}. "
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
    values cut short, ending in "…" (never a house rule).
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
    """The most generous layout that fits: from 10.5 pt down :data:`_LADDER` one rung, then
    two, four... until one fits, then a binary search between, so a usual sheet takes two
    layouts (and one drawing), whether it fits at 10.5 pt or just below."""
    size = page_size(paper)
    lo, hi, probe, step = 0, len(_LADDER) - 1, _FIRST_PROBE, 1
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
        if best is None:  # none fits yet: the next try further down, each step twice the last
            probe, step = min(hi, probe + step), step * 2
        else:
            probe = (lo + hi) // 2
    if best is None:  # pragma: no cover: values clipped to 40 characters always fit
        raise ValueError("this sheet does not fit on one page")
    return best


