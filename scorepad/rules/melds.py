"""Whether one meld is legal under a sheet, as :class:`~.problems.Problem` values: its rank,
its size, its wild cards (a second meld of a rank begun too soon is the verdict's, read from
each meld's record, :mod:`.compiled`). Shared by the deal's verdict (:mod:`.validate`) and the
referee's "is this meld legal?" (:mod:`.referee`).
"""

from __future__ import annotations

from collections.abc import Iterator

from .cards import Rank
from .choices import BookGrowth, SpecialWilds, WildRatio
from .deal import Meld
from .problems import Problem
from .sheet import RuleSheet


def meld_problems(sheet: RuleSheet, meld: Meld, where: str = "") -> Iterator[Problem]:
    """Problems with one meld on its own (not counting other melds of its rank).

    >>> from scorepad.rules import preset
    >>> [p.code for p in meld_problems(preset("pagat"), Meld(Rank.KING, 3, 2))]
    ['meld.wild_ratio']
    >>> list(meld_problems(preset("pagat"), Meld(Rank.KING, 2, 1)))
    []
    """
    rank, naturals, wilds = meld.rank, meld.naturals, meld.twos + meld.jokers
    size = naturals + wilds
    if meld.naturals < 0 or meld.twos < 0 or meld.jokers < 0:
        yield Problem("count.negative", "A meld cannot hold a negative number of cards.", None, where)
        return
    stop, first = _rank_problems(sheet, meld, where)
    yield from first
    if stop:
        return
    if rank is Rank.WILD:
        if not sheet.wild_books:
            yield Problem("meld.rank", "This sheet does not allow a meld of wild cards only.", "wild_books", where)
            return
        if naturals:
            yield Problem("meld.rank", f"A wild meld holds only 2s and jokers, but this one has {naturals} "
                          "natural cards: record them as a meld of their own rank.", "wild_books", where)
    if size < sheet.meld_min:
        yield Problem("meld.size", f"A meld needs at least {sheet.meld_min} cards; this one has {size}.",
                      "meld_min", where)
    elif size > sheet.book_size:
        yield from growth_problems(sheet, meld, where)
    if rank is not Rank.WILD:
        yield from wild_limit_problems(sheet, rank, naturals, wilds, where)


def growth_problems(sheet: RuleSheet, meld: Meld, where: str = "") -> Iterator[Problem]:
    """A meld past the book size, judged by the rule of the kind it is now (``book_growth``): a
    clean one by the clean books' rule; a dirty one (a clean book that took a wild card is one)
    or a wild one by the dirty books' rule.

    >>> from scorepad.rules import preset
    >>> from scorepad.rules.choices import GrowthByKind
    >>> roth = preset("common").replace(book_growth=GrowthByKind(BookGrowth.NATURALS, BookGrowth.CLOSED))
    >>> [p.option for p in growth_problems(roth, Meld(Rank.KING, 8))]  # eight kings: a clean book grows
    []
    >>> [p.option for p in growth_problems(roth, Meld(Rank.KING, 7, 1))]  # dirty: closed at seven
    ['book_growth']
    """
    size, book, wilds = meld.size, sheet.book_size, meld.wilds
    wild_book = meld.rank is Rank.WILD
    dirty = bool(wilds) or wild_book
    growth = sheet.growth(dirty)
    kind = "" if isinstance(sheet.book_growth, BookGrowth) else \
        "wild " if wild_book else "dirty " if dirty else "clean "
    if growth is BookGrowth.CLOSED:
        yield Problem("meld.size", f"A {kind}book is complete at {book} cards and takes no more; "
                      f"this one has {size}.", "book_growth", where)
    elif growth is BookGrowth.NATURALS and wild_book:
        said = "a dirty or wild book grows" if kind else "a book may grow"
        yield Problem("meld.size", f"{said.capitalize()} past {book} cards with natural cards only, so a wild book "
                      f"stays at {book}; this one has {size}.", "book_growth", where)
    elif growth is BookGrowth.NATURALS and wilds > (most := most_wilds_in_book(sheet)):
        yield Problem("meld.size", f"A {kind}book may grow past {book} cards with natural cards only, so "
                      f"it holds no more wild cards than a legal book of {book}: at most {most}; "
                      f"this one has {size} cards, {wilds} of them wild.", "book_growth", where)


