-- 0011: several bot processes on one database (issue 17, part 3).
--
-- matches.version: bumped by every write that changes a live match's game (its log, deadlines,
-- start and end); each such write is guarded by it (UPDATE ... WHERE version = ?, one row or the
-- whole batch is rolled back), so a process whose cached copy is behind reloads and retries.
ALTER TABLE matches ADD COLUMN version INTEGER NOT NULL DEFAULT 0;

-- A timed-out seat is claimed by one process for a short lease before it handles the time-out
-- (a process killed meanwhile leaves a claim that expires, and another takes it over).
ALTER TABLE seats ADD COLUMN claimed_by TEXT;
ALTER TABLE seats ADD COLUMN claimed_until INTEGER;

-- A notice belongs to the process that wrote it until its lease ends; notices a dead process left
-- behind are claimed by one other process and delivered once.
ALTER TABLE outbox ADD COLUMN claimed_by TEXT;
ALTER TABLE outbox ADD COLUMN claimed_until INTEGER;
CREATE INDEX outbox_by_claim ON outbox (claimed_until, id);
