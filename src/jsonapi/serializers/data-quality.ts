// A shipment's or a container's data-quality summary, from the counts stored beside it.
import { containerCheckDigitPassed } from '../../domain/inference/iso6346.ts';
import type { RejectedEventCounts } from '../../store/rejected-events.ts';

export function dataQuality(counts: RejectedEventCounts | null | undefined) {
  const rejected = Object.entries(counts ?? {}).flatMap(([data_source, kinds]) => Object.entries(kinds).map(([reason, count]) => ({ data_source, reason, count })));
  // In one order whatever the stored object's: sources, then reasons, alphabetically.
  rejected.sort((a, b) => a.data_source.localeCompare(b.data_source) || a.reason.localeCompare(b.reason));
  return { rejected_events: rejected };
}

/**
 * A container's summary: the shipment's, and whether its number's ISO 6346 check digit holds. A
 * number that fails is kept as the carrier sent it (it is how the carrier knows the box), so the
 * resource says it is not verified rather than dropping or correcting it.
 */
export function containerDataQuality(number: string, counts: RejectedEventCounts | null | undefined) {
  return { ...dataQuality(counts), number_check_digit_passed: containerCheckDigitPassed(number) };
}
