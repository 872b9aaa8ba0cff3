-- Shipments filtered by their containers' statuses, and by a port of any leg, at a million
-- containers (issue 14): both kept as arrays on the shipment, read in the list's order off one
-- index's entries. README "Lists at scale"; test/query-plans.test.ts checks the plans.
--
-- In steps (store/migrate.ts), each committing on its own, so that no lock is held for the
-- length of the backfill: adding the columns takes the table's strongest lock for a moment only
-- (constant defaults, no rewrite); the backfill commits in batches, holding a few thousand rows
-- at a time; the indexes are built CONCURRENTLY, writes going on. Every step may run again after
-- a crash (the migration is recorded after its last).

-- filter[status] on shipments: the distinct statuses of a shipment's containers (as the API
-- reports one: the stored one, else new), sorted. filter[port]: the port of lading, of discharge
-- and the destination, one condition for the three legs instead of an OR over three indexes.
ALTER TABLE shipments ADD COLUMN IF NOT EXISTS container_statuses text[] NOT NULL DEFAULT '{}',
  ADD COLUMN IF NOT EXISTS port_locodes text[] NOT NULL DEFAULT '{}';

-- What the shipment keeps of its containers, from all of them: on_hold (migration 017) and the
-- statuses. One function for both, so a container's write updates its shipment once at most,
-- and not at all when neither changes.
CREATE OR REPLACE FUNCTION shipments_from_containers_refresh() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  UPDATE shipments s
     SET on_hold = kept.on_hold, container_statuses = kept.statuses
    FROM (SELECT sh.id,
                 coalesce(bool_or(container_on_hold(c.state)), false) AS on_hold,
                 coalesce(array_agg(DISTINCT coalesce(c.state->>'current_status', 'new') ORDER BY coalesce(c.state->>'current_status', 'new'))
                            FILTER (WHERE c.id IS NOT NULL), '{}') AS statuses
            FROM unnest(ARRAY[NEW.shipment_id, OLD.shipment_id]) sh(id)
            LEFT JOIN containers c ON c.shipment_id = sh.id
           WHERE sh.id IS NOT NULL
           GROUP BY sh.id) kept
   WHERE s.id = kept.id AND (s.on_hold, s.container_statuses) IS DISTINCT FROM (kept.on_hold, kept.statuses);
  RETURN NULL;
END
$$;

DROP TRIGGER IF EXISTS containers_on_hold_inserted ON containers;
DROP TRIGGER IF EXISTS containers_on_hold_updated ON containers;
DROP TRIGGER IF EXISTS containers_on_hold_deleted ON containers;
DROP FUNCTION IF EXISTS shipments_on_hold_refresh();

-- Every new or removed container has a status; an update fires only when its status, its hold or
-- its shipment changes (the WHEN clause is checked without calling the function).
CREATE OR REPLACE TRIGGER containers_to_shipment_inserted AFTER INSERT ON containers
  FOR EACH ROW EXECUTE FUNCTION shipments_from_containers_refresh();
CREATE OR REPLACE TRIGGER containers_to_shipment_updated AFTER UPDATE OF state, shipment_id ON containers
  FOR EACH ROW WHEN (
    coalesce(OLD.state->>'current_status', 'new') IS DISTINCT FROM coalesce(NEW.state->>'current_status', 'new')
    OR container_on_hold(OLD.state) IS DISTINCT FROM container_on_hold(NEW.state)
    OR OLD.shipment_id <> NEW.shipment_id)
  EXECUTE FUNCTION shipments_from_containers_refresh();
CREATE OR REPLACE TRIGGER containers_to_shipment_deleted AFTER DELETE ON containers
  FOR EACH ROW EXECUTE FUNCTION shipments_from_containers_refresh();

CREATE OR REPLACE FUNCTION shipment_port_locodes(state jsonb) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT array_remove(ARRAY[state->>'port_of_lading_locode', state->>'port_of_discharge_locode', state->>'destination_locode'], NULL) $$;

-- (A generated column would rewrite the table under its strongest lock to be added.)
CREATE OR REPLACE FUNCTION shipments_port_locodes_keep() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  NEW.port_locodes := shipment_port_locodes(NEW.state);
  RETURN NEW;
END
$$;
CREATE OR REPLACE TRIGGER shipments_port_locodes_kept BEFORE INSERT OR UPDATE OF state ON shipments
  FOR EACH ROW EXECUTE FUNCTION shipments_port_locodes_keep();

-- migrate:step: the backfill, in batches of shipments by id, each committed. A batch locks its
-- shipments first, then computes from what is committed by then: a container written meanwhile
-- has its trigger wait for the batch and write its shipment after it, from its own view.
DO $$
DECLARE
  after uuid := '00000000-0000-0000-0000-000000000000';
  ids uuid[];
BEGIN
  LOOP
    SELECT array_agg(id ORDER BY id) INTO ids
      FROM (SELECT id FROM shipments WHERE id > after ORDER BY id LIMIT 5000 FOR UPDATE) batch;
    EXIT WHEN ids IS NULL;
    UPDATE shipments s
       SET port_locodes = shipment_port_locodes(s.state),
           container_statuses = coalesce((SELECT array_agg(DISTINCT coalesce(c.state->>'current_status', 'new') ORDER BY coalesce(c.state->>'current_status', 'new'))
                                            FROM containers c WHERE c.shipment_id = s.id), '{}')
     WHERE s.id = ANY(ids);
    after := ids[cardinality(ids)];
    COMMIT;
  END LOOP;
END
$$;

-- migrate:step: Both filters' pages in the list's order: a walk of this index that reads the two
-- arrays from its entries, not from the rows, for a value many shipments have (a page, and the
-- bounded count, stop after as many matches however large the account). A value few shipments
-- have is found through its GIN index below and its matches sorted; the planner tells the two
-- apart by the arrays' statistics (the statements are planned for their values, store/account-rows.ts).
-- (A build that failed leaves an invalid index behind: it is dropped and built again.)
DROP INDEX CONCURRENTLY IF EXISTS shipments_account_journey;
-- migrate:step
CREATE INDEX CONCURRENTLY shipments_account_journey ON shipments (account_id, created_at DESC, id DESC) INCLUDE (container_statuses, port_locodes);
-- migrate:step
DROP INDEX CONCURRENTLY IF EXISTS shipments_container_statuses;
-- migrate:step
CREATE INDEX CONCURRENTLY shipments_container_statuses ON shipments USING gin (container_statuses);
-- migrate:step
DROP INDEX CONCURRENTLY IF EXISTS shipments_port_locodes;
-- migrate:step
CREATE INDEX CONCURRENTLY shipments_port_locodes ON shipments USING gin (port_locodes);
