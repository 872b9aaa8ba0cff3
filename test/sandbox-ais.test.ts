// The sandbox AIS feed: every sandbox ship on NMEA 0183, decoded here with ggencoder's own
// decoder. Positions lie on the sea route of the ship's active leg and move on with time, at the
// leg's speed and along the route's bearing; static reports come in two fragments that reassemble
// to the ship's IMO and name; one ship given two legs at once reports the one that departed first;
// the same seed gives the same feed, and the documented rates of gaps, late, duplicated and
// garbled sentences are met. Time is a ManualClock: nothing sleeps.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect } from 'node:net';
import { before, describe, test } from 'node:test';
import gg from 'ggencoder';
import { ManualClock } from '../src/clock.ts';
import { DAY, HOUR, MINUTE } from '../src/domain/time-units.ts';
import { haversineKm, type LonLat } from '../src/geo/distance.ts';
import { AIS_FEED, aisReportIntervalMs, sentencesBetween, type AisSentence } from '../src/sandbox/ais-feed.ts';
import { aisFleet, type AisFleet } from '../src/sandbox/ais-identity.ts';
import { startSandboxAis } from '../src/sandbox/ais-server.ts';
import { activeLeg, journeyKey, legRoute, legSpeedKnots, shipFixAt, shipLegs } from '../src/sandbox/ais-track.ts';
import { vesselTruth } from '../src/sandbox/ground-truth.ts';
import type { Journey, Leg } from '../src/sandbox/journey.ts';
import { planJourney } from '../src/sandbox/planner.ts';
import { buildSandboxServer } from '../src/sandbox/server.ts';
import { TEST_NUMBERS } from '../src/sandbox/test-numbers.ts';
import { loadSandboxWorld, SANDBOX_SCACS, type SandboxWorld } from '../src/sandbox/world.ts';

const START = new Date('2026-03-10T00:00:00Z');
/** The report interval at the default demo speed (3600): one report per ship per sandbox hour. */
const DEMO_INTERVAL = aisReportIntervalMs(3600);
/** Noise (±30 m east and north) plus the encoding's 1/10,000 minute: every position is within this of the truth. */
const NEAR_ROUTE_KM = 0.1;

let world: SandboxWorld;
let fleet: AisFleet;
let journeys: Journey[];

before(async () => {
  world = await loadSandboxWorld();
  fleet = aisFleet(world);
  journeys = [];
  for (const [i, scac] of SANDBOX_SCACS.filter((s) => s !== 'TEST').entries()) {
    const carrier = world.carrier(scac)!;
    journeys.push(planJourney(world, scac, 'bill_of_lading', `${carrier.blPrefixes[0]}AIS${i}`, new Date(START.getTime() + i * 2 * DAY)));
  }
});

function decode(line: string) {
  const d = new gg.AisDecode(line);
  assert.ok(d.valid, `${line}: ${d.error}`);
  // Every field the tests read is there for the message types they decode.
  return d as Required<typeof d>;
}

/** Reassembles a multi-sentence message; returns the decoded message after its last fragment. */
function decodeFragments(lines: string[]) {
  const session = {};
  let d: InstanceType<typeof gg.AisDecode> | undefined;
  for (const line of lines) d = new gg.AisDecode(line, session);
  assert.ok(d?.valid, d?.error);
  return d as Required<typeof d & object>;
}

const RAD = Math.PI / 180;
const unit = ([lon, lat]: LonLat) => [Math.cos(lat * RAD) * Math.cos(lon * RAD), Math.cos(lat * RAD) * Math.sin(lon * RAD), Math.sin(lat * RAD)];
const dot = (a: number[], b: number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: number[], b: number[]) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const angle = (a: number[], b: number[]) => Math.atan2(Math.hypot(...cross(a, b)), dot(a, b));

