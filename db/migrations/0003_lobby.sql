-- 0003: lobbies. An open table (open_table = 1) is a pending match that anyone in the channel may
-- join with a button until the host starts it or it is full; seats may also leave before the start.
ALTER TABLE matches ADD COLUMN open_table INTEGER NOT NULL DEFAULT 0 CHECK (open_table IN (0, 1));
