-- 0010: a player's `text_only` setting (/projectl settings text_only:): their private boards — the
-- table of /projectl status, a mat, the turn DM's mat — arrive as text first (one line per item,
-- for a screen reader), the image second. 0: images as usual.

ALTER TABLE players ADD COLUMN text_only INTEGER NOT NULL DEFAULT 0;

-- and when the player set their vacation (`vacation_until`), so a turn's time spent on vacation can
-- be taken out of their pace (bot/core/days/pace.py). NULL: no vacation, or set before this migration.
ALTER TABLE players ADD COLUMN vacation_from TEXT;
