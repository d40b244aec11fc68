"""The blank score pad, as PDF bytes: a block per deal, one column per side, with the lines
this sheet scores and the deal's opening minimum and going-out requirement in its header; for
a game in progress, its next deal as :class:`scorepad.rules.game.Game` says.

>>> from scorepad.rules import preset
>>> score_pad(preset("pagat"))[:5]
b'%PDF-'
"""

from __future__ import annotations

import io

from reportlab.lib.pagesizes import landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Flowable, KeepTogether, Paragraph, Spacer, Table, TableStyle

from ..rules import PRESETS, Preset
from ..rules.choices import GameLength, OpeningBy, PileTake
from ..rules.lines import pad_lines as score_pad_lines
from ..rules.sheet import RuleSheet
from .common import (
    BLACK,
    GREY,
    MARGIN,
    MIN_SIZE,
    Cell,
    Fonts,
    GameInfo,
    TableCommand,
    changed_count,
    document,
    esc,
    load_fonts,
    num,
    page_footer,
    page_size,
    styles,
)

TARGET_PAD_DEALS = 6                        # blocks on a pad for a sheet played to a target
ONE_PAGE_DEALS = 4                          # a pad of this many deals or fewer is laid out to fit one page
LINE_HEIGHT = 16.5                          # a score line's height: room to write a number by hand
# The layouts a pad tries, roomiest first, until its deals fit one page: (two deals side by
# side, where the sides are at most two; a score line's height in points, 12 at the least:
# about 4 mm, still room for a hand's figures).
LAYOUTS: tuple[tuple[bool, float], ...] = ((False, LINE_HEIGHT), (False, 15.0), (False, 13.5), (True, LINE_HEIGHT),
                                           (True, 15.0), (True, 13.5), (False, 12.0), (True, 12.0))
PAIR_GAP = 10.0                             # points between two deals side by side

def pad_lines(sheet: RuleSheet, deal: int) -> list[tuple[str, bool]]:
    """The lines a side scores on this sheet in this deal: (label, has a count column), read
    from the rules' one table of score lines (:func:`scorepad.rules.lines.pad_lines`).

    >>> from scorepad.rules import preset
    >>> [label for label, _ in pad_lines(preset("common"), 1)][:3]
    ['Melded card points', 'Clean books × 500', 'Dirty books × 300']
    """
    return list(score_pad_lines(sheet, deal))


def deal_conditions(sheet: RuleSheet, deal: int) -> str:
    """The deal's opening minimum and going-out requirement, in words (plain text).

    >>> from scorepad.rules import preset
    >>> deal_conditions(preset("pagat"), 2)
    'Opening minimum 90 (the side, once). To go out: 2 clean + 2 dirty + 1 wild books. Going out +100.'
    """
    who = sheet.describe("opening_who")
    if sheet.opening_book(deal):
        opening = f"Opening: the first melds include a complete book ({who})"
    elif sheet.opening_by is OpeningBy.DEAL:
        opening = f"Opening minimum {sheet.opening_minimum(deal)} ({who})"
    else:
        opening = f"Opening minimum by the side's total before the deal ({who}): {sheet.describe('opening_bands')}"
    bonus = num(sheet.going_out_bonus_at(deal))
    out = f"{opening}. To go out: {sheet.going_out_books(deal).books}. Going out +{bonus}."
    extras = []
    if sheet.knee_at(deal):
        extras.append(f"hand {sheet.hand_size}, knee {sheet.knee_at(deal)}, foot {sheet.foot_size}")
    elif sheet.has_knee:
        extras.append("no knee")
    if not sheet.draws_per_turn.single:
        extras.append(f"draw {sheet.draws_per_turn.at(deal)}")
    if not sheet.pile_cards.single and sheet.pile_take in (PileTake.TOP, PileTake.TOP_IF_FULL):
        extras.append(f"the pile: top {sheet.pile_cards.at(deal)}")
    if extras:
        out += " This deal: " + ", ".join(extras) + "."
    return out



