// svc's codes in words for people at a terminal: times, milestones, statuses, failure reasons.

/** `2026-11-21T17:07:00.000Z` → `2026-11-21 17:07 UTC`; `-` for none. */
export function when(iso: string | null | undefined): string {
  if (!iso) return '-';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** `container.transport.vessel_departed` → `vessel departed`. */
export function milestone(event: string): string {
  return event.replace(/^container\.transport\./, '').replace(/^container\./, '').replaceAll('_', ' ');
}

/** `empty_returned` → `empty returned`. */
export const words = (code: string | null | undefined): string => (code ? code.replaceAll('_', ' ') : '-');

const FAILED_REASONS: Record<string, string> = {
  not_found: 'the shipping line does not know this number',
  invalid_number: 'the shipping line refused the number as invalid',
  booking_cancelled: 'the booking was cancelled',
  expired: 'the shipping line never published a shipment for this number, and svc stopped asking',
  duplicate: 'this number is tracked already',
  data_unavailable: 'the shipping line withholds the data of this number',
  shipping_line_unreachable: 'the shipping line could not be reached',
  retries_exhausted: 'the shipping line could not be reached, and svc stopped retrying',
  unrecognized_response: 'the shipping line answered with something svc cannot read',
  internal_processing_error: 'svc failed while processing the answer',
};

/** Why a tracking request failed, in words (the code itself when it is a new one). */
export function failedReason(reason: string | null | undefined): string {
  return reason ? (FAILED_REASONS[reason] ?? reason.replaceAll('_', ' ')) : 'no reason given';
}

/** `0.98` → `98%`. */
export const percent = (confidence: number): string => `${Math.round(confidence * 100)}%`;

/** The parts of an instant on a zone's clocks; null when Intl does not know the zone. */
function clockParts(iso: string, zone: string): Record<string, string> | null {
  try {
    const format = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short' });
    return Object.fromEntries(format.formatToParts(new Date(iso)).map((p) => [p.type, p.value]));
  } catch {
    return null;
  }
}

/** An instant on the clocks of the place it applies to: `2027-01-07 15:31 EST (America/New_York)`; UTC, said so, without a zone. */
export function localWhen(iso: string | null | undefined, zone: string | null | undefined): string {
  const p = iso && zone ? clockParts(iso, zone) : null;
  return p ? `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute} ${p.timeZoneName} (${zone})` : when(iso);
}
