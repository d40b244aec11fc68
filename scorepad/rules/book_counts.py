"""A counted side's books by kind (:class:`BookCounts`), as a paper score pad keeps them: how
many clean, dirty and wild books, and books of a rank counted apart. Read with a side
(:class:`~.deal.Side`), which holds them in place of its melds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .cards import Rank, parse_rank, read_count
from .errors import ReadError
from .read import JSON, at, only

_RANK_CODES = {rank: rank.value for rank in Rank}  # looked up once: enum attributes are slow

BOOK_KEYS = ("clean", "dirty", "wild", "special", "special_dirty", "threes", "wild_mixed")


@dataclass(frozen=True, slots=True)
class BookCounts:
    """A counted side's books by kind. Each map counts books by rank, and none of them is also
    in ``clean`` or ``dirty``: ``special`` clean books of a rank the sheet names a bonus for
    (``special_books``), ``special_dirty`` dirty books of such a rank (``special_books_dirty``),
    ``threes`` books of red (3R) or black (3B) threes (``three_books``); and ``wild_mixed``
    counts wild books mixing 2s and jokers, not also in ``wild``, where the sheet prices them
    apart (``wild_book_mixed_bonus``; elsewhere every wild book may go in ``wild``).

    >>> BookCounts.from_json({"clean": 3, "dirty": 2, "special": {"7": 1}}).to_json()
    {'clean': 3, 'dirty': 2, 'wild': 0, 'special': {'7': 1}}
    >>> BookCounts.from_json({"special_dirty": {"7": 1}, "threes": {"3R": 1}}).to_json()
    {'clean': 0, 'dirty': 0, 'wild': 0, 'special': {}, 'special_dirty': {'7': 1}, 'threes': {'3R': 1}}
    """

    clean: int = 0
    dirty: int = 0
    wild: int = 0
    special: tuple[tuple[Rank, int], ...] = ()
    special_dirty: tuple[tuple[Rank, int], ...] = ()
    threes: tuple[tuple[Rank, int], ...] = ()
    wild_mixed: int = 0

    @property
    def total(self) -> int:
        return self.clean + self.dirty + self.wild + self.wild_mixed + sum(
            n for _, n in (*self.special, *self.special_dirty, *self.threes))

    @classmethod
    def from_json(cls, data: object, field: str = "") -> BookCounts:
        if not isinstance(data, Mapping):
            raise ReadError(field, 'must be an object such as {"clean": 3, "dirty": 2, "wild": 0, '
                                   '"special": {"7": 1}}')
        only(data, BOOK_KEYS, field)
        clean, dirty, wild = (read_count(data.get(key, 0), at(field, key)) for key in BOOK_KEYS[:3])
        return cls(clean, dirty, wild, _by_rank(data, "special", field), _by_rank(data, "special_dirty", field),
                   _by_rank(data, "threes", field), read_count(data.get("wild_mixed", 0), at(field, "wild_mixed")))

    def to_json(self) -> dict[str, JSON]:
        """Every kind; ``special_dirty``, ``threes`` and ``wild_mixed`` only when they count a book
        (deals before them had none)."""
        out: dict[str, JSON] = {"clean": self.clean, "dirty": self.dirty, "wild": self.wild,
                               "special": {_RANK_CODES[rank]: n for rank, n in self.special}}
        for key, counts in (("special_dirty", self.special_dirty), ("threes", self.threes)):
            if counts:
                out[key] = {_RANK_CODES[rank]: n for rank, n in counts}
        if self.wild_mixed:
            out["wild_mixed"] = self.wild_mixed
        return out


def _by_rank(data: Mapping[str, object], key: str, field: str) -> tuple[tuple[Rank, int], ...]:
    """One of a counted side's maps of books by rank: ranks A to 4, or for ``threes`` 3R and 3B."""
    counts = data.get(key, {})
    where = at(field, key)
    threes = key == "threes"
    if not isinstance(counts, Mapping):
        raise ReadError(where, 'must be an object of books by rank, such as ' + ('{"3R": 1}' if threes else '{"7": 1}'))
    ranks: dict[Rank, int] = {}
    for code, count in counts.items():
        here = at(where, str(code))
        rank = parse_rank(code, here)
        if threes and rank not in (Rank.RED_THREE, Rank.BLACK_THREE):
            raise ReadError(here, "a book of threes is of red threes (3R) or black threes (3B)")
        if not threes and (rank is Rank.WILD or rank.is_threes):
            raise ReadError(here, "a special book is a book of a rank from A to 4")
        if rank in ranks:
            raise ReadError(here, f"{rank.noun} are named twice")
        ranks[rank] = read_count(count, here)
    return tuple((rank, n) for rank, n in sorted(ranks.items(), key=_rank_order) if n)


_RANK_ORDER = {rank: i for i, rank in enumerate(Rank)}


def _rank_order(item: tuple[Rank, int]) -> int:
    return _RANK_ORDER[item[0]]
