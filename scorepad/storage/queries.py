"""Every statement the app runs, by name (:data:`QUERIES`), with ``?`` parameters (``?2``
names the second again), in SQL both backends read; :data:`POSTGRESQL` holds the few written
otherwise there. :mod:`.db` runs them (``db.query("game_get", game_id)``) on either backend.
"""

from __future__ import annotations

QUERIES: dict[str, str] = {
    # Club nights (storage/club_nights.py): the event, its rounds, each round's tables and their games.
    "event_insert": "INSERT INTO event (id, organiser_key, name, held_on, club, sheet, plan, roster, partnerships, "
                    "revision, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)",
    "event_get": "SELECT * FROM event WHERE id = ?",
    "event_rounds": "SELECT * FROM event_round WHERE event_id = ? ORDER BY number",
    "event_tables": "SELECT * FROM event_table WHERE event_id = ? ORDER BY round, number",
    "event_touch_at": "UPDATE event SET revision = revision + 1, updated_at = ? WHERE id = ? AND revision = ?",
    "event_set_roster": "UPDATE event SET roster = ?, partnerships = ? WHERE id = ?",
    "event_set_withdrawn": "UPDATE event SET withdrawn = ? WHERE id = ?",
    "event_round_insert": "INSERT INTO event_round (event_id, number, byes, started_at) VALUES (?, ?, ?, ?)",
    "event_table_insert": "INSERT INTO event_table (event_id, round, number, game_id, seats) VALUES (?, ?, ?, ?, ?)",
    "event_table_close": "UPDATE event_table SET closed_at = ? WHERE event_id = ? AND round = ? AND number = ? "
                         "AND closed_at IS NULL",
    "event_delete": "DELETE FROM event WHERE id = ?",
    "event_key_of_game": "SELECT event.organiser_key FROM game JOIN event ON event.id = game.event_id "
                         "WHERE game.id = ?",
    "events_of_club": "SELECT id FROM event WHERE club = ? ORDER BY held_on, created_at",
    "game_set_event": "UPDATE game SET event_id = ? WHERE id = ?",
    "game_delete_of_event": "DELETE FROM game WHERE id = ? AND event_id = ?",
    # Events purged as one unit: neither the event nor any game of it changed since ?1.
    "events_unchanged_since": "SELECT id FROM event WHERE updated_at < ?1 AND NOT EXISTS (SELECT 1 FROM game "
                              "WHERE game.event_id = event.id AND game.updated_at >= ?1) ORDER BY updated_at, id",
    "event_games_changed_since": "SELECT COUNT(*) FROM game WHERE event_id = ? AND updated_at >= ?",
    "game_insert": "INSERT INTO game (id, edit_key, name, sheet, sides, revision, created_at, updated_at, confirm) "
                   "VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?)",
    "game_get": "SELECT * FROM game WHERE id = ?",
    "game_all_recent": "SELECT * FROM game ORDER BY updated_at DESC LIMIT ?",
    "game_touch": "UPDATE game SET revision = revision + 1, updated_at = ? WHERE id = ?",
    "game_set_sheet": "UPDATE game SET sheet = ? WHERE id = ?",
    # The table ended the game (a time, writing.end_game), or reopened it (NULL, writing.reopen_game).
    "game_set_ended": "UPDATE game SET ended_at = ? WHERE id = ?",
    "deals_of_game": "SELECT * FROM deal WHERE game_id = ? ORDER BY number",
    # A deal is inserted only while no part of it is open (open_deals): a whole deal sent for
    # a number being entered part by part inserts nothing (writing.record_deal: DealOpen).
    "deal_insert": "INSERT INTO deal (game_id, number, body, as_played) SELECT ?, ?, ?, ? WHERE NOT EXISTS "
                   "(SELECT 1 FROM open_part WHERE game_id = ?1 AND number = ?2)",
    "deal_update": "UPDATE deal SET body = ?, as_played = ? WHERE game_id = ? AND number = ?",
    "deal_delete": "DELETE FROM deal WHERE game_id = ? AND number = ?",
    # The entry's revision is the one its write produces: run it before "game_touch".
    "history_insert": "INSERT INTO history (game_id, deal_number, action, at, before, after, old_totals, "
                      "new_totals, reason, entered_by, revision) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                      "(SELECT revision + 1 FROM game WHERE id = ?1))",
    "history_since": "SELECT id, deal_number, action, at, old_totals, new_totals, reason, revision FROM history "
                     "WHERE game_id = ? AND revision > ? ORDER BY revision, id",
    "game_revision": "SELECT revision, updated_at FROM game WHERE id = ?",
    # What a watching phone polls (reading.moved): one statement, so one moment without a transaction.
    "game_moved": "SELECT revision, open_counter, updated_at FROM game WHERE id = ?",
    # The revisions of the games a server's event streams follow (reading.revisions), in one
    # read: ?1 is a JSON list of their ids.
    "games_revisions": "SELECT id, revision, open_counter, updated_at FROM game "
                       "WHERE id IN (SELECT value FROM json_each(?))",
    # A write moves the revision on only from the revision it was prepared against.
    "game_touch_at": "UPDATE game SET revision = revision + 1, updated_at = ? WHERE id = ? AND revision = ?",
    "history_add": "INSERT INTO history (game_id, deal_number, action, at, before, after, old_totals, new_totals, "
                   "reason, revision) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    # A deal written from an open deal: its entry names the phones that entered its parts.
    "history_add_entered": "INSERT INTO history (game_id, deal_number, action, at, before, after, old_totals, "
                           "new_totals, reason, revision, entered_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    # Who entered each part of the deals written from open deals: every deal's entries that write
    # or delete it, oldest first (entered_by NULL for a deal sent whole), so the latest decides.
    "entered_by_of_game": "SELECT deal_number, entered_by FROM history WHERE game_id = ? "
                          "AND action IN ('record', 'edit', 'delete') ORDER BY id",
    "history_of_game": "SELECT * FROM history WHERE game_id = ? ORDER BY id",
    # The history as the pages list it: the deals before and after only of a correction, and the sheets of an amendment.
    "history_shown_of_game": "SELECT id, deal_number, action, at, CASE WHEN action IN ('edit', 'amend') THEN before "
                             "END AS before, CASE WHEN action IN ('edit', 'amend') THEN after END AS after, "
                             "old_totals, new_totals, reason, entered_by, revision FROM history WHERE game_id = ? "
                             "ORDER BY id",
    "history_of_deal": "SELECT * FROM history WHERE game_id = ? AND deal_number = ? ORDER BY id",
    "amendments_of_game": "SELECT * FROM history WHERE game_id = ? AND action = 'amend' ORDER BY id",
    # What the results print of the deals corrected or deleted: never the deals before and after.
    "corrections_of_game": "SELECT id, deal_number, action, at, old_totals, new_totals, reason FROM history "
                           "WHERE game_id = ? AND action IN ('edit', 'delete') ORDER BY id",
    "history_count_of_deal": "SELECT COUNT(*) FROM history WHERE game_id = ? AND deal_number = ?",
    "history_counts": "SELECT deal_number, COUNT(*) AS n FROM history "
                      "WHERE game_id = ? AND deal_number IS NOT NULL GROUP BY deal_number",
    # What a game holds, in bytes: its deals' and history's JSON and reasons, and ?2 for each
    # row besides (see MAX_GAME_BYTES).
    "game_stored_bytes": "SELECT (SELECT COALESCE(SUM(length(CAST(body AS BLOB)) + COALESCE(length(CAST(as_played "
                         "AS BLOB)), 0) + ?2), 0) FROM deal WHERE game_id = ?1) + (SELECT COALESCE(SUM("
                         "COALESCE(length(CAST(before AS BLOB)), 0) + COALESCE(length(CAST(after AS BLOB)), 0) "
                         "+ COALESCE(length(CAST(old_totals AS BLOB)), 0) "
                         "+ COALESCE(length(CAST(new_totals AS BLOB)), 0) "
                         "+ COALESCE(length(CAST(reason AS BLOB)), 0) + ?2), 0) FROM history WHERE game_id = ?1)",
    # A write made once per idempotency key (idempotency.once): what the write kept for the key
    # made, when written at or after ?5; keys written before a time are forgotten (by the index on at).
    "idempotency_get": "SELECT digest, kind, made_game, deal, revision FROM idempotency_key "
                       "WHERE route = ? AND game_id = ? AND client = ? AND key = ? AND at >= ?",
    # A key kept meanwhile by another process's write (PostgreSQL writes to two games at once)
    # inserts nothing: the write then rolls back and answers what that one made. A key kept
    # before ?11 has expired, not yet forgotten (idempotency._time_to_forget): it is written over.
    "idempotency_insert": "INSERT INTO idempotency_key (route, game_id, client, key, digest, kind, made_game, deal, "
                          "revision, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (route, game_id, client, "
                          "key) DO UPDATE SET digest = excluded.digest, kind = excluded.kind, made_game = "
                          "excluded.made_game, deal = excluded.deal, revision = excluded.revision, at = excluded.at "
                          "WHERE idempotency_key.at < ?",
    # A deal as a write made once left it (idempotency.deal_made): its history entry at that
    # revision, and how many entries the deal had by then.
    "history_made": "SELECT after, reason, (SELECT COUNT(*) FROM history WHERE game_id = ?1 AND deal_number = ?2 "
                    "AND revision <= ?3) AS size FROM history WHERE game_id = ?1 AND deal_number = ?2 "
                    "AND revision = ?3",
    "idempotency_forget": "DELETE FROM idempotency_key WHERE at < ?",
    # A game's edit key replaced (writing.replace_edit_key): the old key's digest is kept, so
    # whoever still holds it is told that it was replaced, and when.
    "game_set_edit_key": "UPDATE game SET edit_key = ? WHERE id = ?",
    "edit_key_replaced": "INSERT INTO replaced_edit_key (game_id, digest, at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
    "edit_key_replaced_at": "SELECT at FROM replaced_edit_key WHERE game_id = ? AND digest = ?",
    # Deleting a game (writing.delete_game): the game's row, only at the revision the deletion
    # was based on (or, for flask purge, only if it has still not changed since ?2), its
    # deals, history and replaced keys with it (ON DELETE CASCADE); its id is kept as
    # deleted. The keys kept about it are those of its writes and those that made it (a
    # create's or an import's).
    "game_delete_at": "DELETE FROM game WHERE id = ? AND revision = ? AND event_id IS NULL",
    # A game of an event goes only with its event (storage/club_nights.py): never purged alone.
    "game_delete_unchanged": "DELETE FROM game WHERE id = ? AND updated_at < ? AND event_id IS NULL",
    "idempotency_forget_game": "DELETE FROM idempotency_key WHERE game_id = ?1 OR made_game = ?1",
    # Open deals (open_deals): a part of the game's deal being entered, by part; every save,
    # confirmation or abandonment adds 1 to the game's open_counter (and so takes the game's
    # row lock first, on PostgreSQL: two parts completing a deal at once are saved one by one).
    "game_open_touch": "UPDATE game SET open_counter = open_counter + 1 WHERE id = ? AND revision = ?",
    "game_open_counter": "SELECT open_counter FROM game WHERE id = ?",
    "open_parts": "SELECT * FROM open_part WHERE game_id = ? AND number = ? ORDER BY part",
    "open_parts_any": "SELECT number, COUNT(*) AS n FROM open_part WHERE game_id = ? GROUP BY number",
    "open_part_insert": "INSERT INTO open_part (game_id, number, part, body, phone, entered_at, version) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?)",
    "open_part_update": "UPDATE open_part SET body = ?, phone = ?, entered_at = ?, version = version + 1, "
                        "confirmed_by = NULL, confirmed_at = NULL WHERE game_id = ? AND number = ? AND part = ?",
    "open_part_confirm": "UPDATE open_part SET confirmed_by = ?, confirmed_at = ? WHERE game_id = ? AND number = ? "
                         "AND part = ? AND version = ?",
    "open_parts_delete": "DELETE FROM open_part WHERE game_id = ? AND number = ?",
    "open_parts_delete_all": "DELETE FROM open_part WHERE game_id = ?",
    "deleted_insert": "INSERT INTO deleted_game (id, deleted_at, why) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
    "deleted_get": "SELECT deleted_at, why FROM deleted_game WHERE id = ?",
    # Games not changed since ?1, oldest first, after (?2, ?3) in that order (flask purge, by
    # the index on updated_at).
    "games_unchanged_since": "SELECT id, name, updated_at, (SELECT COUNT(*) FROM deal WHERE game_id = game.id) "
                             "AS deals FROM game WHERE event_id IS NULL AND updated_at < ?1 AND (updated_at > ?2 "
                             "OR (updated_at = ?2 AND id > ?3)) ORDER BY updated_at, id LIMIT ?4",
}

