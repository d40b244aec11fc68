"""A rule sheet compiled for judging: what the referee works out once for each (frozen) sheet
instead of once for every deal it judges.

:func:`compiled` gives the :class:`Compiled` sheet, made on first use and kept by the sheet's
identity (hashing a whole sheet costs more than judging a deal with it). It answers, each
once per sheet and then from memory: a meld's own problems (:func:`~.melds.meld_problems`;
a stored deal repeats a few kinds of meld over and over), what a side's books count toward
going out (:func:`~.books.books_toward`) and the opening minimum of a deal and running total.
Every answer is an immutable value, so sharing it between deals changes nothing they say.
"""

from __future__ import annotations

from typing import TypeVar

from .books import HeldBooks, books_short, books_toward
from .choices import Books, SecondMeld
from .deal import Meld
from .melds import meld_problems
from .problems import Problem
from .sheet import RuleSheet

_MAX_KEPT = 512  # answers kept per sheet and kind (kinds of meld seen, most often); past that worked out afresh


class Compiled:
    """One sheet's answers, worked out on first use and kept (each kind bounded by ``_MAX_KEPT``)."""

    __slots__ = ("sheet", "melds", "_toward", "_minimums", "second_meld_limited")

    def __init__(self, sheet: RuleSheet) -> None:
        self.sheet = sheet
        # Each kind of meld's own problems, as :meth:`meld_problems` gives them: read directly by
        # the referee's loop over melds, which asks this method only for a kind not seen yet.
        self.melds: dict[Meld, tuple[Problem, ...]] = {}
        # Checks the sheet says cannot fire, decided once: a second unfinished meld of a rank.
        self.second_meld_limited = sheet.second_meld is not SecondMeld.ANYTIME
        self._toward: dict[tuple[Books, HeldBooks], tuple[Books, bool]] = {}
        self._minimums: dict[tuple[int, int], int] = {}

    def meld_problems(self, meld: Meld) -> tuple[Problem, ...]:
        """The meld's problems on its own (:func:`~.melds.meld_problems`, no place given)."""
        found = self.melds.get(meld)
        if found is None:
            found = _keep(self.melds, meld, tuple(meld_problems(self.sheet, meld)))
        return found

    def books_toward(self, need: Books, held: HeldBooks) -> tuple[Books, bool]:
        """What ``held`` counts as toward ``need`` (:func:`~.books.books_toward`), and whether
        any book is still missing (:func:`~.books.books_short`)."""
        key = (need, held)
        found = self._toward.get(key)
        if found is None:
            toward = books_toward(self.sheet, need, held)
            found = _keep(self._toward, key, (toward, books_short(need, toward) != Books()))
        return found

    def opening_minimum(self, deal: int, running_total: int) -> int:
        """:meth:`~.sheet.RuleSheet.opening_minimum`."""
        key = (deal, running_total)
        found = self._minimums.get(key)
        if found is None:
            found = _keep(self._minimums, key, self.sheet.opening_minimum(deal, running_total))
        return found


K = TypeVar("K")
V = TypeVar("V")


def _keep(kept: dict[K, V], key: K, value: V) -> V:
    if len(kept) >= _MAX_KEPT:
        kept.clear()
    kept[key] = value
    return value


def compiled(sheet: RuleSheet) -> Compiled:
    """The sheet compiled for judging: made once and kept (by the sheet's identity)."""
    kept = _COMPILED.get(id(sheet))
    if kept is not None and kept.sheet is sheet:
        return kept
    if len(_COMPILED) >= _MAX_SHEETS:
        _COMPILED.clear()
    made = _COMPILED[id(sheet)] = Compiled(sheet)
    return made


_COMPILED: dict[int, Compiled] = {}
_MAX_SHEETS = 256  # sheets kept at once (each held, so no other sheet takes its id); past that made afresh
