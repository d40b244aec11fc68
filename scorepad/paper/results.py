"""A game's results, as PDF bytes: every deal's itemised lines per side, running totals, the
winner or tie (or the next deal), deals saved "as played" (at most
:data:`~scorepad.rules.limits.MAX_PROBLEMS_SHOWN` problems each, then "and N more") and the
amendments of the sheet. :func:`printed_results` builds it once without its link, and
:meth:`~scorepad.paper.common.Printed.with_link` writes each reader's link into those bytes
(an incremental update appended to the PDF), so one built PDF serves every host. Under each
deal entered part by part, one line names the phone that entered each side and the ending,
and the phone that confirmed each side (:func:`entered_words`).
"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Protocol

from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import Flowable, KeepTogether, Paragraph, Spacer, Table, TableStyle

from ..rules import PRESETS, Problem, load_sheet
from ..rules.catalogue import OPTION_BY_NAME
from ..rules.choices import GameLength
from ..rules.limits import MAX_PROBLEMS_SHOWN
from ..rules.score import SideScore
from ..rules.views import DealRow, GameView
from .common import (
    BLACK,
    GREY,
    MARGIN,
    Cell,
    Fonts,
    LinkSlot,
    Printed,
    changed_count,
    document,
    esc,
    load_fonts,
    num,
    page_footer,
    page_size,
    players_of,
    signed,
    styles,
)
from .plain import BREAK, Ink, Plain


class Recorded(Protocol):
    """What the results read of a recorded game (a :class:`scorepad.storage.reading.GameRecord`):
    its name, stored sides (``[{"name": ..., "players": [...]}]``), dates and view."""

    @property
    def name(self) -> str: ...

    @property
    def sides(self) -> Sequence[Mapping[str, object]]: ...

    @property
    def created_at(self) -> str: ...

    @property
    def updated_at(self) -> str: ...

    @property
    def view(self) -> GameView: ...


class Entered(Protocol):
    """Who entered one part of a deal written part by part (a
    :class:`scorepad.storage.reading.PartEntry`): the phone's label, and the label of the
    phone of another side that confirmed it (None when nobody was asked to)."""

    @property
    def phone(self) -> str: ...

    @property
    def confirmed_by(self) -> str | None: ...


ENDING_PART = "ending"  # the part that says how the deal ended (the others are sides' positions, "1", "2"...)


def entered_words(parts: Mapping[str, Entered], sides: Sequence[str]) -> list[str]:
    """Who entered and who confirmed each part of a deal written part by part, a line a part:
    ``Us: entered by Ann's phone, confirmed by Dan's phone``, each side in its place, then
    ``Ending: entered by Ann's phone``. Nothing for a deal one phone entered whole, nor for
    one whose every part one phone entered with nobody confirming: there is nobody else to name."""
    if len({p.phone for p in parts.values()}) < 2 and not any(p.confirmed_by for p in parts.values()):
        return []
    named = [(name, parts.get(str(i))) for i, name in enumerate(sides, 1)] + [("Ending", parts.get(ENDING_PART))]
    return [f"{name}: entered by {part.phone}" + (f", confirmed by {part.confirmed_by}" if part.confirmed_by else "")
            for name, part in named if part is not None]


# -- results ------------------------------------------------------------------------------------------


def sheet_changes(before: object, after: object) -> list[tuple[str, str, str]]:
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


def shown_problems(problems: Sequence[Problem], most: int = MAX_PROBLEMS_SHOWN) -> str:
    """The first ``most`` problems' messages, then ``and N more``: what a deal's problems
    print as, so a deal with hundreds costs no more than one with five."""
    text = "; ".join(p.message for p in problems[:most])
    if len(problems) > most:
        text += f"; and {len(problems) - most:,} more"
    return text


def results(record: Recorded, amendments: Sequence[Mapping[str, object]] = (), paper: str = "letter",
            view_url: str | None = None, corrections: Sequence[Mapping[str, object]] = (),
            entered: Mapping[int, Mapping[str, Entered]] | None = None) -> bytes:
    """A game's results (see :func:`printed_results`), with ``view_url`` as its link."""
    return printed_results(record, amendments, paper, link=view_url is not None,
                           corrections=corrections, entered=entered).with_link(view_url)


