"""The Discord-free core of the bot. Nothing here imports discord.

Its layers, lowest first; each may import those before it (and ``engine``, ``renders``), never one
after it:

* base: :mod:`~bot.core.config` (settings), :mod:`~bot.core.clock` ("now"),
  :mod:`~bot.core.shards` and :mod:`~bot.core.storage` (the only SQL);
* :mod:`bot.core.wording`: every sentence and its translations, alt text, what changed since a post;
* values: :mod:`~bot.core.errors` (refusals a player reads) and :mod:`~bot.core.games` (the games,
  seats and results the manager hands out);
* :mod:`bot.core.rendering`: images drawn in worker processes, off the event loop;
* :mod:`bot.core.records`: finished games: history, replays, recaps, results, ratings;
* :mod:`bot.core.play`: the manager, the acting flow, panels, undo, AI thinking;
* :mod:`bot.core.days`: play over days: turn clocks, reminders, pace;
* :mod:`~bot.core.services`: the protocol the fronts (Discord, the web board) receive.

``tests/test_import_layering.py`` holds the core to this order.
"""