def _pad_deals(sheet: RuleSheet) -> list[int]:
    last = sheet.last_deal()
    return list(range(1, (last if last is not None else TARGET_PAD_DEALS) + 1))


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
    st = styles(fonts, 9)
    preset = PRESETS.get(sheet.preset) if sheet.preset else None
    name = game.name if game is not None else (preset.title if preset else "House rules")
    story: list[Flowable] = [Paragraph(f"{esc(name)}: score pad", st["title"])]
    intro = _intro(sheet, preset, game)
    story.append(Paragraph(". ".join(intro) + ".", st["base"]))
    story.append(Spacer(1, 6))
    deals = _pad_deals(sheet)
    layouts = [(paired, line) for paired, line in LAYOUTS if not paired or len(columns) <= 2]
    if len(deals) > ONE_PAGE_DEALS:
        layouts = layouts[:1]
    for paired, line in layouts:  # the roomiest layout that fits a short game on one page
        buf = io.BytesIO()
        doc = document(buf, size, f"{name}: score pad", "A blank score pad for keeping score with a pen")
        blocks = _pad_blocks(sheet, deals, columns, size[0] - 2 * MARGIN, paired, line, fonts, st)
        doc.build([*story, *blocks], onFirstPage=page_footer(fonts, f"scorepad: {name}"),
                  onLaterPages=page_footer(fonts, f"scorepad: {name}"))
        if doc.page == 1:
            break
    return buf.getvalue()


def _pad_blocks(sheet: RuleSheet, deals: list[int], columns: list[tuple[str, str]], avail: float, paired: bool,
                line: float, fonts: Fonts, st: dict[str, ParagraphStyle]) -> list[Flowable]:
    """The deals' blocks, one under another, or two side by side (``paired``), each kept on one page."""
    room = (avail - PAIR_GAP) / 2 if paired else avail
    label_w = min(190.0, max(room * 0.45 if paired else 140.0, room * 0.3))
    side_w = (room - label_w) / len(columns)
    count_w = max(20.0, side_w * 0.3)
    widths = [label_w] + [count_w, side_w - count_w] * len(columns)
    tables = [_pad_block(sheet, number, columns, widths, fonts, st, line) for number in deals]
    gap = 8 if line >= LINE_HEIGHT - 2 else 4
    if not paired:
        return [KeepTogether([table, Spacer(1, gap)]) for table in tables]
    out: list[Flowable] = []
    for i in range(0, len(tables), 2):
        pair: list[Cell] = [tables[i], "", tables[i + 1] if i + 1 < len(tables) else ""]
        row = Table([pair], colWidths=[room, PAIR_GAP, room], hAlign="LEFT")
        row.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 0),
                                 ("RIGHTPADDING", (0, 0), (-1, -1), 0), ("TOPPADDING", (0, 0), (-1, -1), 0),
                                 ("BOTTOMPADDING", (0, 0), (-1, -1), 0)]))
        out += [KeepTogether([row, Spacer(1, gap)])]
    return out


def _intro(sheet: RuleSheet, preset: Preset | None, game: GameInfo | None) -> list[str]:
    """The pad's opening sentences (markup): the sheet, card values, how long the game is,
    what is unusual about its scoring, how to fill the pad in, and a game's next deal."""
    intro = []
    if preset:
        intro.append(f"<b>Sheet:</b> {esc(preset.title)}" + changed_count(sheet))
    intro.append(f"<b>Card values:</b> {esc(sheet.describe('card_values'))}")
    if sheet.game_length is GameLength.TARGET:
        intro.append(f"<b>Play to {num(sheet.target_score)}</b>: the game ends after the deal in which a side "
                     f"reaches it; {len(_pad_deals(sheet))} deals here, carry the total to a new pad if needed")
    elif sheet.game_length is GameLength.OPEN:
        intro.append(f"<b>Played until the table ends the game</b>; {len(_pad_deals(sheet))} deals here, carry "
                     "the total to a new pad if needed. The highest total then wins")
    else:
        intro.append(f"<b>{sheet.deals} deals.</b> The highest total wins")
    if sheet.special_books:
        intro.append("A clean book of a special rank scores its own bonus, not the clean-book bonus")
    if sheet.has_knee:
        intro.append("Each player is dealt a hand, a knee and a foot, played in that order; an unopened knee "
                     "counts against as an unopened foot does")
    if sheet.book_caps:
        intro.append(f"{esc(sheet.describe('book_caps')).capitalize()}: books past these score their cards, "
                     "no bonus")
    intro.append("For each line, write how many in <b>no.</b> and the points in <b>points</b>; "
                 "take the cards left off")
    if game is not None and game.next_deal:
        intro.append(esc(game.next_deal.rstrip(".")))
    return intro


