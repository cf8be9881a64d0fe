-- 0019: the Line Clear side a plan was laid out on ('left', 'right'; NULL elsewhere, and for a
-- plan kept before this migration): changing the plan, on the board or in Discord's Plan form,
-- starts from that side instead of whichever side allows it first (bot/core/play/plan_keeping.py).

ALTER TABLE plans ADD COLUMN side TEXT;
