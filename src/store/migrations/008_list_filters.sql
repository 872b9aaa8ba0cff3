-- The filters of the shipment and container lists (src/store/tracking-lists.ts): status, port,
-- pod_locode, line_scac and updated_at. Each index leads with account_id, as every list is one
-- account's, and indexes exactly the expression the list writes. filter[port] matches any of
-- three ports, which the planner answers by OR-ing the three port indexes' bitmaps.
CREATE INDEX shipments_account_pol ON shipments (account_id, (state->>'port_of_lading_locode'));
CREATE INDEX shipments_account_pod ON shipments (account_id, (state->>'port_of_discharge_locode'));
CREATE INDEX shipments_account_destination ON shipments (account_id, (state->>'destination_locode'));
CREATE INDEX shipments_account_scac ON shipments (account_id, scac);
CREATE INDEX shipments_account_updated ON shipments (account_id, updated_at);

-- A container without a stored status is new, as the API reports it.
CREATE INDEX containers_account_status ON containers (account_id, (coalesce(state->>'current_status', 'new')));
CREATE INDEX containers_account_updated ON containers (account_id, updated_at);
