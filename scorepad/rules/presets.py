"""Presets: the published sheets scorepad ships, and reading a sheet against them.

A :class:`Preset` is a published sheet with its source, the points it leaves unsaid and
its fixed rules (rules of play no recorded deal can show broken, printed with the sheet).
:data:`SOURCES` is every published source a preset cites, by id: its title and address, as
players are shown it (the rules texts the presets were read from are the project's own
files, never named to players). :data:`PRESETS` holds each preset by id; :func:`preset`
gives one's sheet, and :func:`load_sheet` reads a sheet's JSON form: a preset id, or a
preset and the options a table changed.

Presets carry a version. A preset's values are never edited once released: a change is a
new version (:data:`_REVISIONS`), and every version stays, so a sheet made from version 1
keeps being compared with version 1. Stored sheets are written in full
(:meth:`RuleSheet.to_stored_json`); read back with ``stored=True``, an option missing
from them (added since) takes its declared default.

>>> sheet = load_sheet({"preset": "pagat", "hand_size": 11, "foot_size": 11})
>>> [change.option for change in sheet.changes()]
['hand_size', 'foot_size']
>>> sheet.to_json()
{'preset': 'pagat', 'preset_version': 2, 'hand_size': 11, 'foot_size': 11}
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .cards import Card
from .errors import SheetError
from .sheet import (
    DEFAULTS,
    OPTION_BY_NAME,
    OPTIONS,
    SHEET_SCHEMA,
    UNVERSIONED,
    Books,
    DecksRule,
    FootWhen,
    LastCard,
    OpeningWho,
    PartnerFoot,
    PerDeal,
    PileBlocker,
    PileNeeds,
    PileTake,
    RuleSheet,
    Upcard,
    WildRatio,
)


@dataclass(frozen=True)
class Source:
    """A published rule sheet, cited by its title and address (``url``: None when the
    source names none).

    >>> str(SOURCES["pagat"])
    'Pagat: Hand and Foot (rules contributed by Bill Whitnack), https://www.pagat.com/rummy/handfoot.html'
    """

    id: str
    title: str
    url: str | None

    def __str__(self) -> str:
        return f"{self.title}, {self.url}" if self.url else self.title


SOURCES: dict[str, Source] = {source.id: source for source in (
    Source("common-rules", "How to play Hand and Foot (a rules page for individual play)", None),
    Source("pagat", "Pagat: Hand and Foot (rules contributed by Bill Whitnack)",
           "https://www.pagat.com/rummy/handfoot.html"),
    Source("bicycle", "Bicycle Cards: Hand and Foot", "https://bicyclecards.com/how-to-play/hand-and-foot"),
    Source("gather-together", "Gather Together Games: How To Play Hand And Foot",
           "https://www.gathertogethergames.com/hand-and-foot"),
    Source("progressive", "IndyBlue's progressive rules, published with the hand-foot-scoring score keeper",
           "https://github.com/scottherren/hand-foot-scoring"),
)}


@dataclass(frozen=True)
class Preset:
    """A published sheet the product ships: its id, source and the points it leaves unsaid.

    ``sheet`` is the preset today, version ``version``; ``versions`` keeps every version
    ever released (1, 2, ...), so sheets made from an earlier one still compare with it.
    ``fixed`` holds the source's rules that no option says and no recorded deal can break
    (how play goes, such as when the foot may be picked up), each a plain sentence: they are
    printed with the sheet, never scored or checked.
    """

    id: str
    title: str
    source: Source
    sheet: RuleSheet
    not_stated: Mapping[str, str]  # option -> what we chose, and why
    version: int = UNVERSIONED
    versions: Mapping[int, RuleSheet] = field(default_factory=dict)
    fixed: tuple[str, ...] = ()

    def revised(self, **changes: Any) -> Preset:
        """The preset with one more version: today's values with ``changes`` (Python values)."""
        version = self.version + 1
        sheet = self.sheet.replace(**changes, preset_version=version)
        return dataclasses.replace(self, sheet=sheet, version=version, versions={**self.versions, version: sheet})


def _common_options() -> dict[str, Any]:
    return dict(DEFAULTS)


def _partnership_options(**changes: Any) -> dict[str, Any]:
    options = _common_options()
    options.update(min_players=4, max_players=4, side_sizes=(2,), decks_rule=DecksRule.FIXED, decks=5,
                   opening_who=OpeningWho.SIDE, pile_take=PileTake.TOP, pile_needs_opened=False,
                   pile_blocked_by=frozenset({PileBlocker.BLACK_THREE, PileBlocker.RED_THREE}),
                   upcard=Upcard.BURY_WILD_RED_THREE, go_out_partner_foot=PartnerFoot.PICKED_UP)
    options.update(changes)
    return options


