"""Slash commands and their button partners. Cogs parse and authorise; the manager does the work."""
