-- A game on an open sheet (game_length "open": a club game played to the clock) is over only
-- once its table ends it: when, as the database keeps times (UTC, to the second), or NULL
-- while it goes on. Every other game ends by its sheet, and keeps NULL here. Ending and
-- reopening are writes with a history entry each ('end', 'reopen'), so the history says who
-- ended it when, and undoing it is one more entry.
ALTER TABLE game ADD COLUMN ended_at TEXT;
