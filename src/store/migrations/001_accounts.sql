-- Accounts own every record; API keys authenticate requests to /v2.
CREATE TABLE accounts (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name        text NOT NULL,
  is_default  boolean NOT NULL DEFAULT false,
  created_at  timestamptz NOT NULL DEFAULT now()
);
-- At most one default account: the one `npm start` creates and prints a key for.
CREATE UNIQUE INDEX accounts_one_default ON accounts (is_default) WHERE is_default;

-- Keys are stored as SHA-256 digests (they are 240-bit random, so a fast hash is enough);
-- prefix and last4 let a listing show which key is which without revealing it.
CREATE TABLE api_keys (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id  uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  name        text NOT NULL DEFAULT '',
  key_hash    bytea NOT NULL UNIQUE,
  key_prefix  text NOT NULL,
  key_last4   text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  revoked_at  timestamptz
);
CREATE INDEX api_keys_account ON api_keys (account_id);

-- Rolling-window rate limits shared by every API process: one row per key and bucket
-- holding the times of the requests accepted within the window.
CREATE TABLE rate_limit_windows (
  api_key_id  uuid NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
  bucket      text NOT NULL,
  hits        timestamptz[] NOT NULL DEFAULT '{}',
  PRIMARY KEY (api_key_id, bucket)
);

-- Records a request if the bucket has room and returns 0; otherwise records nothing and
-- returns the milliseconds until the oldest hit leaves the window. The row lock makes
-- concurrent callers (any number of processes) take turns.
CREATE FUNCTION svc_rate_limit_hit(p_key uuid, p_bucket text, p_limit integer, p_window interval, p_now timestamptz)
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
  IF cardinality(recent) >= p_limit THEN
    UPDATE rate_limit_windows SET hits = recent WHERE api_key_id = p_key AND bucket = p_bucket;
    RETURN greatest(1, ceil(extract(epoch FROM recent[cardinality(recent) - p_limit + 1] + p_window - p_now) * 1000))::bigint;
  END IF;
  UPDATE rate_limit_windows SET hits = recent || p_now WHERE api_key_id = p_key AND bucket = p_bucket;
  RETURN 0;
END $$;

-- Parties (customers) a tracking request can be attached to; names are unique per account.
CREATE TABLE parties (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id    uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  company_name  text NOT NULL,
  created_at    timestamptz NOT NULL,
  updated_at    timestamptz NOT NULL
);
CREATE UNIQUE INDEX parties_name_per_account ON parties (account_id, lower(company_name));
CREATE INDEX parties_account_created ON parties (account_id, created_at DESC, id);
