"""Counting books: the books a side holds by kind (:class:`HeldBooks`, itemised melds or
counted books), what they count for toward the books needed to go out (:func:`books_toward`,
special and wild books as the sheet's ``special_books_count_as`` and ``wild_books_count_as``
say), what is still missing, and the fewest card points counted books can hold.

Read by the deal's verdict (:mod:`.validate`), the referee's "may we go out?"
(:mod:`.referee`) and the deal form's progress (:mod:`.progress`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from math import gcd
from typing import NamedTuple

from .cards import CARDS, NATURALS, WILDS, Card, Rank
from .choices import Books, CountAs, book_of, rank_words
from .deal import BookCounts, BookKind, Meld, Side
from .melds import wild_limit_problems
from .problems import Problem
from .sheet import RuleSheet


class HeldBooks(NamedTuple):
    """A side's books as going out counts them: ``special`` and ``special_dirty`` are clean and
    dirty books of a special rank (named in ``special_books``, or threes ``three_books``
    allows), not also in ``clean`` or ``dirty``; ``threes`` how many of ``special`` are books of
    threes, and ``ranks`` the special books by rank, (rank, clean, dirty), where they are known
    (melds, or counts by rank).

    >>> str(HeldBooks(2, 1, 0, special=1))
    '2 clean, 1 dirty, 0 wild, 1 special'
    """

    clean: int = 0
    dirty: int = 0
    wild: int = 0
    special: int = 0
    special_dirty: int = 0
    threes: int = 0
    ranks: tuple[tuple[Card, int, int], ...] = ()

    def __str__(self) -> str:
        extra = [f"{n} {kind}" for kind, n in (("special", self.special), ("dirty special", self.special_dirty)) if n]
        return ", ".join([f"{self.clean} clean", f"{self.dirty} dirty", f"{self.wild} wild", *extra])

    def of_rank(self, card: Card) -> tuple[int, int]:
        """Clean and dirty books of this special rank."""
        return next(((clean, dirty) for rank, clean, dirty in self.ranks if rank is card), (0, 0))


def held_by_rank(clean: int, dirty: int, wild: int, ranks: dict[Card, list[int]]) -> HeldBooks:
    """Books by kind, with special books by rank (rank -> [clean, dirty]) added up."""
    if not ranks:  # most sides: no special book
        return HeldBooks(clean, dirty, wild)
    order = sorted(ranks, key=CARDS.index)
    return HeldBooks(clean, dirty, wild, sum(ranks[c][0] for c in order), sum(ranks[c][1] for c in order),
                     sum(ranks[c][0] for c in order if c in _THREE_CARDS),
                     tuple((c, ranks[c][0], ranks[c][1]) for c in order))


_THREE_CARDS = (Card.RED_THREE, Card.BLACK_THREE)
# Looked up once for books_held, meld by meld (enum attributes are slow).
_THREE, _WILD, _DIRTY, _CLEAN = Rank.THREE, BookKind.WILD, BookKind.DIRTY, BookKind.CLEAN


def books_held(sheet: RuleSheet, melds: Sequence[Meld]) -> HeldBooks:
    """The books these melds include, by kind (a meld of threes the sheet does not book is none)."""
    clean = dirty = wild = 0
    ranks: dict[Card, list[int]] = {}
    book_size = sheet.book_size
    for meld in melds:
        if meld.naturals + meld.twos + meld.jokers < book_size:  # most melds: no book, as book_kind says
            continue
        kind = meld.book_kind(sheet)
        rank = meld.rank
        if kind is None or rank is _THREE or rank.is_threes and sheet.three_bonus(rank.card) is None:
            continue
        if kind is _WILD:
            wild += 1
        elif sheet.is_special_rank(rank.card):
            ranks.setdefault(rank.card, [0, 0])[kind is _DIRTY] += 1
        elif kind is _CLEAN:
            clean += 1
        else:
            dirty += 1
    return held_by_rank(clean, dirty, wild, ranks)


def side_books(sheet: RuleSheet, side: Side) -> HeldBooks:
    """The books a side holds, itemised or counted (a counted special book of a rank the sheet
    does not name is an ordinary book, as an itemised one is)."""
    books = side.books
    if books is None:
        return books_held(sheet, side.melds)
    clean, dirty = books.clean, books.dirty
    ranks: dict[Card, list[int]] = {}
    for dirty_ones, counts in ((0, (*books.special, *books.threes)), (1, books.special_dirty)):
        for rank, n in counts:
            if sheet.is_special_rank(rank.card):
                ranks.setdefault(rank.card, [0, 0])[dirty_ones] += n
            elif dirty_ones:
                dirty += n
            else:
                clean += n
    return held_by_rank(clean, dirty, books.wild + books.wild_mixed, ranks)


def books_toward(sheet: RuleSheet, need: Books, held: HeldBooks) -> Books:
    """What ``held`` counts as against ``need``, the books needed to go out; each book counts once.

    Books asked for by rank (``need.named``) are filled first, each only by books of its rank:
    clean ones, or dirty ones where ``special_books_dirty`` prices them. Then wild and special
    books fill a ``wild`` and ``special`` requirement (a number of special books: of ranks
    ``special_books`` names; a book of threes only on a sheet whose ``special_books`` names
    none, where the number can mean nothing else); the rest count as the sheet's
    ``wild_books_count_as`` and ``special_books_count_as`` say ('none': only where asked for by
    name). A dirty special book never counts as clean: past a ``special`` requirement it counts
    as dirty (unless special books count as none). Dirty special books fill a requirement first
    when that leaves the side short of less.

    >>> from scorepad.rules import preset
    >>> sheet = preset("common").replace(special_books=((Card.SEVEN, 1000),), special_books_count_as=CountAs.DIRTY)
    >>> books_toward(sheet, Books(clean=1, dirty=1), HeldBooks(clean=1, special=1))
    Books(clean=1, dirty=1, wild=0, special=0, named=())
    """
    wild_left = max(held.wild - need.wild, 0)
    named: list[tuple[Card, int]] = []
    lo = hi = filled_named = threes_named = 0  # lo..hi: how many dirty books may fill the named ones
    for card, n in need.named:
        clean, dirty = held.of_rank(card)
        if sheet.special_dirty_bonus(card) is None:
            dirty = 0  # a dirty book of this rank scores as any dirty book: not a book of the rank
        filled = min(n, clean + dirty)
        named.append((card, filled))
        lo, hi, filled_named = lo + max(filled - clean, 0), hi + min(dirty, filled), filled_named + filled
        threes_named += filled if card in _THREE_CARDS else 0
    spare_threes = max(held.threes - threes_named, 0) if sheet.special_books else 0
    best: tuple[int, Books] | None = None
    for named_dirty in range(lo, hi + 1):
        special_clean, special_dirty = held.special - (filled_named - named_dirty), held.special_dirty - named_dirty
        for used_dirty in range(min(max(special_dirty, 0), need.special) + 1):
            used_clean = min(max(special_clean - spare_threes, 0), need.special - used_dirty)
            toward = _counted_as(sheet, held, wild_left, special_clean - used_clean, special_dirty - used_dirty,
                                 used_clean + used_dirty, tuple(named))
            missing = books_short(need, toward)
            short = missing.clean + missing.dirty + missing.wild + missing.special + sum(n for _, n in missing.named)
            if best is None or short < best[0]:
                best = (short, toward)
    assert best is not None
    return best[1]


def _counted_as(sheet: RuleSheet, held: HeldBooks, wild_left: int, clean_left: int, dirty_left: int, special: int,
                named: tuple[tuple[Card, int], ...]) -> Books:
    """The books toward going out once the requirements by rank and of special books are filled:
    the special and wild books left over counted as the sheet says."""
    clean, dirty, wild = held.clean, held.dirty, held.wild - wild_left
    special_as, wild_as = sheet.special_books_count_as, sheet.wild_books_count_as
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
    return Books(clean, dirty, wild, special, named)


def books_short(need: Books, toward: Books) -> Books:
    """The books still missing, by kind, once :func:`books_toward` has counted a side's books.

    >>> books_short(Books(clean=2, dirty=1), Books(clean=1, dirty=3))
    Books(clean=1, dirty=0, wild=0, special=0, named=())
    """
    named = tuple((card, n - toward.named_count(card)) for card, n in need.named if n > toward.named_count(card))
    return Books(max(need.clean - toward.clean, 0), max(need.dirty - toward.dirty, 0),
                 max(need.wild - toward.wild, 0), max(need.special - toward.special, 0), named)


def missing_by_rank(need: Books, toward: Books) -> str:
    """The books asked for by rank still missing, in words: "no book of fives", "1 of 2 books of sevens"."""
    said = []
    for card, n in need.named:
        has = toward.named_count(card)
        if has < n:
            said.append(f"no book of {rank_words(card)}" if n == 1 else f"{has} of {book_of(card, n)}")
    return ", ".join(said)


def by_rank_progress(need: Books, toward: Books) -> str:
    """Each book asked for by rank, held/needed: "sevens 1/1, fives 0/1"."""
    return ", ".join(f"{rank_words(card)} {toward.named_count(card)}/{n}" for card, n in need.named if n)


def books_per_rank_problems(sheet: RuleSheet, side: Side, where: str) -> Iterator[Problem]:
    """More books of one rank than ``max_books_per_rank`` allows a side: itemised, on the first meld
    past the limit; counted, on the count by rank (books counted as plain clean or dirty give no rank)."""
    most = sheet.max_books_per_rank
    if most is None:
        return
    if side.books is None:
        seen: dict[Rank, int] = {}
        for index, meld in enumerate(side.melds):
            if meld.rank is Rank.WILD or meld.book_kind(sheet) is None:
                continue
            seen[meld.rank] = seen.get(meld.rank, 0) + 1
            if seen[meld.rank] == most + 1:
                n = sum(1 for m in side.melds if m.rank is meld.rank and m.book_kind(sheet) is not None)
                yield _too_many(sheet, side.name, meld.rank.card, n, f"{where}.melds[{index}]", index)
        return
    counts: dict[Card, list[tuple[str, int]]] = {}
    for key, ranks in (("special", side.books.special), ("special_dirty", side.books.special_dirty),
                       ("threes", side.books.threes)):
        for rank, n in ranks:
            counts.setdefault(rank.card, []).append((key, n))
    for card, given in counts.items():
        n = sum(count for _, count in given)
        if n > most:
            yield _too_many(sheet, side.name, card, n, f"{where}.books.{given[0][0]}.{card.value}", None)


def _too_many(sheet: RuleSheet, side: str, card: Card, n: int, here: str, meld: int | None) -> Problem:
    return Problem("meld.books_per_rank", f"{side} has {book_of(card, n)}; a side may make at most "
                   f"{sheet.max_books_per_rank} of a rank.", "max_books_per_rank", here, side, None, meld,
                   "melds" if meld is not None else "books")


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
