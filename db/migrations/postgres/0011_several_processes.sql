-- 0011: several bot processes on one database (issue 17, part 3); the PostgreSQL edition (64-bit
-- times). See db/migrations/0011_several_processes.sql.
ALTER TABLE matches ADD COLUMN version BIGINT NOT NULL DEFAULT 0;

ALTER TABLE seats ADD COLUMN claimed_by TEXT;
ALTER TABLE seats ADD COLUMN claimed_until BIGINT;

ALTER TABLE outbox ADD COLUMN claimed_by TEXT;
ALTER TABLE outbox ADD COLUMN claimed_until BIGINT;
CREATE INDEX outbox_by_claim ON outbox (claimed_until, id);
