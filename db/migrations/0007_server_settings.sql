-- 0007: per-server settings, changed with /settings (bot/servers.py validates every value; this
-- table only refuses what can never be right). A server without a row uses the bot's defaults.
CREATE TABLE server_settings (
    guild_id           INTEGER PRIMARY KEY,
    channel_id         INTEGER,                          -- where matches are played; NULL: wherever the challenge is made
    threads            INTEGER NOT NULL DEFAULT 1 CHECK (threads IN (0, 1)),     -- one thread per match
    turn_time_seconds  INTEGER CHECK (turn_time_seconds > 0), -- default time per move; NULL: MOVE_TIMEOUT_SECONDS
    reminders          INTEGER NOT NULL DEFAULT 1 CHECK (reminders IN (0, 1)),   -- remind before a move times out
    pictures           INTEGER CHECK (pictures IN (0, 1)),      -- attach pictures; NULL: RENDER_IMAGES
    updated_at         INTEGER NOT NULL,
    updated_by         INTEGER NOT NULL                  -- the user id of the last change
);
