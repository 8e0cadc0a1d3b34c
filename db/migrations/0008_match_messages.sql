-- 0008: where a match lives in Discord: its thread, its live board message and each seat's open
-- prompt message (bot/messages.py). Written by the Discord layer through the bot, never by the
-- match service; a restarted bot edits the same board and prompts instead of posting new ones.
CREATE TABLE match_messages (
    match_id    INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    kind        TEXT    NOT NULL CHECK (kind IN ('thread', 'board', 'prompt')),
    seat        INTEGER NOT NULL DEFAULT -1,   -- the seat of a prompt; -1 for the thread and the board
    channel_id  INTEGER NOT NULL,              -- the thread, the channel or the DM channel
    message_id  INTEGER,                       -- NULL for the thread itself
    posted_at   INTEGER NOT NULL,              -- unix seconds: boards older than about an hour are replaced
    PRIMARY KEY (match_id, kind, seat)
);
