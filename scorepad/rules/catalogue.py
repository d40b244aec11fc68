"""The catalogue of options: every option a rule sheet has, once, with its group, its label,
its help, its default, how it is read from JSON and checked, written back, and put into words.

The sheet (:class:`~.sheet.RuleSheet`) checks and writes itself through :data:`OPTIONS`; the
editor, the printed sheet, the API (and its description, :meth:`Option.schema`), the compare
page and the command line all read it. A new option is one entry of :data:`OPTIONS` (its
default is what every sheet stored before it means) and a field of ``RuleSheet``; the words
its values share with other options are in :mod:`.wording`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any, Generic, TypeVar

from . import readers
from . import wording as say
from .choices import (
    STANDARD_VALUES,
    Band,
    BookGrowth,
    Books,
    CountAs,
    DecksRule,
    FootWhen,
    GameLength,
    LastCard,
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
)
from .limits import MAX_PLAYERS, MIN_PLAYERS
from .read import JSON
from .wording import Sheet

V = TypeVar("V")


GROUPS: tuple[tuple[str, str], ...] = (
    ("table", "The cards and the deal"),
    ("melds", "Melds and wild cards"),
    ("books", "Books and bonuses"),
    ("threes", "Red and black threes"),
    ("opening", "Opening minimums"),
    ("pile", "Taking the pile"),
    ("going_out", "Going out"),
    ("game", "Scoring and game length"),
    ("house", "House rules"),
)


def _plain(value: object) -> JSON:
    """A choice as its word; a number, true or false, or none as it is."""
    if isinstance(value, Enum):
        return str(value.value)
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"{value!r:.40} is written by its option's own write")


@dataclass(frozen=True, kw_only=True)
class Option(Generic[V]):
    """One option of the catalogue: where a sheet shows it, its default, and how its value
    is read from JSON, checked, written back and put into words."""

    name: str
    group: str  # one of GROUPS
    label: str
    help: str
    default: V  # what a sheet that does not give the option means; once released, never changed
    read: readers.Reader[V]                # (json value, field, base value) -> value
    words: Callable[[V, Sheet], str]       # value, sheet -> plain words
    write: Callable[[V], JSON] = _plain    # value -> json value

    def check(self, value: object) -> None:
        """Refuse a value the option cannot hold, as reading it would (a sheet built in Python)."""
        self.read(value, self.name, None)

    def schema(self) -> dict[str, JSON]:
        """The JSON Schema of the option's value, as its reader bounds it, with its label, help
        and default: what the API's description (:mod:`scorepad.api.openapi`) says of it."""
        return {"title": self.label, "description": self.help, **self.read.schema,
                "default": self.write(self.default)}



_COUNT = readers.whole_number(0, 100_000)
_WHEN_IT_COSTS = {FootWhen.ANY_ENDING: "however the deal ends",  # a red three in a hand, or in a foot
                  FootWhen.OPPONENTS_OUT: "only when a player of another side went out"}
_NOT_LAID = " (not used: red threes are never laid)"
_BONUS = readers.whole_number(-100_000, 100_000)

