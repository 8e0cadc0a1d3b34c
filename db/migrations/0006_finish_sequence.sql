-- 0006: the finish sequence. Ratings are computed in one total order. Until now it was
-- (finished_at, id), and finished_at is whole seconds, so a match finishing in the same second as
-- one with a higher id, but after it, was "earlier" and had to re-rate the other. finish_seq numbers
-- finished matches 1, 2, 3, ... in the order they finish, so a match that finishes is always the
-- last one: it is rated on its own. See docs/ratings.md.

ALTER TABLE matches ADD COLUMN finish_seq INTEGER;      -- NULL until the match is finished

-- Matches finished before this migration keep the order they were rated in: (finished_at, id).
CREATE TEMP TABLE finish_order (id INTEGER PRIMARY KEY, seq INTEGER NOT NULL);
INSERT INTO temp.finish_order (id, seq)
    SELECT id, ROW_NUMBER() OVER (ORDER BY finished_at, id) FROM matches WHERE status = 'finished';
UPDATE matches SET finish_seq = (SELECT seq FROM temp.finish_order f WHERE f.id = matches.id)
    WHERE status = 'finished';
DROP TABLE temp.finish_order;

CREATE UNIQUE INDEX matches_by_finish_seq ON matches (finish_seq) WHERE finish_seq IS NOT NULL;

-- Every way a match becomes finished takes the next number, in the transaction that finishes it.
-- (SQLite writes one transaction at a time, so MAX + 1 is never handed out twice, and the unique index
-- would refuse it if it were.)
CREATE TRIGGER matches_finish_seq_on_update AFTER UPDATE OF status ON matches
WHEN NEW.status = 'finished' AND NEW.finish_seq IS NULL
BEGIN
    UPDATE matches
       SET finish_seq = (SELECT COALESCE(MAX(finish_seq), 0) + 1 FROM matches WHERE finish_seq IS NOT NULL)
     WHERE id = NEW.id;
END;

CREATE TRIGGER matches_finish_seq_on_insert AFTER INSERT ON matches
WHEN NEW.status = 'finished' AND NEW.finish_seq IS NULL
BEGIN
    UPDATE matches
       SET finish_seq = (SELECT COALESCE(MAX(finish_seq), 0) + 1 FROM matches WHERE finish_seq IS NOT NULL)
     WHERE id = NEW.id;
END;

-- The rating tables carry the match's number, as they carry its finished_at, so that histories and
-- "what was rated after this" are sorted by an index without a join.
ALTER TABLE rated_matches ADD COLUMN finish_seq INTEGER;
UPDATE rated_matches SET finish_seq = (SELECT m.finish_seq FROM matches m WHERE m.id = rated_matches.match_id);
ALTER TABLE rating_changes ADD COLUMN finish_seq INTEGER;
UPDATE rating_changes SET finish_seq = (SELECT m.finish_seq FROM matches m WHERE m.id = rating_changes.match_id);

-- The finish-order indexes of 0004, now in sequence order.
DROP INDEX rated_matches_by_game;
CREATE INDEX rated_matches_by_game ON rated_matches (game, finish_seq);
DROP INDEX rating_changes_by_player;
CREATE INDEX rating_changes_by_player ON rating_changes (user_id, scope, game, finish_seq);
DROP INDEX matches_finished;
CREATE INDEX matches_finished ON matches (game, finish_seq) WHERE status = 'finished';
DROP INDEX matches_finished_by_guild;
CREATE INDEX matches_finished_by_guild ON matches (guild_id, finish_seq) WHERE status = 'finished';
