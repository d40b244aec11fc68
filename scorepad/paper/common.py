"""What the three printed documents share: papers, fonts, paragraph styles, layout helpers,
the game's details as the paper shows them (:class:`GameInfo`), and a built PDF with its link
written in per reader (:class:`Printed`, :func:`stamp`, :class:`LinkSlot`).

No web framework, no files read but fonts: the documents are :mod:`scorepad.paper.house_rules`,
:mod:`scorepad.paper.pad` and :mod:`scorepad.paper.results`. Black and white throughout:
marks are words and symbols, never colour alone. User text (game, side and player names,
reasons) goes through :func:`esc` before it reaches a Paragraph, so it is drawn literally
(:mod:`scorepad.paper.plain` takes text as it is: it has no markup).
"""

from __future__ import annotations

import io
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import cast
from xml.sax.saxutils import escape

import segno
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Flowable, Paragraph, SimpleDocTemplate

from ..rules.sheet import RuleSheet

Cell = Flowable | str  # what a cell of a reportlab Table holds here
# One command of a reportlab TableStyle: its name, the first and last cell, its arguments.
TableCommand = tuple[str, tuple[int, int], tuple[int, int], *tuple[object, ...]]

PAPERS: dict[str, tuple[float, float]] = {"letter": LETTER, "a4": A4}
MARGIN = 30.0                               # points; about 10.5 mm, inside any printer's margin
MIN_SIZE = 7.0
BLACK = colors.black
GREY = colors.Color(0.55, 0.55, 0.55)


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
    def of(cls, name: str, sides: Iterable[Mapping[str, object]], view_url: str | None = None,
           date: str | None = None, next_deal: str | None = None) -> GameInfo:
        """From a game's stored sides: ``[{"name": ..., "players": [...]}]``."""
        return cls(name, tuple((str(s["name"]), players_of(s)) for s in sides), view_url, date, next_deal)

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


def players_of(side: Mapping[str, object]) -> tuple[str, ...]:
    """A stored side's players (``[]`` or none: no players named)."""
    players = side.get("players")
    return tuple(str(p) for p in players) if isinstance(players, (list, tuple)) else ()


def esc(text: object) -> str:
    """User or sheet text made safe for a Paragraph: markup characters escaped, control
    characters dropped, so ``<script>`` prints as those eight characters."""
    text = str(text)
    if not text.isprintable():  # printable text holds no control character: most text, kept as it is
        text = "".join(ch for ch in text if unicodedata.category(ch) != "Cc" or ch == " ")
    return escape(text, {'"': "&quot;"})


def num(n: int) -> str:
    return f"{n:,}"


def signed(n: int) -> str:
    return f"{n:,}" if n >= 0 else f"-{-n:,}"


def styles(fonts: Fonts, size: float, spacing: float = 1.2) -> dict[str, ParagraphStyle]:
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


class Heading(Paragraph):
    """A group heading: bold, with a rule under it, kept with what follows."""

    keep_with_next = True

    def draw(self) -> None:
        super().draw()
        self.canv.setLineWidth(0.7)
        self.canv.setStrokeColor(BLACK)
        self.canv.line(0, -1.8, self.width, -1.8)


# -- layout ---------------------------------------------------------------------------------------


def qr_rects(url: str, x: float, y: float, size: float) -> list[tuple[float, float, float, float]]:
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




def changed_count(sheet: RuleSheet) -> str:
    n = len(sheet.changes())
    return f", {n} option{'s' if n != 1 else ''} changed" if n else ""



def document(buf: io.BytesIO, paper: tuple[float, float], title: str, subject: str) -> SimpleDocTemplate:
    return SimpleDocTemplate(buf, pagesize=paper, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN,
                             bottomMargin=MARGIN + 10, title=title, author="scorepad", subject=subject,
                             invariant=True, pageCompression=1)


def page_footer(fonts: Fonts, text: str) -> Callable[[Canvas, BaseDocTemplate], None]:
    def draw(canv: Canvas, doc: BaseDocTemplate) -> None:
        canv.saveState()
        canv.setFont(fonts.regular, MIN_SIZE)
        canv.setFillColor(BLACK)
        canv.drawString(MARGIN, MARGIN - 2, text)
        canv.drawRightString(doc.pagesize[0] - MARGIN, MARGIN - 2, f"page {doc.page}")
        canv.restoreState()
    return draw




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
            rects = qr_rects(url, *self.qr_at[1:])
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


