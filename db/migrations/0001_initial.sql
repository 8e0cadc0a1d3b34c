-- 0001: players, matches, seats, the append-only action log, and Discord message references.
-- Times are unix seconds (UTC) stored as INTEGER. JSON columns hold compact JSON text.

CREATE TABLE players (
    user_id       INTEGER PRIMARY KEY,              -- Discord user id (snowflake)
    display_name  TEXT    NOT NULL,
    first_seen_at INTEGER NOT NULL,
    last_seen_at  INTEGER NOT NULL
);

CREATE TABLE matches (
    id            INTEGER PRIMARY KEY,
    game          TEXT    NOT NULL,                 -- rules.registry slug
    options       TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(options)),
    seed          INTEGER,                          -- drawn when the match starts
    guild_id      INTEGER,
    channel_id    INTEGER,
    status        TEXT    NOT NULL DEFAULT 'pending' CHECK (status IN
                      ('pending', 'active', 'finished', 'abandoned', 'declined', 'expired', 'cancelled')),
    challenger_id INTEGER NOT NULL REFERENCES players (user_id),
    created_at    INTEGER NOT NULL,
    started_at    INTEGER,
    finished_at   INTEGER,                          -- also set when a challenge is closed
    expires_at    INTEGER,                          -- pending challenges only
    outcome       TEXT    CHECK (outcome IS NULL OR json_valid(outcome)),
    summary       TEXT,
    message_id    INTEGER                           -- the channel's challenge/status message
);
CREATE INDEX matches_by_status ON matches (status, expires_at);

CREATE TABLE seats (
    match_id      INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seat          INTEGER NOT NULL CHECK (seat >= 0),
    user_id       INTEGER NOT NULL REFERENCES players (user_id),
    display_name  TEXT    NOT NULL,
    dm_ok         INTEGER CHECK (dm_ok IN (0, 1)),  -- NULL: not known yet
    accepted      INTEGER NOT NULL DEFAULT 0 CHECK (accepted IN (0, 1)),
    deadline_at   INTEGER,                          -- set while the seat is awaited
    awaited_since INTEGER,                          -- log length when that deadline was set
    reminded      INTEGER NOT NULL DEFAULT 0 CHECK (reminded IN (0, 1)),
    PRIMARY KEY (match_id, seat),
    UNIQUE (match_id, user_id)
);
CREATE INDEX seats_by_user ON seats (user_id);
CREATE INDEX seats_by_deadline ON seats (deadline_at) WHERE deadline_at IS NOT NULL;

-- One row per accepted log entry (chance included). Never updated or deleted.
CREATE TABLE actions (
    id         INTEGER PRIMARY KEY,
    match_id   INTEGER NOT NULL REFERENCES matches (id),
    idx        INTEGER NOT NULL CHECK (idx >= 0),
    seat       INTEGER CHECK (seat IS NULL OR seat >= 0),   -- NULL: chance
    action     TEXT    NOT NULL CHECK (json_valid(action)),
    auto       INTEGER NOT NULL DEFAULT 0 CHECK (auto IN (0, 1)),  -- 1: the referee acted for a timed-out seat
    created_at INTEGER NOT NULL,
    UNIQUE (match_id, idx)
);

CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'actions are append-only');
END;

CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
BEGIN
    SELECT RAISE(ABORT, 'actions are append-only');
END;

-- Messages the Discord layer sent for a match (DM prompts per seat, round posts, ...), so old
-- prompts can be edited or disabled later, also after a restart.
CREATE TABLE messages (
    id         INTEGER PRIMARY KEY,
    match_id   INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seat       INTEGER,                             -- NULL: a channel message
    kind       TEXT    NOT NULL,                    -- e.g. 'prompt', 'round'
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    seat_step  INTEGER,                             -- the seat step a prompt was made for
    active     INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    created_at INTEGER NOT NULL,
    UNIQUE (channel_id, message_id)
);
CREATE INDEX messages_by_match ON messages (match_id, kind, seat);
