-- The tracking engine: requests, the shipments and containers they become, and every event
-- recorded about them. Scheduled work lives in indexed columns (next_attempt_at, next_refresh_at)
-- claimed with leases, so any number of workers share it and the scheduler's cost follows the
-- work that is due, not the size of the tables.

CREATE TABLE shipments (
  id                               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id                       uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  scac                             text NOT NULL,
  request_type                     text NOT NULL,
  request_number                   text NOT NULL,
  bill_of_lading_number            text,
  booking_number                   text,
  ref_numbers                      text[] NOT NULL DEFAULT '{}',
  tags                             text[] NOT NULL DEFAULT '{}',
  customer_id                      uuid REFERENCES parties (id) ON DELETE SET NULL,
  -- The diff engine's ShipmentState (ports, vessel, voyage, ETD/ATD/ETA/ATA, zones).
  state                            jsonb NOT NULL DEFAULT '{}',
  line_tracking_last_attempted_at  timestamptz,
  line_tracking_last_succeeded_at  timestamptz,
  -- When the carrier last published anything new about this shipment.
  line_tracking_last_changed_at    timestamptz,
  line_tracking_stopped_at         timestamptz,
  line_tracking_stopped_reason     text,
  next_refresh_at                  timestamptz,
  locked_until                     timestamptz,
  created_at                       timestamptz NOT NULL,
  updated_at                       timestamptz NOT NULL
);
CREATE INDEX shipments_due ON shipments (next_refresh_at) WHERE next_refresh_at IS NOT NULL;
CREATE INDEX shipments_account_created ON shipments (account_id, created_at DESC, id DESC);
CREATE INDEX shipments_numbers ON shipments (account_id, upper(bill_of_lading_number), upper(booking_number), upper(request_number));

CREATE TABLE tracking_requests (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id      uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  request_number  text NOT NULL,
  request_type    text NOT NULL CHECK (request_type IN ('bill_of_lading', 'booking_number', 'container')),
  scac            text NOT NULL,
  status          text NOT NULL DEFAULT 'pending'
                  CHECK (status IN ('pending', 'awaiting_manifest', 'created', 'failed', 'tracking_stopped')),
  failed_reason   text,
  ref_numbers     text[] NOT NULL DEFAULT '{}',
  tags            text[] NOT NULL DEFAULT '{}',
  is_retrying     boolean NOT NULL DEFAULT false,
  retry_count     integer NOT NULL DEFAULT 0,
  customer_id     uuid REFERENCES parties (id) ON DELETE SET NULL,
  shipment_id     uuid REFERENCES shipments (id) ON DELETE SET NULL,
  awaiting_since  timestamptz,
  next_attempt_at timestamptz,
  locked_until    timestamptz,
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL
);
-- The duplicate rule, enforced by the database so concurrent requests cannot both win.
CREATE UNIQUE INDEX tracking_requests_active_number
  ON tracking_requests (account_id, upper(request_number), scac) WHERE status IN ('pending', 'created');
CREATE INDEX tracking_requests_due ON tracking_requests (next_attempt_at) WHERE next_attempt_at IS NOT NULL;
CREATE INDEX tracking_requests_account_created ON tracking_requests (account_id, created_at DESC, id DESC);

CREATE TABLE containers (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id   uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  shipment_id  uuid NOT NULL REFERENCES shipments (id) ON DELETE CASCADE,
  number       text NOT NULL,
  ref_numbers  text[] NOT NULL DEFAULT '{}',
  -- The diff engine's ContainerState (equipment, milestones, terminal data, current_status).
  state        jsonb NOT NULL DEFAULT '{}',
  created_at   timestamptz NOT NULL,
  updated_at   timestamptz NOT NULL,
  UNIQUE (shipment_id, number)
);
CREATE INDEX containers_account_number ON containers (account_id, number);
CREATE INDEX containers_account_created ON containers (account_id, created_at DESC, id DESC);

-- Milestones as svc reports them. `key` identifies the milestone (not the carrier's event id),
-- so a carrier re-sending it never makes a second one.
CREATE TABLE transport_events (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id       uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  shipment_id      uuid NOT NULL REFERENCES shipments (id) ON DELETE CASCADE,
  container_id     uuid NOT NULL REFERENCES containers (id) ON DELETE CASCADE,
  event            text NOT NULL,
  key              text NOT NULL,
  timestamp        timestamptz,
  timezone         text,
  location_locode  text,
  terminal_code    text,
  vessel_imo       text,
  vessel_name      text,
  voyage_number    text,
  data_source      text NOT NULL,
  source_event_id  text,
  -- When the carrier published it, and when svc received it: the data's freshness.
  published_at     timestamptz,
  created_at       timestamptz NOT NULL,
  UNIQUE (container_id, key)
);
CREATE INDEX transport_events_container ON transport_events (container_id, timestamp, id);

CREATE TABLE estimated_events (
  id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id           uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  shipment_id          uuid NOT NULL REFERENCES shipments (id) ON DELETE CASCADE,
  event                text NOT NULL,
  estimated_timestamp  timestamptz NOT NULL,
  previous_timestamp   timestamptz,
  timezone             text,
  location_locode      text,
  vessel_imo           text,
  vessel_name          text,
  voyage_number        text,
  data_source          text NOT NULL,
  published_at         timestamptz,
  created_at           timestamptz NOT NULL
);
CREATE INDEX estimated_events_shipment ON estimated_events (shipment_id, created_at);

CREATE TABLE container_updated_events (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id     uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  container_id   uuid NOT NULL REFERENCES containers (id) ON DELETE CASCADE,
  changeset      jsonb NOT NULL,
  terminal_code  text,
  timestamp      timestamptz NOT NULL,
  timezone       text,
  data_source    text NOT NULL DEFAULT 'terminal',
  created_at     timestamptz NOT NULL
);
CREATE INDEX container_updated_events_container ON container_updated_events (container_id, created_at);

-- The carrier's own events, exactly as received, beside their normalised names.
CREATE TABLE raw_events (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id       uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  shipment_id      uuid NOT NULL REFERENCES shipments (id) ON DELETE CASCADE,
  container_number text,
  source_event_id  text NOT NULL,
  event_type       text NOT NULL,
  code             text NOT NULL,
  classifier       text NOT NULL,
  occurred_at      timestamptz NOT NULL,
  location_locode  text,
  payload          jsonb NOT NULL,
  -- The normalised CarrierEvent, so an incremental refresh can be merged with what came before.
  normalized       jsonb NOT NULL,
  published_at     timestamptz NOT NULL,
  received_at      timestamptz NOT NULL,
  UNIQUE (shipment_id, source_event_id)
);
CREATE INDEX raw_events_container ON raw_events (shipment_id, container_number, occurred_at);

-- The outbox: every event svc emits, written in the same transaction as the change it
-- describes. Webhook delivery fans these out.
CREATE TABLE domain_events (
  id              bigserial PRIMARY KEY,
  account_id      uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  name            text NOT NULL,
  reference_type  text NOT NULL,
  reference_id    uuid NOT NULL,
  shipment_id     uuid,
  container_id    uuid,
  created_at      timestamptz NOT NULL
);
CREATE INDEX domain_events_account ON domain_events (account_id, id);
