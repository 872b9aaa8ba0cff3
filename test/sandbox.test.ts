// The sandbox carrier network: deterministic, physically plausible journeys; DCSA 2.2 over real
// HTTP on loopback (only published events, paging, filters); every documented test number; signed
// push deliveries to a real receiver; terminal data changing over time; anchors surviving a restart.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../src/clock.ts';
import { DAY, HOUR } from '../src/domain/time-units.ts';
import { haversineNm } from '../src/geo/distance.ts';
import { checkDigit, containerNumber, isValidContainerNumber } from '../src/sandbox/iso6346.ts';
import type { Journey, JourneyEvent } from '../src/sandbox/journey.ts';
import { localDate, localDateTime } from '../src/sandbox/local-time.ts';
import { parseEventsQuery } from '../src/sandbox/event-query.ts';
import { NO_DIRT } from '../src/sandbox/dirt.ts';
import { planJourney } from '../src/sandbox/planner.ts';
import { ScaledClock } from '../src/sandbox/scaled-clock.ts';
import { buildSandboxServer, type SandboxApp } from '../src/sandbox/server.ts';
import { TEST_NUMBERS } from '../src/sandbox/test-numbers.ts';
import { loadSandboxWorld, SANDBOX_SCACS, type SandboxWorld } from '../src/sandbox/world.ts';

const START = '2026-03-10T00:00:00Z';

let world: SandboxWorld;
before(async () => {
  world = await loadSandboxWorld();
});

/** A sandbox on a loopback port with its own manual clock. */
async function startSandbox(statePath?: string, start = START) {
  const clock = new ManualClock(start);
  const app: SandboxApp = await buildSandboxServer({ clock, statePath, world, dirt: NO_DIRT });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, clock, url, close: () => app.close() };
}

async function get(url: string) {
  const res = await fetch(url, { headers: { 'API-Key': 'anything' } });
  const text = await res.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, body, text };
}

/** Follows Next-Page until the last page and returns every event. */
async function getAll(url: string) {
  const events: any[] = [];
  let next: string | null = url;
  let pages = 0;
  while (next) {
    const res = await get(next);
    assert.equal(res.status, 200, res.text);
    events.push(...res.body);
    next = res.headers.get('next-page');
    assert.ok(++pages < 200, 'paging does not end');
  }
  return { events, pages };
}

const eventsUrl = (base: string, scac: string, query: string) => `${base}/carriers/${scac}/v2/events?${query}`;

describe('ISO 6346 and local time', () => {
  test('check digits match published examples', () => {
    assert.equal(checkDigit('CSQU305438'), 3);
    assert.ok(isValidContainerNumber('CSQU3054383'));
    assert.ok(isValidContainerNumber('MSKU9070323'));
    assert.ok(!isValidContainerNumber('CSQU3054384'));
    assert.ok(!isValidContainerNumber('CSQ3054383'));
    assert.equal(containerNumber('SBXU', 404), 'SBXU0004040');
  });

  test('event times carry the offset of the place, daylight saving included', () => {
    const at = new Date('2026-07-01T12:00:00Z');
    assert.equal(localDateTime(at, 'Asia/Kolkata'), '2026-07-01T17:30:00+05:30');
    assert.equal(localDateTime(at, 'America/Los_Angeles'), '2026-07-01T05:00:00-07:00');
    assert.equal(localDateTime(new Date('2026-01-01T12:00:00Z'), 'America/Los_Angeles'), '2026-01-01T04:00:00-08:00');
    assert.equal(localDateTime(at, 'Europe/London'), '2026-07-01T13:00:00+01:00');
    assert.equal(localDate(new Date('2026-07-01T20:00:00Z'), 'Asia/Shanghai'), '2026-07-02');
  });

  test('ScaledClock runs speed times faster than the real clock from its anchor', () => {
    const real = new ManualClock('2026-05-01T00:00:00Z');
    const clock = new ScaledClock(real.now(), 3600, real);
    assert.equal(clock.now().toISOString(), '2026-05-01T00:00:00.000Z');
    real.advance(1000);
    assert.equal(clock.now().toISOString(), '2026-05-01T01:00:00.000Z');
    assert.throws(() => new ScaledClock(real.now(), 0));
  });
});

/** Many generated journeys across every sandbox carrier and number type. */
function sampleJourneys(): Journey[] {
  const out: Journey[] = [];
  const start = new Date(START);
  for (const scac of SANDBOX_SCACS) {
    const carrier = world.carrier(scac)!;
    for (let i = 0; i < 12; i++) {
      const serial = 100_000 + i * 7919;
      out.push(planJourney(world, scac, 'bill_of_lading', `${carrier.blPrefixes[0]}${serial}0${i}`, start, NO_DIRT));
      out.push(planJourney(world, scac, 'booking_number', `${serial}${i}`, start, NO_DIRT));
      out.push(planJourney(world, scac, 'container', containerNumber(carrier.containerPrefixes[i % carrier.containerPrefixes.length], serial), start, NO_DIRT));
    }
  }
  for (const t of TEST_NUMBERS) {
    if (t.shape) out.push(planJourney(world, t.scac, t.numberType, t.number, start, NO_DIRT));
  }
  return out;
}

