// What the AIS ingester counts, as plain numbers (read by tests and the benchmark) and as
// Prometheus counters read from them at scrape time.
import { Counter, type Registry } from 'prom-client';
import type { RejectReason } from './plausible-positions.ts';
import type { AisSkipReason } from './decode.ts';

export interface AisCounters {
  /** Lines read from the feeds. */
  sentences: number;
  /** Sentences that gave no report, by reason (fragments of unfinished messages included). */
  skipped: Record<AisSkipReason, number>;
  /** Position reports decoded, and static reports (types 5 and 24). */
  positionReports: number;
  staticReports: number;
  /** Positions written to the database (new rows), and positions lost because the database could not keep up. */
  positionsStored: number;
  positionsDropped: number;
  /** Positions not stored because they are not physically possible after the vessel's last accepted one, by reason. */
  positionsRejected: Record<RejectReason, number>;
  /** Times a feed connection was lost or could not be made and was tried again. */
  reconnects: number;
  /** Feed text dropped unread because decoding was too far behind (bytes). */
  bytesDropped: number;
}

export function newAisCounters(): AisCounters {
  return {
    sentences: 0,
    skipped: { checksum: 0, malformed: 0, fragment: 0, unsupported: 0, unavailable: 0 },
    positionReports: 0,
    staticReports: 0,
    positionsStored: 0,
    positionsDropped: 0,
    positionsRejected: { impossible_speed: 0, two_places: 0 },
    reconnects: 0,
    bytesDropped: 0,
  };
}

/** Counters that report `read()` at each scrape (prom-client counters only go up, as these do). */
function counter(registry: Registry, name: string, help: string, read: () => number) {
  new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      this.reset();
      this.inc(read());
    },
  });
}

export function registerAisMetrics(registry: Registry, counters: AisCounters): void {
  counter(registry, 'svc_ais_sentences_total', 'AIS sentences read from the feeds', () => counters.sentences);
  new Counter({
    name: 'svc_ais_sentences_skipped_total',
    help: 'AIS sentences that gave no report, by reason (checksum, malformed, fragment, unsupported, unavailable)',
    labelNames: ['reason'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [reason, n] of Object.entries(counters.skipped)) this.inc({ reason }, n);
    },
  });
  counter(registry, 'svc_ais_position_reports_total', 'AIS position reports decoded (types 1, 2, 3, 18, 19)', () => counters.positionReports);
  counter(registry, 'svc_ais_static_reports_total', 'AIS static and voyage reports decoded (types 5, 24)', () => counters.staticReports);
  counter(registry, 'svc_ais_positions_stored_total', 'Vessel positions written after matching and downsampling', () => counters.positionsStored);
  counter(registry, 'svc_ais_positions_dropped_total', 'Vessel positions lost because the database could not take them in time', () => counters.positionsDropped);
  new Counter({
    name: 'svc_ais_positions_rejected_total',
    help: 'Vessel positions not stored because they are not physically possible after the last accepted one, by reason (impossible_speed, two_places)',
    labelNames: ['reason'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [reason, n] of Object.entries(counters.positionsRejected)) this.inc({ reason }, n);
    },
  });
  counter(registry, 'svc_ais_bytes_dropped_total', 'AIS feed text dropped unread because decoding could not keep up (bytes)', () => counters.bytesDropped);
  counter(registry, 'svc_ais_reconnects_total', 'AIS feed connections lost or refused and tried again', () => counters.reconnects);
}
