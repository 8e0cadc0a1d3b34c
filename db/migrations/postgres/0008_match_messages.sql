-- 0008 (PostgreSQL edition of ../0008_match_messages.sql): where a match lives in Discord; ids are BIGINT.
CREATE TABLE match_messages (
    match_id    BIGINT  NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    kind        TEXT    NOT NULL CHECK (kind IN ('thread', 'board', 'prompt')),
    seat        INTEGER NOT NULL DEFAULT -1,   -- the seat of a prompt; -1 for the thread and the board
    channel_id  BIGINT  NOT NULL,              -- the thread, the channel or the DM channel
    message_id  BIGINT,                        -- NULL for the thread itself
    posted_at   BIGINT  NOT NULL,              -- unix seconds: boards older than about an hour are replaced
    PRIMARY KEY (match_id, kind, seat)
);
