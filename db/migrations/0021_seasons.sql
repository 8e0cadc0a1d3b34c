-- 0021: seasons, settled ratings and leagues (issue 36; docs/ratings.md).
--
-- 1. A rating settles with time away (its uncertainty grows: bot/rating_time.py). The stored mu and
--    sigma stay those of the player's last rated match; ordinal and display are the ladder's order
--    and number as last settled, and listed says whether the player is on the leaderboard (enough
--    games, and a game within the server's window). settle_at is the next moment any of the three
--    changes (the next step of time away, or leaving the window); NULL: never. A read of a ladder
--    first settles its rows that are due (an index probe, usually nothing): nothing rewrites every
--    row on a schedule. Rows stored before this migration are due at once (settle_at 0).
-- 2. ladder_bands.shown now counts the listed players (it counted those with the server's
--    minimum of games; the minimum and the window are both in listed, which the application
--    writes), so the server_settings triggers go.
-- 3. seasons: per server, numbered; a match belongs to the season of its server whose
--    start_seq < finish_seq <= end_seq (the finish sequence, as the ratings are ordered: a
--    rebuild gives the same season ratings). A season's ladders are ratings rows whose scope is
--    minus the season's id. season_results keeps each ended season's final standings forever.
-- 4. league_roles: the Discord roles the bot made for a server's leagues (never any other role).
ALTER TABLE ratings ADD COLUMN listed INTEGER NOT NULL DEFAULT 1 CHECK (listed IN (0, 1));
ALTER TABLE ratings ADD COLUMN settle_at INTEGER;
UPDATE ratings SET settle_at = 0,
    listed = (games >= COALESCE((SELECT leaderboard_min_games FROM server_settings WHERE guild_id = ratings.scope), 1));
CREATE INDEX ratings_due ON ratings (scope, game, settle_at) WHERE settle_at IS NOT NULL;
-- The ladder's order with listed at its end: a page or a place among the listed players is read
-- from the index alone (without it, each row's listed was a read of the table row).
DROP INDEX ratings_ladder;
CREATE INDEX ratings_ladder ON ratings (scope, game, ordinal DESC, games DESC, user_id, listed);

ALTER TABLE server_settings ADD COLUMN leaderboard_window_days INTEGER CHECK (leaderboard_window_days >= 1);
ALTER TABLE server_settings ADD COLUMN season_days INTEGER CHECK (season_days >= 1);
ALTER TABLE server_settings ADD COLUMN leagues TEXT;

DROP TRIGGER ladder_bands_insert;
DROP TRIGGER ladder_bands_delete;
DROP TRIGGER ladder_bands_update;
DROP TRIGGER ladder_bands_min_games_update;
DROP TRIGGER ladder_bands_min_games_insert;
DROP TRIGGER ladder_bands_min_games_delete;

CREATE TRIGGER ladder_bands_insert AFTER INSERT ON ratings
BEGIN
    INSERT INTO ladder_bands (scope, game, level, band, players, shown, games) VALUES
        (NEW.scope, NEW.game, 0, CAST(NEW.ordinal AS INTEGER) - (NEW.ordinal < CAST(NEW.ordinal AS INTEGER)),
         1, NEW.listed, NEW.games),
        (NEW.scope, NEW.game, 1,
         CAST(NEW.ordinal * 64 AS INTEGER) - (NEW.ordinal * 64 < CAST(NEW.ordinal * 64 AS INTEGER)),
         1, NEW.listed, NEW.games)
    ON CONFLICT (scope, game, level, band) DO UPDATE SET
        players = players + 1, shown = shown + excluded.shown, games = games + excluded.games;
END;

CREATE TRIGGER ladder_bands_delete AFTER DELETE ON ratings
BEGIN
    UPDATE ladder_bands SET players = players - 1, shown = shown - OLD.listed, games = games - OLD.games
    WHERE scope = OLD.scope AND game = OLD.game AND level = 0
      AND band = CAST(OLD.ordinal AS INTEGER) - (OLD.ordinal < CAST(OLD.ordinal AS INTEGER));
    UPDATE ladder_bands SET players = players - 1, shown = shown - OLD.listed, games = games - OLD.games
    WHERE scope = OLD.scope AND game = OLD.game AND level = 1
      AND band = CAST(OLD.ordinal * 64 AS INTEGER) - (OLD.ordinal * 64 < CAST(OLD.ordinal * 64 AS INTEGER));
END;

CREATE TRIGGER ladder_bands_update AFTER UPDATE OF scope, game, ordinal, games, listed ON ratings
BEGIN
    UPDATE ladder_bands SET players = players - 1, shown = shown - OLD.listed, games = games - OLD.games
    WHERE scope = OLD.scope AND game = OLD.game AND level = 0
      AND band = CAST(OLD.ordinal AS INTEGER) - (OLD.ordinal < CAST(OLD.ordinal AS INTEGER));
    UPDATE ladder_bands SET players = players - 1, shown = shown - OLD.listed, games = games - OLD.games
    WHERE scope = OLD.scope AND game = OLD.game AND level = 1
      AND band = CAST(OLD.ordinal * 64 AS INTEGER) - (OLD.ordinal * 64 < CAST(OLD.ordinal * 64 AS INTEGER));
    INSERT INTO ladder_bands (scope, game, level, band, players, shown, games) VALUES
        (NEW.scope, NEW.game, 0, CAST(NEW.ordinal AS INTEGER) - (NEW.ordinal < CAST(NEW.ordinal AS INTEGER)),
         1, NEW.listed, NEW.games),
        (NEW.scope, NEW.game, 1,
         CAST(NEW.ordinal * 64 AS INTEGER) - (NEW.ordinal * 64 < CAST(NEW.ordinal * 64 AS INTEGER)),
         1, NEW.listed, NEW.games)
    ON CONFLICT (scope, game, level, band) DO UPDATE SET
        players = players + 1, shown = shown + excluded.shown, games = games + excluded.games;
END;

DELETE FROM ladder_bands;
INSERT INTO ladder_bands (scope, game, level, band, players, shown, games)
SELECT scope, game, 0, CAST(ordinal AS INTEGER) - (ordinal < CAST(ordinal AS INTEGER)), COUNT(*), SUM(listed),
       SUM(games)
FROM ratings GROUP BY scope, game, CAST(ordinal AS INTEGER) - (ordinal < CAST(ordinal AS INTEGER));
INSERT INTO ladder_bands (scope, game, level, band, players, shown, games)
SELECT scope, game, 1, CAST(ordinal * 64 AS INTEGER) - (ordinal * 64 < CAST(ordinal * 64 AS INTEGER)), COUNT(*),
       SUM(listed), SUM(games)
FROM ratings GROUP BY scope, game, CAST(ordinal * 64 AS INTEGER) - (ordinal * 64 < CAST(ordinal * 64 AS INTEGER));

CREATE TABLE seasons (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    number      INTEGER NOT NULL CHECK (number >= 1),     -- 1, 2, 3, ... per server
    name        TEXT    NOT NULL,
    game        TEXT,                                     -- one game's season; NULL: every game
    started_at  INTEGER NOT NULL,
    ends_at     INTEGER,                                  -- the planned end; NULL: until /season end
    rollover    INTEGER NOT NULL DEFAULT 1 CHECK (rollover IN (0, 1)),  -- at ends_at the next one starts
    start_seq   INTEGER NOT NULL,                         -- matches with a finish_seq above it ...
    ended_at    INTEGER,
    end_seq     INTEGER,                                  -- ... and at most this one belong to it
    started_by  INTEGER NOT NULL,                         -- the admin's user id; 0: the timer (a rollover)
    channel_id  INTEGER,                                  -- where its end is posted (where it was started)
    ended_by    INTEGER,
    archived    INTEGER NOT NULL DEFAULT 0 CHECK (archived IN (0, 1)),  -- season_results written
    announced   INTEGER NOT NULL DEFAULT 0 CHECK (announced IN (0, 1)), -- the end post and roles done
    claimed_at  INTEGER,                                  -- a process posting its end (a lease)
    UNIQUE (guild_id, number),
    UNIQUE (guild_id, name)
);
CREATE UNIQUE INDEX seasons_running ON seasons (guild_id) WHERE ended_at IS NULL;
CREATE INDEX seasons_due ON seasons (ends_at) WHERE ended_at IS NULL;
CREATE INDEX seasons_to_announce ON seasons (ended_at) WHERE announced = 0 AND ended_at IS NOT NULL;

CREATE TABLE season_results (
    season_id INTEGER NOT NULL REFERENCES seasons (id),
    game      TEXT    NOT NULL,
    user_id   INTEGER NOT NULL,
    place     INTEGER NOT NULL,        -- on the season's final leaderboard; 0: not listed on it
    display   INTEGER NOT NULL,
    ordinal   REAL    NOT NULL,
    games     INTEGER NOT NULL,
    wins      INTEGER NOT NULL,
    losses    INTEGER NOT NULL,
    draws     INTEGER NOT NULL,
    league    TEXT,
    PRIMARY KEY (season_id, game, user_id)
);
CREATE INDEX season_results_by_user ON season_results (user_id, season_id);
CREATE INDEX season_results_board ON season_results (season_id, game, place);

CREATE TABLE league_roles (
    guild_id INTEGER NOT NULL,
    league   TEXT    NOT NULL,
    role_id  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, league)
);
