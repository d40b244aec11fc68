"""A rule sheet compiled for judging: what the referee works out once for each (frozen) sheet
instead of once for every deal it judges.

:func:`compiled` gives the :class:`Compiled` sheet, made on first use and kept by the sheet's
identity (hashing a whole sheet costs more than judging a deal with it). It answers, each
once per sheet and then from memory: each kind of meld's :class:`MeldRecord` (its place,
its problems, what it counts as in a side's tally and toward going out, whether it is an
unfinished meld of its rank: a stored deal repeats a few kinds of meld over and over, so the
tally, the referee's checks of melds and the going-out books read one record instead of
working each out again), what a side's books count toward going out
(:func:`~.books.books_toward`) and the opening minimum of a deal and running total. Every
answer is an immutable value, so sharing it between deals changes nothing they say.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, TypeVar

from .books import HeldBooks, books_short, books_toward, held_by_rank
from .cards import CARDS, Card, Rank
from .choices import Books, OpeningBy, SecondMeld
from .deal import BookKind, Meld
from .melds import meld_problems
from .problems import Problem
from .sheet import RuleSheet

_MAX_KEPT = 512  # answers kept per sheet and kind (kinds of meld seen, most often); past that worked out afresh


# What a meld counts as, in a side's tally (:attr:`MeldRecord.book`) or toward going out
# (:attr:`MeldRecord.held`): no book (0, false), or a book of one kind.
NO_BOOK, CLEAN_BOOK, DIRTY_BOOK, WILD_BOOK, MIXED_WILD_BOOK, THREES_BOOK, SPECIAL_BOOK, SPECIAL_DIRTY_BOOK = range(8)


class MeldRecord(NamedTuple):
    """One kind of meld as a sheet judges it, worked out once (:meth:`Compiled.record`)."""

    meld: Meld  # held, so that no other meld takes its id while the record is kept
    place: int | None  # its naturals' place in CARDS (None: a wild meld, whose naturals count nowhere)
    problems: tuple[Problem, ...]  # its problems on its own (:func:`~.melds.meld_problems`, no place given)
    book: int  # what the side's tally counts it as (:meth:`~.tally.Tally.of`): NO_BOOK, CLEAN_BOOK...
    held: int  # what it counts as toward going out (:func:`~.books.books_held`): NO_BOOK, CLEAN_BOOK...
    card: Card  # the card its books are counted by, where they are counted by rank
    unfinished: Rank | None  # its rank, where it is unfinished and the sheet allows no second one before a book


class Compiled:
    """One sheet's answers, worked out on first use and kept (each kind bounded by ``_MAX_KEPT``)."""

    __slots__ = ("sheet", "records", "_by_meld", "_toward", "_minimums", "opening_not_given", "lays_red_threes")

    def __init__(self, sheet: RuleSheet) -> None:
        self.sheet = sheet
        # Each kind of meld's record, by the meld's identity: read directly by the loops over melds
        # (an id costs less than hashing a meld), which ask :meth:`record` only for a meld not seen yet.
        self.records: dict[int, MeldRecord] = {}
        self._by_meld: dict[Meld, MeldRecord] = {}  # the same by the meld's value, for a meld read anew
        self._toward: dict[tuple[Books, HeldBooks], tuple[Books, bool]] = {}
        self._minimums: dict[tuple[int, int], int] = {}
        self.lays_red_threes = sheet.lays_red_threes  # read for every side and player (a property of the sheet)
        # Why an opening not given is not checked, after its owner's name: the same words in every deal.
        option = "opening_bands" if sheet.opening_by is OpeningBy.RUNNING_TOTAL else "opening_minimums"
        self.opening_not_given = (f"'s first melds are not given, so the opening minimum ({sheet.cite(option)}) "
                                  "is not checked.")

    def record(self, meld: Meld) -> MeldRecord:
        """The meld's record: kept by its identity (and value), made on first sight."""
        found = self.records.get(id(meld))
        if found is None:
            same = self._by_meld.get(meld)  # an equal meld read anew: the same record, holding this one
            found = _record(self.sheet, meld) if same is None else same._replace(meld=meld)
            _keep(self._by_meld, meld, found)
            _keep(self.records, id(meld), found)
        return found

    @staticmethod
    def books_held(records: Sequence[MeldRecord]) -> HeldBooks:
        """:func:`~.books.books_held`, read from the melds' records."""
        clean = dirty = wild = 0
        ranks: dict[Card, list[int]] = {}
        for kept in records:
            held = kept.held
            if not held:
                continue
            if held == CLEAN_BOOK:
                clean += 1
            elif held == DIRTY_BOOK:
                dirty += 1
            elif held == WILD_BOOK:
                wild += 1
            else:
                ranks.setdefault(kept.card, [0, 0])[held == SPECIAL_DIRTY_BOOK] += 1
        return held_by_rank(clean, dirty, wild, ranks)

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


def _record(sheet: RuleSheet, meld: Meld) -> MeldRecord:
    """A meld's record under the sheet: ``book`` as :meth:`~.tally.Tally.of` counts a book,
    ``held`` as :func:`~.books.books_held` does (which, unlike the tally, counts no book of
    threes of both colours), ``unfinished`` where a second unfinished meld of its rank would be
    begun too soon (``second_meld``: a meld of threes the sheet does not book is never one)."""
    rank, kind, card = meld.rank, meld.book_kind(sheet), meld.rank.card
    threes = rank is Rank.THREE
    book = held = NO_BOOK
    if kind is BookKind.CLEAN and sheet.three_books and not threes and sheet.three_bonus(card) is not None:
        book = THREES_BOOK
    elif kind is BookKind.CLEAN and sheet.special_books and not threes and sheet.special_bonus(card) is not None:
        book = SPECIAL_BOOK
    elif kind is BookKind.CLEAN:
        book = CLEAN_BOOK
    elif kind is BookKind.DIRTY and sheet.special_books_dirty and sheet.special_dirty_bonus(card) is not None:
        book = SPECIAL_DIRTY_BOOK
    elif kind is BookKind.DIRTY:
        book = DIRTY_BOOK
    elif kind is BookKind.WILD:
        book = MIXED_WILD_BOOK if sheet.wild_book_mixed_bonus is not None and meld.twos and meld.jokers \
            else WILD_BOOK
    if kind is None or threes or rank.is_threes and sheet.three_bonus(card) is None:
        held = NO_BOOK
    elif kind is BookKind.WILD:
        held = WILD_BOOK
    elif sheet.is_special_rank(card):
        held = SPECIAL_DIRTY_BOOK if kind is BookKind.DIRTY else SPECIAL_BOOK
    else:
        held = CLEAN_BOOK if kind is BookKind.CLEAN else DIRTY_BOOK
    closed = sheet.second_meld is SecondMeld.ANYTIME or meld.naturals + meld.twos + meld.jokers >= sheet.book_size \
        or threes or rank in _COLOURED_THREES and sheet.three_bonus(card) is None
    return MeldRecord(meld, None if rank is Rank.WILD else _INDEX[card], tuple(meld_problems(sheet, meld)), book,
                      held, card, None if closed else rank)


_INDEX = {card: i for i, card in enumerate(CARDS)}
_COLOURED_THREES = (Rank.RED_THREE, Rank.BLACK_THREE)


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
