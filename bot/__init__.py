"""Discord front end for the Project L engine.

Layers, thinnest first: ``bot.discord.cogs`` parse slash commands and buttons and check who may do what;
``bot.core.play.manager`` serialises work per channel and owns the game lifecycle; ``bot.core.storage`` is the
only module that speaks SQL. The engine never sees a Discord object. See docs/bot.md.
"""
