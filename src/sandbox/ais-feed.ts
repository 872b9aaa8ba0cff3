// The sandbox AIS feed as a pure function of the registered journeys and a time window: which
// sentences a shore receiver network would deliver between two sandbox instants. The TCP server
// (ais-server.ts) calls it on a timer; tests call it directly. Everything random — position noise,
// gaps, late, duplicated and garbled sentences — is drawn from a PRNG seeded by (seed, ship, report
// slot), never from the window, so cutting time into windows differently gives the same sentences.
import { MINUTE, SECOND } from '../domain/time-units.ts';
import { normalizeDegrees } from '../geo/great-circle.ts';
import { offsetMetres } from './ais-geometry.ts';
import type { AisFleet, AisIdentity } from './ais-identity.ts';
import { garble, positionPayload, sentencesOf, staticPayload } from './ais-nmea.ts';
import { shipFixAt, shipLegs, type ShipLeg } from './ais-track.ts';
import type { Journey } from './journey.ts';
import { Prng } from './prng.ts';

/** What the feed does, documented in docs/sandbox.md ("AIS feed"); tests check the output against it. */
export const AIS_FEED = {
  /** A class A ship under way at 14–23 knots reports every 10 s. */
  underWayIntervalMs: 10 * SECOND,
  /** Moored, every 3 minutes. */
  mooredIntervalMs: 3 * MINUTE,
  /** Static and voyage data (type 5), every 6 minutes, and at most every sixth position report. */
  staticIntervalMs: 6 * MINUTE,
  /** GPS noise: each of east and north is off by up to this many metres. */
  positionNoiseM: 30,
  /** Course over ground: the route's bearing ± this. */
  courseNoiseDeg: 3,
  /** Heading: the course ± this (drift and steering). */
  headingNoiseDeg: 2,
  /** Speed over ground: the leg's speed ± this. */
  speedNoiseKnots: 0.4,
  /** Gaps: in each run of this many report slots a ship is, with gapChance, silent for gapSlots slots. */
  gapWindowSlots: 60,
  gapChance: 0.08,
  gapSlots: [5, 20] as const,
  /** Out of order: a report delivered 1–3 report intervals after it was taken. */
  lateChance: 0.02,
  lateSlots: [1, 3] as const,
  /** The same sentence twice (heard by two shore stations). */
  duplicateChance: 0.01,
  /** A sentence with one payload character garbled (its checksum fails). */
  corruptChance: 0.005,
} as const;

export const DEFAULT_AIS_SEED = 'sandbox-ais/1';

/**
 * How often each ship reports in sandbox time: at least every AIS_FEED.underWayIntervalMs, and no
 * more than once per real second per ship, so a fast sandbox clock (3600: an hour a second) gives
 * one report per ship per real second, an hour of sandbox time apart, rather than 360.
 */
export function aisReportIntervalMs(speed: number): number {
  return Math.max(AIS_FEED.underWayIntervalMs, Math.round(speed * SECOND));
}

export interface AisFeedOptions {
  seed?: string;
  /** Sandbox milliseconds between a ship's position reports (at least 10 s; default 10 s). */
  reportIntervalMs?: number;
}

export type AisQuirk = 'late' | 'duplicate' | 'corrupt';

export interface AisSentence {
  /** Sandbox time the receiver network delivers the sentence. */
  emitAt: Date;
  /** Sandbox time of the position or static data it carries (earlier than emitAt when late). */
  at: Date;
  imo: string;
  mmsi: number;
  type: 1 | 5;
  line: string;
  quirks: AisQuirk[];
}

export interface AisFeedSource {
  fleet: AisFleet;
  journeys: readonly Journey[];
}

interface Cadence {
  intervalMs: number;
  /** Report slots between moored reports, and between static reports. */
  mooredEvery: number;
  staticEvery: number;
}

function cadenceOf(options: AisFeedOptions): Cadence {
  const intervalMs = Math.max(AIS_FEED.underWayIntervalMs, Math.round(options.reportIntervalMs ?? 0));
  return {
    intervalMs,
    mooredEvery: Math.max(1, Math.round(AIS_FEED.mooredIntervalMs / intervalMs)),
    // On a fast clock, every sixth position report: static data stays a small part of the feed,
    // and a receiver that just connected still learns every ship's name within seconds.
    staticEvery: Math.max(6, Math.round(AIS_FEED.staticIntervalMs / intervalMs)),
  };
}

/** Every sentence delivered in (from, to], in delivery order. */
export function sentencesBetween(source: AisFeedSource, from: Date, to: Date, options: AisFeedOptions = {}): AisSentence[] {
  const seed = options.seed ?? DEFAULT_AIS_SEED;
  const cadence = cadenceOf(options);
  const legsByImo = shipLegs(source.journeys);
  const imos = [...source.fleet.keys()].sort();
  const out: AisSentence[] = [];
  imos.forEach((imo, ordinal) => {
    const legs = legsByImo.get(imo);
    if (legs) out.push(...shipSentences(source.fleet.get(imo)!, ordinal, legs, from.getTime(), to.getTime(), cadence, seed));
  });
  // Stable: sentences delivered at the same instant keep ship order, static before position.
  return out.sort((a, b) => a.emitAt.getTime() - b.emitAt.getTime());
}

