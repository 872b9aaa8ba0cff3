-- Reference data shipped in refdata/ and loaded by src/refdata/seed.ts. Ids are
-- name-based UUIDs computed by the loader, so they are the same on every install.

-- UN/LOCODE locations. The API shows a row as a port (is_seaport) and/or as a metro
-- area (is_inland_hub, is_rail or is_icd); one table keeps the two views of a place in step.
CREATE TABLE locations (
  id             uuid PRIMARY KEY,
  locode         text NOT NULL,
  name           text NOT NULL,
  country_code   text NOT NULL,
  state_abbr     text,
  city           text NOT NULL,
  latitude       double precision,
  longitude      double precision,
  time_zone      text,
  is_seaport     boolean NOT NULL,
  is_rail        boolean NOT NULL,
  is_icd         boolean NOT NULL,
  is_inland_hub  boolean NOT NULL,
  alias_of       text
);
-- LOCODEs are stored upper case; lookups upper-case their argument.
CREATE UNIQUE INDEX locations_locode ON locations (locode);

CREATE TABLE shipping_lines (
  id                                 uuid PRIMARY KEY,
  scac                               text NOT NULL,
  name                               text NOT NULL,
  short_name                         text NOT NULL,
  alternative_scacs                  text[] NOT NULL DEFAULT '{}',
  bill_of_lading_tracking_support    boolean NOT NULL,
  booking_number_tracking_support    boolean NOT NULL,
  container_number_tracking_support  boolean NOT NULL,
  carrier_group                      text,
  smdg_code                          text,
  bl_prefixes                        text[] NOT NULL DEFAULT '{}',
  container_prefixes                 text[] NOT NULL DEFAULT '{}'
);
CREATE UNIQUE INDEX shipping_lines_scac ON shipping_lines (scac);
-- Listing sorts by lower(name) and searches match on it.
CREATE INDEX shipping_lines_lower_name ON shipping_lines (lower(name));

-- A location that disappears from a new refdata release takes its terminals with it;
-- the terminal loader, whose content hash covers ports.csv, then reloads them anyway.
CREATE TABLE terminals (
  id          uuid PRIMARY KEY,
  name        text NOT NULL,
  nickname    text,
  firms_code  text,
  smdg_code   text,
  city        text,
  state_abbr  text,
  country     text NOT NULL,
  port_id     uuid NOT NULL REFERENCES locations (id) ON DELETE CASCADE,
  latitude    double precision,
  longitude   double precision
);
CREATE INDEX terminals_port ON terminals (port_id);
-- Neither code is unique: SMDG codes repeat across ports (APMT) and FIRMS codes may in future files.
CREATE INDEX terminals_firms_code ON terminals (firms_code) WHERE firms_code IS NOT NULL;
CREATE INDEX terminals_smdg_code ON terminals (smdg_code) WHERE smdg_code IS NOT NULL;

CREATE TABLE rail_terminals (
  id             uuid PRIMARY KEY,
  name           text NOT NULL,
  nickname       text,
  firms_code     text,
  port_id        uuid REFERENCES locations (id) ON DELETE CASCADE,
  metro_area_id  uuid NOT NULL REFERENCES locations (id) ON DELETE CASCADE
);
CREATE INDEX rail_terminals_port ON rail_terminals (port_id) WHERE port_id IS NOT NULL;
CREATE INDEX rail_terminals_metro_area ON rail_terminals (metro_area_id);

CREATE TABLE vessels (
  id        uuid PRIMARY KEY,
  name      text NOT NULL,
  imo       text NOT NULL,
  mmsi      text,
  operator  text
);
CREATE UNIQUE INDEX vessels_imo ON vessels (imo);

-- One row per dataset: the hash of the source files last loaded, so a restart with
-- unchanged files skips the load.
CREATE TABLE refdata_versions (
  dataset       text PRIMARY KEY,
  content_hash  text NOT NULL,
  loaded_at     timestamptz NOT NULL DEFAULT now()
);
