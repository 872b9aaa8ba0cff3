// `npm run bench:ais-arrivals`: how much earlier than the carrier svc records a vessel's arrival at
// the port of discharge from AIS. BENCH_AIS_SHIPMENTS sandbox journeys (default 120) are tracked
// through the real path (DCSA over HTTP on loopback, the worker, PostgreSQL) in virtual time. The
// sandbox AIS feed not being there yet, each journey's last sea leg is turned into positions: the
// vessel follows the sea route at the leg's steady speed (a report every 2 h at sea, every 10
// minutes in the last 12 hours) and lies at the port from the carrier's actual arrival time on.
// With BENCH_AIS_ANCHOR_HOURS=0 (the default) that is the conservative case; real ships often wait
// at anchor inside the area before the berth arrival carriers report, which AIS counts as arrival:
// BENCH_AIS_ANCHOR_HOURS=h has each vessel reach an anchorage 8 nm out h hours before it.
//
// Printed, per journey, against the AIS detection (when svc recorded the arrival):
//   - the carrier's publication of its arrival event (what svc would get at once by carrier push);
//   - when svc without AIS received it by polling (the default refresh cadence): a second svc
//     database, tracking the same journeys on the same clock with the AIS pass off, is the
//     baseline, since an AIS arrival itself makes the shipment due and so hastens the carrier's.
import { ManualClock } from '../src/clock.ts';
import { ConnectorRegistry } from '../src/carriers/registry.ts';
import { HOUR, MINUTE, DAY } from '../src/domain/time-units.ts';
import { haversineNm } from '../src/geo/distance.ts';
import { seaRoute } from '../src/geo/searoute.ts';
import { buildSandboxServer, type Journey } from '../src/sandbox/index.ts';
import type { Leg } from '../src/sandbox/journey.ts';
import { TrackingWorker } from '../src/services/tracking/worker.ts';
import { insertAccount } from '../src/store/accounts.ts';
import { portPositions } from '../src/store/ais-arrivals.ts';
import { createPool } from '../src/store/db.ts';
import { insertVesselPositions, upsertAisIdentity, type VesselPosition } from '../src/store/vessel-positions.ts';
import { freshDatabase } from '../test/support/database.ts';
import { benchDatabase } from './database.ts';

const N = Number(process.env.BENCH_AIS_SHIPMENTS ?? 120);
const FINE_STEP = 10 * MINUTE;
const COARSE_STEP = 2 * HOUR;
const ANCHOR_MS = Number(process.env.BENCH_AIS_ANCHOR_HOURS ?? 0) * HOUR;

const database = await benchDatabase();
const db = createPool(database.url, 10);
const baselineDatabase = await freshDatabase();
const baselineDb = createPool(baselineDatabase.url, 10);
const clock = new ManualClock('2026-06-01T00:00:00Z');
const sandbox = await buildSandboxServer({ clock });
const sandboxUrl = await sandbox.listen({ port: 0, host: '127.0.0.1' });
const scacs = ['MAEU', 'MSCU', 'CMDU', 'HLCU', 'ONEY'];
const registry = new ConnectorRegistry(
  scacs.map((scac) => ({ scac, baseUrl: `${sandboxUrl}/carriers/${scac}`, version: '2.2' as const, terminalBaseUrl: `${sandboxUrl}/terminal` })),
  clock,
);
const worker = new TrackingWorker({ db, clock, connectors: registry });
const baselineWorker = new TrackingWorker({ db: baselineDb, clock, connectors: registry, ais: false });
const account = await insertAccount(db, 'bench');
const baselineAccount = await insertAccount(baselineDb, 'bench without AIS');

/** The leg that brings the cargo to the port of discharge by sea. */
const podLeg = (j: Journey): Leg | undefined => j.legs.find((l) => l.vessel && j.route && l.to.place.locode === j.route.pod.locode);