function shipSentences(ship: AisIdentity, ordinal: number, legs: ShipLeg[], fromMs: number, toMs: number, cadence: Cadence, seed: string): AisSentence[] {
  const { intervalMs, mooredEvery, staticEvery } = cadence;
  const mmsi = String(ship.mmsi);
  const phases = new Prng(seed, 'phase', mmsi);
  const offsetMs = phases.int(0, intervalMs - 1);
  const staticPhase = phases.int(0, staticEvery - 1);
  const silent = gaps(seed, mmsi);
  // Late sentences of earlier slots can fall into the window too.
  const firstSlot = Math.ceil((fromMs - AIS_FEED.lateSlots[1] * intervalMs - offsetMs) / intervalMs);
  const lastSlot = Math.floor((toMs - offsetMs) / intervalMs);
  const out: AisSentence[] = [];
  for (let slot = firstSlot; slot <= lastSlot; slot++) {
    if (silent(slot)) continue;
    const at = new Date(slot * intervalMs + offsetMs);
    const fix = shipFixAt(legs, at);
    if (!fix) continue;
    const rng = new Prng(seed, 'report', mmsi, String(slot));
    const channel = slot % 2 === 0 ? 'A' : 'B';
    const messages: { type: 1 | 5; lines: string[] }[] = [];
    if (slot % staticEvery === staticPhase) {
      const payload = staticPayload({ identity: ship, destination: fix.destination?.locode ?? '', eta: fix.eta });
      messages.push({ type: 5, lines: sentencesOf(payload, channel, (Math.floor(slot / staticEvery) + ordinal) % 10) });
    }
    if (fix.state === 'under_way' || slot % mooredEvery === 0) {
      const [lon, lat] = offsetMetres([fix.lon, fix.lat], noise(rng, AIS_FEED.positionNoiseM), noise(rng, AIS_FEED.positionNoiseM));
      const course = fix.courseDeg === null ? null : normalizeDegrees(fix.courseDeg + noise(rng, AIS_FEED.courseNoiseDeg));
      const report = {
        mmsi: ship.mmsi,
        navStatus: fix.state === 'under_way' ? 0 : 5,
        speedKnots: fix.state === 'under_way' ? Math.max(0, fix.speedKnots + noise(rng, AIS_FEED.speedNoiseKnots)) : 0,
        courseDeg: course,
        headingDeg: course === null ? null : Math.round(normalizeDegrees(course + noise(rng, AIS_FEED.headingNoiseDeg))) % 360,
        lon,
        lat,
        second: at.getUTCSeconds(),
      };
      messages.push({ type: 1, lines: sentencesOf(positionPayload(report), channel, 0) });
    }
    for (const { type, lines } of messages) {
      const quirks: AisQuirk[] = [];
      let emitAt = at.getTime();
      if (rng.chance(AIS_FEED.lateChance)) {
        emitAt += rng.int(...AIS_FEED.lateSlots) * intervalMs;
        quirks.push('late');
      }
      const duplicated = rng.chance(AIS_FEED.duplicateChance);
      const delivered = lines.map((line) => {
        if (!rng.chance(AIS_FEED.corruptChance)) return { line, quirks };
        return { line: garble(line, rng), quirks: [...quirks, 'corrupt' as const] };
      });
      if (emitAt <= fromMs || emitAt > toMs) continue;
      // The copy, not the original, is marked as the duplicate.
      const copies = duplicated ? [...delivered, ...delivered.map((d) => ({ ...d, quirks: [...d.quirks, 'duplicate' as const] }))] : delivered;
      for (const d of copies) out.push({ emitAt: new Date(emitAt), at, imo: ship.imo, mmsi: ship.mmsi, type, line: d.line, quirks: d.quirks });
    }
  }
  return out;
}

/** Uniform in [-max, max). */
function noise(rng: Prng, max: number): number {
  return rng.between(-max, max);
}

/** Whether a ship is silent in a report slot: a few runs of slots in each window are lost. */
function gaps(seed: string, mmsi: string): (slot: number) => boolean {
  const windows = new Map<number, [number, number] | null>();
  return (slot) => {
    const window = Math.floor(slot / AIS_FEED.gapWindowSlots);
    let gap = windows.get(window);
    if (gap === undefined) {
      const rng = new Prng(seed, 'gap', mmsi, String(window));
      const start = window * AIS_FEED.gapWindowSlots + rng.int(0, AIS_FEED.gapWindowSlots - 1);
      gap = rng.chance(AIS_FEED.gapChance) ? [start, start + rng.int(...AIS_FEED.gapSlots)] : null;
      windows.set(window, gap);
    }
    return gap !== null && slot >= gap[0] && slot < gap[1];
  };
}
