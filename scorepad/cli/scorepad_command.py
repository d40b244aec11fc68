"""The ``scorepad`` command: score a deal, a game, or show a rule sheet, from JSON files.

Exit status: 0 when everything is valid, 1 when the referee found violations, 2 when the
input cannot be read (the message names the file and the field).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from ..rules import PRESETS, Deal, ReadError, RuleSheet, judge, load_sheet
from ..rules.catalogue import options_by_group
from ..rules.dispute import DealRescore, GameRescore, compare_sheets, rescore_deal, rescore_game, sheet_name
from ..rules.game import Result
from ..rules.questions import BOOK_KINDS, BY_RANK, QUESTIONS
from ..rules.read import JSON
from ..rules.views import view_of
from ..storage.document import read_game
from . import output

EXIT_OK, EXIT_VIOLATIONS, EXIT_UNREADABLE = 0, 1, 2


class Unreadable(Exception):
    """Input the command cannot use; the message is for the user as it stands."""


def _read_json(path: str) -> JSON:
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise Unreadable(f"cannot read {path}: {getattr(err, 'strerror', None) or err}") from None
    try:
        data: JSON = json.loads(text)
    except json.JSONDecodeError as err:
        raise Unreadable(f"{_name(path)} is not valid JSON: {err.msg} at line {err.lineno}, "
                         f"column {err.colno}") from None
    return data


def _name(path: str) -> str:
    return "standard input" if path == "-" else path


def _sheet_arg(value: str) -> RuleSheet:
    """A preset id, or a JSON file holding a sheet."""
    if value in PRESETS:
        return load_sheet(value)
    if value != "-" and not Path(value).exists():
        raise Unreadable(f"{value!r} is neither a preset ({', '.join(sorted(PRESETS))}) nor a sheet file")
    with _reading(value):
        return load_sheet(_read_json(value))


@contextmanager
def _reading(path: str) -> Iterator[None]:
    """What the rules core cannot read in the file ``path``: :class:`Unreadable`, naming the
    file and the field (exit 2). The one place the commands turn a ReadError into their answer,
    but for ``referee``'s, which names the option it came in by."""
    try:
        yield
    except ReadError as err:
        raise Unreadable(f"{_name(path)}: {err}") from None


# -- output ----------------------------------------------------------------------------------


def _say(lines: list[str], out: TextIO) -> None:
    for line in lines:
        print(line, file=out)


def _print_sheet(sheet: RuleSheet, out: TextIO) -> None:
    base = PRESETS.get(sheet.preset) if sheet.preset else None
    changed = {change.option for change in sheet.changes()}
    title = base.title if base else "Custom sheet"
    print(f"{title}{' (changed)' if changed else ''}", file=out)
    if base:
        print(f"Preset: {base.id}, version {sheet.preset_version}; source: {base.source}", file=out)
    for _, group_title, options in options_by_group():
        print(f"\n{group_title}", file=out)
        for option in options:
            mark = "*" if option.name in changed else " "
            if option.name == "house_rules" and sheet.house_rules:  # one line each, as printed
                print(f" {mark} {option.label}:", file=out)
                for rule in sheet.house_rules:
                    print(f"     - {rule}", file=out)
                continue
            note = base.not_stated.get(option.name) if base and option.name not in changed else None
            print(f" {mark} {option.label}: {sheet.describe(option.name)}" + (f"  [{note}]" if note else ""),
                  file=out)
    if changed:
        print(f"\nChanged against {sheet.preset} version {sheet.preset_version} (marked *):", file=out)
        for change in sheet.changes():
            print(f"  {change.label}: {change.preset_value} -> {change.value}", file=out)


# -- commands ----------------------------------------------------------------------------------


def _cmd_score(args: argparse.Namespace, out: TextIO) -> int:
    data = _read_json(args.deal)
    sheet = _sheet_arg(args.sheet) if args.sheet else None
    if sheet is not None and isinstance(data, dict):
        data = {k: v for k, v in data.items() if k != "sheet"}
    with _reading(args.deal):
        verdict = judge(Deal.from_json(data, sheet))
    if args.json:
        json.dump(verdict.to_json(), out, indent=2)
        print(file=out)
    else:
        _say(output.verdict_lines(verdict), out)
    return EXIT_OK if verdict.ok else EXIT_VIOLATIONS


