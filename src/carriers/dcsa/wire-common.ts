// Building blocks shared by the 2.2 and 3.0 wire schemas. The policy: strict about the members
// the normaliser relies on (id, type, classifier, the two date-times, the type-specific code),
// lenient about everything else. Carriers fill optional members unevenly (null, "", wrong
// types), and one odd seal or vessel name must not cost us the whole shipment.
import { z } from 'zod';
import { parseDcsaDateTime } from './datetime.ts';
import type { RejectedCarrierEvent } from '../../domain/tracking/carrier-events.ts';
import { eventIdOf, kindOf, MISSING, rejection } from './rejection.ts';

/** An optional member: a wrong type or null reads as absent instead of failing the event. */
export function lenient<T extends z.ZodType>(schema: T) {
  return schema.optional().catch(undefined);
}

/** An optional list: items that do not parse are dropped, anything but an array reads as []. */
export function lenientList<T extends z.ZodType>(item: T) {
  return z
    .array(z.unknown())
    .catch([])
    .transform((items) =>
      items.flatMap((value): z.output<T>[] => {
        const parsed = item.safeParse(value);
        return parsed.success ? [parsed.data] : [];
      }),
    );
}

/** Optional text; blank strings count as absent. */
export const text = lenient(z.string().trim().min(1));

/** A DCSA code we rely on (ARRI, LOAD, CONF…): any non-blank string, so new codes still pass. */
export const requiredCode = z.string().trim().min(1);

export const classifierCode = z.enum(['ACT', 'EST', 'PLN']);

export const eventId = z.string().trim().min(1);

export const dateTime = z.string().transform((value, ctx) => {
  const parsed = parseDcsaDateTime(value);
  if (parsed) return parsed;
  ctx.issues.push({ code: 'custom', message: `not an ISO 8601 date-time: ${JSON.stringify(value)}`, input: value });
  return z.NEVER;
});

/** One event read: the wire shape, or why it could not be (the rest of the answer is read all the same). */
export type ParsedEvent<T> = { ok: true; event: T } | { ok: false; rejected: RejectedCarrierEvent };

/** Parses one event; a failure names the event and the first members at fault. */
export function parseEvent<T extends z.ZodType>(schema: T, value: unknown, index: number): ParsedEvent<z.output<T>> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, rejected: rejection(value, 'not_an_object', null, `event ${index}: ${value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`}, not an event object`) };
  }
  const result = schema.safeParse(value, { error: (issue) => (issue.input === undefined ? MISSING : undefined) });
  if (result.success) return { ok: true, event: result.data };
  const id = eventIdOf(value);
  const which = id ? `event ${index} (${id})` : `event ${index}`;
  const [first] = result.error.issues;
  const problems = result.error.issues
    .slice(0, 3)
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message));
  const field = first.path.length > 0 ? first.path.join('.') : null;
  return { ok: false, rejected: rejection(value, kindOf(first), field, `${which}: ${problems.join('; ')}`) };
}

/**
 * A rail call's railroad. DCSA names no operator for trains; this reads it where a vessel's
 * operator would be, in the rail transport object DCSA 3.0 gives rail calls (the sandbox sends it so).
 */
export const railTransport = z.object({ operatorCarrierCode: text });
