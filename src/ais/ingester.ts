// From decoded AIS reports to stored positions: match each MMSI to a vessel svc knows, downsample,
// and write in batches. Everything per sentence is synchronous and in memory; the database sees
// one INSERT per batch.
import type { Clock } from '../clock.ts';
import { DAY, HOUR, MINUTE } from '../domain/time-units.ts';
import type { Db } from '../store/db.ts';
import { aisMatchData, insertVesselPositions, upsertAisIdentities, type AisIdentity, type VesselPosition } from '../store/vessel-positions.ts';
import { newAisCounters, type AisCounters } from './counters.ts';
import { AisSentenceDecoder, reportsOf, type AisPositionReport, type AisStaticReport } from './decode.ts';
import { PositionSampler, samplingRule } from './downsample.ts';
import { PositionGate } from './plausible-positions.ts';
import { LineSplitter } from './nmea.ts';
import { reportTime } from './report-time.ts';

export interface IngesterOptions {
  db: Db;
  /** "Now" for vessels learned from carriers; receipt times are given with each batch of lines. */
  clock: Clock;
  /** Keep a moving vessel's position about this often (see downsample.ts for the whole rule). */
  positionIntervalMs: number;
  /** Place each position at the UTC second its report gives (only when receipt times are real time). */
  useReportSecond?: boolean;
  counters?: AisCounters;
  /** Write once this many positions wait (the worker also flushes every second). */
  batchSize?: number;
  /** Positions waiting while the database is away, at most; beyond it the oldest are dropped (and counted). */
  maxQueued?: number;
  /** How long a position of an MMSI without a static report yet is held, waiting for one. */
  holdMs?: number;
  log?: (msg: string, fields?: Record<string, unknown>) => void;
}

/** How long ago a carrier must have named a vessel for its positions to be kept. */
const CARRIER_VESSELS_WITHIN_MS = 180 * DAY;
/** A static report matching the one last written is written again only after this long (to refresh its time). */
const IDENTITY_REFRESH_MS = HOUR;
/** One INSERT carries at most this many positions. */
const MAX_INSERT = 5000;
/**
 * MMSIs remembered at most, in the memory of static reports and of positions held for one: a
 * feed may name any number of them (a hostile one makes them up), so the oldest are forgotten.
 * Above the number of vessels a worldwide feed hears in a day.
 */
const MAX_MMSIS = 300_000;
const MAX_HELD = 50_000;

/** Sets `key` as the newest entry of `map`, forgetting the oldest beyond `max`. */
function setBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value!);
}

/** An IMO number as svc's vessels and AIS give it: seven digits ("IMO 9811000" → "9811000"). */
const imoKey = (imo: string) => /(\d{7})\s*$/.exec(imo)?.[1] ?? null;

const identityKey = (i: AisIdentity) => [i.imo, i.name, i.callSign, i.shipType, i.destination].join('\u0000');

/** What one feed connection sends: its own line framing and multi-sentence state, the shared matching and queue. */
export interface FeedReader {
  /** Text received at `receivedMs` (epoch milliseconds), cut into lines here. */
  data(chunk: string, receivedMs: number): void;
  /** Whole lines received together at `receivedMs`. */
  lines(lines: readonly string[], receivedMs: number): void;
  /** The connection closed: forget its partial line and fragments in progress. */
  reset(): void;
}

export class AisIngester {
  readonly counters: AisCounters;
  readonly #sampler: PositionSampler;
  readonly #gate = new PositionGate();
  readonly #batchSize: number;
  readonly #maxQueued: number;
  readonly #holdMs: number;
  readonly #useReportSecond: boolean;

  /** IMO numbers (seven digits) of the vessels svc keeps positions of. */
  #imos = new Set<string>();
  /** MMSIs the reference data gives for those vessels, trusted until a static report says otherwise. */
  #referenceImoOfMmsi = new Map<number, string>();
  /** The IMO the newest static report of each MMSI gave (any vessel, so others are recognised as not svc's). */
  readonly #imoOfMmsi = new Map<number, string>();
  /** The newest position of each MMSI not yet known, until its static report comes (or holdMs passes). */
  readonly #held = new Map<number, VesselPosition>();
  #sweptMs = 0;

