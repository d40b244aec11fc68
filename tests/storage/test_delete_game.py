"""Deleting a game, and removing those not changed for RETAIN_DAYS (issue 21, item 7): what
the game held goes with it (deals, history, the answers kept for its idempotency keys, what
the cache holds of it), its id is kept as deleted so its links answer 410, and deleting is a
write like the others (based on a revision, refused when stale)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from scorepad.storage import db, reading
from scorepad.storage.errors import Conflict, Gone
from tests import json_writes as writing
from tests.helpers import ANN_BEA, REPEAT, api_game, bearer, sql, valid_deal

pytestmark = pytest.mark.backends  # each test on a database of its own: on SQLite and on PostgreSQL

API = "/api/v1"


def rows_of(database: str, game_id: str) -> dict[str, int]:
    """How many rows of each table hold something of the game (the kept keys: those of its
    writes, and those that made it, as its creation's does: the game it made is the fact kept)."""
    found = {table: sql(database, f"SELECT COUNT(*) FROM {table} WHERE {column} = ?", (game_id,))[0][0]
             for table, column in (("game", "id"), ("deal", "game_id"), ("history", "game_id"))}
    found["idempotency_key"] = sql(database, "SELECT COUNT(*) FROM idempotency_key WHERE game_id = ? OR made_game = ?",
                                   (game_id, game_id))[0][0]
    return found


def keyed_game(client) -> tuple[str, str]:
    """A game created and written to with an Idempotency-Key on each request: (id, edit key)."""
    created = client.post(f"{API}/games", json={"name": "Friday", "sheet": "common", "sides": ANN_BEA},
                          headers={"Idempotency-Key": "create-1"})
    assert created.status_code == 201
    game_id, key = created.get_json()["id"], created.get_json()["edit_key"]
    for number in (1, 2):
        saved = client.post(f"{API}/games/{game_id}/deals", json=valid_deal(number) | REPEAT,
                            headers={**bearer(key), "Idempotency-Key": f"deal-{number}"})
        assert saved.status_code == 201
    assert client.delete(f"{API}/games/{game_id}/deals/2", headers=bearer(key)).status_code == 200
    return game_id, key


def test_deleting_a_game_removes_its_deals_history_and_kept_answers_and_keeps_its_id_as_deleted(
        app, client, database_setting):
    game_id, _ = keyed_game(client)
    other_id, _ = api_game(client, "Saturday", deals=[valid_deal(1)])
    before = rows_of(database_setting, game_id)
    assert before == {"game": 1, "deal": 1, "history": 3, "idempotency_key": 3}, before
    kept_other = rows_of(database_setting, other_id)

    with app.app_context():
        at = writing.delete_game(game_id)
        assert reading.load_game(game_id) is None and reading.revision(game_id) is None
        deleted = reading.gone(game_id)
        assert isinstance(deleted, Gone) and (deleted.at, deleted.why) == (at, writing.EDITOR)
        assert "deleted by its editor" in deleted.message
        assert reading.gone(other_id) is None and reading.load_game(other_id) is not None

    assert rows_of(database_setting, game_id) == {"game": 0, "deal": 0, "history": 0, "idempotency_key": 0}
    assert rows_of(database_setting, other_id) == kept_other  # another game keeps all it held
    assert sql(database_setting, "SELECT id, deleted_at, why FROM deleted_game") == [(game_id, at, "editor")]


def test_a_deletion_based_on_a_revision_the_game_has_moved_past_is_refused_and_deletes_nothing(app, client,
                                                                                                database_setting):
    game_id, _ = api_game(client, deals=[valid_deal(1)])  # revision 1
    with app.app_context():
        with pytest.raises(Conflict) as refused:
            writing.delete_game(game_id, based_on=0)
        assert refused.value.revision == 1 and "deal 1 was recorded" in refused.value.message
        assert reading.load_game(game_id) is not None and reading.gone(game_id) is None
        writing.delete_game(game_id, based_on=1)
        with pytest.raises(Gone):  # deleted: a second deletion, or any write, is told so
            writing.delete_game(game_id)
        with pytest.raises(Gone):
            writing.record_deal(game_id, valid_deal(2))
    assert rows_of(database_setting, game_id)["game"] == 0


def test_a_deleted_games_entries_leave_the_cache_and_no_other_games_do(app, client, viewer):
    game_id, key = api_game(client, deals=[valid_deal(1)])
    other_id, _ = api_game(client, "Saturday", deals=[valid_deal(1)])
    for some in (game_id, other_id):  # the viewer's page, the API's JSON, the game's record: all cached
        assert viewer.get(f"/games/{some}").status_code == 200
        assert viewer.get(f"{API}/games/{some}").status_code == 200
    kept = app.extensions["scorepad.cache"]

    def entries(some: str) -> list[object]:
        return [k for k in list(kept._entries) if isinstance(k, tuple) and some in k]

    assert len(entries(game_id)) >= 3 and len(entries(other_id)) >= 3
    used, held = kept.used, len(entries(other_id))
    assert client.delete(f"{API}/games/{game_id}", headers=bearer(key)).status_code == 200
    assert entries(game_id) == [] and kept.used < used
    assert len(entries(other_id)) == held


def _age(database: str, game_id: str, days: int) -> None:
    """Make the game last changed ``days`` ago (as if no one had written to it since)."""
    then = (datetime.now(UTC) - timedelta(days=days)).isoformat(timespec="seconds")
    sql(database, "UPDATE game SET updated_at = ? WHERE id = ?", (then, game_id))


def test_purge_removes_the_games_not_changed_since_the_moment_and_keeps_the_others(app, client, database_setting):
    old, older, fresh = (api_game(client, name, deals=[valid_deal(1)])[0] for name in ("Old", "Older", "Fresh"))
    _age(database_setting, old, 31)
    _age(database_setting, older, 400)
    cutoff = datetime.now(UTC) - timedelta(days=30)
    with app.app_context():
        would = writing.purge(cutoff, dry_run=True)
        assert [(g.id, g.name, g.deals) for g in would] == [(older, "Older", 1), (old, "Old", 1)]
        assert all(reading.load_game(g) is not None for g in (old, older, fresh))  # a dry run removes nothing

        removed = writing.purge(cutoff)
        assert [g.id for g in removed] == [older, old]
        assert reading.load_game(fresh) is not None and reading.gone(fresh) is None
        for gone_id in (old, older):
            deleted = reading.gone(gone_id)
            assert deleted is not None and deleted.why == writing.RETENTION
            assert "not having changed for longer than this server keeps games" in deleted.message
        assert writing.purge(cutoff) == []  # nothing left to remove
    assert rows_of(database_setting, old) == {"game": 0, "deal": 0, "history": 0, "idempotency_key": 0}


def test_purge_reads_every_game_in_batches_oldest_first(app, database_setting):
    """More games than one batch, all last changed at the same moment: every one is found
    once, in the order of that time and then of the id."""
    with app.app_context():
        ids = sorted(writing.create_game(f"Game {i}", "common", ANN_BEA).id for i in range(2 * reading.PURGE_BATCH + 1))
    then = (datetime.now(UTC) - timedelta(days=100)).isoformat(timespec="seconds")
    sql(database_setting, "UPDATE game SET updated_at = ?", (then,))
    with app.app_context():
        assert [g.id for g in reading.unchanged_since(datetime.now(UTC) - timedelta(days=10))] == ids
        assert [g.id for g in writing.purge(datetime.now(UTC) - timedelta(days=10))] == ids
        assert reading.unchanged_since(datetime.now(UTC)) == []


def test_a_game_written_to_after_purge_read_it_is_kept(app, client, database_setting):
    """Purge removes a game only if, in its own transaction, it has still not changed."""
    game_id, key = api_game(client)
    _age(database_setting, game_id, 90)
    cutoff = datetime.now(UTC) - timedelta(days=30)
    with app.app_context():
        assert [g.id for g in reading.unchanged_since(cutoff)] == [game_id]
        assert client.post(f"{API}/games/{game_id}/deals", json=valid_deal(1), headers=bearer(key)).status_code == 201
        with db.transaction():  # what purge runs for the game it read: nothing, as it has changed
            assert db.run("game_delete_unchanged", game_id, cutoff.isoformat(timespec="seconds")) == 0
        assert writing.purge(cutoff) == []
        assert reading.load_game(game_id) is not None