// Journeys are anchored now (as the first lookup would), then chosen so that no two put the same
// vessel in two places at once: each chosen last leg owns its vessel's track for its time.
const chosen: { number: string; scac: string; journey: Journey; leg: Leg }[] = [];
const busy = new Map<string, [number, number][]>();
for (let i = 1; chosen.length < N && i <= N * 20; i++) {
  const scac = scacs[i % scacs.length];
  const number = `${scac}${String(i).padStart(9, '0')}`;
  const resolved = sandbox.sandbox.registry.resolve(scac, 'bill_of_lading', number);
  if (resolved.kind !== 'journey') continue;
  const leg = podLeg(resolved.journey);
  if (!leg) continue;
  const window: [number, number] = [leg.departAt.getTime() - DAY, leg.arriveAt.getTime() + 3 * DAY];
  const taken = busy.get(leg.vessel!.imo) ?? [];
  if (taken.some(([a, b]) => window[0] < b && a < window[1])) continue;
  busy.set(leg.vessel!.imo, [...taken, window]);
  chosen.push({ number, scac, journey: resolved.journey, leg });
}

// One MMSI per vessel, and its track for each chosen leg.
const ports = await portPositions(db, [...new Set(chosen.map((c) => c.leg.to.place.locode))]);
const mmsis = new Map([...busy.keys()].map((imo, i) => [imo, 900_000_001 + i]));
for (const [imo, mmsi] of mmsis) await upsertAisIdentity(db, { mmsi, imo, name: null, callSign: null, shipType: 70, destination: null, at: clock.now() });
let positions = 0;
for (const { leg } of chosen) {
  const port = ports.get(leg.to.place.locode) ?? [leg.to.place.lon, leg.to.place.lat];
  const track = legTrack(mmsis.get(leg.vessel!.imo)!, [leg.from.place.lon, leg.from.place.lat], port, leg.departAt.getTime(), leg.arriveAt.getTime());
  positions += await insertVesselPositions(db, track);
}
for (const [target, accountId] of [[db, account.id], [baselineDb, baselineAccount.id]] as const) {
  await target.query(
    `INSERT INTO tracking_requests (account_id, request_number, request_type, scac, next_attempt_at, created_at, updated_at)
     SELECT $1, n, 'bill_of_lading', s, $4, $4, $4 FROM unnest($2::text[], $3::text[]) AS r(n, s)`,
    [accountId, chosen.map((c) => c.number), chosen.map((c) => c.scac), clock.now()],
  );
}
console.log(`anchorage wait before the carrier's arrival time: ${ANCHOR_MS / HOUR} h`);
console.log(`${chosen.length} journeys (each last sea leg on a vessel no other chosen journey uses at the time), ${positions} AIS positions`);

// Virtual time: fine steps around arrivals (the AIS pass runs every 10 minutes), coarse ones between.
const fine = chosen.map((c) => [c.leg.arriveAt.getTime() - DAY, c.leg.arriveAt.getTime() + 2 * DAY] as const);
const end = Math.max(...chosen.map((c) => c.leg.arriveAt.getTime())) + 3 * DAY;
const started = performance.now();
while (clock.now().getTime() < end) {
  await Promise.all([worker.drain(100), baselineWorker.drain(100)]);
  const now = clock.now().getTime();
  clock.advance(fine.some(([a, b]) => now >= a && now < b) ? FINE_STEP : COARSE_STEP);
}
const seconds = (performance.now() - started) / 1000;

interface Outcome { number: string; detected_at: Date | null; arrived_at: Date | null; published_at: Date | null; received_at: Date | null; occurred_at: Date | null; announced: number; milestones: number }
const outcomes = (target: typeof db, accountId: string) => target.query<Outcome>(
  `SELECT tr.request_number AS number, a.detected_at, a.arrived_at, r.published_at, r.received_at, r.occurred_at,
          (SELECT count(*) FROM domain_events d WHERE d.shipment_id = s.id AND d.name = 'container.transport.vessel_arrived') AS announced,
          (SELECT count(*) FROM transport_events e WHERE e.shipment_id = s.id AND e.event = 'container.transport.vessel_arrived') AS milestones
     FROM tracking_requests tr JOIN shipments s ON s.id = tr.shipment_id
     LEFT JOIN ais_arrivals a ON a.shipment_id = s.id
     LEFT JOIN LATERAL (SELECT min(published_at) AS published_at, min(received_at) AS received_at, min(occurred_at) AS occurred_at FROM raw_events
                         WHERE shipment_id = s.id AND code = 'ARRI' AND classifier = 'ACT' AND location_locode = s.state->>'port_of_discharge_locode') r ON true
    WHERE tr.account_id = $1`,
  [accountId],
);
const { rows } = await outcomes(db, account.id);
const baseline = new Map((await outcomes(baselineDb, baselineAccount.id)).rows.map((r) => [r.number, r.received_at]));
const both = rows.filter((r) => r.detected_at && r.received_at && baseline.get(r.number));
const withoutAis = (r: Outcome) => baseline.get(r.number)!;
const hours = (ms: number) => (ms / HOUR).toFixed(2);
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const report = (label: string, xs: number[]) =>
  console.log(`  ${label}: median ${hours(quantile(xs, 0.5))} h, p90 ${hours(quantile(xs, 0.9))} h, min ${hours(Math.min(...xs))} h, max ${hours(Math.max(...xs))} h`);

