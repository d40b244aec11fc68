-- Each history entry records the game revision its change produced, so a write refused as
-- stale (a Conflict) can say what happened since the revision it was based on.
ALTER TABLE history ADD COLUMN revision INTEGER;

-- Entries written before this migration: every write added exactly one entry and 1 to the
-- revision, so a game's n-th entry produced revision n.
UPDATE history SET revision = (SELECT COUNT(*) FROM history AS earlier
                               WHERE earlier.game_id = history.game_id AND earlier.id <= history.id);

CREATE INDEX history_by_revision ON history (game_id, revision);