def printed_results(record: Recorded, amendments: Sequence[Mapping[str, object]] = (), paper: str = "letter",
                    link: bool = True, corrections: Sequence[Mapping[str, object]] = (),
                    entered: Mapping[int, Mapping[str, Entered]] | None = None) -> Printed:
    """A game's results: standings with the margin, running totals, every deal line by line,
    deals saved "as played", the deals corrected after they were recorded, the sheet's
    amendments and a line for each side to sign; with ``link``, a line for the game's link,
    written in per reader by :meth:`Printed.with_link`.

    ``record`` is a :class:`scorepad.storage.reading.GameRecord` (its name, sides, dates and
    ``view``, the :class:`~scorepad.rules.views.GameView` every output reads);
    ``amendments`` are its history entries whose action is ``amend``; ``corrections`` its
    history entries (any action: those of a deal corrected or deleted are listed);
    ``entered`` who entered and confirmed each part of the deals written part by part, by deal
    number (:func:`scorepad.storage.reading.entered_by`), printed under each such deal's title.
    """
    size = page_size(paper)
    fonts = load_fonts()
    st = styles(fonts, 8.5)
    view = record.view
    width = size[0] - 2 * MARGIN
    buf = io.BytesIO()
    doc = document(buf, size, f"{record.name}: results", "A game's scores, deal by deal")
    slot = LinkSlot(fonts, 8.5) if link else None
    story: list[Flowable] = [Paragraph(f"{esc(record.name)}: results", st["title"]), Spacer(1, 3)]
    story += _about(record, view, st)
    story += [slot] if slot is not None else []
    story.append(Spacer(1, 6))
    story += _running_totals(view, fonts, st, width)
    ink = Ink()  # what repeats a hundred times is drawn as plain text: a Paragraph costs many times more
    story += _as_played(view, fonts, st, ink)
    story += _corrections(corrections, view, fonts, st, ink)
    story += _amendments(amendments, fonts, st)
    entered = entered or {}
    story += [_deal_block(row, fonts, st, width, ink, entered_words(entered.get(row.number, {}), list(view.sides)))
              for row in view.rows]
    story += _signatures(record, view, fonts, st, width)
    footer = page_footer(fonts, f"scorepad: {record.name}")
    doc.build(story, onFirstPage=footer, onLaterPages=footer)
    return Printed(buf.getvalue(), slot.place if slot is not None else None)


def margin_words(view: GameView) -> str:
    """The margin between the top two sides, as a clause: ``Margin: 1,325 over Us`` once the
    game is won, ``Them leads by 300 over Us`` while it goes on, ``Them and Us are level at
    +1,200`` on a tie while it goes on. Empty with fewer than two sides, no deal recorded, or
    a tie once the game is over (the standing says the tie)."""
    standings = view.result.standings
    if len(standings) < 2 or not view.rows:
        return ""
    first, second = standings[0], standings[1]
    gap = first.total - second.total
    if gap == 0:
        tied = [s.name for s in standings if s.total == first.total]
        return "" if view.result.over else f"{' and '.join(tied)} are level at {signed(first.total)}"
    if view.result.over:
        return f"Margin: {num(gap)} over {second.name}"
    return f"{first.name} leads by {num(gap)} over {second.name}"


def _standing(view: GameView) -> str:
    """Who won and by how much, the tie, or how far the game has gone and who leads by how much."""
    sheet = view.sheet
    result = view.result
    margin = margin_words(view)
    if result.over and result.tie:
        tied = [s.name for s in result.standings if s.total == result.standings[0].total]
        return f"A tie at {signed(result.standings[0].total)} between {', '.join(tied)}."
    if result.over:
        return f"{result.winner} wins with {signed(result.standings[0].total)}." + (f" {margin}." if margin else "")
    last = sheet.last_deal()
    played = len(view.rows)
    recorded = f"Game in progress: {played} deal{'s' if played != 1 else ''} recorded"
    if sheet.game_length is GameLength.OPEN:
        return f"{recorded}; {margin or 'nobody leads'}. The table ends the game."
    return (recorded + (f" of {last}" if last else f", playing to {num(sheet.target_score)}")
            + (f"; {margin}." if margin else "."))


