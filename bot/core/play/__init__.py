"""Playing a game: the per-channel manager (lock, load, apply, commit), the acting flow every front
goes through, the turn panel's offers, seat stamps, undo, table options and AI thinking off the
event loop. May import: engine, bot.core.records, bot.core.wording and bot.core's base and values."""
