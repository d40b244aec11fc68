"""The judge's fast path (:mod:`scorepad.rules.fast_judge`) gives, to the byte, what the general
path (:func:`~scorepad.rules.verdict.judge_in_full`) gives.

Two sets of generated deals, both seeded so every run judges the same ones:

* :func:`tests.rules.judge_cases.cases`' 10,000 deals across every preset and the catalogue's
  options, careful and careless (itemised and counted sides, knees, openings, unreadable input);
* 10,000 deals made here, legal under their sheet (every preset, and each option of the
  catalogue at each of its other values), half of them then broken in one way each: a bad count,
  too many cards, a foot of the wrong size, a wrong went-out name, a red three in hand, too many
  wild cards, a second unfinished meld, an opening, a counted side or hand, a knee...: each
  rule's check in the pass is met alone, and most legal deals have their report written by
  the pass itself, which is counted, so the test cannot pass by always handing deals back.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from scorepad.rules import OPTIONS, PRESETS, Deal, ReadError, SheetError, load_sheet
from scorepad.rules.fast_judge import fast_judge
from scorepad.rules.sheet import RuleSheet
from scorepad.rules.verdict import judge, judge_in_full
from tests.rules.judge_cases import CARDS, NATURALS, Dice, cases, option_values

Generated = list[tuple[RuleSheet | None, object, dict[str, int] | None]]


def _compare(generated: Generated) -> tuple[int, int, int]:
    """Judge every readable deal both ways; (deals read, taken by the fast path, of those, judged
    whole by it: its own report, with no violation or warning)."""
    read = taken = whole = 0
    for i, (sheet, data, totals) in enumerate(generated):
        try:
            deal = Deal.from_json(data, sheet)
        except ReadError:
            continue
        read += 1
        fast, full = judge(deal, totals), judge_in_full(deal, totals)
        assert fast == full, f"deal {i}: {json.dumps(data)[:3000]}"
        assert json.dumps(fast.to_json()) == json.dumps(full.to_json()), f"deal {i}: {json.dumps(data)[:3000]}"
        compiled = fast_judge(deal.sheet)
        judged = compiled.judge(deal, totals) if compiled.takes else None
        if judged is not None:
            taken += 1
            whole += judged[0] == full.report and not full.report.violations and not full.report.warnings
    return read, taken, whole


def test_the_fast_path_judges_the_generated_deals_of_every_preset_and_option_as_the_general_path_does():
    read, taken, _ = _compare(cases())
    assert read > 9000
    assert taken > read * 0.4, f"the fast path took {taken} of {read} deals"


# -- legal deals, each broken one way or not at all -------------------------------------------

_NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou", "Max", "Ned", "Oz", "Pat")


def _sheets() -> list[RuleSheet]:
    """Every preset, and every option of the catalogue at each value it takes other than a preset's own."""
    sheets = [load_sheet(preset_id) for preset_id in sorted(PRESETS)]
    for name, values in option_values().items():
        for value in values:
            for preset_id in sorted(PRESETS):
                base = load_sheet(preset_id)
                if OPTIONS[[option.name for option in OPTIONS].index(name)].write(getattr(base, name)) == value:
                    continue
                try:
                    sheets.append(load_sheet({"preset": preset_id, name: value}))
                    break
                except SheetError:
                    continue
    return sheets


