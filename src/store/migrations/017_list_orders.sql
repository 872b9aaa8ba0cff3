-- Lists at a million containers, the filters and orders migration 015 left to a sort of the
-- account's matches (issue 14): each now reads its page off an index in the list's order, or
-- sorts only the entries of an index it reads alone (no table rows), so a page costs about the
-- same at 10k as at 1M containers. README "Lists at scale"; test/query-plans.test.ts checks the plans.

-- Times in the shipments' state are ISO 8601 text. text::timestamptz is only STABLE (a text
-- without an offset would be read in the session's time zone), so it can be neither indexed nor
-- stored; read in UTC, the same text is always the same instant. A text that is no time gives
-- NULL rather than an error: the columns below are computed on every write of a shipment, and a
-- carrier's odd value must not stop its shipment from being saved (it is then in no range).
CREATE FUNCTION iso_instant(t text) RETURNS timestamptz
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE SET timezone = 'UTC'
  AS $$
  BEGIN
    RETURN t::timestamptz;
  EXCEPTION WHEN invalid_datetime_format OR datetime_field_overflow OR invalid_parameter_value THEN
    RETURN NULL;
  END
  $$;

-- The carrier's estimated arrival at the port of discharge (filter[pod_eta_at]), and the arrival
-- the list sorts by (sort=pod_arrival_at: the actual one once known, else the estimate), as
-- columns kept from the state: an index on a column, unlike one on an expression of the state,
-- answers an index-only scan, so a range's page and bounded count sort index entries, not rows.
-- (Adding them rewrites the table once.)
ALTER TABLE shipments
  ADD COLUMN pod_eta_instant timestamptz GENERATED ALWAYS AS (iso_instant(state->>'pod_eta_at')) STORED,
  ADD COLUMN pod_arrival_instant timestamptz GENERATED ALWAYS AS (iso_instant(coalesce(state->>'pod_ata_at', state->>'pod_eta_at'))) STORED;
CREATE INDEX shipments_account_pod_eta ON shipments (account_id, pod_eta_instant, created_at DESC, id DESC);
-- sort=pod_arrival_at either way (none last, equals newest first): a page is the first entries of one.
CREATE INDEX shipments_account_arrival ON shipments (account_id, pod_arrival_instant ASC NULLS LAST, created_at DESC, id DESC);
CREATE INDEX shipments_account_arrival_desc ON shipments (account_id, pod_arrival_instant DESC NULLS LAST, created_at DESC, id DESC);

-- sort=-updated_at with its ties newest first, and filter[updated_at] as the eta filter above.
-- They replace migration 008's (account_id, updated_at), their prefix.
DROP INDEX shipments_account_updated;
CREATE INDEX shipments_account_updated ON shipments (account_id, updated_at DESC, created_at DESC, id DESC);
DROP INDEX containers_account_updated;
CREATE INDEX containers_account_updated ON containers (account_id, updated_at DESC, created_at DESC, id DESC);

-- filter[on_hold]: whether any of a shipment's containers has an active hold at the discharge
-- terminal, kept on the shipment by the triggers below, so that the few shipments on hold are a
-- small index in the list's order rather than a probe of the containers for every shipment.
ALTER TABLE shipments ADD COLUMN on_hold boolean NOT NULL DEFAULT false;

-- The hold predicate store/tracking-lists.ts used to write (and migration 015 indexed).
CREATE FUNCTION container_on_hold(state jsonb) RETURNS boolean
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT state->'holds_at_pod_terminal' @> '[{"status": "hold"}]' $$;

-- Sets on_hold of the shipment(s) of the container changed, from all its containers.
CREATE FUNCTION shipments_on_hold_refresh() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  UPDATE shipments s
     SET on_hold = EXISTS (SELECT 1 FROM containers c WHERE c.shipment_id = s.id AND container_on_hold(c.state))
   WHERE s.id IN (NEW.shipment_id, OLD.shipment_id);
  RETURN NULL;
END
$$;

-- The WHEN clauses are checked without calling the function: a container written without a
-- change to its holds (nearly every write) costs nothing more.
CREATE TRIGGER containers_on_hold_inserted AFTER INSERT ON containers
  FOR EACH ROW WHEN (container_on_hold(NEW.state)) EXECUTE FUNCTION shipments_on_hold_refresh();
CREATE TRIGGER containers_on_hold_updated AFTER UPDATE OF state, shipment_id ON containers
  FOR EACH ROW WHEN (container_on_hold(OLD.state) IS DISTINCT FROM container_on_hold(NEW.state) OR OLD.shipment_id <> NEW.shipment_id)
  EXECUTE FUNCTION shipments_on_hold_refresh();
CREATE TRIGGER containers_on_hold_deleted AFTER DELETE ON containers
  FOR EACH ROW WHEN (container_on_hold(OLD.state)) EXECUTE FUNCTION shipments_on_hold_refresh();

UPDATE shipments s SET on_hold = true
 WHERE s.id IN (SELECT c.shipment_id FROM containers c WHERE container_on_hold(c.state));

CREATE INDEX shipments_account_on_hold ON shipments (account_id, created_at DESC, id DESC) WHERE on_hold;
DROP INDEX containers_on_hold;

-- A container's account beside its shipment in the index of (shipment_id, number): counting the
-- containers of matching shipments (containers filtered by their shipment, store/tracking-lists.ts)
-- then reads only index entries, not each container's row to check its account.
ALTER TABLE containers DROP CONSTRAINT containers_shipment_id_number_key,
  ADD CONSTRAINT containers_shipment_id_number_key UNIQUE (shipment_id, number) INCLUDE (account_id);
