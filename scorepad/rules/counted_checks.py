"""What the referee checks of a counted side (books by kind and melded points, see
:class:`~.deal.BookCounts`), as far as counts allow: no negative count, books only of kinds the
sheet has, melded points its books could hold (:func:`~.books.cheapest_books`), and the
books, points and cards a deal counts against what the pack holds. Read by :mod:`.validate`.
"""

from __future__ import annotations

from collections.abc import Iterator

from .books import cheapest_books, meld_points_step
from .cards import CARDS, NATURALS, Card, Cards, Rank
from .choices import SpecialWilds
from .deal import BookCounts, Deal, Side
from .melds import most_wilds_in_book
from .problems import Problem
from .sheet import RuleSheet

_INDEX = {card: i for i, card in enumerate(CARDS)}
_TWO, _JOKER = _INDEX[Card.TWO], _INDEX[Card.JOKER]


def check_counted(sheet: RuleSheet, side: Side, books: BookCounts, where: str, found: list[Problem],
                   warnings: list[Problem]) -> None:
    """A counted side: no negative count, wild books only where the sheet allows them, and
    melded points its books could hold; then the warning that its melds go unchecked."""
    name, here = side.name, f"{where}.books"
    counts = [("clean", books.clean), ("dirty", books.dirty), ("wild", books.wild), ("wild_mixed", books.wild_mixed)]
    counts += [(f"{key}.{rank.value}", n) for key, ranks in (("special", books.special),
               ("special_dirty", books.special_dirty), ("threes", books.threes)) for rank, n in ranks]
    for key, n in counts:
        if n < 0:
            found.append(Problem("count.negative", f"{name}'s {key.split('.')[-1]} books cannot be "
                                 "negative.", None, f"{here}.{key}", name, field="books"))
    found.extend(_counted_special(sheet, side, books, here))
    if side.meld_points < 0:
        found.append(Problem("count.negative", f"{name}'s melded points cannot be negative.", None,
                             f"{where}.meld_points", name, field="meld_points"))
    elif (books.wild > 0 or books.wild_mixed > 0) and not sheet.wild_books:
        found.append(Problem("meld.rank", "This sheet does not allow a meld of wild cards only, so no wild book.",
                             "wild_books", f"{here}.{'wild' if books.wild > 0 else 'wild_mixed'}", name,
                             field="books"))
    else:
        _check_meld_points(sheet, side, books, where, found)
    warnings.append(Problem("counted.unchecked", f"The melds of {name} are counted, not listed, so the referee "
                            "cannot check each meld (its size and wild cards).", None, here, name, field="books"))


def _counted_special(sheet: RuleSheet, side: Side, books: BookCounts, here: str) -> Iterator[Problem]:
    """Counted books of threes the sheet does not book, and dirty special books where a special
    book never holds wild cards."""
    for rank, n in books.threes:
        if n > 0 and sheet.three_bonus(rank.card) is None:
            yield Problem("meld.rank", f"This sheet has no books of {rank.noun}." if sheet.three_books else
                          "Threes are never melded on this sheet, so there is no book of threes.",
                          "three_books" if sheet.three_books else None, f"{here}.threes.{rank.value}", side.name,
                          field="books")
    if sheet.special_book_wilds is SpecialWilds.NEVER:
        for rank, n in books.special_dirty:
            if n > 0 and sheet.special_bonus(rank.card) is not None:
                yield Problem("meld.wild_ratio", f"On this sheet a book of {rank.noun} (a special book) never holds "
                              "wild cards, so there is no dirty one.", "special_book_wilds",
                              f"{here}.special_dirty.{rank.value}", side.name, field="books")


def _check_meld_points(sheet: RuleSheet, side: Side, books: BookCounts, where: str, found: list[Problem]) -> None:
    """Melded points at least the cheapest its books can hold, and a sum card values can make."""
    points, least, step = side.meld_points, cheapest_books(sheet, books), meld_points_step(sheet)
    if points < least:
        found.append(Problem("counted.meld_points", f"{side.name}'s books hold at least {least:,} card points "
                             f"on this sheet ({sheet.book_size} cards a book, at the cheapest card values), "
                             f"but the melded points say {points:,}.", "card_values", f"{where}.meld_points",
                             side.name, field="meld_points"))
    elif step > 1 and points % step:
        found.append(Problem("counted.meld_points", f"Every meldable card is worth a multiple of {step} points, "
                             f"so melded points are too; {points:,} is not.", "card_values",
                             f"{where}.meld_points", side.name, field="meld_points"))


def counted_supply(deal: Deal, available: Cards, used: Cards, decks: int) -> Iterator[Problem]:
    """Counted books and points the pack cannot hold, beside the cards the deal lists one by one."""
    sheet = deal.sheet
    size, most = sheet.book_size, most_wilds_in_book(sheet)
    packs = f"{decks} deck{'s' if decks != 1 else ''}"
    spare = [have - need for have, need in zip(available.counts(), used.counts(), strict=True)]
    naturals = sum(spare[_INDEX[card]] for card in NATURALS)
    wilds = spare[_TWO] + spare[_JOKER]
    need_naturals = need_wilds = books = 0
    special: dict[Rank, int] = {}
    for side in deal.sides:
        if side.books is None:
            continue
        counted = side.books
        clean, dirty = max(counted.clean, 0), max(counted.dirty, 0)
        wild = max(counted.wild, 0) + max(counted.wild_mixed, 0)
        for rank, n in counted.special:
            special[rank] = special.get(rank, 0) + max(n, 0)
            clean += max(n, 0)
        dirty += sum(max(n, 0) for _, n in counted.special_dirty)
        for rank, n in counted.threes:  # threes are no natural cards: only their own count
            special[rank] = special.get(rank, 0) + max(n, 0)
        need_naturals += clean * size + dirty * (size - most)
        need_wilds += wild * size + dirty
        books += clean + dirty + wild
    for rank, n in special.items():
        if n * size > spare[_INDEX[rank.card]]:
            yield Problem("supply", f"This deal counts {n} {'' if rank.is_threes else 'special '}book"
                          f"{'s' if n != 1 else ''} of {rank.noun}, "
                          f"{n * size} cards, but {packs} hold only {max(spare[_INDEX[rank.card]], 0)} more "
                          f"{rank.noun}.", "decks_rule", "sides")
    if need_naturals > naturals or need_wilds > wilds or books * size > naturals + wilds:
        yield Problem("supply", f"This deal counts {books} books, at least {need_naturals} natural and "
                      f"{need_wilds} wild cards, but {packs} hold only {max(naturals, 0)} natural and "
                      f"{max(wilds, 0)} wild cards more.", "decks_rule", "sides")
    values = sheet.card_values.points
    held = sum(n * v for n, v in zip(available.counts(), values, strict=True))
    counted_points = sum(max(side.meld_points, 0) for side in deal.sides)
    counted_points += sum(max(p.cards_left_points or 0, 0) for _, _, p in deal.players())
    listed = sum(n * v for n, v in zip(used.counts(), values, strict=True))
    if counted_points + listed > held:
        yield Problem("supply", f"This deal counts {counted_points + listed:,} card points, but {packs} hold only "
                      f"{held:,}.", "card_values", "sides")
