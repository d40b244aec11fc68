"""Generated deals for the judge's differential test (:mod:`tests.rules.test_judge_unchanged`).

:func:`cases` makes the same deals from the same seed on every run and every commit: each one a
sheet (a preset and options drawn from the option catalogue), a deal's JSON (itemised or counted
sides, legal or not, now and then unreadable) and sometimes each side's total before it.
:func:`outcome` is everything reading and judging a deal gives back, in one canonical JSON text.

Run as a script it writes the golden file the test compares with::

    PYTHONPATH=/path/to/old/checkout python tests/rules/judge_cases.py tests/data/judge-golden.json

The deals are made here, in the tests, from JSON values only; the code under test reads and
judges them (only :func:`~scorepad.rules.load_sheet` is used to learn a sheet's foot size, so that
most unopened feet are the right size, and the catalogue to learn the options).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from enum import Enum
from pathlib import Path
from typing import Any

from scorepad.rules import OPTIONS, PRESETS, Deal, ReadError, RuleSheet, SheetError, judge, load_sheet

Case = tuple[RuleSheet | None, object, dict[str, int] | None]

SEED = 25
COUNT = 10_000
SHEETS = 400  # sheets made, each judging many deals
SAMPLE_EVERY = 1000  # the golden file keeps the full outcome of every 1000th deal, to show a difference

NATURALS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4")
CARDS = (*NATURALS, "2", "JK", "3B", "3R")

# Values beyond the presets' own that make a rule apply (bonuses, caps, special books, a knee...).
_EXTRA: dict[str, list[Any]] = {
    "special_books": [{"7": 1000}, {"A": 1500, "7": 1000}, {"K": 750}],
    "special_books_dirty": [{"7": 300}, {"A": 500, "7": 300, "K": 200, "Q": 200}],
    "three_books": [{"3R": 500, "3B": 300}, {"3B": 300}],
    "book_caps": [{"wild": 1}, {"K": 1, "7": 2}, {"A": 1}],
    "wild_book_mixed_bonus": [2000, 1000],
    "red_three_bonus_not_out": [-100, 0],
    "black_three_in_foot": [100, 0],
    "knee_size": [13, 11],
    "cut_bonus": [100],
    "first_meld_bonus": [50],
    "pile_take_penalty": [100],
    "max_books_per_rank": [1, 2],
    "wild_books": [True],
    "red_three_penalty_hand": [500],
    "red_three_penalty_foot": [500],
    "max_wilds": [1, 2, None],
    "min_naturals_with_wilds": [3, 4],
    "meld_min": [4],
    "book_size": [5, 9],
    "go_out_permission": [True],
    "deals": [2, 7],
}


def option_values() -> dict[str, list[Any]]:
    """Each option's values to draw from: every preset's, every choice of a choice, the extras."""
    values: dict[str, list[Any]] = {}
    for option in OPTIONS:
        seen: list[Any] = []
        pool = [option.write(getattr(p.sheet, option.name)) for p in PRESETS.values()]
        if isinstance(option.default, Enum):
            pool += [member.value for member in type(option.default)]
        pool += _EXTRA.get(option.name, [])
        for value in pool:
            if value not in seen:
                seen.append(value)
        values[option.name] = seen
    return values


def _sheet(rng: Dice, values: dict[str, list[Any]]) -> tuple[object, RuleSheet]:
    """A sheet's JSON (a preset id, or a preset and options) and the sheet it loads."""
    preset_id = rng.choice(sorted(PRESETS))
    if rng.random() < 0.25:
        return preset_id, load_sheet(preset_id)
    for _ in range(20):
        names = rng.sample(sorted(values), rng.randint(1, 6))
        data: dict[str, Any] = {"preset": preset_id}
        for name in names:
            data[name] = rng.choice(values[name])
        try:
            return data, load_sheet(data)
        except SheetError:
            continue
    return preset_id, load_sheet(preset_id)


def _cards(rng: Dice, n: int, kinds: tuple[str, ...] = CARDS) -> dict[str, int]:
    counts: dict[str, int] = {}
    for _ in range(n):
        card = rng.choice(kinds)
        counts[card] = counts.get(card, 0) + 1
    return counts


