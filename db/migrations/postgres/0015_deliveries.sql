-- 0015: each message once (issue 30, part 3): see the SQLite edition. PostgreSQL's identity never
-- hands out an outbox id twice, so only the deliveries table is new here.
CREATE TABLE deliveries (
    notice_id  BIGINT NOT NULL REFERENCES outbox (id) ON DELETE CASCADE,
    slot       TEXT   NOT NULL,
    channel_id BIGINT NOT NULL,
    message_id BIGINT NOT NULL,
    PRIMARY KEY (notice_id, slot)
);
