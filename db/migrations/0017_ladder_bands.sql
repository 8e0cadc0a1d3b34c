-- 0017: ladder bands (issue 33, part 2): how many players each stretch of a ladder holds, kept by
-- triggers, so a player's place, a ladder's size and the start of any leaderboard page are found
-- from at most about 150 small rows and a few dozen index entries, however many ratings are stored
-- (before, a place was a COUNT of every row ahead and page N read and skipped N * 10 rows).
--
-- A ladder (scope, game) is cut into bands by ordinal (the order the ladder sorts by) at two
-- levels: level 0, band = floor(ordinal) (one band per unit of ordinal, 20 rating points); level 1,
-- band = floor(ordinal * 64) (64 fine bands in each band of level 0). A fine band k holds exactly
-- the ratings with k / 64 <= ordinal < (k + 1) / 64 (the division by 64 is exact in binary
-- floating point, so db/ratings.py finds the same bands in Python). Per band: the players in it,
-- those with at least the server's leaderboard_min_games rated games (shown; the global ladder's
-- minimum is 1), and their rated games summed (the games list's "most played" order).
--
-- Derived data: rebuilt from ratings by this migration, and kept by the triggers below through
-- every insert, update and delete of a rating (ratings rebuilds and restores included), and
-- through every change of a server's leaderboard_min_games (that one recounts the server's ladders:
-- one indexed pass, an admin's rare action).
CREATE TABLE ladder_bands (
    scope   INTEGER NOT NULL,
    game    TEXT    NOT NULL,
    level   INTEGER NOT NULL CHECK (level IN (0, 1)),
    band    INTEGER NOT NULL,
    players INTEGER NOT NULL,
    shown   INTEGER NOT NULL,
    games   INTEGER NOT NULL,
    PRIMARY KEY (scope, game, level, band)
) WITHOUT ROWID;  -- the rows in key order: a ladder's bands are read as one run of a page or two

-- A player's standings, every ladder (/profile): before, the lookup by user scanned the server's
-- whole ladder.
CREATE INDEX ratings_by_user ON ratings (user_id, scope, game);

-- floor(x) without SQLite's optional math functions: CAST truncates toward zero. Each band is
-- written by its whole primary key (one statement per level: an OR of the two would read every
-- band of the ladder).
CREATE TRIGGER ladder_bands_insert AFTER INSERT ON ratings
BEGIN
    INSERT INTO ladder_bands (scope, game, level, band, players, shown, games) VALUES
        (NEW.scope, NEW.game, 0,
         CAST(NEW.ordinal AS INTEGER) - (NEW.ordinal < CAST(NEW.ordinal AS INTEGER)),
         1, NEW.games >= COALESCE((SELECT leaderboard_min_games FROM server_settings WHERE guild_id = NEW.scope), 1),
         NEW.games),
        (NEW.scope, NEW.game, 1,
         CAST(NEW.ordinal * 64 AS INTEGER) - (NEW.ordinal * 64 < CAST(NEW.ordinal * 64 AS INTEGER)),
         1, NEW.games >= COALESCE((SELECT leaderboard_min_games FROM server_settings WHERE guild_id = NEW.scope), 1),
         NEW.games)
    ON CONFLICT (scope, game, level, band) DO UPDATE SET
        players = players + 1, shown = shown + excluded.shown, games = games + excluded.games;
END;

CREATE TRIGGER ladder_bands_delete AFTER DELETE ON ratings
BEGIN
    UPDATE ladder_bands SET
        players = players - 1,
        shown = shown - (OLD.games >= COALESCE(
            (SELECT leaderboard_min_games FROM server_settings WHERE guild_id = OLD.scope), 1)),
        games = games - OLD.games
    WHERE scope = OLD.scope AND game = OLD.game AND level = 0
      AND band = CAST(OLD.ordinal AS INTEGER) - (OLD.ordinal < CAST(OLD.ordinal AS INTEGER));
    UPDATE ladder_bands SET
        players = players - 1,
        shown = shown - (OLD.games >= COALESCE(
            (SELECT leaderboard_min_games FROM server_settings WHERE guild_id = OLD.scope), 1)),
        games = games - OLD.games
    WHERE scope = OLD.scope AND game = OLD.game AND level = 1
      AND band = CAST(OLD.ordinal * 64 AS INTEGER) - (OLD.ordinal * 64 < CAST(OLD.ordinal * 64 AS INTEGER));
END;

CREATE TRIGGER ladder_bands_update AFTER UPDATE OF scope, game, ordinal, games ON ratings
BEGIN
    UPDATE ladder_bands SET
        players = players - 1,
        shown = shown - (OLD.games >= COALESCE(
            (SELECT leaderboard_min_games FROM server_settings WHERE guild_id = OLD.scope), 1)),
        games = games - OLD.games
    WHERE scope = OLD.scope AND game = OLD.game AND level = 0
      AND band = CAST(OLD.ordinal AS INTEGER) - (OLD.ordinal < CAST(OLD.ordinal AS INTEGER));
    UPDATE ladder_bands SET
        players = players - 1,
        shown = shown - (OLD.games >= COALESCE(
            (SELECT leaderboard_min_games FROM server_settings WHERE guild_id = OLD.scope), 1)),
        games = games - OLD.games
    WHERE scope = OLD.scope AND game = OLD.game AND level = 1
      AND band = CAST(OLD.ordinal * 64 AS INTEGER) - (OLD.ordinal * 64 < CAST(OLD.ordinal * 64 AS INTEGER));
    INSERT INTO ladder_bands (scope, game, level, band, players, shown, games) VALUES
        (NEW.scope, NEW.game, 0,
         CAST(NEW.ordinal AS INTEGER) - (NEW.ordinal < CAST(NEW.ordinal AS INTEGER)),
         1, NEW.games >= COALESCE((SELECT leaderboard_min_games FROM server_settings WHERE guild_id = NEW.scope), 1),
         NEW.games),
        (NEW.scope, NEW.game, 1,
         CAST(NEW.ordinal * 64 AS INTEGER) - (NEW.ordinal * 64 < CAST(NEW.ordinal * 64 AS INTEGER)),
         1, NEW.games >= COALESCE((SELECT leaderboard_min_games FROM server_settings WHERE guild_id = NEW.scope), 1),
         NEW.games)
    ON CONFLICT (scope, game, level, band) DO UPDATE SET
        players = players + 1, shown = shown + excluded.shown, games = games + excluded.games;
END;

-- A server's minimum changed (or its settings row came or went): recount its ladders' shown column.
CREATE TRIGGER ladder_bands_min_games_update AFTER UPDATE OF leaderboard_min_games ON server_settings
WHEN OLD.leaderboard_min_games IS NOT NEW.leaderboard_min_games
BEGIN
    UPDATE ladder_bands SET shown = (
        SELECT COUNT(*) FROM ratings r
        WHERE r.scope = ladder_bands.scope AND r.game = ladder_bands.game
          AND r.ordinal >= (CASE ladder_bands.level WHEN 0 THEN ladder_bands.band ELSE ladder_bands.band / 64.0 END)
          AND r.ordinal < (CASE ladder_bands.level WHEN 0 THEN ladder_bands.band + 1
                           ELSE (ladder_bands.band + 1) / 64.0 END)
          AND r.games >= COALESCE(NEW.leaderboard_min_games, 1))
    WHERE scope = NEW.guild_id;
END;

CREATE TRIGGER ladder_bands_min_games_insert AFTER INSERT ON server_settings
WHEN COALESCE(NEW.leaderboard_min_games, 1) != 1
BEGIN
    UPDATE ladder_bands SET shown = (
        SELECT COUNT(*) FROM ratings r
        WHERE r.scope = ladder_bands.scope AND r.game = ladder_bands.game
          AND r.ordinal >= (CASE ladder_bands.level WHEN 0 THEN ladder_bands.band ELSE ladder_bands.band / 64.0 END)
          AND r.ordinal < (CASE ladder_bands.level WHEN 0 THEN ladder_bands.band + 1
                           ELSE (ladder_bands.band + 1) / 64.0 END)
          AND r.games >= NEW.leaderboard_min_games)
    WHERE scope = NEW.guild_id;
END;

CREATE TRIGGER ladder_bands_min_games_delete AFTER DELETE ON server_settings
WHEN COALESCE(OLD.leaderboard_min_games, 1) != 1
BEGIN
    UPDATE ladder_bands SET shown = players WHERE scope = OLD.guild_id;
END;

INSERT INTO ladder_bands (scope, game, level, band, players, shown, games)
SELECT scope, game, 0, band, COUNT(*), SUM(games >= minimum), SUM(games) FROM (
    SELECT r.scope, r.game, r.games,
           CAST(r.ordinal AS INTEGER) - (r.ordinal < CAST(r.ordinal AS INTEGER)) AS band,
           COALESCE(s.leaderboard_min_games, 1) AS minimum
    FROM ratings r LEFT JOIN server_settings s ON s.guild_id = r.scope
) GROUP BY scope, game, band;

INSERT INTO ladder_bands (scope, game, level, band, players, shown, games)
SELECT scope, game, 1, band, COUNT(*), SUM(games >= minimum), SUM(games) FROM (
    SELECT r.scope, r.game, r.games,
           CAST(r.ordinal * 64 AS INTEGER) - (r.ordinal * 64 < CAST(r.ordinal * 64 AS INTEGER)) AS band,
           COALESCE(s.leaderboard_min_games, 1) AS minimum
    FROM ratings r LEFT JOIN server_settings s ON s.guild_id = r.scope
) GROUP BY scope, game, band;
