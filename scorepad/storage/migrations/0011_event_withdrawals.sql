-- Entrants of a club night who left the evening (a player gone home, a partnership that
-- stopped): JSON [names], in the order they left. The movement seats them no more; they keep
-- their place in the standings with what they played, and may come back (rejoin).
ALTER TABLE event ADD COLUMN withdrawn TEXT NOT NULL DEFAULT '[]';