def _cmd_game(args: argparse.Namespace, out: TextIO) -> int:
    with _reading(args.game):
        game = read_game(_read_json(args.game))  # a game file, or a game's export as it is
    view = view_of(game)  # a file's deals hold no "as played" reasons
    result, upcoming = view.result, view.next_deal
    if args.json:
        deals = [{"deal": row.number, **row.verdict.to_json(), "running_totals": row.running} for row in view.rows]
        json.dump({"ok": view.ok, "deals": deals, "problems": [p.to_json() for p in view.problems],
                   **result.to_json(), "next_deal": None if upcoming is None else upcoming.to_json()}, out, indent=2)
        print(file=out)
        return EXIT_OK if view.ok else EXIT_VIOLATIONS
    for row in view.rows:
        _say(output.verdict_lines(row.verdict), out)
        print("\n" + "-" * 60, file=out)
    print("Running totals", file=out)
    print("  deal " + "".join(f"{name:>16}" for name in view.sides), file=out)
    for row in view.rows:
        print(f"  {row.number:>4} " + "".join(f"{row.running[name]:>16,}" for name in view.sides), file=out)
    if view.problems:
        print("\nGame problems:", file=out)
        for problem in view.problems:
            print(output.problem_line(problem), file=out)
    if result.tie:
        print(f"\nGame over: a tie at {view.top:,}.", file=out)
    elif result.winner:
        print(f"\nGame over: {result.winner} wins with {view.top:,}.", file=out)
    elif upcoming is not None:
        leads = (f" {result.leader} leads; the table ends the game (\"ended\": true in the file)."
                 if game.table_ends and result.leader and view.rows else "")
        print(f"\nThe game goes on.{leads} {upcoming.words()}", file=out)
    return EXIT_OK if view.ok else EXIT_VIOLATIONS


def _cmd_sheet(args: argparse.Namespace, out: TextIO) -> int:
    sheet = _sheet_arg(args.sheet)
    if args.json:
        json.dump({"sheet": sheet.to_json(full=True),
                   "changes": [change.__dict__ for change in sheet.changes()]}, out, indent=2)
        print(file=out)
    else:
        _print_sheet(sheet, out)
    return EXIT_OK


# -- the referee's questions, another sheet, two sheets ---------------------------------------------

def _cmd_referee(args: argparse.Namespace, out: TextIO) -> int:
    sheet = _sheet_arg(args.sheet)
    data: dict[str, object] = {"deal": getattr(args, "deal", None)}
    if args.question == "meld":
        data.update(meld=args.meld, adding_to=args.adding_to, table=args.table)
    elif args.question == "go-out":
        books = None if args.books is None else _books_arg(args.books)
        data.update(books=books, melds=args.melds, foot_played="no" if args.foot_not_played else None,
                    knee_played="no" if args.knee_not_played else None,
                    partners_picked_up=args.partner_foot, partners_played=args.partner_played,
                    permission=args.permission, last_card=args.last_card)
        if books is None and not args.melds:
            raise Unreadable("referee go-out: give the side's books (--books 1,1) or its melds (--melds)")
    elif args.question == "pile":
        data.update(top_card=args.top_card, pair=args.pair, wilds=args.wilds, opened="yes" if args.opened else "no",
                    pile_size=args.pile_size, pile_has_wild="yes" if args.pile_has_wild else "no", table=args.table)
    else:
        data.update(melds="; ".join(args.melds), top_card=args.top_card, buried=args.buried,
                    running_total=args.running_total)
    ask = QUESTIONS[args.question][0]
    try:
        answer = ask(sheet, data, True)
    except ReadError as err:
        name = err.field.split("[")[0].split(".")[0] if err.field else ""
        positional = {"meld": "meld", "pile": "top_card", "minimum": "melds"}.get(args.question)
        where = name.upper() if name == positional else "--" + name.replace("_", "-") if name else "referee"
        part = err.field.split(".", 1)[1] if name == "books" and "." in err.field else ""  # which kind: books.special
        raise Unreadable(f"{where}{' ' + part if part else ''}: {err.reason}") from None
    if args.json:
        json.dump(answer.to_json(sheet), out, indent=2)
        print(file=out)
    else:
        _say(output.answer_lines(args.question, answer, sheet), out)
    return EXIT_OK if answer.yes else EXIT_VIOLATIONS


