-- 0018: the channel a game's channel belongs to: a thread's parent channel, else the channel itself.
-- Discord deletes a channel's threads with it and sends no thread delete for them, so a deleted
-- channel ends the open games whose parent it is (bot/core/play/gone.py). NULL: opened before
-- this migration, not known yet (looked up when its server next deletes a channel).

ALTER TABLE games ADD COLUMN parent_id INTEGER;
CREATE INDEX games_open_by_parent ON games (parent_id) WHERE status IN ('lobby', 'active');
