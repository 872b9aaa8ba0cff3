-- Search by a number or a part of one that keeps its cost as the data grows (issue 14). Migration
-- 015's trigram indexes find a search's rows through its three-letter pieces, and a piece of
-- digits is in about one container number of two hundred: at a million containers, each piece a
-- search looks up lists thousands of rows, and the index reads through them all (a whole
-- container number: 36 pages of containers_numbers_trgm at 1M, 11 at 10k; 138 and 65 for the
-- search's statement, planning included). A five-character piece is in one number of tens of
-- thousands: a search string of five characters or more looks up at most three of them
-- (search_pieces), each listing a few dozen rows at a million containers, and the rows holding
-- all of them are nearly always those that match (the same search: 39 pages at 1M, 28 at 10k).
-- Shorter strings (a line's prefix, three digits) still go through the trigram indexes: they
-- match too many rows for any index to narrow much, and the search reads them in the list's
-- order instead. store/search.ts; README "Lists at scale"; test/query-plans.test.ts checks
-- the plans.
--
-- In steps (store/migrate.ts): the indexes are built CONCURRENTLY, writes going on, and every
-- step may run again after a crash.

-- Every five-character piece of each of the numbers, bare (migration 013's rule; bare_number
-- on each number rather than bare_numbers' array, which took twice the time: every row written
-- computes this). A GIN index keeps each piece once per row, so repeats need no DISTINCT here.
CREATE OR REPLACE FUNCTION number_pieces(numbers text[]) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT coalesce(array_agg(substr(b, i, 5)), '{}') FROM unnest(numbers) n, bare_number(n) b, generate_series(1, length(b) - 4) i $$;

-- The pieces a search string, bare, is looked up by: its first, its last and one in the middle.
-- Every row holding the string holds them; more pieces would each cost a look-up in the index
-- and rule out hardly a row more (the caller keeps only the rows that hold the whole string).
-- None for a string shorter than five: `@> '{}'` holds for every row, so such a search is
-- right, if slow; store/search.ts sends those to the trigram indexes. One expression, no FROM
-- and no subquery, so PostgreSQL inlines it and works it out once while planning (as a function
-- of its own, called for each of the search's three tables: 0.3 ms more planning per search).
-- A piece named twice (a string of five to six characters) is looked up once.
CREATE OR REPLACE FUNCTION search_pieces(search text) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT CASE WHEN length(bare_number(search)) < 5 THEN '{}'::text[]
                    ELSE ARRAY[substr(bare_number(search), 1, 5),
                               substr(bare_number(search), 1 + (length(bare_number(search)) - 5) / 2, 5),
                               substr(bare_number(search), length(bare_number(search)) - 4, 5)] END $$;

-- migrate:step: the expressions are those of store/search.ts (shipmentNumbers, containerNumbers,
-- trackingRequestNumbers), written exactly so. (A build that failed leaves an invalid index
-- behind: it is dropped and built again.)
DROP INDEX CONCURRENTLY IF EXISTS shipments_number_pieces;
-- migrate:step
CREATE INDEX CONCURRENTLY shipments_number_pieces ON shipments
  USING gin (number_pieces(ARRAY[request_number, bill_of_lading_number, booking_number] || ref_numbers));
-- migrate:step
DROP INDEX CONCURRENTLY IF EXISTS containers_number_pieces;
-- migrate:step
CREATE INDEX CONCURRENTLY containers_number_pieces ON containers USING gin (number_pieces(ARRAY[number] || ref_numbers));
-- migrate:step
DROP INDEX CONCURRENTLY IF EXISTS tracking_requests_number_pieces;
-- migrate:step
CREATE INDEX CONCURRENTLY tracking_requests_number_pieces ON tracking_requests USING gin (number_pieces(ARRAY[request_number] || ref_numbers));
