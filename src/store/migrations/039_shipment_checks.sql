-- A check that finds the carrier's answer applied already (saveChecks) is recorded on the
-- schedule row alone (issue 14, tracking throughput). It wrote the shipment's
-- line_tracking_last_attempted_at and _succeeded_at too: a new version of the wide shipments row
-- on every check (most lookups), a third of PostgreSQL's CPU per check in bench:tracking. The
-- time of the last such check is kept here instead, and whatever shows or sorts by those two
-- attributes takes the later of the two times (shipment-refreshes.ts).
--
-- A nullable column without a default: a change of the catalogue alone, instant on any size.
ALTER TABLE shipment_refreshes ADD COLUMN IF NOT EXISTS last_checked_at timestamptz;
