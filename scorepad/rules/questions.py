"""The referee's four questions, read from JSON or from a page's query string, and answered.

Plain Python, no web framework: the JSON API (:mod:`scorepad.api.referee`), the pages
(:mod:`scorepad.web.referee`) and the command line (``scorepad referee``) all ask through
:data:`QUESTIONS`. Each reader takes a question's fields as JSON values or, from a page's
query string or the command line (``forms=True``), as text; input it cannot use raises
:class:`~scorepad.rules.ReadError` naming the field, never anything else.

>>> from scorepad.rules import preset
>>> ask, fields = QUESTIONS["meld"]
>>> answer = ask(preset("pagat"), {"meld": "9 9 2"})
>>> answer.yes, answer.to_json(preset("pagat"))["reasons"][-1]["label"]
(True, 'Wild cards against naturals')
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from . import ReadError, RuleSheet, load_sheet
from .books import HeldBooks, held_by_rank
from .cards import EMPTY, Card, Cards, parse_card
from .choices import LastCard
from .deal import Meld
from .limits import MAX_COUNT, MAX_DEALS, MAX_MELDS, MAX_PER_SIDE, MAX_POINTS
from .rulings import Ruling, can_go_out, can_meld, can_take_pile, meets_minimum

# -- reading one field ---------------------------------------------------------------------------


def blank(value: object) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def read_int(value: object, field: str, lo: int, hi: int, forms: bool = False) -> int:
    """A whole number from ``lo`` to ``hi``; on a page, its text.

    >>> read_int("3", "pair", 0, 9, forms=True), read_int(3, "pair", 0, 9)
    (3, 3)
    >>> read_int("3", "pair", 0, 9)
    Traceback (most recent call last):
    ...
    scorepad.rules.errors.ReadError: pair: must be a whole number, not '3'
    """
    if forms and isinstance(value, str):
        text = value.strip().replace(",", "")
        if not re.fullmatch(r"[-−]?\d{1,12}", text):
            raise ReadError(field, f"must be a whole number, not {value[:20]!r}")
        value = int(text.replace("−", "-"))
    if isinstance(value, bool) or not isinstance(value, int):
        raise ReadError(field, f"must be a whole number, not {value!r:.40}")
    if not lo <= value <= hi:
        raise ReadError(field, f"must be from {lo:,} to {hi:,}, not {value:,}")
    return value


_YES = ("yes", "true", "on", "1", "y")
_NO = ("no", "false", "off", "0", "n")


def read_bool(value: object, field: str, forms: bool = False) -> bool:
    """True or false; on a page, ``yes`` or ``no``."""
    if forms and isinstance(value, str):
        text = value.strip().lower()
        if text in _YES:
            return True
        if text in _NO:
            return False
        raise ReadError(field, f"must be yes or no, not {value[:20]!r}")
    if not isinstance(value, bool):
        raise ReadError(field, f"must be true or false, not {value!r:.40}")
    return value


def read_card(value: object, field: str) -> Card:
    if not isinstance(value, str) or not value.strip():
        raise ReadError(field, "must be a card: A K Q J 10 9 8 7 6 5 4 2 JK 3B 3R")
    return parse_card(value, field)


def read_cards(value: object, field: str) -> Cards:
    """Cards as a card string (``"K K 2"``) or counts (``{"K": 2}``); none when blank."""
    if blank(value):
        return EMPTY
    cards = Cards.from_json(value, field)
    if min(cards.counts()) < 0:
        raise ReadError(field, "cannot hold a negative number of cards")
    if cards.total > MAX_COUNT:
        raise ReadError(field, f"holds {cards.total:,} cards; no pack holds more than {MAX_COUNT:,}")
    return cards


def read_meld(value: object, field: str) -> Meld:
    """One meld: a card string (``"Q Q Q 2"``) or ``{"rank", "naturals", "twos", "jokers"}``."""
    if blank(value):
        raise ReadError(field, "is empty: give the meld's cards, such as 'Q Q Q 2'")
    meld = Meld.from_json(value, field)
    if min(meld.naturals, meld.twos, meld.jokers) < 0:
        raise ReadError(field, "cannot hold a negative number of cards")
    if meld.size == 0:
        raise ReadError(field, "is empty: give the meld's cards, such as 'Q Q Q 2'")
    if meld.size > MAX_COUNT:
        raise ReadError(field, f"holds {meld.size:,} cards; no pack holds more than {MAX_COUNT:,}")
    return meld


def read_melds(value: object, field: str) -> list[Meld]:
    """Melds as a list, or on a page one card string with the melds split by ``;`` or new lines."""
    if blank(value):
        return []
    if isinstance(value, str):
        items: list[object] = [part for part in re.split(r"[;\n\r|]+", value) if part.strip()]
    elif isinstance(value, list):
        items = value
    else:
        raise ReadError(field, "must be a list of melds, such as [\"K K K\", \"Q Q Q 2\"]")
    if len(items) > MAX_MELDS:
        raise ReadError(field, f"lists {len(items)} melds; at most {MAX_MELDS}")
    return [read_meld(item, f"{field}[{i}]") for i, item in enumerate(items)]


def read_optional_bool(value: object, field: str, forms: bool) -> bool | None:
    return None if blank(value) else read_bool(value, field, forms)


# -- the questions ---------------------------------------------------------------------------------


class Numbered(Protocol):
    number: int


class Recorded(Protocol):
    """What a question reads of a recorded game (storage's ``GameRecord`` is one)."""

    @property
    def next_number(self) -> int | None: ...

    @property
    def deals(self) -> Sequence[Numbered]: ...

    def totals_before(self, deal: int) -> dict[str, int]: ...


class Context:
    """What a question may take from a recorded game (a :class:`Recorded`, such as
    :class:`~scorepad.storage.reading.GameRecord`): its current deal, and its sides' running totals."""

    def __init__(self, game: Recorded | None = None) -> None:
        self.game = game

    @property
    def deal(self) -> int:
        return current_deal(self.game) if self.game else 1

    def running_total(self, side: object, deal: int, field: str = "side") -> int:
        if self.game is None:
            raise ReadError(field, "names a side of a recorded game; give running_total instead")
        totals = self.game.totals_before(deal)
        if not isinstance(side, str) or side.strip() not in totals:
            raise ReadError(field, f"must be one of this game's sides: {', '.join(totals)}")
        return totals[side.strip()]


def current_deal(game: Recorded) -> int:
    """The deal a table is playing: the next to record, or (the game over) the last recorded."""
    if game.next_number is not None:
        return game.next_number
    return max((d.number for d in game.deals), default=1)


def _deal(data: Mapping[str, object], forms: bool, context: Context) -> int:
    value = data.get("deal")
    return context.deal if blank(value) else read_int(value, "deal", 1, MAX_DEALS, forms)


def ask_meld(sheet: RuleSheet, data: Mapping[str, object], forms: bool = False,
             context: Context | None = None) -> Ruling:
    """Is this meld legal? ``meld`` (new, or the cards added to ``adding_to``), ``table``.

    >>> from scorepad.rules import preset
    >>> ask_meld(preset("pagat"), {"meld": "9 9 2"}).yes
    True
    >>> ask_meld(preset("common"), {"meld": "2", "adding_to": "K K 2"}).reasons[0].option
    'wild_ratio'
    """
    if "meld" not in data or blank(data.get("meld")):
        raise ReadError("meld", "is missing: the meld's cards, such as 'Q Q Q 2'")
    meld = read_meld(data["meld"], "meld")
    adding_to = None if blank(data.get("adding_to")) else read_meld(data["adding_to"], "adding_to")
    return can_meld(sheet, meld, adding_to=adding_to, table=read_melds(data.get("table"), "table"))


def ask_go_out(sheet: RuleSheet, data: Mapping[str, object], forms: bool = False,
               context: Context | None = None, every_condition: bool = False) -> Ruling:
    """May we go out now? The side's ``books`` (counts) or ``melds``, and how the player stands
    (``foot_played``; in a deal with a knee, ``knee_played``, not given: as the foot).
    ``every_condition``: the answer speaks to every condition the sheet sets, a condition not
    said being one not met; a form's ``partners_picked_up`` may then be ``none`` (no partner).

    >>> from scorepad.rules import preset
    >>> ask_go_out(preset("common"), {"books": {"clean": 1, "dirty": 1}}).yes
    True
    """
    context = context or Context()
    deal = _deal(data, forms, context)
    melds, books = data.get("melds"), data.get("books")
    if not blank(melds) and not blank(books) and not forms:
        raise ReadError("books", "give the books by kind, or the melds, not both")
    counts = None
    if blank(melds) or not forms and not blank(books):
        if blank(books):
            raise ReadError("books", 'is missing: the books on the table, as {"clean": 1, "dirty": 1, "wild": 0}, '
                            "or give the melds")
        if not isinstance(books, Mapping):
            raise ReadError("books", 'must be an object such as {"clean": 1, "dirty": 1, "wild": 0}')
        for key in books:
            if key not in BOOK_KINDS:
                raise ReadError(f"books.{key}", f"is not a kind of book ({', '.join(BOOK_KINDS)})")
        counts = _held_books(books, forms)
    table = read_melds(melds, "melds") if counts is None else ()
    foot_played = True if blank(data.get("foot_played")) else read_bool(data["foot_played"], "foot_played", forms)
    knee_played = None if blank(data.get("knee_played")) else read_bool(data["knee_played"], "knee_played", forms)
    no_partner = every_condition and forms and data.get("partners_picked_up") == "none"
    picked = [] if no_partner else _partners(data, "partners_picked_up", forms)
    played = (_partners(data, "partners_played", forms)
              if not (no_partner or blank(data.get("partners_played"))) else None)
    last = data.get("last_card")
    last_card = None
    if not blank(last):
        if last not in ("meld", "discard"):
            raise ReadError("last_card", f"must be 'meld' or 'discard', not {last!r:.40}")
        last_card = LastCard(last)
    permission = _permission(data.get("permission"), forms)
    return can_go_out(sheet, deal, melds=table, books=counts, foot_played=foot_played, partners_picked_up=picked,
                      partners_played=played, permission=permission, last_card=last_card, knee_played=knee_played,
                      every_condition=every_condition, no_partner=no_partner)


# The go-out question's permission in the words a deal's ``permission`` uses; true and false
# (the old spelling: true yes, false no) are still read.
PERMISSION_WORDS: dict[str, bool | None] = {"asked-yes": True, "asked-no": False, "not-asked": None}


def _permission(value: object, forms: bool) -> bool | None:
    if isinstance(value, str) and value in PERMISSION_WORDS:
        return PERMISSION_WORDS[value]
    if isinstance(value, str) and not forms:
        raise ReadError("permission", f"must be {', '.join(map(repr, PERMISSION_WORDS))}, as in a deal, "
                        f"not {value!r:.40}")
    return read_optional_bool(value, "permission", forms)


# The kinds of book the go-out question counts, as its ``books`` names them (the command line's
# ``--books`` too): special and special_dirty are clean and dirty books of a special rank, by
# rank ({"7": 1}) as in a deal's books; special_count and special_dirty_count count them
# without their ranks (a count under special or special_dirty, the old spelling, is still read).
BOOK_KINDS: tuple[str, ...] = ("clean", "dirty", "wild", "special", "special_dirty", "special_count",
                               "special_dirty_count")
BY_RANK = ("special", "special_dirty")  # the kinds counted by rank, {"7": 1}
COUNTED_SPECIAL = {"special_count": "special", "special_dirty_count": "special_dirty"}  # by rank: what each counts


def _held_books(books: Mapping[str, object], forms: bool) -> HeldBooks:
    """The go-out question's books: a count of each kind; special and special_dirty may instead
    be counts by rank (``{"7": 1, "5": 1}``; 3R and 3B for books of threes), which fill the
    books a sheet asks for by rank."""
    ranks: dict[Card, list[int]] = {}
    plain = {}
    for key in BOOK_KINDS:
        given = books.get(key)
        if isinstance(given, Mapping) and key in BY_RANK:
            for code, n in given.items():
                here = f"books.{key}.{code}"
                card = parse_card(str(code), here)
                if not (card.is_natural or card in (Card.RED_THREE, Card.BLACK_THREE)):
                    raise ReadError(here, "a special book is of a rank from A to 4, or of threes (3R, 3B)")
                if not blank(n):
                    ranks.setdefault(card, [0, 0])[BY_RANK.index(key)] += read_int(n, here, 0, MAX_MELDS, forms)
            plain[key] = 0
        else:
            plain[key] = 0 if blank(given) else read_int(given, f"books.{key}", 0, MAX_MELDS, forms)
    held = held_by_rank(plain["clean"], plain["dirty"], plain["wild"], ranks)
    return held._replace(special=held.special + plain["special"] + plain["special_count"],
                         special_dirty=held.special_dirty + plain["special_dirty"] + plain["special_dirty_count"])


def _partners(data: Mapping[str, object], key: str, forms: bool) -> list[bool]:
    """True or false for each partner's foot (picked up, or played from)."""
    partners = data.get(key)
    if blank(partners):
        return []
    if forms and isinstance(partners, str):
        return [read_bool(partners, key, forms)]
    if isinstance(partners, list) and len(partners) < MAX_PER_SIDE:
        return [read_bool(p, f"{key}[{i}]") for i, p in enumerate(partners)]
    raise ReadError(key, "must be a list with true or false for each partner's foot")


def ask_pile(sheet: RuleSheet, data: Mapping[str, object], forms: bool = False,
             context: Context | None = None) -> Ruling:
    """May I take the pile? ``top_card``, ``pair``, ``wilds``, ``opened``, ``pile_size``, ...

    >>> from scorepad.rules import preset
    >>> ask_pile(preset("pagat"), {"top_card": "9", "pair": 2, "pile_size": 5}).yes
    True
    """
    context = context or Context()
    deal = _deal(data, forms, context)
    if blank(data.get("top_card")):
        raise ReadError("top_card", "is missing: the card on top of the pile, such as 9 or 3B")
    top = read_card(data["top_card"], "top_card")
    if blank(data.get("pile_size")):
        raise ReadError("pile_size", "is missing: how many cards are in the pile")

    def count(key: str, hi: int = MAX_COUNT) -> int:
        return 0 if blank(data.get(key)) else read_int(data[key], key, 0, hi, forms)

    return can_take_pile(sheet, deal, top_card=top, pair=count("pair"), wilds=count("wilds"),
                         opened=False if blank(data.get("opened")) else read_bool(data["opened"], "opened", forms),
                         pile_size=count("pile_size"),
                         pile_has_wild=False if blank(data.get("pile_has_wild"))
                         else read_bool(data["pile_has_wild"], "pile_has_wild", forms),
                         table=read_melds(data.get("table"), "table"))


def ask_minimum(sheet: RuleSheet, data: Mapping[str, object], forms: bool = False,
                context: Context | None = None) -> Ruling:
    """Do these first melds meet the minimum? ``melds`` (every card laid, the pile's top card
    and any buried pile cards included), ``top_card``, ``buried``, ``deal``, ``running_total``.

    >>> from scorepad.rules import preset
    >>> ask_minimum(preset("common"), {"melds": ["K K K", "Q Q Q"], "deal": 3}).yes
    False
    """
    context = context or Context()
    deal = _deal(data, forms, context)
    melds = read_melds(data.get("melds"), "melds")
    if not melds:
        raise ReadError("melds", "is missing: the first melds, such as [\"K K K\", \"Q Q Q\"]")
    top = None if blank(data.get("top_card")) else read_card(data["top_card"], "top_card")
    buried = read_cards(data.get("buried"), "buried")
    laid = EMPTY
    for meld in melds:
        laid = laid + meld.cards()
    if top is not None and laid[top] < 1:
        raise ReadError("top_card", f"the melds hold no {top.value}: list the melds with the pile's top card in them")
    for card, n in buried.items():
        if laid[card] - (1 if card is top else 0) < n:
            raise ReadError("buried", "the melds do not hold these cards: list the melds with the buried cards in them")
    if not blank(data.get("running_total")):
        running = read_int(data["running_total"], "running_total", -MAX_POINTS, MAX_POINTS, forms)
    elif not blank(data.get("side")):
        running = context.running_total(data["side"], deal)
    else:
        running = 0
    return meets_minimum(sheet, deal, melds, top_card=top, buried=buried, running_total=running)


QUESTIONS: dict[str, tuple[Callable[..., Ruling], tuple[str, ...]]] = {
    "meld": (ask_meld, ("meld", "adding_to", "table")),
    "go-out": (ask_go_out, ("deal", "books", "melds", "foot_played", "knee_played", "partners_picked_up",
                            "partners_played", "permission", "last_card")),
    "pile": (ask_pile, ("deal", "top_card", "pair", "wilds", "opened", "pile_size", "pile_has_wild", "table")),
    "minimum": (ask_minimum, ("deal", "melds", "top_card", "buried", "running_total", "side")),
}




def read_sheet(value: object, field: str = "sheet", text: bool = False) -> RuleSheet:
    """A sheet: a preset id or a sheet object; ``text`` also reads a sheet object as JSON text."""
    if blank(value):
        raise ReadError(field, "is missing: a preset id such as 'pagat', or a sheet object")
    if text and isinstance(value, str) and value.strip().startswith("{"):
        try:
            value = json.loads(value)
        except RecursionError:
            raise ReadError(field, "is nested too deeply: a sheet object is a preset and the options it changes") \
                from None
        except ValueError as err:
            raise ReadError(field, f"is not valid JSON: {getattr(err, 'msg', err)}") from None
    elif isinstance(value, str):
        value = value.strip()
    return load_sheet(value, field)
