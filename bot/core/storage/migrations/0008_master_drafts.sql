-- 0008: each player's Master action while they build it with /projectl play master-add (a draft),
-- so /projectl play master-confirm still plays it after the bot restarts. A draft belongs to the
-- game revision it was built on: it is read only while the game is still at that revision (a
-- draft never plays on a newer position), and every committed action and the game's end delete
-- the game's drafts. One draft per seat.

CREATE TABLE master_drafts (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,                   -- the player who built it (a Discord user id)
    revision   INTEGER NOT NULL,                   -- the game's revision it was built on
    placements TEXT NOT NULL,                      -- in the order added: 'L3 on W07 at A1 A2 B2; …'
    updated_at TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