def _card_text(counts: dict[str, int]) -> str:
    return " ".join(card for card, n in counts.items() for _ in range(n))


def _meld(rng: Dice, book: int) -> object:
    roll = rng.random()
    if roll < 0.04 * rng.noise:
        return {"rank": "wild", "twos": rng.randint(0, 5), "jokers": rng.randint(0, 4)}
    rank = rng.choice(NATURALS) if roll > 0.08 * rng.noise else rng.choice(("3", "3R", "3B"))
    naturals = rng.choice((3, 4, 5, book, book, book - 2, book - 1, book + 1, 2) if rng.noise else (4, 5, book))
    twos = rng.choice((0, 0, 0, 1, 2, 3) if rng.noise else (0, 1)) if rng.random() < 0.5 else 0
    jokers = rng.choice((0, 0, 1, 2)) if rng.odd(0.4) else 0
    if rng.random() < 0.5:  # dirty books are the wild cards' share of a book
        naturals = max(book - twos - jokers, 0) if naturals == book else naturals
    if rng.odd(0.01):
        naturals = -1
    form = rng.random()
    if form < 0.08 and naturals >= 0:  # a card string
        return " ".join([rank if rank not in ("3",) else "3B"] * naturals + ["2"] * twos + ["JK"] * jokers) or rank
    if form < 0.12 and naturals >= 0 and rank not in ("3",):
        return {"rank": rank, "cards": {rank: naturals, **({"2": twos} if twos else {}),
                                        **({"JK": jokers} if jokers else {})}}
    meld: dict[str, Any] = {"rank": rank, "naturals": naturals}
    if twos:
        meld["twos"] = twos
    if jokers:
        meld["jokers"] = jokers
    return meld


def _opening(rng: Dice, book: int) -> dict[str, Any]:
    out: dict[str, Any] = {"melds": [_meld(rng, book) for _ in range(rng.randint(0, 3))]}
    top = rng.random()
    if top < 0.3:
        out["pile_top"] = rng.choice(CARDS)
    elif top < 0.4:
        out["pile_top"] = True
    return out


def _player(rng: Dice, name: str, sheet: Any, counted: bool, book: int, knee: int) -> dict[str, Any]:
    picked = rng.random() < 0.75
    player: dict[str, Any] = {"name": name, "foot_picked_up": picked}
    if counted and rng.random() < 0.7:
        player["cards_left_points"] = rng.choice((0, 0, 5, 35, 120, 260, -5))
        if rng.random() < 0.3:
            player["red_threes_left"] = rng.randint(0, 2)
    else:
        left = _cards(rng, rng.choice((0, 0, 1, 2, 3, 5, 8)))
        if rng.odd(0.02):
            left["K"] = -1
        player["cards_left"] = _card_text(left) if rng.random() < 0.1 and min(left.values(), default=0) >= 0 else left
    if not picked and not rng.odd(0.05):
        size = sheet.foot_size if not rng.odd(0.1) else sheet.foot_size + rng.choice((-1, 1))
        player["foot"] = _cards(rng, size)
    elif picked and rng.odd(0.02):
        player["foot"] = _cards(rng, 2)
    if rng.odd(0.15):
        player["foot_played"] = rng.choice((True, False, None))
    if knee or rng.odd(0.03):
        knee_picked = rng.choice((True, False, None)) if not picked \
            else rng.choice((True, True, False, None) if rng.noise else (True, None))
        if knee_picked is not None:
            player["knee_picked_up"] = knee_picked
        if knee_picked is False:
            player["knee"] = _cards(rng, knee if not rng.odd(0.15) else 3)
    if rng.odd(0.08) or (sheet.cut_bonus and rng.random() < 0.1):
        player["cut_bonus"] = True
    if rng.odd(0.12):
        player["opening"] = _opening(rng, book)
    return player