/** Kilometres from `p` to the nearest point of the polyline (great-circle arcs between its points). */
function distanceToRouteKm(p: LonLat, route: readonly LonLat[]): number {
  const P = unit(p);
  let best = Infinity;
  for (let i = 1; i < route.length; i++) {
    const A = unit(route[i - 1]);
    const B = unit(route[i]);
    best = Math.min(best, haversineKm(p, route[i - 1]), haversineKm(p, route[i]));
    const n = cross(A, B);
    const norm = Math.hypot(...n);
    if (norm < 1e-12) continue;
    const k = dot(P, n) / norm;
    const foot = [P[0] - (k * n[0]) / norm, P[1] - (k * n[1]) / norm, P[2] - (k * n[2]) / norm];
    // The foot of the perpendicular lies on the arc when it splits the arc's angle in two.
    if (Math.abs(angle(A, foot) + angle(foot, B) - angle(A, B)) < 1e-9) best = Math.min(best, Math.asin(Math.min(1, Math.abs(k))) * 6371.0088);
  }
  return best;
}

/** Kilometres along the route to the point of it nearest `p`. */
function alongRouteKm(p: LonLat, route: readonly LonLat[]): number {
  let bestDistance = Infinity;
  let along = 0;
  let walked = 0;
  for (let i = 1; i < route.length; i++) {
    const length = haversineKm(route[i - 1], route[i]);
    const d = distanceToRouteKm(p, [route[i - 1], route[i]]);
    if (d < bestDistance) {
      bestDistance = d;
      along = walked + Math.min(length, haversineKm(route[i - 1], p));
    }
    walked += length;
  }
  return along;
}

const angleDiff = (a: number, b: number) => Math.abs(((a - b + 540) % 360) - 180);

/** The first vessel leg at least `days` long among the journeys. */
function longLeg(days: number): { journey: Journey; leg: Leg } {
  for (const journey of journeys) {
    const leg = journey.legs.find((l) => l.mode === 'VESSEL' && l.arriveAt.getTime() - l.departAt.getTime() >= days * DAY);
    if (leg) return { journey, leg };
  }
  throw new Error('no long leg');
}

describe('identities', () => {
  test('every reference and charter ship has a distinct 9-digit MMSI: a ship MID then the last six digits of its IMO number', () => {
    assert.equal(fleet.size, 28 + world.charterVessels.length);
    const mmsis = [...fleet.values()].map((s) => s.mmsi);
    assert.equal(new Set(mmsis).size, mmsis.length);
    for (const ship of fleet.values()) {
      assert.match(String(ship.mmsi), /^[2-7]\d{8}$/, ship.name);
      assert.equal(String(ship.mmsi).slice(3), ship.imo.slice(-6));
      assert.ok(ship.shipType >= 70 && ship.shipType <= 79);
      assert.match(ship.callSign, /^[A-Z0-9]{4,7}$/);
    }
    assert.equal(String(fleet.get('9321483')!.mmsi).slice(0, 3), '219', 'a Maersk ship: Denmark');
  });
});

