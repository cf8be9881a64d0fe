"""Discord front end for the Project L engine.

Layers, thinnest first: ``bot.cogs`` parse slash commands and buttons and check who may do what;
``bot.manager`` serialises work per channel and owns the game lifecycle; ``bot.storage`` is the
only module that speaks SQL. The engine never sees a Discord object. See docs/bot.md.
"""
