// Reads a Prometheus text exposition with prom2javascript (an independent parser, not svc's code).
import { getMetricsFromIterator } from 'prom2javascript';

export type Exposition = Awaited<ReturnType<typeof getMetricsFromIterator>>;

/**
 * The format allows NaN samples (prom-client writes one for the event-loop lag before its
 * first measurement, and Prometheus reads it), but prom2javascript cannot read them: they are
 * left out, which tests that look for a family by name tolerate.
 */
export function parseExposition(text: string): Promise<Exposition> {
  const lines = text.split('\n').filter((line) => !/^\w+(\{.*\})?\s+NaN(\s|$)/i.test(line));
  return getMetricsFromIterator(lines[Symbol.iterator]());
}