console.log(`\n${rows.length} shipments tracked in ${seconds.toFixed(1)} s; AIS arrival recorded for ${rows.filter((r) => r.detected_at).length}, carrier arrival received for ${rows.filter((r) => r.received_at).length}, both for ${both.length}`);
console.log(`AIS detection after the vessel stopped (the 30-minute stop rule plus the 10-minute pass):`);
report('detected − stopped', both.map((r) => r.detected_at!.getTime() - r.arrived_at!.getTime()));
console.log(`How much earlier svc had the arrival from AIS than:`);
report("the carrier's publication of its event", both.map((r) => r.published_at!.getTime() - r.detected_at!.getTime()));
report('svc without AIS receiving the carrier event (polling)', both.map((r) => withoutAis(r).getTime() - r.detected_at!.getTime()));
console.log(`  AIS first in ${both.filter((r) => r.detected_at! < r.published_at!).length}/${both.length} against publication, ${both.filter((r) => r.detected_at! < withoutAis(r)).length}/${both.length} against svc's receipt without AIS`);
const doubled = rows.filter((r) => r.milestones !== r.announced);
console.log(`vessel_arrived milestones vs announcements: ${doubled.length === 0 ? 'one announcement per milestone in every shipment' : `${doubled.length} shipments differ`}`);
const stillAis = await db.query("SELECT count(*) AS n FROM transport_events WHERE data_source = 'ais'");
console.log(`milestones still on AIS data (carrier event not yet in): ${stillAis.rows[0].n}`);

await sandbox.close();
await Promise.all([db.end(), baselineDb.end()]);
await baselineDatabase.drop();
await database.drop();

/** The vessel along the sea route at a steady speed, then lying at the port from `arriveAt` for two days. */
function legTrack(mmsi: number, from: [number, number], port: [number, number], departAt: number, arriveAt: number): VesselPosition[] {
  const route = seaRoute(from, port)?.coordinates ?? [from, port];
  const cumulative = [0];
  for (let i = 1; i < route.length; i++) cumulative.push(cumulative[i - 1] + haversineNm(route[i - 1], route[i]));
  const total = cumulative[cumulative.length - 1];
  const knots = total / ((arriveAt - departAt) / HOUR);
  const along = (nm: number): [number, number] => {
    let i = 1;
    while (i < route.length - 1 && cumulative[i] < nm) i++;
    const span = cumulative[i] - cumulative[i - 1];
    const f = span > 0 ? Math.min(1, Math.max(0, (nm - cumulative[i - 1]) / span)) : 1;
    // A Pacific crossing jumps ±180 between two points: take the nearer end rather than sweep the globe.
    if (Math.abs(route[i][0] - route[i - 1][0]) > 180) return f < 0.5 ? route[i - 1] : route[i];
    return [route[i - 1][0] + (route[i][0] - route[i - 1][0]) * f, route[i - 1][1] + (route[i][1] - route[i - 1][1]) * f];
  };
  const out: VesselPosition[] = [];
  const at = (t: number, [lon, lat]: [number, number], speed: number) =>
    out.push({ mmsi, at: new Date(t), longitude: lon, latitude: lat, speedKnots: speed, courseDegrees: null, headingDegrees: null });
  // Without a wait the vessel sails to the port itself; with one, to the anchorage 8 nm south of it, arriving that much earlier.
  const anchorage: [number, number] = [port[0], port[1] - 8 / 60];
  const reached = arriveAt - ANCHOR_MS;
  for (let t = departAt; t < reached; t += t < reached - 12 * HOUR ? 2 * HOUR : 10 * MINUTE) at(t, along(((t - departAt) / (reached - departAt)) * total), knots);
  for (let t = reached; t < arriveAt; t += 10 * MINUTE) at(t, anchorage, 0.1);
  for (let t = arriveAt; t <= arriveAt + 2 * DAY; t += 10 * MINUTE) at(t, port, 0.1);
  return out;
}
