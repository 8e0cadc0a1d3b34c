-- 0014: a player's tournaments found by their user id (issue 18): /profile's tournament results
-- (db/tournaments.py ``finished_entered``: entrants JOIN tournaments WHERE e.user_id = ?) read an
-- index rather than every entrant row; the primary key (tournament_id, user_id) cannot serve a
-- search by user alone. The same SQL runs on PostgreSQL (no edition there).
CREATE INDEX tournament_entrants_by_user ON tournament_entrants (user_id);
