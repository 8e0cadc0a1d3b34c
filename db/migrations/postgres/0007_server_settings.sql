-- 0007 (PostgreSQL edition of ../0007_server_settings.sql): per-server settings; ids are BIGINT.
CREATE TABLE server_settings (
    guild_id           BIGINT  PRIMARY KEY,
    channel_id         BIGINT,                           -- where matches are played; NULL: wherever the challenge is made
    threads            INTEGER NOT NULL DEFAULT 1 CHECK (threads IN (0, 1)),     -- one thread per match
    turn_time_seconds  INTEGER CHECK (turn_time_seconds > 0), -- default time per move; NULL: MOVE_TIMEOUT_SECONDS
    reminders          INTEGER NOT NULL DEFAULT 1 CHECK (reminders IN (0, 1)),   -- remind before a move times out
    pictures           INTEGER CHECK (pictures IN (0, 1)),      -- attach pictures; NULL: RENDER_IMAGES
    updated_at         BIGINT  NOT NULL,
    updated_by         BIGINT  NOT NULL                  -- the user id of the last change
);
