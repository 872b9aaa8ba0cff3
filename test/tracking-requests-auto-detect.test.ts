// POST /v2/tracking_requests with auto_detect_vocc_scac: the SCAC comes from carrier inference when
// it is confident (auto_select); otherwise 422 scac_auto_detect_failed on /data/attributes/scac.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp, type TestApp } from './support/app.ts';
import { forFile } from './support/for-file.ts';

let t: TestApp;
forFile(() => startTestApp(), (s) => (t = s));

const post = (attributes: Record<string, unknown>, app: TestApp = t) =>
  app.request('POST', '/v2/tracking_requests', { body: { data: { type: 'tracking_request', attributes } } });

test('the SCAC is inferred from a bill of lading, booking or container number', async () => {
  const cases: [string, string, string][] = [
    ['bill_of_lading', 'MAEU 123456789', 'MAEU'],
    ['bill_of_lading', 'MEDUAB12345', 'MSCU'],
    ['bill_of_lading', 'HLCUHAM230512345', 'HLCU'],
    ['booking_number', 'ONEYSH9AME650500', 'ONEY'],
    ['container', 'MSKU-753159-7', 'MAEU'],
    ['container', 'CMAU9338204', 'CMDU'],
    ['container', 'EGHU7837049', 'EGLV'],
  ];
  for (const [request_type, request_number, scac] of cases) {
    const res = await post({ request_type, request_number, auto_detect_vocc_scac: true });
    assert.equal(res.status, 201, `${request_number}: ${res.text}`);
    assert.equal(res.body.data.attributes.scac, scac, request_number);
    assert.equal(res.body.data.attributes.status, 'pending');
  }
  // Stored with it: listed and filtered like any request.
  const listed = await t.request('GET', '/v2/tracking_requests?filter[scac]=CMDU');
  assert.deepEqual(listed.body.data.map((r: any) => r.attributes.request_number), ['CMAU9338204']);
});

test('a SCAC sent with auto_detect_vocc_scac wins, and is validated as before', async () => {
  const res = await post({ request_type: 'bill_of_lading', request_number: 'MAEU223456789', scac: 'HLCU', auto_detect_vocc_scac: true });
  assert.equal(res.status, 201);
  assert.equal(res.body.data.attributes.scac, 'HLCU');
  const unknown = await post({ request_type: 'bill_of_lading', request_number: 'MAEU323456789', scac: 'ZZZZ', auto_detect_vocc_scac: true });
  assert.equal(unknown.status, 422);
  assert.equal(unknown.body.errors[0].code, 'not_recognized');
  const nullScac = await post({ request_type: 'bill_of_lading', request_number: 'MAEU423456789', scac: null, auto_detect_vocc_scac: true });
  assert.equal(nullScac.status, 201);
  assert.equal(nullScac.body.data.attributes.scac, 'MAEU');
});

test('without a SCAC and without auto-detection, the SCAC is still required', async () => {
  for (const attributes of [
    { request_type: 'bill_of_lading', request_number: 'MAEU523456789' },
    { request_type: 'bill_of_lading', request_number: 'MAEU523456789', auto_detect_vocc_scac: false },
    { request_type: 'bill_of_lading', request_number: 'MAEU523456789', scac: null },
  ]) {
    const res = await post(attributes);
    assert.equal(res.status, 422, JSON.stringify(attributes));
    assert.equal(res.body.errors[0].source.pointer, '/data/attributes/scac');
    assert.equal(res.body.errors[0].code, 'blank');
  }
  const notBoolean = await post({ request_type: 'bill_of_lading', request_number: 'MAEU523456789', auto_detect_vocc_scac: 'yes' });
  assert.equal(notBoolean.status, 422);
  assert.ok(notBoolean.body.errors.some((e: any) => e.source.pointer === '/data/attributes/auto_detect_vocc_scac'));
});

