"""Settling a dispute between two rule sheets: what a deal, or a game, would score under another.

Most arguments at a Hand and Foot table come from two people holding different sheets in
their heads. Three questions settle them, each answered as plain values:

* :func:`rescore_deal`: a recorded deal under another sheet: each side's old and new lines
  and totals, line by line, and the violations that appear (or go away) under it;
  :func:`compare_deals` pairs a deal's lines before and after a correction the same way;
* :func:`rescore_game`: every deal of a game under another sheet: each deal's and the
  total's differences, and the winner under each sheet; each deal judged as a deal of the
  game, against the running totals each sheet gives before it;
* :func:`compare_sheets`: the options on which two sheets differ, both values in words,
  grouped as a player reads a sheet.

Nothing here knows about the web or the command line: each result has ``to_json()``.

>>> a_deal = Deal.from_json({"sheet": "gather-together", "deal": 1, "ending": "stock_out", "sides": [
...     {"name": "Us", "melds": ["K K K"], "players": [
...         {"name": "Ann", "foot_picked_up": True}, {"name": "Cal", "foot_picked_up": True}]},
...     {"name": "Them", "melds": ["J J J"], "players": [
...         {"name": "Bea", "foot_picked_up": True},
...         {"name": "Dan", "foot_picked_up": False, "foot": "3R 3R 4 4 5 5 6 6 7 7 8"}]}]})
>>> change = rescore_deal(a_deal, PRESETS["pagat"].versions[1])  # version 1: red threes cost however it ends
>>> [(side.name, side.old.total, side.new.total) for side in change.sides]
[('Us', 30, 30), ('Them', -20, -220)]
>>> [(line.label, line.change) for line in change.sides[1].lines if line.change]
[("Dan's unopened foot: red threes", -200)]
>>> [p.code for p in change.new_violations]
['foot.size']
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from operator import attrgetter
from typing import NamedTuple

from .catalogue import options_by_group
from .choices import OpeningBy
from .deal import Deal
from .game import Game, Result
from .lines import Line
from .presets import preset  # noqa: F401 (the doctests use preset)
from .problems import Problem
from .read import JSON
from .score import Breakdown, SideScore, score
from .sheet import PRESETS, RuleSheet
from .verdict import Verdict, judge


def sheet_name(sheet: RuleSheet) -> str:
    """A sheet's name for a heading: its preset's title, marked when the table changed it.

    >>> sheet_name(preset("pagat")), sheet_name(preset("pagat").replace(hand_size=11))
    ('Pagat, four-player partnerships', 'Pagat, four-player partnerships (changed)')
    """
    found = PRESETS.get(sheet.preset) if sheet.preset else None
    if found is None:
        return "A sheet of the table's own"
    return found.title + (" (changed)" if sheet.changes() else "")


def sheet_digest(sheet: RuleSheet) -> str:
    """A short name for a sheet's canonical form (every option, its preset and version): the
    same sheet however it was given (a preset's id, the preset as JSON, option by option) has
    the same digest, any other sheet another. What a rescore is kept under.

    >>> sheet_digest(preset("pagat")) == sheet_digest(preset("pagat").replace())
    True
    >>> sheet_digest(preset("pagat")) == sheet_digest(preset("pagat").replace(hand_size=11))
    False
    """
    text = json.dumps(sheet.to_stored_json(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _sheet_json(sheet: RuleSheet) -> JSON:
    return sheet.brief_json()


def problem_json(problem: Problem, sheet: RuleSheet) -> dict[str, JSON]:
    """A problem as the API shows it, with the option's label and what the sheet says
    (both ``null`` for a rule every sheet shares)."""
    cited = sheet.cite(problem.option)
    return {**problem.to_json(), "label": cited.label if cited else None, "sheet_says": cited.words if cited else None}


# -- one deal ---------------------------------------------------------------------------------------


class LineChange(NamedTuple):
    """One line of a side's score under each sheet; ``old`` or ``new`` is None when the line
    appears under one sheet only."""

    code: str
    label: str
    player: str | None
    option: str
    old: Line | None
    new: Line | None

    @property
    def change(self) -> int:
        """New points less old points."""
        return (self.new.points if self.new else 0) - (self.old.points if self.old else 0)

    @property
    def status(self) -> str:
        """``same``, ``changed`` (count, value or points differ), ``new`` or ``gone``."""
        if self.old is None:
            return "new"
        if self.new is None:
            return "gone"
        same = (self.old.count, self.old.each, self.old.points) == (self.new.count, self.new.each, self.new.points)
        return "same" if same else "changed"

    def to_json(self) -> dict[str, JSON]:
        def part(line: Line | None) -> JSON:
            return None if line is None else {"count": line.count, "each": line.each, "points": line.points}
        return {"status": self.status, "code": self.code, "label": self.label, "option": self.option,
                "old": part(self.old), "new": part(self.new), "change": self.change, "player": self.player}


def diff_lines(old: tuple[Line, ...], new: tuple[Line, ...]) -> tuple[LineChange, ...]:
    """Pair the lines of one side's two scores, in reading order.

    Lines pair up by what they are (code, label and player); a line found under one sheet
    only stands where it stood there.

    >>> from scorepad.rules.lines import Line
    >>> a = (Line("melds.cards", "Melded kings", 3, 10, 30, "card_values"),
    ...      Line("books.clean", "Clean books", 1, 500, 500, "clean_book_bonus"))
    >>> b = (Line("melds.cards", "Melded kings", 3, 10, 30, "card_values"),
    ...      Line("books.clean", "Clean books", 1, 300, 300, "clean_book_bonus"))
    >>> [(c.label, c.status, c.change) for c in diff_lines(a, b)]
    [('Melded kings', 'same', 0), ('Clean books', 'changed', -200)]
    """
    def key(line: Line) -> tuple[str, str, str | None]:
        return (line.code, line.label, line.player)

    waiting: dict[tuple[str, str, str | None], list[int]] = {}
    for i, line in enumerate(old):
        waiting.setdefault(key(line), []).append(i)
    used: set[int] = set()
    out: list[LineChange] = []
    next_old = 0

    def flush(upto: int) -> None:
        nonlocal next_old
        while next_old < upto:
            if next_old not in used:
                line = old[next_old]
                out.append(LineChange(line.code, line.label, line.player, line.option, line, None))
                used.add(next_old)
            next_old += 1

    for line in new:
        matches = waiting.get(key(line))
        if matches:
            j = matches.pop(0)
            flush(j)
            used.add(j)
            out.append(LineChange(line.code, line.label, line.player, line.option, old[j], line))
        else:
            out.append(LineChange(line.code, line.label, line.player, line.option, None, line))
    flush(len(old))
    return tuple(out)


_problem_key = attrgetter("code", "where", "side", "player", "meld")  # what and where a problem is, not its wording


def _new_problems(before: tuple[Problem, ...], after: tuple[Problem, ...]) -> tuple[Problem, ...]:
    """The problems of ``after`` that ``before`` does not have (by what and where, not wording)."""
    return _only_in(after, list(map(_problem_key, after)), set(map(_problem_key, before)))


def _only_in(problems: tuple[Problem, ...], keys: list[tuple[object, ...]],
             seen: set[tuple[object, ...]]) -> tuple[Problem, ...]:
    """``problems`` (whose keys are ``keys``, in order) whose key is not in ``seen``."""
    return tuple(p for p, key in zip(problems, keys, strict=True) if key not in seen)


class SideRescore(NamedTuple):
    """One side of a deal under both sheets."""

    name: str
    old: SideScore
    new: SideScore
    lines: tuple[LineChange, ...]
    new_violations: tuple[Problem, ...]      # about this side, only under the new sheet
    cleared_violations: tuple[Problem, ...]  # about this side, only under the old sheet

    @property
    def difference(self) -> int:
        return self.new.total - self.old.total

    @property
    def changed_lines(self) -> tuple[LineChange, ...]:
        return tuple(line for line in self.lines if line.status != "same")


class DealRescore(NamedTuple):
    """A deal scored and judged under its own sheet (``old``) and another (``new``)."""

    number: int
    old: Verdict
    new: Verdict
    sides: tuple[SideRescore, ...]
    new_violations: tuple[Problem, ...]      # every violation only the new sheet finds
    cleared_violations: tuple[Problem, ...]  # every violation only the old sheet finds

    @property
    def old_sheet(self) -> RuleSheet:
        return self.old.deal.sheet

    @property
    def new_sheet(self) -> RuleSheet:
        return self.new.deal.sheet

    @property
    def changed(self) -> bool:
        """True when any line, total or violation differs."""
        return bool(self.new_violations or self.cleared_violations
                    or any(side.changed_lines for side in self.sides))

    def differences(self) -> dict[str, int]:
        return {side.name: side.difference for side in self.sides}

    def to_json(self) -> dict[str, JSON]:
        old_sheet, new_sheet = self.old_sheet, self.new_sheet
        return {
            "number": self.number, "deal": self.number,  # deal: the old name of its number, kept (deprecated)
            "old_sheet": _sheet_json(old_sheet), "new_sheet": _sheet_json(new_sheet),
            "old_ok": self.old.ok, "new_ok": self.new.ok,
            "sides": [{
                "name": side.name,
                "old": {"total": side.old.total, "lines": [line.to_json() for line in side.old.lines]},
                "new": {"total": side.new.total, "lines": [line.to_json() for line in side.new.lines]},
                "difference": side.difference,
                "diff": [line.to_json() for line in side.lines],
                "new_violations": [problem_json(p, new_sheet) for p in side.new_violations],
                "cleared_violations": [problem_json(p, old_sheet) for p in side.cleared_violations],
            } for side in self.sides],
            "new_violations": [problem_json(p, new_sheet) for p in self.new_violations],
            "cleared_violations": [problem_json(p, old_sheet) for p in self.cleared_violations],
        }


def rescore_deal(deal: Deal, sheet: RuleSheet) -> DealRescore:
    """The deal as recorded, scored and judged again under ``sheet``.

    The cards do not change, only the rules: each side's lines are paired with its lines
    under the deal's own sheet, and the violations are split into those only the new sheet
    finds and those it no longer finds. The deal is judged on its own (its sides'
    ``running_total`` when given); a deal of a game is rescored with it
    (:meth:`GameRescore.deal`), against the totals before it.

    >>> deal = Deal.from_json({"sheet": "common", "deal": 1, "ending": "stock_out", "sides": [
    ...     {"name": "Ann", "melds": ["K K K 2 2"], "players": [{"name": "Ann", "foot_picked_up": True}]},
    ...     {"name": "Bea", "melds": ["2 2 2 JK"], "players": [{"name": "Bea", "foot_picked_up": True}]}]})
    >>> change = rescore_deal(deal, preset("pagat"))
    >>> [(p.code, p.side) for p in change.new_violations]
    [('table.players', None), ('table.sides', None), ('meld.wild_ratio', 'Ann')]
    >>> [(p.code, p.side) for p in change.cleared_violations]
    [('meld.rank', 'Bea')]
    >>> change.differences()
    {'Ann': 0, 'Bea': 0}
    """
    return _paired(deal.number, judge(deal), judge(dataclasses.replace(deal, sheet=sheet)))


def compare_deals(before: Deal, after: Deal) -> DealRescore:
    """A correction: the deal as it was (``old``) and as corrected (``new``), each side's
    lines paired as :func:`rescore_deal` pairs them, so what changed reads line by line.

    >>> sides = [{"name": "Ann", "melds": ["K K K"], "players": [{"name": "Ann", "foot_picked_up": True}]},
    ...          {"name": "Bea", "melds": ["J J J"], "players": [{"name": "Bea", "foot_picked_up": True}]}]
    >>> before = Deal.from_json({"sheet": "common", "deal": 1, "ending": "stock_out", "sides": sides})
    >>> sides[0]["melds"] = ["K K K K"]
    >>> after = Deal.from_json({"sheet": "common", "deal": 1, "ending": "stock_out", "sides": sides})
    >>> [(line.label, line.old.count, line.new.count) for line in compare_deals(before, after).sides[0].changed_lines]
    [('Melded kings', 3, 4)]
    """
    return _paired(after.number, judge(before), judge(after))


def _paired(number: int, old: Verdict, new: Verdict) -> DealRescore:
    """Two verdicts of a deal, side by side: lines paired, violations split."""
    old_found, new_found = old.report.violations, new.report.violations
    old_keys, new_keys = list(map(_problem_key, old_found)), list(map(_problem_key, new_found))  # each made once
    added = _only_in(new_found, new_keys, set(old_keys))
    cleared = _only_in(old_found, old_keys, set(new_keys))
    sides = []
    for before, after in zip(old.breakdown.sides, new.breakdown.sides, strict=True):
        sides.append(SideRescore(
            before.name, before, after, diff_lines(before.lines, after.lines),
            tuple(p for p in added if p.side == before.name),
            tuple(p for p in cleared if p.side == before.name)))
    return DealRescore(number, old, new, tuple(sides), added, cleared)


# -- a whole game ----------------------------------------------------------------------------------


class SideTotal(NamedTuple):
    name: str
    old: int
    new: int

    @property
    def difference(self) -> int:
        return self.new - self.old


class GameRescore(NamedTuple):
    """Every deal of a game under its own sheet and another, and the result under each."""

    old: Game
    new: Game
    deals: tuple[DealRescore, ...]

    @property
    def totals(self) -> tuple[SideTotal, ...]:
        """Each side's total under each sheet, in seat order."""
        before, after = self.old.totals(), self.new.totals()
        return tuple(SideTotal(name, before.get(name, 0), after.get(name, 0)) for name in self.old.sides)

    @property
    def old_result(self) -> Result:
        return self.old.result()

    @property
    def new_result(self) -> Result:
        return self.new.result()

    @property
    def winner_changes(self) -> bool:
        """True when the game would end differently: another winner, a tie, or not over yet."""
        a, b = self.old_result, self.new_result
        return (a.over, a.winner, a.tie) != (b.over, b.winner, b.tie)

    def deal(self, number: int) -> DealRescore | None:
        """Deal ``number`` under both sheets, judged as a deal of the game; None when not recorded."""
        return next((deal for deal in self.deals if deal.number == number), None)

    @property
    def new_problems(self) -> tuple[Problem, ...]:
        """Problems with the game as a whole that only the new sheet has (a deal after the end)."""
        return _new_problems(tuple(self.old.problems()), tuple(self.new.problems()))

    def to_json(self) -> dict[str, JSON]:
        def running(game: Game) -> list[JSON]:
            return [{"number": deal.number, "deal": deal.number, "totals": {**totals}}
                    for deal, totals in zip(game.deals, game.running_totals(), strict=True)]
        return {
            "old_sheet": _sheet_json(self.old.sheet), "new_sheet": _sheet_json(self.new.sheet),
            "sides": list(self.old.sides),
            "deals": [deal.to_json() for deal in self.deals],
            "totals": [{"name": t.name, "old": t.old, "new": t.new, "difference": t.difference}
                       for t in self.totals],
            "old_running_totals": running(self.old), "new_running_totals": running(self.new),
            "old_result": self.old_result.to_json(), "new_result": self.new_result.to_json(),
            "winner_changes": self.winner_changes,
            "new_problems": [problem_json(p, self.new.sheet) for p in self.new_problems],
        }


def rescore_game(game: Game, sheet: RuleSheet) -> GameRescore:
    """Every deal of ``game`` scored again under ``sheet``, with the result under each sheet.

    The game's length comes from the sheet too: under a sheet of fewer deals, or played to
    a target, the same deals may end the game sooner (or leave it unfinished).

    The deals are walked in order under ``sheet`` as a game of it (:attr:`Game.verdicts`), so
    where its opening minimum follows the running total, each deal's openings are judged
    against each side's total before that deal *under ``sheet``*: the totals of the rescored
    deals, not the recorded ones. The question is what the game would have been under the
    other sheet; played under it, the same cards would have given the sides those totals, and
    the minimum those totals set is the one their first melds would have had to reach. The
    recorded totals belong to the game's own sheet, and judge its own verdicts.

    >>> game = Game.from_json({"sheet": "common", "deals": [
    ...     {"ending": "stock_out", "sides": [
    ...         {"name": "Ann", "melds": ["K K K"], "players": [{"name": "Ann", "foot_picked_up": True}]},
    ...         {"name": "Bea", "melds": ["Q Q Q"], "players": [
    ...             {"name": "Bea", "foot_picked_up": False, "foot": "3R 3R 4 4 4 5 5 5 6 6 6"}]}]}]})
    >>> change = rescore_game(game, preset("common").replace(red_three_penalty_foot=500))
    >>> [(t.name, t.old, t.new, t.difference) for t in change.totals]
    [('Ann', 30, 30, 0), ('Bea', -15, -1015, -1000)]
    """
    rules = _under(game, sheet)
    deals = tuple(_paired(deal.number, old, new)
                  for deal, old, new in zip(game.deals, game.verdicts, rules.verdicts, strict=True))
    return GameRescore(game, rules, deals)


def rescore_game_deal(game: Game, sheet: RuleSheet, number: int) -> DealRescore | None:
    """Deal ``number`` of ``game`` under ``sheet``, judged as a deal of the game: what
    ``rescore_game(game, sheet).deal(number)`` gives, judging that deal alone under ``sheet``
    (where the opening minimum follows the running total, the deals before it are only
    scored, for the totals before it: a score never depends on them). None when not recorded.

    >>> game = Game.from_json({"sheet": "common", "deals": [
    ...     {"ending": "stock_out", "sides": [
    ...         {"name": "Ann", "melds": ["K K K"], "players": [{"name": "Ann", "foot_picked_up": True}]},
    ...         {"name": "Bea", "melds": ["Q Q Q"], "players": [
    ...             {"name": "Bea", "foot_picked_up": False, "foot": "3R 3R 4 4 4 5 5 5 6 6 6"}]}]}]})
    >>> other = preset("common").replace(red_three_penalty_foot=500)
    >>> rescore_game_deal(game, other, 1) == rescore_game(game, other).deal(1)
    True
    >>> rescore_game_deal(game, other, 2) is None
    True
    """
    rules = _under(game, sheet)
    at = next((i for i, deal in enumerate(game.deals) if deal.number == number), None)
    if at is None:
        return None
    if sheet.opening_by is not OpeningBy.RUNNING_TOTAL:
        return _paired(number, game.verdict(at), judge(rules.deals[at]))
    before = dict.fromkeys(rules.sides, 0)
    for side in (side for deal in rules.deals if deal.number < number for side in score(deal).sides):
        if side.name in before:
            before[side.name] += side.total
    return _paired(number, game.verdict(at), judge(rules.deals[at], before))


def _under(game: Game, sheet: RuleSheet) -> Game:
    """``game``'s deals as a game of ``sheet``."""
    # Under an open sheet, the game ends where the table stopped: where it ended it, or where its own sheet ended it.
    return Game(sheet, game.sides, tuple(dataclasses.replace(deal, sheet=sheet) for deal in game.deals),
                ended=game.ended or game.result().over)


# -- two sheets ------------------------------------------------------------------------------------


class OptionDifference(NamedTuple):
    option: str
    label: str
    a: str  # the value under the first sheet, in words
    b: str  # under the second


class GroupDifference(NamedTuple):
    group: str
    title: str
    options: tuple[OptionDifference, ...]


class SheetComparison(NamedTuple):
    """Where two sheets differ, group by group (groups with no difference are left out)."""

    a: RuleSheet
    b: RuleSheet
    groups: tuple[GroupDifference, ...]

    @property
    def options(self) -> tuple[OptionDifference, ...]:
        return tuple(o for g in self.groups for o in g.options)

    @property
    def same(self) -> bool:
        return not self.groups

    def to_json(self) -> dict[str, JSON]:
        return {
            "a": {"sheet": _sheet_json(self.a), "name": sheet_name(self.a)},
            "b": {"sheet": _sheet_json(self.b), "name": sheet_name(self.b)},
            "same": self.same, "count": len(self.options),
            "groups": [{"id": g.group, "title": g.title, "options": [o._asdict() for o in g.options]}
                       for g in self.groups],
        }


def compare_sheets(a: RuleSheet, b: RuleSheet) -> SheetComparison:
    """The options on which two sheets differ, each value in words, by group.

    >>> diff = compare_sheets(preset("pagat"), preset("common"))
    >>> [(o.label, o.a, o.b) for o in diff.options if o.option in ("hand_size", "foot_size")]
    [('Cards in the hand', '13', '11'), ('Cards in the foot', '13', '11')]
    >>> [g.group for g in diff.groups]
    ['table', 'melds', 'threes', 'opening', 'pile', 'going_out']
    >>> compare_sheets(preset("common"), preset("common")).same
    True
    """
    groups = []
    for group, title, options in options_by_group():
        found = tuple(OptionDifference(o.name, o.label, a.describe(o.name), b.describe(o.name))
                      for o in options if getattr(a, o.name) != getattr(b, o.name))
        if found:
            groups.append(GroupDifference(group, title, found))
    return SheetComparison(a, b, tuple(groups))


__all__ = ["DealRescore", "GameRescore", "GroupDifference", "LineChange", "OptionDifference", "SheetComparison",
           "SideRescore", "SideTotal", "compare_sheets", "problem_json", "diff_lines", "rescore_deal", "rescore_game",
           "rescore_game_deal", "sheet_name"]


class ChangedSide(NamedTuple):
    """One side's lines that a correction changed (what a history entry shows of it)."""

    name: str
    changed_lines: tuple[LineChange, ...]


def corrected_lines(before: Deal | Breakdown, after: Deal | Breakdown) -> list[ChangedSide]:
    """Each side whose lines a correction changed, lines paired as
    :func:`compare_deals` pairs them; only scored, not judged (a
    history shows no problems, and judging both deals of every correction of the largest game
    cost most of its history's time). A deal given scored already (the game's own deal, as
    the correction left it) is not scored again."""
    out = []
    old_score, new_score = (d if isinstance(d, Breakdown) else score(d) for d in (before, after))
    for old, new in zip(old_score.sides, new_score.sides, strict=True):
        changed = tuple(change for change in diff_lines(old.lines, new.lines) if change.status != "same")
        if changed:
            out.append(ChangedSide(old.name, changed))
    return out
