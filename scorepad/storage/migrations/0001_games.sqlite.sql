-- Games, their recorded deals, and the history of every change.
CREATE TABLE game (
    id          TEXT PRIMARY KEY,          -- 128 bits of randomness, url-safe
    edit_key    TEXT NOT NULL,             -- 128 bits of randomness; writes need it
    name        TEXT NOT NULL,
    sheet       TEXT NOT NULL,             -- the frozen sheet, JSON (preset + changes)
    sides       TEXT NOT NULL,             -- JSON: [{"name": ..., "players": [...]}]
    revision    INTEGER NOT NULL DEFAULT 0,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);

CREATE TABLE deal (
    game_id     TEXT NOT NULL REFERENCES game (id) ON DELETE CASCADE,
    number      INTEGER NOT NULL,
    body        TEXT NOT NULL,             -- the canonical deal JSON, without the sheet
    as_played   TEXT,                      -- the reason, when saved despite violations
    PRIMARY KEY (game_id, number)
);

CREATE TABLE history (
    id          INTEGER PRIMARY KEY,
    game_id     TEXT NOT NULL REFERENCES game (id) ON DELETE CASCADE,
    deal_number INTEGER,                   -- NULL for an amendment of the sheet
    action      TEXT NOT NULL,             -- record, edit, delete, amend
    at          TEXT NOT NULL,
    before      TEXT,                      -- JSON, NULL on record
    after       TEXT,                      -- JSON, NULL on delete
    old_totals  TEXT,                      -- JSON {side: total} for the deal, or NULL
    new_totals  TEXT,
    reason      TEXT
);

CREATE INDEX history_by_game ON history (game_id, deal_number, id);
CREATE INDEX game_by_update ON game (updated_at);