def _side(rng: Dice, name: str, players: list[str], sheet: Any, knee: int) -> dict[str, Any]:
    book = sheet.book_size
    counted = rng.random() < 0.2
    side: dict[str, Any] = {"name": name}
    if counted:
        books: dict[str, Any] = {"clean": rng.randint(0, 3), "dirty": rng.randint(0, 3), "wild": rng.choice((0, 0, 1))}
        for key, codes in (("special", ("7", "A", "K")), ("special_dirty", ("7", "A")), ("threes", ("3R", "3B"))):
            if rng.random() < 0.2:
                books[key] = {rng.choice(codes): rng.randint(0, 2)}
        if rng.random() < 0.1:
            books["wild_mixed"] = 1
        if rng.odd(0.03):
            books["clean"] = -1
        side["books"] = books
        side["meld_points"] = rng.choice((0, 150, 325, 480, 615, 990, 2000, 333, -5))
    else:
        side["melds"] = [_meld(rng, book) for _ in range(rng.choice((0, 1, 2, 3, 4, 5, 6, 7, 8, 10)))]
    side["red_threes"] = rng.choice((0, 0, 1, 1, 2, 3, 5, -1) if rng.odd(0.1) else (0, 0, 1, 2, 3)) \
        if sheet.lays_red_threes or rng.odd(0.3) else 0
    side["players"] = [_player(rng, p, sheet, counted, book, knee) for p in players]
    if rng.random() < 0.1:
        side["opening"] = _opening(rng, book)
    if rng.random() < 0.15:
        side["running_total"] = rng.choice((0, 1500, 3000, 6000, 9000))
    if rng.odd(0.05) or (sheet.pile_take_penalty and rng.random() < 0.2):
        side["failed_takes"] = rng.choice((1, 2, -1))
    return side


_NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy")


def _deal(rng: Dice, sheet_json: object, sheet: Any) -> tuple[object, dict[str, int] | None]:
    rng.noise = 1.0 if rng.random() < 0.5 else 0.0  # half the deals careful: mostly legal
    last = sheet.last_deal() or 5
    number = rng.choice((1, 1, 2, 3, 4, 5, 0, 9)) if rng.noise else rng.randint(1, last)
    knee = sheet.knee_at(number) if number > 0 else 0
    size = rng.choice((1, 2, 2, 3)) if rng.noise else rng.choice(sheet.side_sizes)
    fits = [n for n in (2, 3, 4) if sheet.min_players <= n * size <= sheet.max_players] or [2]
    sides = rng.choice((2, 2, 2, 3, 3, 4, 1)) if rng.noise else rng.choice(fits)
    names = list(_NAMES)
    rng.shuffle(names)
    deal_sides, everyone = [], []
    for s in range(sides):
        n = size if not rng.odd(0.08) else max(size + rng.choice((-1, 1)), 0)
        players, names = names[:n], names[n:]
        everyone += players
        label = players[0] if n == 1 else " and ".join(players) if players else f"Side {s + 1}"
        if rng.odd(0.02) and deal_sides:
            label = deal_sides[0]["name"]
        deal_sides.append(_side(rng, label, players, sheet, knee))
    data: dict[str, Any] = {"sheet": sheet_json, "deal": number}
    data["ending"] = "went_out" if rng.random() < 0.75 else "stock_out"
    if (data["ending"] == "went_out" and rng.random() < 0.95) or rng.odd(0.05):
        data["went_out"] = rng.choice(everyone) if everyone and not rng.odd(0.05) else "Zed"
        if rng.random() < 0.1:
            data["went_out"] = data["went_out"].lower()
    if rng.random() < 0.3:
        data["last_card"] = rng.choice(("discard", "meld"))
    if rng.random() < 0.3:
        data["permission"] = rng.choice(("asked-yes", "asked-no", "not-asked"))
    if (rng.odd(0.1) or (sheet.first_meld_bonus and rng.random() < 0.5)) and everyone:
        data["first_meld"] = rng.choice(everyone)
    data["sides"] = deal_sides
    if not rng.noise and data.get("went_out") in everyone:
        _went_out_cleanly(rng, data, sheet, number)
    if rng.odd(0.03):
        _break(rng, data)
    totals = None
    if rng.random() < 0.2:
        totals = {side["name"]: rng.choice((0, 2000, 4500, 8000)) for side in deal_sides}
    return data, totals


