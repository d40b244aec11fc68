"""Rule sheets: every option a published Hand and Foot sheet sets, checked when built.

A :class:`RuleSheet` is a frozen value. Build one from a preset and the options a table
changed (:func:`scorepad.rules.presets.load_sheet`), write it back as JSON
(:meth:`RuleSheet.to_json`), and list what it changes against its preset
(:meth:`RuleSheet.changes`). The catalogue (:data:`.catalogue.OPTIONS`) describes each
option once (its group, its label, its default, how it is read and put into words); the
sheet checks and writes itself through it, and the choices and values its options hold are
in :mod:`.choices`. Reading a sheet (a preset's id, or its JSON form) is in
:mod:`.presets`. The shipped presets a sheet compares itself with (:class:`Preset`,
:data:`PRESETS`) are built here, from their values as data in :mod:`.published`.

>>> from scorepad.rules import load_sheet
>>> sheet = load_sheet({"preset": "pagat", "hand_size": 11, "foot_size": 11})
>>> [change.option for change in sheet.changes()]
['hand_size', 'foot_size']
>>> sheet.cite("hand_size")
Cited(option='hand_size', label='Cards in the hand', words='11')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple

from .cards import Card
from .catalogue import OPTION_BY_NAME, OPTIONS
from .choices import (
    Band,
    BookGrowth,
    Books,
    CardValues,
    CountAs,
    DecksRule,
    FootWhen,
    GameLength,
    GrowthByKind,
    LastCard,
    OpeningBook,
    OpeningBy,
    OpeningPileCards,
    OpeningWho,
    PartnerFoot,
    PerDeal,
    PileBlocker,
    PileNeeds,
    PileTake,
    RedThreeMode,
    SecondMeld,
    SpecialWilds,
    StockOut,
    Upcard,
    WildRatio,
    book_of,
    growth_of,
)
from .errors import SheetError
from .published import GROUPS, PUBLISHED, Source
from .read import JSON


@dataclass(frozen=True)
class RuleSheet:
    """Every option of a Hand and Foot rule sheet. Build through :func:`.presets.load_sheet`,
    :func:`.presets.preset` or :meth:`replace`; each way checks the whole sheet."""

    # The cards and the deal
    min_players: int
    max_players: int
    side_sizes: tuple[int, ...]
    decks_rule: DecksRule
    decks: int
    decks_by_players: tuple[tuple[int, int], ...]
    jokers_per_deck: int
    hand_size: int
    knee_size: PerDeal[int]
    foot_size: int
    card_values: CardValues
    cut_bonus: int
    upcard: Upcard
    draws_per_turn: PerDeal[int]
    # Melds and wild cards
    meld_min: int
    book_size: int
    book_growth: BookGrowth | GrowthByKind
    no_wild_on_clean_book: bool
    second_meld: SecondMeld
    max_books_per_rank: int | None
    wild_ratio: WildRatio
    max_wilds: int | None
    min_naturals_with_wilds: int
    wild_books: bool
    # Books and bonuses
    clean_book_bonus: int
    dirty_book_bonus: int
    wild_book_bonus: int
    wild_book_mixed_bonus: int | None
    special_books: tuple[tuple[Card, int], ...]
    special_books_dirty: tuple[tuple[Card, int], ...]
    special_book_wilds: SpecialWilds
    three_books: tuple[tuple[Card, int], ...]
    book_caps: tuple[tuple[str, int], ...]
    going_out_bonus: PerDeal[int]
    first_meld_bonus: int
    # Red and black threes
    red_three_mode: RedThreeMode
    red_three_bonus: int
    red_three_bonus_not_out: int | None
    red_three_penalty_hand: int
    red_three_penalty_hand_when: FootWhen
    red_three_penalty_foot: int
    red_three_penalty_foot_when: FootWhen
    black_three_in_foot: int | None
    # Opening minimums
    opening_by: OpeningBy
    opening_minimums: PerDeal[int | OpeningBook]
    opening_bands: tuple[Band, ...]
    opening_who: OpeningWho
    opening_pile_cards: OpeningPileCards
    # Taking the pile
    pile_take: PileTake
    pile_cards: PerDeal[int]
    pile_needs: PileNeeds
    pile_new_meld: bool
    pile_take_penalty: int
    pile_needs_opened: bool
    pile_blocked_by: frozenset[PileBlocker]
    pile_frozen_by_wild: bool
    # Going out
    books_to_go_out: PerDeal[Books]
    special_books_count_as: CountAs
    wild_books_count_as: CountAs
    go_out_foot: bool
    go_out_partner_foot: PartnerFoot
    go_out_permission: bool
    last_card: LastCard
    # Scoring and game length
    stock_out: StockOut
    game_length: GameLength
    deals: int
    target_score: int
    # House rules: the table's own rules of play, printed, never checked or scored
    house_rules: tuple[str, ...]
    # Which preset (and which version of it) this sheet starts from; not options.
    preset: str | None = field(default=None, compare=False)
    preset_version: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        for option in OPTIONS:
            option.check(getattr(self, option.name))
        _check_sheet(self)

    # -- building -------------------------------------------------------------------------

    def replace(self, **changes: Any) -> RuleSheet:  # Any: options of every type; the sheet checks each
        """A copy with some options changed (values as Python objects), checked again."""
        return dataclasses.replace(self, **changes)

    def to_json(self, full: bool = False) -> dict[str, JSON]:
        """The sheet's JSON form: its preset, the preset's version and what it changes
        against that version, or every option. (A copy each time; the values inside are shared.)"""
        return self._written(True) if full else {**self._brief}

    @cached_property
    def _brief(self) -> dict[str, JSON]:
        """:meth:`to_json`'s short form, written once (the sheet is frozen): every game's JSON has it."""
        return self._written(False)

    def _written(self, full: bool) -> dict[str, JSON]:
        out: dict[str, JSON] = {}
        base = None if full else self.base()
        if self.preset:
            out["preset"] = self.preset
            out["preset_version"] = self.preset_version or UNVERSIONED
        for option in OPTIONS:
            value = getattr(self, option.name)
            if full or base is None or value != getattr(base, option.name):
                out[option.name] = option.write(value)
        return out

    def to_stored_json(self) -> dict[str, JSON]:
        """The form the database keeps: every option, so no later change to a preset can
        change a stored game, read back by ``load_sheet(..., stored=True)``."""
        return {"schema": SHEET_SCHEMA, **self.to_json(full=True)}

    def brief_json(self) -> str | dict[str, JSON]:
        """The preset's id when the sheet is that preset as it stands today, else :meth:`to_json`."""
        found = PRESETS.get(self.preset) if self.preset else None
        if found is not None and self.preset_version == found.version and self == found.sheet:
            return found.id
        return self.to_json()

    # -- reading --------------------------------------------------------------------------

    def base(self) -> RuleSheet | None:
        """The preset this sheet starts from, as it was in the version the sheet was made
        from; None for a sheet without a preset."""
        found = PRESETS.get(self.preset) if self.preset else None
        return found.versions.get(self.preset_version or UNVERSIONED) if found is not None else None

    def changes(self) -> list[Change]:
        """The options this sheet sets differently from its preset (in the version it was
        made from), in catalogue order."""
        return list(self._changes)

    @cached_property
    def _changes(self) -> tuple[Change, ...]:  # worked out once (the sheet is frozen): every game's JSON lists them
        base = self.base()
        if base is None:
            return ()
        return tuple(Change(option.name, option.label, option.words(getattr(base, option.name), base),
                            option.words(getattr(self, option.name), self))
                     for option in OPTIONS
                     if getattr(self, option.name) != getattr(base, option.name))

    def describe(self, name: str) -> str:
        """One option's value in plain words.

        >>> from scorepad.rules import preset
        >>> preset("common").describe("wild_ratio")
        'more natural cards than wild cards'
        """
        option = OPTION_BY_NAME[name]
        return option.words(getattr(self, name), self)

    def cite(self, name: str | None) -> Cited | None:
        """An option as a ruling cites it: its label and what this sheet says; None when
        ``name`` is no option (a problem or a reason that no option decides).

        >>> from scorepad.rules import preset
        >>> str(preset("pagat").cite("books_to_go_out"))
        'Books needed to go out: 2 clean + 2 dirty + 1 wild'
        >>> preset("pagat").cite(None) is None
        True
        """
        # Each option's citation is made once per sheet (the sheet is frozen) and kept beside its
        # fields, outside them, so equality, hashing and the JSON forms never see it.
        cited: dict[str, Cited | None] | None = self.__dict__.get("_cited")
        if cited is None:
            cited = {}
            object.__setattr__(self, "_cited", cited)
        key = name or ""
        if key not in cited:
            option = OPTION_BY_NAME.get(name) if name else None
            cited[key] = None if option is None else Cited(option.name, option.label,
                                                            option.words(getattr(self, option.name), self))
        return cited[key]

    def unused(self, name: str) -> bool:
        """True when another option makes option ``name`` irrelevant on this sheet (the
        house-rule sheet leaves it out).

        >>> from scorepad.rules import preset
        >>> preset("common").unused("decks"), preset("pagat").unused("decks")
        (True, False)
        """
        special = bool(self.special_books or self.three_books)
        return ((name == "decks" and self.decks_rule is not DecksRule.FIXED)
                or (name == "decks_by_players" and self.decks_rule is not DecksRule.BY_PLAYERS)
                or (name in ("special_book_wilds", "special_books_count_as") and not special)
                or (name == "wild_books_count_as" and not self.wild_books)
                or (name == "red_three_penalty_foot_when" and not self.red_three_penalty_foot)
                or (name == "red_three_penalty_hand_when" and not self.red_three_penalty_hand)
                or (name in ("red_three_bonus", "red_three_bonus_not_out") and self.red_three_mode is RedThreeMode.HELD)
                # null: the same as red_three_bonus and wild_book_bonus, which say it already; 0: no such bonus
                or (name == "red_three_bonus_not_out" and self.red_three_bonus_not_out is None)
                or (name == "first_meld_bonus" and not self.first_meld_bonus)
                or (name == "wild_book_mixed_bonus" and not self.prices_mixed_wild)
                or (name == "opening_bands" and self.opening_by is OpeningBy.DEAL)
                or (name == "opening_minimums" and self.opening_by is OpeningBy.RUNNING_TOTAL)
                or (name == "target_score" and self.game_length is not GameLength.TARGET)
                or (name == "deals" and self.game_length is not GameLength.DEALS)
                or (name == "pile_cards" and self.pile_take in (PileTake.WHOLE, PileTake.NEVER))
                or (name in ("pile_new_meld", "pile_take_penalty") and self.pile_take is PileTake.NEVER)
                or (name == "no_wild_on_clean_book" and self.growth(dirty=False) is not BookGrowth.ANY)
                or (name == "knee_size" and not self.has_knee))

    def seatable(self) -> tuple[int, ...]:
        """The numbers of players the sheet can seat: from the fewest to the most, each splitting
        into two or more sides of a size the sheet allows.

        >>> from scorepad.rules import preset
        >>> preset("common").replace(side_sizes=(2,), min_players=4, max_players=8).seatable()
        (4, 6, 8)
        """
        return tuple(n for n in range(self.min_players, self.max_players + 1)
                     if any(n % size == 0 and n // size >= 2 for size in self.side_sizes))

    @property
    def individuals(self) -> bool:
        """True when every player plays alone (no partnerships)."""
        return self.side_sizes == (1,)

    @cached_property
    def has_knee(self) -> bool:
        """Whether any deal on this sheet deals each player a knee (a third pile, ``knee_size``);
        worked out once (the sheet is frozen), as every deal asks."""
        return any(self.knee_size.values)

    def knee_at(self, deal: int) -> int:
        """The cards of each player's knee in this deal; 0 where the deal has no knee.

        >>> from scorepad.rules import preset
        >>> sheet = preset("common").replace(hand_size=15, knee_size=PerDeal((13, 0, 13, 0)))
        >>> sheet.knee_at(1), sheet.knee_at(2), sheet.has_knee, preset("common").has_knee
        (13, 0, True, False)
        """
        return self.knee_size.at(deal)

    def decks_for(self, players: int) -> int:
        """How many decks the pack has for this many players."""
        if self.decks_rule is DecksRule.FIXED:
            return self.decks
        if self.decks_rule is DecksRule.PER_PLAYER:
            return players
        if self.decks_rule is DecksRule.BY_PLAYERS:
            table = dict(self.decks_by_players)
            return table.get(players) or table[min(table, key=lambda n: abs(n - players))]
        return players + 1

    def value(self, card: Card) -> int:
        return self.card_values[card]

    @property
    def lays_red_threes(self) -> bool:
        """Whether red threes are laid on the table for their bonus (``red_three_mode`` laid),
        not held."""
        return self.red_three_mode is RedThreeMode.LAID

    @property
    def mixed_wild_bonus(self) -> int:
        """What a wild book mixing 2s and jokers earns: ``wild_book_mixed_bonus``, or where null
        the wild-book bonus."""
        bonus = self.wild_book_mixed_bonus
        return self.wild_book_bonus if bonus is None else bonus

    @property
    def not_out_red_three_bonus(self) -> int:
        """What a red three laid earns a side none of whose players went out:
        ``red_three_bonus_not_out``, or where null ``red_three_bonus``."""
        bonus = self.red_three_bonus_not_out
        return self.red_three_bonus if bonus is None else bonus

    @property
    def prices_mixed_wild(self) -> bool:
        """Whether a wild book mixing 2s and jokers scores its own bonus
        (``wild_book_mixed_bonus``), so a counted side tells such books apart."""
        return self.wild_books and self.wild_book_mixed_bonus is not None

    @cached_property
    def _by_rank(self) -> _ByRank:
        """The bonuses and caps by rank as maps, made once (the sheet is frozen) and kept beside its
        fields, outside them, as :meth:`cite`'s citations are: every deal looks them up book by book."""
        return _ByRank(dict(self.special_books), dict(self.special_books_dirty), dict(self.three_books),
                       dict(self.book_caps))

    def special_bonus(self, rank: Card) -> int | None:
        """The bonus for a clean book of ``rank`` when the sheet names one."""
        return self._by_rank.special.get(rank)

    def special_dirty_bonus(self, rank: Card) -> int | None:
        """The bonus for a dirty book of ``rank`` when ``special_books_dirty`` names one (else
        such a book scores as an ordinary dirty book)."""
        return self._by_rank.special_dirty.get(rank)

    def three_bonus(self, three: Card) -> int | None:
        """The bonus for a book of red or black threes when ``three_books`` allows one."""
        return self._by_rank.threes.get(three)

    def cap(self, key: str) -> int | None:
        """How many books of a kind (``"wild"``, or a rank's code) score a bonus, when ``book_caps`` caps them."""
        return self._by_rank.caps.get(key)

    def is_special_rank(self, rank: Card) -> bool:
        """Whether a book of ``rank`` is a special book (``special_books`` names it, or
        ``three_books`` allows books of it): what ``special_book_wilds`` and
        ``special_books_count_as`` speak of."""
        return self.special_bonus(rank) is not None or self.three_bonus(rank) is not None

    def opening_minimum(self, deal: int, running_total: int = 0) -> int:
        """The points a side's (or player's) first melds must reach in this deal.

        >>> from scorepad.rules import preset
        >>> [preset("pagat").opening_minimum(n) for n in (1, 2, 3, 4)]
        [50, 90, 120, 150]
        """
        if self.opening_by is OpeningBy.DEAL:
            minimum = self.opening_minimums.at(deal)
            return 0 if isinstance(minimum, OpeningBook) else minimum
        for band in self.opening_bands:
            if band.below is None or running_total < band.below:
                return band.minimum
        return self.opening_bands[-1].minimum

    def opening_book(self, deal: int) -> bool:
        """Whether the first melds of this deal must include a complete book (an opening minimum
        of 'book'), in place of a number of points (:meth:`opening_minimum` is then 0).

        >>> from scorepad.rules import preset
        >>> sheet = preset("common").replace(opening_minimums=PerDeal((50, 90, 120, 150, OpeningBook.BOOK)), deals=5)
        >>> [sheet.opening_book(n) for n in (4, 5)], sheet.opening_minimum(5)
        ([False, True], 0)
        """
        return self.opening_by is OpeningBy.DEAL and isinstance(self.opening_minimums.at(deal), OpeningBook)

    def growth(self, dirty: bool) -> BookGrowth:
        """How a book past full size may grow: a clean one's rule, or (``dirty``) a dirty or wild one's."""
        return growth_of(self.book_growth, dirty)

    def going_out_books(self, deal: int) -> Books:
        """The books a side needs on the table before one of its players may go out.

        >>> from scorepad.rules import preset
        >>> str(preset("pagat").going_out_books(1))
        '2 clean + 2 dirty + 1 wild'
        """
        return self.books_to_go_out.at(deal)

    def going_out_bonus_at(self, deal: int) -> int:
        return self.going_out_bonus.at(deal)

    def last_deal(self) -> int | None:
        """The number of deals in a game, or None when the game plays to a target or until the
        table ends it (then a per-deal option keeps its last value for every later deal)."""
        return self.deals if self.game_length is GameLength.DEALS else None


class _ByRank(NamedTuple):
    special: dict[Card, int]  # special_books
    special_dirty: dict[Card, int]  # special_books_dirty
    threes: dict[Card, int]  # three_books
    caps: dict[str, int]  # book_caps


@dataclass(frozen=True)
class Cited:
    """An option as a ruling cites it: its label and what the sheet says, in words."""

    option: str
    label: str
    words: str

    def __str__(self) -> str:
        return f"{self.label}: {self.words}"


@dataclass(frozen=True)
class Change:
    """One option a sheet changes against its preset, in words."""

    option: str
    label: str
    preset_value: str
    value: str




def _check_bands(bands: tuple[Band, ...]) -> None:
    last = None
    for i, band in enumerate(bands):
        if band.below is None and i != len(bands) - 1:
            raise SheetError(f"opening_bands[{i}].below", "only the last band may be open-ended")
        if band.below is not None and last is not None and band.below <= last:
            raise SheetError(f"opening_bands[{i}].below", "bands must rise")
        last = band.below
    if bands[-1].below is not None:
        raise SheetError(f"opening_bands[{len(bands) - 1}]",
                         "the last band must have no upper bound (leave out 'below')")



def _check_sheet(sheet: RuleSheet) -> None:
    """Checks that involve more than one option."""
    if sheet.min_players > sheet.max_players:
        raise SheetError("min_players", f"{sheet.min_players} is more than the most players, {sheet.max_players}")
    if not sheet.seatable():
        raise SheetError("side_sizes", "no number of players on this sheet splits into two or more such sides")
    if sheet.meld_min > sheet.book_size:
        raise SheetError("meld_min", f"a meld of {sheet.meld_min} cannot be smaller than a book of {sheet.book_size}")
    if sheet.max_wilds is not None and sheet.max_wilds > sheet.book_size:
        raise SheetError("max_wilds", "cannot be more than the cards in a book")
    if sheet.min_naturals_with_wilds >= sheet.book_size:
        raise SheetError("min_naturals_with_wilds", "would leave no room for a wild card in a book")
    _check_bands(sheet.opening_bands)
    if sheet.game_length is GameLength.DEALS:
        for name in ("knee_size", "draws_per_turn", "going_out_bonus", "opening_minimums", "pile_cards",
                     "books_to_go_out"):
            schedule: PerDeal[object] = getattr(sheet, name)
            if not schedule.single and len(schedule.values) < sheet.deals:
                raise SheetError(name, f"lists {len(schedule.values)} deals but the game has {sheet.deals}; "
                            "give one value for every deal, or a single value for all")
    _check_going_out_books(sheet)
    _check_special(sheet)
    if sheet.decks_rule is DecksRule.BY_PLAYERS:
        table = dict(sheet.decks_by_players)
        missing = [n for n in sheet.seatable() if n not in table]
        if missing:
            raise SheetError("decks_by_players", f"gives no number of decks for {missing[0]} players; the sheet "
                        f"seats {_listed(sheet.seatable())} players")


def _listed(numbers: tuple[int, ...]) -> str:
    words = [str(n) for n in numbers]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _check_going_out_books(sheet: RuleSheet) -> None:
    """Books asked for to go out are books the sheet lets a side make."""
    for deal, books in enumerate(sheet.books_to_go_out.values, 1):
        where = "books_to_go_out" if sheet.books_to_go_out.single else f"books_to_go_out[{deal - 1}]"
        if books.wild and not sheet.wild_books:
            raise SheetError(where, "asks for a wild book, but this sheet does not allow melds of wild cards")
        if books.special and not (sheet.special_books or sheet.three_books):
            raise SheetError(where, "asks for a special book, but this sheet names none (special_books, three_books)")
        for card, _ in books.named:
            if not sheet.is_special_rank(card):
                raise SheetError(f"{where}.special.{card.value}", f"asks for {book_of(card, 1)}, but "
                                 f"{'three_books' if card in (Card.RED_THREE, Card.BLACK_THREE) else 'special_books'}"
                                 " names no such book")


def _check_special(sheet: RuleSheet) -> None:
    """A dirty special book's bonus names a special rank, on a sheet that lets one hold wild cards."""
    for card, _ in sheet.special_books_dirty:
        if sheet.special_bonus(card) is None:
            raise SheetError(f"special_books_dirty.{card.value}", f"{card.noun} are not named in special_books")
        if sheet.special_book_wilds is SpecialWilds.NEVER:
            raise SheetError(f"special_books_dirty.{card.value}", "names a bonus for a dirty book of "
                        f"{card.noun}, but special_book_wilds says a special book never holds wild cards")


SHEET_SCHEMA = 1  # the shape of a stored sheet (RuleSheet.to_stored_json); read by load_sheet
UNVERSIONED = 1  # the version of every preset before versions were recorded


@dataclass(frozen=True)
class Preset:
    """A published sheet the product ships: its id, source and the points it leaves unsaid.

    ``sheet`` is the preset today, version ``version``; ``versions`` keeps every version
    ever released (1, 2, ...), so sheets made from an earlier one still compare with it.
    The source's rules of play that no other option says and no recorded deal can break
    (such as when the foot may be picked up) are the sheet's ``house_rules``, so a table may
    edit or drop them; a stored sheet written before that option reads its preset's. ``group``
    is where its source was published (:func:`presets_by_group`).
    """

    id: str
    title: str
    source: Source
    sheet: RuleSheet
    not_stated: Mapping[str, str]  # option -> what we chose, and why
    version: int = UNVERSIONED
    versions: Mapping[int, RuleSheet] = field(default_factory=dict)
    group: str = "books"

    def revised(self, **changes: Any) -> Preset:  # Any: as RuleSheet.replace
        """The preset with one more version: today's values with ``changes`` (Python values)."""
        version = self.version + 1
        sheet = self.sheet.replace(**changes, preset_version=version)
        return dataclasses.replace(self, sheet=sheet, version=version, versions={**self.versions, version: sheet})


def _presets() -> dict[str, Preset]:
    out = {}
    for id_, published in PUBLISHED.items():
        first = RuleSheet(**published.first, preset=id_, preset_version=UNVERSIONED)  # type: ignore[arg-type]  # object: checked by RuleSheet
        found = Preset(id_, published.title, published.source, first, published.not_stated, UNVERSIONED,
                       {UNVERSIONED: first}, group=published.group)
        for changes in published.revisions:
            found = found.revised(**changes)
        out[id_] = found
    return out


# Each shipped preset by id: a sheet compares itself with its own (:meth:`RuleSheet.base`).
PRESETS: dict[str, Preset] = _presets()


class PresetGroup(NamedTuple):
    """Presets whose sources were published alike, for a page to offer them together."""

    id: str
    title: str
    presets: tuple[Preset, ...]


def presets_by_group() -> tuple[PresetGroup, ...]:
    """The presets in their groups, in :data:`~.published.GROUPS`' order (a group with none left out).

    >>> [(group.id, [p.id for p in group.presets]) for group in presets_by_group()][0]
    ('books', ['common', 'pagat', 'bicycle', 'gather-together'])
    """
    groups = (PresetGroup(id_, title, tuple(p for p in PRESETS.values() if p.group == id_)) for id_, title in GROUPS)
    return tuple(group for group in groups if group.presets)
