-- A club night (issue 27): an event of several tables on one rule sheet. The organiser holds
-- its key (a game's edit key, for the whole evening: it grants every right on the event's
-- games). Its plan, roster and partnerships are JSON as scorepad.rules.club_night writes them.
CREATE TABLE event (
    id            TEXT PRIMARY KEY,          -- 128 bits of randomness, url-safe
    organiser_key TEXT NOT NULL,             -- 128 bits of randomness; the organiser's writes need it
    name          TEXT NOT NULL,
    held_on       TEXT NOT NULL,             -- the evening's date, YYYY-MM-DD
    club          TEXT,                      -- the club it belongs to (its season ladder), or NULL
    sheet         TEXT NOT NULL,             -- the frozen sheet, JSON, as a game keeps it
    plan          TEXT NOT NULL,             -- JSON: format, movement, rounds, ranking, bye score, standings
    roster        TEXT NOT NULL,             -- JSON: [{"name", "member"}], in the order they came
    partnerships  TEXT NOT NULL,             -- JSON: [{"players": [a, b]}] (the partners format; else [])
    revision      INTEGER NOT NULL DEFAULT 0,
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL
);
-- Each table of each round: its seats (JSON: [[side's entrants], [side's entrants]]) and its
-- game, an ordinary game in every way. A table the organiser closed as played has closed_at.
CREATE TABLE event_table (
    event_id    TEXT NOT NULL REFERENCES event (id) ON DELETE CASCADE,
    round       INTEGER NOT NULL,
    number      INTEGER NOT NULL,
    game_id     TEXT NOT NULL,
    seats       TEXT NOT NULL,
    closed_at   TEXT,
    PRIMARY KEY (event_id, round, number)
);
-- Who sat each round out: JSON [names].
CREATE TABLE event_round (
    event_id    TEXT NOT NULL REFERENCES event (id) ON DELETE CASCADE,
    number      INTEGER NOT NULL,
    byes        TEXT NOT NULL,
    started_at  TEXT NOT NULL,
    PRIMARY KEY (event_id, number)
);
-- A game belongs to at most one event: it is deleted and purged only with it.
ALTER TABLE game ADD COLUMN event_id TEXT;
CREATE INDEX game_by_event ON game (event_id);
