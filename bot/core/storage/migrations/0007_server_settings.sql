-- 0007: settings a server's admins choose for the whole server (/projectl-server). `locale` is
-- the language of the bot's public posts there (turn posts, lobby, votes, results, the words in
-- the table image): a Discord locale code the bot has a catalogue for, or English; NULL follows
-- the server's own preferred locale, as before this migration. No row: every setting at its
-- default.

CREATE TABLE server_settings (
    guild_id   INTEGER PRIMARY KEY,
    locale     TEXT,
    set_by     INTEGER NOT NULL,                   -- who changed a setting last (a Discord user id)
    updated_at TEXT NOT NULL
);
