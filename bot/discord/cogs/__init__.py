"""Slash commands and their button partners. Cogs parse and authorise; the manager does the work.

One module per area (``table``, ``play``, ``info``, ``records``, ``absence``, ``settings``,
``advice``, ``server``); :mod:`.group` combines the ``/projectl`` mixins into one cog and
:mod:`.days_setup` plugs in playing over days. This package imports nothing itself, so a module
below the cogs (the views, the turn posts) can use :mod:`.common` without loading every cog.
"""