describe('positions', () => {
  test('lie within 100 m of the sea route of the active leg, move on along it, at the leg speed and the route bearing', () => {
    const { journey, leg } = longLeg(5);
    const imo = leg.vessel!.imo;
    const legs = shipLegs([journey]).get(imo)!;
    const route = legRoute(leg);
    const sentences = sentencesBetween({ fleet, journeys: [journey] }, leg.departAt, leg.arriveAt, { reportIntervalMs: DEMO_INTERVAL });
    const reports = sentences.filter((s) => s.imo === imo && s.type === 1 && !s.quirks.includes('corrupt') && !s.quirks.includes('duplicate'));
    assert.ok(reports.length > 48, `${reports.length} reports`);
    let lastAlong = -1;
    const ordered = [...reports].sort((a, b) => a.at.getTime() - b.at.getTime());
    for (const s of ordered) {
      const d = decode(s.line);
      assert.equal(Number(d.mmsi), fleet.get(imo)!.mmsi);
      assert.equal(d.aistype, 1);
      assert.equal(d.utc, s.at.getUTCSeconds(), 'the UTC second of the position');
      const truth = shipFixAt(legs, s.at)!;
      assert.equal(activeLeg(legs, s.at)?.leg, leg);
      assert.equal(d.navstatus, 0, 'under way using engine');
      assert.ok(distanceToRouteKm([d.lon, d.lat], route) < NEAR_ROUTE_KM, `${d.lon},${d.lat} is ${distanceToRouteKm([d.lon, d.lat], route)} km off the route`);
      assert.ok(haversineKm([d.lon, d.lat], [truth.lon, truth.lat]) < NEAR_ROUTE_KM, 'near the true position at that moment');
      const along = alongRouteKm([d.lon, d.lat], route);
      assert.ok(along > lastAlong - NEAR_ROUTE_KM, 'further along the route than the report before');
      lastAlong = along;
      assert.ok(Math.abs(d.sog - legSpeedKnots(leg)) <= AIS_FEED.speedNoiseKnots + 0.1, `${d.sog} kn against ${legSpeedKnots(leg)}`);
      assert.ok(d.sog >= 13 && d.sog <= 21, `${d.sog} kn: a container ship's speed`);
      assert.ok(angleDiff(d.cog, truth.courseDeg!) <= AIS_FEED.courseNoiseDeg + 0.2, `course ${d.cog} against ${truth.courseDeg}`);
      assert.ok(angleDiff(d.hdg, d.cog) <= AIS_FEED.headingNoiseDeg + 1, `heading ${d.hdg} against course ${d.cog}`);
    }
    const totalKm = route.slice(1).reduce((sum, p, i) => sum + haversineKm(route[i], p), 0);
    assert.ok(lastAlong > totalKm * 0.9, 'the last reports are near the arrival port');
  });

  test('moored between legs at the port last reached: speed 0, status moored, every report slot at demo speed', () => {
    const { journey, leg } = longLeg(1);
    const imo = leg.vessel!.imo;
    const after = new Date(leg.arriveAt.getTime() + 2 * HOUR);
    const legs = shipLegs([journey]).get(imo)!;
    assert.equal(shipFixAt(legs, after)?.state, 'moored');
    const sentences = sentencesBetween({ fleet, journeys: [journey] }, after, new Date(after.getTime() + 12 * HOUR), { reportIntervalMs: DEMO_INTERVAL });
    const reports = sentences.filter((s) => s.imo === imo && s.type === 1 && !s.quirks.includes('corrupt'));
    assert.ok(reports.length > 0);
    for (const s of reports) {
      const d = decode(s.line);
      assert.equal(d.navstatus, 5);
      assert.equal(d.sog, 0);
      assert.equal(d.cog, 360, 'course not available');
      assert.equal(d.hdg, 511, 'heading not available');
      assert.ok(haversineKm([d.lon, d.lat], [leg.to.place.lon, leg.to.place.lat]) < NEAR_ROUTE_KM);
    }
  });

  test('a ship in no registered journey does not transmit', () => {
    const sailing = new Set(journeys.flatMap((j) => j.legs.map((l) => l.vessel?.imo)));
    const idle = [...fleet.keys()].find((imo) => !sailing.has(imo));
    assert.ok(idle, 'some ship sails none of the test journeys');
    const sentences = sentencesBetween({ fleet, journeys }, START, new Date(START.getTime() + 20 * DAY), { reportIntervalMs: DEMO_INTERVAL });
    assert.ok(!sentences.some((s) => s.imo === idle));
    assert.equal(vesselTruth(fleet, journeys, idle, START)!.state, 'not_transmitting');
  });

  test('a sentence is for the position at the sandbox time it is delivered, unless it is one of the late ones', () => {
    const from = new Date(START.getTime() + 3 * DAY);
    const to = new Date(from.getTime() + 5 * DAY);
    const sentences = sentencesBetween({ fleet, journeys }, from, to, { reportIntervalMs: DEMO_INTERVAL });
    for (const s of sentences) {
      assert.ok(s.emitAt > from && s.emitAt <= to);
      if (s.quirks.includes('late')) assert.ok(s.emitAt > s.at);
      else assert.equal(s.emitAt.getTime(), s.at.getTime());
    }
    for (let i = 1; i < sentences.length; i++) assert.ok(sentences[i].emitAt >= sentences[i - 1].emitAt, 'in delivery order');
  });
});

