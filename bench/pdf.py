"""How fast the printed paper is built, and how large it is.

Run from the repository root::

    python bench/pdf.py [--repetitions 30]

Builds each PDF of :mod:`scorepad.paper` in memory (no server, no database, no Flask) and prints the
median and 90th percentile build time in milliseconds and the size in KB:

* the house-rule sheet of a preset, of a game (two changed options, four players, the
  view link as a QR code), and of the sheet with the most to say (twenty-deal lists,
  every rank a special book, eight sides): the target is a median under 50 ms for the
  first two; the last shows what shrinking the text to fit one page costs;
* a blank score pad, of a preset and of a game;
* the results of a four-deal game with every line itemised.

No timing is asserted; the script only reports.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import reportlab  # noqa: E402

from scorepad.paper.common import GameInfo, load_fonts, printed_date  # noqa: E402
from scorepad.paper.house_rules import house_rules  # noqa: E402
from scorepad.paper.pad import score_pad  # noqa: E402
from scorepad.paper.results import results  # noqa: E402
from scorepad.rules import PRESETS, Deal, Verdict, judge, load_sheet  # noqa: E402
from scorepad.rules.game import Game  # noqa: E402
from scorepad.rules.views import GameView, view_of  # noqa: E402

TARGET_MS = 50.0
PAIRS = [{"name": "North-South", "players": ["Ann", "Cal"]}, {"name": "East-West", "players": ["Bea", "Dan"]}]
DEALS = 20
LONGEST: dict[str, Any] = {
    "preset": "common", "min_players": 2, "max_players": 8, "side_sizes": [1, 2, 3, 4],
    "decks_rule": "fixed", "decks": 12, "jokers_per_deck": 4, "hand_size": 30, "foot_size": 30,
    "cut_bonus": 100_000, "draws_per_turn": [10] * DEALS, "wild_books": True,
    "special_books": {rank: 100_000 for rank in ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4"]},
    "going_out_bonus": [100_000 - i for i in range(DEALS)], "opening_by": "running-total",
    "opening_minimums": [10_000 - i for i in range(DEALS)],
    "opening_bands": [{"below": 100_000 + i * 10_000, "minimum": 10_000 - i} for i in range(10)] + [{"minimum": 9_999}],
    "pile_cards": [200 - i for i in range(DEALS)], "books_to_go_out": [{"clean": 20, "dirty": 20, "wild": 20}] * DEALS,
    "deals": DEALS,
}


def timings_ms(run: Callable[[], bytes], repetitions: int, warm_up: int) -> tuple[list[float], int]:
    """Each run's wall time in milliseconds after ``warm_up`` untimed runs, and the size in bytes."""
    body = b""
    for _ in range(warm_up):
        body = run()
    out = []
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repetitions):
            start = time.perf_counter()
            body = run()
            out.append((time.perf_counter() - start) * 1000)
    finally:
        if gc_was_enabled:
            gc.enable()
    return out, len(body)


def p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10, method="inclusive")[-1] if len(values) > 1 else values[0]


@dataclass
class BenchDeal:
    number: int
    deal: Deal
    as_played: str | None = None

    @property
    def verdict(self) -> Verdict:
        return judge(self.deal)


@dataclass
class BenchGame:
    """What :func:`scorepad.paper.results.results` reads of a stored game."""

    name: str
    sheet: Any
    sides: list[dict[str, Any]]
    deals: list[BenchDeal]
    created_at: str = "2026-09-28T20:00:00+00:00"
    updated_at: str = "2026-09-28T23:00:00+00:00"

    @property
    def side_names(self) -> tuple[str, ...]:
        return tuple(side["name"] for side in self.sides)

    @property
    def game(self) -> Game:
        return Game(self.sheet, self.side_names, tuple(d.deal for d in self.deals))

    @property
    def view(self) -> GameView:
        return view_of(self.game, [d.as_played for d in self.deals])


def four_deal_game() -> BenchGame:
    """tests/data/game-four-deals.json, shaped as the store loads a game."""
    data = json.loads((ROOT / "tests" / "data" / "game-four-deals.json").read_text())
    sheet = load_sheet(data["sheet"])
    deals = [BenchDeal(i, Deal.from_json(d, sheet, number=i)) for i, d in enumerate(data["deals"], 1)]
    return BenchGame("Friday night", sheet, [{"name": n, "players": [n]} for n in data["sides"]], deals)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="How fast each PDF is built, and how large it is.")
    parser.add_argument("--repetitions", type=int, default=30, help="builds of each PDF timed (default 30)")
    repetitions = max(1, parser.parse_args(argv[1:]).repetitions)
    warm_up = max(repetitions // 10, 3)
    game = GameInfo.of("Friday night", PAIRS, "http://192.168.1.20:8000/games/BENCHBENCHBENCHBENCH00",
                           printed_date())
    eight = GameInfo.of("Eight at the table", [{"name": f"Side {i}", "players": [f"Player {i}"]}
                                                   for i in range(1, 9)],
                            "http://192.168.1.20:8000/games/BENCHBENCHBENCHBENCH00", printed_date())
    changed = load_sheet({"preset": "pagat", "hand_size": 11, "red_three_penalty_foot": 300})
    longest = load_sheet(LONGEST)
    record = four_deal_game()
    fonts = load_fonts()

    print(f"Python {platform.python_version()} ({platform.python_implementation()}) on {platform.machine()}, "
          f"reportlab {reportlab.Version}, font {fonts.regular}")
    print(f"{repetitions} timed builds each after {warm_up} warm-up builds (gc off while timing); "
          f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    print(f"{'':44}{'median ms':>10}{'p90 ms':>10}{'KB':>8}{'pages':>7}")
    rows: list[tuple[str, Callable[[], bytes], bool]] = [
        ("house rules: preset pagat", lambda: house_rules(PRESETS["pagat"].sheet), True),
        ("house rules: a game (2 changes, QR code)", lambda: house_rules(changed, "letter", game), True),
        ("house rules: a game, A4", lambda: house_rules(changed, "a4", game), True),
        ("house rules: the most to say, 8 sides", lambda: house_rules(longest, "letter", eight), False),
        ("score pad: preset pagat", lambda: score_pad(PRESETS["pagat"].sheet), False),
        ("score pad: a game", lambda: score_pad(changed, "letter", game), False),
        ("results: four deals", lambda: results(record, (), "letter", game.view_url), False),
    ]
    verdicts = []
    for label, run, targeted in rows:
        times, size = timings_ms(run, repetitions, warm_up)
        median = statistics.median(times)
        pages = run().count(b"/Type /Page\n")
        print(f"{label:44}{median:10.1f}{p90(times):10.1f}{size / 1024:8.1f}{pages:7d}")
        if targeted:
            verdicts.append((label, median))
    for label, median in verdicts:
        print(f"{label}: median {median:.1f} ms, {'under' if median < TARGET_MS else 'OVER'} "
              f"the {TARGET_MS:.0f} ms target")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
