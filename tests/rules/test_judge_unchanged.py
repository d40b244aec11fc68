"""The judge gives, to the byte, what it gave at d0e821c (before issue 25's speed work) on 10,000
generated deals across every preset and the catalogue's options (:mod:`tests.rules.judge_cases`).

The reference is a golden file, ``tests/data/judge-golden.json``, written by running
``judge_cases.py`` against a checkout of d0e821c: a digest of each deal's whole outcome (the
deal read back, every problem with its text and field, not checked, lines, totals; or the read
error) and the full outcome of a sample, so that a failure shows what changed.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.rules.judge_cases import COUNT, SEED, cases, digest, outcome

GOLDEN = Path(__file__).resolve().parent.parent / "data" / "judge-golden.json"


def test_the_judge_gives_what_it_gave_before_on_every_generated_deal():
    golden = json.loads(GOLDEN.read_text())
    assert (golden["seed"], golden["count"]) == (SEED, COUNT)
    expected = golden["digests"].split()
    changed, first = [], None
    for i, (sheet, data, totals) in enumerate(cases()):
        text = outcome(sheet, data, totals)
        if str(i) in golden["sample"]:
            assert json.loads(text) == golden["sample"][str(i)], f"deal {i}"
        if digest(text) != expected[i]:
            changed.append(i)
            first = first or (data, text)
    assert not changed, f"{len(changed)} deals judged differently, first {changed[:10]}; deal {changed[0]}: " \
        f"{json.dumps(first[0])[:2000]} now gives {first[1][:4000]}"