test('422 scac_auto_detect_failed when no line can be chosen, with the candidates in meta', async () => {
  const cases: [string, string, string, string[]][] = [
    // A suggestion to confirm is not a choice.
    ['container', 'KKFU4898534', 'needs_confirmation', ['ONEY']],
    ['bill_of_lading', '123456789', 'needs_confirmation', ['MAEU']],
    ['container', 'MSKU7531598', 'needs_confirmation', ['MAEU']],
    // Leased boxes and unknown forms name nobody.
    ['container', 'TGHU6701746', 'no_prediction', []],
    ['container', 'FSCU1137511', 'no_prediction', ['COSU']],
    ['booking_number', '6123456780', 'no_prediction', ['COSU', 'OOLU']],
    ['bill_of_lading', 'ABC123XYZ', 'no_prediction', []],
  ];
  for (const [request_type, request_number, decision, candidates] of cases) {
    const res = await post({ request_type, request_number, auto_detect_vocc_scac: true });
    assert.equal(res.status, 422, request_number);
    const [error] = res.body.errors;
    assert.equal(error.code, 'scac_auto_detect_failed', request_number);
    assert.equal(error.source.pointer, '/data/attributes/scac', request_number);
    assert.equal(error.meta.decision, decision, request_number);
    assert.deepEqual(error.meta.candidates.map((c: any) => c.scac).sort(), candidates, request_number);
  }
  const garbage = await post({ request_type: 'bill_of_lading', request_number: 'see attached', auto_detect_vocc_scac: true });
  assert.equal(garbage.status, 422);
  assert.equal(garbage.body.errors[0].code, 'scac_auto_detect_failed');
  assert.match(garbage.body.errors[0].detail, /not a tracking number/);
  // Nothing was stored for any of them.
  const { rows } = await t.db.query("SELECT count(*)::int AS n FROM tracking_requests WHERE request_number IN ('KKFU4898534', 'TGHU6701746', '123456789')");
  assert.equal(rows[0].n, 0);
});

test('a detected line that cannot track the number is an auto-detect failure too', async () => {
  // Evergreen is tracked by container number only (carrier_tracking_support.csv).
  const res = await post({ request_type: 'bill_of_lading', request_number: 'EGLV084900042045', auto_detect_vocc_scac: true });
  assert.equal(res.status, 422);
  assert.equal(res.body.errors[0].code, 'scac_auto_detect_failed');
  assert.match(res.body.errors[0].detail, /Evergreen Line \(EGLV\).*bill_of_lading/);

  // A line without a carrier connector here.
  const limited = await startTestApp({ isTrackable: (scac) => scac !== 'HDMU' });
  try {
    const refused = await post({ request_type: 'container', request_number: 'HDMU5882407', auto_detect_vocc_scac: true }, limited);
    assert.equal(refused.status, 422);
    assert.equal(refused.body.errors[0].code, 'scac_auto_detect_failed');
    assert.match(refused.body.errors[0].detail, /HMM.*no carrier connector/);
    const explicit = await post({ request_type: 'container', request_number: 'HDMU5882407', scac: 'HDMU' }, limited);
    assert.equal(explicit.body.errors[0].code, 'unsupported_scac', 'an explicit SCAC keeps its own error');
    const noContainerSupport = await post({ request_type: 'container', request_number: 'ZIMU3611506', auto_detect_vocc_scac: true }, limited);
    assert.equal(noContainerSupport.status, 422, 'ZIM cannot be tracked by container number');
    const ok = await post({ request_type: 'bill_of_lading', request_number: 'ZIMUSNH1234567', auto_detect_vocc_scac: true }, limited);
    assert.equal(ok.status, 201);
    assert.equal(ok.body.data.attributes.scac, 'ZIMU');
  } finally {
    await limited.close();
  }
});

test('the OpenAPI document describes auto_detect_vocc_scac and no longer requires scac', async () => {
  const doc = (await t.request('GET', '/v2/openapi.json', { key: null })).body;
  const schema = doc.paths['/v2/tracking_requests'].post.requestBody.content['application/vnd.api+json'].schema;
  const attributes = schema.properties.data.properties.attributes;
  assert.equal(attributes.properties.auto_detect_vocc_scac.type, 'boolean');
  assert.deepEqual(attributes.required.sort(), ['request_number', 'request_type']);
});
