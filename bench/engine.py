"""How fast the rules core judges a realistic deal.

Run from the repository root::

    python bench/engine.py [--repetitions 2000] [--rounds 10]

The deal is a six-player game of three partnerships (the ``common`` preset allows sides of
two for two to six players) with 20 melds on the table: books clean and dirty, unfinished
melds, cards left in hands, one foot never picked up (its 11 cards) and red threes laid.
It prints the median and 90th percentile, in microseconds, of

* validate + score (``judge(deal)``) on a parsed deal: the issue-25 targets are below (50 µs);
* parsing alone (``Deal.from_json``);
* parsing and judging together, as the API does for each request;
* ``bench/floor.py``'s hand-written minimal scorer on the same parsed deal (checked first to
  give the judge's every line and total), and the judge's median as a ratio to it: the
  targets are a median of at most 50 µs and a ratio of at most 1.5.

The four are timed in turns: ``--rounds`` rounds, each timing every one of them for its share
of ``--repetitions``, so a change in the machine's load falls on all four alike and the ratio
stays a ratio inside one run. No timing is asserted; the script only reports.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.floor import floor  # noqa: E402
from scorepad.rules import Deal, judge  # noqa: E402

TARGET_US = 50.0
TARGET_RATIO = 1.5

DEAL: dict[str, Any] = {
    "sheet": "common",
    "deal": 2,
    "ending": "went_out",
    "went_out": "Ann",
    "sides": [
        {
            "name": "Ann and Ben",
            "red_threes": 2,
            "melds": [
                {"rank": "K", "naturals": 7},                          # clean book
                {"rank": "Q", "naturals": 5, "twos": 2},               # dirty book
                {"rank": "9", "naturals": 3},
                {"rank": "5", "naturals": 4, "jokers": 1},
                {"rank": "A", "naturals": 3},
                {"rank": "8", "naturals": 4, "twos": 2},
            ],
            "players": [
                {"name": "Ann", "foot_picked_up": True, "cards_left": {}},
                {"name": "Ben", "foot_picked_up": True, "cards_left": {"7": 2, "JK": 1, "3B": 1}},
            ],
        },
        {
            "name": "Cat and Dan",
            "red_threes": 1,
            "melds": [
                {"rank": "J", "naturals": 7},                          # clean book
                {"rank": "10", "naturals": 4, "twos": 1, "jokers": 2},  # dirty book
                {"rank": "7", "naturals": 3},
                {"rank": "6", "naturals": 4},
                {"rank": "4", "naturals": 3, "twos": 1},
                {"rank": "K", "naturals": 3},
                {"rank": "A", "naturals": 5, "jokers": 1},
            ],
            "players": [
                {"name": "Cat", "foot_picked_up": True, "cards_left": {"A": 1, "Q": 2, "4": 1}},
                {"name": "Dan", "foot_picked_up": False, "cards_left": {"9": 1, "2": 1},
                 "foot": {"K": 2, "8": 1, "6": 2, "5": 1, "2": 1, "JK": 1, "3B": 1, "3R": 1, "J": 1}},
            ],
        },
        {
            "name": "Eve and Fay",
            "red_threes": 3,
            "melds": [
                {"rank": "A", "naturals": 7},                          # clean book
                {"rank": "9", "naturals": 5, "twos": 2},               # dirty book
                {"rank": "Q", "naturals": 4},
                {"rank": "J", "naturals": 3, "jokers": 1},
                {"rank": "6", "naturals": 3},
                {"rank": "10", "naturals": 5},
                {"rank": "7", "naturals": 4, "twos": 1, "jokers": 1},
            ],
            "players": [
                {"name": "Eve", "foot_picked_up": True, "cards_left": {"K": 1, "5": 2, "3B": 1}},
                {"name": "Fay", "foot_picked_up": True, "cards_left": {"8": 3, "A": 1, "2": 1}},
            ],
        },
    ],
}


def timings_us(run: Callable[[], Any], repetitions: int, warm_up: int) -> list[float]:
    """Each run's wall time in microseconds, after ``warm_up`` untimed runs."""
    for _ in range(warm_up):
        run()
    clock = time.perf_counter_ns
    out = []
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repetitions):
            start = clock()
            run()
            out.append((clock() - start) / 1000)
    finally:
        if gc_was_enabled:
            gc.enable()
    return out


def p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10, method="inclusive")[-1] if len(values) > 1 else values[0]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="How fast the rules core judges a realistic deal, "
                                     "against bench/floor.py's minimal scorer.")
    parser.add_argument("--repetitions", type=int, default=2000, help="timed runs of each (default 2000)")
    parser.add_argument("--rounds", type=int, default=10, help="turns the timed runs are split into (default 10)")
    args = parser.parse_args(argv[1:])
    rounds = max(1, min(args.rounds, args.repetitions))
    repetitions = max(1, args.repetitions // rounds * rounds)
    warm_up = max(repetitions // 10, 50)
    deal = Deal.from_json(DEAL)
    verdict = judge(deal)
    melds = sum(len(side.melds) for side in deal.sides)
    players = sum(len(side.players) for side in deal.sides)
    books = sum(1 for side in deal.sides for meld in side.melds if meld.book_kind(deal.sheet))
    feet = [f"{p.name} {p.foot.total} cards" for _, _, p in deal.players() if not p.foot_picked_up]

    print(f"Python {platform.python_version()} ({platform.python_implementation()}) on {platform.machine()}")
    print(f"deal: {players} players in {len(deal.sides)} sides, {melds} melds ({books} books), "
          f"sheet {deal.sheet.preset!r}, unopened feet: {', '.join(feet) or 'none'}")
    print(f"violations: {len(verdict.report.violations)}  warnings: {len(verdict.report.warnings)}  "
          f"totals: {verdict.breakdown.totals()}")
    judged = [(s.name, [(line.code, line.points) for line in s.lines], s.total) for s in verdict.breakdown.sides]
    if floor(deal) != judged:
        print("bench/floor.py does not reproduce the judge's lines and totals; fix it before timing")
        return 1
    if verdict.report.violations:
        for problem in verdict.report.violations:
            print(f"  ! {problem.code}: {problem.message}")
    print(f"{repetitions} timed runs each, in {rounds} turns, after {warm_up} warm-up runs (gc off while timing); "
          f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    print(f"{'':24}{'median µs':>12}{'p90 µs':>12}{'min µs':>12}")
    rows = (("validate + score", lambda: judge(deal)),
            ("parse", lambda: Deal.from_json(DEAL)),
            ("parse + validate + score", lambda: judge(Deal.from_json(DEAL))),
            ("floor (bench/floor.py)", lambda: floor(deal)))
    timed: dict[str, list[float]] = {label: [] for label, _ in rows}
    for turn in range(rounds):
        for label, run in rows:
            timed[label] += timings_us(run, repetitions // rounds, warm_up if turn == 0 else 0)
    medians = {}
    for label, times in timed.items():
        medians[label] = statistics.median(times)
        print(f"{label:24}{medians[label]:12.1f}{p90(times):12.1f}{min(times):12.1f}")
    median = medians["validate + score"]
    print(f"validate + score: median {median:.1f} µs, {'under' if median < TARGET_US else 'OVER'} "
          f"the {TARGET_US:.0f} µs target")
    ratio = median / medians["floor (bench/floor.py)"]
    print(f"judge / floor: {ratio:.2f}, {'within' if ratio <= TARGET_RATIO else 'OVER'} the {TARGET_RATIO} target")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
