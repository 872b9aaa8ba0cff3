-- List pages and totals whose work stops growing with the data (issue 14; store/tracking-lists.ts,
-- README "Lists at scale"; test/query-plans.test.ts checks the plans).
--
-- A range's page (filter[updated_at], filter[pod_eta_at]) in the list's order: read a day at a
-- time, each day the range covers whole off an index of the day (UTC) and then the list's order,
-- stopping at the page's end, instead of sorting every entry in the range (a day of updates of
-- the 1M-container database's large account: 4,557 containers, 654 index and visibility-map
-- pages, against 68 containers at 10k). The range's column is included, so the page is read from
-- index entries alone (PostgreSQL reads from an index alone only what it holds as plain columns).
--
-- The total of shipments by any of their ports (filter[port]): counted off each leg's own index,
-- newest first. Walking the list's order through migration 026's index reads every shipment until
-- 1,000 match: for a port on one shipment in sixteen, about 16,000 index entries (631 pages at
-- 1M, against 125 for the 3,338 shipments at 10k). The ports of lading and discharge have their
-- ordered indexes (migration 031); this orders the destination's alike, replacing migration
-- 008's, which held no order and served nothing else.
--
-- In steps (store/migrate.ts): built CONCURRENTLY, writes going on; each step may run again
-- after a crash (a build that failed leaves an invalid index behind: dropped and built again).
DROP INDEX CONCURRENTLY IF EXISTS containers_account_updated_day;
-- migrate:step
CREATE INDEX CONCURRENTLY containers_account_updated_day ON containers
  (account_id, date_trunc('day', updated_at AT TIME ZONE 'UTC'), created_at DESC, id DESC) INCLUDE (updated_at);
-- migrate:step
DROP INDEX CONCURRENTLY IF EXISTS shipments_account_updated_day;
-- migrate:step
CREATE INDEX CONCURRENTLY shipments_account_updated_day ON shipments
  (account_id, date_trunc('day', updated_at AT TIME ZONE 'UTC'), created_at DESC, id DESC) INCLUDE (updated_at);
-- migrate:step
DROP INDEX CONCURRENTLY IF EXISTS shipments_account_pod_eta_day;
-- migrate:step
CREATE INDEX CONCURRENTLY shipments_account_pod_eta_day ON shipments
  (account_id, date_trunc('day', pod_eta_instant AT TIME ZONE 'UTC'), created_at DESC, id DESC) INCLUDE (pod_eta_instant);
-- migrate:step
DROP INDEX CONCURRENTLY IF EXISTS shipments_account_destination_order;
-- migrate:step
CREATE INDEX CONCURRENTLY shipments_account_destination_order ON shipments (account_id, (state->>'destination_locode'), created_at DESC, id DESC);
-- migrate:step
DROP INDEX CONCURRENTLY IF EXISTS shipments_account_destination;
