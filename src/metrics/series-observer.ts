// A cheaper observe for a histogram that sees few label sets on a hot path (every HTTP response).
// prom-client's observe checks the labels, builds their hash string and searches the bucket
// bound on every call (about 1.5 µs); here each label set is resolved once to the per-series
// record prom-client keeps, and later observations add to that record directly, so /metrics
// reads exactly what prom-client's own observe would have left. prom-client is pinned
// (package.json); series-observer.test.ts compares both ways after observations, a reset and a
// removed series, so an upgrade that moves these internals fails there first.
import type { Histogram } from 'prom-client';

/** What prom-client keeps per series (lib/histogram.js, createBaseValues). */
interface SeriesRecord {
  labels: object;
  bucketValues: Record<string, number>;
  sum: number;
  count: number;
}

interface HistogramInternals {
  hashMap: Record<string, SeriesRecord>;
  upperBounds: number[];
}

interface Series {
  labels: Record<string, string | number>;
  record?: SeriesRecord;
  /** The record's key in the map it was found in. */
  hash?: string;
}

/**
 * `observe(values, value)`: histogram.observe(labels, value) with the labels given as their values,
 * in `labelNames` order (every label of the histogram, most varied first). Series are found
 * through one map per label, so a hot call builds no key string and no labels object.
 */
export function seriesObserver<L extends string>(histogram: Histogram<L>, labelNames: readonly L[]) {
  const internals = histogram as unknown as HistogramInternals;
  const bounds = internals.upperBounds;
  const boundKeys = bounds.map(String);
  // The labels object of a series keeps the histogram's own label order, which the exposition follows.
  const declared = (histogram as unknown as { labelNames: L[] }).labelNames;
  const root = new Map<string | number, unknown>();

  function seriesOf(values: readonly (string | number)[]): Series {
    let node = root;
    for (let i = 0; i < values.length - 1; i++) {
      let next = node.get(values[i]) as Map<string | number, unknown> | undefined;
      if (!next) node.set(values[i], (next = new Map()));
      node = next;
    }
    const last = values[values.length - 1];
    let series = node.get(last) as Series | undefined;
    if (!series) node.set(last, (series = { labels: Object.fromEntries(declared.map((name) => [name, values[labelNames.indexOf(name)]])) }));
    return series;
  }

  // The record may have been made by another observe of the same series, with labels of its own.
  const sameLabels = (a: Record<string, unknown>, b: Record<string, unknown>) => declared.every((name) => String(a[name]) === String(b[name]));

  return function observe(values: readonly (string | number)[], value: number): void {
    const series = seriesOf(values);
    const record = series.record;
    // A reset, a removed series or a series never observed yet: prom-client's own path, which
    // makes the record (or throws on a bad value), then remember where it is.
    if (record === undefined || internals.hashMap[series.hash!] !== record || !Number.isFinite(value)) {
      histogram.observe(series.labels as Partial<Record<L, string | number>>, value);
      for (const hash in internals.hashMap) {
        if (sameLabels(internals.hashMap[hash].labels as Record<string, unknown>, series.labels)) {
          series.record = internals.hashMap[hash];
          series.hash = hash;
          break;
        }
      }
      return;
    }
    record.sum += value;
    record.count += 1;
    // As prom-client: the first bound at or above the value; above every bound only the count (+Inf) grows.
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]) {
        record.bucketValues[boundKeys[i]] += 1;
        return;
      }
    }
  };
}
