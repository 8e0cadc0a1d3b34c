-- 0012: tournaments (issue 18), run by bot/tournaments/service.py on top of the pure core
-- (bot/tournaments/tournament.py), whose JSON snapshot is the ``state`` column. Repository:
-- db/tournaments.py. Everything a running tournament needs is here, so the service is rebuilt from
-- these rows after a restart (no state in memory).
CREATE TABLE tournaments (
    id                 INTEGER PRIMARY KEY,
    guild_id           INTEGER,
    channel_id         INTEGER,
    message_id         INTEGER,                          -- the tournament message, edited in place
    organizer_id       INTEGER NOT NULL,
    game               TEXT    NOT NULL,                 -- rules.registry slug
    format             TEXT    NOT NULL CHECK (format IN ('swiss', 'round_robin', 'single_elimination')),
    options            TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(options)),  -- the game's options
    settings           TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(settings)), -- rounds, third place, miss limit, seed
    turn_time_seconds  INTEGER CHECK (turn_time_seconds IS NULL OR turn_time_seconds > 0),
    max_players        INTEGER CHECK (max_players IS NULL OR max_players >= 2),
    start_at           INTEGER,                          -- planned start (unix seconds); NULL: by hand
    round_seconds      INTEGER CHECK (round_seconds IS NULL OR round_seconds > 0), -- round deadline after a round starts
    round_deadline_at  INTEGER,                          -- the current round's deadline
    status             TEXT    NOT NULL DEFAULT 'signup' CHECK (status IN
                           ('signup', 'running', 'paused', 'finished', 'cancelled')),
    state              TEXT    CHECK (state IS NULL OR json_valid(state)),     -- Tournament.to_json() once started
    announced_round    INTEGER NOT NULL DEFAULT 0,       -- the last round whose "round started" event is out
    version            INTEGER NOT NULL DEFAULT 0,       -- bumped by every change (optimistic lock)
    created_at         INTEGER NOT NULL,
    updated_at         INTEGER NOT NULL,
    finished_at        INTEGER
);
CREATE INDEX tournaments_by_status ON tournaments (status, guild_id);

-- Sign-up: who entered (rows are deleted when a player leaves before the start); after the start
-- the core's state says who dropped.
CREATE TABLE tournament_entrants (
    tournament_id      INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id            INTEGER NOT NULL,
    display_name       TEXT    NOT NULL,
    joined_at          INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
);

-- The matches the tournament made: match -> (tournament, round, pairing: the core's id 'R3-M2').
-- A pairing may have several rows (a knock-out draw is replayed; an arranged match that expired
-- is made again): the latest is current. ``recorded``: its result is in the core's state;
-- ``at_fault``: the players a round deadline forfeited (JSON list of user ids).
CREATE TABLE tournament_matches (
    match_id           INTEGER PRIMARY KEY REFERENCES matches (id),
    tournament_id      INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round              INTEGER NOT NULL CHECK (round >= 1),
    pairing            TEXT    NOT NULL,
    recorded           INTEGER NOT NULL DEFAULT 0 CHECK (recorded IN (0, 1)),
    at_fault           TEXT    CHECK (at_fault IS NULL OR json_valid(at_fault)),
    created_at         INTEGER NOT NULL
);
CREATE INDEX tournament_matches_by_pairing ON tournament_matches (tournament_id, round, pairing);

-- What the presentation must show (the tournament message edited in place): a durable outbox,
-- written in the transaction of the change; the Discord layer reads and marks them delivered.
CREATE TABLE tournament_events (
    id                 INTEGER PRIMARY KEY,
    tournament_id      INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    kind               TEXT    NOT NULL,
    payload            TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(payload)),
    created_at         INTEGER NOT NULL,
    delivered          INTEGER NOT NULL DEFAULT 0 CHECK (delivered IN (0, 1))
);
CREATE INDEX tournament_events_pending ON tournament_events (tournament_id, id) WHERE delivered = 0;
