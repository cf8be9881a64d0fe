"""Finished games and what is kept of them: the action log as pages, replays, the animated
recap's content, results per seat, summaries, ratings and their ladder pages. Pure functions over
stored rows. May import: engine, bot.core.wording and bot.core's base and values."""
