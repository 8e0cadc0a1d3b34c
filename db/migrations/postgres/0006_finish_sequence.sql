-- 0006 (PostgreSQL edition of ../0006_finish_sequence.sql): the finish sequence.

ALTER TABLE matches ADD COLUMN finish_seq BIGINT;      -- NULL until the match is finished

-- Matches finished before this migration keep the order they were rated in: (finished_at, id).
UPDATE matches SET finish_seq = f.seq
  FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY finished_at, id) AS seq FROM matches WHERE status = 'finished') f
 WHERE f.id = matches.id;

CREATE UNIQUE INDEX matches_by_finish_seq ON matches (finish_seq) WHERE finish_seq IS NOT NULL;

-- Every way a match becomes finished takes the next number, in the transaction that finishes it.
-- SQLite writes one transaction at a time; here concurrent writers are serialized by a transaction
-- advisory lock, taken before MAX is read, so the numbers follow the commit order and MAX + 1 is never
-- handed out twice (the unique index would refuse it if it were).
CREATE FUNCTION matches_next_finish_seq() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.status = 'finished' AND NEW.finish_seq IS NULL THEN
        PERFORM pg_advisory_xact_lock(1179210323);  -- 'FINS'
        NEW.finish_seq := (SELECT COALESCE(MAX(finish_seq), 0) + 1 FROM matches WHERE finish_seq IS NOT NULL);
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER matches_finish_seq_on_update BEFORE UPDATE OF status ON matches
FOR EACH ROW EXECUTE FUNCTION matches_next_finish_seq();

CREATE TRIGGER matches_finish_seq_on_insert BEFORE INSERT ON matches
FOR EACH ROW EXECUTE FUNCTION matches_next_finish_seq();

ALTER TABLE rated_matches ADD COLUMN finish_seq BIGINT;
UPDATE rated_matches SET finish_seq = (SELECT m.finish_seq FROM matches m WHERE m.id = rated_matches.match_id);
ALTER TABLE rating_changes ADD COLUMN finish_seq BIGINT;
UPDATE rating_changes SET finish_seq = (SELECT m.finish_seq FROM matches m WHERE m.id = rating_changes.match_id);

DROP INDEX rated_matches_by_game;
CREATE INDEX rated_matches_by_game ON rated_matches (game, finish_seq);
DROP INDEX rating_changes_by_player;
CREATE INDEX rating_changes_by_player ON rating_changes (user_id, scope, game, finish_seq);
DROP INDEX matches_finished;
CREATE INDEX matches_finished ON matches (game, finish_seq) WHERE status = 'finished';
DROP INDEX matches_finished_by_guild;
CREATE INDEX matches_finished_by_guild ON matches (guild_id, finish_seq) WHERE status = 'finished';