describe('static and voyage reports', () => {
  test('come as two fragments of at most 60 characters that reassemble to the ship, bound for the next port', () => {
    const { journey, leg } = longLeg(3);
    const imo = leg.vessel!.imo;
    const ship = fleet.get(imo)!;
    const sentences = sentencesBetween({ fleet, journeys: [journey] }, leg.departAt, new Date(leg.departAt.getTime() + 2 * DAY), { reportIntervalMs: DEMO_INTERVAL });
    // The fragments of one message share its time; messages with a garbled or duplicated fragment are left out.
    const messages = new Map<number, AisSentence[]>();
    for (const s of sentences) if (s.type === 5 && s.imo === imo) messages.set(s.at.getTime(), [...(messages.get(s.at.getTime()) ?? []), s]);
    const clean = [...messages.values()].filter((m) => m.every((s) => s.quirks.length === 0));
    assert.ok(clean.length >= 4, `${clean.length} messages in two days (one every six reports)`);
    for (const message of clean) {
      const lines = message.map((s) => s.line);
      const fields = lines.map((l) => l.split('*')[0].split(','));
      assert.deepEqual(fields.map((f) => [f[1], f[2]]), [['2', '1'], ['2', '2']]);
      assert.equal(fields[0][3], fields[1][3], 'one sequential message id');
      assert.match(fields[0][3], /^[0-9]$/);
      assert.match(fields[0][4], /^[AB]$/);
      assert.ok(fields.every((f) => f[5].length <= 60));
      assert.equal(fields[0][6], '0', 'no fill bits but on the last fragment');
      assert.equal(fields[0][5].length + fields[1][5].length, 71, '424 bits');
      const d = decodeFragments(lines);
      assert.equal(d.aistype, 5);
      assert.equal(Number(d.mmsi), ship.mmsi);
      assert.equal(String(d.imo), imo);
      assert.equal(d.shipname, ship.name.slice(0, 20));
      assert.equal(d.callsign, ship.callSign);
      assert.ok(d.cargo >= 70 && d.cargo <= 79);
      assert.equal(d.destination, leg.to.place.locode);
      const eta = leg.arriveAt;
      assert.deepEqual([d.etaMo, d.etaDay, d.etaHr, d.etaMin], [eta.getUTCMonth() + 1, eta.getUTCDate(), eta.getUTCHours(), eta.getUTCMinutes()]);
      assert.equal(d.draught, ship.draughtM);
      assert.equal(d.dimA + d.dimB, ship.lengthM);
    }
  });
});

describe('one ship on two journeys at once', () => {
  test('reports the leg that departed first; at the same departure, the lowest journey key; the other is shadowed', () => {
    const { journey, leg } = longLeg(5);
    const other = journeys.find((j) => j !== journey && j.legs.some((l) => l.mode === 'VESSEL'))!;
    const elsewhere = other.legs.find((l) => l.mode === 'VESSEL')!;
    // The same ship, given a leg of another route that starts a day later.
    const later: Journey = {
      ...other,
      number: 'ZZZZ-LATER',
      legs: [{ ...elsewhere, vessel: leg.vessel, departAt: new Date(leg.departAt.getTime() + DAY), arriveAt: new Date(leg.arriveAt.getTime() + DAY) }],
    };
    const both = [journey, later];
    const imo = leg.vessel!.imo;
    const at = new Date(leg.departAt.getTime() + 2 * DAY);
    const legs = shipLegs(both).get(imo)!;
    assert.equal(activeLeg(legs, at)?.leg, leg);
    const truth = vesselTruth(fleet, both, imo, at)!;
    assert.deepEqual(
      truth.legs.filter((l) => l.status === 'active' || l.status === 'shadowed').map((l) => [l.journey, l.status]),
      [[journeyKey(journey), 'active'], [journeyKey(later), 'shadowed']],
    );
    const reports = sentencesBetween({ fleet, journeys: both }, at, new Date(at.getTime() + DAY), { reportIntervalMs: DEMO_INTERVAL }).filter(
      (s) => s.imo === imo && s.type === 1 && !s.quirks.includes('corrupt'),
    );
    assert.ok(reports.length > 0);
    for (const s of reports) {
      const d = decode(s.line);
      assert.ok(distanceToRouteKm([d.lon, d.lat], legRoute(leg)) < NEAR_ROUTE_KM, 'on the first-departed leg');
    }

    // Same departure: the journey key decides.
    const tie: Journey = { ...later, scac: 'AAAA', legs: [{ ...later.legs[0], departAt: leg.departAt, arriveAt: leg.arriveAt }] };
    assert.ok(journeyKey(tie) < journeyKey(journey));
    assert.equal(activeLeg(shipLegs([journey, tie]).get(imo)!, at)?.journeyKey, journeyKey(tie));
  });
});