const actual = (j: Journey) => j.events.filter((e) => e.classifier === 'ACT' && e.type !== 'SHIPMENT');
function onlyOne(events: JourneyEvent[], what: string): JourneyEvent {
  assert.equal(events.length, 1, `expected exactly one ${what}, got ${events.length}`);
  return events[0];
}

describe('journey planner', () => {
  let journeys: Journey[];
  before(() => {
    journeys = sampleJourneys();
  });

  test('the same carrier and number always give the same journey', () => {
    const start = new Date(START);
    for (const [scac, type, number] of [
      ['MAEU', 'bill_of_lading', 'MAEU261234567'],
      ['CMDU', 'container', 'CMAU2600020'],
      ['TEST', 'bill_of_lading', 'TEST-TS2-FEEDER'],
    ] as const) {
      const a = planJourney(world, scac, type, number, start, NO_DIRT);
      const b = planJourney(world, scac, type, number, start, NO_DIRT);
      assert.deepEqual(JSON.parse(JSON.stringify(b)), JSON.parse(JSON.stringify(a)));
    }
    const other = planJourney(world, 'MAEU', 'bill_of_lading', 'MAEU261234568', start, NO_DIRT);
    assert.notDeepEqual(other.containers, planJourney(world, 'MAEU', 'bill_of_lading', 'MAEU261234567', start, NO_DIRT).containers);
  });

  test('containers have valid ISO 6346 numbers with the carrier’s own prefixes; a container request tracks that box', () => {
    for (const j of journeys) {
      const carrier = world.carrier(j.scac)!;
      assert.ok(j.containers.length >= (j.route ? 1 : 0) && j.containers.length <= 4);
      for (const [i, c] of j.containers.entries()) {
        assert.ok(isValidContainerNumber(c.number), c.number);
        if (!(i === 0 && j.numberType === 'container')) assert.ok(carrier.containerPrefixes.includes(c.number.slice(0, 4)), `${j.scac} ${c.number}`);
        assert.match(c.isoEquipmentCode, /^(22G1|42G1|45G1|45R1)$/);
        assert.ok(c.seals.length > 0 && c.weightKg > 1000);
      }
      if (j.numberType === 'container') assert.equal(j.containers[0].number, j.number);
      if (j.numberType === 'bill_of_lading') assert.equal(j.billOfLading, j.number);
    }
  });

  test('each box moves in order: empty out, full in, load/depart/arrive/discharge per leg, full out, empty in', () => {
    for (const j of journeys.filter((x) => x.route)) {
      const events = actual(j);
      for (const box of j.containers.map((c) => c.number)) {
        const mine = (code: string, filter: (e: JourneyEvent) => boolean = () => true) =>
          events.filter((e) => e.code === code && (e.container === box || e.containers.includes(box)) && filter(e));
        const chain: JourneyEvent[] = [onlyOne(mine('GTOT', (e) => e.emptyIndicator === 'EMPTY'), 'empty out'), onlyOne(mine('GTIN', (e) => e.emptyIndicator === 'LADEN'), 'full in')];
        for (const leg of j.legs) {
          const onLeg = (e: JourneyEvent) => e.leg === leg;
          chain.push(onlyOne(mine('LOAD', onLeg), 'load'), onlyOne(mine('DEPA', onLeg), 'departure'), onlyOne(mine('ARRI', onLeg), 'arrival'), onlyOne(mine('DISC', onLeg), 'discharge'));
        }
        chain.push(onlyOne(mine('GTOT', (e) => e.emptyIndicator === 'LADEN'), 'full out'), onlyOne(mine('GTIN', (e) => e.emptyIndicator === 'EMPTY'), 'empty in'));
        for (let i = 1; i < chain.length; i++) {
          assert.ok(chain[i].occurredAt > chain[i - 1].occurredAt, `${j.number} ${box}: ${chain[i].code} at ${chain[i].occurredAt.toISOString()} is not after ${chain[i - 1].code}`);
        }
      }
    }
  });

  test('sailing times follow sea distances at 14–20 knots; ports, terminals and vessels are real', () => {
    const imos = new Set([...world.mainlineVessels, ...world.feederVessels].map((v) => v.imo));
    for (const j of journeys.filter((x) => x.route)) {
      for (const leg of j.legs) {
        const hours = (leg.arriveAt.getTime() - leg.departAt.getTime()) / HOUR;
        for (const end of [leg.from, leg.to]) {
          const place = world.place(end.place.locode);
          if (end.smdgCode) assert.ok(place.terminals.some((t) => t.smdgCode === end.smdgCode), `${end.smdgCode} at ${place.locode}`);
        }
        if (leg.mode === 'RAIL') {
          assert.ok(leg.distance / hours > 30 && leg.distance / hours < 60, `rail ${leg.distance} km in ${hours} h`);
          continue;
        }
        const greatCircle = haversineNm([leg.from.place.lon, leg.from.place.lat], [leg.to.place.lon, leg.to.place.lat]);
        assert.ok(leg.distance >= greatCircle * 0.98, `${leg.from.place.locode}→${leg.to.place.locode}: ${leg.distance} nm < great circle ${greatCircle}`);
        const knots = leg.distance / hours;
        if (leg.mode === 'VESSEL') {
          assert.ok(knots >= 13.9 && knots <= 20.1, `${leg.from.place.locode}→${leg.to.place.locode} at ${knots} knots`);
          assert.ok(leg.vessel && imos.has(leg.vessel.imo));
        } else {
          assert.ok(knots >= 8.9 && knots <= 11.1 && leg.distance <= 300, `barge at ${knots} knots over ${leg.distance} nm`);
        }
      }
    }
  });

  test('every event is published after it happens; estimates before the actual; the first ETA is a plan', () => {
    for (const j of journeys.filter((x) => x.route)) {
      for (const e of j.events) {
        if (e.classifier === 'ACT') assert.ok(e.publishedAt >= e.occurredAt, `${j.number} ${e.code} published before it happened`);
        assert.ok(e.publishedAt >= j.startAt);
      }
      const arrival = j.events.find((e) => e.classifier === 'ACT' && e.milestones.includes('container.transport.vessel_arrived'))!;
      const etas = j.events.filter((e) => e.estimate === 'shipment.estimated.arrival');
      assert.equal(etas[0].classifier, 'PLN');
      for (const eta of etas) assert.ok(eta.publishedAt < arrival.occurredAt);
      assert.equal(etas.at(-1)!.leg, arrival.leg);
    }
  });

  test('generated journeys cover the shapes: transshipments, feeders, barges, rail, inland origins, holds', () => {
    const generated = journeys.filter((j) => j.scac !== 'TEST' && j.route);
    const count = (f: (j: Journey) => boolean) => generated.filter(f).length;
    assert.ok(count((j) => j.route!.transshipments.length === 0) > 10);
    assert.ok(count((j) => j.route!.transshipments.length === 1) > 10);
    assert.ok(count((j) => j.route!.transshipments.length === 2) > 0);
    assert.ok(count((j) => j.legs.some((l) => l.kind === 'feeder')) > 0);
    assert.ok(count((j) => j.legs.some((l) => l.mode === 'RAIL')) > 5);
    assert.ok(count((j) => j.route!.origin !== null) > 0);
    assert.ok(count((j) => j.terminal.some((t) => t.holds.length > 0)) > 5);
  });
});

