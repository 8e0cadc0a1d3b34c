-- 0019 (PostgreSQL only; the SQLite file is empty): a batch written alone (a group of one, as every
-- move is when the server is not saturated) runs as the function of its shape: its statements as
-- static SQL, which PL/pgSQL plans once per connection and keeps (EXECUTE, which wr_write_batch
-- uses, parses and plans its text on every call). db/pg_group.py creates each shape's function,
-- named wr_batch_<hash of its text>, the first time a process meets the shape (or finds it made by
-- another process or an earlier run).
--
-- Every shape is called through this one statement, so that each connection prepares one call, not
-- one per shape: p_name is the function (a name db/pg_group.py made), p_args its parameters; the
-- answer is the function's (each statement's inserted id, or null).
CREATE FUNCTION wr_call_batch(p_name TEXT, p_args JSONB) RETURNS JSONB
LANGUAGE plpgsql AS $$
DECLARE
    v_out JSONB;
BEGIN
    IF p_name !~ '^wr_batch_[0-9a-f]+$' THEN
        RAISE EXCEPTION 'not a batch function: %', p_name USING ERRCODE = '42883';
    END IF;
    EXECUTE 'SELECT ' || p_name || '($1)' INTO v_out USING p_args;
    RETURN v_out;
END;
$$;