def _progressive_options() -> dict[str, Any]:
    """The progressive house sheet: requirements and bonuses that rise each deal, individuals
    or partnerships of 2. Its card values are the standard ones (the common sheet's)."""
    options = _common_options()
    options.update(draws_per_turn=PerDeal((3, 4, 5, 6)), opening_minimums=PerDeal((90, 120, 150, 180)),
                   books_to_go_out=PerDeal(tuple(Books(clean=n, dirty=n) for n in (3, 4, 5, 6))),
                   going_out_bonus=PerDeal((300, 400, 500, 600)), special_books=((Card.SEVEN, 1000),),
                   wild_books=True, wild_book_bonus=1500, opening_who=OpeningWho.SIDE, pile_take=PileTake.TOP,
                   pile_needs_opened=False, go_out_partner_foot=PartnerFoot.PICKED_UP, go_out_permission=True)
    return options


# Each preset: id, title, the id of its source (in SOURCES), its options, and what its source leaves unsaid.
_PRESETS: tuple[tuple[str, str, str, dict[str, Any], dict[str, str]], ...] = (
    ("common", "Common rules (individuals or partnerships)", "common-rules",
     _common_options(), {
         "red_three_penalty_hand": "not stated: no penalty, the most common choice",
         "red_three_penalty_foot": "not stated: no penalty, the most common choice",
         "opening_pile_cards": "moot: the pile can be taken only after opening",
         "cut_bonus": "not stated: no cut bonus",
     }),
    ("pagat", "Pagat, four-player partnerships", "pagat",
     _partnership_options(hand_size=13, foot_size=13, wild_ratio=WildRatio.TWICE, max_wilds=None,
                          wild_books=True, wild_book_bonus=1500, red_three_penalty_foot=100,
                          books_to_go_out=PerDeal((Books(clean=2, dirty=2, wild=1),)),
                          go_out_permission=True), {
         "red_three_penalty_hand": "not stated: no penalty for a red three left in a hand",
         "opening_who": "not stated: the side's first melds, as partnership sheets usually play",
         "pile_needs_opened": "not stated: the pile may be taken to open, the top card counting",
         "cut_bonus": "not stated: no cut bonus",
     }),
    ("bicycle", "Bicycle", "bicycle",
     _partnership_options(wild_ratio=WildRatio.NONE, max_wilds=None, min_naturals_with_wilds=4,
                          go_out_partner_foot=PartnerFoot.NO, last_card=LastCard.DISCARD), {
         "second_meld": "not stated: only after the first is a book",
         "red_three_penalty_hand": "not stated: no penalty",
         "red_three_penalty_foot": "not stated: no penalty",
         "stock_out": "not stated: the deal ends, as on Pagat's sheet",
         "min_naturals_with_wilds": "the sheet's literal reading: a meld with wild cards needs 4 naturals",
         "cut_bonus": "not stated: no cut bonus",
     }),
    ("gather-together", "Gather Together Games", "gather-together",
     _partnership_options(wild_ratio=WildRatio.AT_LEAST, max_wilds=None, pile_cards=PerDeal((8,)),
                          pile_needs=PileNeeds.MELD_TOP_CARD,
                          pile_blocked_by=frozenset({PileBlocker.BLACK_THREE})), {
         "second_meld": "not stated: only after the first is a book",
         "red_three_penalty_hand": "not stated: no penalty",
         "red_three_penalty_foot": "not stated: no penalty",
         "last_card": "not stated: melded or discarded",
         "stock_out": "not stated: the deal ends",
         "pile_cards": "the top card is melded, then the next 7 are taken: 8 cards in all",
         "cut_bonus": "not stated: no cut bonus",
     }),
    ("progressive", "Progressive house sheet (individuals or partnerships of 2)",
     "progressive",
     _progressive_options(), {
         "decks_rule": "not stated: the most common choice",
         "jokers_per_deck": "not stated: the most common choice",
         "cut_bonus": "not stated: no cut bonus",
         "upcard": "not stated: the most common choice",
         "meld_min": "the sheet: at least 3 of a card to lay down",
         "book_growth": "not stated: the most common choice",
         "second_meld": "not stated: the most common choice",
         "wild_ratio": "not stated: the most common limit",
         "max_wilds": "not stated: the most common limit",
         "special_books": "not stated whether a book of sevens may hold wild cards: the usual reading, "
                          "a dirty one is a dirty book",
         "red_three_penalty_hand": "not stated, and sheets differ: this sheet gives red threes only a bonus",
         "red_three_penalty_foot": "not stated, and sheets differ: this sheet gives red threes only a bonus",
         "opening_who": "not stated: the most common choice (for individuals, each player)",
         "opening_pile_cards": "not stated: the most common choice",
         "pile_take": "not stated: the most common choice",
         "pile_needs": "not stated: the most common choice",
         "pile_needs_opened": "not stated: the pile may be taken to open, as most sheets play",
         "pile_blocked_by": "not stated: the most common choice",
         "pile_frozen_by_wild": "not stated: no frozen pile",
         "books_to_go_out": "the sheet lists a book of sevens and a wild book beside each deal's books without "
                            "saying they are needed; its score keeper does not ask for them, so neither is "
                            "(a book of sevens counts as a clean book)",
         "go_out_foot": "not stated: as every sheet asks",
         "go_out_partner_foot": "not stated: as partnership sheets usually ask",
         "go_out_permission": "not stated: as partnership sheets usually ask",
         "last_card": "not stated: the most common choice",
         "stock_out": "not stated: the most common choice",
     }),
)

