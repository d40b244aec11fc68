-- Games that are no more: deleted by their editor, or removed by `flask purge` once they had
-- not changed for RETAIN_DAYS days. Their deals, history and kept answers are deleted with
-- them; only the id is kept, with when and why, so that the game's links say it was deleted
-- rather than that there never was such a game. One short row a game.
CREATE TABLE deleted_game (
    id          TEXT PRIMARY KEY,          -- the game's id
    deleted_at  TEXT NOT NULL,             -- when (UTC, to the second)
    why         TEXT NOT NULL              -- 'editor' (deleted by its editor) or 'retention' (flask purge)
);
