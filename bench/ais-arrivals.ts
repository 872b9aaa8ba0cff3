// `npm run bench:ais-arrivals`: how much earlier than the carrier svc records a vessel's arrival at
// the port of discharge from AIS. BENCH_AIS_SHIPMENTS sandbox journeys (default 20) are tracked
// through the real path in virtual time: the carriers' DCSA APIs over HTTP on loopback, the
// sandbox's AIS feed over TCP (src/sandbox/ais-server.ts: NMEA with its gaps of up to 20 reports,
// late, duplicate and corrupt sentences) into svc's AIS worker, the tracking worker, PostgreSQL.
//
// Printed, per journey, against the AIS detection (when svc recorded the arrival):
//   - the carrier's publication of its arrival event (what svc would get at once by carrier push);
//   - when svc without AIS received it by polling (the default refresh cadence): a second svc
//     database, tracking the same journeys on the same clock with the AIS pass off, is the
//     baseline, since an AIS arrival itself makes the shipment due and so hastens the carrier's.
//
// Stepping: svc stamps a report when it arrives, and the feed sends what fell due in a step at the
// step's end, so a coarse step stamps reports late. Around each arrival the clock moves one report
// interval at a time (BENCH_AIS_SPEED sets the sandbox clock speed, hence the interval: 300 gives a
// report every 5 sandbox minutes); the printed stamp error shows what that costs.
//
// Shadowing (docs/sandbox.md, "AIS feed"): a ship given legs of two journeys at once transmits for
// the leg that departed first. A journey whose last sea leg is shadowed at its arrival, or whose
// ship is on another leg within the hour after it, shows no stop at the port on the feed: such
// journeys are counted and left out of the comparison.
import { AisWorker } from '../src/ais/worker.ts';
import { ManualClock } from '../src/clock.ts';
import { DAY, HOUR, MINUTE } from '../src/domain/time-units.ts';
import { haversineNm } from '../src/geo/distance.ts';
import type { Journey } from '../src/sandbox/index.ts';
import { aisReportIntervalMs } from '../src/sandbox/ais-feed.ts';
import { startSandboxAis } from '../src/sandbox/ais-server.ts';
import { activeLeg, journeyKey, shipLegs } from '../src/sandbox/ais-track.ts';
import type { Leg } from '../src/sandbox/journey.ts';
import { TrackingWorker } from '../src/services/tracking/worker.ts';
import { insertAccount } from '../src/store/accounts.ts';
import { portPositions } from '../src/store/reference.ts';
import { createPool } from '../src/store/db.ts';
import { freshDatabase } from '../test/support/database.ts';
import { until } from '../test/support/ais-feed.ts';
import { benchDatabase } from './database.ts';
import { BENCH_SCACS, startSandboxCarriers } from './sandbox-carriers.ts';

const N = Number(process.env.BENCH_AIS_SHIPMENTS ?? 20);
const SPEED = Number(process.env.BENCH_AIS_SPEED ?? 300);
const REPORT_MS = aisReportIntervalMs(SPEED);
/** One report interval from half an hour before each arrival to four hours after (a gap of 20 reports, the 30-minute stop and the pass fit). */
const NEAR_STEP = REPORT_MS;
const NEAR: [number, number] = [-30 * MINUTE, 4 * HOUR];
/** The carrier's event comes by polling (hours apart) within two days: half an hour is fine enough for that. */
const FINE_STEP = 30 * MINUTE;
const FINE: [number, number] = [-DAY, 2 * DAY];
const COARSE_STEP = 2 * HOUR;
/** The ship must lie at the port this long after the leg for its stop to show (the 30-minute rule, the pass, the stamping). */
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
console.log(`steps: ${NEAR_STEP / MINUTE} min from ${NEAR[0] / HOUR} h to +${NEAR[1] / HOUR} h of each arrival, ${FINE_STEP / MINUTE} min within ${FINE[0] / DAY} d to +${FINE[1] / DAY} d, ${COARSE_STEP / HOUR} h otherwise`);