def _about(record: Recorded, view: GameView, st: dict[str, ParagraphStyle]) -> list[Flowable]:
    """The standing, the next deal, and the game's sheet, sides and dates."""
    sheet = view.sheet
    story: list[Flowable] = [Paragraph(f"<b>{esc(_standing(view))}</b>", st["h2"])]
    upcoming = view.next_deal
    if upcoming is not None:
        story.append(Paragraph(esc(upcoming.words()), st["base"]))
    preset = PRESETS.get(sheet.preset) if sheet.preset else None
    sheet_name = esc(preset.title) if preset else "the table's own"
    about = [f"<b>Sheet:</b> {sheet_name}"
             + changed_count(sheet)
             + " (every deal scored under the game's sheet as it stands now)"]
    about.append("<b>Sides:</b> " + "; ".join(
        f"{esc(s['name'])}" + (f" ({esc(', '.join(players_of(s)))})" if s.get("players") and s["players"] != [s["name"]]
                               else "") for s in record.sides))
    about.append(f"<b>Started:</b> {esc(str(record.created_at)[:10])}; <b>last change:</b> "
                 f"{esc(str(record.updated_at)[:10])}")
    return story + [Paragraph(line, st["base"]) for line in about]


def _running_totals(view: GameView, fonts: Fonts, st: dict[str, ParagraphStyle], width: float) -> list[Flowable]:
    """Standings and running totals: a row per deal, a column pair (deal, total) per side,
    and the totals after every recorded deal."""
    sides = list(view.sides)
    cell = st["cell"]
    bold = st["cellbold"]
    head: list[Cell] = [Paragraph("<b>Deal</b>", cell), *(Paragraph(f"<b>{esc(s)}</b>", cell) for s in sides)]
    rows = [head]
    for row in view.rows:
        mark = " (as played)" if row.as_played else ""
        rows.append([f"Deal {row.number}{mark}",
                     *(f"{signed(row.points.get(s, 0))}  →  {signed(row.running.get(s, 0))}".replace("→", fonts.arrow)
                       for s in sides)])
    result = view.result
    final = view.totals
    winner_mark = {result.winner: " (winner)"} if result.winner else {}
    if result.tie:
        winner_mark = {s.name: " (tie)" for s in result.standings if s.total == result.standings[0].total}
    rows.append([Paragraph("<b>Total</b>", bold),
                 *(Paragraph(f"<b>{signed(final.get(s, 0))}{esc(winner_mark.get(s, ''))}</b>", bold) for s in sides)])
    first = 110.0
    table = Table(rows, colWidths=[first] + [(width - first) / max(1, len(sides))] * len(sides),
                  hAlign="LEFT", repeatRows=1)
    table.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, -1), fonts.regular, 8.5),
        ("GRID", (0, 0), (-1, -1), 0.5, BLACK),
        ("LINEBELOW", (0, 0), (-1, 0), 1.2, BLACK),
        ("LINEABOVE", (0, -1), (-1, -1), 1.2, BLACK),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("ALIGN", (1, 1), (-1, -1), "RIGHT"),
    ]))
    return [Paragraph("Running totals (each deal's score " + fonts.arrow + " the total after it)", st["h2"]), table]


def _as_played(view: GameView, fonts: Fonts, st: dict[str, ParagraphStyle], ink: Ink) -> list[Flowable]:
    """Deals saved as played, each with its reason and what the referee found."""
    story: list[Flowable] = [Paragraph("Deals saved as played", st["h2"])]
    kept = [row for row in view.rows if row.as_played]
    if not kept:
        story.append(Paragraph("None: every deal met the sheet.", st["base"]))
    for d in kept:
        problems = shown_problems(d.verdict.report.violations)
        deal = (f"Deal {d.number}", fonts.bold)
        if not problems:
            story.append(Plain([deal, (f": {d.as_played}", fonts.regular)], st["option"], ink))
            continue
        # The referee's problems follow on lines of their own, in the same paragraph: one
        # flowable, that no KeepTogether has to hold to its lead-in.
        story.append(Plain([deal, (f": {d.as_played}. ", fonts.regular), ("The referee found:", fonts.italic), BREAK,
                            (problems, fonts.regular)], st["option"], ink))
    return story


CORRECTED = {"edit": "corrected", "delete": "deleted"}  # the history's actions that change a recorded deal


def _totals_change(entry: Mapping[str, object], sides: Sequence[str], arrow: str) -> str:
    """Each side's deal total before and after a correction, where it changed."""
    old, new = entry.get("old_totals"), entry.get("new_totals")
    before = old if isinstance(old, Mapping) else {}
    after = new if isinstance(new, Mapping) else {}
    changed = [f"{name} {signed(before[name]) if name in before else '—'} {arrow} "
               f"{signed(after[name]) if name in after else '—'}"
               for name in sides if before.get(name) != after.get(name)]
    return "; ".join(changed) or "no side's total changed"


