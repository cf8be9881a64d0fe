"""The web board: a front beside the Discord one (docs/web-board.md).

An aiohttp server in the bot's process serves the page (``bot/web/static/``) and a small JSON API
whose every action goes through the same flow as a panel tap (``bot/core/play/flow.py``). Nothing
here imports discord: the bot hands the server its services and a result presenter (which posts the
turn in the game's channel), the offline board (``python -m bot.board``) a presenter that logs.

Modules: :mod:`~bot.web.tokens` (signed links), :mod:`~bot.web.view` (what a seat may see, as JSON),
:mod:`~bot.web.acting` (a request's action through the flow), :mod:`~bot.web.live` (updates pushed
to open pages), :mod:`~bot.web.activity` (the Discord Activity's sign-in), :mod:`~bot.web.server`
(routes, headers, start and stop).
"""
