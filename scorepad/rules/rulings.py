"""The referee's questions, answered yes or no with the reasons, each citing the sheet.

Four questions come up at every table: is this meld legal (:func:`can_meld`), may we go
out (:func:`can_go_out`), may I take the pile (:func:`can_take_pile`), and do these first
melds meet the minimum (:func:`meets_minimum`). Each returns a :class:`Ruling`: ``yes``,
and the :class:`Reason` values behind it, the failed ones first. A reason names the sheet
option it rests on, and :meth:`Ruling.to_json` adds what the sheet says about it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .books import HeldBooks, books_held, books_short, books_toward, by_rank_progress, held_by_rank
from .cards import EMPTY, Card, Cards, Rank
from .choices import (
    BookGrowth,
    Books,
    LastCard,
    OpeningPileCards,
    OpeningWho,
    PartnerFoot,
    PileBlocker,
    PileNeeds,
    PileTake,
    SecondMeld,
)
from .deal import Meld
from .melds import meld_problems
from .read import JSON
from .sheet import RuleSheet


class Reason(NamedTuple):
    ok: bool
    message: str
    option: str | None = None


class Ruling(NamedTuple):
    """A yes or no, with every reason the referee weighed."""

    yes: bool
    reasons: tuple[Reason, ...]

    def to_json(self, sheet: RuleSheet) -> dict[str, JSON]:
        """The answer as JSON: each reason with the option it rests on, as ``sheet`` cites it
        (what the sheet says, and the option's label), or None for both."""
        reasons: list[JSON] = []
        for r in self.reasons:
            cited = sheet.cite(r.option)
            reasons.append({"ok": r.ok, "message": r.message, "option": r.option,
                            "sheet_says": cited.words if cited else None, "label": cited.label if cited else None})
        return {"yes": self.yes, "reasons": reasons}

    @property
    def why(self) -> str:
        """The reasons as one paragraph."""
        return " ".join(r.message for r in self.reasons)


def _answer(reasons: list[Reason]) -> Ruling:
    ordered = [r for r in reasons if not r.ok] + [r for r in reasons if r.ok]
    return Ruling(all(r.ok for r in reasons), tuple(ordered))


def _meld_reasons(sheet: RuleSheet, meld: Meld) -> list[Reason]:
    problems = list(meld_problems(sheet, meld))
    reasons = [Reason(False, p.message, p.option) for p in problems]
    if not problems and meld.size > sheet.book_size:
        reasons.append(Reason(True, f"{meld.size} cards: a book of {sheet.book_size} grown past its size, as this "
                              f"sheet allows ({sheet.describe('book_growth')}).", "book_growth"))
    elif not problems:
        reasons.append(Reason(True, f"{meld.size} cards: a meld has {sheet.meld_min} to {sheet.book_size} cards "
                              f"and {sheet.book_size} make a book.", "meld_min"))
        if meld.rank is Rank.WILD:
            reasons.append(Reason(True, "This sheet allows melds of wild cards only.", "wild_books"))
        elif meld.wilds:
            reasons.append(Reason(True, f"{meld.naturals} naturals and {meld.wilds} wild: within the wild-card "
                                  f"limit ({sheet.describe('wild_ratio')}; most wild cards: "
                                  f"{sheet.describe('max_wilds')}).", "wild_ratio"))
    return reasons


def can_meld(sheet: RuleSheet, meld: Meld, *, adding_to: Meld | None = None,
             table: Sequence[Meld] = ()) -> Ruling:
    """Is this meld legal, new or added to ``adding_to``? ``table`` is the side's other melds.

    >>> from scorepad.rules import preset
    >>> can_meld(preset("pagat"), Meld(Rank.NINE, 3, 2)).yes
    False
    >>> can_meld(preset("pagat"), Meld(Rank.NINE, 1), adding_to=Meld(Rank.NINE, 2, 1)).yes
    True
    """
    if adding_to is None:
        reasons = _meld_reasons(sheet, meld)
        open_same = [m for m in table if m.rank is meld.rank and m.size < sheet.book_size]
        if open_same and sheet.second_meld is SecondMeld.AFTER_BOOK and meld.rank is not Rank.THREE:
            reasons.append(Reason(False, f"The side already has an unfinished meld of {meld.rank.noun}: add to it; "
                                  "a second meld of a rank may start only once the first is a book.", "second_meld"))
        same = sum(1 for m in table if m.rank is meld.rank)
        if sheet.max_books_per_rank is not None and meld.rank is not Rank.WILD and same >= sheet.max_books_per_rank:
            reasons.append(Reason(False, f"The side already has {same} melds of {meld.rank.noun}, and a side may make "
                                  f"at most {sheet.max_books_per_rank} books of a rank.", "max_books_per_rank"))
        return _answer(reasons)
    if meld.rank is not adding_to.rank and meld.naturals:
        return _answer([Reason(False, f"{meld.rank.noun.capitalize()} cannot go on a meld of {adding_to.rank.noun}.")])
    added = Meld(adding_to.rank, meld.naturals, meld.twos, meld.jokers)
    if adding_to.size >= sheet.book_size:
        refused = _book_refuses(sheet, adding_to, added)
        if refused is not None:
            return _answer([refused])
    return _answer(_meld_reasons(sheet, adding_to.plus(added)))


def _book_refuses(sheet: RuleSheet, book: Meld, added: Meld) -> Reason | None:
    """Why a finished book takes none of these cards, by the rule of its kind (``book_growth``) and, for a clean
    book, ``no_wild_on_clean_book``; None when it may take them (the grown meld is judged after)."""
    dirty = _dirty(book)
    growth = sheet.growth(dirty)
    kind = "" if isinstance(sheet.book_growth, BookGrowth) else "dirty " if dirty else "clean "
    if growth is BookGrowth.CLOSED:
        return Reason(False, f"That meld is a finished {kind}book of {sheet.book_size}; it takes no more cards.",
                      "book_growth")
    if growth is BookGrowth.NATURALS and added.wilds:
        return Reason(False, f"A finished {kind}book may grow with natural cards only.", "book_growth")
    if not dirty and added.wilds and sheet.no_wild_on_clean_book:
        return Reason(False, "A finished clean book takes natural cards only: no wild card goes onto it.",
                      "no_wild_on_clean_book")
    return None


def can_go_out(sheet: RuleSheet, deal: int, *, melds: Sequence[Meld] = (), books: Books | HeldBooks | None = None,
               foot_played: bool = True, partners_picked_up: Sequence[bool] = (),
               partners_played: Sequence[bool] | None = None,
               permission: bool | None = None, last_card: LastCard | None = None,
               knee_played: bool | None = None, every_condition: bool = False,
               no_partner: bool = False) -> Ruling:
    """May a player of this side go out now?

    Give the side's ``melds`` (or its ``books`` counted by kind: ``special`` for clean books of
    a special rank, a :class:`~.books.HeldBooks` for dirty ones too), whether the player has
    picked up and played the foot (and, in a deal with a knee, ``knee_played``: the knee before it;
    not given, as ``foot_played``), each partner's foot (picked up or not; ``partners_played``,
    when given, whether each played from it), whether the partner said yes, and how the last
    card would go (melded or discarded). Books count as the deal's verdict counts them
    (:func:`~.books.books_toward`).

    With ``every_condition`` the answer speaks to each condition the sheet sets (the partner's
    foot, permission, the last card): one not said is a reason not met, saying what to tell;
    ``no_partner`` says the player has no partner, so the partner's conditions do not apply.

    >>> from scorepad.rules import preset
    >>> can_go_out(preset("common"), 1, books=Books(clean=1, dirty=1)).yes
    True
    >>> can_go_out(preset("bicycle"), 1, books=Books(clean=1, dirty=1), last_card=LastCard.MELD).yes
    False
    """
    need = sheet.going_out_books(deal)
    if books is None:
        held = books_held(sheet, melds)
    elif isinstance(books, Books):  # clean special books: of no rank said (special), or by rank (named)
        held = held_by_rank(books.clean, books.dirty, books.wild, {card: [n, 0] for card, n in books.named})
        held = held._replace(special=held.special + books.special)
    else:
        held = books
    toward = books_toward(sheet, need, held)
    has = f"{held.clean} clean, {held.dirty} dirty" + (f", {held.wild} wild" if sheet.wild_books else "")
    has += "".join(f", {n} {kind}" for kind, n in (("special", held.special), ("dirty special", held.special_dirty))
                   if n)
    by_rank = by_rank_progress(need, toward)
    reasons = [Reason(books_short(need, toward) == Books(), f"Deal {deal} needs {need.books} to go out; the side "
                      f"has {has}" + (f" ({by_rank})." if by_rank else ".")
                      + (" A clean book does not stand in for a dirty one."
                         if toward.dirty < need.dirty <= toward.clean + toward.dirty - need.clean else ""),
                      "books_to_go_out")]
    knee = foot_played if knee_played is None else knee_played
    if sheet.go_out_foot and sheet.knee_at(deal):
        reasons.append(Reason(knee, "The knee has been picked up and played." if knee
                              else "The knee, and then the foot, must be picked up and played before going out.",
                              "go_out_foot"))
    if sheet.go_out_foot and (knee or foot_played or not sheet.knee_at(deal)):  # the knee's reason says the foot
        reasons.append(Reason(foot_played, "The foot has been picked up and played." if foot_played
                              else "The foot must be picked up and played before going out.", "go_out_foot"))
    if every_condition:
        return _answer(reasons + _every_other_condition(sheet, partners_picked_up, partners_played, permission,
                                                        last_card, no_partner))
    if sheet.go_out_partner_foot is not PartnerFoot.NO and partners_picked_up:
        reasons.append(_partners_reason(sheet.go_out_partner_foot, partners_picked_up, partners_played))
    if partners_picked_up or permission is not None:
        reasons += permission_reason(sheet, permission)
    if last_card is not None:
        reasons += last_card_reason(sheet, last_card)
    return _answer(reasons)


def _every_other_condition(sheet: RuleSheet, picked_up: Sequence[bool], played: Sequence[bool] | None,
                           permission: bool | None, last_card: LastCard | None, no_partner: bool) -> list[Reason]:
    """A reason for each condition past the books and the foot that the sheet sets, said or not:
    the partner's foot, the partner's permission and how the last card goes."""
    reasons: list[Reason] = []
    rule = sheet.go_out_partner_foot
    if rule is not PartnerFoot.NO:
        if no_partner:
            reasons.append(Reason(True, "No partner, so the partner's foot does not apply.", "go_out_partner_foot"))
        elif not picked_up:
            reasons.append(Reason(False, "Not said yet: whether your partner has picked up their foot"
                                  + (" and played from it" if rule is PartnerFoot.PLAYED else "")
                                  + "; this sheet asks it before going out.", "go_out_partner_foot"))
        elif rule is PartnerFoot.PLAYED and played is None and all(picked_up):
            reasons.append(Reason(False, "Your partner has picked up the foot; not said yet: whether they have "
                                  "played from it, as this sheet asks before going out.", "go_out_partner_foot"))
        else:
            reasons.append(_partners_reason(rule, picked_up, played))
    if sheet.go_out_permission:
        reasons += ([Reason(True, "No partner to ask, so permission does not apply.", "go_out_permission")]
                    if no_partner else permission_reason(sheet, permission))
    if sheet.last_card is not LastCard.EITHER:
        reasons += (last_card_reason(sheet, last_card) if last_card is not None else
                    [Reason(False, f"Not said yet: how your last card goes; on this sheet the last card "
                            f"{sheet.describe('last_card')}.", "last_card")])
    return reasons


def _partners_reason(rule: PartnerFoot, picked_up: Sequence[bool], played: Sequence[bool] | None) -> Reason:
    """Whether every partner has picked up the foot (and, where the sheet asks, played from it)."""
    if any(not picked for picked in picked_up):
        return Reason(False, "A partner has not picked up the foot yet.", "go_out_partner_foot")
    if rule is PartnerFoot.PLAYED and played is not None and not all(played):
        return Reason(False, "A partner has picked up the foot but not played from it yet.", "go_out_partner_foot")
    return Reason(True, "Every partner has picked up the foot" + (" and played from it." if rule is PartnerFoot.PLAYED
                                                                  else "."), "go_out_partner_foot")


def permission_reason(sheet: RuleSheet, permission: bool | None) -> list[Reason]:
    """Where the sheet says so (``go_out_permission``), a partner was asked "may I go out?" and
    said yes (``permission``: True yes, False no, None not asked); nothing on other sheets."""
    if not sheet.go_out_permission:
        return []
    return [Reason(permission is True,
                   "Your partner said yes." if permission else
                   "Ask your partner \"may I go out?\" first; if they say no, keep two cards."
                   if permission is None else "Your partner said no: keep at least two cards.",
                   "go_out_permission")]


def last_card_reason(sheet: RuleSheet, last_card: LastCard) -> list[Reason]:
    """Where the sheet says how the last card goes (``last_card``), whether it went so; nothing
    on a sheet where it is melded or discarded."""
    if sheet.last_card is LastCard.EITHER:
        return []
    return [Reason(last_card is sheet.last_card, f"The last card {sheet.describe('last_card')}.", "last_card")]


def can_take_pile(sheet: RuleSheet, deal: int, *, top_card: Card, pair: int, wilds: int = 0,
                  opened: bool, pile_size: int, pile_has_wild: bool = False,
                  table: Sequence[Meld] = ()) -> Ruling:
    """May this player take the discard pile instead of drawing?

    ``pair``: natural cards of the top card's rank in the hand; ``wilds``: wild cards in
    the hand; ``opened``: whether the side's first melds are down; ``table``: the side's
    melds (a pair and the top card go onto an unfinished meld of their rank, where the sheet
    starts a second meld of a rank only after a book).

    >>> from scorepad.rules import preset
    >>> can_take_pile(preset("pagat"), 1, top_card=Card.NINE, pair=2, opened=False, pile_size=12).yes
    True
    >>> can_take_pile(preset("common"), 1, top_card=Card.NINE, pair=2, opened=True, pile_size=5).yes
    False
    """
    if sheet.pile_take is PileTake.NEVER:
        return _answer([Reason(False, "On this sheet the discard pile is never taken.", "pile_take")])
    if pile_size < 1:
        return _answer([Reason(False, "The pile is empty.")])
    count = sheet.pile_cards.at(deal)
    reasons = [*_pile_blocked(sheet, top_card), *_pile_full(sheet, count, pile_size), *_side_opened(sheet, opened),
               *_top_card_melded(sheet, top_card, pair, wilds, pile_has_wild, table)]
    if all(r.ok for r in reasons):
        reasons += _what_is_taken(sheet, deal, count, pile_size, opened)
    return _answer(reasons)


def _blocker(card: Card) -> PileBlocker | None:
    """The kind of card that may block the pile (``pile_blocked_by``), if this card is one."""
    return (PileBlocker.BLACK_THREE if card is Card.BLACK_THREE else PileBlocker.RED_THREE
            if card is Card.RED_THREE else PileBlocker.WILD if card.is_wild else None)


def _pile_blocked(sheet: RuleSheet, top_card: Card) -> list[Reason]:
    """The card on top may block the pile (``pile_blocked_by``); a three on top, never melded, always does."""
    blocker = _blocker(top_card)
    if blocker is not None and blocker in sheet.pile_blocked_by:
        return [Reason(False, f"The pile is blocked: {sheet.describe('pile_blocked_by')}.", "pile_blocked_by")]
    if top_card in (Card.BLACK_THREE, Card.RED_THREE):
        return [Reason(False, "A three on top cannot be melded, so the pile cannot be taken with it.")]
    return []


def _pile_full(sheet: RuleSheet, count: int, pile_size: int) -> list[Reason]:
    """Where only a full pile is taken (``pile_take``), it must hold the deal's ``pile_cards``."""
    if sheet.pile_take is not PileTake.TOP_IF_FULL:
        return []
    return [Reason(pile_size >= count, f"The pile may be taken only when it has {count} or more cards; "
                   f"it has {pile_size}.", "pile_take")]


def _side_opened(sheet: RuleSheet, opened: bool) -> list[Reason]:
    """Where the sheet says so (``pile_needs_opened``), only a side whose first melds are down takes the pile."""
    if not sheet.pile_needs_opened:
        return []
    return [Reason(opened, "The side's first melds are down." if opened else
                   "The side must meet its opening minimum before taking the pile.", "pile_needs_opened")]


def _top_card_melded(sheet: RuleSheet, top_card: Card, pair: int, wilds: int, pile_has_wild: bool,
                     table: Sequence[Meld]) -> list[Reason]:
    """The top card is melded at once, as the sheet says (``pile_needs``, ``pile_frozen_by_wild``,
    ``pile_new_meld``)."""
    frozen = sheet.pile_frozen_by_wild and pile_has_wild
    if top_card.is_wild:
        return [] if PileBlocker.WILD in sheet.pile_blocked_by else [_wild_on_top(sheet, top_card, frozen, table)]
    if not top_card.is_natural:
        return []
    needs = sheet.pile_needs
    if needs is PileNeeds.NATURAL_PAIR or frozen:
        return _natural_pair(sheet, top_card, pair, table)
    if needs is PileNeeds.NATURAL_AND_WILD:
        return _natural_and_wild(sheet, top_card, pair, wilds, table)
    if needs is PileNeeds.ONE_NATURAL:
        return _one_natural(sheet, top_card, pair, table)
    return [_natural_on_top(sheet, top_card, pair, wilds, table)]


def _wild_on_top(sheet: RuleSheet, top_card: Card, frozen: bool, table: Sequence[Meld]) -> Reason:
    """A wild card on top is taken only by adding it at once to one of the side's unfinished melds, where the
    sheet takes the pile with the top card melded (``pile_needs``), no wild card freezes it and the top card
    may go onto a meld on the table (``pile_new_meld``); never with natural cards from the hand."""
    wild = Meld(Rank.WILD, 0, 1 if top_card is Card.TWO else 0, 1 if top_card is Card.JOKER else 0)
    meld_top = sheet.pile_needs is PileNeeds.MELD_TOP_CARD
    if meld_top and sheet.pile_new_meld:
        return Reason(False, "A wild card on top cannot start a new meld of its own, and on this sheet the top "
                      "card never goes onto a meld on the table.", "pile_new_meld")
    fits = (meld_top and not frozen
            and any(m.size < sheet.book_size and not list(meld_problems(sheet, m.plus(wild))) for m in table))
    return Reason(fits, "A wild card on top can be taken only by adding it at once to one of the side's "
                  "unfinished melds." if meld_top else
                  "A wild card on top cannot be matched with a natural pair." if sheet.pile_needs is
                  PileNeeds.NATURAL_PAIR else
                  "A wild card on top cannot be matched with natural cards of its rank.", "pile_needs")


def _natural_pair(sheet: RuleSheet, top_card: Card, pair: int, table: Sequence[Meld]) -> list[Reason]:
    """Two natural cards of the top card's rank from the hand, melded with it at once, where the sheet asks for a
    natural pair (``pile_needs``) or a wild card in the pile freezes it (``pile_frozen_by_wild``)."""
    option = "pile_frozen_by_wild" if sheet.pile_needs is not PileNeeds.NATURAL_PAIR else "pile_needs"
    frozen = " (a wild card in the pile allows nothing else)" if option == "pile_frozen_by_wild" else ""
    reasons = [Reason(pair >= 2, f"Taking it needs two natural {top_card.noun} from the hand, melded with the "
                      f"top card at once{frozen}; you hold {pair}.", option)]
    if pair >= 2:
        reasons += _pair_and_top_card(sheet, Meld(Rank(top_card.value), 3), table)
    return reasons


def _natural_and_wild(sheet: RuleSheet, top_card: Card, pair: int, wilds: int, table: Sequence[Meld]) -> list[Reason]:
    """Two natural cards of the top card's rank, or one and a wild card, from the hand, melded with it at once
    (``pile_needs``): the pair first, else the natural and the wild card, where the wild-card limits let three
    such cards be a meld."""
    rank = Rank(top_card.value)
    if pair >= 2:
        made = Meld(rank, 3)
    elif pair == 1 and wilds >= 1:
        made = Meld(rank, 2, 1)
    else:
        return [Reason(False, f"Taking it needs two natural {top_card.noun}, or one and a wild card, from the "
                       f"hand, melded with the top card at once; you hold {pair} natural and {wilds} wild.",
                       "pile_needs")]
    with_wild = made.wilds > 0
    reasons = [Reason(True, f"You hold {'one natural and a wild card' if with_wild else 'a natural pair'} to "
                      f"meld with the top card at once.", "pile_needs")]
    if with_wild:
        reasons += [Reason(False, f"The top card, one natural and a wild card: {p.message}", p.option)
                    for p in meld_problems(sheet, made)]
        if not all(r.ok for r in reasons):
            return reasons
    return reasons + _pair_and_top_card(sheet, made, table)


def _one_natural(sheet: RuleSheet, top_card: Card, pair: int, table: Sequence[Meld]) -> list[Reason]:
    """One natural card of the top card's rank in the hand, shown and melded with it at once (``pile_needs``);
    where the top card starts a new meld, that meld needs the sheet's fewest cards, from the hand or the pile."""
    rank = Rank(top_card.value)
    reasons = [Reason(pair >= 1, f"Taking it needs one natural card of the top card's rank ({top_card.noun}) from "
                      f"the hand, shown and melded with the top card; you hold {pair}.", "pile_needs")]
    if pair < 1:
        return reasons
    if sheet.pile_new_meld:
        return reasons + _pair_and_top_card(sheet, Meld(rank, 2), table)
    unfinished = _unfinished(sheet, rank, table)
    if unfinished is not None and sheet.second_meld is SecondMeld.AFTER_BOOK:
        return reasons + _pair_and_top_card(sheet, Meld(rank, 2), table)
    return reasons + [Reason(True, f"With the natural from the hand the top card starts a meld of at least "
                             f"{sheet.meld_min} cards (the rest from the hand or the pile taken), or goes onto "
                             f"the side's meld of {rank.noun} that may still grow.", "pile_needs")]


def _natural_on_top(sheet: RuleSheet, top_card: Card, pair: int, wilds: int, table: Sequence[Meld]) -> Reason:
    """A natural top card is melded at once (``pile_needs``): with a pair from the hand, a natural and a wild
    card, or, unless it must start a new meld (``pile_new_meld``), on the side's meld of its rank that may
    still grow (``book_growth``)."""
    rank = Rank(top_card.value)
    on_table = any(m.rank is rank and (m.size < sheet.book_size or sheet.growth(_dirty(m)) is not BookGrowth.CLOSED)
                   for m in table)
    with_wild = pair == 1 and wilds >= 1 and not list(meld_problems(sheet, Meld(rank, 2, 1)))
    if sheet.pile_new_meld:
        blocked = _new_meld_blocked(sheet, rank, table)
        if blocked is not None:
            return blocked
        can = pair >= 2 or with_wild
        return Reason(can, "The top card must start a new meld at once, never go onto a meld on the table: with a "
                      "pair from the hand, or a natural and a wild card." + ("" if can else " You hold neither."),
                      "pile_new_meld")
    can = pair >= 2 or on_table or with_wild
    return Reason(can, f"The top card must be melded at once: with a pair from the hand, a natural and a "
                  f"wild card, or on the side's unfinished meld of {top_card.noun}."
                  + ("" if can else " None of those is possible."), "pile_needs")


def _dirty(meld: Meld) -> bool:
    """Whether a meld grows by the dirty books' rule (``book_growth``): it holds wild cards, or is all wild."""
    return bool(meld.wilds) or meld.rank is Rank.WILD


def _unfinished(sheet: RuleSheet, rank: Rank, table: Sequence[Meld]) -> Meld | None:
    return next((m for m in table if m.rank is rank and m.size < sheet.book_size), None)


def _new_meld_blocked(sheet: RuleSheet, rank: Rank, table: Sequence[Meld]) -> Reason | None:
    """Where the top card must start a new meld (``pile_new_meld``) but the side's unfinished meld of its rank
    lets no second one start (``second_meld``): the pile cannot be taken."""
    unfinished = _unfinished(sheet, rank, table)
    if not sheet.pile_new_meld or unfinished is None or sheet.second_meld is not SecondMeld.AFTER_BOOK:
        return None
    return Reason(False, f"The top card must start a new meld, but the side already has an unfinished meld of "
                  f"{rank.noun} ({unfinished.size} cards), and a second meld of a rank may start only once the "
                  "first is a book.", "pile_new_meld")


def _what_is_taken(sheet: RuleSheet, deal: int, count: int, pile_size: int, opened: bool) -> list[Reason]:
    """What taking the pile gives (``pile_cards``) and, before the first melds, what of it counts toward
    them (``opening_pile_cards``)."""
    taken = pile_size if sheet.pile_take is PileTake.WHOLE else min(pile_size, count)
    reasons = [Reason(True, f"You would take {taken} card{'s' if taken != 1 else ''}.", "pile_cards")]
    if sheet.pile_take_penalty:
        reasons.append(Reason(True, "If the top card cannot then be melded as the sheet asks, the take fails: "
                              f"the cards go back and the side loses {sheet.pile_take_penalty:,} points.",
                              "pile_take_penalty"))
    if not opened and sheet.opening_book(deal):
        reasons.append(Reason(True, "Your first melds must still include a complete book; any card may be in it.",
                              "opening_minimums"))
    elif not opened:
        minimum = sheet.opening_minimum(deal)
        counts = "counts" if sheet.opening_pile_cards is OpeningPileCards.TOP_CARD else "does not count"
        reasons.append(Reason(True, f"Your first melds must still reach {minimum}; the top card {counts} toward it "
                              "and the other pile cards do not.", "opening_pile_cards"))
    return reasons


def _pair_and_top_card(sheet: RuleSheet, made: Meld, table: Sequence[Meld]) -> list[Reason]:
    """Where the top card and the cards from the hand with it (``made``: a pair and the top card, say) go when
    the side already has an unfinished meld of their rank: a second meld of a rank may start only after a book,
    so onto that meld; where the top card must start a new meld (``pile_new_meld``), not at all."""
    rank = made.rank
    blocked = _new_meld_blocked(sheet, rank, table)
    if blocked is not None:
        return [blocked]
    new_meld = [Reason(True, f"The top card starts a new meld with the {_hand_cards(made)} from the hand, never "
                       "onto a meld on the table" + (f" (at least {sheet.meld_min} cards, the rest from the hand "
                                                     "or the pile taken)." if made.size < sheet.meld_min else "."),
                       "pile_new_meld")] if sheet.pile_new_meld else []
    unfinished = _unfinished(sheet, rank, table)
    if unfinished is None or sheet.second_meld is not SecondMeld.AFTER_BOOK:
        return new_meld
    made_size = unfinished.size + made.size
    onto = can_meld(sheet, Meld(rank, made.naturals, made.twos, made.jokers), adding_to=unfinished)
    what = "the pair and the top card" if made == Meld(rank, 3) else f"the top card and the {_hand_cards(made)}"
    where = (f"The side already has an unfinished meld of {rank.noun} ({unfinished.size} cards), and a second meld "
             f"of a rank may start only once the first is a book, so {what} go onto it: "
             f"{unfinished.size} + {made.size} = {made_size} cards")
    if onto.yes:
        return [Reason(True, f"{where}.", "second_meld")]
    return [Reason(False, f"{where}, more than that meld may hold.", "second_meld"),
            *(r for r in onto.reasons if not r.ok)]


def _hand_cards(made: Meld) -> str:
    """The cards from the hand that go with the top card, in words."""
    naturals = made.naturals - 1
    said = "natural" if naturals == 1 else "pair" if naturals == 2 else f"{naturals} naturals"
    return f"{said} and the wild card" if made.wilds else said


def pile_meld_lacking(sheet: RuleSheet, top: Card, melds: Sequence[Meld]) -> str | None:
    """What meld ``melds`` (first melds laid with the pile's top card) lack for the top card as ``pile_needs``
    takes it with cards from the hand, in words; None when one of them could be it. For a natural pair, or
    the top card melded any way, a meld holding the top card is enough (checked apart, as ever)."""
    needs = sheet.pile_needs
    if not top.is_natural or needs in (PileNeeds.NATURAL_PAIR, PileNeeds.MELD_TOP_CARD):
        return None
    rank = Rank(top.value)
    if needs is PileNeeds.ONE_NATURAL:
        if any(m.rank is rank and m.naturals >= 2 for m in melds):
            return None
        return f"{rank.noun} holding the top card and another natural one from the hand"
    if any(m.rank is rank and (m.naturals >= 3 or m.naturals >= 2 and m.wilds >= 1) for m in melds):
        return None
    return f"{rank.noun} holding the top card with two natural ones, or one and a wild card, from the hand"


def meld_points(sheet: RuleSheet, melds: Sequence[Meld]) -> int:
    """The card points of some melds (bonuses never count toward a minimum)."""
    return sum(sum(sheet.value(card) * n for card, n in meld.cards().items()) for meld in melds)


def meets_minimum(sheet: RuleSheet, deal: int, melds: Sequence[Meld], *, top_card: Card | None = None,
                  buried: Cards = EMPTY, running_total: int = 0) -> Ruling:
    """Do these first melds, laid together, meet the deal's opening minimum?

    ``melds`` are all the cards laid, including the pile's ``top_card`` when it was taken
    and any ``buried`` pile cards used; the answer weighs them with and without the top card.
    Where the pile may be taken only once the first melds are down, no pile card counts
    and first melds that used the pile are refused.

    >>> from scorepad.rules import preset
    >>> kings_queens = [Meld(Rank.KING, 3), Meld(Rank.QUEEN, 3)]
    >>> meets_minimum(preset("common"), 1, kings_queens).yes, meets_minimum(preset("common"), 3, kings_queens).yes
    (True, False)
    """
    minimum = sheet.opening_minimum(deal, running_total)
    reasons = []
    for meld in melds:
        reasons += [r for r in _meld_reasons(sheet, meld) if not r.ok]
    total = meld_points(sheet, melds)
    buried_points = sum(sheet.value(card) * n for card, n in buried.items())
    top_points = sheet.value(top_card) if top_card is not None else 0
    without_top = total - buried_points - top_points
    top_counts = sheet.opening_pile_cards is OpeningPileCards.TOP_CARD and not sheet.pile_needs_opened
    counted = without_top + (top_points if top_counts else 0)
    when = (f"a running total of {running_total:,}" if sheet.opening_by.value == "running-total"
            else f"deal {deal}")
    option = "opening_bands" if sheet.opening_by.value == "running-total" else "opening_minimums"
    who = "each player's" if sheet.opening_who is OpeningWho.PLAYER else "the side's"
    book = sheet.opening_book(deal)
    if book:
        books = sum(1 for meld in melds if meld.book_kind(sheet) is not None)
        reasons.append(Reason(books > 0, f"In deal {deal} {who} first melds must include a complete book "
                              f"({sheet.book_size} cards) instead of a number of points; these hold "
                              f"{'a book' if books == 1 else f'{books} books' if books else 'none'}.", option))
    else:
        reasons.append(Reason(counted >= minimum, f"The minimum for {who} first melds at {when} is {minimum}; "
                              f"these count {counted}.", option))
    if sheet.pile_needs_opened and (top_card is not None or buried):
        reasons.append(Reason(False, "On this sheet the pile may be taken only once the first melds are down, so "
                              "first melds hold no card from it: they count only the cards from the hand.",
                              "pile_needs_opened"))
    elif top_card is not None and not book:
        rule = "the top card counts" if top_counts else "no card from the pile counts"
        reasons.append(Reason(True, f"With the pile's top card they are worth {without_top + top_points}, "
                              f"without it {without_top}: {rule}.", "opening_pile_cards"))
    if buried and not book:
        reasons.append(Reason(True, f"Cards buried in the pile ({buried_points} points) never count toward the "
                              "minimum.", "opening_pile_cards"))
    return _answer(reasons)


__all__ = ["Ruling", "Reason", "can_go_out", "can_meld", "can_take_pile", "last_card_reason", "meets_minimum",
           "meld_points", "permission_reason", "pile_meld_lacking"]
