// `npm run bench:ais-arrivals`: how much earlier than the carrier svc records, from AIS, a box's
// vessel leaving the port of lading, reaching and leaving each transshipment port, and reaching the
// port of discharge. BENCH_AIS_SHIPMENTS sandbox journeys (default 20) are tracked
// through the real path in virtual time: the carriers' DCSA APIs over HTTP on loopback, the
// sandbox's AIS feed over TCP (src/sandbox/ais-server.ts: NMEA with its gaps of up to 20 reports,
// late, duplicate and corrupt sentences) into svc's AIS worker, the tracking worker, PostgreSQL.
//
// Printed, per kind of move, against the AIS detection (when svc recorded the move):
//   - the carrier's publication of its event (what svc would get at once by carrier push);
//   - when svc without AIS received it by polling (the default refresh cadence): a second svc
//     database, tracking the same journeys on the same clock with the AIS pass off, is the
//     baseline, since an AIS arrival itself makes the shipment due and so hastens the carrier's.
//
// And how many AIS moves were wrong or spurious against the sandbox's truth (the journey's legs):
// at a port where the box's vessel made no such move, or more than an hour from the true time.
//
// Stepping: svc stamps a report when it arrives, and the feed sends what fell due in a step at the
// step's end, so a coarse step stamps reports late. Around each move the clock moves one report
// interval at a time (BENCH_AIS_SPEED sets the sandbox clock speed, hence the interval: 300 gives a
// report every 5 sandbox minutes); the printed stamp error shows what that costs.
//
// Shadowing (docs/sandbox.md, "AIS feed"): a ship given legs of two journeys at once transmits for
// the leg that departed first. A move whose leg is shadowed at that moment, or whose ship is on
// another leg within the hour around it, shows no stop at the port on the feed: such moves are
// counted and left out of the timing comparison (an AIS record of one still counts if wrong).
import { AisWorker } from '../src/ais/worker.ts';
import { ManualClock } from '../src/clock.ts';
import { DAY, HOUR, MINUTE } from '../src/domain/time-units.ts';
import type { Journey } from '../src/sandbox/index.ts';
import { aisReportIntervalMs } from '../src/sandbox/ais-feed.ts';
import { startSandboxAis } from '../src/sandbox/ais-server.ts';
import { activeLeg, journeyKey, shipLegs, type ShipLeg } from '../src/sandbox/ais-track.ts';
import type { Leg } from '../src/sandbox/journey.ts';
import { TrackingWorker } from '../src/services/tracking/worker.ts';
import { insertAccount } from '../src/store/accounts.ts';
import { createPool } from '../src/store/db.ts';
import { freshDatabase } from '../test/support/database.ts';
import { until } from '../test/support/ais-feed.ts';
import { benchDatabase } from './database.ts';
import { BENCH_SCACS, startSandboxCarriers } from './sandbox-carriers.ts';

const N = Number(process.env.BENCH_AIS_SHIPMENTS ?? 20);
const SPEED = Number(process.env.BENCH_AIS_SPEED ?? 300);
const REPORT_MS = aisReportIntervalMs(SPEED);
/** One report interval from half an hour before each move to four hours after (a gap of 20 reports, the 30-minute stop, the way out of the port area and the pass fit). */
const NEAR_STEP = REPORT_MS;
const NEAR: [number, number] = [-30 * MINUTE, 4 * HOUR];
/** The carrier's events come by polling (hours apart) within two days: half an hour is fine enough for that. */
const FINE_STEP = 30 * MINUTE;
const FINE: [number, number] = [-DAY, 2 * DAY];
const COARSE_STEP = 2 * HOUR;
/** The ship must lie at the port this long around a move for its stop to show (the 30-minute rule, the pass, the stamping). */
const STOP_SHOWN_MS = HOUR;

const database = await benchDatabase();
const db = createPool(database.url, 10);
const baselineDatabase = await freshDatabase();
const baselineDb = createPool(baselineDatabase.url, 10);
const clock = new ManualClock('2026-06-01T00:00:00Z');
const { sandbox, registry } = await startSandboxCarriers(clock);
const scacs = BENCH_SCACS;
const worker = new TrackingWorker({ db, clock, connectors: registry });
const baselineWorker = new TrackingWorker({ db: baselineDb, clock, connectors: registry, ais: false });
const account = await insertAccount(db, 'bench');
const baselineAccount = await insertAccount(baselineDb, 'bench without AIS');

