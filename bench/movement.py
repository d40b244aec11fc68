"""How fast the seating movements of a club night seat a round, and how often they repeat.

Run from the repository root::

    python bench/movement.py

For 10 and 40 tables (40 and 160 players) over MAX_EVENT_ROUNDS rounds it prints, for each
progressive movement (north_stays and generic), the median and slowest time to seat one
round and the repeated partnerships and opponents of the whole event; then the same for
partners_round with 7, 8 and 20 partnerships. The issue-27 target: generic seats 40 tables
for the last round in well under 1 s.

No timing is asserted; the script only reports.
"""

from __future__ import annotations

import platform
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorepad.rules.limits import MAX_EVENT_ROUNDS, MOVEMENT_SEARCH_TRIES  # noqa: E402
from scorepad.rules.movements import RoundSeats, generic, north_stays, partners_round, repeats  # noqa: E402

Movement = Callable[[Sequence[str], Sequence[RoundSeats]], RoundSeats]


def event(movement: Movement, roster: Sequence[str], rounds: int) -> tuple[list[float], list[RoundSeats]]:
    """Each round's time to seat (seconds) and the rounds."""
    played: list[RoundSeats] = []
    took = []
    for _ in range(rounds):
        start = time.perf_counter()
        played.append(movement(roster, played))
        took.append(time.perf_counter() - start)
    return took, played


def report(label: str, movement: Movement, roster: Sequence[str]) -> None:
    took, played = event(movement, roster, MAX_EVENT_ROUNDS)
    tables = len(played[-1].tables)
    print(f"  {label:<16} {tables:>3} tables  median {statistics.median(took) * 1e3:8.2f} ms  "
          f"slowest {max(took) * 1e3:8.2f} ms  last round {took[-1] * 1e3:8.2f} ms  {repeats(played)}")


def main() -> None:
    print(f"Python {platform.python_version()} on {platform.machine()}; {MAX_EVENT_ROUNDS} rounds; "
          f"search attempts a round: {MOVEMENT_SEARCH_TRIES}")
    print("progressive tables (4 players a table, 2 sides of 2):")
    for tables in (10, 40):
        roster = [f"Player {i}" for i in range(1, 4 * tables + 1)]
        for name, movement in (("north_stays", north_stays), ("generic", generic)):
            report(name, movement, roster)
    print("partnerships (2 a table):")
    for count in (7, 8, 20):
        roster = [f"Pair {i}" for i in range(1, count + 1)]
        report(f"partners ({count})", partners_round, roster)


if __name__ == "__main__":
    main()