def _default_sides(sheet: RuleSheet) -> int:
    most = max(sheet.max_players // size for size in sheet.side_sizes)
    return 2 if sheet.side_sizes == (2,) or most <= 2 else min(4, most)


def _pad_block(sheet: RuleSheet, number: int, columns: list[tuple[str, str]], widths: list[float],
               fonts: Fonts, st: dict[str, ParagraphStyle], line: float = LINE_HEIGHT) -> Table:
    n = len(columns)
    tight = line < LINE_HEIGHT - 2  # a compact layout: smaller labels, less padding, so lines fit their height
    label_style = ParagraphStyle("pad-line", parent=st["cell"], fontSize=8, leading=9) if tight else st["cell"]
    pad = 1 if tight else 2
    head: list[Cell] = [Paragraph(f"<b>Deal {number}</b>", st["cellbold"] if tight else st["h2"])]
    for side, players in columns:
        text = f"<b>{esc(side)}</b>" + (f"<br/>{esc(players)}" if players else "")
        head += [Paragraph(text, st["cell"]), ""]
    cond_style = ParagraphStyle("pad-cond", parent=st["cell"], fontSize=MIN_SIZE + 0.5, leading=MIN_SIZE * 1.2) \
        if tight else st["cell"]
    cond: list[Cell] = [Paragraph(esc(deal_conditions(sheet, number)), cond_style), *[""] * (2 * n)]
    sub: list[Cell] = ["", *["no.", "points"] * n]
    rows = [head, cond, sub]
    style: list[TableCommand] = [
        ("FONT", (0, 0), (-1, -1), fonts.regular, 9),
        ("FONT", (1, 2), (-1, 2), fonts.italic, MIN_SIZE),
        ("SPAN", (0, 1), (-1, 1)),
        ("GRID", (0, 0), (-1, -1), 0.5, BLACK),
        ("BOX", (0, 0), (-1, -1), 1.4, BLACK),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("ALIGN", (1, 2), (-1, 2), "CENTER"),
        ("TOPPADDING", (0, 0), (-1, -1), pad),
        ("BOTTOMPADDING", (0, 0), (-1, -1), pad),
    ]
    for i in range(n):
        style.append(("SPAN", (1 + 2 * i, 0), (2 + 2 * i, 0)))
        style.append(("LINEBEFORE", (1 + 2 * i, 0), (1 + 2 * i, -1), 1.4, BLACK))
    for label, counted in pad_lines(sheet, number):
        r = len(rows)
        rows.append([Paragraph(esc(label), label_style), *[""] * (2 * n)])
        if not counted:
            for i in range(n):
                style.append(("SPAN", (1 + 2 * i, r), (2 + 2 * i, r)))
        else:
            for i in range(n):
                style.append(("LINEAFTER", (1 + 2 * i, r), (1 + 2 * i, r), 0.3, GREY))
    total_row = len(rows)
    rows.append(["Deal total", *[""] * (2 * n)])
    rows.append(["Running total", *[""] * (2 * n)])
    for r in (total_row, total_row + 1):
        for i in range(n):
            style.append(("SPAN", (1 + 2 * i, r), (2 + 2 * i, r)))
    style += [
        ("FONT", (0, total_row), (0, total_row + 1), fonts.bold, 9.5),
        ("LINEABOVE", (0, total_row), (-1, total_row), 1.4, BLACK),
        ("LINEABOVE", (0, total_row + 1), (-1, total_row + 1), 0.9, BLACK),
    ]
    heights: list[float | None] = [None, None, 9 if tight else 11]
    for row in rows[3:]:
        first = row[0]
        needed = first.wrap(widths[0] - 12, 1000)[1] + 2 * pad + 1 if isinstance(first, Paragraph) else 0
        heights.append(max(line, needed))
    table = Table(rows, colWidths=widths, rowHeights=heights, hAlign="LEFT")
    table.setStyle(TableStyle(style))
    return table


