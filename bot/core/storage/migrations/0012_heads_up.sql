-- 0012: a player's `heads_up` setting (/projectl settings heads_up:): a DM when the player before
-- them starts their turn ("you're next"), within their quiet hours and vacation. 0: off (opt-in).

ALTER TABLE players ADD COLUMN heads_up INTEGER NOT NULL DEFAULT 0;
