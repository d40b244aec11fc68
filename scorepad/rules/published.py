"""The published sheets scorepad ships, as data: each one's source, its options in every
version ever released (its rules of play that no other option says among them, as its
``house_rules``) and the points its source leaves unsaid.

A preset's values are never edited once released: a change is a new version
(:data:`_REVISIONS`), and every version stays, so a sheet made from version 1 keeps being
compared with version 1. The sheet module (:mod:`.sheet`) reads these to compare
itself with its preset, building each a :class:`~.sheet.Preset` (:data:`~.sheet.PRESETS`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .cards import Card
from .catalogue import DEFAULTS
from .choices import (
    STANDARD_VALUES,
    Band,
    BookGrowth,
    Books,
    CardValues,
    DecksRule,
    FootWhen,
    LastCard,
    OpeningBy,
    OpeningWho,
    PartnerFoot,
    PerDeal,
    PileBlocker,
    PileNeeds,
    PileTake,
    RedThreeMode,
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
    Source("drwingnut", "drwingnut.info: Hand & Foot card game (a family's partnership rules)",
           "https://www.drwingnut.info/?p=8904"),
    Source("bga", "Board Game Arena: Hand and Foot, the game's help page",
           "https://en.doc.boardgamearena.com/Gamehelphandandfoot"),
    Source("tanglewood", "twrtimes.com: Hand & Foot (Tanglewood Version), a residential community card room's "
           "table rules", "https://twrtimes.com/?p=4098"),
    Source("vegas", "twrtimes.com: Hand & Foot (Vegas Version), with the four hands Tanglewood plays",
           "https://twrtimes.com/?p=4100"),
    Source("hand-knee-foot", "Hand, Knee and Foot as card rooms play it: twrtimes.com's Hand, Knee and Foot, where "
           "Denexa's Triple Play page (denexa.com/blog/triple-play-hand-knee-and-foot), the Laguna Woods score app "
           "(github.com/jnicolejasmine2/HandFootScoring) and the Hand (Knee) and Foot Scorer "
           "(github.com/threed-factory-store/HandKneeFootScorer) agree", "https://twrtimes.com/?p=1586"),
)}


def _common_options() -> dict[str, object]:
    return dict(DEFAULTS)


def _partnership_options(**changes: object) -> dict[str, object]:
    options = _common_options()
    options.update(min_players=4, max_players=4, side_sizes=(2,), decks_rule=DecksRule.FIXED, decks=5,
                   opening_who=OpeningWho.SIDE, pile_take=PileTake.TOP, pile_needs_opened=False,
                   pile_blocked_by=frozenset({PileBlocker.BLACK_THREE, PileBlocker.RED_THREE}),
                   upcard=Upcard.BURY_WILD_RED_THREE, go_out_partner_foot=PartnerFoot.PICKED_UP)
    options.update(changes)
    return options


def _progressive_options() -> dict[str, object]:
    """The progressive house sheet: requirements and bonuses that rise each deal, individuals
    or partnerships of 2. Its card values are the standard ones (the common sheet's)."""
    options = _common_options()
    options.update(draws_per_turn=PerDeal((3, 4, 5, 6)), opening_minimums=PerDeal((90, 120, 150, 180)),
                   books_to_go_out=PerDeal(tuple(Books(clean=n, dirty=n) for n in (3, 4, 5, 6))),
                   going_out_bonus=PerDeal((300, 400, 500, 600)), special_books=((Card.SEVEN, 1000),),
                   wild_books=True, wild_book_bonus=1500, opening_who=OpeningWho.SIDE, pile_take=PileTake.TOP,
                   pile_needs_opened=False, go_out_partner_foot=PartnerFoot.PICKED_UP, go_out_permission=True,
                   house_rules=("A player picks up the foot only once every card of the hand has been played.",))
    return options


def _drwingnut_options() -> dict[str, object]:
    """A family's partnership rules: one clean and two dirty books to go out, natural sevens
    1,500, fewer decks than players at six."""
    options = _common_options()
    options.update(min_players=3, max_players=6, decks_rule=DecksRule.BY_PLAYERS,
                   decks_by_players=((3, 3), (4, 4), (5, 4), (6, 5)), special_books=((Card.SEVEN, 1500),),
                   opening_minimums=PerDeal((60, 90, 120, 150)), opening_who=OpeningWho.SIDE,
                   books_to_go_out=PerDeal((Books(clean=1, dirty=2),)), go_out_foot=False,
                   house_rules=("A player may go out without playing the foot, but only once the hand has been played.",
                                "Of a player's two piles of 11, the one with the lower bottom card is the hand."))
    return options


def _bga_options() -> dict[str, object]:
    """Board Game Arena's table, with the contract its help page calls common for teams of two."""
    options = _common_options()
    options.update(max_players=12, side_sizes=(1, 2, 3, 4), wild_books=True, wild_book_bonus=1500,
                   books_to_go_out=PerDeal((Books(clean=2, dirty=2, wild=1),)),
                   house_rules=(
                       "Walking: a player who discards the last card of the hand picks up the foot but plays from it "
                       "only on the next turn.",
                       "Running: a player who plays out the hand without a discard picks up the foot and plays on at "
                       "once.",
                       "Red threes are laid and replaced at the start of their owner's turn."))
    return options


def _values(**points: int) -> CardValues:
    """The standard card values with some changed, by the card's name (``BLACK_THREE=300``)."""
    values = {Card(code): value for code, value in STANDARD_VALUES.to_json().items()}
    values.update({Card[name]: value for name, value in points.items()})
    return CardValues.of(values)


def _hand_knee_foot_options() -> dict[str, object]:
    """Hand, Knee and Foot: a third pile, five books to go out (a wild book, sevens, fives, a
    clean and a dirty one), caps on the special books that score."""
    options = _common_options()
    options.update(min_players=4, max_players=4, side_sizes=(2,), decks_rule=DecksRule.FIXED, decks=6,
                   hand_size=15, knee_size=PerDeal((13,)), foot_size=11, card_values=_values(BLACK_THREE=300),
                   wild_books=True, wild_book_bonus=2500, special_books=((Card.SEVEN, 5000), (Card.FIVE, 3000)),
                   three_books=((Card.RED_THREE, 1000),), book_caps=(("wild", 3), ("7", 2), ("5", 2)),
                   going_out_bonus=PerDeal((200,)), red_three_penalty_hand=500, red_three_penalty_foot=500,
                   opening_by=OpeningBy.RUNNING_TOTAL,
                   opening_bands=(Band(15_000, 50), Band(30_000, 90), Band(50_000, 120), Band(None, 150)),
                   opening_who=OpeningWho.SIDE, pile_take=PileTake.WHOLE, pile_needs_opened=False,
                   books_to_go_out=PerDeal((Books(clean=1, dirty=1, wild=1, named=((Card.SEVEN, 1), (Card.FIVE, 1))),)),
                   go_out_partner_foot=PartnerFoot.PICKED_UP, go_out_permission=True,
                   house_rules=(
                       "Each player plays the hand first, then the knee, then the foot.",
                       "A seven or a five turned up to start the pile is buried and another turned, as a wild card "
                       "or a three is.",
                       "Red threes are laid with the side's melds once it has opened, and replaced from the stock."))
    return options


def _tanglewood_options() -> dict[str, object]:
    """A card room's sheet for teams: a deck a player, nines and eights worth 5, exactly three
    cards from the pile, a discarded wild freezing it, red threes held and costing 500."""
    options = _common_options()
    options.update(min_players=4, max_players=8, side_sizes=(2,), decks_rule=DecksRule.PER_PLAYER,
                   card_values=_values(NINE=5, EIGHT=5), cut_bonus=100, opening_who=OpeningWho.SIDE,
                   pile_take=PileTake.TOP_IF_FULL, pile_cards=PerDeal((3,)), pile_needs=PileNeeds.NATURAL_AND_WILD,
                   pile_needs_opened=False, pile_frozen_by_wild=True, red_three_mode=RedThreeMode.HELD,
                   red_three_penalty_hand=500, red_three_penalty_foot=500,
                   house_rules=(
                       "One player of each side keeps every card the side lays down.",
                       "Each player deals two piles of 11, one to the left-hand neighbour and one to the right.",
                       "A discarded wild card is turned crossways: the pile stays frozen until someone takes it."))
    return options


def _vegas_options() -> dict[str, object]:
    """The Vegas set over Tanglewood's four hands: draws, pile cards and books to go out rising
    3/3/4/5, opening 90 to 180, black threes 300 and red threes 500 against, no discard to go out."""
    options = _common_options()
    options.update(min_players=4, max_players=6, side_sizes=(2,), decks_rule=DecksRule.BY_PLAYERS,
                   decks_by_players=((4, 6), (6, 8)), card_values=_values(BLACK_THREE=300), cut_bonus=100,
                   draws_per_turn=PerDeal((3, 3, 4, 5)), opening_minimums=PerDeal((90, 120, 150, 180)),
                   opening_who=OpeningWho.SIDE,
                   books_to_go_out=PerDeal(tuple(Books(clean=n, dirty=n) for n in (3, 3, 4, 5))),
                   pile_take=PileTake.TOP, pile_cards=PerDeal((3, 3, 4, 5)), pile_needs_opened=False,
                   book_growth=BookGrowth.ANY, last_card=LastCard.MELD, red_three_mode=RedThreeMode.HELD,
                   red_three_penalty_hand=500, red_three_penalty_foot=500,
                   house_rules=(
                       "Cards may be buried on the side's closed books, but not in the play that closes the book.",
                       "The foot is picked up once the hand is played out."))
    return options


# Each preset: id, title, the id of its source (in SOURCES), its options, and what its source leaves unsaid.
_PRESETS: tuple[tuple[str, str, str, dict[str, object], dict[str, str]], ...] = (
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
    ("drwingnut", "drwingnut, family partnerships", "drwingnut",
     _drwingnut_options(), {
         "decks_by_players": "the post: 4 decks for 4 players, 5 for 6; not stated for 3 or 5 played singly: "
                             "3 and 4, still fewer decks than players",
         "card_values": "not readable (the chart is cut off): the standard values",
         "wild_ratio": "not stated beyond at most 3 wild cards in a set: naturals outnumber wilds, the most "
                       "common limit",
         "special_books": "\"a natural book of sevens\": a book of sevens with a wild card is a dirty book",
         "red_three_bonus": "not readable: 100 for each red three laid, the most common value",
         "red_three_penalty_hand": "not readable: no penalty, the most common choice",
         "red_three_penalty_foot": "not readable: no penalty, the most common choice",
         "pile_take": "not readable: the most common choice",
         "pile_needs": "not readable: the most common choice",
         "pile_needs_opened": "not readable: the most common choice",
         "pile_blocked_by": "not readable: the most common choice",
         "going_out_bonus": "not readable: 100, the most common value",
         "go_out_partner_foot": "not stated: no rule",
         "go_out_permission": "not stated: no need to ask",
         "last_card": "not stated: melded or discarded",
         "stock_out": "not stated: the deal ends",
         "cut_bonus": "not stated: no cut bonus",
     }),
    ("bga", "Board Game Arena", "bga",
     _bga_options(), {
         "max_players": "the site seats 2 to 7 players singly and up to 12 in teams",
         "decks_rule": "\"usually one or two decks more than the players\": one more",
         "jokers_per_deck": "2, as dealt; the site's option of extra jokers is a table's change",
         "hand_size": "house rules give 11 or 13: 11, the most common",
         "foot_size": "house rules give 11 or 13: 11, the most common",
         "upcard": "turning a card up is optional on the site: when one is, a wild card or a three is buried",
         "book_growth": "\"or sometimes more\" under house rules: a book takes no more cards, the most common",
         "wild_ratio": "not readable: the most common limit",
         "max_wilds": "not readable: the most common limit",
         "books_to_go_out": "the contract is the table's choice; the page's common one for teams of two",
         "red_three_penalty_hand": "not readable: no penalty, the most common choice",
         "red_three_penalty_foot": "not readable: no penalty, the most common choice",
         "opening_minimums": "not readable: 50, 90, 120 and 150, the most common",
         "opening_who": "not readable: each player, the most common choice",
         "pile_take": "not readable: the most common choice",
         "pile_needs": "not readable: the most common choice",
         "pile_needs_opened": "not readable: the most common choice",
         "go_out_partner_foot": "not readable: no rule",
         "go_out_permission": "not readable: no need to ask",
         "last_card": "not readable: melded or discarded",
         "cut_bonus": "not stated: no cut bonus",
     }),
    ("hand-knee-foot", "Hand, Knee and Foot (card rooms)", "hand-knee-foot",
     _hand_knee_foot_options(), {
         "decks": "Triple Play and the scorer: 6 decks for four players in two partnerships",
         "card_values": "the scorer's: melded as usual; a black three left in a hand costs 300 in this game",
         "special_books": "not stated whether a book of sevens or fives may hold wild cards: one that does is a "
                          "dirty book, and does not fill the sevens' or fives' place",
         "three_books": "seven red threes: 100 each and the 300 \"red book bonus\", 1,000 in all (twrtimes: a "
                        "book of seven threes scores 1,000)",
         "book_caps": "the app's maxima: up to 3 wild books, and 2 each of sevens and fives, score their bonus",
         "opening_bands": "the app's and the scorer's thresholds by the side's running total; the app's other "
                          "game sets 50, 90, 120 and 150 by deal",
         "wild_ratio": "not stated: naturals outnumber wilds, the most common limit",
         "max_wilds": "not stated: the most common limit",
         "pile_needs_opened": "twrtimes: only the top card counts toward the opening, so the pile may be taken "
                              "to open",
         "go_out_partner_foot": "not stated: every partner has picked up the foot, as partnership sheets usually ask",
         "stock_out": "not stated: the deal ends",
         "last_card": "not stated: melded or discarded",
         "cut_bonus": "not stated: no cut bonus",
     }),
    ("tanglewood", "Tanglewood (a card room's teams)", "tanglewood",
     _tanglewood_options(), {
         "side_sizes": "teams, their size not stated: partnerships of 2, as four to eight players sit",
         "decks_rule": "one deck for each player, as the page asks, up to eight",
         "cut_bonus": "100 for each player whose cut is exactly 22 cards; the page credits the team, and "
                      "the player's line counts on the side's score all the same",
         "upcard": "not stated: a wild card or a three turned up is buried, the most common choice",
         "book_growth": "not readable (the page stops at its books): a closed book takes no more cards",
         "max_wilds": "the page asks only for one natural more than the wild cards: at most 3 wild cards, "
                      "the most common limit",
         "clean_book_bonus": "not readable: 500, the most common value",
         "dirty_book_bonus": "not readable: 300, the most common value",
         "red_three_mode": "only a cost is readable, 500 for each one caught in a hand or a foot: red threes "
                           "are held, never laid",
         "opening_who": "not stated: the side's first melds, as partnership sheets usually play",
         "pile_take": "exactly the top three cards: a pile of fewer than three cannot be taken",
         "pile_needs_opened": "not stated: the pile may be taken to open, as most sheets play",
         "pile_blocked_by": "not stated: the most common choice",
         "books_to_go_out": "not readable: 1 clean and 1 dirty book, the most common contract",
         "going_out_bonus": "not readable: 100, the most common value",
         "go_out_partner_foot": "not stated: no rule",
         "go_out_permission": "not stated: no need to ask",
         "last_card": "not stated: melded or discarded",
         "stock_out": "not stated: the deal ends",
         "deals": "not stated: four, one for each opening minimum the page lists",
     }),
    ("vegas", "Vegas (Tanglewood's four-hand version)", "vegas",
     _vegas_options(), {
         "side_sizes": "teams, their size not stated: partnerships of 2 (three of them at six players)",
         "decks_by_players": "the page: 6 decks for four players, 8 for six; five cannot sit in partnerships of 2",
         "cut_bonus": "100 for each player whose cut is exactly 22 cards; the page credits the team, and "
                      "the player's line counts on the side's score all the same",
         "upcard": "not stated: a wild card or a three turned up is buried, the most common choice",
         "book_growth": "cards may be buried on the side's closed books, wild ones too as the page bars none; "
                        "that none goes on in the play closing the book is a house rule",
         "wild_ratio": "not readable for melds of fewer than seven: naturals outnumber wilds, the most common "
                       "limit",
         "red_three_mode": "threes are only a cost on the page, a red one 500 against its holder: held, never "
                           "laid",
         "opening_who": "not readable: the side's first melds, as partnership sheets usually play",
         "pile_take": "the page's 3, 3, 4 or 5 cards by deal, with a pair in hand: all of them when fewer are "
                      "there (not stated)",
         "pile_needs_opened": "not readable: the pile may be taken to open, as most sheets play",
         "pile_blocked_by": "not readable: the most common choice",
         "going_out_bonus": "not readable: 100, the most common value",
         "go_out_partner_foot": "the page's words on partners going out are unclear: no rule",
         "go_out_permission": "not stated: no need to ask",
         "stock_out": "not readable: the deal ends",
     }),
)

# The groups the presets are chosen from, in the order a page lists them: (id, title).
GROUPS: tuple[tuple[str, str], ...] = (
    ("books", "Books and rules pages"),
    ("card-rooms", "Card rooms and house sheets"),
    ("online", "Apps and online"),
)

# Each preset's group (an id of GROUPS): where its source was published.
_GROUP: dict[str, str] = {
    "common": "books", "pagat": "books", "bicycle": "books", "gather-together": "books",
    "progressive": "card-rooms", "drwingnut": "card-rooms", "tanglewood": "card-rooms", "vegas": "card-rooms",
    "hand-knee-foot": "card-rooms",
    "bga": "online",
}

# Each later version of a preset, as the options it changes from the version before, in
# order: (preset id, {option: value}). Never edit a released version's values (the
# presets above are version 1); add a version here, so stored games keep theirs.
_REVISIONS: tuple[tuple[str, dict[str, object]], ...] = (
    # Pagat, version 2: its sheet's own words on two points. A red three costs its penalty when
    # it is "still buried because the opponents went out" before the foot was opened, and a
    # partner must have picked up the foot "and played at least part of a turn from it".
    ("pagat", {"red_three_penalty_foot_when": FootWhen.OPPONENTS_OUT, "go_out_partner_foot": PartnerFoot.PLAYED}),
)


@dataclass(frozen=True)
class Published:
    """A published sheet, as data: ``first`` is every option's value (Python values) in its
    version 1, ``revisions`` what each later version changes from the one before, in order;
    ``not_stated`` what we chose where the source is silent, and why; ``group`` the id of its
    group in :data:`GROUPS` (a book or rules page, a card room's sheet, an app or online table).
    The source's rules of play that no other option says are its ``house_rules`` (see
    :class:`~.sheet.Preset`)."""

    id: str
    title: str
    source: Source
    first: Mapping[str, object]
    not_stated: Mapping[str, str]
    revisions: tuple[Mapping[str, object], ...] = ()
    group: str = "books"


PUBLISHED: dict[str, Published] = {
    id_: Published(id_, title, SOURCES[source], options, silent,
                   tuple(changes for revised, changes in _REVISIONS if revised == id_), _GROUP[id_])
    for id_, title, source, options, silent in _PRESETS}