def _went_out_cleanly(rng: Dice, data: dict[str, Any], sheet: Any, number: int) -> None:
    """A careful deal's player who went out holds nothing, and the side has its books."""
    for side in data["sides"]:
        for player in side["players"]:
            if player["name"] != data["went_out"]:
                continue
            player.update(foot_picked_up=True, cards_left={})
            for key in ("foot", "knee", "knee_picked_up", "cards_left_points", "red_threes_left", "foot_played"):
                player.pop(key, None)
            need = sheet.going_out_books(number)
            if "melds" in side:
                ranks = list(NATURALS) * 3
                rng.shuffle(ranks)
                book = sheet.book_size
                side["melds"] += [{"rank": ranks.pop(), "naturals": book} for _ in range(need.clean)]
                side["melds"] += [{"rank": ranks.pop(), "naturals": book - 1, "twos": 1} for _ in range(need.dirty)]
            else:
                side["books"]["clean"] = max(side["books"]["clean"], need.clean)
                side["books"]["dirty"] = max(side["books"]["dirty"], need.dirty)


def _break(rng: Dice, data: dict[str, Any]) -> None:
    """Make the deal unreadable, one way or another (the judge must say the same field)."""
    way = rng.randrange(6)
    side = data["sides"][0]
    if way == 0:
        side["colour"] = "blue"
    elif way == 1:
        data["ending"] = "won"
    elif way == 2 and side["players"]:
        side["players"][0]["cards_left"] = {"Z": 1}
    elif way == 3 and side["players"]:
        side["players"][0]["foot_picked_up"] = "yes"
    elif way == 4:
        side.setdefault("melds", []).append({"rank": "K", "naturals": 2.5})
    else:
        side["red_threes"] = "two"


class Dice(random.Random):
    """The generator's random numbers, with ``noise``: 0 for a careful deal, whose rare oddities
    (:meth:`odd`) never happen, 1 for a careless one."""

    noise = 1.0

    def odd(self, p: float) -> bool:
        return self.random() < p * self.noise


def cases(count: int = COUNT, seed: int = SEED) -> list[Case]:
    """``count`` deals from ``seed``: each the game's sheet (None for a deal naming its preset), the
    deal's JSON and the sides' totals before it (or None). The sheets are drawn from a pool, as a
    server judges many deals under each game's one sheet."""
    rng = Dice(seed)
    values = option_values()
    sheets = [_sheet(rng, values) for _ in range(SHEETS)]
    out: list[Case] = []
    for _ in range(count):
        sheet_json, sheet = rng.choice(sheets)
        data, totals = _deal(rng, sheet_json, sheet)
        if isinstance(sheet_json, str):  # a deal of its own, naming its preset
            out.append((None, data, totals))
        else:  # a deal in a game, read under the game's sheet
            del data["sheet"]  # type: ignore[union-attr]
            out.append((sheet, data, totals))
    return out


def outcome(sheet: RuleSheet | None, data: object, totals: dict[str, int] | None) -> str:
    """Everything reading and judging the deal gives, as canonical JSON: the deal as read back,
    the verdict (problems with their texts, not checked, lines, totals) and each problem's field;
    or the read error's field and message."""
    try:
        deal = Deal.from_json(data, sheet)
    except ReadError as error:
        return _canonical({"read_error": [error.field, str(error)]})
    verdict = judge(deal, totals)
    report = verdict.report
    return _canonical({"deal": deal.to_json(), "verdict": verdict.to_json(), "ok": verdict.ok,
                       "fields": [p.field for p in (*report.violations, *report.warnings)],
                       "totals": verdict.breakdown.totals()})


def _canonical(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def golden() -> dict[str, Any]:
    """The golden file's content: each deal's digest and the full outcome of a sample."""
    digests, sample = [], {}
    for i, (sheet, data, totals) in enumerate(cases()):
        text = outcome(sheet, data, totals)
        digests.append(digest(text))
        if i % SAMPLE_EVERY == 0:
            sample[str(i)] = json.loads(text)
    return {"seed": SEED, "count": COUNT, "digests": " ".join(digests), "sample": sample}


if __name__ == "__main__":
    Path(sys.argv[1]).write_text(json.dumps(golden(), sort_keys=True, indent=0, ensure_ascii=False) + "\n")
