-- 0005: the durable outbox and match snapshots (the match service, second edition), and the unused
-- messages table goes.
--
-- outbox: what players must be told about a change (prompts, channel posts, results), written in
-- the transaction that makes the change, deleted once delivered; whatever is left at start-up is
-- delivered then (delivery is idempotent: a prompt no longer current is skipped).
CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY,                 -- delivery order
    match_id   INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    kind       TEXT    NOT NULL,                    -- started, events, prompt, reminder, timeout, finished, challenge_expired
    payload    TEXT    NOT NULL CHECK (json_valid(payload)),
    created_at INTEGER NOT NULL
);
CREATE INDEX outbox_by_match ON outbox (match_id, id);

-- snapshots: the latest saved state of a live match, so it is rebuilt from the snapshot and the
-- actions after it (idx >= upto) instead of its whole log. ``engine`` fingerprints the rules code:
-- a snapshot of another engine version is ignored (the match replays from its log).
CREATE TABLE snapshots (
    match_id   INTEGER PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
    upto       INTEGER NOT NULL CHECK (upto >= 0),  -- log entries included
    engine     TEXT    NOT NULL,
    state      BLOB    NOT NULL,
    created_at INTEGER NOT NULL
);

DROP INDEX IF EXISTS messages_by_match;
DROP TABLE IF EXISTS messages;