# Rules of play a preset's source states that no option says and no recorded deal can break,
# printed with its sheet (Preset.fixed), by preset id.
_FIXED: dict[str, tuple[str, ...]] = {
    "progressive": ("A player picks up the foot only once every card of the hand has been played.",),
}

# Each later version of a preset, as the options it changes from the version before, in
# order: (preset id, {option: value}). Never edit a released version's values (the
# presets above are version 1); add a version here, so stored games keep theirs.
_REVISIONS: tuple[tuple[str, dict[str, Any]], ...] = (
    # Pagat, version 2: its sheet's own words on two points. A red three costs its penalty when
    # it is "still buried because the opponents went out" before the foot was opened, and a
    # partner must have picked up the foot "and played at least part of a turn from it".
    ("pagat", {"red_three_penalty_foot_when": FootWhen.OPPONENTS_OUT, "go_out_partner_foot": PartnerFoot.PLAYED}),
)


def _presets() -> dict[str, Preset]:
    out = {}
    for id_, title, source, options, silent in _PRESETS:
        sheet = RuleSheet(**options, preset=id_, preset_version=UNVERSIONED)
        out[id_] = Preset(id_, title, SOURCES[source], sheet, silent, UNVERSIONED, {UNVERSIONED: sheet},
                          _FIXED.get(id_, ()))
    for id_, changes in _REVISIONS:
        out[id_] = out[id_].revised(**changes)
    return out


PRESETS: dict[str, Preset] = _presets()


def preset(preset_id: Any, field: str = "preset") -> RuleSheet:
    """The sheet of a shipped preset.

    >>> preset("pagat").hand_size
    13
    >>> preset("house")
    Traceback (most recent call last):
    ...
    scorepad.rules.errors.SheetError: preset: 'house' is not a preset; presets are bicycle, common, gather-together, pagat, progressive
    """  # noqa: E501 (a doctest's expected message is one line)
    found = PRESETS.get(preset_id) if isinstance(preset_id, str) else None
    if found is None:
        raise SheetError(field, f"{preset_id!r} is not a preset; presets are {', '.join(sorted(PRESETS))}")
    return found.sheet


_META = ("schema", "preset", "preset_version")


def load_sheet(data: Any, field: str = "sheet", stored: bool = False) -> RuleSheet:
    """A sheet from its JSON form: a preset id, or an object with ``preset`` and options.

    ``preset_version`` picks the preset's version the options change (today's when not
    given). Without ``preset``, the object must give every option. ``stored`` reads what
    scorepad itself wrote before (the database, an export): an option missing from it did
    not exist then and takes its declared default, and a sheet without ``preset_version``
    was made before versions were recorded. Errors name the option.

    >>> load_sheet("bicycle").last_card
    <LastCard.DISCARD: 'discard'>
    >>> load_sheet({"preset": "common", "book_size": 2})
    Traceback (most recent call last):
    ...
    scorepad.rules.errors.SheetError: sheet.book_size: must be from 3 to 13, not 2
    """
    if isinstance(data, RuleSheet):
        return data
    if isinstance(data, str):
        return preset(data, field)
    if not isinstance(data, Mapping):
        raise SheetError(field, "must be a preset id such as 'pagat', or a sheet object")
    base = _base_of(data, field, stored)
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key in _META:
            continue
        option = OPTION_BY_NAME.get(key)
        if option is None:
            raise SheetError(f"{field}.{key}", "is not an option of a rule sheet")
        values[key] = option.read(value, f"{field}.{key}", getattr(base, key) if base else None)
    if base is None:
        missing = [o.name for o in OPTIONS if o.name not in values]
        if stored:
            values.update({name: OPTION_BY_NAME[name].default for name in missing})
        elif missing:
            raise SheetError(f"{field}.{missing[0]}", "is missing; a sheet without a preset gives every option")
        try:
            return RuleSheet(**values)
        except SheetError as err:
            raise err.within(field) from None
    try:
        return dataclasses.replace(base, **values)
    except SheetError as err:
        raise err.within(field) from None


def _base_of(data: Mapping[str, Any], field: str, stored: bool) -> RuleSheet | None:
    """The preset version a sheet object starts from, its ``schema`` checked."""
    schema = data.get("schema", SHEET_SCHEMA)
    if isinstance(schema, bool) or schema not in range(1, SHEET_SCHEMA + 1):
        raise SheetError(f"{field}.schema", f"{schema!r:.20} is not a sheet schema this scorepad reads "
                         f"(1 to {SHEET_SCHEMA}); it was written by a newer version")
    preset_id, version = data.get("preset"), data.get("preset_version")
    if preset_id is None:
        return None  # the sheet gives every option itself: a preset_version left behind says nothing
    preset(preset_id, f"{field}.preset")  # refuses an unknown preset, naming the field
    found = PRESETS[preset_id]
    if version is None:
        version = UNVERSIONED if stored else found.version
    if not isinstance(version, int) or isinstance(version, bool) or version not in found.versions:
        raise SheetError(f"{field}.preset_version", f"{preset_id} has versions 1 to {found.version}, "
                         f"not {version!r:.20}")
    return found.versions[version]
