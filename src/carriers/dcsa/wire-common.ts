// Building blocks shared by the 2.2 and 3.0 wire schemas. The policy: strict about the members
// the normaliser relies on (id, type, classifier, the two date-times, the type-specific code),
// lenient about everything else. Carriers fill optional members unevenly (null, "", wrong
// types), and one odd seal or vessel name must not cost us the whole shipment.
import { z } from 'zod';
import { parseDcsaDateTime } from './datetime.ts';
import { UnrecognizedResponseError } from './errors.ts';

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

/** Parses one event or throws an UnrecognizedResponseError naming the event and the members at fault. */
export function parseEvent<T extends z.ZodType>(schema: T, value: unknown, index: number): z.output<T> {
  const result = schema.safeParse(value, { error: (issue) => (issue.input === undefined ? 'missing' : undefined) });
  if (result.success) return result.data;
  const id = typeof value === 'object' && value !== null && 'eventID' in value ? value.eventID : undefined;
  const which = typeof id === 'string' && id ? `event ${index} (${id})` : `event ${index}`;
  const problems = result.error.issues
    .slice(0, 3)
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message));
  throw new UnrecognizedResponseError(`${which}: ${problems.join('; ')}`);
}

/**
 * A rail call's railroad. DCSA names no operator for trains; this reads it where a vessel's
 * operator would be, in the rail transport object DCSA 3.0 gives rail calls (the sandbox sends it so).
 */
export const railTransport = z.object({ operatorCarrierCode: text });
