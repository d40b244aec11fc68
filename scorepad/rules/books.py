"""Counting books: the books a side holds by kind (:class:`HeldBooks`, itemised melds or
counted books), what they count for toward the books needed to go out (:func:`books_toward`,
special and wild books as the sheet's ``special_books_count_as`` and ``wild_books_count_as``
say), what is still missing, and the fewest card points counted books can hold.

Read by the deal's verdict (:mod:`.validate`), the referee's "may we go out?"
(:mod:`.referee`) and the deal form's progress (:mod:`.progress`).
"""

from __future__ import annotations

from collections.abc import Sequence
from math import gcd
from typing import NamedTuple

from .cards import NATURALS, WILDS, Card, Rank  # noqa: F401 (the doctests use Card)
from .choices import Books, CountAs
from .deal import BookCounts, BookKind, Meld, Side
from .melds import wild_limit_problems
from .sheet import RuleSheet


class HeldBooks(NamedTuple):
    """A side's books as going out counts them: ``special`` and ``special_dirty`` are clean and
    dirty books of a special rank (named in ``special_books``, or threes ``three_books``
    allows), not also in ``clean`` or ``dirty``.

    >>> str(HeldBooks(2, 1, 0, special=1))
    '2 clean, 1 dirty, 0 wild, 1 special'
    """

    clean: int = 0
    dirty: int = 0
    wild: int = 0
    special: int = 0
    special_dirty: int = 0

    def __str__(self) -> str:
        extra = [f"{n} {kind}" for kind, n in (("special", self.special), ("dirty special", self.special_dirty)) if n]
        return ", ".join([f"{self.clean} clean", f"{self.dirty} dirty", f"{self.wild} wild", *extra])


def books_held(sheet: RuleSheet, melds: Sequence[Meld]) -> HeldBooks:
    """The books these melds include, by kind (a meld of threes the sheet does not book is none)."""
    clean = dirty = wild = special = special_dirty = 0
    for meld in melds:
        kind = meld.book_kind(sheet)
        rank = meld.rank
        if kind is None or rank is Rank.THREE or rank.is_threes and sheet.three_bonus(rank.card) is None:
            continue
        if kind is BookKind.WILD:
            wild += 1
        elif sheet.is_special_rank(rank.card):
            special += kind is BookKind.CLEAN
            special_dirty += kind is BookKind.DIRTY
        elif kind is BookKind.CLEAN:
            clean += 1
        else:
            dirty += 1
    return HeldBooks(clean, dirty, wild, special, special_dirty)


def side_books(sheet: RuleSheet, side: Side) -> HeldBooks:
    """The books a side holds, itemised or counted (a counted special book of a rank the sheet
    does not name is an ordinary book, as an itemised one is)."""
    books = side.books
    if books is None:
        return books_held(sheet, side.melds)
    clean, dirty, special, special_dirty = books.clean, books.dirty, 0, 0
    for rank, n in (*books.special, *books.threes):
        if sheet.is_special_rank(rank.card):
            special += n
        else:
            clean += n
    for rank, n in books.special_dirty:
        if sheet.is_special_rank(rank.card):
            special_dirty += n
        else:
            dirty += n
    return HeldBooks(clean, dirty, books.wild + books.wild_mixed, special, special_dirty)


