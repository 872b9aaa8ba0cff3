-- Searches and array filters that stay as fast while tracking writes go on (issue 14).
--
-- A GIN index takes new entries into a pending list first (fastupdate), merged into the index
-- when a vacuum runs or the list outgrows gin_pending_list_limit (4 MB by default), and every
-- scan of the index reads the whole list. Shipments and containers get a new row version, and
-- so an entry in each of these indexes, whenever their state changes (their state is indexed,
-- so such updates are never HOT), and autovacuum comes by after a fifth of a table has changed:
-- a busy installation keeps up to 4 MB of list per index. Measured on the 100k-container
-- database of bench:scale after 20,000 shipment and 20,000 container state updates: a search
-- read 466 shared buffers in 11.9 ms, against 32 buffers in 2.6 ms after a VACUUM. With lists of
-- 256 kB, the list a search reads stays under 32 pages per index, and the merge an insert does
-- when it overflows is a sixteenth of the size (the README's Benchmarks give the write cost).
--
-- A change of the catalogue alone: no index is rebuilt; entries already pending are merged by the
-- next insert or vacuum.
ALTER INDEX shipments_bare_numbers SET (gin_pending_list_limit = 256);
ALTER INDEX shipments_numbers_trgm SET (gin_pending_list_limit = 256);
ALTER INDEX shipments_number_pieces SET (gin_pending_list_limit = 256);
ALTER INDEX shipments_container_statuses SET (gin_pending_list_limit = 256);
ALTER INDEX shipments_port_locodes SET (gin_pending_list_limit = 256);
ALTER INDEX containers_bare_ref_numbers SET (gin_pending_list_limit = 256);
ALTER INDEX containers_numbers_trgm SET (gin_pending_list_limit = 256);
ALTER INDEX containers_number_pieces SET (gin_pending_list_limit = 256);
ALTER INDEX tracking_requests_bare_ref_numbers SET (gin_pending_list_limit = 256);
ALTER INDEX tracking_requests_numbers_trgm SET (gin_pending_list_limit = 256);
ALTER INDEX tracking_requests_number_pieces SET (gin_pending_list_limit = 256);