const arrivals = chosen.map((c) => c.leg.arriveAt.getTime());
const within = (t: number, [a, b]: [number, number]) => arrivals.some((at) => t >= at + a && t < at + b);
const end = Math.max(...arrivals) + 3 * DAY;
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

// What the feed showed of each chosen leg's end, by the shadowing rule, over every journey the sandbox has.
const legsOfShip = shipLegs(sandbox.sandbox.journeys());
type Shown = 'clear' | 'shadowed en route' | 'shadowed at arrival' | 'no stop';
function shown({ journey, leg }: (typeof chosen)[number]): Shown {
  const legs = legsOfShip.get(leg.vessel!.imo) ?? [];
  const mine = (s: { journeyKey: string; leg: Leg }) => s.journeyKey === journeyKey(journey) && s.leg.index === leg.index;
  const [from, to] = [leg.departAt.getTime(), leg.arriveAt.getTime()];
  if (!mine(activeLeg(legs, new Date(to - 1))!)) return 'shadowed at arrival';
  const others = legs.filter((s) => !mine(s));
  if (others.some((s) => s.leg.departAt.getTime() < to + STOP_SHOWN_MS && s.leg.arriveAt.getTime() > to)) return 'no stop';
  return others.some((s) => s.leg.departAt.getTime() < to && s.leg.arriveAt.getTime() > from) ? 'shadowed en route' : 'clear';
}

interface Outcome { number: string; detected_at: Date | null; arrived_at: Date | null; latitude: number | null; longitude: number | null; published_at: Date | null; received_at: Date | null; announced: number; milestones: number }
const outcomes = (target: typeof db, accountId: string) => target.query<Outcome>(
  `SELECT tr.request_number AS number, a.detected_at, a.arrived_at, a.latitude, a.longitude, r.published_at, r.received_at,
          (SELECT count(*) FROM domain_events d WHERE d.shipment_id = s.id AND d.name = 'container.transport.vessel_arrived') AS announced,
          (SELECT count(*) FROM transport_events e WHERE e.shipment_id = s.id AND e.event = 'container.transport.vessel_arrived') AS milestones
     FROM tracking_requests tr JOIN shipments s ON s.id = tr.shipment_id
     LEFT JOIN ais_arrivals a ON a.shipment_id = s.id
     LEFT JOIN LATERAL (SELECT min(published_at) AS published_at, min(received_at) AS received_at FROM raw_events
                         WHERE shipment_id = s.id AND code = 'ARRI' AND classifier = 'ACT' AND location_locode = s.state->>'port_of_discharge_locode') r ON true
    WHERE tr.account_id = $1`,
  [accountId],
);
const byNumber = new Map((await outcomes(db, account.id)).rows.map((r) => [r.number, r]));
const baseline = new Map((await outcomes(baselineDb, baselineAccount.id)).rows.map((r) => [r.number, r.received_at]));
const ports = await portPositions(db, [...new Set(chosen.map((c) => c.leg.to.place.locode))]);
const runs = chosen.map((c) => ({ ...c, shown: shown(c), row: byNumber.get(c.number) }));

const hours = (ms: number) => (ms / HOUR).toFixed(2);
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const report = (label: string, xs: number[], unit = (ms: number) => `${hours(ms)} h`) =>
  console.log(xs.length === 0 ? `  ${label}: none` : `  ${label}: median ${unit(quantile(xs, 0.5))}, p90 ${unit(quantile(xs, 0.9))}, min ${unit(Math.min(...xs))}, max ${unit(Math.max(...xs))} (n=${xs.length})`);
const minutes = (ms: number) => `${(ms / MINUTE).toFixed(1)} min`;

