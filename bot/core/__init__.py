"""The Discord-free core of the bot: the game manager, table options, storage, reminders
and turn-clock policy, wording, the render pool. Nothing here imports discord."""
