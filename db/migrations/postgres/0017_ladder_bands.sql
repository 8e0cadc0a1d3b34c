-- 0017 (PostgreSQL edition of ../0017_ladder_bands.sql): ladder bands, how many players each
-- stretch of a ladder holds, kept by triggers. The same table and the same numbers; the triggers
-- are PL/pgSQL functions here.
CREATE TABLE ladder_bands (
    scope   BIGINT  NOT NULL,
    game    TEXT    NOT NULL,
    level   INTEGER NOT NULL CHECK (level IN (0, 1)),
    band    BIGINT  NOT NULL,
    players BIGINT  NOT NULL,
    shown   BIGINT  NOT NULL,
    games   BIGINT  NOT NULL,
    PRIMARY KEY (scope, game, level, band)
);

CREATE INDEX ratings_by_user ON ratings (user_id, scope, game);

-- The server's leaderboard minimum (1 without a settings row, and on the global ladder).
CREATE FUNCTION ladder_min_games(p_scope BIGINT) RETURNS INTEGER
LANGUAGE sql STABLE AS $$
    SELECT COALESCE((SELECT leaderboard_min_games FROM server_settings WHERE guild_id = p_scope), 1)
$$;

-- Add (sign 1) or take away (sign -1) one rating from its two bands.
CREATE FUNCTION ladder_bands_apply(p_scope BIGINT, p_game TEXT, p_ordinal DOUBLE PRECISION, p_games INTEGER,
                                   p_sign INTEGER) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    v_shown INTEGER := CASE WHEN p_games >= ladder_min_games(p_scope) THEN 1 ELSE 0 END;
BEGIN
    INSERT INTO ladder_bands AS b (scope, game, level, band, players, shown, games) VALUES
        (p_scope, p_game, 0, floor(p_ordinal)::BIGINT, p_sign, p_sign * v_shown, p_sign * p_games),
        (p_scope, p_game, 1, floor(p_ordinal * 64)::BIGINT, p_sign, p_sign * v_shown, p_sign * p_games)
    ON CONFLICT (scope, game, level, band) DO UPDATE SET
        players = b.players + EXCLUDED.players, shown = b.shown + EXCLUDED.shown, games = b.games + EXCLUDED.games;
END;
$$;

CREATE FUNCTION ladder_bands_on_rating() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        PERFORM ladder_bands_apply(OLD.scope, OLD.game, OLD.ordinal, OLD.games, -1);
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') THEN
        PERFORM ladder_bands_apply(NEW.scope, NEW.game, NEW.ordinal, NEW.games, 1);
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER ladder_bands_insert AFTER INSERT ON ratings
FOR EACH ROW EXECUTE FUNCTION ladder_bands_on_rating();
CREATE TRIGGER ladder_bands_delete AFTER DELETE ON ratings
FOR EACH ROW EXECUTE FUNCTION ladder_bands_on_rating();
CREATE TRIGGER ladder_bands_update AFTER UPDATE OF scope, game, ordinal, games ON ratings
FOR EACH ROW EXECUTE FUNCTION ladder_bands_on_rating();

-- A server's minimum changed (or its settings row came or went): recount its ladders' shown column.
CREATE FUNCTION ladder_bands_recount(p_scope BIGINT) RETURNS void
LANGUAGE sql AS $$
    UPDATE ladder_bands SET shown = (
        SELECT COUNT(*) FROM ratings r
        WHERE r.scope = ladder_bands.scope AND r.game = ladder_bands.game
          AND r.ordinal >= (CASE ladder_bands.level WHEN 0 THEN ladder_bands.band::DOUBLE PRECISION
                            ELSE ladder_bands.band::DOUBLE PRECISION / 64 END)
          AND r.ordinal < (CASE ladder_bands.level WHEN 0 THEN (ladder_bands.band + 1)::DOUBLE PRECISION
                           ELSE (ladder_bands.band + 1)::DOUBLE PRECISION / 64 END)
          AND r.games >= ladder_min_games(p_scope))
    WHERE scope = p_scope
$$;

CREATE FUNCTION ladder_bands_on_settings() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        IF COALESCE(OLD.leaderboard_min_games, 1) != 1 THEN
            UPDATE ladder_bands SET shown = players WHERE scope = OLD.guild_id;
        END IF;
    ELSIF TG_OP = 'INSERT' THEN
        IF COALESCE(NEW.leaderboard_min_games, 1) != 1 THEN
            PERFORM ladder_bands_recount(NEW.guild_id);
        END IF;
    ELSIF OLD.leaderboard_min_games IS DISTINCT FROM NEW.leaderboard_min_games THEN
        PERFORM ladder_bands_recount(NEW.guild_id);
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER ladder_bands_min_games_update AFTER UPDATE OF leaderboard_min_games ON server_settings
FOR EACH ROW EXECUTE FUNCTION ladder_bands_on_settings();
CREATE TRIGGER ladder_bands_min_games_insert AFTER INSERT ON server_settings
FOR EACH ROW EXECUTE FUNCTION ladder_bands_on_settings();
CREATE TRIGGER ladder_bands_min_games_delete AFTER DELETE ON server_settings
FOR EACH ROW EXECUTE FUNCTION ladder_bands_on_settings();

INSERT INTO ladder_bands (scope, game, level, band, players, shown, games)
SELECT r.scope, r.game, 0, floor(r.ordinal)::BIGINT, COUNT(*),
       SUM(CASE WHEN r.games >= COALESCE(s.leaderboard_min_games, 1) THEN 1 ELSE 0 END), SUM(r.games)
FROM ratings r LEFT JOIN server_settings s ON s.guild_id = r.scope
GROUP BY r.scope, r.game, floor(r.ordinal)::BIGINT;

INSERT INTO ladder_bands (scope, game, level, band, players, shown, games)
SELECT r.scope, r.game, 1, floor(r.ordinal * 64)::BIGINT, COUNT(*),
       SUM(CASE WHEN r.games >= COALESCE(s.leaderboard_min_games, 1) THEN 1 ELSE 0 END), SUM(r.games)
FROM ratings r LEFT JOIN server_settings s ON s.guild_id = r.scope
GROUP BY r.scope, r.game, floor(r.ordinal * 64)::BIGINT;
