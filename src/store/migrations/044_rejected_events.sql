-- Events of a carrier's answer that svc could not read (a member missing or of the wrong kind,
-- a date-time that is not one, an unknown event type). Each costs only itself: the answer's
-- other events are applied, and this one is kept as sent, with what was wrong, for the user to
-- see beside the raw events. The same payload sent again is the same rejected event.
CREATE TABLE rejected_events (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id      uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  shipment_id     uuid NOT NULL REFERENCES shipments (id) ON DELETE CASCADE,
  -- shipping_line, terminal, ais: who sent it.
  data_source     text NOT NULL,
  container_number text,
  source_event_id text,
  -- What of it could be read, for raw_events: type and code as sent, times where they parse.
  event_type      text,
  code            text,
  classifier      text,
  occurred_at     timestamptz,
  published_at    timestamptz,
  -- A few words (RejectionKind), counted; `reason` says it in full, naming the member.
  reason_kind     text NOT NULL,
  field           text,
  reason          text NOT NULL,
  payload         jsonb NOT NULL,
  payload_digest  text NOT NULL,
  received_at     timestamptz NOT NULL,
  UNIQUE (shipment_id, payload_digest)
);

-- The data-quality summary shown on the shipment and on each container: rejected events by
-- source and reason kind ({"shipping_line": {"bad_value": 2}}), kept up to date when rejected
-- events are stored, so reading a page of records costs no count. Nullable without a default:
-- a change of the catalogue alone, instant on any size; null reads as nothing rejected.
ALTER TABLE shipments ADD COLUMN IF NOT EXISTS rejected_event_counts jsonb;
ALTER TABLE containers ADD COLUMN IF NOT EXISTS rejected_event_counts jsonb;