/** The leg that brings the cargo to the port of discharge by sea. */
const podLeg = (j: Journey): Leg | undefined => j.legs.find((l) => l.vessel && j.route && l.to.place.locode === j.route.pod.locode);

// Journeys are anchored now (as the first lookup would): the first N with a last sea leg, as they come.
const chosen: { number: string; scac: string; journey: Journey; leg: Leg }[] = [];
for (let i = 1; chosen.length < N && i <= N * 20; i++) {
  const scac = scacs[i % scacs.length];
  const number = `${scac}${String(i).padStart(9, '0')}`;
  const resolved = sandbox.sandbox.registry.resolve(scac, 'bill_of_lading', number);
  if (resolved.kind !== 'journey') continue;
  const leg = podLeg(resolved.journey);
  if (leg) chosen.push({ number, scac, journey: resolved.journey, leg });
}
for (const [target, accountId] of [[db, account.id], [baselineDb, baselineAccount.id]] as const) {
  await target.query(
    `INSERT INTO tracking_requests (account_id, request_number, request_type, scac, next_attempt_at, created_at, updated_at)
     SELECT $1, n, 'bill_of_lading', s, $4, $4, $4 FROM unnest($2::text[], $3::text[]) AS r(n, s)`,
    [accountId, chosen.map((c) => c.number), chosen.map((c) => c.scac), clock.now()],
  );
}

const ais = await startSandboxAis({ port: 0, host: '127.0.0.1', clock, speed: SPEED, source: sandbox.sandbox });
const aisWorker = new AisWorker({
  db,
  clock,
  feeds: [{ host: '127.0.0.1', port: ais.port }],
  positionIntervalMs: 5 * MINUTE, // SVC_AIS_POSITION_INTERVAL_S's default
  retention: { fullResolutionMs: 30 * DAY, keepMs: 365 * DAY },
  useReportSecond: false,
});
await aisWorker.start();
await ais.waitForClients(1);

console.log(`${chosen.length} journeys; sandbox AIS feed at clock speed ${SPEED} (a report every ${REPORT_MS / MINUTE} min under way, moored every ${Math.max(REPORT_MS, 3 * MINUTE) / MINUTE} min)`);
console.log(`steps: ${NEAR_STEP / MINUTE} min from ${NEAR[0] / HOUR} h to +${NEAR[1] / HOUR} h of each move, ${FINE_STEP / MINUTE} min within ${FINE[0] / DAY} d to +${FINE[1] / DAY} d, ${COARSE_STEP / HOUR} h otherwise`);

/** The moves AIS may record, by the sandbox's truth: each sea leg's departure and arrival. */
type Kind = 'departure POL' | 'transshipment arrival' | 'transshipment departure' | 'POD arrival';
const KINDS: Kind[] = ['departure POL', 'transshipment arrival', 'transshipment departure', 'POD arrival'];
interface Move { number: string; journey: Journey; leg: Leg; kind: Kind; port: string; at: Date; published: Date | null }
const moves: Move[] = chosen.flatMap(({ number, journey }) => {
  const sea = journey.legs.filter((l) => l.mode === 'VESSEL' && l.vessel);
  const published = (leg: Leg, code: string, end: 'from' | 'to') => {
    const times = journey.events.filter((e) => e.type === 'TRANSPORT' && e.classifier === 'ACT' && e.code === code && e.legEnd === end && e.leg?.index === leg.index).map((e) => e.publishedAt.getTime());
    return times.length > 0 ? new Date(Math.min(...times)) : null;
  };
  return sea.flatMap((leg, i): Move[] => [
    { number, journey, leg, kind: i === 0 ? 'departure POL' : 'transshipment departure', port: leg.from.place.locode, at: leg.departAt, published: published(leg, 'DEPA', 'from') },
    { number, journey, leg, kind: leg.to.place.locode === journey.route?.pod.locode ? 'POD arrival' : 'transshipment arrival', port: leg.to.place.locode, at: leg.arriveAt, published: published(leg, 'ARRI', 'to') },
  ]);
});

