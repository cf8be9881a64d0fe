"""Benchmarks, the crash soak and the helpers the hardening tests share.

* ``python -m bench`` — latency of one action through the bot, 200 games in one process, memory
  with 1,000 stored games (docs/benchmarks.md).
* ``python -m bench.soak --kills N`` — SIGKILL a simulated bot at random moments and check that no
  acknowledged action is lost (docs/hardening.md); ``bench.crashsim`` is the process it kills.
* Helpers: ``players`` (seeded simulated players), ``tables`` (managers, tables, DB snapshots),
  ``build`` (many stored games fast), ``harnessed`` (the bot inside the offline harness),
  ``discord_driver`` (engine actions through real commands and buttons), ``fuzz`` (hostile values,
  forged ids), ``limits`` (Discord's limits), ``sessions`` (secret watch), ``checks`` (after a crash).
"""
