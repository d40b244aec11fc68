-- A deal being entered (issue 24): each side's part and the ending are saved as they are
-- entered, by whichever phone enters them, and the deal is written (to `deal`, with one
-- history entry) only once every part is in and the whole deal is clean. Until then its
-- parts are kept here, in the database rather than in a server's memory, so a restart loses
-- nothing and two servers behind one proxy serve one table.
CREATE TABLE open_part (
    game_id      TEXT NOT NULL REFERENCES game (id) ON DELETE CASCADE,
    number       INTEGER NOT NULL,          -- the deal's number: the game's next
    part         TEXT NOT NULL,             -- a side's 1-based position ('1' to '8'), or 'ending'
    body         TEXT NOT NULL,             -- the part as canonical JSON (a side object, or the ending)
    phone        TEXT NOT NULL,             -- the label of the phone that entered it ("Dan's phone")
    entered_at   TEXT NOT NULL,             -- when (UTC, to the second)
    version      INTEGER NOT NULL,          -- 1, then 1 more each time the part is changed
    confirmed_by TEXT,                      -- the label of the phone of another side that confirmed it
    confirmed_at TEXT,                      -- when; both NULL until it is confirmed (at this version)
    PRIMARY KEY (game_id, number, part)
);
-- Every save, confirmation or abandonment of a part adds 1 here, not to the revision: phones
-- waiting on the open deal ask for it beside the revision, and the game's pages, cached by
-- revision, and writes based on one (If-Match) are undisturbed.
ALTER TABLE game ADD COLUMN open_counter INTEGER NOT NULL DEFAULT 0;
-- Whether a side's part must be confirmed by a phone of another side ('opponents') before
-- the deal is written, or not ('none').
ALTER TABLE game ADD COLUMN confirm TEXT NOT NULL DEFAULT 'none';
-- Who entered each part of a deal written from an open deal, on its 'record' entry: JSON
-- {part: {"phone": label, "confirmed_by": label or null}}; NULL for a deal sent whole.
ALTER TABLE history ADD COLUMN entered_by TEXT;
