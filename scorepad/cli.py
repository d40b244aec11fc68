"""The ``scorepad`` command: score a deal, a game, or show a rule sheet, from JSON files.

Exit status: 0 when everything is valid, 1 when the referee found violations, 2 when the
input cannot be read (the message names the file and the field).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any, Sequence, TextIO

from .rules import Deal, Ending, ReadError, RuleSheet, judge, load_sheet
from .rules.game import Game
from .rules.sheet import PRESETS, options_by_group
from .rules.validate import Problem
from .rules.verdict import Verdict

EXIT_OK, EXIT_VIOLATIONS, EXIT_UNREADABLE = 0, 1, 2


class Unreadable(Exception):
    """Input the command cannot use; the message is for the user as it stands."""


def _read_json(path: str) -> Any:
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise Unreadable(f"cannot read {path}: {getattr(err, 'strerror', None) or err}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise Unreadable(f"{_name(path)} is not valid JSON: {err.msg} at line {err.lineno}, column {err.colno}") from None


def _name(path: str) -> str:
    return "standard input" if path == "-" else path


def _sheet_arg(value: str) -> RuleSheet:
    """A preset id, or a JSON file holding a sheet."""
    if value in PRESETS:
        return load_sheet(value)
    if value != "-" and not Path(value).exists():
        raise Unreadable(f"{value!r} is neither a preset ({', '.join(sorted(PRESETS))}) nor a sheet file")
    try:
        return load_sheet(_read_json(value))
    except ReadError as err:
        raise Unreadable(f"{_name(value)}: {err}") from None


# -- output ------------------------------------------------------------------------------------


def _problem_line(problem: Problem) -> str:
    about = " ".join(x for x in (problem.side, problem.player and f"({problem.player})",
                                 f"meld {problem.meld + 1}" if problem.meld is not None else None) if x)
    cite = f" [sheet: {problem.option}]" if problem.option else ""
    return f"  {problem.code}: {about + ': ' if about else ''}{problem.message}{cite}"


def _print_verdict(verdict: Verdict, out: TextIO) -> None:
    deal = verdict.deal
    how = "the stock ran out" if deal.ending is Ending.STOCK_OUT else \
        f"{deal.went_out} went out" if deal.went_out else "a player went out"
    preset = deal.sheet.preset or "custom sheet"
    changed = " (changed)" if deal.sheet.preset and deal.sheet.changes() else ""
    print(f"Deal {deal.number}, {preset}{changed}: {how}", file=out)
    for side in verdict.breakdown.sides:
        print(f"\n{side.name}: {side.total:,}", file=out)
        for line in side.lines:
            print(f"  {line.label:<40} {line.count:>3} x {line.each:>5} = {line.points:>7,}   ({line.option})",
                  file=out)
    for title, problems in (("Violations", verdict.report.violations), ("Warnings", verdict.report.warnings)):
        if problems:
            print(f"\n{title}:", file=out)
            for problem in problems:
                print(_problem_line(problem), file=out)
    if verdict.ok:
        print("\nNo violations.", file=out)


def _print_sheet(sheet: RuleSheet, out: TextIO) -> None:
    base = PRESETS.get(sheet.preset) if sheet.preset else None
    changed = {change.option for change in sheet.changes()}
    title = base.title if base else "Custom sheet"
    print(f"{title}{' (changed)' if changed else ''}", file=out)
    if base:
        print(f"Preset: {base.id}; source: {base.source}", file=out)
    for _, group_title, options in options_by_group():
        print(f"\n{group_title}", file=out)
        for option in options:
            mark = "*" if option.name in changed else " "
            note = base.not_stated.get(option.name) if base and option.name not in changed else None
            print(f" {mark} {option.label}: {sheet.describe(option.name)}" + (f"  [{note}]" if note else ""),
                  file=out)
    if changed:
        print(f"\nChanged against {sheet.preset} (marked *):", file=out)
        for change in sheet.changes():
            print(f"  {change.label}: {change.preset_value} -> {change.value}", file=out)


# -- commands ----------------------------------------------------------------------------------


def _cmd_score(args: argparse.Namespace, out: TextIO) -> int:
    data = _read_json(args.deal)
    sheet = _sheet_arg(args.sheet) if args.sheet else None
    if sheet is not None and isinstance(data, dict):
        data = {k: v for k, v in data.items() if k != "sheet"}
    try:
        verdict = judge(Deal.from_json(data, sheet))
    except ReadError as err:
        raise Unreadable(f"{_name(args.deal)}: {err}") from None
    if args.json:
        json.dump(verdict.to_json(), out, indent=2)
        print(file=out)
    else:
        _print_verdict(verdict, out)
    return EXIT_OK if verdict.ok else EXIT_VIOLATIONS


def _cmd_game(args: argparse.Namespace, out: TextIO) -> int:
    try:
        game = Game.from_json(_read_json(args.game))
    except ReadError as err:
        raise Unreadable(f"{_name(args.game)}: {err}") from None
    result = game.result()
    problems = game.problems()
    ok = not problems and all(v.ok for v in game.verdicts)
    if args.json:
        deals = []
        for verdict, running in zip(game.verdicts, game.running_totals()):
            deals.append({"deal": verdict.deal.number, **verdict.to_json(), "running_totals": running})
        json.dump({"ok": ok, "deals": deals, "problems": [p.to_json() for p in problems],
                   "standings": [s._asdict() for s in result.standings], "over": result.over,
                   "winner": result.winner, "tie": result.tie}, out, indent=2)
        print(file=out)
        return EXIT_OK if ok else EXIT_VIOLATIONS
    for verdict in game.verdicts:
        _print_verdict(verdict, out)
        print("\n" + "-" * 60, file=out)
    print("Running totals", file=out)
    print("  deal " + "".join(f"{name:>16}" for name in game.sides), file=out)
    for n, running in enumerate(game.running_totals(), 1):
        print(f"  {n:>4} " + "".join(f"{running.get(name, 0):>16,}" for name in game.sides), file=out)
    if problems:
        print("\nGame problems:", file=out)
        for problem in problems:
            print(_problem_line(problem), file=out)
    if result.tie:
        print(f"\nGame over: a tie at {result.standings[0].total:,}.", file=out)
    elif result.winner:
        print(f"\nGame over: {result.winner} wins with {result.standings[0].total:,}.", file=out)
    else:
        print(f"\nThe game goes on: deal {game.next_deal} is next.", file=out)
    return EXIT_OK if ok else EXIT_VIOLATIONS


def _cmd_sheet(args: argparse.Namespace, out: TextIO) -> int:
    sheet = _sheet_arg(args.sheet)
    if args.json:
        json.dump({"sheet": sheet.to_json(full=True),
                   "changes": [change.__dict__ for change in sheet.changes()]}, out, indent=2)
        print(file=out)
    else:
        _print_sheet(sheet, out)
    return EXIT_OK


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="scorepad", description="Score pad and rules referee for Hand and Foot.")
    commands = parser.add_subparsers(dest="command", required=True)
    score = commands.add_parser("score", help="validate and score one deal")
    score.add_argument("deal", help="the deal as JSON (a file, or - for standard input)")
    score.add_argument("--sheet", help="score under this preset id or sheet file instead of the deal's own")
    score.add_argument("--json", action="store_true", help="print the report as JSON")
    score.set_defaults(run=_cmd_score)
    game = commands.add_parser("game", help="score a whole game")
    game.add_argument("game", help='the game as JSON: {"sheet": ..., "deals": [...]} (a file, or -)')
    game.add_argument("--json", action="store_true", help="print the result as JSON")
    game.set_defaults(run=_cmd_game)
    sheet = commands.add_parser("sheet", help="show a rule sheet and what it changes against its preset")
    sheet.add_argument("sheet", help="a preset id (" + ", ".join(sorted(PRESETS)) + ") or a sheet file, or -")
    sheet.add_argument("--json", action="store_true", help="print the whole sheet as JSON")
    sheet.set_defaults(run=_cmd_sheet)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command; returns the exit status (argparse itself exits 2 on bad usage)."""
    args = _parser().parse_args(argv)
    out = out or sys.stdout
    try:
        return args.run(args, out)
    except Unreadable as err:
        print(f"scorepad: {err}", file=sys.stderr)
        return EXIT_UNREADABLE
    except BrokenPipeError:  # the reader (say, head) stopped reading: not an error of ours
        sys.stdout = open(os.devnull, "w")
        return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