def _hand(rng: Dice, n: int, kinds: tuple[str, ...]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for _ in range(n):
        card = rng.choice(kinds)
        counts[card] = counts.get(card, 0) + 1
    return counts


def _legal(rng: Dice, sheet: RuleSheet) -> tuple[dict[str, Any], dict[str, int] | None]:  # noqa: C901 (a deal, field by field)
    """A deal that breaks no rule of ``sheet`` (most of the time: a sheet's rarer rules may still
    find something) and carries no opening."""
    last = sheet.last_deal() or 5
    number = rng.randint(1, last)
    size = rng.choice(sheet.side_sizes)
    fits = [n for n in (2, 3, 4) if sheet.min_players <= n * size <= sheet.max_players] or [2]
    names = list(_NAMES)
    rng.shuffle(names)
    went_out_ok = sheet.stock_out.value == "reshuffle" or rng.random() < 0.8
    book, low = sheet.book_size, max(sheet.meld_min, 3)
    hand_kinds = tuple(c for c in CARDS if c != "3R" or not sheet.lays_red_threes)
    sides = []
    pool: list[str] = []  # ranks for books, each once before any twice (the pack holds a few books of a rank)
    for _ in range(rng.choice(fits)):
        players, names = names[:size], names[size:]
        melds: list[Any] = []
        need = sheet.going_out_books(number)
        for _ in range(need.clean + rng.choice((0, 0, 1))):
            melds.append({"rank": _book_rank(rng, pool), "naturals": book})
        for _ in range(need.dirty + rng.choice((0, 0, 1))):
            melds.append({"rank": _book_rank(rng, pool), "naturals": book - 1, "twos": 1})
        melds += [{"rank": "wild", "twos": min(book, 4), "jokers": book - min(book, 4)}] * need.wild
        special = [card.value for card, _ in sheet.special_books]
        melds += [{"rank": rng.choice(special), "naturals": book} for _ in range(need.special)]
        melds += [{"rank": card.value, "naturals": book} for card, n in need.named for _ in range(n)]
        for rank in rng.sample(NATURALS, rng.randint(1, 4)):  # unfinished melds, of ranks apart
            naturals = rng.randint(low, max(low, book - 1))
            meld: dict[str, Any] = {"rank": rank, "naturals": naturals}
            if rng.random() < 0.3 and naturals >= 3:
                meld["jokers" if rng.random() < 0.3 else "twos"] = 1
            melds.append(meld)
        rng.shuffle(melds)
        side: dict[str, Any] = {"name": players[0] if size == 1 else " and ".join(players), "melds": melds,
                                "red_threes": rng.choice((0, 1, 2)) if sheet.lays_red_threes else 0, "players": []}
        for name in players:
            picked = rng.random() < 0.7
            player: dict[str, Any] = {"name": name, "foot_picked_up": picked,
                                      "cards_left": _hand(rng, rng.choice((0, 1, 2, 4)), hand_kinds)}
            if not picked:
                player["foot"] = _hand(rng, sheet.foot_size, CARDS)
            elif rng.random() < 0.3:
                player["foot_played"] = True
            if sheet.cut_bonus and rng.random() < 0.2:
                player["cut_bonus"] = True
            side["players"].append(player)
        if sheet.pile_take_penalty and rng.random() < 0.3:
            side["failed_takes"] = 1
        if rng.random() < 0.1:
            side["running_total"] = rng.choice((0, 2500, 7000))
        sides.append(side)
    data: dict[str, Any] = {"sheet": sheet.to_json(), "deal": number, "sides": sides}
    if went_out_ok:
        side = rng.choice(sides)
        out = side["players"][0]
        out.update(foot_picked_up=True, cards_left={})
        out.pop("foot", None)
        for partner in side["players"]:
            partner.update(foot_picked_up=True, foot_played=True)
            partner.pop("foot", None)
        data.update(ending="went_out", went_out=out["name"] if rng.random() < 0.9 else out["name"].upper())
        if rng.random() < 0.3:
            data["last_card"] = rng.choice(("discard", "meld"))
        if rng.random() < 0.3:
            data["permission"] = rng.choice(("asked-yes", "asked-no", "not-asked"))
    else:
        data["ending"] = "stock_out"
    if sheet.first_meld_bonus and rng.random() < 0.5:
        data["first_meld"] = rng.choice(sides)["players"][-1]["name"]
    totals = {side["name"]: rng.choice((0, 3000, 8000)) for side in sides} if rng.random() < 0.2 else None
    return data, totals


def _book_rank(rng: Dice, pool: list[str]) -> str:
    if not pool:
        pool += NATURALS
        rng.shuffle(pool)
    return pool.pop()


def _player(data: dict[str, Any], rng: Dice) -> dict[str, Any]:
    return rng.choice(rng.choice(data["sides"])["players"])


def _first(data: dict[str, Any], key: str) -> dict[str, Any]:
    return data["sides"][0]["players"][0] if key == "player" else data["sides"][0]


# One way each to break a legal deal (or to make it one the fast path leaves to the general path).
_BREAKS: list[Callable[[dict[str, Any], Dice], None]] = [
    lambda d, r: _player(d, r)["cards_left"].update(K=-1),
    lambda d, r: _player(d, r).update(foot_picked_up=False, foot={"K": 2}),
    lambda d, r: _player(d, r).update(foot_picked_up=True, foot={"Q": 1}),
    lambda d, r: _player(d, r).update(foot_picked_up=False, foot_played=True),
    lambda d, r: d.update(ending="went_out", went_out="Zed"),
    lambda d, r: d.update(ending="went_out", went_out=d["sides"][1]["players"][0]["name"]),
    lambda d, r: d.update(ending="stock_out", went_out=d["sides"][0]["players"][0]["name"]),
    lambda d, r: d.update(ending="went_out", went_out=None),
    lambda d, r: d.update(ending="stock_out"),
    lambda d, r: _player(d, r)["cards_left"].update({"3R": 1}),
    lambda d, r: d["sides"][0]["melds"].append({"rank": "K", "naturals": 3, "twos": 3, "jokers": 1}),
    lambda d, r: d["sides"][0]["melds"].extend([{"rank": "4", "naturals": 3}, {"rank": "4", "naturals": 3}]),
    lambda d, r: d["sides"][0]["melds"].append({"rank": "3", "naturals": 3}),
    lambda d, r: d["sides"][0]["melds"].append({"rank": "J", "naturals": 2}),
    lambda d, r: d["sides"][0]["melds"].append({"rank": "wild", "twos": 4, "jokers": 3}),
    lambda d, r: d["sides"][0]["melds"].append({"rank": "A", "naturals": 12}),
    lambda d, r: d["sides"][0].update(opening={"melds": [{"rank": "K", "naturals": 3}]}),
    lambda d, r: _first(d, "player").update(opening={"melds": [{"rank": "Q", "naturals": 4}], "pile_top": "Q"}),
    lambda d, r: _player(d, r)["cards_left"].update(JK=40),
    lambda d, r: d["sides"][1]["players"][0].update(name=d["sides"][0]["players"][0]["name"].lower()),
    lambda d, r: d["sides"][1].update(name=d["sides"][0]["name"]),
    lambda d, r: d["sides"][0]["players"].append({"name": "Zoe", "foot_picked_up": True}),
    lambda d, r: d["sides"][0].update(players=[]),
    lambda d, r: d.update(sides=d["sides"][:1]),
    lambda d, r: d.update(deal=r.choice((0, 99, 2000))),
    lambda d, r: d.update(first_meld=r.choice(("Zed", d["sides"][0]["players"][0]["name"]))),
    lambda d, r: _player(d, r).update(cut_bonus=True),
    lambda d, r: d["sides"][0].update(failed_takes=r.choice((-1, 2))),
    lambda d, r: d["sides"][0].update(red_threes=r.choice((-1, 1, 4))),
    lambda d, r: d["sides"][0].update(melds=[]),
    lambda d, r: d["sides"][0].update(melds=d["sides"][0]["melds"][:1]),
    lambda d, r: _player(d, r).update(foot_picked_up=False, foot_played=False),
    lambda d, r: d["sides"][0].update(books={"clean": 1}, meld_points=200, melds=None),
    lambda d, r: _player(d, r).update(cards_left=None, cards_left_points=35),
    lambda d, r: _player(d, r).update(knee_picked_up=False, knee={"K": 3}),
    lambda d, r: d.update(last_card=r.choice(("discard", "meld")), permission=r.choice(("asked-no", "not-asked"))),
    lambda d, r: d.update(went_out=str(d.get("went_out") or "").lower() or None),
    lambda d, r: d["sides"][0].update(running_total=r.choice((0, 5000, None))),
]


def _broken(rng: Dice, sheets: list[RuleSheet], count: int) -> Generated:
    out: Generated = []
    for _ in range(count):
        sheet = rng.choice(sheets)
        data, totals = _legal(rng, sheet)
        if rng.random() < 0.5:
            rng.choice(_BREAKS)(data, rng)
            for side in data["sides"]:
                if side.get("melds") is None:
                    side.pop("melds", None)
        out.append((None, data, totals))
    return out


def test_the_fast_path_judges_legal_deals_and_deals_broken_one_way_as_the_general_path_does():
    read, taken, whole = _compare(_broken(Dice(2025), _sheets(), 10_000))
    assert read > 9500
    assert taken > read * 0.6, f"the fast path took {taken} of {read} deals"
    assert whole > taken * 0.3, f"the fast path wrote the report of {whole} of the {taken} deals it took"
