-- The duplicate rule also covers requests awaiting their manifest: awaiting_manifest is a pending
-- request the carrier has no data for yet. Left out, a second request for the same number was
-- accepted, and when the manifest came the first could never become `created` (the unique index
-- refused it on every attempt), so it stayed stuck.

-- Requests already stuck that way: keep the active one (pending or created, at most one), else the
-- oldest awaiting one, and fail the others as duplicates so the index can be built.
WITH ranked AS (
  SELECT id, row_number() OVER (PARTITION BY account_id, upper(request_number), scac
                                ORDER BY status = 'awaiting_manifest', created_at, id) AS n
    FROM tracking_requests
   WHERE status IN ('pending', 'awaiting_manifest', 'created')
)
UPDATE tracking_requests t
   SET status = 'failed', failed_reason = 'duplicate', is_retrying = false, next_attempt_at = NULL, locked_until = NULL, updated_at = now()
  FROM ranked r
 WHERE r.id = t.id AND r.n > 1;

-- Same name as before: the store maps a violation of this index to the `duplicate` error.
DROP INDEX tracking_requests_active_number;
CREATE UNIQUE INDEX tracking_requests_active_number
  ON tracking_requests (account_id, upper(request_number), scac) WHERE status IN ('pending', 'awaiting_manifest', 'created');

-- A milestone's terminal, so transport events relate to it. Carriers name terminals by SMDG
-- code, which repeats across ports (APMT), so it is looked up at the milestone's port; a FIRMS
-- code is unique and preferred. One definition of that rule for SQL and the tracking engine.
CREATE FUNCTION terminal_id_of(code text, locode text) RETURNS uuid
  LANGUAGE sql STABLE AS $$
    SELECT t.id FROM terminals t
     WHERE t.firms_code = terminal_id_of.code
        OR (t.smdg_code = terminal_id_of.code AND t.port_id = (SELECT l.id FROM locations l WHERE l.locode = terminal_id_of.locode))
     ORDER BY t.firms_code = terminal_id_of.code DESC NULLS LAST, t.id
     LIMIT 1
  $$;

-- Resolved when the milestone is recorded, since it is read far more often than written.
ALTER TABLE transport_events ADD COLUMN terminal_id uuid;
UPDATE transport_events SET terminal_id = terminal_id_of(terminal_code, location_locode) WHERE terminal_code IS NOT NULL;
