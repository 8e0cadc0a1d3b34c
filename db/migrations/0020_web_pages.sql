-- 0020: whether a server's matches have pages on the web table (issue 35, part 4: /settings web;
-- docs/web.md). NULL: the default, on; 0: off (the pages answer "No such match" and the cards carry
-- no link). The same SQL runs on PostgreSQL (no edition there).
ALTER TABLE server_settings ADD COLUMN web INTEGER CHECK (web IN (0, 1));