test('event query parameter names are looked up as own aliases only', () => {
  const query = parseEventsQuery({ constructor: 'a', toString: 'b', bookingReference: 'BK1' });
  assert.deepEqual(Object.keys(query.params).sort(), ['carrierBookingReference', 'constructor', 'toString']);
});

describe('DCSA 2.2 events over HTTP', () => {
  let s: Awaited<ReturnType<typeof startSandbox>>;
  before(async () => {
    s = await startSandbox();
  });
  after(async () => {
    await s.close();
  });

  test('only published events are served, and more appear as the clock advances', async () => {
    const url = eventsUrl(s.url, 'TEST', 'transportDocumentReference=TEST-TR-SUCCEEDED');
    const first = await getAll(url);
    assert.ok(first.events.length > 0, 'some events are already published at the first lookup');
    const truth = (await get(`${s.url}/sandbox/journeys/TEST/TEST-TR-SUCCEEDED`)).body;
    assert.equal(truth.first_seen_at, new Date(START).toISOString());
    assert.equal(Date.parse(truth.start_at), Date.parse(START) - 3 * DAY);

    let previous = first.events.length;
    for (let day = 0; day < 60; day += 5) {
      const now = s.clock.now();
      const { events } = await getAll(url);
      for (const e of events) assert.ok(Date.parse(e.eventCreatedDateTime) <= now.getTime(), 'an unpublished event was served');
      const published = truth.milestones.filter((m: any) => m.source === 'dcsa' && Date.parse(m.published_at) <= now.getTime());
      const servedIds = new Set(events.map((e: any) => e.eventID));
      for (const m of published) assert.ok(servedIds.has(m.dcsa_event_id), `${m.event} published at ${m.published_at} is missing`);
      assert.ok(events.length >= previous);
      previous = events.length;
      s.clock.advance(5 * DAY);
    }
    const all = (await getAll(url)).events;
    const codes = new Set(all.map((e: any) => e.transportEventTypeCode ?? e.equipmentEventTypeCode ?? e.shipmentEventTypeCode));
    for (const code of ['CONF', 'ISSU', 'ARRI', 'DEPA', 'GTOT', 'GTIN', 'LOAD', 'DISC']) assert.ok(codes.has(code), code);
  });

  test('events have the 2.2 wire shape with local offsets, SMDG terminals and vessels', async () => {
    const { events } = await getAll(eventsUrl(s.url, 'TEST', 'transportDocumentReference=TEST-TR-SUCCEEDED'));
    const truth = (await get(`${s.url}/sandbox/journeys/TEST/TEST-TR-SUCCEEDED`)).body;
    const departure = events.find((e: any) => e.transportEventTypeCode === 'DEPA' && e.eventClassifierCode === 'ACT');
    assert.match(departure.eventID, /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.match(departure.eventCreatedDateTime, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    assert.match(departure.eventDateTime, /\+08:00$/, 'Shanghai is UTC+8');
    const call = departure.transportCall;
    assert.equal(call.UNLocationCode, 'CNSHA');
    assert.equal(call.modeOfTransport, 'VESSEL');
    assert.equal(call.facilityTypeCode, 'POTE');
    assert.match(call.vessel.vesselIMONumber, /^\d{7}$/);
    assert.ok(call.exportVoyageNumber && Number.isInteger(call.transportCallSequenceNumber) && call.transportCallID);
    assert.deepEqual(
      departure.documentReferences.map((d: any) => d.documentReferenceType),
      ['BKG', 'TRD'],
    );
    const truthDeparture = truth.milestones.find((m: any) => m.event === 'container.transport.vessel_departed');
    assert.equal(Date.parse(departure.eventDateTime), Date.parse(truthDeparture.timestamp));

    const arrival = events.find((e: any) => e.transportEventTypeCode === 'ARRI' && e.eventClassifierCode === 'ACT');
    assert.match(arrival.eventDateTime, /-0[78]:00$/, 'Los Angeles is UTC−7 or −8');
    assert.equal(arrival.transportCall.facilityCodeListProvider, 'SMDG');
    assert.ok(arrival.transportCall.facilityCode);

    const load = events.find((e: any) => e.equipmentEventTypeCode === 'LOAD');
    assert.ok(isValidContainerNumber(load.equipmentReference));
    assert.equal(load.emptyIndicatorCode, 'LADEN');
    assert.match(load.ISOEquipmentCode, /^\w{4}$/);
    assert.ok(load.seals.length > 0);
    const emptyOut = events.find((e: any) => e.equipmentEventTypeCode === 'GTOT' && e.emptyIndicatorCode === 'EMPTY');
    assert.equal(emptyOut.transportCall.facilityTypeCode, 'DEPO');
    assert.equal(emptyOut.seals, undefined);
    assert.equal(truth.shipment.pod_original_eta_at, truth.estimates.find((e: any) => e.classifier === 'PLN' && e.event === 'shipment.estimated.arrival').estimated_at);
  });

  test('paging: limit, cursor, full Next-Page URLs, Current-Page and API-Version headers', async () => {
    const all = (await getAll(eventsUrl(s.url, 'TEST', 'transportDocumentReference=TEST-TR-SUCCEEDED&limit=1000'))).events;
    const paged = await getAll(eventsUrl(s.url, 'TEST', 'transportDocumentReference=TEST-TR-SUCCEEDED&limit=7'));
    assert.equal(paged.pages, Math.ceil(all.length / 7));
    assert.deepEqual(paged.events.map((e: any) => e.eventID), all.map((e: any) => e.eventID));
    const res = await get(eventsUrl(s.url, 'TEST', 'transportDocumentReference=TEST-TR-SUCCEEDED&limit=7'));
    assert.equal(res.headers.get('api-version'), '2.2.0');
    assert.ok(res.headers.get('current-page')!.startsWith(`${s.url}/carriers/TEST/v2/events?cursor=`));
    assert.ok(res.headers.get('next-page')!.startsWith(`${s.url}/carriers/TEST/v2/events?cursor=`));
    const defaultPage = await get(eventsUrl(s.url, 'TEST', 'transportDocumentReference=TEST-TR-SUCCEEDED'));
    assert.equal(defaultPage.body.length, Math.min(100, all.length));
    assert.equal((await get(eventsUrl(s.url, 'TEST', 'cursor=not-a-cursor'))).status, 400);
    assert.equal((await get(eventsUrl(s.url, 'TEST', 'transportDocumentReference=TEST-TR-SUCCEEDED&limit=0'))).status, 400);
  });

  test('filters: event type, codes, eventCreatedDateTime operators, equipment reference, contradictions', async () => {
    const ref = 'transportDocumentReference=TEST-TR-SUCCEEDED';
    const all = (await getAll(eventsUrl(s.url, 'TEST', `${ref}&limit=1000`))).events;
    const transport = (await getAll(eventsUrl(s.url, 'TEST', `${ref}&eventType=TRANSPORT`))).events;
    assert.ok(transport.length > 0 && transport.every((e: any) => e.eventType === 'TRANSPORT'));
    const both = (await getAll(eventsUrl(s.url, 'TEST', `${ref}&eventType=TRANSPORT,SHIPMENT`))).events;
    assert.equal(both.length, all.filter((e: any) => e.eventType !== 'EQUIPMENT').length);
    const moves = (await getAll(eventsUrl(s.url, 'TEST', `${ref}&equipmentEventTypeCode=LOAD,DISC`))).events;
    assert.ok(moves.length > 0 && moves.every((e: any) => ['LOAD', 'DISC'].includes(e.equipmentEventTypeCode)));
    const none = await get(eventsUrl(s.url, 'TEST', `${ref}&shipmentEventTypeCode=CONF&equipmentEventTypeCode=GTIN`));
    assert.deepEqual(none.body, []);

    // An unencoded + in the offset, as clients often send it.
    const middle = all[Math.floor(all.length / 2)].eventCreatedDateTime as string;
    const local = localDateTime(new Date(middle), 'Europe/Paris');
    const since = (await getAll(eventsUrl(s.url, 'TEST', `${ref}&eventCreatedDateTime:gte=${local}`))).events;
    assert.ok(since.length > 0 && since.every((e: any) => Date.parse(e.eventCreatedDateTime) >= Date.parse(middle)));
    const before = (await getAll(eventsUrl(s.url, 'TEST', `${ref}&eventCreatedDateTime:lt=${encodeURIComponent(middle)}`))).events;
    assert.equal(before.length + since.length, all.length);
    const exact = (await getAll(eventsUrl(s.url, 'TEST', `${ref}&eventCreatedDateTime=${middle}`))).events;
    assert.ok(exact.length >= 1 && exact.every((e: any) => e.eventCreatedDateTime === middle));

    const box = all.find((e: any) => e.equipmentReference).equipmentReference as string;
    const byBox = (await getAll(eventsUrl(s.url, 'TEST', `equipmentReference=${box}`))).events;
    assert.ok(byBox.some((e: any) => e.eventType === 'TRANSPORT'));
    for (const e of byBox) {
      if (e.eventType === 'EQUIPMENT') assert.equal(e.equipmentReference, box);
      else assert.ok(e.references.some((r: any) => r.referenceValue === box));
    }
    const booking = all.find((e: any) => e.shipmentEventTypeCode === 'CONF').documentID as string;
    assert.equal((await getAll(eventsUrl(s.url, 'TEST', `carrierBookingReference=${booking}&limit=1000`))).events.length, all.length);

    assert.equal((await get(eventsUrl(s.url, 'TEST', `${ref}&eventType=NOPE`))).status, 400);
    assert.equal((await get(eventsUrl(s.url, 'TEST', `${ref}&eventCreatedDateTime:gte=yesterday`))).status, 400);
    assert.equal((await get(eventsUrl(s.url, 'TEST', 'eventType=TRANSPORT'))).status, 400, 'a number reference is required');
  });

  test('unknown carriers are 404; malformed numbers are 400; other well-formed numbers get a journey', async () => {
    const unknown = await get(eventsUrl(s.url, 'XXXX', 'transportDocumentReference=TEST-TR-SUCCEEDED'));
    assert.equal(unknown.status, 404);
    assert.deepEqual(Object.keys(unknown.body).sort(), ['errorDateTime', 'errors', 'httpMethod', 'requestUri', 'statusCode', 'statusCodeText']);
    for (const query of ['equipmentReference=MSCU1234560', 'transportDocumentReference=MSCU', 'transportDocumentReference=ABCD12345678', 'carrierBookingReference=ABCDEFGH']) {
      assert.equal((await get(eventsUrl(s.url, 'MSCU', query))).status, 400, query);
    }
    for (const query of ['transportDocumentReference=MEDU1234567', 'carrierBookingReference=261234567', `equipmentReference=${containerNumber('MSCU', 123456)}`]) {
      const res = await get(eventsUrl(s.url, 'MSCU', query));
      assert.equal(res.status, 200, query);
      assert.ok(res.body.length > 0, query);
    }
  });
});

describe('test numbers', () => {
  let s: Awaited<ReturnType<typeof startSandbox>>;
  before(async () => {
    s = await startSandbox();
  });
  after(async () => {
    await s.close();
  });

  const PARAM = { bill_of_lading: 'transportDocumentReference', booking_number: 'carrierBookingReference', container: 'equipmentReference' } as const;
  const ask = (scac: string, type: keyof typeof PARAM, number: string) => get(eventsUrl(s.url, scac, `${PARAM[type]}=${encodeURIComponent(number)}&limit=1000`));
  const truthOf = async (scac: string, number: string) => (await get(`${s.url}/sandbox/journeys/${scac}/${number}`)).body;
  const milestones = (truth: any) => new Set(truth.milestones.map((m: any) => m.event.replace('container.transport.', '')));

  test('GET /sandbox/test-numbers and the README list the same table', async () => {
    const res = await get(`${s.url}/sandbox/test-numbers`);
    assert.equal(res.body.length, TEST_NUMBERS.length);
    assert.ok(res.body.some((t: any) => t.number === 'TEST-TR-SUCCEEDED' && t.scac === 'TEST'));
    const docs = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    for (const t of res.body) {
      if (t.number_type === 'container') assert.ok(isValidContainerNumber(t.number), t.number);
      // The API's words: a tracking request that finds its journey is `created`, not "succeeded"
      // (that is only the name of its webhook event).
      assert.doesNotMatch(t.outcome.replaceAll('tracking_request.succeeded', ''), /succeeded/, t.number);
      assert.equal(t.status, t.failed_reason ? 'failed' : 'created', t.number);
      const end = t.failed_reason ? `\`failed\`: \`${t.failed_reason}\`` : '`created`, then `tracking_stopped`';
      assert.ok(docs.includes(`| \`${t.number}\` | \`${t.scac}\` | ${t.number_type} | ${t.outcome} | ${end} |`), `README.md lacks the row of ${t.number}`);
    }
  });

  test('the reference service’s two: TEST-TR-SUCCEEDED finds a shipment, TEST-TR-FAILED is not found', async () => {
    for (const type of ['bill_of_lading', 'booking_number', 'container'] as const) {
      assert.equal((await ask('TEST', type, 'TEST-TR-FAILED')).status, 404, type);
      const ok = await ask('TEST', type, 'TEST-TR-SUCCEEDED');
      assert.equal(ok.status, 200);
      assert.ok(ok.body.length > 0);
    }
  });

  test('failures: not found, never manifested, invalid, withheld', async () => {
    assert.equal((await ask('TEST', 'container', 'SBXU0004040')).status, 404);
    assert.equal((await ask('TEST', 'bill_of_lading', 'TEST-INVALID')).status, 400);
    assert.equal((await ask('TEST', 'bill_of_lading', 'TEST-WITHHELD')).status, 403);
    const never = await ask('TEST', 'bill_of_lading', 'TEST-BL-NEVER');
    assert.equal(never.status, 200);
    assert.deepEqual(never.body, []);
  });

  test('a B/L manifested late: empty for two days, then the journey', async () => {
    const first = await ask('TEST', 'bill_of_lading', 'TEST-BL-LATE');
    assert.deepEqual(first.body, []);
    s.clock.advance(2 * DAY - HOUR);
    assert.deepEqual((await ask('TEST', 'bill_of_lading', 'TEST-BL-LATE')).body, []);
    s.clock.advance(HOUR);
    const later = await ask('TEST', 'bill_of_lading', 'TEST-BL-LATE');
    assert.ok(later.body.length > 3, 'everything published so far appears with the manifest');
    s.clock.set(START);
  });

  test('a cancelled booking shows the confirmation, then SHIPMENT CANC on the BKG', async () => {
    const res = await ask('TEST', 'booking_number', 'TEST-BKG-CANCELLED');
    const codes = res.body.map((e: any) => `${e.shipmentEventTypeCode}/${e.documentTypeCode}`);
    assert.deepEqual(codes, ['CONF/BKG', 'CANC/BKG']);
    assert.equal((await truthOf('TEST', 'TEST-BKG-CANCELLED')).shipment.cancelled, true);
  });

  test('an unreachable carrier answers 503 three times, then the journey', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await ask('TEST', 'bill_of_lading', 'TEST-UNREACHABLE')).status, 503);
    const ok = await ask('TEST', 'bill_of_lading', 'TEST-UNREACHABLE');
    assert.equal(ok.status, 200);
    assert.ok(ok.body.length > 0);
  });

  test('an unparsable answer twice, then the journey', async () => {
    for (let i = 0; i < 2; i++) {
      const garbled = await ask('TEST', 'bill_of_lading', 'TEST-GARBLED');
      assert.equal(garbled.status, 200);
      assert.throws(() => JSON.parse(garbled.text));
    }
    assert.ok((await ask('TEST', 'bill_of_lading', 'TEST-GARBLED')).body.length > 0);
  });

  test('journey shapes: direct, one transshipment, two with a feeder, barge, rail, holds, delay', async () => {
    const direct = await truthOf('TEST', 'TEST-DIRECT');
    assert.equal(direct.legs.length, 1);
    assert.equal(direct.containers.length, 1);

    const ts1 = await truthOf('TEST', 'TEST-TS1');
    assert.deepEqual(ts1.shipment.transshipments, ['SGSIN']);
    for (const m of ['vessel_loaded', 'vessel_departed', 'transshipment_arrived', 'transshipment_discharged', 'transshipment_loaded', 'transshipment_departed', 'vessel_arrived', 'vessel_discharged']) {
      assert.ok(milestones(ts1).has(m), m);
    }

    const feeder = await truthOf('TEST', 'TEST-TS2-FEEDER');
    assert.deepEqual(feeder.shipment.transshipments, ['SGSIN', 'MAPTM']);
    assert.deepEqual(feeder.legs.map((l: any) => `${l.kind}/${l.mode}`), ['feeder/VESSEL', 'mainline/VESSEL', 'mainline/VESSEL']);
    for (const m of ['feeder_loaded', 'feeder_departed', 'feeder_arrived', 'feeder_discharged', 'transshipment_loaded', 'vessel_arrived']) assert.ok(milestones(feeder).has(m), m);
    assert.ok(!milestones(feeder).has('vessel_loaded'));

    const barge = await truthOf('TEST', 'TEST-BARGE');
    assert.equal(barge.legs[0].mode, 'BARGE');
    assert.equal(barge.legs[0].vessel, null);

    const rail = await truthOf('TEST', 'TEST-RAIL');
    assert.equal(rail.shipment.destination, 'USCHI');
    for (const m of ['rail_loaded', 'rail_departed', 'rail_arrived', 'rail_unloaded', 'arrived_at_inland_destination']) assert.ok(milestones(rail).has(m), m);
    const fullOut = rail.milestones.find((m: any) => m.event === 'container.transport.full_out');
    assert.equal(fullOut.locode, 'USCHI');
    assert.ok(rail.estimates.some((e: any) => e.event === 'container.transport.estimated.arrived_at_inland_destination'));

    const holds = await truthOf('TEST', 'TEST-HOLDS');
    assert.deepEqual(holds.terminal[0].holds.map((h: any) => h.name).sort(), ['customs', 'freight']);
    assert.equal(holds.terminal[0].last_free_days.length, 2);

    const delay = await truthOf('TEST', 'TEST-DELAY');
    const etas = delay.estimates.filter((e: any) => e.event === 'shipment.estimated.arrival');
    assert.equal(etas.length, 4, 'the plan and three revisions');
    assert.equal(new Set(etas.map((e: any) => e.estimated_at)).size, 4);
    const arrived = delay.milestones.find((m: any) => m.event === 'container.transport.vessel_arrived');
    assert.ok(Date.parse(arrived.timestamp) - Date.parse(delay.shipment.pod_original_eta_at) > DAY);
    assert.equal(etas.at(-1).estimated_at, arrived.timestamp);
  });

  test('one number per type: a B/L, a booking and a container of real carriers', async () => {
    for (const t of TEST_NUMBERS.filter((x) => x.scac !== 'TEST')) {
      const res = await ask(t.scac, t.numberType, t.number);
      assert.equal(res.status, 200, t.number);
      assert.ok(res.body.length > 0, t.number);
      const truth = await truthOf(t.scac, t.number);
      if (t.numberType === 'container') assert.ok(truth.containers.some((c: any) => c.number === t.number));
      if (t.numberType === 'booking_number') assert.equal(truth.shipment.booking_number, t.number);
      if (t.numberType === 'bill_of_lading') assert.equal(truth.shipment.bill_of_lading, t.number);
    }
  });
});

