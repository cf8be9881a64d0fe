-- 0004: how many hints each seat of a game asked for (/projectl play hint), shown with the
-- final results.

CREATE TABLE hints (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat    INTEGER NOT NULL,
    used    INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);
