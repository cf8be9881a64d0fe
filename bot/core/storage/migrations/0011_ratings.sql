-- 0011: ratings (docs/ratings.md). A finished game's rating change is written in the transaction
-- of the action that finished it (bot/core/storage/ratings.py), so it is never lost or applied
-- twice: `rated_games` has one row per game judged (rated or casual, and why), `rating_changes`
-- one row per entrant and ladder (before/after, for the trend and for audits), and `ratings` the
-- current rating per ladder and player. `python -m bot.ratings recompute` rebuilds all three from
-- the finished games. `seats.replaced_user_id` keeps who held a seat handed to an AI mid-game.

ALTER TABLE seats ADD COLUMN replaced_user_id INTEGER;

CREATE TABLE rated_games (
    game_id  INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    rated    INTEGER NOT NULL,                     -- 1 rated, 0 casual
    reason   TEXT,                                 -- why casual (docs/ratings.md), NULL when rated
    rated_at TEXT NOT NULL
);

CREATE TABLE ratings (
    ladder       TEXT    NOT NULL,                 -- 'all', 'server:<guild>', 'solo-<difficulty>' ...
    player       TEXT    NOT NULL,                 -- 'user:<id>'
    user_id      INTEGER NOT NULL,
    display_name TEXT    NOT NULL,                 -- the name of the player's latest rated game
    mu           DOUBLE PRECISION NOT NULL,
    sigma        DOUBLE PRECISION NOT NULL,
    ordinal      DOUBLE PRECISION NOT NULL,        -- mu - 3 sigma: the ladder's order
    games        INTEGER NOT NULL,
    updated_at   TEXT    NOT NULL,
    PRIMARY KEY (ladder, player)
);
CREATE INDEX ratings_by_order ON ratings (ladder, ordinal);

CREATE TABLE rating_changes (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ladder       TEXT    NOT NULL,
    player       TEXT    NOT NULL,
    seat         INTEGER NOT NULL,
    mu_before    DOUBLE PRECISION NOT NULL,
    sigma_before DOUBLE PRECISION NOT NULL,
    mu_after     DOUBLE PRECISION NOT NULL,
    sigma_after  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, ladder, player)
);
CREATE INDEX rating_changes_by_player ON rating_changes (ladder, player, game_id);