def _corrections(corrections: Sequence[Mapping[str, object]], view: GameView, fonts: Fonts,
                 st: dict[str, ParagraphStyle], ink: Ink) -> list[Flowable]:
    """The deals changed after they were recorded, from the game's history: when, which deal,
    why, and each side's deal total before and after."""
    story: list[Flowable] = [Paragraph("Corrections", st["h2"])]
    changed = [e for e in corrections if e.get("action") in CORRECTED and e.get("deal_number") is not None]
    if not changed:
        story.append(Paragraph("None: no deal was changed after it was recorded.", st["base"]))
    for entry in changed:
        reason = str(entry.get("reason") or "").strip()
        story.append(Plain([
            (f"Deal {entry.get('deal_number')} {CORRECTED[str(entry.get('action'))]}", fonts.bold),
            (f" {str(entry.get('at', ''))[:10]}" + (f": {reason}" if reason else "") + ". "
             + _totals_change(entry, list(view.sides), fonts.arrow) + ".", fonts.regular)], st["option"], ink))
    return story


def _signatures(record: Recorded, view: GameView, fonts: Fonts, st: dict[str, ParagraphStyle],
                width: float) -> list[Flowable]:
    """A line for each side to sign that the results are agreed, with its name and total."""
    rows: list[list[Cell]] = []
    for side in record.sides:
        name = str(side.get("name", ""))
        players = [p for p in players_of(side) if p != name]
        words = f"<b>{esc(name)}</b> ({signed(view.totals.get(name, 0))})" + (
            f": {esc(', '.join(players))}" if players else "")
        rows.append([Paragraph(words, st["cell"]), "", "Date", ""])
    table = Table(rows, colWidths=[width * 0.32, width * 0.38, 30, width * 0.3 - 30], rowHeights=26, hAlign="LEFT")
    table.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, -1), fonts.regular, 8.5),
        ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
        ("LINEBELOW", (1, 0), (1, -1), 0.8, BLACK),
        ("LINEBELOW", (3, 0), (3, -1), 0.8, BLACK),
        ("ALIGN", (2, 0), (2, -1), "RIGHT"),
    ]))
    return [KeepTogether([Paragraph("Agreed by each side", st["h2"]),
                          Paragraph("Each side signs that these results are the game as played.", st["base"]),
                          table])]


def _amendments(amendments: Sequence[Mapping[str, object]], fonts: Fonts,
                st: dict[str, ParagraphStyle]) -> list[Flowable]:
    """The sheet's amendments: when, why and what each changed."""
    story: list[Flowable] = [Paragraph("Sheet amendments", st["h2"])]
    if not amendments:
        story.append(Paragraph("None: the game kept the sheet it started with.", st["base"]))
    for entry in amendments:
        changes = sheet_changes(entry.get("before"), entry.get("after"))
        words = "; ".join(f"{label}: {old} {fonts.arrow} {new}" for label, old, new in changes) or "no option changed"
        story.append(Paragraph(f"<b>{esc(str(entry.get('at', ''))[:10])}</b>: {esc(entry.get('reason') or '')}. "
                               f"<i>Changed:</i> {esc(words)}", st["option"]))
    return story


def _deal_block(d: DealRow, fonts: Fonts, st: dict[str, ParagraphStyle], width: float, ink: Ink,
                entered: Sequence[str] = ()) -> Flowable:
    """One deal, line by line, sides side by side (two to a row), kept on one page; under its
    title, for a deal written part by part, who entered and confirmed each part, on one line.
    The title is drawn by the first pair of sides, so that a deal of two sides (most) is one
    flowable, never a KeepTogether (which copies the page's frame each time it measures)."""
    deal = d.deal
    how = (f"{deal.went_out} went out" if deal.ending.value == "went_out" and deal.went_out
           else "the stock ran out")
    title = f"Deal {d.number}: {how}" + (" (saved as played)" if d.as_played else "")
    sides = d.verdict.breakdown.sides
    above = [Plain([(title, fonts.bold)], st["h2"], ink)]
    if entered:
        above.append(Plain([("; ".join(entered) + ".", fonts.regular)], st["base"], ink))
    pairs: list[Flowable] = [_SidePair(sides[i:i + 2], d.running, fonts, width, ink, above if i == 0 else ())
                             for i in range(0, len(sides), 2)]
    return pairs[0] if len(pairs) == 1 else KeepTogether(pairs)


