-- A shipment's refresh schedule in a narrow table of its own (issue 14, tracking throughput):
-- when to look it up next, and the lease of the worker looking it up. On `shipments` (22
-- indexes, wide rows) every claim and every "checked, nothing new" wrote a new version of the
-- whole row, and moving next_refresh_at (indexed) made it a new entry in every index. Here a claim
-- and a check write a row of three columns and two index entries; `shipments` keeps what the API
-- shows (line_tracking_last_*_at: no index covers them, so their update can be HOT).
--
-- A row for each shipment ever scheduled; next_refresh_at NULL: not scheduled (tracking stopped).
--
-- In steps (store/migrate.ts), each committing on its own, safe on a million shipments: the
-- table is created with a trigger that carries over what a process still running the previous
-- version writes meanwhile; the backfill commits in batches of shipments locked by id (a
-- concurrent write waits for its batch, then its trigger writes over it); the old columns (and
-- their index, shipments_due) are dropped last, a change of the catalogue alone. Every step may
-- run again after a crash (the migration is recorded after its last).
CREATE TABLE IF NOT EXISTS shipment_refreshes (
  shipment_id     uuid PRIMARY KEY REFERENCES shipments (id) ON DELETE CASCADE,
  next_refresh_at timestamptz,
  locked_until    timestamptz
);
-- The claim's range scan (leases.ts), stopped by its LIMIT: its cost follows the work due.
CREATE INDEX IF NOT EXISTS shipment_refreshes_due ON shipment_refreshes (next_refresh_at) WHERE next_refresh_at IS NOT NULL;

DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'shipments' AND column_name = 'next_refresh_at') THEN
    CREATE OR REPLACE FUNCTION shipment_refreshes_carry_over() RETURNS trigger LANGUAGE plpgsql AS $f$
    BEGIN
      IF NEW.next_refresh_at IS NOT NULL OR NEW.locked_until IS NOT NULL OR TG_OP = 'UPDATE' THEN
        INSERT INTO shipment_refreshes (shipment_id, next_refresh_at, locked_until) VALUES (NEW.id, NEW.next_refresh_at, NEW.locked_until)
          ON CONFLICT (shipment_id) DO UPDATE SET next_refresh_at = EXCLUDED.next_refresh_at, locked_until = EXCLUDED.locked_until;
      END IF;
      RETURN NULL;
    END
    $f$;
    CREATE OR REPLACE TRIGGER shipment_refreshes_carried_over AFTER INSERT OR UPDATE OF next_refresh_at, locked_until ON shipments
      FOR EACH ROW EXECUTE FUNCTION shipment_refreshes_carry_over();
  END IF;
END
$$;

-- migrate:step: the backfill, in batches of shipments by id, each committed.
DO $$
DECLARE
  after uuid := '00000000-0000-0000-0000-000000000000';
  ids uuid[];
BEGIN
  IF NOT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'shipments' AND column_name = 'next_refresh_at') THEN
    RETURN;
  END IF;
  LOOP
    EXECUTE 'SELECT array_agg(id ORDER BY id) FROM (SELECT id FROM shipments WHERE id > $1 ORDER BY id LIMIT 5000 FOR UPDATE) batch' INTO ids USING after;
    EXIT WHEN ids IS NULL;
    EXECUTE 'INSERT INTO shipment_refreshes (shipment_id, next_refresh_at, locked_until)
             SELECT id, next_refresh_at, locked_until FROM shipments
              WHERE id = ANY($1) AND (next_refresh_at IS NOT NULL OR locked_until IS NOT NULL)
             ON CONFLICT (shipment_id) DO UPDATE SET next_refresh_at = EXCLUDED.next_refresh_at, locked_until = EXCLUDED.locked_until' USING ids;
    after := ids[cardinality(ids)];
    COMMIT;
  END LOOP;
END
$$;

-- migrate:step: the old columns go, with their index and the trigger.
DROP TRIGGER IF EXISTS shipment_refreshes_carried_over ON shipments;
DROP FUNCTION IF EXISTS shipment_refreshes_carry_over();
ALTER TABLE shipments DROP COLUMN IF EXISTS next_refresh_at, DROP COLUMN IF EXISTS locked_until;