# Every option, in the order a player reads a sheet. A new option is one entry here (its
# default is what every sheet stored before it means) and a field of Sheet.
OPTIONS: tuple[Option[Any], ...] = (  # Any: each option holds its own type of value
    # The cards and the deal
    Option(name="min_players", group="table", label="Fewest players", default=2,
           help="The smallest table this sheet is written for.",
           read=readers.whole_number(MIN_PLAYERS, MAX_PLAYERS),
           words=lambda v, s: str(v)),
    Option(name="max_players", group="table", label="Most players", default=6,
           help="The largest table this sheet is written for.",
           read=readers.whole_number(MIN_PLAYERS, MAX_PLAYERS),
           words=lambda v, s: str(v)),
    Option(name="side_sizes", group="table", label="Players per side", default=(1, 2),
           help="1 for individuals, 2 to 4 for partnerships; list several if the sheet allows them.",
           read=readers.read_side_sizes,
           words=say.side_sizes,
           write=list),
    Option(name="decks_rule", group="table", label="Number of decks", default=DecksRule.PLAYERS_PLUS_ONE,
           help="'players+1', 'per-player', 'fixed' (then 'decks' gives the number) or 'by-players' "
                "(then 'decks_by_players' gives the number for each number of players).",
           read=readers.choice(DecksRule),
           words=say.decks),
    Option(name="decks", group="table", label="Decks (when fixed)", default=5,
           help="Decks in the pack when the number is fixed.",
           read=readers.whole_number(1, 12),
           words=lambda v, s: str(v) if s.decks_rule is DecksRule.FIXED else f"{v} (not used)"),
    Option(name="decks_by_players", group="table", label="Decks by number of players", default=(),
           help="Decks in the pack for each number of players, such as {\"4\": 5, \"6\": 6}, when the "
                "number of decks is 'by-players'; it must give every number of players the sheet seats (each splitting "
                "into two or more sides of a size it allows).",
           read=readers.read_decks_by_players,
           words=say.decks_by_players,
           write=lambda v: {str(players): decks for players, decks in v}),
    Option(name="jokers_per_deck", group="table", label="Jokers per deck", default=2,
           help="Jokers shuffled in with each deck.",
           read=readers.whole_number(0, 4),
           words=lambda v, s: str(v)),
    Option(name="hand_size", group="table", label="Cards in the hand", default=11,
           help="Cards dealt to each player's hand.",
           read=readers.whole_number(1, 30),
           words=lambda v, s: str(v)),
    Option(name="knee_size", group="table", label="Cards in the knee", default=PerDeal((0,)),
           help="Cards dealt to each player's knee, a third pile played after the hand and before the foot "
                "(hand, knee and foot); 0 for no knee. One number, or one per deal.",
           read=readers.per_deal(readers.whole_number(0, 30)),
           words=lambda v, s: say.knee(v),
           write=readers.write_per_deal(int)),
    Option(name="foot_size", group="table", label="Cards in the foot", default=11,
           help="Cards dealt to each player's foot.",
           read=readers.whole_number(1, 30),
           words=lambda v, s: str(v)),
    Option(name="card_values", group="table", label="Card values", default=STANDARD_VALUES,
           help="Points of each card, melded or left in hand. A black three left in hand counts against.",
           read=readers.read_card_values,
           words=say.card_values,
           write=lambda v: v.to_json()),
    Option(name="cut_bonus", group="table", label="Cut bonus", default=0,
           help="Points to a player who picks up exactly the cards for their hand and foot when cutting; 0 for none.",
           read=_COUNT,
           words=lambda v, s: say.points(v) if v else "none"),
    Option(name="upcard", group="table", label="First upcard", default=Upcard.BURY_WILD_THREE,
           help="What happens when the first card turned up is a wild card or a three.",
           read=readers.choice(Upcard),
           words=lambda v, s: {
               Upcard.BURY_WILD_RED_THREE: "a wild card or red three is buried and another turned",
               Upcard.BURY_WILD_THREE: "a wild card or any three is buried and another turned",
               Upcard.LEAVE: "left for the first player who takes the pile"}[v]),
    Option(name="draws_per_turn", group="table", label="Cards drawn per turn", default=PerDeal((2,)),
           help="Cards drawn from the stock each turn.",
           read=readers.per_deal(readers.whole_number(1, 10)),
           words=lambda v, s: say.by_deal(v),
           write=readers.write_per_deal(int)),
    # Melds and wild cards
    Option(name="meld_min", group="melds", label="Fewest cards in a meld", default=3,
           help="A new meld needs at least this many cards.",
           read=readers.whole_number(3, 13),
           words=lambda v, s: str(v)),
    Option(name="book_size", group="melds", label="Cards in a book", default=7,
           help="A meld with this many cards is a book.",
           read=readers.whole_number(3, 13),
           words=lambda v, s: str(v)),
    Option(name="book_growth", group="melds", label="Books past full size", default=BookGrowth.CLOSED,
           help="'closed' (a book takes no more cards), 'naturals' (natural cards only) or 'any'; or one for "
                "each kind, such as {\"clean\": \"naturals\", \"dirty\": \"closed\"}. A meld past a book's size "
                "is judged by the kind it is now (a clean book that takes a wild card is dirty); a wild book "
                "grows as dirty books do.",
           read=readers.read_book_growth,
           words=say.book_growth,
           write=readers.write_book_growth),
    Option(name="no_wild_on_clean_book", group="melds", label="No wild card onto a clean book", default=False,
           help="Whether a finished clean book may take natural cards only, even where dirty books take wild "
                "cards (a meld recorded at the end cannot show it: a dirty one may have been dirty from the start).",
           read=readers.true_false,
           words=say.yes_no("a clean book takes natural cards only", "as books past full size says")),
    Option(name="second_meld", group="melds", label="A second meld of a rank", default=SecondMeld.AFTER_BOOK,
           help="'after-book' (only once the first is a book) or 'anytime'.",
           read=readers.choice(SecondMeld),
           words=lambda v, s: {
               SecondMeld.AFTER_BOOK: "only after the first meld of that rank is a book",
               SecondMeld.ANYTIME: "allowed at any time"}[v]),
    Option(name="max_books_per_rank", group="melds", label="Most books of a rank", default=None,
           help="A side may make at most this many books of one rank in a deal (a meld of that rank past them is "
                "refused); none (a blank box, null in JSON) for no limit. Wild books are of no rank.",
           read=readers.optional(readers.whole_number(1, 20)),
           words=lambda v, s: "no limit" if v is None else f"{v} a side"),
    Option(name="wild_ratio", group="melds", label="Wild cards against naturals", default=WildRatio.MORE,
           help="'twice' (naturals at least twice the wilds), 'more' (naturals outnumber wilds), "
                "'at-least' (wilds never outnumber naturals) or 'none'.",
           read=readers.choice(WildRatio),
           words=say.wild_ratio),
    Option(name="max_wilds", group="melds", label="Most wild cards in a meld", default=3,
           help="A number; none (a blank box, null in JSON) for no limit.",
           read=readers.optional(readers.whole_number(0, 13)),
           words=lambda v, s: "no limit" if v is None else str(v)),
    Option(name="min_naturals_with_wilds", group="melds", label="Natural cards a meld with wilds needs", default=0,
           help="A meld holding any wild card needs at least this many natural cards; 0 for no rule.",
           read=readers.whole_number(0, 13),
           words=lambda v, s: str(v) if v else "no rule"),
    Option(name="wild_books", group="melds", label="Melds of wild cards only", default=False,
           help="Whether 2s and jokers may be melded alone, building a wild book.",
           read=readers.true_false,
           words=say.yes_no("allowed", "not allowed")),
    # Books and bonuses
    Option(name="clean_book_bonus", group="books", label="Clean book", default=500,
           help="Bonus for a book with no wild card.",
           read=_COUNT,
           words=lambda v, s: say.points(v)),
    Option(name="dirty_book_bonus", group="books", label="Dirty book", default=300,
           help="Bonus for a book holding wild cards.",
           read=_COUNT,
           words=lambda v, s: say.points(v)),
    Option(name="wild_book_bonus", group="books", label="Wild book", default=1500,
           help="Bonus for a book of wild cards only.",
           read=_COUNT,
           words=lambda v, s: say.points(v) if s.wild_books else f"{say.points(v)} (wild books not allowed)"),
    Option(name="wild_book_mixed_bonus", group="books", label="Mixed wild book", default=None,
           help="Bonus for a wild book that mixes 2s and jokers, in place of the wild-book bonus (which a wild "
                "book of 2s only or of jokers only keeps); null for the wild-book bonus.",
           read=readers.optional(_COUNT),
           words=say.mixed_wild),
    Option(name="special_books", group="books", label="Special books", default=(),
           help="Bonus for a clean book of a named rank, in place of the clean-book bonus, "
                "such as 1,000 points for a clean book of 7s.",
           read=readers.read_special_books,
           words=say.rank_bonuses("clean book"),
           write=lambda v: {card.value: bonus for card, bonus in v}),
    Option(name="special_books_dirty", group="books", label="Dirty special books", default=(),
           help="Bonus for a dirty book of a rank named in special_books, in place of the dirty-book bonus, "
                "such as {\"7\": 500}; a rank not named here scores a dirty book of it as any dirty book.",
           read=readers.read_special_books_dirty,
           words=say.rank_bonuses("dirty book"),
           write=lambda v: {card.value: bonus for card, bonus in v}),
    Option(name="special_book_wilds", group="books", label="Wild cards in a special book",
           default=SpecialWilds.ALLOWED,
           help="'allowed' or 'never': whether a meld of a rank named in special_books (or a book of threes) "
                "may hold 2s and jokers.",
           read=readers.choice(SpecialWilds),
           words=lambda v, s: {SpecialWilds.ALLOWED: "allowed, as in any meld",
                               SpecialWilds.NEVER: "never: a special book is always clean"}[v]),
    Option(name="three_books", group="books", label="Books of threes", default=(),
           help="Bonus for a book of red threes (3R) or black threes (3B), such as {\"3R\": 1000, \"3B\": 500}; "
                "threes named here may be melded (as 3R or 3B) and their books are special books. Threes are "
                "never melded with wild cards, and melded threes score their card values (a red three 0).",
           read=readers.read_three_books,
           words=say.rank_bonuses("book"),
           write=lambda v: {card.value: bonus for card, bonus in v}),
    Option(name="book_caps", group="books", label="Books that score a bonus, at most", default=(),
           help="How many books of a kind score their bonus, for each side in each deal, such as "
                "{\"wild\": 3, \"7\": 2, \"5\": 2}: 'wild' for wild books, or a rank (A to 4, 3R, 3B) for every book "
                "of it, clean or dirty. Books past the cap still score their cards and count toward going out, but "
                "earn no bonus (a line of their own says so); the best paid keep theirs. A counted side's books "
                "counted only as clean or dirty give no rank: a cap on a rank reaches those counted by rank.",
           read=readers.read_book_caps,
           words=say.caps,
           write=lambda v: dict(v)),
    Option(name="going_out_bonus", group="books", label="Going out", default=PerDeal((100,)),
           help="Bonus to the side of the player who goes out.",
           read=readers.per_deal(_COUNT),
           words=lambda v, s: say.by_deal(v, say.points),
           write=readers.write_per_deal(int)),
    Option(name="first_meld_bonus", group="books", label="First to meld", default=0,
           help="Bonus to the side of the player who laid down first in the deal (a deal names them in "
                "first_meld); 0 for none.",
           read=_COUNT,
           words=lambda v, s: say.points(v) if v else "none"),
    # Red and black threes
    Option(name="red_three_mode", group="threes", label="Red threes", default=RedThreeMode.LAID,
           help="'laid' (laid on the table at once and replaced, for their bonus) or 'held' (never laid: a red "
                "three is kept, or discarded, and costs its penalty if still in a hand or an unopened foot).",
           read=readers.choice(RedThreeMode),
           words=lambda v, s: {RedThreeMode.LAID: "laid at once, for a bonus",
                               RedThreeMode.HELD: "never laid; charged if still held"}[v]),
    Option(name="red_three_bonus", group="threes", label="Red three laid", default=100,
           help="Bonus for each red three laid on the table; negative on a sheet that takes points off for them.",
           read=_BONUS,
           words=lambda v, s: say.signed(v) + ("" if s.red_three_mode is RedThreeMode.LAID else _NOT_LAID)),
    Option(name="red_three_bonus_not_out", group="threes", label="Red three laid, side not out", default=None,
           help="What each red three laid earns a side none of whose players went out (the stock ran out, or "
                "another side went out); null for the same as any red three laid.",
           read=readers.optional(_BONUS),
           words=lambda v, s: ("as any red three laid" if v is None else say.signed(v))
                              + ("" if s.red_three_mode is RedThreeMode.LAID else _NOT_LAID)),
    Option(name="red_three_penalty_hand", group="threes", label="Red three left in a hand", default=0,
           help="Points taken off for each red three still in a hand when the deal ends.",
           read=_COUNT,
           words=lambda v, s: f"minus {say.points(v)}" if v else "nothing"),
    Option(name="red_three_penalty_hand_when", group="threes", label="Red three in a hand: when it costs",
           default=FootWhen.ANY_ENDING,
           help="'any-ending' (however the deal ends) or 'opponents-out' (only when a player of another side "
                "went out, catching it in the hand).",
           read=readers.choice(FootWhen),
           words=lambda v, s: _WHEN_IT_COSTS[v]),
    Option(name="red_three_penalty_foot", group="threes", label="Red three in a foot never picked up", default=0,
           help="Points taken off for each red three in a foot (or a knee) that was never picked up.",
           read=_COUNT,
           words=lambda v, s: f"minus {say.points(v)}{say.and_knee(s)}" if v else "nothing"),
    Option(name="red_three_penalty_foot_when", group="threes", label="Red three in a foot: when it costs",
           default=FootWhen.ANY_ENDING,
           help="'any-ending' (however the deal ends) or 'opponents-out' (only when a player of another side "
                "went out, leaving the foot buried).",
           read=readers.choice(FootWhen),
           words=lambda v, s: _WHEN_IT_COSTS[v]),
    Option(name="black_three_in_foot", group="threes", label="Black three in a foot never picked up",
           default=None,
           help="Points taken off for each black three in a foot (or a knee) never picked up, on a line of its "
                "own; null for its card value, as any card left.",
           read=readers.optional(_COUNT),
           words=lambda v, s: "its card value" if v is None else f"minus {say.points(v)}{say.and_knee(s)}"),
    # Opening minimums
    Option(name="opening_by", group="opening", label="Minimum set by", default=OpeningBy.DEAL,
           help="'deal' (a minimum for each deal) or 'running-total' (by the side's total so far).",
           read=readers.choice(OpeningBy),
           words=lambda v, s: {OpeningBy.DEAL: "the deal number",
                               OpeningBy.RUNNING_TOTAL: "the running total"}[v]),
    Option(name="opening_minimums", group="opening", label="Minimum by deal", default=PerDeal((50, 90, 120, 150)),
           help="Points the first melds must reach: one number, or one for each deal; 'book' for a deal whose "
                "first melds must include a complete book instead.",
           read=readers.per_deal(readers.read_minimum),
           words=lambda v, s: say.by_deal(v, say.minimum),
           write=readers.write_per_deal(_plain)),
    Option(name="opening_bands", group="opening", label="Minimum by running total",
           default=(Band(2500, 50), Band(5000, 90), Band(7500, 120), Band(None, 150)),
           help="Used when the minimum is set by running total: bands that rise with the total.",
           read=readers.read_bands,
           words=say.bands,
           write=lambda v: [
               {"below": b.below, "minimum": b.minimum} if b.below is not None else {"minimum": b.minimum}
               for b in v]),
    Option(name="opening_who", group="opening", label="Who must meet the minimum", default=OpeningWho.PLAYER,
           help="'player' (each player's first melds) or 'side' (the side's first melds).",
           read=readers.choice(OpeningWho),
           words=lambda v, s: {OpeningWho.PLAYER: "each player",
                               OpeningWho.SIDE: "the side, once"}[v]),
    Option(name="opening_pile_cards", group="opening", label="Pile cards toward the minimum",
           default=OpeningPileCards.TOP_CARD,
           help="'top-card' (the top card of the pile counts) or 'none'.",
           read=readers.choice(OpeningPileCards),
           words=lambda v, s: {
               OpeningPileCards.TOP_CARD: "only the top card counts; buried cards do not",
               OpeningPileCards.NONE: "no card from the pile counts"}[v]),
    # Taking the pile
    Option(name="pile_take", group="pile", label="Taking the discard pile", default=PileTake.TOP_IF_FULL,
           help="'top' (the top cards, all if fewer), 'top-if-full' (only when that many are there), "
                "'whole' or 'never'.",
           read=readers.choice(PileTake),
           words=lambda v, s: {
               PileTake.TOP: f"the top {say.by_deal(s.pile_cards)} cards (all if fewer)",
               PileTake.TOP_IF_FULL: f"the top {say.by_deal(s.pile_cards)} cards, only when that many are there",
               PileTake.WHOLE: "the whole pile",
               PileTake.NEVER: "never"}[v]),
    Option(name="pile_cards", group="pile", label="Cards taken from the pile", default=PerDeal((7,)),
           help="How many cards a player takes, top card included; one number or one per deal.",
           read=readers.per_deal(readers.whole_number(1, 200)),
           words=lambda v, s: say.by_deal(v),
           write=readers.write_per_deal(int)),
    Option(name="pile_needs", group="pile", label="What taking the pile needs", default=PileNeeds.NATURAL_PAIR,
           help="'natural-pair' (two natural cards of the top card's rank from the hand, melded with it "
                "at once), 'natural-and-wild' (two such naturals, or one and a wild card, from the hand, melded "
                "with it at once), 'one-natural' (one natural of its rank from the hand, shown, then melded with it) "
                "or 'meld-top-card' (the top card must be melded at once, any legal way).",
           read=readers.choice(PileNeeds),
           words=lambda v, s: {
               PileNeeds.NATURAL_PAIR: "a natural pair of the top card's rank from the hand, melded with it at once",
               PileNeeds.NATURAL_AND_WILD: "two naturals of the top card's rank, or one and a wild card, from the "
                                           "hand, melded with it at once",
               PileNeeds.ONE_NATURAL: "one natural of the top card's rank from the hand, melded with it at once",
               PileNeeds.MELD_TOP_CARD: "the top card melded at once"}[v]),
    Option(name="pile_new_meld", group="pile", label="The top card starts a new meld", default=False,
           help="Whether the pile's top card must start a new meld, never go onto a meld already on the table.",
           read=readers.true_false,
           words=say.yes_no("yes, never onto a meld on the table", "no")),
    Option(name="pile_take_penalty", group="pile", label="A failed take of the pile", default=0,
           help="Points taken off a side for each time one of its players took the pile and could not meld "
                "the top card as the sheet asks (a side's failed_takes); 0 for none.",
           read=_COUNT,
           words=lambda v, s: f"minus {say.points(v)} each" if v else "nothing"),
    Option(name="pile_needs_opened", group="pile", label="Only after opening", default=True,
           help="Whether the side must already have met its opening minimum to take the pile.",
           read=readers.true_false,
           words=say.yes_no("yes, the first melds must be down", "no")),
    Option(name="pile_blocked_by", group="pile", label="The pile is blocked by",
           default=frozenset({PileBlocker.BLACK_THREE, PileBlocker.RED_THREE, PileBlocker.WILD}),
           help="Cards that block the pile when on top: 'black-three', 'red-three', 'wild'.",
           read=readers.read_blockers,
           words=say.blockers,
           write=lambda v: sorted(b.value for b in v)),
    Option(name="pile_frozen_by_wild", group="pile", label="A wild card freezes the pile", default=False,
           help="Whether a wild card in the pile means it may be taken only with a natural pair.",
           read=readers.true_false,
           words=say.yes_no("yes", "no")),
    # Going out
    Option(name="books_to_go_out", group="going_out", label="Books needed to go out",
           default=PerDeal((Books(clean=1, dirty=1),)),
           help="Books the side needs before a player may go out: one requirement or one per deal, such as "
                "{\"clean\": 1, \"dirty\": 1, \"wild\": 1, \"special\": {\"7\": 1, \"5\": 1}}. 'special' is a number "
                "of books of ranks special_books names (of threes only on a sheet whose special_books names none), or "
                "books by rank: a rank named is filled only by a book of it, clean or, where special_books_dirty "
                "prices it, dirty (3R or 3B: a book of those threes). A clean book does not stand in for a dirty one.",
           read=readers.per_deal(readers.read_books),
           words=lambda v, s: say.by_deal(v),
           write=readers.write_per_deal(lambda books: {**books.to_json()})),
    Option(name="special_books_count_as", group="going_out", label="Special books toward going out",
           default=CountAs.CLEAN,
           help="What a special book (a rank named in special_books, or a book of threes) counts as toward the "
                "books needed to go out, once any 'special' books asked for are filled: 'clean', 'dirty' or "
                "'none'. A dirty special book never counts as clean: with 'clean' or 'dirty' it counts as dirty.",
           read=readers.choice(CountAs),
           words=say.count_as("special books")),
    Option(name="wild_books_count_as", group="going_out", label="Wild books toward going out", default=CountAs.NONE,
           help="What a wild book counts as toward the books needed to go out, once any 'wild' books asked for "
                "are filled: 'clean', 'dirty' or 'none' (only toward a wild book asked for).",
           read=readers.choice(CountAs),
           words=say.count_as("wild books")),
    Option(name="go_out_foot", group="going_out", label="Foot played first", default=True,
           help="Whether the player going out must have picked up and played their foot (and, in a deal with a "
                "knee, the knee before it).",
           read=readers.true_false,
           words=say.yes_no("yes", "no")),
    Option(name="go_out_partner_foot", group="going_out", label="Partner's foot", default=PartnerFoot.NO,
           help="What every partner must have done with their foot before a player may go out: 'no' (nothing), "
                "'picked-up' or 'played' (picked up and played from it; a deal says so with a player's "
                "foot_played). true and false are read as 'picked-up' and 'no'.",
           read=readers.read_partner_foot,
           words=lambda v, s: {PartnerFoot.NO: "no rule", PartnerFoot.PICKED_UP: "every partner has picked it up",
                               PartnerFoot.PLAYED: "every partner has picked it up and played from it"}[v]),
    Option(name="go_out_permission", group="going_out", label="Ask partner's permission", default=False,
           help="Whether a player must ask a partner 'may I go out?' and be told yes.",
           read=readers.true_false,
           words=say.yes_no("yes", "no")),
    Option(name="last_card", group="going_out", label="The last card", default=LastCard.EITHER,
           help="'either' (melded or discarded), 'discard' (must be discarded) or 'meld' (must be melded).",
           read=readers.choice(LastCard),
           words=lambda v, s: {LastCard.EITHER: "melded or discarded",
                               LastCard.DISCARD: "must be discarded",
                               LastCard.MELD: "must be melded, not discarded"}[v]),
    # Scoring and game length
    Option(name="stock_out", group="game", label="When the stock runs out", default=StockOut.ENDS_DEAL,
           help="'ends-deal' (the deal ends; nobody gets the going-out bonus) or 'reshuffle' "
                "(the discard pile is shuffled into a new stock).",
           read=readers.choice(StockOut),
           words=lambda v, s: {
               StockOut.ENDS_DEAL: "the deal ends and nobody gets the going-out bonus",
               StockOut.RESHUFFLE: "the discard pile is reshuffled and play goes on"}[v]),
    Option(name="game_length", group="game", label="Game length", default=GameLength.DEALS,
           help="'deals' (a fixed number of deals), 'target' (play until a side reaches the target score) "
                "or 'open' (play until the table ends the game, as a club game under a time limit does: any "
                "number of deals, each per-deal value keeping its last one; the game page's \"End the game "
                "here\" ends it, \"Reopen\" undoes that).",
           read=readers.choice(GameLength),
           words=lambda v, s: {GameLength.DEALS: f"{s.deals} deals",
                               GameLength.TARGET: f"until a side reaches {s.target_score:,}",
                               GameLength.OPEN: "until the table ends the game"}[v]),
    Option(name="deals", group="game", label="Deals in a game", default=4,
           help="The number of deals when the game has a fixed length.",
           read=readers.whole_number(1, 20),
           words=lambda v, s: str(v)),
    Option(name="target_score", group="game", label="Target score", default=10_000,
           help="The total that ends the game when it plays to a target; highest total wins.",
           read=readers.whole_number(1, 1_000_000),
           words=lambda v, s: f"{v:,}"),
    # House rules
    Option(name="house_rules", group="house", label="House rules", default=(),
           help="The table's own rules of play that no recorded deal shows (how the stock is split, walking or "
                "running into the foot, which way cards pass), a sentence each: printed with the sheet, never "
                "checked or scored.",
           read=readers.read_house_rules,
           words=say.house_rules,
           write=list),
)

OPTION_BY_NAME: dict[str, Option[Any]] = {option.name: option for option in OPTIONS}  # Any: as OPTIONS

# Each option's default: what a sheet means when it does not give the option (a stored
# sheet written before the option existed). The common preset plays exactly these.
DEFAULTS: dict[str, object] = {option.name: option.default for option in OPTIONS}


def options_by_group() -> Iterator[tuple[str, str, list[Option[Any]]]]:  # Any: as OPTIONS
    """(group id, group title, options) in the order a player reads a sheet."""
    for group, title in GROUPS:
        yield group, title, [o for o in OPTIONS if o.group == group]
