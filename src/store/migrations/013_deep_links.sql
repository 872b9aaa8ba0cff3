-- Numbers compared bare: without case, blanks and dashes ("MSCU 123456-7" is MSCU1234567), as users
-- type and paste them and as carriers write them. bare_number is that rule in SQL, once: the search
-- (store/search.ts) and the find link (store/deep-links.ts) compare by it, as normaliseContainerNumber
-- does in TypeScript.
CREATE FUNCTION bare_number(number text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT upper(regexp_replace(number, '[\s-]', '', 'g')) $$;

CREATE FUNCTION bare_numbers(numbers text[]) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT coalesce(array_agg(bare_number(n)), '{}') FROM unnest(numbers) n $$;

-- The find link looks a number up exactly among everything of an account's that names a shipment:
-- its numbers and reference numbers, its containers' reference numbers, and the reference numbers
-- of the tracking requests it came from. Without these, each look-up computes the bare form of
-- every such number of the account (hundreds of milliseconds for 20,000 shipments). The
-- expressions are those of store/deep-links.ts, written exactly so; GIN's @> serves them.
CREATE INDEX shipments_bare_numbers ON shipments
  USING gin (bare_numbers(ARRAY[request_number, bill_of_lading_number, booking_number] || ref_numbers));
CREATE INDEX containers_bare_ref_numbers ON containers USING gin (bare_numbers(ref_numbers));
CREATE INDEX tracking_requests_bare_ref_numbers ON tracking_requests USING gin (bare_numbers(ref_numbers))
  WHERE shipment_id IS NOT NULL;
