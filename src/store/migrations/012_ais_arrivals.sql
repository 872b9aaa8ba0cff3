-- AIS in the tracking engine: arrivals at the port of discharge seen before the carrier reports
-- them, ETAs re-estimated from the vessel's position and speed, and vessels learned from carriers.

-- Shipments whose port-of-discharge vessel is at sea (departed, not arrived) are what the AIS
-- pass looks at; this partial index keeps that scan proportional to the ships at sea, not to
-- every shipment ever tracked. The predicate matches shipmentsAtSea (src/store/ais-arrivals.ts).
CREATE INDEX shipments_at_sea ON shipments ((state->>'pod_vessel_imo'), (state->>'port_of_discharge_locode'))
  WHERE line_tracking_stopped_at IS NULL AND state->>'pod_ata_at' IS NULL
    AND state->>'pol_atd_at' IS NOT NULL AND state->>'pod_vessel_imo' IS NOT NULL;

-- One row per shipment whose arrival AIS saw first: when the vessel stopped in the port area
-- (arrived_at) and when svc noticed (detected_at). The milestone itself is an ordinary
-- transport_events row with data_source 'ais' that the carrier's event later overwrites; this
-- row keeps what AIS said, for audit and for measuring how much earlier AIS was.
CREATE TABLE ais_arrivals (
  shipment_id   uuid PRIMARY KEY REFERENCES shipments (id) ON DELETE CASCADE,
  account_id    uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  vessel_imo    text NOT NULL,
  port_locode   text NOT NULL,
  arrived_at    timestamptz NOT NULL,
  detected_at   timestamptz NOT NULL,
  latitude      real NOT NULL,
  longitude     real NOT NULL
);

-- The AIS estimate of a vessel's arrival at a port, one row per vessel and port: every shipment
-- aboard bound there shares it. Kept beside the carrier's ETA (shipments.state pod_eta_at), never
-- written over it.
CREATE TABLE ais_port_etas (
  vessel_imo     text NOT NULL,
  port_locode    text NOT NULL,
  eta_at         timestamptz NOT NULL,
  distance_nm    real NOT NULL,
  speed_knots    real NOT NULL,
  -- The position the estimate starts from.
  position_at    timestamptz NOT NULL,
  latitude       real NOT NULL,
  longitude      real NOT NULL,
  computed_at    timestamptz NOT NULL,
  PRIMARY KEY (vessel_imo, port_locode)
);

-- Vessels carriers named (IMO and name), whether or not the reference files list them. The
-- reference loader rewrites `vessels` and deletes rows its files lack, so what svc learns at run
-- time lives here; the AIS ingester matches against both (src/store/learned-vessels.ts).
CREATE TABLE learned_vessels (
  imo            text PRIMARY KEY,
  name           text,
  first_seen_at  timestamptz NOT NULL,
  last_seen_at   timestamptz NOT NULL
);

-- Vessels carriers named before this table existed.
INSERT INTO learned_vessels (imo, name, first_seen_at, last_seen_at)
  SELECT vessel_imo, max(vessel_name), min(created_at), max(created_at)
    FROM transport_events WHERE vessel_imo ~ '^[0-9]{7}$' GROUP BY vessel_imo;

