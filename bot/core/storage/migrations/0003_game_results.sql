-- 0003: one row per seat of every finished game, written in the same transaction as the action
-- that finished it, so /projectl stats aggregates rows instead of parsing every game's state.
-- Games finished before this migration get their rows the first time stats are asked for in
-- their server (bot/storage/stats.py).

CREATE TABLE game_results (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL,
    guild_id     INTEGER,                         -- copied from games, for the per-server query
    user_id      INTEGER,                         -- NULL for a policy (AI) seat
    display_name TEXT    NOT NULL,                -- the seat's name when the game ended
    score        INTEGER,                         -- final total; NULL when the player left
    won          INTEGER NOT NULL,                -- 1 for each winner (never for a player who left)
    left_game    INTEGER NOT NULL,                -- 1 when the player was removed or left
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_results_by_guild ON game_results (guild_id, user_id);
