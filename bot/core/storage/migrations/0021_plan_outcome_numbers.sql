-- 0021: `plan_outcomes.kept` numbered by the database (bot/core/storage/plans.py): a sequence on
-- PostgreSQL (BIGSERIAL), AUTOINCREMENT on SQLite, instead of MAX(kept) + 1 read in the keeping
-- transaction — two transactions open at once on PostgreSQL read the same MAX and shared a number,
-- so "the first kept goes first" could drop a later one with it. A seat's outcome kept again takes
-- a new number (its row is replaced). The rows kept so far are numbered again in their order.

CREATE TABLE plan_outcomes_numbered (
    kept         INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    played       TEXT    NOT NULL,
    unplayed     TEXT    NOT NULL,
    reason       TEXT,
    actions_left INTEGER NOT NULL,
    kept_at      TEXT    NOT NULL,
    UNIQUE (game_id, seat)
);

INSERT INTO plan_outcomes_numbered (game_id, seat, user_id, played, unplayed, reason, actions_left, kept_at)
    SELECT game_id, seat, user_id, played, unplayed, reason, actions_left, kept_at
    FROM plan_outcomes ORDER BY kept;

DROP TABLE plan_outcomes;
ALTER TABLE plan_outcomes_numbered RENAME TO plan_outcomes;
