-- The functions the number indexes are built on (migrations 013, 015 and 036) in PL/pgSQL
-- (issue 14, the cost of a write). As SQL functions with a FROM clause they cannot be inlined,
-- so every statement that writes a row of shipments, containers or tracking_requests planned
-- each function's body again, once per index that uses it: a write of one shipment row planned
-- three queries before it could update three GIN indexes. PL/pgSQL keeps its compiled function
-- for the life of the connection, and evaluates these loops as plain expressions. Measured with
-- pgbench on one row, synchronous_commit off: a container update 0.41-0.46 -> 0.21-0.33 ms, a
-- shipment update 0.52-0.57 -> 0.32-0.42 ms.
--
-- Each gives exactly what it gave before, for every input (NULL arrays and elements,
-- multidimensional arrays, numbers shorter than a piece), so the indexes built on them stay valid
-- as they are: nothing is rebuilt. test/number-functions.test.ts compares them with the SQL
-- definitions.
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
