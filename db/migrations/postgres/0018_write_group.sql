-- 0018 (PostgreSQL only; the SQLite file is empty): a group of batches committed in one statement,
-- one round trip to the server (issue 33, part 3). db/postgres.py sends the group's statements with
-- their parameters; each statement's parameters are read from a JSON array of strings, cast to the
-- types the server gave when the statement was first prepared (db/pg_group.py), so every statement
-- runs exactly as it would have on its own. The call runs in its own implicit transaction: all
-- committed when it returns, nothing when it fails.
--
-- wr_write_batch runs statements p_from..p_to (1-based) and returns the id each one returned (an
-- INSERT ... RETURNING id; null for the others). A statement with an expected row count (p_expect
-- >= 0; a guarded UPDATE) that touches another number of rows raises SQLSTATE WR001 ("stale
-- write"), which rolls the batch back.
CREATE FUNCTION wr_write_batch(p_sql TEXT[], p_args JSONB, p_expect INTEGER[], p_returns INTEGER[],
                               p_from INTEGER, p_to INTEGER) RETURNS JSONB
LANGUAGE plpgsql AS $$
DECLARE
    v_ids JSONB := '[]';
    v_id BIGINT;
    v_row RECORD;
    v_count BIGINT;
BEGIN
    FOR i IN p_from .. p_to LOOP
        v_id := NULL;
        IF p_returns[i] = 1 THEN
            EXECUTE p_sql[i] INTO v_id USING p_args -> (i - 1);
        ELSIF p_returns[i] = 2 THEN
            EXECUTE p_sql[i] INTO v_row USING p_args -> (i - 1);
        ELSE
            EXECUTE p_sql[i] USING p_args -> (i - 1);
        END IF;
        GET DIAGNOSTICS v_count = ROW_COUNT;
        IF p_expect[i] >= 0 AND v_count <> p_expect[i] THEN
            RAISE EXCEPTION 'stale write: % rows, % expected: %', v_count, p_expect[i], p_sql[i]
                USING ERRCODE = 'WR001';
        END IF;
        v_ids := v_ids || COALESCE(to_jsonb(v_id), 'null'::JSONB);
    END LOOP;
    RETURN v_ids;
END;
$$;

-- The group: p_ends[b] is the last statement of batch b. With p_alone (a group of one batch) an
-- error ends the call, as the statement would have; otherwise each batch runs in a subtransaction
-- of its own (a savepoint), and a batch that fails is rolled back alone: its entry in the result is
-- {"error": SQLSTATE, "message": ...}, the others' {"ids": [...]}.
CREATE FUNCTION wr_write_group(p_sql TEXT[], p_args JSONB, p_expect INTEGER[], p_returns INTEGER[],
                               p_ends INTEGER[], p_alone BOOLEAN) RETURNS JSONB
LANGUAGE plpgsql AS $$
DECLARE
    v_out JSONB := '[]';
    v_from INTEGER := 1;
BEGIN
    IF p_alone THEN
        RETURN jsonb_build_array(jsonb_build_object(
            'ids', wr_write_batch(p_sql, p_args, p_expect, p_returns, 1, p_ends[1])));
    END IF;
    FOR b IN 1 .. COALESCE(array_length(p_ends, 1), 0) LOOP
        BEGIN
            v_out := v_out || jsonb_build_array(jsonb_build_object(
                'ids', wr_write_batch(p_sql, p_args, p_expect, p_returns, v_from, p_ends[b])));
        EXCEPTION WHEN OTHERS THEN
            v_out := v_out || jsonb_build_array(jsonb_build_object('error', SQLSTATE, 'message', SQLERRM));
        END;
        v_from := p_ends[b] + 1;
    END LOOP;
    RETURN v_out;
END;
$$;
