-- 0021 (PostgreSQL edition of ../0021_seasons.sql): seasons, settled ratings and leagues. The same
-- tables and numbers; ladder_bands.shown counts the listed ratings.
ALTER TABLE ratings ADD COLUMN listed INTEGER NOT NULL DEFAULT 1 CHECK (listed IN (0, 1));
ALTER TABLE ratings ADD COLUMN settle_at BIGINT;
UPDATE ratings SET settle_at = 0,
    listed = CASE WHEN games >= ladder_min_games(scope) THEN 1 ELSE 0 END;
CREATE INDEX ratings_due ON ratings (scope, game, settle_at) WHERE settle_at IS NOT NULL;
-- The ladder's order with listed at its end: a page or a place among the listed players is read
-- from the index alone (without it, each row's listed was a read of the table row).
DROP INDEX ratings_ladder;
CREATE INDEX ratings_ladder ON ratings (scope, game, ordinal DESC, games DESC, user_id, listed);

ALTER TABLE server_settings ADD COLUMN leaderboard_window_days INTEGER CHECK (leaderboard_window_days >= 1);
ALTER TABLE server_settings ADD COLUMN season_days INTEGER CHECK (season_days >= 1);
ALTER TABLE server_settings ADD COLUMN leagues TEXT;

DROP TRIGGER ladder_bands_min_games_update ON server_settings;
DROP TRIGGER ladder_bands_min_games_insert ON server_settings;
DROP TRIGGER ladder_bands_min_games_delete ON server_settings;
DROP FUNCTION ladder_bands_on_settings();
DROP FUNCTION ladder_bands_recount(BIGINT);
DROP TRIGGER ladder_bands_insert ON ratings;
DROP TRIGGER ladder_bands_delete ON ratings;
DROP TRIGGER ladder_bands_update ON ratings;
DROP FUNCTION ladder_bands_on_rating();
DROP FUNCTION ladder_bands_apply(BIGINT, TEXT, DOUBLE PRECISION, INTEGER, INTEGER);

-- Add (sign 1) or take away (sign -1) one rating from its two bands.
CREATE FUNCTION ladder_bands_apply(p_scope BIGINT, p_game TEXT, p_ordinal DOUBLE PRECISION, p_games INTEGER,
                                   p_listed INTEGER, p_sign INTEGER) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO ladder_bands AS b (scope, game, level, band, players, shown, games) VALUES
        (p_scope, p_game, 0, floor(p_ordinal)::BIGINT, p_sign, p_sign * p_listed, p_sign * p_games),
        (p_scope, p_game, 1, floor(p_ordinal * 64)::BIGINT, p_sign, p_sign * p_listed, p_sign * p_games)
    ON CONFLICT (scope, game, level, band) DO UPDATE SET
        players = b.players + EXCLUDED.players, shown = b.shown + EXCLUDED.shown, games = b.games + EXCLUDED.games;
END;
$$;

CREATE FUNCTION ladder_bands_on_rating() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        PERFORM ladder_bands_apply(OLD.scope, OLD.game, OLD.ordinal, OLD.games, OLD.listed, -1);
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') THEN
        PERFORM ladder_bands_apply(NEW.scope, NEW.game, NEW.ordinal, NEW.games, NEW.listed, 1);
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER ladder_bands_insert AFTER INSERT ON ratings
FOR EACH ROW EXECUTE FUNCTION ladder_bands_on_rating();
CREATE TRIGGER ladder_bands_delete AFTER DELETE ON ratings
FOR EACH ROW EXECUTE FUNCTION ladder_bands_on_rating();
CREATE TRIGGER ladder_bands_update AFTER UPDATE OF scope, game, ordinal, games, listed ON ratings
FOR EACH ROW EXECUTE FUNCTION ladder_bands_on_rating();

DELETE FROM ladder_bands;
INSERT INTO ladder_bands (scope, game, level, band, players, shown, games)
SELECT scope, game, 0, floor(ordinal)::BIGINT, COUNT(*), SUM(listed), SUM(games)
FROM ratings GROUP BY scope, game, floor(ordinal)::BIGINT;
INSERT INTO ladder_bands (scope, game, level, band, players, shown, games)
SELECT scope, game, 1, floor(ordinal * 64)::BIGINT, COUNT(*), SUM(listed), SUM(games)
FROM ratings GROUP BY scope, game, floor(ordinal * 64)::BIGINT;

CREATE TABLE seasons (
    id          BIGSERIAL PRIMARY KEY,
    guild_id    BIGINT  NOT NULL,
    number      INTEGER NOT NULL CHECK (number >= 1),
    name        TEXT    NOT NULL,
    game        TEXT,
    started_at  BIGINT  NOT NULL,
    ends_at     BIGINT,
    rollover    INTEGER NOT NULL DEFAULT 1 CHECK (rollover IN (0, 1)),
    start_seq   BIGINT  NOT NULL,
    ended_at    BIGINT,
    end_seq     BIGINT,
    started_by  BIGINT  NOT NULL,
    channel_id  BIGINT,
    ended_by    BIGINT,
    archived    INTEGER NOT NULL DEFAULT 0 CHECK (archived IN (0, 1)),
    announced   INTEGER NOT NULL DEFAULT 0 CHECK (announced IN (0, 1)),
    claimed_at  BIGINT,
    UNIQUE (guild_id, number),
    UNIQUE (guild_id, name)
);
CREATE UNIQUE INDEX seasons_running ON seasons (guild_id) WHERE ended_at IS NULL;
CREATE INDEX seasons_due ON seasons (ends_at) WHERE ended_at IS NULL;
CREATE INDEX seasons_to_announce ON seasons (ended_at) WHERE announced = 0 AND ended_at IS NOT NULL;

CREATE TABLE season_results (
    season_id BIGINT  NOT NULL REFERENCES seasons (id),
    game      TEXT    NOT NULL,
    user_id   BIGINT  NOT NULL,
    place     INTEGER NOT NULL,
    display   INTEGER NOT NULL,
    ordinal   DOUBLE PRECISION NOT NULL,
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
    guild_id BIGINT  NOT NULL,
    league   TEXT    NOT NULL,
    role_id  BIGINT  NOT NULL,
    PRIMARY KEY (guild_id, league)
);
