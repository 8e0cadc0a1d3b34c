-- 0016: how long a player may go without a click in a match before the bot mentions them when the
-- move passes to them (issue 31, part 2: /settings ping_after; bot/servers.py checks the bounds,
-- 0 to 1 day). 0: always mention them. NULL: the default, 120 seconds (DEFAULT_PING_AFTER_SECONDS).
-- The same SQL runs on PostgreSQL (no edition there).
ALTER TABLE server_settings ADD COLUMN ping_after_seconds INTEGER CHECK (ping_after_seconds >= 0);
