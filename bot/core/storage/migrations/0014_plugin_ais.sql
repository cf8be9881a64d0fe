-- 0014: /projectl-server plugin_ais: — whether a server's lobbies offer the plug-in AIs installed
-- beside the bot (entry points of `projectl.policies`, docs/plugins.md). Off (0) unless
-- the server's admins turn it on.

ALTER TABLE server_settings ADD COLUMN plugin_ais INTEGER NOT NULL DEFAULT 0;
