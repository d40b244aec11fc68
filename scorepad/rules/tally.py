"""What one side brought to the end of a deal, counted once for all its score lines
(:class:`Tally`): its melded cards, its books by kind (under the sheet's caps), who of it went
out and laid down first, and whether its red threes still held cost their penalty. The table
of lines (:mod:`.lines`) counts each line from it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NamedTuple

from .cards import CARDS, Card, Rank
from .choices import FootWhen
from .compiled import (
    CLEAN_BOOK,
    DIRTY_BOOK,
    MIXED_WILD_BOOK,
    SPECIAL_BOOK,
    THREES_BOOK,
    WILD_BOOK,
    MeldRecord,
    compiled,
)
from .deal import BookKind, Deal, Ending, Side
from .sheet import RuleSheet

Item = tuple[str, int, int]  # one itemised line: label, count, points each


class Tally(NamedTuple):
    """What one side brought to the end of a deal, counted once for all its lines (a
    player's own lines read the :class:`~.deal.Player` beside it)."""

    sheet: RuleSheet
    deal: int  # the deal's number
    side: Side
    melded: list[int]  # cards melded, by place in CARDS
    clean_books: int  # books of each kind, special books left out
    dirty_books: int
    wild_books: int
    special: dict[Card, int]  # clean books of a rank the sheet names a bonus for, by rank
    went_out: str | None  # the name of the side's player who went out, if one did
    special_dirty: dict[Card, int]  # dirty books of a rank special_books_dirty prices, by rank
    threes: dict[Card, int]  # books of threes three_books prices, by card (3R, 3B)
    buried: bool  # whether a red three in an unopened foot costs its penalty (red_three_penalty_foot_when)
    wild_mixed: int  # wild books mixing 2s and jokers, where wild_book_mixed_bonus prices them (not in wild_books)
    first_meld: str | None  # the name of the side's player who laid down first, if the deal says one did
    caught: bool  # whether a red three in a hand costs its penalty (red_three_penalty_hand_when)
    capped: tuple[tuple[str, int, int], ...] = ()  # books past a cap of book_caps: (its key, how many, the cap)
    # Each meld's record (:class:`~.compiled.MeldRecord`), in the side's order: read again by the
    # referee's checks of melds and of the books to go out (none for a counted side).
    records: tuple[MeldRecord, ...] = ()

    @classmethod
    def of(cls, deal: Deal, side: Side) -> Tally:
        """The side's tally: its melds counted once, by card and by kind of book."""
        sheet = deal.sheet
        if side.books is not None:
            return cls._counted(deal, side)
        melded = [0] * len(CARDS)
        twos = jokers = clean_books = dirty_books = wild_books = mixed = 0
        special: dict[Card, int] = {}
        special_dirty: dict[Card, int] = {}
        threes: dict[Card, int] = {}
        known, record = (checks := compiled(sheet)).records, checks.record
        records = []
        for meld in side.melds:
            kept = known.get(id(meld)) or record(meld)  # the kind's record: its place and what book it is
            records.append(kept)
            if kept.place is not None:
                melded[kept.place] += meld.naturals
            twos += meld.twos
            jokers += meld.jokers
            book = kept.book
            if not book:  # most melds: no book
                continue
            if book == CLEAN_BOOK:
                clean_books += 1
            elif book == DIRTY_BOOK:
                dirty_books += 1
            elif book == WILD_BOOK:
                wild_books += 1
            elif book == MIXED_WILD_BOOK:
                mixed += 1
            else:
                counted = threes if book == THREES_BOOK else special if book == SPECIAL_BOOK else special_dirty
                counted[kept.card] = counted.get(kept.card, 0) + 1
        melded[_TWO] += twos
        melded[_JOKER] += jokers
        capped: tuple[tuple[str, int, int], ...] = ()
        if sheet.book_caps:
            wild_kept, clean_books, dirty_books, capped = _cap(
                sheet, (wild_books + mixed, clean_books, dirty_books), special, special_dirty, threes,
                _plain(sheet, side))
            wild_books, mixed = _keep_wild(sheet, wild_kept, wild_books, mixed)
        went_out, buried, first_meld, caught = _at_the_end(deal, side)
        # made as a tuple: cls(...) costs a call more
        return tuple.__new__(cls, (sheet, deal.number, side, melded, clean_books, dirty_books, wild_books,
                                   special, went_out, special_dirty, threes, buried, mixed, first_meld, caught,
                                   capped, tuple(records)))

    @classmethod
    def _counted(cls, deal: Deal, side: Side) -> Tally:
        """A counted side's tally: its books as given, no card melded one by one (its
        ``meld_points`` has a line of its own); a special book (or a book of threes) of a rank
        the sheet names no bonus for is a clean book, and a dirty special book one, as an
        itemised one is; so is a mixed wild book (``wild_mixed``) a wild book where the sheet prices
        none apart."""
        sheet, books = deal.sheet, side.books
        assert books is not None
        plain: dict[Card, list[int]] = {}  # books of a rank scored as plain clean and dirty books: [clean, dirty]
        special, as_clean = _priced(books.special, sheet.special_bonus, plain, 0)
        special_dirty, as_dirty = _priced(books.special_dirty, sheet.special_dirty_bonus, plain, 1)
        threes, threes_as_clean = _priced(books.threes, sheet.three_bonus, plain, 0)
        clean, dirty = books.clean + as_clean + threes_as_clean, books.dirty + as_dirty
        wild, mixed, capped = books.wild, books.wild_mixed, _NONE_CAPPED
        if sheet.wild_book_mixed_bonus is None:  # every wild book scores alike: a mixed one is any wild book
            wild, mixed = wild + mixed, 0
        if sheet.book_caps:
            kept, clean, dirty, capped = _cap(sheet, (wild + mixed, clean, dirty), special, special_dirty, threes,
                                              plain)
            wild, mixed = _keep_wild(sheet, kept, wild, mixed)
        went_out, buried, first_meld, caught = _at_the_end(deal, side)
        return cls(sheet, deal.number, side, [0] * len(CARDS), clean, dirty, wild, special, went_out,
                   special_dirty, threes, buried, mixed, first_meld, caught, capped)


def _priced(counts: Iterable[tuple[Rank, int]], bonus: Callable[[Card], int | None],
            plain: dict[Card, list[int]], kind: int) -> tuple[dict[Card, int], int]:
    """A counted side's books by rank that the sheet prices (``bonus`` names a bonus for the rank),
    and how many more score as plain books; those are added to ``plain`` (rank -> [clean,
    dirty]) at ``kind``, 0 clean or 1 dirty."""
    priced: dict[Card, int] = {}
    unpriced = 0
    for rank, n in counts:
        if bonus(rank.card) is None:
            unpriced += n
            plain.setdefault(rank.card, [0, 0])[kind] += n
        else:
            priced[rank.card] = n
    return priced, unpriced


def _keep_wild(sheet: RuleSheet, kept: int, pure: int, mixed: int) -> tuple[int, int]:
    """The wild books of one kind and the mixed ones that keep their bonus when ``kept`` of them
    do under a cap on wild books (``book_caps``): the better paid first."""
    if sheet.mixed_wild_bonus > sheet.wild_book_bonus:
        mixed_kept = min(mixed, kept)
        return kept - mixed_kept, mixed_kept
    pure_kept = min(pure, kept)
    return pure_kept, kept - pure_kept


def _plain(sheet: RuleSheet, side: Side) -> dict[Card, list[int]]:
    """An itemised side's books of each capped rank that score as plain clean and dirty books:
    rank -> [clean, dirty] (read only where the sheet has ``book_caps``)."""
    plain: dict[Card, list[int]] = {}
    for meld in side.melds:
        kind, card = meld.book_kind(sheet), meld.rank.card
        if kind is None or kind is BookKind.WILD or sheet.cap(card.value) is None:
            continue
        if kind is _CLEAN and (meld.rank is _THREE or not sheet.is_special_rank(card)):
            plain.setdefault(card, [0, 0])[0] += 1
        elif kind is _DIRTY and sheet.special_dirty_bonus(card) is None:
            plain.setdefault(card, [0, 0])[1] += 1
    return plain


Capped = tuple[tuple[str, int, int], ...]  # books past each cap: (its key in book_caps, how many, the cap)


def _cap(sheet: RuleSheet, counts: tuple[int, int, int], special: dict[Card, int], special_dirty: dict[Card, int],
         threes: dict[Card, int], plain: dict[Card, list[int]]) -> tuple[int, int, int, Capped]:
    """A side's books under the sheet's ``book_caps``: its wild, plain clean and plain dirty books
    that keep their bonus, and the books past each cap, (key, how many, the cap). ``special``,
    ``special_dirty`` and ``threes`` are cut, in place, to the books that keep theirs. A cap on
    a rank counts every book of it, whatever it scores as; the best paid keep their bonus."""
    wild, clean, dirty = counts
    past: list[tuple[str, int, int]] = []
    for key, cap in sheet.book_caps:
        if key == "wild":
            if wild > cap:
                past.append((key, wild - cap, cap))
                wild = cap
            continue
        card = Card(key)
        plain_clean, plain_dirty = plain.get(card, (0, 0))
        kinds: list[tuple[int, dict[Card, int] | str, int]] = [  # (bonus each, where they are counted, how many)
            (sheet.three_bonus(card) or 0, threes, threes.get(card, 0)),
            (sheet.special_bonus(card) or 0, special, special.get(card, 0)),
            (sheet.special_dirty_bonus(card) or 0, special_dirty, special_dirty.get(card, 0)),
            (sheet.clean_book_bonus, "clean", plain_clean), (sheet.dirty_book_bonus, "dirty", plain_dirty)]
        over = sum(n for _, _, n in kinds) - cap
        if over <= 0:
            continue
        left = cap
        for _, books, n in sorted(kinds, key=lambda kind: -kind[0]):  # stable: clean before dirty at one price
            kept = min(n, left)
            left -= kept
            if isinstance(books, dict) and n:
                if kept:
                    books[card] = kept
                else:
                    del books[card]
            elif books == "clean":
                clean -= n - kept
            elif books == "dirty":
                dirty -= n - kept
        past.append((key, over, cap))
    return wild, clean, dirty, tuple(past)


def _at_the_end(deal: Deal, side: Side) -> tuple[str | None, bool, str | None, bool]:
    """How the deal ended for this side, worked out together (once a side): the name of its player
    who went out, if one did; whether a red three in its unopened feet costs its penalty
    (``red_three_penalty_foot_when``: however the deal ended, or, opponents-out, only when a
    player of another side went out); the name of its player who laid down first, if the deal
    says one did; and whether a red three still in its hands costs its penalty
    (``red_three_penalty_hand_when``, alike: a player of another side going out catches it there)."""
    sheet = deal.sheet
    went_out = _named(deal.went_out, side) if deal.ending is _WENT_OUT else None
    foot_when, hand_when = sheet.red_three_penalty_foot_when, sheet.red_three_penalty_hand_when
    opponent_out = (foot_when is _OPPONENTS_OUT or hand_when is _OPPONENTS_OUT) and _opponent_out(deal, went_out)
    first_meld = None if deal.first_meld is None else _named(deal.first_meld, side)  # most deals name none
    buried, caught = foot_when is not _OPPONENTS_OUT or opponent_out, hand_when is not _OPPONENTS_OUT or opponent_out
    return went_out, buried, first_meld, caught


def _named(name: str | None, side: Side) -> str | None:
    """The player of this side a deal names (``went_out``, ``first_meld``), as the side spells
    the name; None when no player of the side has it."""
    if name is None:
        return None
    key = name.strip().casefold()
    for player in side.players:
        if player.name.casefold() == key:
            return player.name
    return None


def _opponent_out(deal: Deal, went_out: str | None) -> bool:
    """Whether a player of another side than this one (whose own player who went out is
    ``went_out``) went out."""
    if deal.ending is not _WENT_OUT or deal.went_out is None or went_out is not None:
        return False
    return deal.find_player(deal.went_out) is not None


_INDEX = {card: i for i, card in enumerate(CARDS)}
_TWO, _JOKER = _INDEX[Card.TWO], _INDEX[Card.JOKER]
# Looked up once here rather than for every deal and meld (enum attribute access is slow).
_NONE_CAPPED: Capped = ()
_CLEAN, _DIRTY = BookKind.CLEAN, BookKind.DIRTY
_THREE, _WENT_OUT, _OPPONENTS_OUT = Rank.THREE, Ending.WENT_OUT, FootWhen.OPPONENTS_OUT
