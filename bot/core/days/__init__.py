"""Play over days: when reminders are due, turn clocks and votes on absent players, the table's
pace. May import: engine, bot.core.play, bot.core.records, bot.core.wording and bot.core's base
and values."""
