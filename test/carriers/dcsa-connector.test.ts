// DcsaConnector.lookup against a real HTTP carrier and terminal service on 127.0.0.1: the
// snapshot it builds and the outcome for every way a carrier can answer.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, beforeEach, test } from 'node:test';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { ManualClock } from '../../src/clock.ts';
import { DcsaConnector, type DcsaConnectorOptions } from '../../src/carriers/dcsa/connector.ts';
import type { DcsaClientOptions } from '../../src/carriers/dcsa/client.ts';
import type { LookupOutcome, LookupRequest } from '../../src/carriers/types.ts';

const sample = (name: string): any => JSON.parse(readFileSync(`/work/shared/reference/dcsa/${name}`, 'utf8'));

/** How the carrier answers, by the reference asked about. */
const carrier = new Map<string, (reply: FastifyReply, query: Record<string, string>) => unknown>();
/** How the terminal service answers, by container number. */
const terminal = new Map<string, (reply: FastifyReply) => unknown>();
const queries: Record<string, string>[] = [];

let app: FastifyInstance;
let origin: string;

before(async () => {
  app = Fastify({ forceCloseConnections: true });
  app.get('/:version/events', (request, reply) => {
    const query = request.query as Record<string, string>;
    queries.push(query);
    const reference = query.carrierBookingReference ?? query.transportDocumentReference ?? query.equipmentReference;
    const answer = carrier.get(reference);
    return answer ? answer(reply, query) : reply.code(404).send({ message: 'unknown' });
  });
  app.get('/terminal/containers/:number', (request, reply) => {
    const answer = terminal.get((request.params as { number: string }).number);
    return answer ? answer(reply) : reply.code(404).send();
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
after(() => app.close());
beforeEach(() => terminal.clear());

const clock = new ManualClock('2026-02-01T12:00:00Z');

function connector(client: Partial<DcsaClientOptions> = {}, options: DcsaConnectorOptions = {}): DcsaConnector {
  return new DcsaConnector(
    { baseUrl: origin, apiKey: 'k', version: '2.2', timeoutMs: 1000, ...client },
    { terminalBaseUrl: `${origin}/terminal`, clock, ...options },
  );
}

const lookup = (request: Partial<LookupRequest> & Pick<LookupRequest, 'number'>, c = connector()): Promise<LookupOutcome> =>
  c.lookup({ scac: 'EXCO', numberType: 'booking_number', ...request });

function assertFailed(outcome: LookupOutcome, reason: string, temporary: boolean): string {
  assert.equal(outcome.kind, 'failed', JSON.stringify(outcome));
  assert.ok(outcome.kind === 'failed');
  assert.equal(outcome.reason, reason, outcome.detail);
  assert.equal(outcome.temporary, temporary);
  return outcome.detail;
}

function snapshotOf(outcome: LookupOutcome) {
  assert.equal(outcome.kind, 'found', JSON.stringify(outcome));
  assert.ok(outcome.kind === 'found');
  return outcome.snapshot;
}

test('found by booking: events, containers, document numbers and terminal data', async () => {
  carrier.set('ABC123123123', (reply) => reply.send(sample('tnt-220-response.json')));
  const status = {
    containerNumber: 'APZU4812090',
    terminalCode: 'ADT',
    availableForPickup: false,
    holds: [{ name: 'customs', status: 'hold', description: null }],
    fees: [{ type: 'demurrage', amount: 150.5, currency_code: 'EUR' }],
    lastFreeDay: '2026-02-03',
    pickupAppointmentAt: null,
  };
  terminal.set('APZU4812090', (reply) => reply.send({ ...status, observedAt: '2026-02-01T11:00:00+01:00' }));
  const snapshot = snapshotOf(await lookup({ number: 'ABC123123123' }));
  assert.equal(queries.at(-1)?.carrierBookingReference, 'ABC123123123');
  assert.equal(snapshot.scac, 'EXCO');
  assert.equal(snapshot.bookingNumber, 'ABC123123123');
  assert.equal(snapshot.billOfLadingNumber, 'reserved-HHL123');
  assert.deepEqual(snapshot.containers, [{ number: 'APZU4812090', isoEquipmentCode: '22GP', sealNumber: 'string', weightKg: null }]);
  assert.equal(snapshot.events.length, 7);
  assert.deepEqual(snapshot.fetchedAt, new Date('2026-02-01T12:00:00Z'));
  // Everything the terminal said, its local observation time read as an instant.
  assert.deepEqual(snapshot.terminal, [{ ...status, observedAt: new Date('2026-02-01T10:00:00Z') }]);
});

test('found by container on 3.0 across two pages; the newest equipment event gives the size-type', async () => {
  carrier.set('MSCU1234566', (reply, query) =>
    query.cursor === undefined
      ? reply.header('Next-Page-Cursor', 'two').send(sample('tnt-300-response.json'))
      : reply.send(sample('tnt-300-response-nextpage.json')),
  );
  const snapshot = snapshotOf(await lookup({ numberType: 'container', number: 'MSCU1234566' }, connector({ version: '3.0' })));
  assert.equal(queries.at(-1)?.equipmentReference, 'MSCU1234566');
  assert.equal(snapshot.events.length, 6);
  assert.equal(snapshot.bookingNumber, 'ABC709951');
  assert.equal(snapshot.billOfLadingNumber, 'HHL71800000');
  // The container asked about comes first even though the carrier's events name another.
  assert.deepEqual(snapshot.containers, [
    { number: 'MSCU1234566', isoEquipmentCode: null, sealNumber: null, weightKg: null },
    { number: 'APZU4812090', isoEquipmentCode: '22GP', sealNumber: null, weightKg: null },
  ]);
  assert.deepEqual(snapshot.terminal, [], 'the terminal answers 404 for both');
});

test('a bill of lading is looked up as transportDocumentReference', async () => {
  carrier.set('HHL71800000', (reply) => reply.send(sample('tnt-220-response.json')));
  const snapshot = snapshotOf(await lookup({ numberType: 'bill_of_lading', number: 'HHL71800000' }, connector({}, { terminalBaseUrl: undefined })));
  assert.equal(queries.at(-1)?.transportDocumentReference, 'HHL71800000');
  assert.equal(snapshot.billOfLadingNumber, 'HHL71800000');
  assert.equal(snapshot.bookingNumber, 'ABC123123123');
  assert.deepEqual(snapshot.terminal, []);
});

test('an actual cancellation of the booking is a final booking_cancelled; another booking’s is not', async () => {
  const cancellation = (booking: string) => ({ ...sample('tnt-220-response.json')[4], eventID: 'cancel-1', shipmentEventTypeCode: 'CANC', documentID: booking });
  carrier.set('BKCANC', (reply) => reply.send([...sample('tnt-220-response.json'), cancellation('BKCANC')]));
  assert.match(assertFailed(await lookup({ number: 'BKCANC' }), 'booking_cancelled', false), /cancel-1/);

  carrier.set('BKSPLIT', (reply) => reply.send([...sample('tnt-220-response.json'), cancellation('BKOTHER')]));
  snapshotOf(await lookup({ number: 'BKSPLIT' }));

  const v3 = sample('tnt-300-response.json');
  v3.events[0].eventClassification.shipmentEventTypeCode = 'CACF';
  carrier.set('ABC709951', (reply) => reply.send(v3));
  assertFailed(await lookup({ number: 'ABC709951' }, connector({ version: '3.0' })), 'booking_cancelled', false);
});

test('no events: not_found, for now (200 []) or for good (404), unless the lookup only asked for news', async () => {
  carrier.set('EMPTY', (reply) => reply.send([]));
  assertFailed(await lookup({ number: 'EMPTY' }), 'not_found', true);
  assertFailed(await lookup({ number: 'UNKNOWN' }), 'not_found', false);

  const since = new Date('2026-01-30T00:00:00Z');
  for (const number of ['EMPTY', 'UNKNOWN']) {
    const snapshot = snapshotOf(await lookup({ numberType: 'container', number, since }));
    assert.deepEqual(snapshot.events, []);
    assert.deepEqual(snapshot.containers, [{ number, isoEquipmentCode: null, sealNumber: null, weightKg: null }]);
  }
  assert.equal(queries.at(-1)?.['eventCreatedDateTime:gte'], '2026-01-30T00:00:00.000Z');
});

test('HTTP statuses map to final or temporary failures', async () => {
  const cases: [number, string, boolean][] = [
    [400, 'invalid_number', false],
    [401, 'data_unavailable', false],
    [403, 'data_unavailable', false],
    [408, 'shipping_line_unreachable', true],
    [429, 'shipping_line_unreachable', true],
    [500, 'shipping_line_unreachable', true],
    [503, 'shipping_line_unreachable', true],
    [418, 'unrecognized_response', true],
  ];
  for (const [status, reason, temporary] of cases) {
    carrier.set(`STATUS${status}`, (reply) => reply.code(status).send({ errors: [{ reason: 'x' }] }));
    const detail = assertFailed(await lookup({ number: `STATUS${status}` }), reason, temporary);
    assert.match(detail, new RegExp(`^HTTP ${status}`));
  }
});

test('garbage, malformed events, slowness, redirects and dead hosts are temporary failures', async () => {
  carrier.set('GARBAGE', (reply) => reply.type('text/plain').send('Service temporarily moved'));
  assertFailed(await lookup({ number: 'GARBAGE' }), 'unrecognized_response', true);

  // An object is read only when it holds the list as `events` (3.0's shape, which some 2.2 carriers send).
  carrier.set('OBJECT', (reply) => reply.send({ data: sample('tnt-220-response.json') }));
  assertFailed(await lookup({ number: 'OBJECT' }), 'unrecognized_response', true);
  carrier.set('WRAPPED', (reply) => reply.send({ events: sample('tnt-220-response.json') }));
  assert.equal(snapshotOf(await lookup({ number: 'WRAPPED' })).events.length, sample('tnt-220-response.json').length);

  // One malformed event costs only itself; an answer of which none can be read is unrecognised.
  const broken = sample('tnt-220-response.json');
  delete broken[2].eventDateTime;
  carrier.set('BROKEN', (reply) => reply.send(broken));
  const snapshot = snapshotOf(await lookup({ number: 'BROKEN' }));
  assert.equal(snapshot.events.length, broken.length - 1);
  assert.deepEqual(snapshot.rejected?.map((r) => r.reason), ['event 2 (3cecb101-7a1a-43a4-9d62-e88a131651e4): eventDateTime: missing']);
  carrier.set('ALL-BROKEN', (reply) => reply.send([broken[2]]));
  const detail = assertFailed(await lookup({ number: 'ALL-BROKEN' }), 'unrecognized_response', true);
  assert.equal(detail, 'no usable event: event 0 (3cecb101-7a1a-43a4-9d62-e88a131651e4): eventDateTime: missing');

  carrier.set('SLOW', async (reply) => {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    return reply.send([]);
  });
  assertFailed(await lookup({ number: 'SLOW' }, connector({ timeoutMs: 100 })), 'shipping_line_unreachable', true);

  carrier.set('MOVED', (reply) => reply.redirect('https://elsewhere.example/v2/events'));
  assertFailed(await lookup({ number: 'MOVED' }), 'shipping_line_unreachable', true);

  const dead = new DcsaConnector({ baseUrl: 'http://127.0.0.1:9', version: '2.2', timeoutMs: 1000 });
  assertFailed(await dead.lookup({ scac: 'EXCO', numberType: 'container', number: 'APZU4812090' }), 'shipping_line_unreachable', true);
});

test('terminal data is best-effort: a failing terminal leaves the container out and is reported to the hook', async () => {
  carrier.set('TERMFAIL', (reply) => reply.send(sample('tnt-220-response.json')));
  terminal.set('APZU4812090', (reply) => reply.code(500).send());
  const failures: [string, unknown][] = [];
  const onTerminalError = (number: string, error: unknown) => failures.push([number, error]);
  let snapshot = snapshotOf(await lookup({ number: 'TERMFAIL' }, connector({}, { onTerminalError })));
  assert.deepEqual(snapshot.terminal, []);
  assert.equal(failures.length, 1);
  assert.equal(failures[0][0], 'APZU4812090');

  // A shape that is not the contract's (pickup flag as a string) is a failure too.
  terminal.set('APZU4812090', (reply) =>
    reply.send({ containerNumber: 'APZU4812090', terminalCode: null, availableForPickup: 'yes', holds: [], fees: [], lastFreeDay: null, pickupAppointmentAt: null, observedAt: '2026-02-01T10:00:00Z' }),
  );
  snapshot = snapshotOf(await lookup({ number: 'TERMFAIL' }, connector({}, { onTerminalError })));
  assert.deepEqual(snapshot.terminal, []);
  assert.match(String(failures[1][1]), /availableForPickup/);
});

test('an exception in our own code is a temporary internal_processing_error', async () => {
  const brokenClock = {
    now(): Date {
      throw new Error('clock unplugged');
    },
  };
  const outcome = await lookup({ number: 'ABC123123123' }, connector({}, { clock: brokenClock }));
  assert.equal(assertFailed(outcome, 'internal_processing_error', true), 'clock unplugged');
});