# The queries PostgreSQL reads otherwise: SQLite (3.40) has no octet_length() and PostgreSQL no
# json_each(); and on
# PostgreSQL two servers' keyed writes (to any games) may forget the same expired keys at
# once: each skips the rows the other is deleting rather than waiting for it (SQLite's one
# writer at a time never meets another).
POSTGRESQL: dict[str, str] = {
    "games_revisions": "SELECT id, revision, open_counter, updated_at FROM game "
                       "WHERE id IN (SELECT json_array_elements_text(CAST(? AS json)))",
    "idempotency_forget": "DELETE FROM idempotency_key WHERE (route, game_id, client, key) IN (SELECT route, "
                          "game_id, client, key FROM idempotency_key WHERE at < ? FOR UPDATE SKIP LOCKED)",
    "game_stored_bytes": "SELECT (SELECT COALESCE(SUM(octet_length(body) + COALESCE(octet_length(as_played), 0) "
                         "+ ?2), 0) FROM deal WHERE game_id = ?1) + (SELECT COALESCE(SUM("
                         "COALESCE(octet_length(before), 0) + COALESCE(octet_length(after), 0) "
                         "+ COALESCE(octet_length(old_totals), 0) + COALESCE(octet_length(new_totals), 0) "
                         "+ COALESCE(octet_length(reason), 0) + ?2), 0) FROM history WHERE game_id = ?1)",
}