describe('a feed like a real one', () => {
  const from = new Date(START.getTime() + 2 * DAY);
  const to = new Date(START.getTime() + 62 * DAY);
  let feed: AisSentence[];
  before(() => {
    feed = sentencesBetween({ fleet, journeys }, from, to, { reportIntervalMs: DEMO_INTERVAL });
  });

  test('the same seed gives the same sentences however time is cut into windows; another seed, others', () => {
    const middle = new Date(START.getTime() + 20 * DAY + 17 * MINUTE);
    const end = new Date(START.getTime() + 30 * DAY);
    const whole = sentencesBetween({ fleet, journeys }, from, end, { reportIntervalMs: DEMO_INTERVAL }).map((s) => s.line);
    const split = [
      ...sentencesBetween({ fleet, journeys }, from, middle, { reportIntervalMs: DEMO_INTERVAL }),
      ...sentencesBetween({ fleet, journeys }, middle, end, { reportIntervalMs: DEMO_INTERVAL }),
    ].map((s) => s.line);
    assert.deepEqual(split, whole);
    assert.deepEqual(feed.slice(0, whole.length).map((s) => s.line), whole);
    const reseeded = sentencesBetween({ fleet, journeys }, from, end, { reportIntervalMs: DEMO_INTERVAL, seed: 'another' }).map((s) => s.line);
    assert.notDeepEqual(reseeded, whole);
  });

  test('late, duplicated and garbled sentences at their documented rates; garbled ones fail the checksum', () => {
    const messages = feed.filter((s) => s.type === 1);
    assert.ok(messages.length > 15_000, `${messages.length} position reports`);
    const rate = (quirk: string) => messages.filter((s) => s.quirks.includes(quirk as never)).length / messages.length;
    const near = (value: number, expected: number) => value > expected * 0.7 && value < expected * 1.3;
    assert.ok(near(rate('late'), AIS_FEED.lateChance), `late ${rate('late')}`);
    // Copies over originals.
    const duplicateRate = rate('duplicate') / (1 - rate('duplicate'));
    assert.ok(near(duplicateRate, AIS_FEED.duplicateChance), `duplicate ${duplicateRate}`);
    assert.ok(near(rate('corrupt'), AIS_FEED.corruptChance), `corrupt ${rate('corrupt')}`);
    for (const s of feed.filter((s) => s.type === 1)) {
      const d = new gg.AisDecode(s.line);
      if (s.quirks.includes('corrupt')) assert.match(d.error, /checksum/);
      else assert.ok(d.valid, s.line);
    }
    // Out of order as delivered: a ship's report older than one already delivered.
    const newest = new Map<number, number>();
    let outOfOrder = 0;
    for (const s of messages) {
      if (s.at.getTime() < (newest.get(s.mmsi) ?? -Infinity)) outOfOrder++;
      newest.set(s.mmsi, Math.max(newest.get(s.mmsi) ?? -Infinity, s.at.getTime()));
    }
    assert.ok(outOfOrder > 0 && outOfOrder <= messages.filter((s) => s.quirks.includes('late')).length);
    const duplicated = feed.filter((s, i) => i > 0 && s.quirks.includes('duplicate') && feed.slice(Math.max(0, i - 4), i).some((p) => p.line === s.line));
    assert.ok(duplicated.length > 0, 'a duplicate follows its original');
  });

  test('gaps: ships fall silent for 5 to 20 report slots, about the documented share of the time', () => {
    const slots = new Map<number, Set<number>>();
    for (const s of feed) if (s.type === 1) (slots.get(s.mmsi) ?? slots.set(s.mmsi, new Set()).get(s.mmsi)!).add(s.at.getTime());
    let missing = 0;
    let expected = 0;
    const gapLengths: number[] = [];
    for (const times of slots.values()) {
      const sorted = [...times].sort((a, b) => a - b);
      expected += (sorted[sorted.length - 1] - sorted[0]) / DEMO_INTERVAL + 1;
      missing += (sorted[sorted.length - 1] - sorted[0]) / DEMO_INTERVAL + 1 - sorted.length;
      for (let i = 1; i < sorted.length; i++) if (sorted[i] - sorted[i - 1] > DEMO_INTERVAL) gapLengths.push((sorted[i] - sorted[i - 1]) / DEMO_INTERVAL - 1);
    }
    const meanGap = (AIS_FEED.gapSlots[0] + AIS_FEED.gapSlots[1]) / 2;
    const share = (AIS_FEED.gapChance * meanGap) / AIS_FEED.gapWindowSlots;
    assert.ok(gapLengths.length > 10, `${gapLengths.length} gaps`);
    assert.ok(gapLengths.every((n) => n >= 1 && n <= AIS_FEED.gapSlots[1]), `gap lengths ${gapLengths}`);
    assert.ok(missing / expected > share * 0.5 && missing / expected < share * 1.5, `silent ${missing / expected} against about ${share}`);
  });
});

