// An event that failed its wire schema, as a RejectedCarrierEvent: a reason kind to count it
// under, the member at fault, and what of it could still be read (for raw_events).
import type { z } from 'zod';
import type { RejectedCarrierEvent, RejectionKind } from '../../domain/tracking/carrier-events.ts';
import { parseDcsaDateTime } from './datetime.ts';

/** The message a missing member's issue carries (parseEvent's error map). */
export const MISSING = 'missing';

/** The few words a rejection is counted under, from the first problem found. */
export function kindOf(issue: z.core.$ZodIssue): RejectionKind {
  const member = issue.path.at(-1);
  if (issue.code === 'invalid_union' && (member === 'eventType' || member === 'eventTypeCode')) return 'unknown_event_type';
  if (issue.message === MISSING) return 'missing_member';
  if (issue.code === 'custom' && String(member).endsWith('DateTime')) return 'bad_date_time';
  return 'bad_value';
}

export function rejection(raw: unknown, kind: RejectionKind, field: string | null, reason: string): RejectedCarrierEvent {
  const event = record(raw);
  // 2.2 keeps type, code and classifier at the root; 3.0 under eventClassification.
  const classification = record(event.eventClassification);
  return {
    kind,
    field,
    reason,
    eventId: eventIdOf(raw),
    equipmentReference: textOf(event.equipmentReference) ?? textOf(record(event.equipmentDetails).equipmentReference),
    type: textOf(event.eventType) ?? textOf(classification.eventTypeCode),
    code: firstText(
      [event, classification].flatMap((holder) => [holder.transportEventTypeCode, holder.equipmentEventTypeCode, holder.shipmentEventTypeCode]),
    ),
    classifier: textOf(event.eventClassifierCode) ?? textOf(classification.eventClassifierCode),
    occurredAt: dateOf(event.eventDateTime),
    publishedAt: dateOf(event.eventCreatedDateTime) ?? dateOf(event.eventUpdatedDateTime),
    raw,
  };
}

export function eventIdOf(value: unknown): string | null {
  return textOf(record(value).eventID);
}

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

const textOf = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value.trim() : null);

const firstText = (values: unknown[]): string | null => values.map(textOf).find((v) => v !== null) ?? null;

const dateOf = (value: unknown): Date | null => (typeof value === 'string' ? (parseDcsaDateTime(value)?.at ?? null) : null);
