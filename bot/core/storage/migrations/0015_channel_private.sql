-- 0015: whether a game's channel was private when the game opened (a private thread, or a channel
-- @everyone cannot see): such a game is read only by its players and from inside its channel
-- (docs/replays.md, bot/core/records/access.py). NULL: opened before this migration, not known.

ALTER TABLE games ADD COLUMN channel_private INTEGER;