def _books_arg(value: str) -> dict[str, JSON]:
    """``--books``: counts in order (CLEAN,DIRTY[,WILD]) or by kind (``clean=2,special=1``), the
    kinds the go-out question reads (:data:`~scorepad.rules.questions.BOOK_KINDS`), special
    books by rank too (``special.7=1,special.5=1``); the question reads the counts themselves."""
    parts = [p.strip() for p in value.split(",")]
    if not any("=" in p for p in parts):
        if not 2 <= len(parts) <= 3:
            raise Unreadable("--books: give CLEAN,DIRTY or CLEAN,DIRTY,WILD, such as 1,1, "
                             "or counts by kind, such as clean=2,dirty=2,special=1")
        return dict(zip(("clean", "dirty", "wild"), parts, strict=False))
    books: dict[str, JSON] = {}
    for part in parts:
        kind, said, count = (p.strip() for p in part.partition("="))
        kind, _, rank = kind.lower().partition(".")
        if not said:
            raise Unreadable(f"--books: {part!r} names no kind; by kind, give each as KIND=N, such as special=1")
        if kind not in BOOK_KINDS:
            raise Unreadable(f"--books: {kind!r} is not a kind of book ({', '.join(BOOK_KINDS)})")
        if rank:  # special books by rank: special.7=1
            by_rank = books.setdefault(kind, {})
            if kind not in BY_RANK or not isinstance(by_rank, dict) or rank.upper() in by_rank:
                raise Unreadable(f"--books: {kind}.{rank} is given twice, or {kind} takes no rank "
                                 f"(by rank: {', '.join(k + '.7' for k in BY_RANK)})")
            by_rank[rank.upper()] = count
        elif kind in books:
            raise Unreadable(f"--books: {kind} is given twice")
        else:
            books[kind] = count
    return books


def _cmd_rescore(args: argparse.Namespace, out: TextIO) -> int:
    data = _read_json(args.file)
    other = _sheet_arg(args.sheet)
    with _reading(args.file):
        if isinstance(data, dict) and ("deals" in data or "format" in data):  # a game file or an export
            change: GameRescore | DealRescore = rescore_game(read_game(data), other)
        else:
            change = rescore_deal(Deal.from_json(data), other)
    deals = change.deals if isinstance(change, GameRescore) else (change,)
    illegal = any(d.new_violations for d in deals) or (isinstance(change, GameRescore) and bool(change.new_problems))
    if args.json:
        json.dump(change.to_json(), out, indent=2)
        print(file=out)
        return EXIT_VIOLATIONS if illegal else EXIT_OK
    old_sheet = change.old.sheet if isinstance(change, GameRescore) and not deals else deals[0].old_sheet
    print(f"Under {sheet_name(other)} instead of {sheet_name(old_sheet)}:", file=out)
    for deal in deals:
        print(file=out)
        _say(output.deal_change_lines(deal), out)
    if isinstance(change, GameRescore):
        print("\nTotals:", file=out)
        for total in change.totals:
            delta = f"{total.difference:+,}" if total.difference else "no change"
            print(f"  {total.name}: {total.old:,} -> {total.new:,} ({delta})", file=out)

        def result(r: Result) -> str:
            return (f"a tie at {r.standings[0].total:,}" if r.tie else f"{r.winner} wins" if r.winner
                    else "not over yet")
        print(f"Result: {result(change.new_result)} (under the game's own sheet: {result(change.old_result)}).",
              file=out)
        for problem in change.new_problems:
            print(output.problem_line(problem), file=out)
    return EXIT_VIOLATIONS if illegal else EXIT_OK


def _cmd_compare(args: argparse.Namespace, out: TextIO) -> int:
    a, b = _sheet_arg(args.a), _sheet_arg(args.b)
    comparison = compare_sheets(a, b)
    if args.json:
        json.dump(comparison.to_json(), out, indent=2)
        print(file=out)
        return EXIT_OK
    count = len(comparison.options)
    print(f"{sheet_name(a)} | {sheet_name(b)}: "
          + ("the same in every option." if comparison.same else f"{count} option{'s' if count != 1 else ''} differ."),
          file=out)
    for group in comparison.groups:
        print(f"\n{group.title}", file=out)
        for option in group.options:
            print(f"  {option.label}: {option.a} | {option.b}", file=out)
    return EXIT_OK


