-- AIS position retention (src/ais/retention.ts): old positions are thinned to one per vessel per
-- hour, then deleted. Both find rows by time alone: a BRIN index serves that at a tiny fraction
-- of a B-tree's size, as positions arrive in time order.
CREATE INDEX vessel_positions_at ON vessel_positions USING brin (at);

-- How far thinning has gone, so each run thins only the hours that came of age since the last
-- (rather than rescanning years of thinned positions). One row at most.
CREATE TABLE vessel_positions_thinned (
  singleton  boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  until      timestamptz NOT NULL
);
