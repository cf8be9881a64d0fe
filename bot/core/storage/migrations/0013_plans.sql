-- 0013: plan-ahead turns (bot/core/play/plans.py, docs/play-over-days.md). One plan per seat per
-- game, laid out while it is not that seat's turn and played when it starts. `played` counts the
-- steps committed so far: it moves in the transaction of each planned action's commit, so a
-- crash or a second process never plays a step twice or skips one. `turn` is the engine's turn
-- number the plan started playing in (NULL until then): a plan never reaches into another turn.
-- `actions.planned` marks the log rows a plan played.

CREATE TABLE plans (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    steps      TEXT    NOT NULL,                  -- JSON: [{"action": notation, "card": id or null}]
    played     INTEGER NOT NULL DEFAULT 0,
    turn       INTEGER,
    created_at TEXT    NOT NULL,
    PRIMARY KEY (game_id, seat)
);

ALTER TABLE actions ADD COLUMN planned INTEGER NOT NULL DEFAULT 0;
