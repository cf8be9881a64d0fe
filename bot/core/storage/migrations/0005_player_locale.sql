-- 0005: each player's Discord language (the locale of their latest table command: opening a
-- table, joining one, /projectl settings), so DMs sent later by the reminder loop — reminders,
-- the turn clock, votes — are written in it. NULL: not known yet, DMs are in English.

ALTER TABLE players ADD COLUMN locale TEXT;
