// The carrier catalogue says where each fact comes from, and leaves a fact it could not confirm empty.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CARRIER_CATALOGUE, type Fact } from '../../src/carriers/catalogue.ts';
import { resolveCarrier } from '../../src/carriers/endpoints.ts';

test('every fact has a value with its sources, or is unconfirmed with no value', () => {
  assert.equal(new Set(CARRIER_CATALOGUE.map((c) => c.scac)).size, CARRIER_CATALOGUE.length, 'one entry per SCAC');
  for (const carrier of CARRIER_CATALOGUE) {
    assert.match(carrier.scac, /^[A-Z]{4}$/);
    for (const [name, fact] of Object.entries({ eventsUrl: carrier.eventsUrl, version: carrier.version, auth: carrier.auth }) as [string, Fact<unknown>][]) {
      const where = `${carrier.scac} ${name}`;
      if (fact.status === 'unconfirmed') {
        assert.equal(fact.value, null, `${where}: an unconfirmed fact is not guessed`);
        assert.ok(fact.searched, `${where}: says what was looked for`);
      } else {
        assert.notEqual(fact.value, null, where);
        assert.ok(fact.sources.length > 0, `${where}: has a source`);
      }
      for (const source of fact.sources) {
        assert.match(source.url, /^https:\/\//, where);
        assert.ok(source.says.length > 10, `${where}: says what the source says`);
      }
    }
    if (carrier.eventsUrl.value) assert.match(carrier.eventsUrl.value, /^https:\/\/[^/]+\//, `${carrier.scac}: a full https URL`);
  }
});

test("a catalogue SCAC with credentials alone resolves to the catalogue's endpoint, version and scheme", () => {
  const maersk = resolveCarrier({ scac: 'maeu', clientId: 'id', clientSecret: 'secret' });
  assert.equal(maersk.eventsUrl, 'https://api.maersk.com/track-and-trace-private/events');
  assert.equal(maersk.version, '2.2');
  assert.deepEqual(maersk.credentials, {
    kind: 'oauth2',
    tokenUrl: 'https://api.maersk.com/customer-identity/oauth/v2/access_token',
    clientIdHeader: 'Consumer-Key',
    clientId: 'id',
    clientSecret: 'secret',
  });
  assert.deepEqual(resolveCarrier({ scac: 'CMDU', apiKey: 'k' }).credentials, { kind: 'api_key', header: 'KeyId', key: 'k' });
  assert.deepEqual(resolveCarrier({ scac: 'HLCU', clientId: 'i', clientSecret: 's' }).credentials, {
    kind: 'client_headers',
    idHeader: 'X-IBM-Client-Id',
    secretHeader: 'X-IBM-Client-Secret',
    clientId: 'i',
    clientSecret: 's',
  });
  assert.deepEqual(resolveCarrier({ scac: 'HLCU' }).missing, ['clientId', 'clientSecret']);
  // What the user configures wins: an endpoint of their own drops the catalogue's URL, a version its version.
  const own = resolveCarrier({ scac: 'ZIMU', baseUrl: 'https://proxy.example/zim', version: '3.0', apiKey: 'k' });
  assert.deepEqual([own.eventsUrl, own.baseUrl, own.version], [undefined, 'https://proxy.example/zim', '3.0']);
  assert.deepEqual(own.credentials, { kind: 'api_key', header: 'Ocp-Apim-Subscription-Key', key: 'k' });
});
