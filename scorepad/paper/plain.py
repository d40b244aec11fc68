"""Plain text drawn fast: :class:`Plain`, a paragraph of runs of fonts with a ParagraphStyle's
spacing, and :class:`Ink`, which writes a document's text as PDF text operators, each string
encoded for its font once. For what a long game's results repeat a hundred times (each
deal's title and lines, the deals saved as played, the corrections), where reportlab's
Paragraph (which parses markup and breaks lines fragment by fragment) and its text object
(which encodes every string afresh) cost most of the PDF's time. Text is drawn literally:
no markup, so nothing to escape (control characters are dropped, :func:`plain`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import cast

from reportlab.lib.rl_accel import escapePDF
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable

Run = tuple[str, str]  # some text and the font it is drawn in
BREAK: Run = ("\n", "")  # in a Plain's runs: what follows starts a line of its own


def plain(text: object) -> str:
    """``text`` without control characters, drawn as it is: what :class:`Plain` and
    :class:`Ink` are given (no markup, so nothing to escape)."""
    text = str(text)
    if not text.isprintable():
        text = "".join(ch for ch in text if unicodedata.category(ch) != "Cc" or ch == " ")
    return text


class Ink:
    """The text of one document written straight as PDF text operators, each string
    encoded for its font once (as reportlab's ``ttfonts`` module says a dynamic font's text
    is written) and each width measured once: reportlab's text object encodes every string
    afresh, which for the thousands of short strings of a long game's results cost more
    than all the rest of their drawing. Made per document (a font's encoding is the
    document's): it starts afresh when handed another document's canvas."""

    def __init__(self) -> None:
        self._doc: object = None
        self._codes: dict[tuple[str, float, str], str] = {}
        self._widths: dict[tuple[str, float, str], float] = {}
        self._lines: dict[Hashable, str] = {}

    def width(self, text: str, font: str, size: float) -> float:
        key = (font, size, text)
        found = self._widths.get(key)
        if found is None:
            found = self._widths[key] = pdfmetrics.stringWidth(text, font, size)
        return found

    def _for(self, canv: Canvas) -> object:
        """The canvas's document, the codes made for another forgotten."""
        doc = canv._doc  # type: ignore[attr-defined]  # the document a font encodes for (as reportlab's text object reads it)
        if doc is not self._doc:
            self._doc, self._codes, self._lines = doc, {}, {}
        return doc

    def code(self, canv: Canvas, text: str, font: str, size: float) -> str:
        """The operators that show ``text`` in ``font`` at ``size`` from the text position."""
        doc = self._for(canv)
        key = (font, size, text)
        found = self._codes.get(key)
        if found is None:
            face = cast(TTFont, pdfmetrics.getFont(font))  # load_fonts registers TTFonts only
            found = self._codes[key] = " ".join(
                f"{face.getSubsetInternalName(subset, doc)} {size:g} Tf ({escapePDF(chunk)}) Tj"
                for subset, chunk in face.splitString(text, doc))
        return found

    def line(self, canv: Canvas, key: Hashable, pieces: Callable[[], Iterable[tuple[float, str, str]]],
             size: float) -> str:
        """The operators that show a line's ``pieces`` (x from where the line starts, text, font),
        made once a document for each ``key`` (what decides them: a row of a table that
        repeats from deal to deal is made once)."""
        self._for(canv)
        found = self._lines.get(key)
        if found is None:
            ops, at = [], 0.0
            for x, text, font in pieces():
                if text:
                    ops += [f"{x - at:.2f} 0 Td"] if x != at else []
                    ops.append(self.code(canv, text, font, size))
                    at = x
            found = self._lines[key] = " ".join(ops)
        return found

    def draw(self, canv: Canvas, strings: Iterable[tuple[float, float, Sequence[Run]]], size: float) -> None:
        """Each (x, y, runs): the runs one after another from (x, y), in one text object."""
        self.write(canv, (f"1 0 0 1 {x:.2f} {y:.2f} Tm " + " ".join(self.code(canv, text, font, size)
                                                                 for text, font in runs if text)
                          for x, y, runs in strings))

    @staticmethod
    def write(canv: Canvas, lines: Iterable[str]) -> None:
        """Text operators (each line placed by its own ``Tm``) as one text object, in black,
        the graphics state (fonts, colour) kept around it as it was."""
        canv.addLiteral(" ".join(["q 0 g BT", *lines, "ET Q"]))


class Plain(Flowable):
    """A paragraph of plain text in runs of fonts (a bold lead-in, an italic aside), wrapped
    at spaces (a word longer than the line is cut where the line ends), with a
    ParagraphStyle's size, leading, indents, spacing and keep-with-next, split across pages
    line by line (never one line alone on either page; four lines or fewer go over whole);
    drawn by an :class:`Ink`. Many times faster than a Paragraph, which parses
    markup and breaks lines fragment by fragment: for the parts of a long game's results
    that repeat a hundred times. Text is drawn literally (through :func:`plain`); a
    :data:`BREAK` among the runs starts a line."""

    def __init__(self, runs: Sequence[Run], style: ParagraphStyle, ink: Ink,
                 lines: list[tuple[float, list[Run]]] | None = None) -> None:
        super().__init__()
        self.runs = [run if run == BREAK else (plain(run[0]), run[1]) for run in runs]
        self.style, self.ink = style, ink
        self.size, self.leading = float(style.fontSize), float(style.leading)
        self.spaceBefore, self.spaceAfter = float(style.spaceBefore), float(style.spaceAfter)
        self.lines = lines  # (indent, runs) a line: broken for a width by wrap, or given (a part once split)
        self._broken_for: float | None = None  # the width ``lines`` were broken for; None while given or unbroken

    def _words(self) -> list[list[Run]]:
        """The text's words, each in one or more runs (a bold ``1`` then ``:``)."""
        words: list[list[Run]] = [[]]
        for text, font in self.runs:
            if (text, font) == BREAK:
                words += [[BREAK], []]
                continue
            for piece in re.split(r"(\s+)", text):
                if piece.isspace():
                    words.append([])
                elif piece:
                    words[-1].append((piece, font))
        return [word for word in words if word]

    def _break(self, avail_width: float) -> list[tuple[float, list[Run]]]:
        """Lines as full as they go; a word longer than a line on lines of its own, cut where
        each ends."""
        style, ink, size = self.style, self.ink, self.size
        left, right = float(style.leftIndent), float(style.rightIndent)
        lines: list[tuple[float, list[Run]]] = []
        line: list[Run] = []
        used, indent = 0.0, left + float(style.firstLineIndent)
        room = avail_width - indent - right
        whole = [(re.sub(r"\s+", " ", text), font) for text, font in self.runs]
        if whole and BREAK not in self.runs and sum(ink.width(text, font, size) for text, font in whole) <= room:
            whole[0] = (whole[0][0].lstrip(), whole[0][1])  # one line, as most are
            whole[-1] = (whole[-1][0].rstrip(), whole[-1][1])
            return [(indent, whole)]
        for word in self._words():
            if word == [BREAK]:
                if line:
                    lines.append((indent, line))
                line, used, indent, room = [], 0.0, left, avail_width - left - right
                continue
            width = sum(ink.width(text, font, size) for text, font in word)
            if line:
                space = ink.width(" ", line[-1][1], size)
                if used + space + width <= room:
                    _add(line, [(" ", line[-1][1]), *word])
                    used += space + width
                    continue
                lines.append((indent, line))
                line, indent, room = [], left, avail_width - left - right
            while width > room and word:
                head, word = _start_that_fits(word, room, size)
                lines.append((indent, head))
                indent, room = left, avail_width - left - right
                width = sum(ink.width(text, font, size) for text, font in word)
            _add(line, word)
            used = width
        if line:
            lines.append((indent, line))
        return lines

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        if self.lines is None or (self._broken_for is not None and self._broken_for != avail_width):
            self.lines, self._broken_for = self._break(avail_width), avail_width
        self.width, self.height = avail_width, len(self.lines) * self.leading
        return self.width, self.height

    def split(self, avail_width: float, avail_height: float) -> list[Flowable]:
        self.wrap(avail_width, avail_height)
        assert self.lines is not None
        fit = int((avail_height + 1e-6) // self.leading)
        if fit >= len(self.lines):
            return [self]
        fit = min(fit, len(self.lines) - 2)  # never a last line alone over the page, nor a first alone before it
        if len(self.lines) <= 4 or fit < 2:  # and a paragraph of a few lines goes over whole
            return []
        head = Plain([], self.style, self.ink, self.lines[:fit])
        tail = Plain([], self.style, self.ink, self.lines[fit:])
        head.spaceAfter, tail.spaceBefore = 0.0, 0.0
        return [head, tail]

    def draw(self) -> None:
        assert self.lines is not None
        top = self.height - self.size  # the first baseline, as a Paragraph puts it
        lines = enumerate(self.lines)
        self.ink.draw(self.canv, ((indent, top - i * self.leading, runs) for i, (indent, runs) in lines), self.size)


def _add(line: list[Run], runs: Iterable[Run]) -> None:
    """``runs`` added at the end of ``line``, text of the font ``line`` ends in joined to its
    last run: a run is one operator."""
    for text, font in runs:
        if line and line[-1][1] == font:
            line[-1] = (line[-1][0] + text, font)
        else:
            line.append((text, font))


def _start_that_fits(word: Sequence[Run], room: float, size: float) -> tuple[list[Run], list[Run]]:
    """``word`` cut in two: as much of its start as fits in ``room`` (at least a character),
    and the rest."""
    head: list[Run] = []
    used = 0.0
    for i, (text, font) in enumerate(word):
        width = pdfmetrics.stringWidth(text, font, size)
        if used + width <= room:
            _add(head, [(text, font)])
            used += width
            continue
        cut = _longest_start(text, font, size, room - used) or (0 if head else 1)
        _add(head, [(text[:cut], font)] if cut else [])
        return head, [(text[cut:], font), *word[i + 1:]] if text[cut:] else list(word[i + 1:])
    return head, []


def _longest_start(text: str, font: str, size: float, room: float) -> int:
    """How many of ``text``'s first characters fit in ``room`` (0 if not one does)."""
    low, high = 0, len(text)
    while low < high:
        mid = (low + high + 1) // 2
        low, high = (mid, high) if pdfmetrics.stringWidth(text[:mid], font, size) <= room else (low, mid - 1)
    return low
