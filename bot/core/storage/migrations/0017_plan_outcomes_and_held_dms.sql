-- 0017: what a player is still to hear, kept across restarts. Words are JSON that shows them in
-- the reader's language (bot/core/wording/stored.py).
-- `plan_outcomes`: what each seat's last planned turn did (bot/core/play/plan_outcomes.py), for the
-- board page and /projectl-plan show. One row per seat, deleted in the transaction that saves the
-- seat's next plan, or when the player dismisses it on the board; at most MAX_KEPT rows in all,
-- the first kept going first (`kept` counts them).
-- `held_dms`: a one-off DM held to the end of its player's quiet hours or vacation
-- (ReminderScheduler.send_or_hold); the reminder tick deletes its row (the claim) and then sends
-- it, so it goes at most once however many processes tick.

CREATE TABLE plan_outcomes (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,                 -- the planner (shown to them only)
    played       TEXT    NOT NULL,                 -- JSON: the actions played, in the engine's notation
    unplayed     TEXT    NOT NULL,                 -- JSON: the plan's actions left unplayed
    reason       TEXT,                             -- words: why it stopped early (NULL: it did not)
    actions_left INTEGER NOT NULL,                 -- the seat's actions left in the turn it played
    kept         INTEGER NOT NULL,
    kept_at      TEXT    NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX plan_outcomes_by_kept ON plan_outcomes (kept);

CREATE TABLE held_dms (
    hold_key TEXT PRIMARY KEY,                     -- a DM held under the same key replaces it
    user_id  INTEGER NOT NULL,
    game_id  INTEGER REFERENCES games (id) ON DELETE SET NULL,  -- the game it is about, if any
    content  TEXT    NOT NULL,                     -- words
    due_at   TEXT    NOT NULL,
    held_at  TEXT    NOT NULL
);
CREATE INDEX held_dms_by_due ON held_dms (due_at);