  #queue: VesselPosition[] = [];
  readonly #identities = new Map<number, AisIdentity>();
  readonly #written = new Map<number, { key: string; atMs: number }>();
  #writing: Promise<void> = Promise.resolve();
  #flushPending = false;

  constructor(private readonly options: IngesterOptions) {
    this.counters = options.counters ?? newAisCounters();
    this.#sampler = new PositionSampler(samplingRule(options.positionIntervalMs));
    this.#batchSize = options.batchSize ?? 500;
    this.#maxQueued = options.maxQueued ?? 100_000;
    this.#holdMs = options.holdMs ?? 10 * MINUTE;
    this.#useReportSecond = options.useReportSecond ?? true;
  }

  /** (Re)reads which vessels svc cares about: at start, then now and then, as carriers name new ones. */
  async loadVessels(): Promise<void> {
    const data = await aisMatchData(this.options.db, new Date(this.options.clock.now().getTime() - CARRIER_VESSELS_WITHIN_MS));
    const imos = new Set<string>();
    for (const imo of data.imos) {
      const key = imoKey(imo);
      if (key) imos.add(key);
    }
    const reference = new Map<number, string>();
    for (const { mmsi, imo } of data.referenceMmsis) {
      const key = imoKey(imo);
      if (key) reference.set(mmsi, key);
    }
    for (const { mmsi, imo } of data.learnedMmsis) {
      const key = imoKey(imo);
      if (key && !this.#imoOfMmsi.has(mmsi)) this.#imoOfMmsi.set(mmsi, key);
    }
    this.#imos = imos;
    this.#referenceImoOfMmsi = reference;
  }

  /** A reader for one feed connection. */
  reader(): FeedReader {
    const decoder = new AisSentenceDecoder(this.counters.skipped);
    let splitter = new LineSplitter();
    const reader: FeedReader = {
      data: (chunk, receivedMs) => {
        const dropped = splitter.dropped;
        const lines = splitter.push(chunk);
        // A line too long for NMEA is a bad sentence like any other.
        this.counters.sentences += splitter.dropped - dropped;
        this.counters.skipped.malformed += splitter.dropped - dropped;
        reader.lines(lines, receivedMs);
      },
      lines: (lines, receivedMs) => {
        this.counters.sentences += lines.length;
        this.reports(reportsOf(decoder, lines, this.counters.skipped), receivedMs);
      },
      reset: () => {
        decoder.reset();
        splitter = new LineSplitter();
      },
    };
    return reader;
  }

  /** Reports decoded from lines received at `receivedMs` (here, or in the decoding thread). */
  reports(reports: readonly (AisPositionReport | AisStaticReport)[], receivedMs: number): void {
    for (const report of reports) {
      if (report.kind === 'position') this.#position(report, receivedMs);
      else this.#static(report, receivedMs);
    }
    this.#sweep(receivedMs);
    if (this.#queue.length >= this.#batchSize && !this.#flushPending) {
      this.#flushPending = true;
      void this.flush().finally(() => (this.#flushPending = false));
    }
  }

  /**
   * Whether svc keeps this MMSI's positions: yes if its newest static report names a vessel svc
   * knows, no if it names another; without a report, yes if the reference data gives the MMSI,
   * else not known yet (undefined).
   */
  #tracked(mmsi: number): boolean | undefined {
    const imo = this.#imoOf(mmsi);
    return imo === undefined ? undefined : this.#imos.has(imo);
  }

  /** The IMO number the MMSI's newest static report names, else the reference data's. */
  #imoOf(mmsi: number): string | undefined {
    return this.#imoOfMmsi.get(mmsi) ?? this.#referenceImoOfMmsi.get(mmsi);
  }

  #position(report: AisPositionReport, receivedMs: number): void {
    this.counters.positionReports++;
    const { mmsi } = report;
    const atMs = this.#useReportSecond ? reportTime(receivedMs, report.second) : receivedMs;
    const tracked = this.#tracked(mmsi);
    if (tracked === false) return;
    const position: VesselPosition = {
      mmsi,
      at: new Date(atMs),
      latitude: report.latitude,
      longitude: report.longitude,
      speedKnots: report.speedKnots,
      courseDegrees: report.courseDegrees,
      headingDegrees: report.headingDegrees,
    };
    if (tracked) this.#enqueue(position);
    else setBounded(this.#held, mmsi, position, MAX_HELD);
  }

  #enqueue(position: VesselPosition): void {
    // Judged before downsampling, so a rejected report cannot stand in for a good one; judged per
    // IMO and MMSI together, so an MMSI that passes to another ship starts a track of its own.
    const verdict = this.#gate.judge(`${this.#imoOf(position.mmsi)}|${position.mmsi}`, { lon: position.longitude, lat: position.latitude, atMs: position.at.getTime() });
    if (verdict !== 'accepted') {
      this.counters.positionsRejected[verdict]++;
      return;
    }
    if (!this.#sampler.keep(position.mmsi, position.at.getTime(), position.speedKnots, position.courseDegrees)) return;
    this.#queue.push(position);
    if (this.#queue.length > this.#maxQueued) {
      const excess = this.#queue.length - this.#maxQueued;
      this.#queue.splice(0, excess);
      this.counters.positionsDropped += excess;
    }
  }

  /** Now and then: drops held positions older than holdMs, and forgets vessels not heard for a day. */
  #sweep(nowMs: number): void {
    if (nowMs - this.#sweptMs < this.#holdMs / 4) return;
    this.#sweptMs = nowMs;
    for (const [mmsi, held] of this.#held) if (nowMs - held.at.getTime() > this.#holdMs) this.#held.delete(mmsi);
    this.#sampler.forgetBefore(nowMs - DAY);
    this.#gate.forgetBefore(nowMs - DAY);
  }

  #static(report: AisStaticReport, receivedMs: number): void {
    this.counters.staticReports++;
    const { mmsi } = report;
    if (report.imo !== null) setBounded(this.#imoOfMmsi, mmsi, report.imo, MAX_MMSIS);
    const tracked = this.#tracked(mmsi);
    const held = this.#held.get(mmsi);
    if (held) {
      this.#held.delete(mmsi);
      if (tracked && receivedMs - held.at.getTime() <= this.#holdMs) this.#enqueue(held);
    }
    if (!tracked) return;
    const { imo, name, callSign, shipType, destination } = report;
    const identity: AisIdentity = { mmsi, imo, name, callSign, shipType, destination, at: new Date(receivedMs) };
    const key = identityKey(identity);
    const written = this.#written.get(mmsi);
    if (written && written.key === key && receivedMs - written.atMs < IDENTITY_REFRESH_MS) return;
    this.#written.set(mmsi, { key, atMs: receivedMs });
    this.#identities.set(mmsi, identity);
  }

  /** Positions held for a static report of their MMSI. */
  get held(): number {
    return this.#held.size;
  }

  /** Positions waiting to be written. */
  get queued(): number {
    return this.#queue.length;
  }

  /** Writes what waits (static reports first, so readers find the MMSI of each new position). Never rejects. */
  flush(): Promise<void> {
    this.#writing = this.#writing.then(() => this.#write());
    return this.#writing;
  }

  async #write(): Promise<void> {
    const { db, log } = this.options;
    const identities = [...this.#identities.values()];
    this.#identities.clear();
    try {
      await upsertAisIdentities(db, identities);
    } catch (err) {
      // Tried again with the next flush, unless a newer report came meanwhile.
      for (const identity of identities) if (!this.#identities.has(identity.mmsi)) this.#identities.set(identity.mmsi, identity);
      log?.('AIS static reports could not be stored; will retry', { err: String(err) });
      return;
    }
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, MAX_INSERT);
      try {
        this.counters.positionsStored += await insertVesselPositions(db, batch);
      } catch (err) {
        // Back to the front, to be tried with the next flush (bounded by maxQueued).
        this.#queue = batch.concat(this.#queue);
        log?.('AIS positions could not be stored; will retry', { err: String(err), waiting: this.#queue.length });
        return;
      }
    }
  }
}