def books_toward(sheet: RuleSheet, need: Books, held: HeldBooks) -> Books:
    """What ``held`` counts as against ``need``, the books needed to go out; each book counts once.

    Wild and special books fill a ``wild`` and ``special`` requirement first; the rest count as
    the sheet's ``wild_books_count_as`` and ``special_books_count_as`` say ('none': only where
    asked for by name). A dirty special book never counts as clean: past a ``special``
    requirement it counts as dirty (unless special books count as none). Dirty special books
    fill the ``special`` requirement first when that leaves the side short of less.

    >>> from scorepad.rules import preset
    >>> sheet = preset("common").replace(special_books=((Card.SEVEN, 1000),), special_books_count_as=CountAs.DIRTY)
    >>> books_toward(sheet, Books(clean=1, dirty=1), HeldBooks(clean=1, special=1))
    Books(clean=1, dirty=1, wild=0, special=0)
    """
    wild_left = max(held.wild - need.wild, 0)
    wild_as = sheet.wild_books_count_as
    best: tuple[int, Books] | None = None
    for used_dirty in range(min(max(held.special_dirty, 0), need.special) + 1):
        used_clean = min(max(held.special, 0), need.special - used_dirty)
        clean_left, dirty_left = held.special - used_clean, held.special_dirty - used_dirty
        clean, dirty, special, wild = held.clean, held.dirty, used_clean + used_dirty, held.wild - wild_left
        special_as = sheet.special_books_count_as
        if special_as is CountAs.CLEAN:
            clean, dirty = clean + clean_left, dirty + dirty_left
        elif special_as is CountAs.DIRTY:
            dirty += clean_left + dirty_left
        else:
            special += clean_left + dirty_left
        if wild_as is CountAs.CLEAN:
            clean += wild_left
        elif wild_as is CountAs.DIRTY:
            dirty += wild_left
        else:
            wild += wild_left
        toward = Books(clean, dirty, wild, special)
        missing = books_short(need, toward)
        short = missing.clean + missing.dirty + missing.wild + missing.special
        if best is None or short < best[0]:
            best = (short, toward)
    assert best is not None
    return best[1]


def books_short(need: Books, toward: Books) -> Books:
    """The books still missing, by kind, once :func:`books_toward` has counted a side's books.

    >>> books_short(Books(clean=2, dirty=1), Books(clean=1, dirty=3))
    Books(clean=1, dirty=0, wild=0, special=0)
    """
    return Books(max(need.clean - toward.clean, 0), max(need.dirty - toward.dirty, 0),
                 max(need.wild - toward.wild, 0), max(need.special - toward.special, 0))


def cheapest_books(sheet: RuleSheet, books: BookCounts) -> int:
    """The fewest card points these books can hold under the sheet: each book has
    ``book_size`` cards; a clean book the cheapest natural rank's, a special book its own
    rank's, a dirty book the cheapest mix of naturals and wild cards the wild limit allows
    (at least one wild), a wild book the cheapest wild cards (a mixed one, ``wild_mixed``, at
    least one of each kind).

    >>> from scorepad.rules import preset
    >>> cheapest_books(preset("common"), BookCounts(clean=3, dirty=2))  # 3 × 7 × 5 + 2 × (6 × 5 + 20)
    205
    """
    size, values = sheet.book_size, sheet.card_values
    natural = min(values[card] for card in NATURALS)
    wild = min(values[card] for card in WILDS)
    dirty = min(((size - w) * natural + w * wild for w in range(1, size)
                 if not any(wild_limit_problems(sheet, Rank.KING, size - w, w))),
                default=(size - 1) * natural + wild)
    special = sum(max(n, 0) * size * values[rank.card] for rank, n in (*books.special, *books.threes))
    dirty_books = max(books.dirty, 0) + sum(max(n, 0) for _, n in books.special_dirty)
    mixed = (size - 1) * wild + max(values[card] for card in WILDS)  # one 2 and one joker at the least
    return (max(books.clean, 0) * size * natural + special + dirty_books * dirty
            + max(books.wild, 0) * size * wild + max(books.wild_mixed, 0) * mixed)


def meld_points_step(sheet: RuleSheet) -> int:
    """The greatest common divisor of the meldable cards' values: every melded total is a
    multiple of it (0 when every such card is worth nothing).

    >>> from scorepad.rules import preset
    >>> meld_points_step(preset("common"))  # gcd(20, 10, 5, 20, 50)
    5
    """
    return gcd(*(sheet.card_values[card] for card in (*NATURALS, *WILDS)))
