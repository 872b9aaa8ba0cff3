// Custom field patterns run in linear time: patterns that make a backtracking engine take
// exponential time (`^(a|a)*$`, `^(a+)+$`) are taken, and a longest value that does not match them
// is answered at once while /healthz keeps answering; a pattern stored before that RE2 cannot run
// (here a backreference) refuses values with a 422 instead of running a backtracking engine; and
// a new pattern checked against many stored values lets /healthz in while it runs.
import assert from 'node:assert/strict';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { after, before, test } from 'node:test';
import { startTestApp, type TestApp } from './support/app.ts';
import { seedShipment } from './support/shipment-seeds.ts';
import { doc, spacedRequests } from './support/spaced-requests.ts';

let t: TestApp;
let shipmentId: string;
before(async () => {
  t = await startTestApp();
  shipmentId = await seedShipment(t.db, t.accountId, t.clock.now(), { number: 'CFPAT0001', scac: 'MAEU' });
});
after(() => t.close());

const call = spacedRequests(() => t);
let slugs = 0;

async function patternField(pattern: string): Promise<{ id: string; slug: string }> {
  const slug = `p${++slugs}`;
  const res = await call('POST', '/v2/custom_field_definitions', {
    body: doc('custom_field_definition', { entity_type: 'Shipment', api_slug: slug, display_name: `Pattern ${slugs}`, data_type: 'short_text', validation: { pattern } }),
  });
  assert.equal(res.status, 201, res.text);
  return { id: res.body.data.id, slug };
}

const setValue = (slug: string, value: string) => call('POST', `/v2/shipments/${shipmentId}/custom_fields`, { body: doc('custom_field', { api_slug: slug, value }) });

/** How long each /healthz probe took, sent one after another until `work` settles. */
async function probedWhile<T>(work: Promise<T>): Promise<{ result: T; probes: number[] }> {
  let done = false;
  const settled = work.finally(() => (done = true));
  const probes: number[] = [];
  do {
    const started = performance.now();
    const res = await fetch(`${t.baseUrl}/healthz`);
    await res.arrayBuffer();
    probes.push(performance.now() - started);
    assert.equal(res.status, 200);
    await new Promise((resolve) => setTimeout(resolve, 20));
  } while (!done);
  return { result: await settled, probes };
}

for (const pattern of ['^(a|a)*$', '^(a+)+$']) {
  test(`${pattern} is taken, and a 1,000-character value it does not match is refused at once while /healthz answers`, async () => {
    const { slug } = await patternField(pattern);
    const value = `${'a'.repeat(999)}!`;
    const writes: number[] = [];
    const probes: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const run = await probedWhile(setValue(slug, value));
      writes.push(performance.now() - started);
      probes.push(...run.probes);
      assert.equal(run.result.status, 422, run.result.text);
      assert.equal(run.result.body.errors[0].code, 'pattern_mismatch');
    }
  assert.ok(Math.max(...probes) < 1000, `/healthz took ${probes.map((ms) => ms.toFixed(0)).join(', ')} ms`);
    writes.sort((a, b) => a - b);
    assert.ok(writes[1]! < 1000, `the writes took ${writes.map((ms) => ms.toFixed(0)).join(', ')} ms`);
    const matching = await setValue(slug, 'a'.repeat(1000));
    assert.equal(matching.status, 201, matching.text);
  });
}

test('patterns keep their meaning: searched anywhere unless anchored, in JavaScript syntax with the u flag', async () => {
  const cases: [string, string, boolean][] = [
    ['PO-\\d+', 'ref PO-12 here', true],
    ['^PO-\\d+$', 'ref PO-12', false],
    ['^\\u0041\\u{1F600}$', 'A😀', true],
    ['^\\p{Lu}{2}\\d$', 'ÄB1', true],
    ['^a[^]b$', 'a\tb', true],
    ['^(?<year>\\d{4})-\\d{2}$', '2024-05', true],
    ['^\\w+$', 'é', false],
  ];
  for (const [pattern, value, matches] of cases) {
    const { slug } = await patternField(pattern);
    const res = await setValue(slug, value);
    assert.equal(res.status, matches ? 201 : 422, `${pattern} on ${JSON.stringify(value)}: ${res.text}`);
  }
});

test('a stored pattern RE2 cannot run refuses values with a 422 naming it, rather than running it', async () => {
  const { id, slug } = await patternField('^a+$');
  await t.db.query('UPDATE custom_field_definitions SET validation = $1 WHERE id = $2', [{ pattern: '^(a|a)*\\1$' }, id]);
  const started = performance.now();
  const res = await setValue(slug, `${'a'.repeat(999)}!`);
  assert.ok(performance.now() - started < 5000);
  assert.equal(res.status, 422, res.text);
  assert.equal(res.body.errors[0].code, 'unsupported_pattern');
  assert.equal(res.body.errors[0].source.pointer, '/data/attributes/value');
  assert.match(res.body.errors[0].detail, /redefine validation\.pattern/);
});

test('a new pattern checked against many stored values lets /healthz answer meanwhile', async () => {
  const slug = `p${++slugs}`;
  const created = await call('POST', '/v2/custom_field_definitions', {
    body: doc('custom_field_definition', { entity_type: 'Shipment', api_slug: slug, display_name: 'Many values', data_type: 'short_text' }),
  });
  assert.equal(created.status, 201, created.text);
  const definitionId: string = created.body.data.id;
  // Values of entities made up for the check, which reads the values alone. Each costs the pattern
  // below tens of milliseconds (runs of letters too long for the matcher's cache of states), so
  // the lot, checked in one go, would hold the thread for seconds.
  const VALUES = 30;
  const value = `${'b'.repeat(649)}!`.repeat(2).slice(0, 1000);
  await t.db.query(
    `INSERT INTO custom_fields (account_id, definition_id, entity_type, entity_id, value, match_keys, created_at, updated_at)
     SELECT $1, $2, 'Shipment', gen_random_uuid(), to_jsonb($3::text), ARRAY[]::text[], $4, $4 FROM generate_series(1, $5)`,
    [t.accountId, definitionId, value, t.clock.now(), VALUES],
  );
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const started = performance.now();
  const { result, probes } = await probedWhile(
    call('PATCH', `/v2/custom_field_definitions/${definitionId}`, { body: doc('custom_field_definition', { validation: { pattern: '\\p{L}{650}' } }) }),
  );
  const tookMs = performance.now() - started;
  loop.disable();
  assert.equal(result.status, 422, result.text);
  assert.equal(result.body.errors[0].code, 'values_break_validation');
  assert.equal(result.body.errors[0].meta.values, VALUES);
  // Judged by the probes that answered meanwhile (in this process, so each also waits for its own
  // client's turns), not by one probe's luck; checked in one go, only the probe sent before it and
  // one held until its end would answer. How long the thread was held is told if it fails.
  const heldMs = loop.max / 1e6;
  const listed = `/healthz took ${probes.map((ms) => ms.toFixed(0)).join(', ')} ms; the thread was held up to ${heldMs.toFixed(0)} ms; the check took ${tookMs.toFixed(0)} ms`;
  assert.ok(probes.length >= 3, listed);
  const sorted = [...probes].sort((a, b) => a - b);
  assert.ok(sorted[Math.floor(sorted.length / 2)]! < 1000, listed);
});
