-- Functions that writes call for each row, in PL/pgSQL (issue 14, the cost of a write). As SQL
-- functions with a FROM clause they cannot be inlined, and PostgreSQL plans such a function's
-- body again in every statement that calls it: a write of one shipment row planned three queries
-- (one per number index) before it could update its indexes, and a lookup's write planned the
-- terminal look-up once more for its milestones. PL/pgSQL keeps its plans for the life of the
-- connection. Measured with pgbench on one row, synchronous_commit off: a container update
-- 0.41-0.59 -> 0.21-0.33 ms, a shipment update 0.52-0.71 -> 0.32-0.52 ms, a tracking request
-- insert 0.36-0.53 -> 0.18-0.32 ms; a lookup's write with news (replayed from bench:tracking)
-- about 0.1-0.3 ms less with terminal_id_of alone.
--
-- The number functions (migrations 013, 015 and 036, under the number indexes) give exactly what
-- they gave before, for every input (NULL arrays and elements, multidimensional arrays, numbers
-- shorter than a piece), so the indexes built on them stay valid as they are: nothing is rebuilt.
-- test/plpgsql-functions.test.ts compares them with the SQL definitions.
--
-- Their bodies call built-in functions only, not bare_number (migration 013's rule, written out):
-- pg_restore builds indexes with an empty search_path, where bare_number cannot be found, so a
-- restored database lost every index on these functions (7 errors, "ignored"). Built-ins are
-- found on any search_path (test/database-dump.test.ts restores a dump).

CREATE OR REPLACE FUNCTION bare_numbers(numbers text[]) RETURNS text[]
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
  AS $$
DECLARE
  bare text[] := '{}';
  n text;
BEGIN
  IF numbers IS NOT NULL THEN
    -- Every element in order, as unnest gives them; a NULL stays a NULL element.
    FOREACH n IN ARRAY numbers LOOP
      bare := bare || upper(regexp_replace(n, '[\s-]', '', 'g'));
    END LOOP;
  END IF;
  RETURN bare;
END $$;

CREATE OR REPLACE FUNCTION bare_numbers_text(numbers text[]) RETURNS text
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
  AS $$
DECLARE
  bare text[] := '{}';
  n text;
BEGIN
  -- bare_numbers' loop, written again rather than called: under pg_restore's empty search_path a
  -- call to it would not be found (a SET search_path on the function would cost every row).
  IF numbers IS NOT NULL THEN
    FOREACH n IN ARRAY numbers LOOP
      bare := bare || upper(regexp_replace(n, '[\s-]', '', 'g'));
    END LOOP;
  END IF;
  -- array_to_string skips NULL elements, as string_agg did.
  RETURN array_to_string(bare, ' ');
END $$;

CREATE OR REPLACE FUNCTION number_pieces(numbers text[]) RETURNS text[]
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
  AS $$
DECLARE
  pieces text[] := '{}';
  n text;
  b text;
BEGIN
  IF numbers IS NOT NULL THEN
    FOREACH n IN ARRAY numbers LOOP
      b := upper(regexp_replace(n, '[\s-]', '', 'g'));
      -- No piece of a NULL or of a number shorter than five characters.
      FOR i IN 1 .. coalesce(length(b), 0) - 4 LOOP
        pieces := pieces || substr(b, i, 5);
      END LOOP;
    END LOOP;
  END IF;
  RETURN pieces;
END $$;

-- A milestone's terminal (migration 007's rule, unchanged): called for each milestone a lookup
-- writes, and for the terminal codes a container reports.
CREATE OR REPLACE FUNCTION terminal_id_of(code text, locode text) RETURNS uuid
  LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (SELECT t.id FROM terminals t
           WHERE t.firms_code = terminal_id_of.code
              OR (t.smdg_code = terminal_id_of.code AND t.port_id = (SELECT l.id FROM locations l WHERE l.locode = terminal_id_of.locode))
           ORDER BY t.firms_code = terminal_id_of.code DESC NULLS LAST, t.id
           LIMIT 1);
END $$;
