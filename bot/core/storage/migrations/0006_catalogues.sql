-- 0006: the card catalogue stored once, not inside every stored state. A game's state names its
-- catalogue by content key (engine GameState.dumps(cards=False)); the cards are kept here once
-- per distinct catalogue and shared by every game dealt from it. Rows are never changed or
-- removed (the key is a hash of the cards, so a key always means the same cards). Games stored
-- before this migration keep their cards inside their state (catalogue_key NULL) until their next
-- committed action rewrites it.

CREATE TABLE catalogues (
    catalogue_key TEXT PRIMARY KEY,                -- engine catalogue_key(): a hash of `cards`
    cards         TEXT NOT NULL,                   -- engine catalogue_text(): the cards as JSON
    created_at    TEXT NOT NULL
);

ALTER TABLE games ADD COLUMN catalogue_key TEXT REFERENCES catalogues (catalogue_key);
