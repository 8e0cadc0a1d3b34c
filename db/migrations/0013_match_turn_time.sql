-- 0013: a turn time that belongs to the match (issue 18: a tournament's matches use the
-- tournament's turn time). NULL: the server's /settings turn time, else the bot's
-- MOVE_TIMEOUT_SECONDS, as before. The same SQL runs on PostgreSQL (no edition there).
ALTER TABLE matches ADD COLUMN turn_time_seconds INTEGER CHECK (turn_time_seconds IS NULL OR turn_time_seconds > 0);
