-- List totals read from index entries alone at a million containers (issue 14). A total counts
-- up to 1,000 matches (store/account-rows.ts); read off an index on an expression of the state
-- (migration 015's shipments_account_pol and _pod), each match costs a visit to its row, as
-- PostgreSQL answers from an index alone only what the index holds as plain columns: at 1M
-- containers, 1,000 rows spread over about 900 pages. So the ports
-- of lading and discharge are kept as columns, as 026 keeps port_locodes (same trigger), and the
-- shipments still tracked get an index of their own (filter[tracking_stopped]=false, most rows).
-- README "Lists at scale"; test/query-plans.test.ts checks the plans.
--
-- In steps (store/migrate.ts), as 026: adding the columns takes the table's strongest lock for a
-- moment only (no default, no rewrite); the backfill commits in batches; the indexes are built
-- CONCURRENTLY, writes going on. Every step may run again after a crash.
ALTER TABLE shipments ADD COLUMN IF NOT EXISTS pol_locode text, ADD COLUMN IF NOT EXISTS pod_locode text;

-- Migration 026's trigger (BEFORE INSERT OR UPDATE OF state) keeps them from now on.
CREATE OR REPLACE FUNCTION shipments_port_locodes_keep() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  NEW.port_locodes := shipment_port_locodes(NEW.state);
  NEW.pol_locode := NEW.state->>'port_of_lading_locode';
  NEW.pod_locode := NEW.state->>'port_of_discharge_locode';
  RETURN NEW;
END
$$;

-- migrate:step: the backfill, in batches of shipments by id, each committed. A batch locks its
-- shipments first, so a state written meanwhile waits for it and then sets the columns itself.
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
       SET pol_locode = s.state->>'port_of_lading_locode', pod_locode = s.state->>'port_of_discharge_locode'
     WHERE s.id = ANY(ids)
       AND (s.pol_locode, s.pod_locode) IS DISTINCT FROM (s.state->>'port_of_lading_locode', s.state->>'port_of_discharge_locode');
    after := ids[cardinality(ids)];
    COMMIT;
  END LOOP;
END
$$;

-- migrate:step: filter[pol_locode] and filter[pod_locode] in the list's order, as 015's indexes
-- on the state's expressions, which they replace. (A build that failed leaves an invalid index
-- behind: it is dropped and built again.)
DROP INDEX CONCURRENTLY IF EXISTS shipments_account_pol_locode;
-- migrate:step
CREATE INDEX CONCURRENTLY shipments_account_pol_locode ON shipments (account_id, pol_locode, created_at DESC, id DESC);
-- migrate:step
DROP INDEX CONCURRENTLY IF EXISTS shipments_account_pod_locode;
-- migrate:step
CREATE INDEX CONCURRENTLY shipments_account_pod_locode ON shipments (account_id, pod_locode, created_at DESC, id DESC);
-- migrate:step
DROP INDEX CONCURRENTLY IF EXISTS shipments_account_pol;
-- migrate:step
DROP INDEX CONCURRENTLY IF EXISTS shipments_account_pod;
-- migrate:step: the shipments still tracked, in the list's order: their page and total from this
-- index's entries (the predicate is store/tracking-lists.ts's, written exactly so).
DROP INDEX CONCURRENTLY IF EXISTS shipments_account_tracked;
-- migrate:step
CREATE INDEX CONCURRENTLY shipments_account_tracked ON shipments (account_id, created_at DESC, id DESC) WHERE line_tracking_stopped_at IS NULL;
