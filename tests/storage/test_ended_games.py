"""A game the table ends (``game_length: open``, issue 23 item 1.9), as storage keeps it:
ending is a write with a history entry (``end``, with the totals it ended on), undone by
reopening (``reopen``), each based on a revision like every write and made once per
idempotency key; a new deal in an ended game is refused until it is reopened; a game whose
sheet ends it itself is never ended by hand.

``valid_deal`` scores Ann 1,060 (kings book 70 + 500, queens 5 + two 2s 50 + 40 + 300,
going out 100) and Bea 5 (jacks 30, less an ace and a black three 25).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest

from scorepad.storage import backends, db, document, idempotency, reading
from scorepad.storage.errors import Conflict, Full, Invalid
from scorepad.storage.idempotency import Kind, Made, Once
from tests import json_writes as writing
from tests.helpers import ANN_BEA, valid_deal

pytestmark = pytest.mark.backends  # each test on a database of its own: on SQLite and on PostgreSQL

OPEN = {"preset": "common", "game_length": "open"}


def open_game(deals: int = 2) -> str:
    game = writing.create_game("Rally", OPEN, ANN_BEA)
    for number in range(1, deals + 1):
        writing.record_deal(game.id, valid_deal(number), repeat=number > 1)
    return game.id


def test_ending_an_open_game_names_the_winner_and_keeps_an_end_entry_with_the_totals(database):
    with db.using(database):
        game_id = open_game()  # revision 2: Ann 2 x 1,060 = 2,120, Bea 2 x 5 = 10
        before = reading.load_game(game_id)
        assert (before.view.result.over, before.view.result.leader, before.next_number) == (False, "Ann", 3)
        ended = writing.end_game(game_id, based_on=2)
        assert ended.revision == 3 and ended.ended_at is not None
        assert (ended.view.result.over, ended.view.result.winner) == (True, "Ann")
        assert ended.next_number is None
        entry = reading.history(game_id)[-1]
        assert (entry["action"], entry["deal_number"], entry["revision"]) == ("end", None, 3)
        assert entry["new_totals"] == {"Ann": 2120, "Bea": 10}


def test_an_ended_game_reads_back_ended_from_the_database(database_setting):
    with db.using(backends.database(database_setting)):
        game_id = open_game()
        writing.end_game(game_id)
    with db.using(backends.database(database_setting)) as fresh:  # another object: its cache empty
        assert reading.cached_game(game_id) is None
        found = reading.load_game(game_id)
        assert found.ended_at is not None and found.rules.ended and found.view.result.winner == "Ann"
        fresh.close()


def test_a_deal_sent_to_an_ended_game_is_refused_saying_to_reopen_it_first(database):
    with db.using(database):
        game_id = open_game()
        writing.end_game(game_id)
        for sent in (valid_deal(3), valid_deal(None)):  # named, or the next
            with pytest.raises(Full) as err:
                writing.record_deal(game_id, sent, repeat=True)
            assert err.value.field == "deal" and "reopen the game first" in err.value.message
        assert reading.load_game(game_id).revision == 3  # nothing written


def test_reopening_lets_the_next_deal_be_recorded_and_is_in_the_history(database):
    with db.using(database):
        game_id = open_game()
        writing.end_game(game_id)
        reopened = writing.reopen_game(game_id, based_on=3)
        assert reopened.revision == 4 and reopened.ended_at is None
        assert (reopened.view.result.over, reopened.view.result.winner, reopened.next_number) == (False, None, 3)
        writing.record_deal(game_id, valid_deal(3), repeat=True)
        assert [e["action"] for e in reading.history(game_id)] == ["record", "record", "end", "reopen", "record"]
        writing.end_game(game_id)
        assert reading.load_game(game_id).view.result.standings[0].total == 3 * 1060


def test_ending_an_ended_game_or_reopening_one_going_on_writes_nothing(database):
    with db.using(database):
        game_id = open_game()
        assert writing.reopen_game(game_id).revision == 2
        writing.end_game(game_id)
        assert writing.end_game(game_id).revision == 3
        assert [e["action"] for e in reading.history(game_id)].count("end") == 1


@pytest.mark.parametrize("sheet", ["common", {"preset": "common", "game_length": "target", "target_score": 5000}])
def test_a_game_whose_sheet_ends_it_is_never_ended_by_hand(database, sheet):
    with db.using(database):
        game = writing.create_game("Friday", sheet, ANN_BEA)
        writing.record_deal(game.id, valid_deal(1))
        for write in (writing.end_game, writing.reopen_game):
            with pytest.raises(Full) as err:
                write(game.id)
            assert err.value.field == "game_length" and "'open'" in err.value.message
        assert reading.load_game(game.id).revision == 1 and reading.history(game.id)[-1]["action"] == "record"


def test_an_open_game_with_no_deal_is_not_ended(database):
    with db.using(database):
        game_id = open_game(deals=0)
        with pytest.raises(Full) as err:
            writing.end_game(game_id)
        assert err.value.field == "game"
        assert reading.load_game(game_id).revision == 0


def test_ending_based_on_a_stale_revision_is_refused_saying_what_changed(database):
    with db.using(database):
        game_id = open_game()
        writing.end_game(game_id)
        with pytest.raises(Conflict) as err:
            writing.reopen_game(game_id, based_on=2)
        assert [c["message"] for c in err.value.changes] == ["the game was ended at the table"]
        assert reading.load_game(game_id).ended_at is not None


def test_ending_with_an_idempotency_key_is_made_once(database):
    with db.using(database):
        game_id = open_game()
        key = reading.key_digest(reading.load_game(game_id).edit_key)
        once: Once[object] = Once("api.end_game", game_id, "end-1", "digest", key)
        first = idempotency.once(once, lambda o: writing.end_game(game_id, once=o))
        again = idempotency.once(once, lambda o: writing.end_game(game_id, once=o))
        assert first.revision == 3
        assert again == Made(Kind.GAME_ENDED, game_id, None, 3)
        assert reading.load_game(game_id).revision == 3


def test_amending_an_ended_game_to_a_sheet_of_four_deals_leaves_it_to_that_sheet(database):
    with db.using(database):
        game_id = open_game()
        writing.end_game(game_id)
        amended = writing.amend_sheet(game_id, "common", "we play four deals after all")
        assert amended.ended_at is None and amended.next_number == 3  # deal 3 of 4
        writing.amend_sheet(game_id, OPEN, "back to the clock")
        assert reading.load_game(game_id).view.result.over is False  # not ended again by the amendment


def test_an_ended_game_exported_and_imported_comes_back_ended(database):
    with db.using(database):
        game_id = open_game()
        assert "ended_at" not in document.export_game(game_id)  # a game going on exports what it always did
        writing.end_game(game_id)
        exported = document.export_game(game_id)
        assert exported["ended_at"] == reading.load_game(game_id).ended_at
        again = document.import_document(exported)
        assert again.ended_at == exported["ended_at"] and again.view.result.winner == "Ann"
        assert document.read_game(exported).result().over is True  # the referee's rescore reads it too


def test_an_export_of_a_game_of_four_deals_saying_ended_is_refused(database):
    with db.using(database):
        game = writing.create_game("Friday", "common", ANN_BEA)
        writing.record_deal(game.id, valid_deal(1))
        exported = {**document.export_game(game.id), "ended_at": "2026-12-01T21:30:00+00:00"}
        with pytest.raises(Invalid) as err:
            document.import_document(exported)
        assert err.value.field == "ended_at"


def race(setting: str, *writes: Callable[[], object]) -> list[object]:
    """Each write on a thread with its own connection to the database (two servers, each with a
    phone on one game), let go at once; what each answered or raised, in order."""
    answers: list[object] = [None] * len(writes)
    start = threading.Barrier(len(writes))

    def run(i: int) -> None:
        database = backends.database(setting)
        try:
            with db.using(database):
                start.wait()
                try:
                    answers[i] = writes[i]()
                except Exception as refused:  # noqa: BLE001 - the refusal is what the test reads
                    answers[i] = refused
        finally:
            database.close()
    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(writes))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


@pytest.mark.parametrize("round_", range(5))
def test_one_phone_ending_while_another_records_on_the_same_revision_writes_one_of_them(database, database_setting,
                                                                                        round_):
    with db.using(database):
        game_id = open_game()  # revision 2
    ended, recorded = race(database_setting, lambda: writing.end_game(game_id, based_on=2),
                           lambda: writing.record_deal(game_id, valid_deal(3), repeat=True, based_on=2))
    with db.using(database):
        game = reading.load_game(game_id)
    refused = [answer for answer in (ended, recorded) if isinstance(answer, Exception)]
    assert len(refused) == 1 and isinstance(refused[0], (Conflict, Full))  # the later is told, never written
    assert game.revision == 3
    assert (game.ended_at is not None) == (not isinstance(ended, Exception))
    assert len(game.deals) == (2 if game.ended_at else 3)


@pytest.mark.parametrize("round_", range(5))
def test_a_deal_sent_without_a_revision_while_the_game_ends_is_never_written_after_the_end(database,
                                                                                           database_setting, round_):
    with db.using(database):
        game_id = open_game()
    race(database_setting, lambda: writing.end_game(game_id),
         lambda: writing.record_deal(game_id, valid_deal(3), repeat=True))
    with db.using(database):
        game = reading.load_game(game_id)
        actions = [entry["action"] for entry in reading.history(game_id)]
    assert game.ended_at is not None  # the end is made either way
    # a deal is recorded before the end or refused; never after it
    assert actions[-1] == "end" and actions.count("record") == len(game.deals)
