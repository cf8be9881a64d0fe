"""The Discord front of the bot: the client, its cogs, views and panels, the command tree.
Thin: parse, check who may act, call the core, present the result."""