def _add_referee_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``scorepad referee meld|go-out|pile|minimum``, ``scorepad rescore``, ``scorepad compare``."""
    referee = commands.add_parser("referee", help="ask the referee: meld, go-out, pile or minimum (exit 0 yes, 1 no)")
    questions = referee.add_subparsers(dest="question", required=True)

    def question(name: str, help_text: str, deal: bool = True) -> argparse.ArgumentParser:
        parser = questions.add_parser(name, help=help_text)
        parser.add_argument("--sheet", required=True, help="a preset id (" + ", ".join(sorted(PRESETS))
                            + ") or a sheet file")
        if deal:
            parser.add_argument("--deal", default="1", help="the deal number (default 1)")
        parser.add_argument("--json", action="store_true", help="print the answer as JSON")
        parser.set_defaults(run=_cmd_referee)
        return parser

    meld = question("meld", "is this meld legal?", deal=False)
    meld.add_argument("meld", help='the meld, or the cards added to --adding-to: "9 9 2"')
    meld.add_argument("--adding-to", help='the meld on the table the cards go onto: "9 9 9"')
    meld.add_argument("--table", help='the side\'s other melds, split by ;: "K K K; Q Q Q Q"')
    go_out = question("go-out", "may we go out now?")
    go_out.add_argument("--books", metavar="CLEAN,DIRTY[,WILD] | KIND=N,...",
                        help="the side's books: in order, 1,1 or 2,2,1; or by kind, such as clean=2,dirty=2,special=1 "
                             f"(kinds: {', '.join(BOOK_KINDS)}; special and special_dirty are clean and dirty "
                             "books of a special rank: special_books, or books of threes; by rank, special.7=1)")
    go_out.add_argument("--melds", help='or the side\'s melds, split by ;: "K K K K K K K; Q Q Q Q Q 2 2"')
    go_out.add_argument("--foot-not-played", action="store_true", help="the player has not played the foot yet")
    go_out.add_argument("--knee-not-played", action="store_true",
                        help="the player has not played the knee yet (a deal with a knee, knee_size)")
    go_out.add_argument("--partner-foot", choices=("yes", "no"), help="whether the partner has picked up the foot")
    go_out.add_argument("--partner-played", choices=("yes", "no"),
                        help="whether the partner has played from the foot (where the sheet asks)")
    go_out.add_argument("--permission", choices=("yes", "no"), help="what the partner said to 'may I go out?'")
    go_out.add_argument("--last-card", choices=("meld", "discard"), help="how the last card goes")
    pile = question("pile", "may I take the pile?")
    pile.add_argument("top_card", help="the card on top of the pile: 9, K, 2, JK, 3B, 3R")
    pile.add_argument("--pair", default="0", help="natural cards of that rank in the hand")
    pile.add_argument("--wilds", default="0", help="wild cards in the hand")
    pile.add_argument("--pile-size", required=True, help="cards in the pile")
    pile.add_argument("--opened", action="store_true", help="the side has met its opening minimum")
    pile.add_argument("--pile-has-wild", action="store_true", help="a wild card is in the pile")
    pile.add_argument("--table", help="the side's melds, split by ; (an unfinished meld of the top card's rank "
                      "decides where the pair goes)")
    minimum = question("minimum", "do these first melds meet the minimum?")
    minimum.add_argument("melds", nargs="+", help='each meld, every card laid included: "K K K" "Q Q Q"')
    minimum.add_argument("--top-card", help="the pile's top card, when taken (it is in the melds)")
    minimum.add_argument("--buried", help="cards from under the pile's top used in the melds")
    minimum.add_argument("--running-total", help="the side's running total, for sheets with bands")
    rescore = commands.add_parser("rescore", help="score a deal or a game again under another sheet")
    rescore.add_argument("file", help="a deal (with its sheet), a game file or a game's export, as JSON "
                         "(or - for standard input)")
    rescore.add_argument("--sheet", required=True, help="the other sheet: a preset id or a sheet file")
    rescore.add_argument("--json", action="store_true", help="print the changes as JSON")
    rescore.set_defaults(run=_cmd_rescore)
    compare = commands.add_parser("compare", help="the options on which two sheets differ")
    compare.add_argument("a", help="a preset id or a sheet file")
    compare.add_argument("b", help="another preset id or sheet file")
    compare.add_argument("--json", action="store_true", help="print the differences as JSON")
    compare.set_defaults(run=_cmd_compare)


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
    _add_referee_commands(commands)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command; returns the exit status (argparse itself exits 2 on bad usage)."""
    args = _parser().parse_args(argv)
    out = out or sys.stdout
    try:
        run: Callable[[argparse.Namespace, TextIO], int] = args.run  # each command's _cmd_ function
        return run(args, out)
    except Unreadable as err:
        print(f"scorepad: {err}", file=sys.stderr)
        return EXIT_UNREADABLE
    except BrokenPipeError:  # the reader (say, head) stopped reading: not an error of ours
        sys.stdout = open(os.devnull, "w")
        return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
