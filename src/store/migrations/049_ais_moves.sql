-- Vessel moves AIS saw before the carrier reported them, besides the arrival at the port of
-- discharge (ais_arrivals): departures from the port of lading and from transshipment ports, and
-- arrivals at transshipment ports. As with ais_arrivals, the milestone itself is a transport_events
-- row with data_source 'ais' that the carrier's event later overwrites; this row keeps what AIS
-- said and when svc noticed, for audit and for measuring how much earlier AIS was.
CREATE TABLE ais_moves (
  shipment_id   uuid NOT NULL REFERENCES shipments (id) ON DELETE CASCADE,
  account_id    uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  kind          text NOT NULL CHECK (kind IN ('departure', 'arrival')),
  port_locode   text NOT NULL,
  vessel_imo    text NOT NULL,
  -- The milestone recorded (container.transport.vessel_departed, transshipment_arrived…).
  event         text NOT NULL,
  occurred_at   timestamptz NOT NULL,
  detected_at   timestamptz NOT NULL,
  latitude      real NOT NULL,
  longitude     real NOT NULL,
  PRIMARY KEY (shipment_id, kind, port_locode)
);
