"""A deal's verdict: the referee's report and the score together, in the JSON shape the
API and the CLI print."""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from .deal import Deal
from .fast_judge import fast_judge
from .problems import Report
from .read import JSON
from .score import Breakdown, score
from .tally import Tally
from .validate import validate


class Verdict(NamedTuple):
    deal: Deal
    report: Report
    breakdown: Breakdown

    @property
    def ok(self) -> bool:
        return self.report.ok

    def to_json(self) -> dict[str, JSON]:
        """``{"ok", "violations", "warnings", "not_checked", "sides": [{"name", "total", "lines"}]}``."""
        return {
            "ok": self.report.ok,
            "violations": [p.to_json() for p in self.report.violations],
            "warnings": [p.to_json() for p in self.report.warnings],
            "not_checked": [u.to_json() for u in self.report.not_checked],
            "sides": [side.to_json() for side in self.breakdown.sides],
        }


def judge(deal: Deal, totals_before: Mapping[str, int] | None = None) -> Verdict:
    """Validate and score a deal; ``totals_before``: in a game, each side's total before it
    (see :func:`~.validate.validate`).

    >>> from scorepad.rules.deal import Deal
    >>> deal = Deal.from_json({"sheet": "common", "deal": 1, "ending": "stock_out", "sides": [
    ...     {"name": "Ann", "melds": ["K K K"], "players": [{"name": "Ann", "foot_picked_up": True}]},
    ...     {"name": "Bea", "melds": ["Q Q Q"], "players": [{"name": "Bea", "foot_picked_up": True}]}]})
    >>> judge(deal).to_json()["ok"]
    True
    """
    fast = fast_judge(deal.sheet)
    if fast.takes:  # most sheets: judged in one pass (:mod:`.fast_judge`), unless the deal is one it leaves
        judged = fast.judge(deal, totals_before)
        if judged is not None:
            return tuple.__new__(Verdict, (deal, *judged))  # made as a tuple: a call less
    return judge_in_full(deal, totals_before)


def judge_in_full(deal: Deal, totals_before: Mapping[str, int] | None = None) -> Verdict:
    """:func:`judge` by the general path, which judges every deal: the referee's checks
    (:func:`~.validate.validate`) and the score (:func:`~.score.score`), each side's cards counted
    once for both. The fast path gives the same verdict for the deals it takes."""
    tallies = [Tally.of(deal, side) for side in deal.sides]
    return tuple.__new__(Verdict, (deal, validate(deal, totals_before, tallies), score(deal, tallies)))