const times = moves.map((m) => m.at.getTime());
const within = (t: number, [a, b]: [number, number]) => times.some((at) => t >= at + a && t < at + b);
const end = Math.max(...times) + 3 * DAY;
const started = performance.now();
let sent = 0;
let steps = 0;
let feedMs = 0;
while (clock.now().getTime() < end) {
  steps++;
  await Promise.all([worker.drain(100), baselineWorker.drain(100)]);
  const feedStarted = performance.now();
  const now = clock.now().getTime();
  clock.advance(within(now, NEAR) ? NEAR_STEP : within(now, FINE) ? FINE_STEP : COARSE_STEP);
  // The feed sends what fell due; svc reads and stores all of it before the workers look.
  sent += ais.tick().length;
  await until(() => aisWorker.counters.sentences >= sent, `${sent} AIS sentences read`);
  await aisWorker.ingester.flush();
  feedMs += performance.now() - feedStarted;
}
const seconds = (performance.now() - started) / 1000;
await aisWorker.stop();
await ais.close();

// What the feed showed of each move, by the shadowing rule, over every journey the sandbox has.
const legsOfShip = shipLegs(sandbox.sandbox.journeys());
type Shown = 'clear' | 'shadowed' | 'no stop';
function shown({ journey, leg, kind, at }: Move): Shown {
  const legs = legsOfShip.get(leg.vessel!.imo) ?? [];
  const mine = (s: ShipLeg) => s.journeyKey === journeyKey(journey) && s.leg.index === leg.index;
  const t = at.getTime();
  const arrival = kind.endsWith('arrival');
  // The leg must be the one transmitting just before it ends, or just after it starts.
  if (!mine(activeLeg(legs, new Date(arrival ? t - 1 : t))!)) return 'shadowed';
  // The stop at the port must show: no other leg of the ship under way within the hour after an arrival or before a departure.
  const [from, to] = arrival ? [t, t + STOP_SHOWN_MS] : [t - STOP_SHOWN_MS, t];
  return legs.some((s) => !mine(s) && s.leg.departAt.getTime() < to && s.leg.arriveAt.getTime() > from) ? 'no stop' : 'clear';
}

/** What svc recorded from AIS, per shipment: the moves (ais_moves) and the arrival at the port of discharge (ais_arrivals). */
interface Recorded { number: string; kind: 'departure' | 'arrival'; port: string; vessel_imo: string; occurred_at: Date; detected_at: Date; pod: boolean }
const recorded = (await db.query<Recorded>(
  `SELECT tr.request_number AS number, m.kind, m.port_locode AS port, m.vessel_imo, m.occurred_at, m.detected_at, false AS pod
     FROM tracking_requests tr JOIN ais_moves m ON m.shipment_id = tr.shipment_id WHERE tr.account_id = $1
   UNION ALL
   SELECT tr.request_number, 'arrival', a.port_locode, a.vessel_imo, a.arrived_at, a.detected_at, true
     FROM tracking_requests tr JOIN ais_arrivals a ON a.shipment_id = tr.shipment_id WHERE tr.account_id = $1`,
  [account.id],
)).rows;
/** When svc received the carrier's actual event for a move (by polling), per database. */
const receipts = async (target: typeof db, accountId: string) => {
  const { rows } = await target.query<{ number: string; code: string; port: string; received_at: Date }>(
    `SELECT tr.request_number AS number, r.code, r.location_locode AS port, min(r.received_at) AS received_at
       FROM tracking_requests tr JOIN raw_events r ON r.shipment_id = tr.shipment_id
      WHERE tr.account_id = $1 AND r.classifier = 'ACT' AND r.code IN ('DEPA', 'ARRI') AND r.location_locode IS NOT NULL
      GROUP BY 1, 2, 3`,
    [accountId],
  );
  return new Map(rows.map((r) => [`${r.number}|${r.code}|${r.port}`, r.received_at]));
};
const baseline = await receipts(baselineDb, baselineAccount.id);
const keyOf = (m: Move) => `${m.number}|${m.kind.endsWith('arrival') ? 'ARRI' : 'DEPA'}|${m.port}`;
const moveKind = (m: Move) => (m.kind.endsWith('arrival') ? 'arrival' : 'departure');
const matches = (m: Move, r: Recorded) => r.number === m.number && r.kind === moveKind(m) && r.port === m.port && r.vessel_imo === m.leg.vessel!.imo && (m.kind === 'POD arrival') === r.pod;
/** Within this of the truth an AIS time is right (a gap of reports, the anchorage before the berth). */
const RIGHT_WITHIN_MS = HOUR;

