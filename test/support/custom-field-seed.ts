// Custom field values on every shipment of the seeded lists (list-seed.ts), in a few statements:
// per account a short_text "lane" of 50 values, a boolean "hazardous" (one in ten true) and four
// references of one value per shipment, so the values table holds six rows per shipment (as an
// account using custom fields would) and the planner has a real choice to make.
import type pg from 'pg';

export async function seedCustomFields(db: Pick<pg.Pool, 'query'>, accounts: string[]): Promise<{ definitions: string[]; account: string }> {
  const { rows } = await db.query<{ id: string; account_id: string; api_slug: string }>(
    `INSERT INTO custom_field_definitions (account_id, entity_type, api_slug, display_name, data_type, created_at, updated_at)
     SELECT a, 'Shipment', slug, initcap(slug), type, now(), now()
       FROM unnest($1::uuid[]) a, (VALUES ('lane', 'short_text'), ('hazardous', 'boolean'), ('ref1', 'short_text'), ('ref2', 'short_text'), ('ref3', 'short_text'), ('ref4', 'short_text')) f(slug, type)
     RETURNING id, account_id, api_slug`,
    [accounts],
  );
  await db.query(
    `INSERT INTO custom_fields (account_id, definition_id, entity_type, entity_id, value, match_keys, created_at, updated_at)
     SELECT s.account_id, d.id, 'Shipment', s.id, v.value, ARRAY[d.id || ':' || v.key], s.created_at, s.created_at
       FROM shipments s
       JOIN custom_field_definitions d ON d.account_id = s.account_id
       CROSS JOIN LATERAL (SELECT CASE d.api_slug WHEN 'lane' THEN 'lane-' || abs(hashtext(s.request_number)) % 50
                                                  WHEN 'hazardous' THEN (abs(hashtext(s.request_number)) % 10 = 0)::text
                                                  ELSE d.api_slug || '-' || s.request_number END AS key) k
       CROSS JOIN LATERAL (SELECT k.key, CASE WHEN d.api_slug = 'hazardous' THEN to_jsonb(k.key::boolean) ELSE to_jsonb(k.key) END AS value) v`,
  );
  await db.query('ANALYZE custom_field_definitions, custom_fields');
  const account = accounts[0];
  const mine = rows.filter((r) => r.account_id === account);
  return { definitions: ['lane', 'hazardous'].map((slug) => mine.find((r) => r.api_slug === slug)!.id), account };
}
