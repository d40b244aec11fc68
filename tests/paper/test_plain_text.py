"""scorepad.paper.plain's Plain, the fast paragraph the results draw what repeats with: real PDFs built with it,
read back with pypdf's text (each line's pieces, where they are drawn and in which font)."""

from __future__ import annotations

import io

from pypdf import PdfReader
from reportlab.lib.pagesizes import A6
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import SimpleDocTemplate, Spacer

from scorepad.paper.common import load_fonts, styles
from scorepad.paper.plain import BREAK, Ink, Plain

WIDTH = A6[0] - 2 * 20  # the frame of a small page with 20-point margins


def drawn(*paragraphs: list[tuple[str, str]], above: float = 0) -> tuple[list[list[tuple[str, float, str]]], int]:
    """Each page's pieces of text (text, x, font name as the PDF calls it) and the page count
    of an A6 PDF of ``paragraphs``, each given as runs of (text, font), below ``above``
    points of blank space."""
    fonts = load_fonts()
    buf = io.BytesIO()
    doc = SimpleDocTemplate(buf, pagesize=A6, leftMargin=20, rightMargin=20, topMargin=20, bottomMargin=20)
    ink = Ink()
    doc.build([Spacer(1, above), *(Plain(runs, styles(fonts, 8.5)["option"], ink) for runs in paragraphs)])
    pages = []
    for page in PdfReader(io.BytesIO(buf.getvalue())).pages:
        pieces: list[tuple[str, float, str]] = []

        def visit(text, cm, tm, font, size, pieces=pieces):
            if text.strip():
                pieces.append((text, cm[4] + tm[4], str((font or {}).get("/BaseFont", ""))))
        page.extract_text(visitor_text=visit)
        pages.append(pieces)
    return pages, len(pages)


def test_a_word_longer_than_a_line_is_cut_at_the_margin_and_printed_whole():
    fonts = load_fonts()
    word = "Unbroken" * 40
    pages, _ = drawn([("Deal 1 corrected", fonts.bold), (f": {word}, then more.", fonts.regular)])
    text = "".join(piece for piece, _x, _font in pages[0])
    assert "".join(text.split()) == f"Deal1corrected:{word},thenmore."
    for piece, x, _font in pages[0]:
        assert x - 20 + pdfmetrics.stringWidth(piece.rstrip(), fonts.regular, 8.5) <= WIDTH + 0.5, piece


def test_markup_is_printed_as_written_and_each_run_in_its_font():
    fonts = load_fonts()
    pages, _ = drawn([("Deal 2", fonts.bold), (": <b>Tom</b> & <i>Jerry</i>. ", fonts.regular),
                      ("The referee found:", fonts.italic)])
    pieces = pages[0]
    assert "".join(p for p, _x, _f in pieces) == "Deal 2: <b>Tom</b> & <i>Jerry</i>. The referee found:"
    bold = [p for p, _x, f in pieces if "Bold" in f]
    italic = [p for p, _x, f in pieces if "Oblique" in f or "Italic" in f]
    assert bold == ["Deal 2"] and italic == ["The referee found:"]


def test_a_paragraph_longer_than_a_page_goes_on_over_the_next_with_nothing_lost():
    fonts = load_fonts()
    words = [f"word{i}" for i in range(900)]
    pages, count = drawn([(" ".join(words), fonts.regular)])
    assert count > 1
    assert " ".join(p for page in pages for p, _x, _f in page).split() == words


def test_a_break_starts_a_line_and_a_paragraph_of_a_few_lines_goes_over_a_page_whole():
    fonts = load_fonts()
    runs = [("Deal 6", fonts.bold), (": the table let it stand. ", fonts.regular), ("The referee found:", fonts.italic),
            BREAK, ("A meld may hold at most 3 wild cards; " * 4, fonts.regular)]
    alone, _ = drawn(runs)
    lines = [p.strip() for p, _x, _f in alone[0]]
    assert lines[:3] == ["Deal 6", ": the table let it stand.", "The referee found:"]
    assert lines[3].startswith("A meld may hold") and 3 <= len(lines) - 2 <= 4  # the break, then the problems' lines
    pages, count = drawn(runs, above=A6[1] - 40 - 12 - 3 * 10.2 - 1)  # room for three lines at the foot of page 1
    assert count == 2 and [p.strip() for page in pages for p, _x, _f in page] == lines and pages[0] == []
