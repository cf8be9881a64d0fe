"""Every word the bot shows: the English catalogue (texts), its translations (locales), the engine's
events and refusals as sentences, an image's alt text, what changed since a post, and each
server's chosen language. May import: engine, renders, and bot.core's base (storage, clock,
config)."""
