// A container as an assistant reads it: status and where it is, its equipment, what stands
// between it and a pickup (availability, holds, fees, last free day) and its shipment.
import { z } from 'zod';
import type { ContainerSituation } from '../../domain/tracking/situation.ts';
import { situationSchema } from '../../domain/tracking/situation-schema.ts';
import { lastFreeDayText, situationText } from '../../domain/tracking/situation-text.ts';
import { bool, instant, num, rec, recs, str, type Rec } from './read.ts';
import { dataFreshnessSchema, toDataFreshness } from './freshness.ts';
import { activeHolds, routingSchema, toRouting } from './shipment.ts';
import { timelineEntrySchema, type TimelineEntry } from './timeline.ts';

const holdSchema = z.object({ name: z.string().nullable(), status: z.string().nullable().describe('hold (active) or pending (expected)'), description: z.string().nullable() });
const feeSchema = z.object({ type: z.string().nullable(), amount: z.number().nullable(), currencyCode: z.string().nullable() });

export const terminalSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  nickname: z.string().nullable(),
  firmsCode: z.string().nullable(),
  smdgCode: z.string().nullable(),
  city: z.string().nullable(),
  stateAbbr: z.string().nullable(),
  country: z.string().nullable(),
});

export const containerDetailsShape = {
  id: z.string(),
  number: z.string().nullable(),
  numberCheckDigitPassed: z.boolean().nullable().describe("Whether the number's ISO 6346 check digit holds (data_quality.number_check_digit_passed); when false the number is the carrier's, not verified"),
  status: z.string().nullable().describe('current_status (see svc://docs/milestone-glossary)'),
  refNumbers: z.array(z.string()),
  equipment: z.object({ type: z.string().nullable(), length: z.number().nullable(), height: z.string().nullable(), weightLbs: z.number().nullable(), sealNumber: z.string().nullable() }),
  situation: situationSchema.nullable().describe('Where the container is now, what it waits for, and its pickup (availability, holds, fees, last free day as a local date with its zone) at the place it is picked up'),
  location: z.object({
    currentLocation: z.string().nullable().describe('Where the container is, in words (situation in words)'),
    availableForPickup: z.boolean().nullable().describe('Meaningful when availabilityKnown is true'),
    availabilityKnown: z.boolean().nullable(),
    locationAtPodTerminal: z.string().nullable(),
    podArrivedAt: z.string().nullable(),
    podDischargedAt: z.string().nullable(),
    podFullOutAt: z.string().nullable(),
    emptyReturnedAt: z.string().nullable(),
    podTimezone: z.string().nullable(),
  }),
  demurrage: z.object({
    pickupLfd: z.string().nullable().describe('Last free day where it is picked up, as the UTC instant it begins there'),
    lastFreeDay: z.string().nullable().describe('The last free day as a local date with its zone and place, e.g. "2026-03-20 (America/Chicago, inland ramp)"'),
    lfdSources: z.object({ line: z.string().nullable(), terminal: z.string().nullable(), rail: z.string().nullable() }),
    holds: z.array(holdSchema).describe('Empty: no holds'),
    fees: z.array(feeSchema),
    pickupAppointmentAt: z.string().nullable(),
    readyForPickup: z.boolean().describe('Available for pickup at the place of pickup and no active hold'),
    terminalCheckedAt: z.string().nullable(),
  }),
  shipment: z
    .object({
      id: z.string().nullable(),
      billOfLading: z.string().nullable(),
      shippingLineScac: z.string().nullable(),
      shippingLineName: z.string().nullable(),
      routing: routingSchema.optional().describe('With include "shipment"'),
    })
    .nullable(),
  podTerminal: terminalSchema.nullable().optional().describe('With include "pod_terminal"'),
  transportEvents: z.array(timelineEntrySchema).optional().describe('With include "transport_events", oldest first'),
  dataFreshness: dataFreshnessSchema,
  updatedAt: z.string().nullable(),
};
const containerDetailsSchema = z.object(containerDetailsShape);
export type ContainerDetails = z.input<typeof containerDetailsSchema>;

export function toTerminal(t: Rec): z.input<typeof terminalSchema> {
  return {
    id: String(t.id),
    name: str(t.name),
    nickname: str(t.nickname),
    firmsCode: str(t.firms_code),
    smdgCode: str(t.smdg_code),
    city: str(t.city),
    stateAbbr: str(t.state_abbr),
    country: str(t.country) ?? str(t.country_code),
  };
}

/** The situation REST serves (one rule for every face); null from a server that does not give it. */
export function situationOf(c: Rec): ContainerSituation | null {
  const parsed = situationSchema.safeParse(c.situation);
  return parsed.success ? (parsed.data as ContainerSituation) : null;
}

export interface DetailsOptions {
  withRouting: boolean;
  withTerminal: boolean;
  timeline?: TimelineEntry[];
}

