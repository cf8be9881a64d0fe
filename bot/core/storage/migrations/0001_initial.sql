-- 0001: games, seats, the append-only action log, players and their preferences.
-- Times are ISO-8601 UTC text from the bot's Clock. JSON columns are TEXT.

CREATE TABLE games (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id         INTEGER,
    channel_id       INTEGER NOT NULL,
    status           TEXT    NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
    host_id          INTEGER NOT NULL,
    variant          TEXT    NOT NULL CHECK (variant IN ('base', 'solo')),
    max_players      INTEGER NOT NULL,
    options          TEXT    NOT NULL,            -- engine Options as JSON
    seed             INTEGER NOT NULL,            -- new_game(options, seed) is the initial state
    state            TEXT,                        -- GameState.dumps(); NULL while in the lobby
    state_schema     INTEGER,                     -- engine SCHEMA_VERSION of `state`
    revision         INTEGER NOT NULL DEFAULT 0,  -- bumped by every committed change
    lobby_message_id INTEGER,
    table_message_id INTEGER,                     -- latest table image posted in the channel
    created_at       TEXT    NOT NULL,
    updated_at       TEXT    NOT NULL,
    ended_at         TEXT
);

-- One open (lobby or active) game per channel, enforced by the database itself.
CREATE UNIQUE INDEX games_one_open_per_channel ON games (channel_id)
    WHERE status IN ('lobby', 'active');
CREATE INDEX games_by_status ON games (status);

CREATE TABLE seats (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL,                -- 0-based engine seat
    user_id      INTEGER,                         -- NULL for a policy (AI) seat
    display_name TEXT    NOT NULL,
    policy       TEXT,                            -- policy name for AI seats, else NULL
    joined_at    TEXT    NOT NULL,
    PRIMARY KEY (game_id, seat),
    CHECK ((user_id IS NULL) <> (policy IS NULL))
);
CREATE UNIQUE INDEX seats_one_per_user ON seats (game_id, user_id) WHERE user_id IS NOT NULL;
CREATE INDEX seats_by_user ON seats (user_id);

-- Append-only: one row per applied action, in order. replay(new_game(options, seed), log)
-- must give games.state.
CREATE TABLE actions (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,                  -- 1, 2, 3 ... per game
    seat       INTEGER NOT NULL,                  -- the seat whose turn it was
    user_id    INTEGER,                           -- who asked (NULL: AI seat or the bot itself)
    action     TEXT    NOT NULL,                  -- engine text notation, e.g. 'take white 3'
    revision   INTEGER NOT NULL,                  -- games.revision after this action
    created_at TEXT    NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE players (
    user_id      INTEGER PRIMARY KEY,
    display_name TEXT    NOT NULL,
    mention_on_turn INTEGER NOT NULL DEFAULT 1,  -- ping them in the channel when their turn starts
    created_at   TEXT    NOT NULL,
    updated_at   TEXT    NOT NULL
);