const tally = (xs: typeof runs) => `${xs.length} (${xs.filter((r) => r.row?.detected_at).length} with an AIS arrival recorded)`;
console.log(`\n${runs.length} shipments tracked in ${seconds.toFixed(1)} s (${steps} steps, ${(feedMs / 1000).toFixed(1)} s of it feeding AIS), ${sent} AIS sentences sent (${aisWorker.counters.sentences} read)`);
console.log(`Shadowing (the ship transmits for its earliest-departed active leg):`);
for (const kind of ['clear', 'shadowed en route', 'shadowed at arrival', 'no stop'] as const) console.log(`  ${kind}: ${tally(runs.filter((r) => r.shown === kind))}`);
const counted = runs.filter((r) => r.shown === 'clear' || r.shown === 'shadowed en route');
console.log(`  compared: the ${counted.length} whose stop at the port of discharge shows on the feed; the other ${runs.length - counted.length} are left out`);

const seen = counted.filter((r) => r.row?.detected_at);
const both = seen.filter((r) => r.row!.received_at && baseline.get(r.number));
console.log(`\nOf ${counted.length}: AIS arrival recorded for ${seen.length}, carrier arrival received for ${counted.filter((r) => r.row?.received_at).length}, both (and by svc without AIS) for ${both.length}`);
const missed = counted.filter((r) => !r.row?.detected_at);
if (missed.length > 0) console.log(`  no AIS arrival: ${missed.map((r) => `${r.number} (arrives ${r.leg.arriveAt.toISOString()})`).join(', ')}`);
console.log(`Where and when AIS placed the arrival, against the sandbox's truth:`);
report('recorded arrival − true arrival (report interval, gaps, stamping at the step)', seen.map((r) => r.row!.arrived_at!.getTime() - r.leg.arriveAt.getTime()), minutes);
report('detected − recorded arrival (the 30-minute stop rule, the kept reports, the 10-minute pass)', seen.map((r) => r.row!.detected_at!.getTime() - r.row!.arrived_at!.getTime()), minutes);
const offNm = seen.map((r) => haversineNm([r.row!.longitude!, r.row!.latitude!], [r.leg.to.place.lon, r.leg.to.place.lat]));
console.log(`  recorded position: within ${Math.max(...offNm, 0).toFixed(2)} nm of the sandbox port (svc's reference points are up to ${Math.max(...counted.map((r) => { const p = ports.get(r.leg.to.place.locode); return p ? haversineNm(p, [r.leg.to.place.lon, r.leg.to.place.lat]) : 0; }), 0).toFixed(2)} nm from the sandbox's)`);
console.log(`How much earlier svc had the arrival from AIS than:`);
const early = (at: (r: (typeof both)[number]) => Date) => both.map((r) => at(r).getTime() - r.row!.detected_at!.getTime());
report("the carrier's publication of its event", early((r) => r.row!.published_at!));
report('svc without AIS receiving the carrier event (polling)', early((r) => baseline.get(r.number)!));
console.log(`  AIS first in ${early((r) => r.row!.published_at!).filter((d) => d > 0).length}/${both.length} against publication, ${early((r) => baseline.get(r.number)!).filter((d) => d > 0).length}/${both.length} against svc's receipt without AIS`);
const rows = [...byNumber.values()];
const doubled = rows.filter((r) => Number(r.milestones) !== Number(r.announced));
console.log(`vessel_arrived milestones vs announcements: ${doubled.length === 0 ? 'one announcement per milestone in every shipment' : `${doubled.length} shipments differ`}`);
const stillAis = await db.query("SELECT count(*) AS n FROM transport_events WHERE data_source = 'ais'");
console.log(`milestones still on AIS data (carrier event not yet in): ${stillAis.rows[0].n}`);
const wrong = runs.filter((r) => r.shown !== 'clear' && r.shown !== 'shadowed en route' && r.row?.detected_at);
if (wrong.length > 0) console.log(`left out but with an AIS arrival recorded: ${wrong.map((r) => `${r.number} (${r.shown}, ${hours(r.row!.arrived_at!.getTime() - r.leg.arriveAt.getTime())} h from the leg's end)`).join(', ')}`);

await sandbox.close();
await Promise.all([db.end(), baselineDb.end()]);
await baselineDatabase.drop();
await database.drop();
