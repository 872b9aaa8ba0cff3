// Migration 040's functions, PL/pgSQL now (not planned again by every statement that calls them),
// keep their rules. The number indexes' functions give exactly what their SQL definitions of
// migrations 013, 015 and 036 gave, for every kind of input: the indexes built with the SQL ones
// were not rebuilt, so any difference would leave entries that a search through them misses or
// finds wrongly. terminal_id_of (migration 007) finds a FIRMS code anywhere, and an SMDG code only
// at its port.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Tx } from '../src/store/db.ts';
import { freshDatabase, type TestDatabase } from './support/database.ts';

// The SQL definitions as the earlier migrations wrote them, as temporary functions of one session.
const SQL_DEFINITIONS = `
  CREATE FUNCTION pg_temp.sql_bare_numbers(numbers text[]) RETURNS text[] LANGUAGE sql IMMUTABLE
    AS $$ SELECT coalesce(array_agg(bare_number(n)), '{}') FROM unnest(numbers) n $$;
  CREATE FUNCTION pg_temp.sql_bare_numbers_text(numbers text[]) RETURNS text LANGUAGE sql IMMUTABLE
    AS $$ SELECT coalesce(string_agg(bare_number(n), ' '), '') FROM unnest(numbers) n $$;
  CREATE FUNCTION pg_temp.sql_number_pieces(numbers text[]) RETURNS text[] LANGUAGE sql IMMUTABLE
    AS $$ SELECT coalesce(array_agg(substr(b, i, 5)), '{}') FROM unnest(numbers) n, bare_number(n) b, generate_series(1, length(b) - 4) i $$;`;

