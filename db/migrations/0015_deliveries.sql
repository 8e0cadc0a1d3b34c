-- 0015: each message once (issue 30, part 3).
--
-- deliveries: the Discord messages a notice produced, one row per slot (its prompt, the board, a
-- story post, the end card...), recorded as each is sent. A notice delivered again (after a crash,
-- or by another process once the first one's lease ended) edits the messages it already produced
-- instead of posting them again. The rows go with their outbox row.
--
-- On SQLite the outbox's ids become AUTOINCREMENT: an id is never handed out twice (a plain
-- INTEGER PRIMARY KEY reuses the largest id once it is deleted), so a slot, and the nonce its
-- message is sent with, always belong to one notice. (PostgreSQL's identity never reuses one.)
CREATE TABLE outbox_new (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,  -- delivery order
    match_id      INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    kind          TEXT    NOT NULL,
    payload       TEXT    NOT NULL CHECK (json_valid(payload)),
    created_at    INTEGER NOT NULL,
    claimed_by    TEXT,
    claimed_until INTEGER
);
INSERT INTO outbox_new (id, match_id, kind, payload, created_at, claimed_by, claimed_until)
    SELECT id, match_id, kind, payload, created_at, claimed_by, claimed_until FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_new RENAME TO outbox;
CREATE INDEX outbox_by_match ON outbox (match_id, id);
CREATE INDEX outbox_by_claim ON outbox (claimed_until, id);

CREATE TABLE deliveries (
    notice_id  INTEGER NOT NULL REFERENCES outbox (id) ON DELETE CASCADE,
    slot       TEXT    NOT NULL,  -- which message of the notice: "prompt", "board", "story", "card"...
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (notice_id, slot)
);
