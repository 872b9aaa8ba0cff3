-- Lists, filters and search at a million containers (issue 14): every statement of
-- store/search.ts, store/tracking-lists.ts and the other lists finds its rows through an index,
-- never by reading an account's (or every account's) rows. test/query-plans.test.ts checks the
-- plans; README "Lists at scale" says what each index is for.

-- Substring search of numbers. pg_trgm (shipped with PostgreSQL, a trusted extension) indexes the
-- three-letter pieces of a text, so `LIKE '%MSCU123%'` reads only the rows holding all its pieces.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- All of a record's numbers in one text, each bare (migration 013's rule) and separated by a
-- space. A bare search string has no space, so it is found in this text exactly when it is found
-- in one of the numbers: one trigram index per table answers a search over all of its numbers.
-- (One aggregate over bare_number, which is inlined: three times cheaper per row than joining
-- bare_numbers' array, and every insert and update of an indexed row computes it.)
CREATE FUNCTION bare_numbers_text(numbers text[]) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT coalesce(string_agg(bare_number(n), ' '), '') FROM unnest(numbers) n $$;

-- The expressions are those of store/search.ts (searchableNumbers), written exactly so.
CREATE INDEX shipments_numbers_trgm ON shipments
  USING gin (bare_numbers_text(ARRAY[request_number, bill_of_lading_number, booking_number] || ref_numbers) gin_trgm_ops);
CREATE INDEX containers_numbers_trgm ON containers USING gin (bare_numbers_text(ARRAY[number] || ref_numbers) gin_trgm_ops);
CREATE INDEX tracking_requests_numbers_trgm ON tracking_requests USING gin (bare_numbers_text(ARRAY[request_number] || ref_numbers) gin_trgm_ops);

-- A filter on one value reads a page straight off an index holding the filter's column before
-- the list's order (created_at DESC, id DESC): thirty entries for thirty rows, however many or
-- few rows of the account match. Migration 008's indexes on the same columns are their prefixes.
DROP INDEX containers_account_status;
CREATE INDEX containers_account_status ON containers (account_id, (coalesce(state->>'current_status', 'new')), created_at DESC, id DESC);
DROP INDEX shipments_account_pol;
CREATE INDEX shipments_account_pol ON shipments (account_id, (state->>'port_of_lading_locode'), created_at DESC, id DESC);
DROP INDEX shipments_account_pod;
CREATE INDEX shipments_account_pod ON shipments (account_id, (state->>'port_of_discharge_locode'), created_at DESC, id DESC);
DROP INDEX shipments_account_scac;
CREATE INDEX shipments_account_scac ON shipments (account_id, scac, created_at DESC, id DESC);
CREATE INDEX tracking_requests_account_status ON tracking_requests (account_id, status, created_at DESC, id DESC);
CREATE INDEX tracking_requests_account_scac ON tracking_requests (account_id, scac, created_at DESC, id DESC);
CREATE INDEX tracking_requests_account_type ON tracking_requests (account_id, request_type, created_at DESC, id DESC);
CREATE INDEX tracking_requests_account_number ON tracking_requests (account_id, upper(request_number));

-- The number a shipment answers to (its B/L, else the tracked number): the search leaves out a
-- tracking request whose number names a shipment, looking it up here (store/search.ts).
CREATE INDEX shipments_account_named ON shipments (account_id, upper(coalesce(bill_of_lading_number, request_number)));

-- The shipments list sorted by number (store/tracking-lists.ts's SHIPMENT_ORDERS), either way.
CREATE INDEX shipments_account_number_order ON shipments (account_id, coalesce(bill_of_lading_number, request_number));

-- Stopped shipments and containers on hold are the few: filter[tracking_stopped]=true and
-- filter[on_hold] read these small indexes (the other answer is most rows, found by walking the
-- list's order). The hold predicate is store/tracking-lists.ts's onHold, written exactly so.
CREATE INDEX shipments_account_stopped ON shipments (account_id, created_at DESC, id DESC) WHERE line_tracking_stopped_at IS NOT NULL;
CREATE INDEX containers_on_hold ON containers (account_id, shipment_id) WHERE state->'holds_at_pod_terminal' @> '[{"status": "hold"}]';