/** A small deterministic generator (mulberry32), so a failure names a case that comes again. */
function generator(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// What numbers are made of: letters of both cases, digits, the separators bare_number removes
// (spaces, tabs, newlines, dashes), others it keeps, and letters outside ASCII.
const ALPHABET = ['a', 'M', 's', 'K', 'u', '0', '1', '2', '5', '9', ' ', ' ', '-', '\t', '\n', '/', '.', '_', 'é', 'ß', 'Ö'];

function randomNumbers(random: () => number): (string | null)[] | null {
  if (random() < 0.05) return null;
  return Array.from({ length: Math.floor(random() * 5) }, () => {
    if (random() < 0.15) return null;
    return Array.from({ length: Math.floor(random() * 16) }, () => ALPHABET[Math.floor(random() * ALPHABET.length)]).join('');
  });
}

describe('the functions of migration 040 keep their rules', () => {
  let database: TestDatabase;
  let client: Tx;

  before(async () => {
    database = await freshDatabase();
    client = await database.db.connect();
    await client.query(SQL_DEFINITIONS);
  });

  after(async () => {
    client?.release();
    await database?.drop();
  });

  test('they are PL/pgSQL now, and the number indexes are valid', async () => {
    const { rows } = await client.query<{ proname: string; lanname: string }>(
      `SELECT p.proname, l.lanname FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
        WHERE p.proname IN ('bare_numbers', 'bare_numbers_text', 'number_pieces', 'terminal_id_of') AND p.pronamespace = 'public'::regnamespace ORDER BY 1`,
    );
    assert.deepEqual(
      rows.map((r) => `${r.proname} ${r.lanname}`),
      ['bare_numbers plpgsql', 'bare_numbers_text plpgsql', 'number_pieces plpgsql', 'terminal_id_of plpgsql'],
    );
    const indexes = await client.query<{ valid: boolean }>(
      `SELECT bool_and(i.indisvalid) AS valid FROM pg_index i WHERE pg_get_indexdef(i.indexrelid) ~ '(bare_numbers|bare_numbers_text|number_pieces)\\('`,
    );
    assert.equal(indexes.rows[0].valid, true);
  });

  test('the same result for 3,000 generated arrays of numbers and for the edge cases', async () => {
    const random = generator(40);
    const cases = Array.from({ length: 3_000 }, () => randomNumbers(random));
    const { rows } = await client.query<{ numbers: string | null; bare: boolean; text: boolean; pieces: boolean }>(
      `WITH input AS (
         SELECT CASE WHEN c = 'null'::jsonb THEN NULL ELSE ARRAY(SELECT jsonb_array_elements_text(c)) END AS numbers
           FROM jsonb_array_elements($1::jsonb) c
         UNION ALL
         -- Multidimensional: unnest took every element in order, and so does FOREACH.
         SELECT a FROM (VALUES ('{{ab12345,"cd 678-90"},{"ef-1 2345",NULL}}'::text[]), ('{{x}}'::text[]), ('{NULL,NULL}'::text[]), ('{}'::text[])) v (a)
       )
       SELECT numbers::text,
              bare_numbers(numbers) IS NOT DISTINCT FROM pg_temp.sql_bare_numbers(numbers) AS bare,
              bare_numbers_text(numbers) IS NOT DISTINCT FROM pg_temp.sql_bare_numbers_text(numbers) AS text,
              number_pieces(numbers) IS NOT DISTINCT FROM pg_temp.sql_number_pieces(numbers) AS pieces
         FROM input`,
      [JSON.stringify(cases)],
    );
    assert.equal(rows.length, 3_004);
    const differing = rows.filter((r) => !(r.bare && r.text && r.pieces));
    assert.deepEqual(differing, [], 'inputs for which a function differs from its SQL definition');
  });

  test('they are what the index expressions of written rows hold: a row written now is found by its pieces', async () => {
    const account = await client.query<{ id: string }>(`INSERT INTO accounts (name) VALUES ('numbers') RETURNING id`);
    const shipment = await client.query<{ id: string }>(
      `INSERT INTO shipments (account_id, scac, request_type, request_number, state, created_at, updated_at)
       VALUES ($1, 'MAEU', 'bill_of_lading', 'maeu 2468-13579', '{}', now(), now()) RETURNING id`,
      [account.rows[0].id],
    );
    // Through the indexes, as a search reads them (sequential scans off).
    await client.query('SET enable_seqscan = off');
    const found = await client.query<{ id: string }>(
      `SELECT id FROM shipments WHERE number_pieces(ARRAY[request_number, bill_of_lading_number, booking_number] || ref_numbers) @> ARRAY['24681', '13579']
          AND bare_numbers(ARRAY[request_number, bill_of_lading_number, booking_number] || ref_numbers) && ARRAY['MAEU246813579']`,
    );
    await client.query('RESET enable_seqscan');
    assert.deepEqual(
      found.rows.map((r) => r.id),
      [shipment.rows[0].id],
    );
  });

  test('terminal_id_of: a FIRMS code wherever it is reported, an SMDG code at its port only, nothing for an unknown code', async () => {
    const id = async (code: string | null, locode: string | null) =>
      (await client.query<{ id: string | null }>('SELECT terminal_id_of($1, $2) AS id', [code, locode])).rows[0].id;
    const terminal = async (where: string, values: unknown[]) =>
      (await client.query<{ id: string }>(`SELECT t.id FROM terminals t JOIN locations l ON l.id = t.port_id WHERE ${where}`, values)).rows[0].id;
    // A FIRMS code is unique: found at any port, or none.
    const firms = await terminal('t.firms_code = $1', ['A321']);
    assert.equal(await id('A321', 'USBAL'), firms);
    assert.equal(await id('A321', 'NLRTM'), firms);
    assert.equal(await id('A321', null), firms);
    // An SMDG code repeats across ports (APMT at thirteen): the one at the milestone's port.
    assert.equal(await id('APMT', 'USLAX'), await terminal('t.smdg_code = $1 AND l.locode = $2', ['APMT', 'USLAX']));
    assert.equal(await id('APMT', 'DKAAR'), await terminal('t.smdg_code = $1 AND l.locode = $2', ['APMT', 'DKAAR']));
    assert.equal(await id('APMT', 'FRLEH'), null);
    assert.equal(await id('APMT', null), null);
    assert.equal(await id('NO-SUCH-CODE', 'USLAX'), null);
    assert.equal(await id(null, 'USLAX'), null);
  });
});