describe('terminal data', () => {
  test('holds go from pending to hold to released, availability flips, the last free day moves, the box leaves', async () => {
    const s = await startSandbox();
    try {
      const truth = (await get(`${s.url}/sandbox/journeys/TEST/TEST-HOLDS`)).body;
      const plan = truth.terminal[0];
      const box = plan.container as string;
      const at = async (iso: string, offsetMs = 0) => {
        s.clock.set(new Date(Date.parse(iso) + offsetMs));
        return get(`${s.url}/terminal/containers/${box}`);
      };
      assert.equal((await at(plan.reported_from, -HOUR)).status, 404, 'not at the terminal before discharge');

      const discharged = await at(plan.reported_from, 5 * 60_000);
      assert.equal(discharged.status, 200);
      assert.deepEqual(Object.keys(discharged.body).sort(), ['availableForPickup', 'containerNumber', 'fees', 'holds', 'lastFreeDay', 'observedAt', 'pickupAppointmentAt', 'terminalCode']);
      assert.equal(discharged.body.availableForPickup, false);
      const status = Object.fromEntries(discharged.body.holds.map((h: any) => [h.name, h.status]));
      assert.deepEqual(status, { customs: 'hold', freight: 'pending' });
      assert.equal(discharged.body.lastFreeDay, plan.last_free_days[0].value);
      assert.equal(discharged.body.terminalCode, 'TPOAK');

      const freight = plan.holds.find((h: any) => h.name === 'freight');
      assert.deepEqual((await at(freight.hold_from, 60_000)).body.holds.map((h: any) => h.status), ['hold', 'hold']);
      const customs = plan.holds.find((h: any) => h.name === 'customs');
      const released = await at(customs.released_at, 60_000);
      assert.deepEqual(released.body.holds, []);
      assert.equal(released.body.lastFreeDay, plan.last_free_days[1].value, 'extra free days after a long hold');
      assert.ok(released.body.fees.some((f: any) => f.type === 'exam' && f.amount === 350 && f.currency_code === 'USD'));

      const available = await at(plan.available_at, 60_000);
      assert.equal(available.body.availableForPickup, true);
      assert.equal(available.body.observedAt, s.clock.now().toISOString());

      const gone = await at(plan.full_out_at, 60_000);
      assert.equal(gone.body.availableForPickup, false);
      assert.equal(gone.body.pickupAppointmentAt, plan.pickup_appointment?.at ?? null);
      assert.equal((await get(`${s.url}/terminal/containers/MSCU1234565`)).status, 404);
    } finally {
      await s.close();
    }
  });
});

