-- 0009: a Master draft is keyed by what it relies on, not by the game's revision alone. While
-- two turns run at once (Line Clear's marker holders) the other holder's commits move the revision
-- on but leave this seat's turn, puzzles, pieces and rows as they were: the draft stays playable.
-- `stamp` is the seat's stamp when the draft was built (bot/core/play/seat_view.py: the revision on a
-- single-turn table, a digest of the seat's own view while turns run at once); a draft is read
-- only at that stamp. A commit now deletes only the acting seat's drafts (the game's end, an undo
-- and a seat handed to an AI still delete all of them). Drafts stored before keep their revision
-- as their stamp, which is what a single-turn table's stamp is.

ALTER TABLE master_drafts ADD COLUMN stamp TEXT NOT NULL DEFAULT '';
UPDATE master_drafts SET stamp = CAST(revision AS TEXT);
