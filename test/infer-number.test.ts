// POST /v2/tracking_requests/infer_number over real HTTP, tried as a new user would: real-looking
// numbers of the top carriers, leased boxes, bills of lading with and without SCAC, bookings,
// garbage, bad bodies, and the 200-a-minute limit.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { startTestApp, type TestApp } from './support/app.ts';
import { forFile } from './support/for-file.ts';

let t: TestApp;
forFile(() => startTestApp(), (s) => (t = s));

const PATH = '/v2/tracking_requests/infer_number';
const infer = (number: unknown, key?: string) => t.request('POST', PATH, { body: { number }, key, headers: { 'content-type': 'application/json' } });

async function attributes(number: string) {
  const res = await infer(number);
  assert.equal(res.status, 200, `${number}: ${res.text}`);
  return res.body.data.attributes;
}

describe('container numbers', () => {
  test('boxes of the top carriers and their brands are auto-selected', async () => {
    const cases: [string, string][] = [
      ['MSKU7531597', 'MAEU'],
      ['MAEU3678534', 'MAEU'],
      ['SUDU2644700', 'MAEU'],
      ['SEAU2187050', 'MAEU'],
      ['MSCU8778200', 'MSCU'],
      ['MEDU4759512', 'MSCU'],
      ['CMAU9338204', 'CMDU'],
      ['APLU1543727', 'CMDU'],
      ['HLXU8239858', 'HLCU'],
      ['HLBU9823880', 'HLCU'],
      ['ONEU8758396', 'ONEY'],
      ['EGHU7837049', 'EGLV'],
      ['EMCU6557876', 'EGLV'],
      ['CSNU1304142', 'COSU'],
      ['OOLU9811686', 'OOLU'],
      ['HDMU5882407', 'HDMU'],
      ['YMLU9136516', 'YMLU'],
      ['ZIMU3611506', 'ZIMU'],
      ['WHLU7804995', 'WHLC'],
    ];
    for (const [number, scac] of cases) {
      const a = await attributes(number);
      assert.equal(a.number_type, 'container', number);
      assert.deepEqual(a.validation, { is_valid: true, type: 'container', check_digit_passed: true, parsed_number: number, reason: null }, number);
      assert.equal(a.shipping_line.decision, 'auto_select', number);
      assert.equal(a.shipping_line.selected.scac, scac, number);
      assert.ok(a.shipping_line.selected.confidence >= 0.95, number);
      assert.deepEqual(a.shipping_line.candidates[0], a.shipping_line.selected, number);
    }
  });

  test('the answer is a JSON:API document in the reference shape, sent as the spec has every response', async () => {
    const res = await infer('MSKU7531597');
    assert.match(res.headers.get('content-type')!, /^application\/vnd\.api\+json/);
    assert.match(res.body.data.id, /^req_[0-9a-f-]{36}$/);
    assert.equal(res.body.data.type, 'infer_number_results');
    assert.deepEqual(res.body.data.attributes.shipping_line.selected, { scac: 'MAEU', name: 'Maersk', confidence: 0.98 });
  });

  test('numbers as pasted: case, blanks, dashes and a label do not matter', async () => {
    for (const number of ['msku7531597', 'MSKU 753159 7', 'MSKU-753159-7', ' MSKU.7531597 ', 'Container: MSKU 7531597', '"MSKU7531597"']) {
      const a = await attributes(number);
      assert.equal(a.validation.parsed_number, 'MSKU7531597', number);
      assert.equal(a.shipping_line.selected.scac, 'MAEU', number);
    }
  });

  test('legacy boxes of merged lines are suggested for confirmation', async () => {
    for (const [number, scac] of [['KKFU4898534', 'ONEY'], ['MOLU5918545', 'ONEY'], ['NYKU3585500', 'ONEY'], ['CBHU4992539', 'COSU']]) {
      const a = await attributes(number);
      assert.equal(a.shipping_line.decision, 'needs_confirmation', number);
      assert.equal(a.shipping_line.selected.scac, scac, number);
    }
  });

  test('leased boxes name no line; a lessor tied to a line lists it as a candidate', async () => {
    for (const number of ['TGHU6701746', 'TCNU2069275', 'CAIU7018209', 'TRHU3614423', 'SEGU8667010', 'TCLU3272572', 'TEMU5279779', 'BMOU3930580']) {
      const a = await attributes(number);
      assert.equal(a.number_type, 'container', number);
      assert.equal(a.validation.is_valid, true, number);
      assert.deepEqual(a.shipping_line, { decision: 'no_prediction', selected: null, candidates: [] }, number);
    }
    const florens = await attributes('FSCU1137511');
    assert.equal(florens.shipping_line.decision, 'no_prediction');
    assert.equal(florens.shipping_line.selected, null);
    assert.deepEqual(florens.shipping_line.candidates.map((c: any) => c.scac), ['COSU']);
  });

  test('an invalid number is said so and still gets a prediction', async () => {
    const a = await attributes('MSKU7531598');
    assert.equal(a.number_type, 'container');
    assert.equal(a.validation.is_valid, false);
    assert.equal(a.validation.check_digit_passed, false);
    assert.match(a.validation.reason, /check digit/);
    assert.equal(a.shipping_line.decision, 'needs_confirmation');
    assert.equal(a.shipping_line.selected.scac, 'MAEU');

    const missing = await attributes('HLXU823985');
    assert.match(missing.validation.reason, /Missing check digit/);
    assert.equal(missing.shipping_line.selected.scac, 'HLCU');

    const unknownOwner = await attributes('QZXU1234560');
    assert.equal(unknownOwner.number_type, 'container');
    assert.equal(unknownOwner.shipping_line.decision, 'no_prediction');
  });
});