describe('over TCP', () => {
  test('a client receives the sentences as CRLF lines when the sandbox clock moves; the ground truth endpoint answers for the same ship', async () => {
    const clock = new ManualClock(START);
    const app = await buildSandboxServer({ clock, world });
    const test = TEST_NUMBERS.find((t) => t.behaviour.kind === 'journey' && t.scac !== 'TEST')!;
    const resolved = app.sandbox.registry.resolve(test.scac, test.numberType, test.number);
    assert.equal(resolved.kind, 'journey');
    const ais = await startSandboxAis({ port: 0, host: '127.0.0.1', clock, speed: 3600, source: app.sandbox });
    const client = connect(ais.port, '127.0.0.1');
    try {
      await ais.waitForClients(1);
      client.setEncoding('utf8');
      let received = '';
      client.on('data', (chunk: string) => (received += chunk));
      clock.advance(3 * DAY);
      const sent = ais.tick();
      assert.ok(sent.length > 0);
      const expected = sent.map((s) => `${s.line}\r\n`).join('');
      while (received.length < expected.length) await once(client, 'data');
      assert.equal(received, expected);
      assert.equal(ais.tick().length, 0, 'nothing new while the clock stands still');

      const position = sent.find((s) => s.type === 1 && s.quirks.length === 0)!;
      const res = await app.inject({ url: `/sandbox/vessels/${position.imo}?at=${position.at.toISOString()}` });
      assert.equal(res.statusCode, 200);
      const truth = res.json();
      const d = decode(position.line);
      assert.equal(truth.mmsi, d.mmsi);
      assert.ok(haversineKm([d.lon, d.lat], [truth.lon, truth.lat]) < NEAR_ROUTE_KM);
      assert.ok(truth.legs.length > 0);
      const all = await app.inject({ url: '/sandbox/vessels' });
      assert.ok(all.json().some((v: { imo: string }) => v.imo === position.imo));
      assert.equal((await app.inject({ url: '/sandbox/vessels/1234567' })).statusCode, 404);
      assert.equal((await app.inject({ url: `/sandbox/vessels/${position.imo}?at=yesterday` })).statusCode, 400);
    } finally {
      client.destroy();
      await ais.close();
      await app.close();
    }
  });
});
