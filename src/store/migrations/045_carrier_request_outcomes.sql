-- How requests to each carrier have been going, for `svc carriers list`: the last answer that
-- was read, the last failure and its reason in a few words (never a body, a header or a token),
-- since when the carrier has failed without a success in between, and until when the carrier's
-- Retry-After holds requests back. One row per SCAC, written by every process that asks carriers.
CREATE TABLE carrier_request_outcomes (
  scac                text PRIMARY KEY,
  last_success_at     timestamptz,
  last_failure_at     timestamptz,
  last_failure_reason text,
  failing_since       timestamptz,
  held_until          timestamptz
);
