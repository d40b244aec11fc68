"""What the deal form shows beside its boxes: the kinds of card left, grouped as the sheet
values them (:func:`card_groups`), and each side's progress toward going out
(:func:`going_out`), as the rules core counts it (:func:`~scorepad.rules.progress.going_out_progress`)."""

from __future__ import annotations

from dataclasses import dataclass

from ...rules import Books, Deal, RuleSheet
from ...rules.cards import NATURALS, Card
from ...rules.choices import FootWhen
from ...rules.progress import going_out_progress
from .deal_blocks import SideBlock


@dataclass
class CardGroup:
    """Cards left, grouped as the sheet values them: ``50 each: JK``."""

    title: str
    cards: tuple[str, ...]


def card_groups(sheet: RuleSheet) -> list[CardGroup]:
    """Kinds of card in groups of equal value (threes apart), highest first."""
    groups: dict[int, list[str]] = {}
    for card in (Card.JOKER, Card.TWO, *NATURALS):
        groups.setdefault(sheet.value(card), []).append(card.value)
    out = [CardGroup(f"{value} each", tuple(cards)) for value, cards in sorted(groups.items(), reverse=True)]
    out.append(CardGroup(f"Black threes, {sheet.value(Card.BLACK_THREE)} each", (Card.BLACK_THREE.value,)))
    penalty = sheet.red_three_penalty_hand
    when = " if another side goes out" if sheet.red_three_penalty_hand_when is FootWhen.OPPONENTS_OUT else ""
    out.append(CardGroup(f"Red threes, minus {penalty}{when}" if penalty else "Red threes", (Card.RED_THREE.value,)))
    return out


@dataclass
class GoingOut:
    """A side's progress toward going out: ``progress`` ("clean 2/2, dirty 1/2"; empty without
    a readable deal) and ``why_not``, each reason none of its players may
    go out yet (empty: one may)."""

    side: int
    name: str
    progress: str
    why_not: list[str]
    partners: bool = True  # False: a player alone, named by the choice beside it


def going_out(need: Books, sheet: RuleSheet, deal: Deal | None, sides: list[SideBlock]) -> list[GoingOut]:
    """Each side's books against ``need`` (the deal's requirement, from the rules core) and
    what the referee's "may we go out?" answers for its players. ``deal`` is the form as
    read (None: not readable, or nothing typed yet)."""
    out = []
    for block in sides:
        if deal is None or block.index >= len(deal.sides):
            out.append(GoingOut(block.index, block.name, "", [], len(block.players) > 1))  # the pills say the need
            continue
        shown = going_out_progress(sheet, deal, need, block.index)
        out.append(GoingOut(block.index, block.name, shown.progress, list(shown.why_not), len(block.players) > 1))
    return out