class _SidePair(Flowable):
    """Up to two sides' lines of a deal, side by side: label, count × each, = points; then
    the deal total and the running total. Drawn straight on the canvas, three strings a
    line in one text object (:class:`~scorepad.paper.common.Ink`, which makes the operators
    of a row that repeats from deal to deal once) and a few paths for the rules: a hundred
    deals of a dozen lines a side cost a few hundredths of a second, where a Table with a
    Paragraph a cell cost many tenths."""

    LEAD = 10.5
    SIZE = 8.5
    GAP = 12.0

    def __init__(self, sides: Sequence[SideScore], running: Mapping[str, int], fonts: Fonts, width: float,
                 ink: Ink, above: Sequence[Plain] = ()) -> None:
        super().__init__()
        self.fonts, self.box_w, self.ink, self.above = fonts, (width - self.GAP) / 2, ink, list(above)
        self.spaceBefore = self.above[0].spaceBefore if self.above else 0.0
        self.head = 0.0  # the height of the lines above the boxes, with their spacing
        self.boxes = [self._rows(side, running.get(side.name)) for side in sides]

    def _rows(self, side: SideScore, running: int | None) -> list[tuple[str, str, str, bool]]:
        label_w = self.box_w - 30 - 48 - 52 - 6
        rows = [(self._fit(line.label, self.fonts.regular, label_w), f"{num(line.count)} × {signed(line.each)}",
                 f"= {signed(line.points)}", False) for line in side.lines]
        if not rows:
            rows.append(("nothing scored", "", "0", False))
        rows.append(("Deal total", "", signed(side.total), True))
        if running is not None:
            rows.append(("Running total", "", signed(running), True))
        return [(self._fit(side.name, self.fonts.bold, self.box_w - 6), "", "", True)] + rows

    def _fit(self, text: str, font: str, width: float) -> str:
        """``text`` without control characters, cut to ``width`` with "…" when longer."""
        if not text.isprintable():
            text = "".join(ch for ch in text if unicodedata.category(ch) != "Cc")
        if self.ink.width(text, font, _SidePair.SIZE) <= width:
            return text
        while text and pdfmetrics.stringWidth(text + "…", font, _SidePair.SIZE) > width:
            text = text[:-1]
        return text + "…"

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        self.head = 0.0
        for i, line in enumerate(self.above):  # spacing between as a frame gives it: the larger of the two
            self.head += line.wrap(avail_width, avail_height)[1] + (
                max(line.spaceAfter, self.above[i + 1].spaceBefore) if i + 1 < len(self.above) else line.spaceAfter)
        self.height = self.head + max(len(rows) for rows in self.boxes) * self.LEAD + 6
        return avail_width, self.height

    def draw(self) -> None:
        canv, lead, size, ink = self.canv, self.LEAD, self.SIZE, self.ink
        y = self.height
        for i, line in enumerate(self.above):
            y -= line.height
            line.drawOn(canv, 0, y)
            y -= max(line.spaceAfter, self.above[i + 1].spaceBefore) if i + 1 < len(self.above) else line.spaceAfter
        lines: list[str] = []
        canv.saveState()
        for i, rows in enumerate(self.boxes):
            x0, top = i * (self.box_w + self.GAP), self.height - self.head
            bottom = top - len(rows) * lead
            lines += [f"1 0 0 1 {x0 + 3:.2f} {top - (r + 1) * lead + 3:.2f} Tm "
                      + ink.line(canv, (self.box_w, row), partial(self._pieces, row), size)
                      for r, row in enumerate(rows)]
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
        ink.write(canv, lines)  # every string of the pair in one text object

    def _pieces(self, row: tuple[str, str, str, bool]) -> list[tuple[float, str, str]]:
        """A row's three strings, each at its x from the box's text margin: the label, then the
        count × each and the points, right-aligned in their columns."""
        label, amount, points, bold = row
        fonts, width, size = self.fonts, self.ink.width, self.SIZE
        face = fonts.bold if bold else fonts.regular
        right, mid = self.box_w - 6, self.box_w - 6 - 52
        return [(0.0, label, fonts.italic if label == "nothing scored" and not bold else face),
                (mid - width(amount, face, size), amount, face), (right - width(points, face, size), points, face)]
