"""The writes of :mod:`scorepad.storage.writing`, given what a client sends (JSON) rather than
the values a door reads: each read (:mod:`scorepad.storage.checks`, refusing what cannot be
read as ``Invalid`` naming the field, as the doors do), then made. For the tests and
benchmarks that hold a deal, a sheet or sides as JSON (``from tests import json_writes as
writing``); storage itself takes only the rules core's values. The writes that are given no
input are ``writing``'s own, here under the same names.
"""

from __future__ import annotations

from scorepad.storage import checks, reading, writing
from scorepad.storage.idempotency import Once
from scorepad.storage.reading import DealRecord, GameRecord
from scorepad.storage.writing import EDITOR as EDITOR
from scorepad.storage.writing import ENTRY_BYTES as ENTRY_BYTES
from scorepad.storage.writing import MAX_GAME_BYTES as MAX_GAME_BYTES
from scorepad.storage.writing import RETENTION as RETENTION
from scorepad.storage.writing import delete_deal as delete_deal
from scorepad.storage.writing import delete_game as delete_game
from scorepad.storage.writing import end_game as end_game
from scorepad.storage.writing import purge as purge
from scorepad.storage.writing import reopen_game as reopen_game
from scorepad.storage.writing import replace_edit_key as replace_edit_key


def create_game(name: object, sheet: object, sides: object, once: Once[GameRecord] | None = None) -> GameRecord:
    read = checks.read_sheet(sheet)
    table = checks.read_sides(sides, read)  # first: a game named after its sides shows their own error
    return writing.create_game(checks.read_game_name(name, "name"), read, table, once)


def _game(game_id: str) -> GameRecord:
    game = reading.load_game(game_id)
    if game is None:
        raise reading.no_game(game_id)
    return game


def record_deal(game_id: str, data: object, as_played: object = None, based_on: int | None = None,
                once: Once[DealRecord] | None = None, repeat: bool = False, key: str | None = None) -> DealRecord:
    reason = checks.read_reason_field(as_played)
    deal = checks.read_new_deal(_game(game_id), data)
    return writing.record_deal(game_id, deal, reason, based_on, once, repeat, key, named=checks.names_its_number(data))


def update_deal(game_id: str, number: int, data: object, as_played: object = None, based_on: int | None = None,
                once: Once[DealRecord] | None = None, key: str | None = None) -> DealRecord:
    reason = checks.read_reason_field(as_played)
    deal = checks.read_correction(_game(game_id), data, number)
    return writing.update_deal(game_id, number, deal, reason, based_on, once, key)


def amend_sheet(game_id: str, sheet: object, reason: object, based_on: int | None = None,
                key: str | None = None) -> GameRecord:
    said = checks.read_amend_reason(reason)
    return writing.amend_sheet(game_id, checks.read_sheet(sheet), said, based_on, key)