export function toContainerDetails(c: Rec, options: DetailsOptions): ContainerDetails {
  const shipment = rec(c.shipment);
  const deadlines = rec(c.import_deadlines);
  const available = bool(c.available_for_pickup);
  const holds = recs(c.holds_at_pod_terminal);
  const terminal = rec(c.pod_terminal);
  const situation = situationOf(c);
  return {
    id: String(c.id),
    number: str(c.number),
    numberCheckDigitPassed: bool(rec(c.data_quality)?.number_check_digit_passed),
    status: str(c.current_status),
    refNumbers: Array.isArray(c.ref_numbers) ? c.ref_numbers.map(String) : [],
    equipment: { type: str(c.equipment_type), length: num(c.equipment_length), height: str(c.equipment_height), weightLbs: num(c.weight_in_lbs), sealNumber: str(c.seal_number) },
    situation,
    location: {
      currentLocation: situation ? situationText(situation) : null,
      availableForPickup: available,
      availabilityKnown: bool(c.availability_known),
      locationAtPodTerminal: str(c.location_at_pod_terminal),
      podArrivedAt: instant(c.pod_arrived_at),
      podDischargedAt: instant(c.pod_discharged_at),
      podFullOutAt: instant(c.pod_full_out_at),
      emptyReturnedAt: instant(c.empty_terminated_at),
      podTimezone: str(c.pod_timezone),
    },
    demurrage: {
      pickupLfd: instant(c.pickup_lfd),
      lastFreeDay: lastFreeDayText(situation?.pickup?.last_free_day ?? null),
      lfdSources: { line: instant(deadlines?.pickup_lfd_line), terminal: instant(deadlines?.pickup_lfd_terminal), rail: instant(deadlines?.pickup_lfd_rail) },
      holds: holds.map((h) => ({ name: str(h.name), status: str(h.status), description: str(h.description) })),
      fees: recs(c.fees_at_pod_terminal).map((f) => ({ type: str(f.type), amount: num(f.amount), currencyCode: str(f.currency_code) })),
      pickupAppointmentAt: instant(c.pickup_appointment_at),
      readyForPickup: situation?.pickup?.availability === 'available' && situation.pickup.holds.every((h) => h.status !== 'hold'),
      terminalCheckedAt: instant(c.terminal_checked_at),
    },
    shipment: shipment
      ? {
          id: str(shipment.id),
          billOfLading: str(shipment.bill_of_lading_number),
          shippingLineScac: str(shipment.shipping_line_scac),
          shippingLineName: str(shipment.shipping_line_name),
          ...(options.withRouting ? { routing: toRouting(shipment) } : {}),
        }
      : null,
    ...(options.withTerminal ? { podTerminal: terminal && 'name' in terminal ? toTerminal(terminal) : null } : {}),
    ...(options.timeline ? { transportEvents: options.timeline } : {}),
    dataFreshness: toDataFreshness(c),
    updatedAt: instant(c.updated_at),
  };
}

/** One container in search results (the spec's fields, plus what leads on to the next call). */
export const containerHitSchema = z.object({
  id: z.string(),
  containerNumber: z.string().nullable(),
  status: z.string().nullable(),
  shippingLine: z.string().nullable().describe('SCAC'),
  podTerminal: z.string().nullable().describe('Terminal name at the port of discharge'),
  destination: z.string().nullable().describe('Inland destination, else the port of discharge'),
  shipmentId: z.string().nullable(),
  billOfLading: z.string().nullable(),
});

export function toContainerHit(c: Rec): z.input<typeof containerHitSchema> {
  const shipment = rec(c.shipment);
  return {
    id: String(c.id),
    containerNumber: str(c.number),
    status: str(c.current_status),
    shippingLine: str(shipment?.shipping_line_scac),
    podTerminal: str(rec(c.pod_terminal)?.name) ?? null,
    destination: str(shipment?.destination_name) ?? str(shipment?.port_of_discharge_name) ?? null,
    shipmentId: str(shipment?.id),
    billOfLading: str(shipment?.bill_of_lading_number),
  };
}

/** One container in list_containers. */
export const containerListItemSchema = z.object({
  id: z.string(),
  number: z.string().nullable(),
  status: z.string().nullable(),
  shipmentId: z.string().nullable(),
  billOfLading: z.string().nullable(),
  shippingLineScac: z.string().nullable(),
  portOfDischarge: z.string().nullable().describe('LOCODE'),
  podTerminal: z.string().nullable().describe('With include pod_terminal'),
  podEtaAt: z.string().nullable(),
  podArrivedAt: z.string().nullable(),
  podDischargedAt: z.string().nullable(),
  availableForPickup: z.boolean().nullable(),
  pickupLfd: z.string().nullable(),
  activeHolds: z.array(z.string()).describe('Names of holds in force'),
  latestEvent: timelineEntrySchema.nullable().optional().describe('With include transport_events: the most recent milestone'),
  updatedAt: z.string().nullable(),
});

export function toContainerListItem(c: Rec, latestEvent?: TimelineEntry | null): z.input<typeof containerListItemSchema> {
  const shipment = rec(c.shipment);
  return {
    id: String(c.id),
    number: str(c.number),
    status: str(c.current_status),
    shipmentId: str(shipment?.id),
    billOfLading: str(shipment?.bill_of_lading_number),
    shippingLineScac: str(shipment?.shipping_line_scac),
    portOfDischarge: str(shipment?.port_of_discharge_locode),
    podTerminal: str(rec(c.pod_terminal)?.name),
    podEtaAt: instant(shipment?.pod_eta_at),
    podArrivedAt: instant(c.pod_arrived_at),
    podDischargedAt: instant(c.pod_discharged_at),
    availableForPickup: bool(c.available_for_pickup),
    pickupLfd: instant(c.pickup_lfd),
    activeHolds: activeHolds(c).map((h) => str(h.name) ?? 'other'),
    ...(latestEvent !== undefined ? { latestEvent } : {}),
    updatedAt: instant(c.updated_at),
  };
}