const hours = (ms: number) => (ms / HOUR).toFixed(2);
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const report = (label: string, xs: number[], unit = (ms: number) => `${hours(ms)} h`) =>
  console.log(xs.length === 0 ? `    ${label}: none` : `    ${label}: median ${unit(quantile(xs, 0.5))}, p95 ${unit(quantile(xs, 0.95))}, min ${unit(Math.min(...xs))}, max ${unit(Math.max(...xs))} (n=${xs.length})`);
const minutes = (ms: number) => `${(ms / MINUTE).toFixed(1)} min`;

console.log(`\n${chosen.length} shipments, ${moves.length} vessel moves, tracked in ${seconds.toFixed(1)} s (${steps} steps, ${(feedMs / 1000).toFixed(1)} s of it feeding AIS), ${sent} AIS sentences sent (${aisWorker.counters.sentences} read)`);
for (const kind of KINDS) {
  const ofKind = moves.filter((m) => m.kind === kind);
  const counted = ofKind.filter((m) => shown(m) === 'clear');
  const seen = counted.flatMap((m) => {
    const r = recorded.find((x) => matches(m, x));
    return r ? [{ m, r }] : [];
  });
  console.log(`\n${kind}: ${ofKind.length} moves, ${counted.length} shown on the feed (${ofKind.length - counted.length} shadowed or with no stop, left out); AIS recorded ${seen.length} of those`);
  const right = seen.filter(({ m, r }) => Math.abs(r.occurred_at.getTime() - m.at.getTime()) <= RIGHT_WITHIN_MS);
  report('AIS time − true time', seen.map(({ m, r }) => r.occurred_at.getTime() - m.at.getTime()), minutes);
  report('detected − AIS time (the stop rule or the way out of the area, the pass)', seen.map(({ r }) => r.detected_at.getTime() - r.occurred_at.getTime()), minutes);
  const withPublication = right.filter(({ m }) => m.published);
  report("earlier than the carrier's publication", withPublication.map(({ m, r }) => m.published!.getTime() - r.detected_at.getTime()));
  const withBaseline = right.filter(({ m }) => baseline.has(keyOf(m)));
  report('earlier than svc without AIS receiving the carrier event (polling)', withBaseline.map(({ m, r }) => baseline.get(keyOf(m))!.getTime() - r.detected_at.getTime()));
  console.log(`    AIS first in ${withPublication.filter(({ m, r }) => m.published! > r.detected_at).length}/${withPublication.length} against publication; wrong time (more than ${RIGHT_WITHIN_MS / HOUR} h off): ${seen.length - right.length}`);
}
const wrong = recorded.filter((r) => !moves.some((m) => matches(m, r) && Math.abs(r.occurred_at.getTime() - m.at.getTime()) <= RIGHT_WITHIN_MS));
const spurious = recorded.filter((r) => !moves.some((m) => matches(m, r)));
console.log(`\nAIS moves recorded: ${recorded.length}; wrong (no true move within ${RIGHT_WITHIN_MS / HOUR} h): ${wrong.length}, of them spurious (no such move of that vessel at that port at all): ${spurious.length}`);
for (const r of wrong) console.log(`  ${r.number} ${r.pod ? 'POD ' : ''}${r.kind} ${r.port} ${r.occurred_at.toISOString()}${spurious.includes(r) ? ' (spurious)' : ''}`);
const counts = await db.query<{ announced: string; milestones: string }>(
  `SELECT (SELECT count(*) FROM domain_events d JOIN transport_events e ON e.id = d.reference_id WHERE e.key ~ '[|]ocean_(departed|arrived)[|]') AS announced,
          (SELECT count(*) FROM transport_events WHERE key ~ '[|]ocean_(departed|arrived)[|]') AS milestones`,
);
console.log(`departure and arrival milestones ${counts.rows[0].milestones}, announcements ${counts.rows[0].announced} (a carrier rename of a feeder leg announces again)`);
const stillAis = await db.query("SELECT count(*) AS n FROM transport_events WHERE data_source = 'ais'");
console.log(`milestones still on AIS data (carrier event not yet in): ${stillAis.rows[0].n}`);

await sandbox.close();
await Promise.all([db.end(), baselineDb.end()]);
await baselineDatabase.drop();
await database.drop();
