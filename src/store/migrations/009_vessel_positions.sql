-- AIS: who each MMSI is, and where the vessels svc cares about have been.
--
-- Keyed by MMSI, not by vessels.id: the reference loader rewrites the vessels table from its
-- files (and deletes rows that are gone), so anything learned at run time lives beside it.
-- A vessel is joined to its MMSI through the IMO number its static reports (type 5) give.
CREATE TABLE ais_vessels (
  mmsi         integer PRIMARY KEY,
  imo          text,
  name         text,
  call_sign    text,
  ship_type    smallint,
  destination  text,
  -- When a static report last said this (positions alone never touch the row).
  updated_at   timestamptz NOT NULL
);
CREATE INDEX ais_vessels_imo ON ais_vessels (imo, updated_at DESC) WHERE imo IS NOT NULL;

-- Positions, downsampled by the ingester (a few minutes apart at sea), so years of them for
-- thousands of vessels stay small: real coordinates (about a metre of precision) and no
-- surrogate key. Null speed, course or heading: the report said "not available".
CREATE TABLE vessel_positions (
  mmsi             integer NOT NULL,
  at               timestamptz NOT NULL,
  latitude         real NOT NULL,
  longitude        real NOT NULL,
  speed_knots      real,
  course_degrees   real,
  heading_degrees  smallint,
  PRIMARY KEY (mmsi, at)
);
