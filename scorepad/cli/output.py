"""How the command line words what the rules core says: problems, verdicts, the referee's
answers and a game's standing, for the ``scorepad`` command (:mod:`.main`) and the
``flask`` commands (:mod:`.server`) alike.

Each function returns the text, a line or a list of lines (an empty string is a blank
line), and prints nothing: the ``scorepad`` command prints with :func:`print`, the flask
commands with :func:`click.echo`. Plain Python over rules values, so ``scorepad`` runs
where no web framework is installed.
"""

from __future__ import annotations

from ..rules import Ending, Problem, RuleSheet, Verdict
from ..rules.dispute import DealRescore, sheet_name
from ..rules.lines import Line
from ..rules.problems import Unchecked
from ..rules.rulings import Ruling
from ..rules.views import GameView

# -- problems -------------------------------------------------------------------------------------


def problem_line(problem: Problem) -> str:
    """A problem on a line of its own, indented, for ``scorepad``: its code, who it is
    about, the message and the sheet's option behind it."""
    about = " ".join(x for x in (problem.side, problem.player and f"({problem.player})",
                                 f"meld {problem.meld + 1}" if problem.meld is not None else None) if x)
    cite = f" [sheet: {problem.option}]" if problem.option else ""
    return f"  {problem.code}: {about + ': ' if about else ''}{problem.message}{cite}"


def problem_words(problem: Problem) -> str:
    """A problem in a sentence, for the flask commands: the message, where, and its code."""
    where = f" [{problem.where}]" if problem.where else ""
    return f"{problem.message}{where} ({problem.code})"


def unchecked_line(unchecked: Unchecked) -> str:
    """A rule the deal gave nothing to judge by, on a line of its own, for ``scorepad``."""
    about = " ".join(x for x in (unchecked.side, unchecked.player and f"({unchecked.player})") if x)
    return f"  {unchecked.what}: {about + ': ' if about else ''}{unchecked.reason} [give: {unchecked.where}]"


def unchecked_words(unchecked: Unchecked) -> str:
    """A rule not checked in a sentence, for the flask commands: the reason and the field that would tell it."""
    return f"{unchecked.reason} [{unchecked.where}] ({unchecked.what})"


def rule_words(sheet: RuleSheet, option: str | None) -> str:
    """The option a line or a reason rests on, and what ``sheet`` says of it."""
    cited = sheet.cite(option)
    return str(cited) if cited else "the same on every sheet"


# -- verdicts -------------------------------------------------------------------------------------


def verdict_lines(verdict: Verdict) -> list[str]:
    """A judged deal in full, for ``scorepad``: how it ended, each side's score line by
    line with its option, then the violations and warnings, and what could not be checked."""
    deal = verdict.deal
    how = "the stock ran out" if deal.ending is Ending.STOCK_OUT else \
        f"{deal.went_out} went out" if deal.went_out else "a player went out"
    preset = deal.sheet.preset or "custom sheet"
    changed = " (changed)" if deal.sheet.preset and deal.sheet.changes() else ""
    lines = [f"Deal {deal.number}, {preset}{changed}: {how}"]
    for side in verdict.breakdown.sides:
        lines += ["", f"{side.name}: {side.total:,}"]
        lines += [f"  {line.label:<40} {line.count:>3} x {line.each:>5} = {line.points:>7,}   ({line.option})"
                  for line in side.lines]
    for title, problems in (("Violations", verdict.report.violations), ("Warnings", verdict.report.warnings)):
        if problems:
            lines += ["", f"{title}:"] + [problem_line(problem) for problem in problems]
    if verdict.report.not_checked:
        lines += ["", "Not checked (the deal does not say):"]
        lines += [unchecked_line(unchecked) for unchecked in verdict.report.not_checked]
    if verdict.ok:
        lines += ["", "No violations."]
    return lines


def verdict_summary(verdict: Verdict, problems: list[Problem] | None = None,
                    never: frozenset[Problem] = frozenset()) -> list[str]:
    """A judged deal in brief, for the flask commands: each side's points, then the
    violations (``problems`` when given; those in ``never`` marked as never to be saved as
    played), the warnings and what could not be checked."""
    lines = [f"  {side.name}: {side.total:+,}" for side in verdict.breakdown.sides]
    problems = list(verdict.report.violations) if problems is None else problems
    lines += [f"  violation{' (never as played)' if p in never else ''}: {problem_words(p)}" for p in problems]
    lines += [f"  warning: {problem_words(p)}" for p in verdict.report.warnings]
    lines += [f"  not checked: {unchecked_words(u)}" for u in verdict.report.not_checked]
    return lines


def standing(view: GameView) -> str:
    """Where a game stands: over (who won, or a tie), or the next deal and its opening minimum."""
    result = view.result
    if result.tie:
        return "over: a tie"
    if result.over:
        return f"over: {result.winner} won"
    upcoming = view.next_deal
    if upcoming is None:
        return "over"
    return f"next: deal {upcoming.number}, opening minimum {upcoming.opening_words}"


# -- the referee's answers ------------------------------------------------------------------------

# Each question's answer in words, for yes and for no.
QUESTION_WORDS = {"meld": ("this meld is legal", "this meld is not legal"),
                  "go-out": ("you may go out", "you may not go out yet"),
                  "pile": ("you may take the pile", "you may not take the pile"),
                  "minimum": ("these melds meet the minimum", "these melds do not meet the minimum")}


def answer_lines(question: str, answer: Ruling, sheet: RuleSheet) -> list[str]:
    """The referee's answer to ``question`` under ``sheet``: YES or NO, then every reason,
    met or not, with the rule it rests on."""
    yes, no = QUESTION_WORDS[question]
    lines = [f"Under {sheet_name(sheet)}:", f"{'YES' if answer.yes else 'NO'}: {yes if answer.yes else no}."]
    for reason in answer.reasons:
        lines += [f"  [{'met' if reason.ok else 'NOT MET'}] {reason.message}",
                  f"      rule: {rule_words(sheet, reason.option)}"]
    return lines


def deal_change_lines(change: DealRescore) -> list[str]:
    """A deal scored again under another sheet: each side's total before and after, the
    lines that changed with the rule behind each, and what became (or stopped being) illegal."""
    new_sheet = change.new_sheet
    lines = [f"Deal {change.number}:"]
    for side in change.sides:
        delta = f"{side.difference:+,}" if side.difference else "no change"
        lines.append(f"  {side.name}: {side.old.total:,} -> {side.new.total:,} ({delta})")
        for line in side.changed_lines:
            lines.append(f"    {line.label}: {_count(line.old)} -> {_count(line.new)} ({line.change:+,})"
                         f"   [{rule_words(new_sheet, line.option)}]")
    if change.new_violations:
        lines.append(f"  Illegal under {sheet_name(new_sheet)}:")
        lines += ["  " + problem_line(problem) for problem in change.new_violations]
    if change.cleared_violations:
        lines.append(f"  No longer against the rules under {sheet_name(new_sheet)}:")
        lines += ["  " + problem_line(problem) for problem in change.cleared_violations]
    return lines


def _count(line: Line | None) -> str:
    return f"{line.count} x {line.each:,} = {line.points:,}" if line else "none"
