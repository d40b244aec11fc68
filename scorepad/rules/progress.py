"""A side's progress toward going out, as a deal form shows it while the table types: its books
against the deal's requirement (counted as the verdict counts them, :func:`~.books.books_toward`)
and, while none of its players may go out yet, each reason the referee's "may we go out?"
(:func:`~.referee.can_go_out`) gives.

>>> from scorepad.rules import Deal, preset
>>> deal = Deal.from_json({"sheet": "common", "deal": 1, "ending": "stock_out", "sides": [
...     {"name": "Ann", "players": [{"name": "Ann", "foot_picked_up": True}], "books": {"clean": 1}, "meld_points": 35},
...     {"name": "Bea", "players": [{"name": "Bea", "foot_picked_up": False}], "books": {}, "meld_points": 0}]})
>>> going_out_progress(preset("common"), deal, preset("common").going_out_books(1), 0)
GoingOutProgress(progress='clean 1/1, dirty 0/1', why_not=('1 more dirty book',))
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from .books import books_toward, by_rank_progress, side_books
from .cards import Card
from .choices import Books, rank_words
from .deal import Deal
from .rulings import can_go_out
from .sheet import RuleSheet


@dataclass(frozen=True)
class GoingOutProgress:
    """``progress``: each kind of book needed, held/needed ("clean 2/2, dirty 1/2"), or "no
    books needed"; ``why_not``: each reason none of the side's players may go out yet (empty:
    one may), a shortfall of books said as the books still missing."""

    progress: str
    why_not: tuple[str, ...]


def going_out_progress(sheet: RuleSheet, deal: Deal, need: Books, side: int) -> GoingOutProgress:
    """Side ``side`` of ``deal`` against ``need``, the deal's requirement (from the game's rules),
    under ``sheet`` (the game's)."""
    kinds = [(kind, n) for kind, n in (("clean", need.clean), ("dirty", need.dirty), ("wild", need.wild),
                                       ("special", need.special)) if n]
    recorded = deal.sides[side]
    books = side_books(sheet, recorded)
    toward = books_toward(sheet, need, books)  # as the verdict counts them
    held = asdict(toward)
    progress = ", ".join([*(f"{kind} {held[kind]}/{n}" for kind, n in kinds),
                          *([by_rank] if (by_rank := by_rank_progress(need, toward)) else [])]) or "no books needed"
    why: list[str] = []
    for i, player in enumerate(recorded.players):
        partners = [p for j, p in enumerate(recorded.players) if j != i]
        answer = can_go_out(sheet, deal.number, books=books, foot_played=player.foot_picked_up,
                            knee_played=player.picked_knee,
                            partners_picked_up=[p.foot_picked_up for p in partners],
                            partners_played=[p.played_foot for p in partners], permission=True)
        if answer.yes:
            why = []
            break
        for reason in answer.reasons:
            if reason.ok:
                continue
            text = (", ".join([*(f"{n - held[kind]} more {kind} book{'s' if n - held[kind] > 1 else ''}"
                                 for kind, n in kinds if held[kind] < n),
                               *(_more(card, n - toward.named_count(card))
                                 for card, n in need.named if toward.named_count(card) < n)])
                    if reason.option == "books_to_go_out" else f"{player.name}: {reason.message}")
            if text not in why:
                why.append(text)
    return GoingOutProgress(progress, tuple(why))


def _more(card: Card, n: int) -> str:
    """Books of a rank still missing: "1 more book of fives", "2 more books of sevens"."""
    return f"{n} more {'book' if n == 1 else 'books'} of {rank_words(card)}"
