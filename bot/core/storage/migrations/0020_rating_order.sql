-- 0020: the order games were judged in for ratings, as committed (bot/core/storage/ratings.py):
-- `seq` is taken inside the transaction that rates the game, after it has locked its players (on
-- PostgreSQL a sequence, BIGSERIAL; SQLite has one writer), so of two games sharing a player the
-- one committed first has the smaller number — `games.ended_at` is stamped before the commit and
-- can say otherwise. A recompute rates the games in this order. Games judged before this migration
-- are numbered in the order they ended (ended_at, then id), the order recompute used until now.

CREATE TABLE rating_order (
    seq     INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER NOT NULL UNIQUE REFERENCES games (id) ON DELETE CASCADE
);

INSERT INTO rating_order (game_id)
    SELECT r.game_id FROM rated_games r JOIN games g ON g.id = r.game_id ORDER BY g.ended_at, g.id;
