-- 0004: ratings. Every finished match is rated per game, on two ladders: its guild's and the
-- global one (scope 0; guild ids are snowflakes, never 0). See docs/ratings.md.
--
-- rating_changes is the history (one row per player per ladder per match, linked to the match);
-- ratings is the current standing of each player on each ladder, kept in the same transaction as
-- the changes so the leaderboard is one indexed query. Both are derived data: bot.ratings rebuilds
-- them from the matches table (`python -m bot.ratings rebuild`) with identical numbers.

CREATE TABLE ratings (
    scope         INTEGER NOT NULL,                 -- guild id, or 0: the global ladder
    game          TEXT    NOT NULL,                 -- rules.registry slug
    user_id       INTEGER NOT NULL REFERENCES players (user_id),
    mu            REAL    NOT NULL,                 -- openskill PlackettLuce estimate
    sigma         REAL    NOT NULL,                 -- its uncertainty
    ordinal       REAL    NOT NULL,                 -- mu - 3 sigma: the ladder's order
    display       INTEGER NOT NULL,                 -- round(1200 + 20 * ordinal): the number shown
    wins          INTEGER NOT NULL DEFAULT 0,
    losses        INTEGER NOT NULL DEFAULT 0,
    draws         INTEGER NOT NULL DEFAULT 0,       -- draws and shared victories
    games         INTEGER NOT NULL DEFAULT 0,
    last_match_id INTEGER NOT NULL REFERENCES matches (id),
    updated_at    INTEGER NOT NULL,                 -- finished_at of that match
    PRIMARY KEY (scope, game, user_id)
);
CREATE INDEX ratings_ladder ON ratings (scope, game, ordinal DESC, games DESC, user_id);

CREATE TABLE rating_changes (
    id             INTEGER PRIMARY KEY,
    match_id       INTEGER NOT NULL REFERENCES matches (id),
    scope          INTEGER NOT NULL,
    game           TEXT    NOT NULL,
    user_id        INTEGER NOT NULL REFERENCES players (user_id),
    seat           INTEGER NOT NULL CHECK (seat >= 0),
    rank           INTEGER NOT NULL CHECK (rank >= 1),   -- 1 = best; equal ranks tied
    result         TEXT    NOT NULL CHECK (result IN ('win', 'loss', 'draw')),
    mu_before      REAL    NOT NULL,
    sigma_before   REAL    NOT NULL,
    mu_after       REAL    NOT NULL,
    sigma_after    REAL    NOT NULL,
    display_before INTEGER NOT NULL,
    display_after  INTEGER NOT NULL,
    finished_at    INTEGER NOT NULL,                -- the match's, so histories sort without a join
    UNIQUE (match_id, scope, user_id)
);
CREATE INDEX rating_changes_by_player ON rating_changes (user_id, scope, game, finished_at, match_id);

-- Which finished matches the ratings include (counted = 0: finished without a usable outcome).
CREATE TABLE rated_matches (
    match_id    INTEGER PRIMARY KEY REFERENCES matches (id),
    game        TEXT    NOT NULL,
    finished_at INTEGER NOT NULL,
    counted     INTEGER NOT NULL CHECK (counted IN (0, 1))
);
CREATE INDEX rated_matches_by_game ON rated_matches (game, finished_at, match_id);

-- Finished matches waiting to be rated: the match service adds a match here in the transaction
-- that finishes it, and rating removes it. If rating fails, the match stays queued (its finish is
-- kept) and the next rating of its game catches up, in finish order.
CREATE TABLE rating_queue (
    match_id INTEGER PRIMARY KEY REFERENCES matches (id)
);
-- Matches finished before ratings existed are rated by the next finish (or a rebuild).
INSERT INTO rating_queue (match_id) SELECT id FROM matches WHERE status = 'finished';

-- Finished matches of a game in finish order: rebuilds and /history.
CREATE INDEX matches_finished ON matches (game, finished_at, id) WHERE status = 'finished';
CREATE INDEX matches_finished_by_guild ON matches (guild_id, finished_at, id) WHERE status = 'finished';
