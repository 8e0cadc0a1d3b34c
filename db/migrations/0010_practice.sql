-- 0010: computer players and practice matches (issue 16).
--
-- seats.ai: the level of a computer player ('easy', 'normal', 'hard') in that seat; NULL: a person.
-- A computer seat's user_id is a reserved negative id (Discord ids are positive), one per computer
-- at a table (bot/matches/computer.py), with a players row like anyone else's.
-- matches.practice: a match with a computer player. It is recorded and replayable like any other,
-- but never rated: it is not queued for rating and the ratings (and their rebuild) leave it out.
ALTER TABLE seats ADD COLUMN ai TEXT CHECK (ai IS NULL OR ai IN ('easy', 'normal', 'hard'));
ALTER TABLE matches ADD COLUMN practice INTEGER NOT NULL DEFAULT 0 CHECK (practice IN (0, 1));

-- The computer seats waiting to move (the timer finds any a restart left without a thinker).
CREATE INDEX seats_ai_awaited ON seats (match_id, seat) WHERE ai IS NOT NULL AND deadline_at IS NOT NULL;
-- A player's practice record (/profile).
CREATE INDEX matches_practice ON matches (game, id) WHERE practice = 1 AND status = 'finished';