describe('bills of lading and bookings', () => {
  test('a SCAC or B/L prefix in front names the line', async () => {
    const cases: [string, string][] = [
      ['MAEU 123456789', 'MAEU'],
      ['maeu123456789', 'MAEU'],
      ['MEDU-AB12345', 'MSCU'],
      ['MEDUFR030802', 'MSCU'],
      ['CMDUSHZ1234567', 'CMDU'],
      ['HLCUHAM230512345', 'HLCU'],
      ['ONEYSH9AME650500', 'ONEY'],
      ['EGLV084900042045', 'EGLV'],
      ['COSU6123456780', 'COSU'],
      ['OOLU2712345670', 'OOLU'],
      ['HDMUSELA1234567', 'HDMU'],
      ['YMLUW123456789', 'YMLU'],
      ['ZIMUSNH1234567', 'ZIMU'],
      ['WHLC012345678', 'WHLC'],
      ['B/L No.: SUDU21ABC123456', 'SUDU'],
    ];
    for (const [number, scac] of cases) {
      const a = await attributes(number);
      assert.equal(a.number_type, 'bill_of_lading', number);
      assert.equal(a.validation.type, 'shipment', number);
      assert.equal(a.validation.check_digit_passed, null, number);
      assert.equal(a.shipping_line.decision, 'auto_select', number);
      assert.equal(a.shipping_line.selected.scac, scac, number);
    }
  });

  test('a SCAC the data doubts asks for confirmation', async () => {
    const a = await attributes('GOSU1234567890');
    assert.equal(a.shipping_line.decision, 'needs_confirmation');
    assert.equal(a.shipping_line.selected.scac, 'GOSU');
  });

  test('without a prefix, a documented shape is a suggestion, never a choice', async () => {
    const maersk = await attributes('123456789');
    assert.equal(maersk.shipping_line.decision, 'needs_confirmation');
    assert.equal(maersk.shipping_line.selected.scac, 'MAEU');
    const evergreen = await attributes('084900042045');
    assert.equal(evergreen.shipping_line.selected.scac, 'EGLV');
    assert.equal(evergreen.shipping_line.decision, 'needs_confirmation');
  });

  test('bookings get candidates only', async () => {
    const hapag = await attributes('23456789');
    assert.equal(hapag.number_type, 'booking');
    assert.equal(hapag.shipping_line.decision, 'no_prediction');
    assert.deepEqual(hapag.shipping_line.candidates.map((c: any) => c.scac), ['HLCU']);
    const tenDigits = await attributes('6123456780');
    assert.deepEqual(tenDigits.shipping_line.candidates.map((c: any) => c.scac).sort(), ['COSU', 'OOLU']);
    const cma = await attributes('LHV1234567');
    assert.equal(cma.number_type, 'booking');
    assert.equal(cma.shipping_line.candidates[0].scac, 'CMDU');
  });

  test('garbage that could be a number gets no prediction', async () => {
    for (const number of ['ABC123XYZ', 'INVOICE 2026 0042', '12345678901234', 'X1Y2Z3W4']) {
      const a = await attributes(number);
      assert.equal(a.shipping_line.decision, 'no_prediction', number);
      assert.equal(a.shipping_line.selected, null, number);
      assert.equal(a.validation.is_valid, null, number);
    }
  });
});

