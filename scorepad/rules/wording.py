"""How a sheet's options are put into words: what the words read of the sheet they are on
(:class:`Sheet`), and the wording each kind of value shares (points, a value per deal, yes or
no) or has of its own (card values, decks, bands, caps...). The catalogue
(:mod:`.catalogue`) gives each option its words from here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

from .cards import NATURALS, Card
from .choices import (
    Band,
    BookGrowth,
    CardValues,
    CountAs,
    DecksRule,
    GameLength,
    GrowthByKind,
    OpeningBook,
    PerDeal,
    PileBlocker,
    PileTake,
    RedThreeMode,
    WildRatio,
    rank_words,
)

V = TypeVar("V")


class Sheet(Protocol):
    """What an option's words read of the sheet it is on (a :class:`~.sheet.RuleSheet`): the
    options that change how another option is put into words."""

    @property
    def decks(self) -> int: ...
    @property
    def decks_rule(self) -> DecksRule: ...
    @property
    def wild_books(self) -> bool: ...
    @property
    def red_three_mode(self) -> RedThreeMode: ...
    @property
    def pile_take(self) -> PileTake: ...
    @property
    def pile_cards(self) -> PerDeal[int]: ...
    @property
    def game_length(self) -> GameLength: ...
    @property
    def deals(self) -> int: ...
    @property
    def target_score(self) -> int: ...
    @property
    def has_knee(self) -> bool: ...


def points(n: int) -> str:
    return f"{n:,} points" if n != 1 else "1 point"


def by_deal(value: PerDeal[V], fmt: Callable[[V], str] = str) -> str:
    if value.single:
        return fmt(value.values[0])
    return ", ".join(f"deal {i} {fmt(v)}" for i, v in enumerate(value.values, 1))


def yes_no(yes: str, no: str) -> Callable[[bool, Sheet], str]:
    return lambda value, sheet: yes if value else no


def signed(n: int) -> str:
    return points(n) if n >= 0 else f"minus {points(-n)}"


def mixed_wild(value: int | None, sheet: Sheet) -> str:
    words = "as any wild book" if value is None else points(value)
    return words if sheet.wild_books else f"{words} (wild books not allowed)"


def card_values(values: CardValues, sheet: Sheet) -> str:
    groups: dict[int, list[str]] = {}
    for card in (Card.JOKER, Card.TWO, *NATURALS, Card.BLACK_THREE):
        groups.setdefault(values[card], []).append(
            "black 3" if card is Card.BLACK_THREE else "joker" if card is Card.JOKER else card.value)
    return "; ".join(f"{' '.join(cards)}: {p}" for p, cards in groups.items())


def and_knee(sheet: Sheet) -> str:
    """What a foot's penalty adds on a sheet with a knee: the knee never picked up pays it too."""
    return ", in a knee never picked up too" if sheet.has_knee else ""


def knee(sizes: PerDeal[int]) -> str:
    """A knee's cards, or no knee, in every deal or deal by deal."""
    if not any(sizes.values):
        return "no knee"
    return by_deal(sizes, lambda n: str(n) if n else "no knee")


def decks(rule: DecksRule, sheet: Sheet) -> str:
    return {DecksRule.PLAYERS_PLUS_ONE: "one more deck than there are players",
            DecksRule.PER_PLAYER: "one deck per player",
            DecksRule.FIXED: f"always {sheet.decks} decks",
            DecksRule.BY_PLAYERS: "by the number of players, from the table"}[rule]


def side_sizes(sizes: tuple[int, ...], sheet: Sheet) -> str:
    names = {1: "individuals", 2: "partnerships of 2", 3: "partnerships of 3", 4: "partnerships of 4"}
    return " or ".join(names[s] for s in sizes)


_GROWTH_WORDS = {BookGrowth.CLOSED: "takes no more cards", BookGrowth.NATURALS: "may keep growing with natural cards",
                 BookGrowth.ANY: "may keep growing with any card"}


def book_growth(growth: BookGrowth | GrowthByKind, sheet: Sheet) -> str:
    if isinstance(growth, BookGrowth):
        return f"a book {_GROWTH_WORDS[growth]}"
    return f"a clean book {_GROWTH_WORDS[growth.clean]}; a dirty or wild book {_GROWTH_WORDS[growth.dirty]}"


def minimum(minimum: int | OpeningBook) -> str:
    return "a complete book" if isinstance(minimum, OpeningBook) else str(minimum)


def wild_ratio(ratio: WildRatio, sheet: Sheet) -> str:
    return {WildRatio.TWICE: "at least twice as many natural cards as wild cards",
            WildRatio.MORE: "more natural cards than wild cards",
            WildRatio.AT_LEAST: "never more wild cards than natural cards",
            WildRatio.NONE: "no ratio"}[ratio]


def bands(bands: tuple[Band, ...], sheet: Sheet) -> str:
    return "; ".join(f"below {b.below:,}: {b.minimum}" if b.below is not None else f"otherwise {b.minimum}"
                     for b in bands)


def rank_bonuses(what: str) -> Callable[[tuple[tuple[Card, int], ...], Sheet], str]:
    def words(bonuses: tuple[tuple[Card, int], ...], sheet: Sheet) -> str:
        return "; ".join(f"{what} of {card.noun}: {points(bonus)}" for card, bonus in bonuses) or "none"
    return words


def caps(caps: tuple[tuple[str, int], ...], sheet: Sheet) -> str:
    """Caps alike said once: "a bonus for at most 3 wild books; 2 books each of sevens, fives"."""
    by_cap: dict[int, list[str]] = {}
    for key, cap in caps:
        by_cap.setdefault(cap, []).append(key)
    said = []
    for cap, keys in by_cap.items():
        ranks = [rank_words(Card(key)) for key in keys if key != "wild"]
        said += [f"{cap} wild books"] if "wild" in keys else []
        said += [f"{cap} books {'each ' if len(ranks) > 1 else ''}of {', '.join(ranks)}"] if ranks else []
    return "a bonus for at most " + "; ".join(said) if said else "no cap"


def cap_words(key: str) -> str:
    """What a key of ``book_caps`` caps, in words: "wild books", "books of sevens"."""
    return "wild books" if key == "wild" else f"books of {rank_words(Card(key))}"


def decks_by_players(table: tuple[tuple[int, int], ...], sheet: Sheet) -> str:
    words = "; ".join(f"{players} players: {decks}" for players, decks in table) or "none"
    return words if sheet.decks_rule is DecksRule.BY_PLAYERS else f"{words} (not used)"


def count_as(kind: str) -> Callable[[CountAs, Sheet], str]:
    def words(value: CountAs, sheet: Sheet) -> str:
        return {CountAs.CLEAN: f"{kind} beyond those asked for count as clean books",
                CountAs.DIRTY: f"{kind} beyond those asked for count as dirty books",
                CountAs.NONE: f"{kind} count only where asked for by name"}[value]
    return words


def house_rules(rules: tuple[str, ...], sheet: Sheet) -> str:
    """Each rule as a sentence of its own, in order; "none" for none."""
    return " ".join(rule if rule.endswith((".", "!", "?", "…")) else f"{rule}." for rule in rules) or "none"


def blockers(blockers: frozenset[PileBlocker], sheet: Sheet) -> str:
    if not blockers:
        return "nothing"
    names = {PileBlocker.BLACK_THREE: "a black three", PileBlocker.RED_THREE: "a red three",
             PileBlocker.WILD: "a wild card"}
    return " or ".join(names[b] for b in sorted(blockers, key=list(PileBlocker).index)) + " on top"
