// Terminal data is not part of DCSA Track & Trace. svc reads it from a small JSON contract of
// its own, which the sandbox carrier network (src/sandbox/) serves and any adapter in
// front of a real terminal system can serve too:
//
//   GET {terminalBaseUrl}/containers/{containerNumber}      (no API key: a separate service)
//   200 {
//     "containerNumber": "APZU4812090",
//     "terminalCode": "ADT" | null,                  FIRMS or SMDG code
//     "availableForPickup": true | false | null,
//     "holds": [{ "name": "customs", "status": "hold" | "pending", "description": "…" | null }],
//     "fees": [{ "type": "demurrage", "amount": 120.5, "currency_code": "USD" }],
//     "lastFreeDay": "2026-02-03" | null,            calendar date at the terminal
//     "pickupAppointmentAt": "2026-02-02T08:00:00Z" | null,
//     "observedAt": "2026-02-01T10:15:00Z"           when the terminal reported this
//   }
//   404: the terminal knows nothing about the container.
//
// Instants are ISO 8601 with an offset. It is exactly TerminalStatus (types.ts) with instants
// as strings.
import { z } from 'zod';
import type { TerminalStatus } from '../../domain/tracking/carrier-events.ts';
import { UnrecognizedResponseError } from './errors.ts';
import { exchange, jsonBody, type HttpAnswer, type HttpSettings } from './http.ts';
import { dateTime } from './wire-common.ts';

const instant = dateTime.transform((d) => d.at);

const terminalStatus = z.object({
  containerNumber: z.string().trim().min(1),
  terminalCode: z.string().nullable(),
  availableForPickup: z.boolean().nullable(),
  holds: z.array(z.object({ name: z.string().min(1), status: z.enum(['hold', 'pending']), description: z.string().nullable() })),
  fees: z.array(z.object({ type: z.string().min(1), amount: z.number().finite(), currency_code: z.string().length(3) })),
  lastFreeDay: z.iso.date().nullable(),
  pickupAppointmentAt: instant.nullable(),
  observedAt: instant,
}) satisfies z.ZodType<TerminalStatus>;

/** The terminal's answer about one container, as it came (read it with readTerminalStatus). */
export function fetchTerminalAnswer(http: HttpSettings, baseUrl: string, containerNumber: string): Promise<HttpAnswer> {
  const url = new URL(baseUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/containers/${encodeURIComponent(containerNumber)}`;
  return exchange(http, url, { method: 'GET', headers: { accept: 'application/json' } });
}

/** The status of one container in the terminal's answer about it, or null when it has none (404); throws on an answer that is not the contract's. */
export function readTerminalStatus(answer: HttpAnswer, containerNumber: string): TerminalStatus | null {
  if (answer.status === 404) return null;
  const parsed = terminalStatus.safeParse(jsonBody(answer));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UnrecognizedResponseError(`terminal status of ${containerNumber}: ${issue.path.join('.')}: ${issue.message}`);
  }
  if (parsed.data.containerNumber !== containerNumber) {
    throw new UnrecognizedResponseError(`asked the terminal about ${containerNumber}, it answered about ${parsed.data.containerNumber}`);
  }
  return parsed.data;
}
