"""The render pipeline: board images drawn by :mod:`renders` in worker processes (or a thread),
states sent to the workers once, and the memory and garbage collection of a long-running
process. May import: engine, renders, bot.core.wording and bot.core's base and values."""