describe('errors', () => {
  test('422 with a pointer for a missing, empty or non-string number', async () => {
    const cases: [unknown, string][] = [
      [{}, 'blank'],
      [{ number: '' }, 'blank'],
      [{ number: '   ' }, 'blank'],
      [{ number: 123456789 }, 'invalid'],
      [{ number: null }, 'invalid'],
      [{ number: ['MSKU7531597'] }, 'invalid'],
      [{ number: 'M'.repeat(201) }, 'too_long'],
      // The body is plain JSON, not a JSON:API document.
      [{ data: { attributes: { number: 'MSKU7531597' } } }, 'blank'],
    ];
    for (const [body, code] of cases) {
      const res = await t.request('POST', PATH, { body });
      assert.equal(res.status, 422, JSON.stringify(body));
      const [error] = res.body.errors;
      assert.equal(error.source.pointer, '/number', JSON.stringify(body));
      assert.equal(error.code, code, JSON.stringify(body));
      assert.equal(error.status, '422');
    }
    const notObject = await t.request('POST', PATH, { rawBody: '["MSKU7531597"]' });
    assert.equal(notObject.status, 422);
  });

  test('422 for input that cannot be a tracking number', async () => {
    for (const number of ['hello', 'n/a', '!!!', 'ops@example.com', '12']) {
      const res = await infer(number);
      assert.equal(res.status, 422, number);
      assert.equal(res.body.errors[0].source.pointer, '/number');
      assert.match(res.body.errors[0].detail, /^This reference number is not valid: /);
    }
  });

  test('an API key is needed', async () => {
    const res = await t.request('POST', PATH, { body: { number: 'MSKU7531597' }, key: null });
    assert.equal(res.status, 401);
  });
});

test('200 inferences a minute per key, then 429 with Retry-After; the window rolls', async () => {
  const { key } = await t.newAccount('Inferrer');
  const statuses: number[] = [];
  for (let batch = 0; batch < 10; batch++) {
    statuses.push(...(await Promise.all(Array.from({ length: 20 }, () => infer('MSKU7531597', key)))).map((r) => r.status));
  }
  assert.deepEqual(statuses, Array(200).fill(200));
  t.clock.advance(15_000);
  const over = await infer('MSKU7531597', key);
  assert.equal(over.status, 429);
  assert.equal(over.headers.get('retry-after'), '45');
  assert.equal(over.body.errors[0].status, '429');
  assert.match(over.body.errors[0].detail, /Rate limit exceeded/);
  // Other routes keep their own budget.
  assert.equal((await t.request('GET', '/v2/parties', { key })).status, 200);
  t.clock.advance(45_001);
  assert.equal((await infer('MSKU7531597', key)).status, 200);
});

test('the route is in the OpenAPI document, and its answer matches it member by member', async () => {
  const doc = (await t.request('GET', '/v2/openapi.json', { key: null })).body;
  const operation = doc.paths['/v2/tracking_requests/infer_number'].post;
  assert.ok(operation.requestBody.content['application/json'].schema.properties.number);
  assert.deepEqual(operation.requestBody.content['application/json'].schema.required, ['number']);
  const closed = (s: any): any => {
    if (Array.isArray(s)) return s.map(closed);
    if (typeof s !== 'object' || s === null) return s;
    const copy = Object.fromEntries(Object.entries(s).map(([k, v]) => [k, closed(v)]));
    if ('properties' in copy && !('additionalProperties' in copy)) copy.additionalProperties = false;
    return copy;
  };
  const validate = new Ajv2020({ allErrors: true }).compile(closed(operation.responses['200'].content['application/vnd.api+json'].schema));
  for (const number of ['MSKU7531597', 'TGHU6701746', 'MAEU123456789', '23456789', 'MSKU7531598']) {
    const res = await infer(number);
    assert.ok(validate(res.body), `${number}: ${JSON.stringify(validate.errors)}`);
  }
});
