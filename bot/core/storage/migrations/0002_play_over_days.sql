-- 0002: playing over days — reminder preferences, per-turn reminder rows, turn clocks and votes,
-- and the record of undone actions. Times are ISO-8601 UTC text from the bot's Clock.

-- Reminder preferences: one set per player, shared by all their games.
ALTER TABLE players ADD COLUMN reminders_enabled INTEGER NOT NULL DEFAULT 1;
ALTER TABLE players ADD COLUMN reminder_interval_minutes INTEGER NOT NULL DEFAULT 720;
ALTER TABLE players ADD COLUMN quiet_start TEXT;          -- 'HH:MM' local, NULL = no quiet hours
ALTER TABLE players ADD COLUMN quiet_end TEXT;            -- 'HH:MM' local (may be before start: wraps)
ALTER TABLE players ADD COLUMN timezone TEXT NOT NULL DEFAULT 'UTC';   -- IANA zone name
ALTER TABLE players ADD COLUMN vacation_until TEXT;       -- 'YYYY-MM-DD' the day they are back
ALTER TABLE players ADD COLUMN dms_closed INTEGER NOT NULL DEFAULT 0;  -- Discord answered 403

-- One row per human turn (a seat having the move in a given turn number and phase). It drives the
-- reminder scheduler and the turn clock, and is what makes "one reminder per turn" hold across
-- restarts: the row is claimed (due_at moved on, sent_count bumped) in the database before the
-- DM is sent.
CREATE TABLE turns (
    game_id          INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    turn             INTEGER NOT NULL,            -- engine GameState.turn
    phase            TEXT    NOT NULL,            -- 'play' or 'finishing'
    seat             INTEGER NOT NULL,
    user_id          INTEGER NOT NULL,
    channel_id       INTEGER NOT NULL,
    started_at       TEXT    NOT NULL,
    deadline_at      TEXT,                        -- turn clock: started_at + the table's limit
    due_at           TEXT,                        -- next reminder; NULL = none planned
    sent_count       INTEGER NOT NULL DEFAULT 0,  -- reminders claimed (sent, or lost in a crash)
    last_sent_at     TEXT,
    last_acted_at    TEXT,                        -- the player's latest action in this turn
    channel_fallback INTEGER NOT NULL DEFAULT 0,  -- a channel mention replaced a DM this turn
    timed_out_at     TEXT,                        -- the turn clock ran out and it was announced
    closed_at        TEXT,                        -- the turn is over: nothing more to send
    PRIMARY KEY (game_id, turn, phase, seat)
);
CREATE INDEX turns_open ON turns (game_id) WHERE closed_at IS NULL;

-- Table options added after 0001 (kept out of games.options so older code reads games unchanged).
CREATE TABLE table_options (
    game_id          INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    turn_limit_hours INTEGER                      -- NULL = no turn clock
);

-- Votes on an absent player's turn: one per voter per turn, the latest choice counts.
CREATE TABLE votes (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    turn       INTEGER NOT NULL,
    phase      TEXT    NOT NULL,
    seat       INTEGER NOT NULL,                  -- the seat whose turn is being voted on
    voter_id   INTEGER NOT NULL,
    choice     TEXT    NOT NULL CHECK (choice IN ('skip', 'remove')),
    created_at TEXT    NOT NULL,
    PRIMARY KEY (game_id, turn, phase, seat, voter_id)
);

-- Undo: the taken-back action row moves here in the same transaction that restores the state, so
-- `actions` stays exactly the replayable log (replay(new_game(options, seed), actions) == state)
-- and nothing a player did is forgotten.
CREATE TABLE undone_actions (
    game_id        INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    undo_revision  INTEGER NOT NULL,              -- games.revision after the undo
    seq            INTEGER NOT NULL,              -- the seq the action had (the next action reuses it)
    seat           INTEGER NOT NULL,
    user_id        INTEGER,
    action         TEXT    NOT NULL,
    revision       INTEGER NOT NULL,
    created_at     TEXT    NOT NULL,
    undone_at      TEXT    NOT NULL,
    undone_by      INTEGER NOT NULL,
    PRIMARY KEY (game_id, undo_revision)
);