describe('push subscriptions', () => {
  let receiver: Server;
  let receiverUrl: string;
  let failNext = 0;
  const received: { body: string; headers: IncomingHttpHeaders }[] = [];
  before(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (failNext > 0) {
          failNext--;
          res.writeHead(500).end();
          return;
        }
        received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const address = receiver.address();
    receiverUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/callback`;
  });
  after(async () => {
    await new Promise((resolve) => receiver.close(resolve));
  });

  test('new matching events are POSTed, signed, retried after failures, never twice; DELETE stops them', async () => {
    const s = await startSandbox();
    try {
      const secret = Buffer.from('a shared secret of the subscriber, 32+ bytes long').toString('base64');
      const created = await fetch(`${s.url}/carriers/TEST/v2/event-subscriptions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ callbackUrl: receiverUrl, secret, transportDocumentReference: 'TEST-DIRECT', eventType: ['TRANSPORT', 'EQUIPMENT'] }),
      });
      assert.equal(created.status, 201);
      const subscription = (await created.json()) as any;
      assert.match(subscription.subscriptionID, /^[0-9a-f-]{36}$/);
      assert.equal(subscription.secret, undefined);
      assert.equal((await get(`${s.url}/carriers/TEST/v2/event-subscriptions/${subscription.subscriptionID}`)).body.callbackUrl, receiverUrl);

      await s.app.sandbox.tick();
      assert.equal(received.length, 0, 'events published before the subscription are not pushed');

      s.clock.advance(6 * DAY);
      failNext = 1;
      await s.app.sandbox.tick();
      assert.equal(received.length, 0, 'the first delivery failed');
      failNext = 1;
      await s.app.sandbox.tick();
      assert.equal(received.length, 0, 'the first retry (next tick) failed too');
      await s.app.sandbox.tick();
      assert.equal(received.length, 0, 'after a second failure the hub waits two ticks');
      await s.app.sandbox.tick();
      assert.equal(received.length, 1, 'retried after the backoff');

      s.clock.advance(40 * DAY);
      for (let i = 0; i < 3; i++) await s.app.sandbox.tick();
      const ids: string[] = [];
      for (const delivery of received) {
        const expected = createHmac('sha256', Buffer.from(secret, 'base64')).update(delivery.body, 'utf8').digest('hex');
        assert.equal(delivery.headers['notification-signature'], `sha256=${expected}`);
        assert.equal(delivery.headers['subscription-id'], subscription.subscriptionID);
        assert.equal(delivery.headers['api-version'], '2.2.0');
        const events = JSON.parse(delivery.body);
        assert.ok(Array.isArray(events) && events.length > 0);
        for (const e of events) {
          assert.notEqual(e.eventType, 'SHIPMENT');
          assert.ok(Date.parse(e.eventCreatedDateTime) > Date.parse(START));
          ids.push(e.eventID);
        }
      }
      assert.equal(new Set(ids).size, ids.length, 'no event is delivered twice');
      const truth = (await get(`${s.url}/sandbox/journeys/TEST/TEST-DIRECT`)).body;
      const expected = truth.milestones.filter((m: any) => m.source === 'dcsa' && Date.parse(m.published_at) > Date.parse(START)).map((m: any) => m.dcsa_event_id);
      for (const id of expected) assert.ok(ids.includes(id), `milestone event ${id} was not pushed`);

      const deleted = await fetch(`${s.url}/carriers/TEST/v2/event-subscriptions/${subscription.subscriptionID}`, { method: 'DELETE' });
      assert.equal(deleted.status, 204);
      const count = received.length;
      s.clock.advance(30 * DAY);
      await s.app.sandbox.tick();
      assert.equal(received.length, count);
    } finally {
      await s.close();
    }
  });

  test('bad subscriptions are refused; an unreachable callback never throws', async () => {
    const s = await startSandbox();
    try {
      const post = (body: unknown) =>
        fetch(`${s.url}/carriers/TEST/v2/event-subscriptions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      assert.equal((await post({ secret: 'c2VjcmV0' })).status, 400);
      assert.equal((await post({ callbackUrl: 'ftp://x', secret: 'c2VjcmV0' })).status, 400);
      assert.equal((await post({ callbackUrl: receiverUrl, secret: 'not base64!' })).status, 400);
      assert.equal((await post({ callbackUrl: receiverUrl, secret: 'c2VjcmV0', eventType: ['NOPE'] })).status, 400);
      assert.equal((await post({ callbackUrl: receiverUrl, secret: 'c2VjcmV0', equipmentReference: 'NOTABOX' })).status, 400);
      const dead = await post({ callbackUrl: 'http://127.0.0.1:9/nowhere', secret: 'c2VjcmV0' });
      assert.equal(dead.status, 201);
      await get(eventsUrl(s.url, 'TEST', 'transportDocumentReference=TEST-DIRECT'));
      s.clock.advance(10 * DAY);
      await s.app.sandbox.tick();
      await s.app.sandbox.tick();
    } finally {
      await s.close();
    }
  });
});

describe('anchors', () => {
  test('a restart with the same state file keeps every journey where it was', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-sandbox-'));
    try {
      const statePath = path.join(dir, 'sandbox-state.json');
      const a = await startSandbox(statePath);
      const number = 'MAEU260000123';
      const before = (await get(`${a.url}/sandbox/journeys/MAEU/${number}`)).body;
      const offsetDays = (Date.parse(before.first_seen_at) - Date.parse(before.start_at)) / DAY;
      assert.ok(offsetDays >= 2 && offsetDays <= 10, `journey starts ${offsetDays} days before the first lookup`);
      await a.close();

      const b = await startSandbox(statePath, '2026-04-20T00:00:00Z');
      const afterRestart = (await get(`${b.url}/sandbox/journeys/MAEU/${number}`)).body;
      assert.equal(afterRestart.start_at, before.start_at);
      assert.deepEqual(afterRestart.milestones, before.milestones);
      const box = before.containers[0].number;
      const byBox = await get(eventsUrl(b.url, 'MAEU', `equipmentReference=${box}`));
      assert.ok(byBox.body.length > 0, 'a box of an anchored journey leads back to it');
      await b.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
