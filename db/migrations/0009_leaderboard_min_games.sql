-- 0009: the minimum number of rated games a player needs to appear on the server's leaderboard
-- (/settings leaderboard_min_games; bot/servers.py checks the bounds, 1 to 1000). NULL: the default, 1.
ALTER TABLE server_settings ADD COLUMN leaderboard_min_games INTEGER CHECK (leaderboard_min_games >= 1);
