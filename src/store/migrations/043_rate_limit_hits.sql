-- svc_rate_limit_hit counts several requests at once, all or none: an MCP batch counts as many
-- requests as it holds messages. More hits than the limit never fit (a whole window's wait).
DROP FUNCTION svc_rate_limit_hit(uuid, text, integer, interval, timestamptz);

CREATE FUNCTION svc_rate_limit_hit(p_key uuid, p_bucket text, p_limit integer, p_window interval, p_now timestamptz, p_hits integer DEFAULT 1)
RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  recent timestamptz[];
BEGIN
  -- A counter lost in a crash costs nothing worth an fsync on every request.
  PERFORM set_config('synchronous_commit', 'off', true);
  INSERT INTO rate_limit_windows (api_key_id, bucket) VALUES (p_key, p_bucket) ON CONFLICT DO NOTHING;
  SELECT coalesce(array(SELECT h FROM unnest(w.hits) AS h WHERE h > p_now - p_window ORDER BY h), '{}')
    INTO recent
    FROM rate_limit_windows w
   WHERE w.api_key_id = p_key AND w.bucket = p_bucket
     FOR UPDATE;
  IF cardinality(recent) + p_hits > p_limit THEN
    UPDATE rate_limit_windows SET hits = recent WHERE api_key_id = p_key AND bucket = p_bucket;
    IF p_hits > p_limit THEN
      RETURN ceil(extract(epoch FROM p_window) * 1000)::bigint;
    END IF;
    RETURN greatest(1, ceil(extract(epoch FROM recent[cardinality(recent) + p_hits - p_limit] + p_window - p_now) * 1000))::bigint;
  END IF;
  UPDATE rate_limit_windows SET hits = recent || array_fill(p_now, ARRAY[p_hits]) WHERE api_key_id = p_key AND bucket = p_bucket;
  RETURN 0;
END $$;
