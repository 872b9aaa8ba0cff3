// The schema of a container's situation (situation.ts): the REST attribute's OpenAPI schema and
// the MCP tools' output schema are this one.
import { z } from 'zod';
import { AVAILABILITIES, PLACE_ROLES, SITUATION_KINDS, WAITING_FOR } from './situation.ts';

const instant = z.string().nullable();
const timezone = z.string().nullable().describe('IANA time zone of the place, e.g. America/Chicago');

const place = z
  .object({
    role: z.enum(PLACE_ROLES),
    locode: z.string().nullable().describe('UN/LOCODE'),
    name: z.string().nullable(),
    timezone,
    terminal_code: z.string().nullable().describe('FIRMS or SMDG code of the terminal or inland ramp, when known'),
  })
  .describe('A place of the journey');

const hold = z.object({ name: z.string(), status: z.enum(['hold', 'pending']), description: z.string().nullable() });
const fee = z.object({ type: z.string(), amount: z.number(), currency_code: z.string() });

export const situationSchema = z
  .object({
    kind: z
      .enum(SITUATION_KINDS)
      .describe('Where the container is now. A box in a canal is on_vessel: svc has no canal event or position for a container'),
    place: place.nullable().describe('Where it is; null on a vessel at sea, on a train, or at the shipper (at_origin, awaiting_empty_out)'),
    vessel: z.object({ name: z.string().nullable(), imo: z.string().nullable(), voyage_number: z.string().nullable() }).nullable().describe('The vessel it is on (on_vessel)'),
    next_place: place.nullable().describe("Where the move it is on ends: the vessel's next port, the train's inland ramp"),
    since: instant.describe('When it got into this situation'),
    waiting_for: z.enum(WAITING_FOR).nullable().describe('What happens next; null once the empty is returned'),
    pickup: z
      .object({
        place: place.describe('Where it is picked up: the inland ramp for a rail move, else the port terminal'),
        availability: z.enum(AVAILABILITIES).describe('As the terminal or ramp at that place reports it; unknown until it does'),
        holds: z.array(hold).describe('Holds the terminal or ramp at that place reports'),
        fees: z.array(fee).describe('Fees due at that place'),
        last_free_day: z
          .object({
            date: z.string().describe('Calendar day at the place, YYYY-MM-DD'),
            timezone,
            source: z.enum(['terminal', 'rail']).describe('rail: import_deadlines.pickup_lfd_rail; terminal: import_deadlines.pickup_lfd_terminal'),
          })
          .nullable(),
        appointment_at: instant,
      })
      .nullable()
      .describe('Null once picked up'),
  })
  .describe("The container's situation now, the one every face of svc shows");
