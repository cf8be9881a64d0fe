"""Every benchmark of the project, the crash soak and the helpers the hardening tests share.

* ``python -m bench`` — the quick bench (``make bench``): the ``engine`` suite (:mod:`bench.engine`,
  engine and policy speed), ``renders`` (:mod:`bench.renders`, image time and size) and ``bot``
  (:mod:`bench.bot`: one action through the bot, 200 games, memory, panel, images, history, lobby,
  a Strong seat, stored states). ``python -m bench ai`` is the AI bench (:mod:`bench.ai`, the
  strength games of :mod:`bench.strong`; ``make bench-ai``). Every figure reports through
  :mod:`bench.report` against the budgets of :mod:`bench.budgets`; :mod:`bench.docs` writes them
  into docs/benchmarks.md.
* ``python -m bench scale`` — SQLite against PostgreSQL with 1 and 2 processes (docs/deploy.md).
* ``python -m bench.soak --kills N`` — SIGKILL a simulated bot at random moments and check that no
  acknowledged action is lost (docs/hardening.md); ``bench.crashsim`` is the process it kills.
* Helpers: ``players`` (seeded simulated players), ``tables`` (managers, tables, DB snapshots),
  ``build`` (many stored games fast), ``harnessed`` (the bot inside the offline harness),
  ``discord_driver`` (engine actions through real commands and buttons), ``fuzz`` (hostile values,
  forged ids), ``limits`` (Discord's limits), ``sessions`` (secret watch), ``checks`` (after a crash).

The engine and the renderer never import this package: it measures them from outside.
"""
