"""Specification: the options added since a preset was released never change a score.

Every example game the tests hold (tests/data/game-*.json, and deal-common.json as a game of
one deal) was scored under every version of every preset shipped before rules round three,
and each deal's lines and each side's totals were written to tests/data/rescored-presets.json
from main as it stood then. Rescoring them today must give exactly those lines and totals: a
new option's default is today's behaviour, so no stored game and no shipped preset scores
differently.

Each game is scored under its own sheet and under every other preset's too (a four-player game
under an individuals' sheet still scores; what the referee says is not compared, only the
score). To record the file again (only ever on purpose, when a score change is intended):
``PYTHONPATH=. python tests/rules/test_presets_unchanged.py --write``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from scorepad.rules.game import Game

DATA = Path(__file__).parent.parent / "data"
GOLDEN = DATA / "rescored-presets.json"

# The example games, by file, with the preset each was written for.
GAMES = {
    "game-four-deals.json": "common",
    "game-tie.json": "common",
    "deal-common.json": "common",
    "game-club-gather-together.json": "gather-together",
    "game-progressive.json": "progressive",
    "game-pagat.json": "pagat",
    "game-bicycle.json": "bicycle",
}

# The presets and versions shipped before round three (the file holds exactly these).
RELEASED = {"common": (1,), "pagat": (1, 2), "bicycle": (1,), "gather-together": (1,), "progressive": (1,)}


def _game_json(name: str, preset_id: str, version: int) -> dict[str, object]:
    data = json.loads((DATA / name).read_text(encoding="utf-8"))
    if name.startswith("deal-"):
        data = {"sheet": data.pop("sheet"), "deals": [data]}
    data["sheet"] = {"preset": preset_id, "preset_version": version}
    return data


def rescored(name: str, preset_id: str, version: int) -> dict[str, object]:
    """A game's every deal scored: each side's lines and total, and the running totals."""
    game = Game.from_json(_game_json(name, preset_id, version))
    return {
        "deals": [[side.to_json() for side in verdict.breakdown.sides] for verdict in game.verdicts],
        "running_totals": game.running_totals(),
    }


def _cases() -> list[tuple[str, str, int]]:
    return [(name, preset_id, version) for name in GAMES
            for preset_id, versions in RELEASED.items() for version in versions]


def _key(name: str, preset_id: str, version: int) -> str:
    return f"{name} under {preset_id}@{version}"


def _golden() -> dict[str, object]:
    return json.loads(GOLDEN.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def test_the_golden_file_holds_every_example_game_under_every_released_preset_version():
    assert sorted(_golden()) == sorted(_key(*case) for case in _cases())


def test_each_example_game_is_legal_under_its_own_preset():
    """The games written for a preset are deals its referee accepts, so their scores are real ones."""
    for name, preset_id in GAMES.items():
        game = Game.from_json(_game_json(name, preset_id, max(RELEASED[preset_id])))
        assert all(verdict.ok for verdict in game.verdicts), name


@pytest.mark.parametrize(("name", "preset_id", "version"), _cases(), ids=lambda value: str(value))
def test_rescoring_an_example_game_gives_exactly_the_recorded_lines_and_totals(name, preset_id, version):
    assert rescored(name, preset_id, version) == _golden()[_key(name, preset_id, version)]


def _write() -> None:
    recorded = {_key(*case): rescored(*case) for case in _cases()}
    GOLDEN.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    _write()