def _rank_problems(sheet: RuleSheet, meld: Meld, where: str) -> tuple[bool, list[Problem]]:
    """What the sheet says of melds of this rank alone: threes (whether nothing more is worth
    saying of the meld), and a special rank's wild cards."""
    rank = meld.rank
    if rank.is_threes:
        threes = list(_threes_problems(sheet, meld, where))
        return bool(threes), threes
    if meld.wilds and sheet.special_book_wilds is SpecialWilds.NEVER and rank is not Rank.WILD \
            and sheet.special_bonus(rank.card) is not None:
        return False, [Problem("meld.wild_ratio", f"On this sheet a meld of {rank.noun} (a special book) never "
                               f"holds wild cards; this one has {meld.wilds}.", "special_book_wilds", where)]
    return False, []


def _threes_problems(sheet: RuleSheet, meld: Meld, where: str) -> Iterator[Problem]:
    """A meld of threes: legal only as red or black threes that the sheet's ``three_books``
    names, and never with a wild card."""
    allowed = sheet.three_bonus(meld.rank.card) if meld.rank is not Rank.THREE else None
    if allowed is None and not sheet.three_books:
        yield Problem("meld.rank", "Threes are never melded: red threes are laid apart as bonus cards, "
                      "black threes are only discarded.", None, where)
    elif allowed is None:
        named = " and ".join(card.noun for card, _ in sheet.three_books)
        yield Problem("meld.rank", f"This sheet books {named} only, each colour in a meld of its own; this meld is "
                      f"{meld.rank.noun}.", "three_books", where)
    elif meld.wilds:
        yield Problem("meld.wild_ratio", f"A meld of {meld.rank.noun} never holds wild cards; this one has "
                      f"{meld.wilds}.", "three_books", where)


def most_wilds_in_book(sheet: RuleSheet) -> int:
    """The most wild cards a legal book of the sheet's book size holds, naturals making up the rest.

    A book that grows with natural cards only never holds more: its wild cards were all
    in it when it was a book.

    >>> from scorepad.rules import preset
    >>> [most_wilds_in_book(preset(p)) for p in ("common", "pagat", "bicycle", "gather-together")]
    [3, 2, 3, 3]
    """
    return max(w for w in range(sheet.book_size)
               if not any(wild_limit_problems(sheet, Rank.KING, sheet.book_size - w, w)))


def wild_limit_problems(sheet: RuleSheet, rank: Rank, naturals: int, wilds: int,
                         where: str = "") -> Iterator[Problem]:
    """A meld of a natural rank against the sheet's limits on wild cards."""
    if not wilds:
        return
    if naturals == 0:
        yield Problem("meld.wild_ratio", f"A meld of {rank.noun} needs natural {rank.noun}; this one is "
                      "all wild cards.", "wild_ratio", where)
        return
    ratio = sheet.wild_ratio
    if ratio is WildRatio.TWICE and naturals < 2 * wilds:
        yield Problem("meld.wild_ratio", f"This sheet needs at least twice as many natural cards as wild "
                      f"cards; this meld has {naturals} naturals and {wilds} wild.", "wild_ratio", where)
    elif ratio is WildRatio.MORE and naturals <= wilds:
        yield Problem("meld.wild_ratio", f"This sheet needs more natural cards than wild cards; this meld "
                      f"has {naturals} naturals and {wilds} wild.", "wild_ratio", where)
    elif ratio is WildRatio.AT_LEAST and naturals < wilds:
        yield Problem("meld.wild_ratio", f"On this sheet wild cards may never outnumber natural cards; this "
                      f"meld has {naturals} naturals and {wilds} wild.", "wild_ratio", where)
    if sheet.max_wilds is not None and wilds > sheet.max_wilds:
        yield Problem("meld.wild_ratio", f"A meld may hold at most {sheet.max_wilds} wild cards; this one "
                      f"has {wilds}.", "max_wilds", where)
    if naturals < sheet.min_naturals_with_wilds:
        yield Problem("meld.wild_ratio", f"A meld with wild cards needs at least {sheet.min_naturals_with_wilds} "
                      f"natural cards; this one has {naturals}.", "min_naturals_with_wilds", where)
