// A shipment's or a container's data-quality summary, from the counts stored beside it.
import type { RejectedEventCounts } from '../../store/rejected-events.ts';

export function dataQuality(counts: RejectedEventCounts | null | undefined) {
  const rejected = Object.entries(counts ?? {}).flatMap(([data_source, kinds]) => Object.entries(kinds).map(([reason, count]) => ({ data_source, reason, count })));
  // In one order whatever the stored object's: sources, then reasons, alphabetically.
  rejected.sort((a, b) => a.data_source.localeCompare(b.data_source) || a.reason.localeCompare(b.reason));
  return { rejected_events: rejected };
}
