// The container bench:map draws: a three-leg journey (Shanghai → Singapore → Colombo → Rotterdam,
// at sea on the last leg at `now`) with 30 days of AIS positions, one every three minutes while
// under way. Kept apart from bench/map.ts so a profiling script can build the same data.
import type { Queryable } from '../src/store/db.ts';
import { insertJourney, insertTrack, positionsAlong, seaPath, type Vessel } from '../test/support/route-journeys.ts';

const CNSHA: [number, number] = [121.5, 31.21667];
const SGSIN: [number, number] = [103.85191, 1.28992];
const LKCMB: [number, number] = [79.85, 6.95];
const NLRTM: [number, number] = [4.48333, 51.9];
const vessels: Vessel[] = [
  { imo: '9800001', name: 'BENCH ONE', mmsi: 563100001 },
  { imo: '9800002', name: 'BENCH TWO', mmsi: 563100002 },
  { imo: '9800003', name: 'BENCH THREE', mmsi: 563100003 },
];
const day = (d: string) => new Date(`${d}T00:00:00Z`);
const EVERY_3_MIN = 20 * 24;

/** The journey's container and how many positions were stored (those up to `now`). */
export async function insertMapJourney(db: Queryable, accountId: string, now: Date): Promise<{ containerId: string; stored: number }> {
  const { containerId } = await insertJourney(db, {
    accountId,
    state: { port_of_lading_locode: 'CNSHA', port_of_discharge_locode: 'NLRTM', transshipment_locodes: ['SGSIN', 'LKCMB'], pol_atd_at: '2026-01-05T00:00:00Z', pod_eta_at: '2026-02-20T00:00:00Z' },
    milestones: [
      { event: 'vessel_departed', at: '2026-01-05T00:00:00Z', locode: 'CNSHA', vessel: vessels[0] },
      { event: 'transshipment_arrived', at: '2026-01-11T00:00:00Z', locode: 'SGSIN', vessel: vessels[0] },
      { event: 'transshipment_departed', at: '2026-01-12T00:00:00Z', locode: 'SGSIN', vessel: vessels[1] },
      { event: 'transshipment_arrived', at: '2026-01-16T00:00:00Z', locode: 'LKCMB', vessel: vessels[1] },
      { event: 'transshipment_departed', at: '2026-01-17T00:00:00Z', locode: 'LKCMB', vessel: vessels[2] },
    ],
  });
  const legs: [Vessel, [number, number], [number, number], string, string][] = [
    [vessels[0], CNSHA, SGSIN, '2026-01-05', '2026-01-11'],
    [vessels[1], SGSIN, LKCMB, '2026-01-12', '2026-01-16'],
    [vessels[2], LKCMB, NLRTM, '2026-01-17', '2026-02-20'],
  ];
  let stored = 0;
  for (const [vessel, from, to, start, end] of legs) {
    const days = (day(end).getTime() - day(start).getTime()) / 86_400_000;
    const positions = positionsAlong(vessel, seaPath(from, to), day(start), day(end), Math.round(days * EVERY_3_MIN)).filter((p) => p.at <= now);
    await insertTrack(db, vessel, positions);
    stored += positions.length;
  }
  await db.query('ANALYZE');
  return { containerId, stored };
}
