-- 0016: secrets the bot generates once and keeps (the web board's link-signing key when
-- PROJECTL_WEB_SECRET is not set: docs/web-board.md). The first process to start writes it; every
-- later one, and every shard sharing the database, reads the same value.

CREATE TABLE bot_secrets (
    name       TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    created_at TEXT NOT NULL
);
