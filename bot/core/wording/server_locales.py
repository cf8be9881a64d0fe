"""The language each server's admins chose for the bot's public posts (``/projectl-server``).

Read from storage once when the bot starts and kept in memory, so a public post never costs a
query: :func:`bot.core.wording.locales.public_locale` looks a server up here first. Every change goes through
:meth:`ServerLocales.choose`, which writes storage before the cache. A server is served by one
bot process (one shard owns a guild), so the cache of the process that changes it is the one
that must see the change.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from bot.core.storage import Storage


class ServerLocales(Mapping[int, str]):
    """Chosen locale codes by guild id; a server that follows its own preferred locale is absent."""

    def __init__(self, storage: Storage) -> None:
        self._storage = storage
        self._chosen: dict[int, str] = {}

    async def load(self) -> None:
        """Read every server's choice (at startup)."""
        self._chosen = await self._storage.server_locales()

    async def choose(self, guild_id: int, locale: str | None, *, by_user_id: int) -> None:
        """Public posts in ``guild_id`` in ``locale`` from now on; None follows the server's own
        preferred locale again."""
        await self._storage.set_server_locale(guild_id, locale, by_user_id)
        if locale is None:
            self._chosen.pop(guild_id, None)
        else:
            self._chosen[guild_id] = locale

    def __getitem__(self, guild_id: int) -> str:
        return self._chosen[guild_id]

    def __iter__(self) -> Iterator[int]:
        return iter(self._chosen)

    def __len__(self) -> int:
        return len(self._chosen)
