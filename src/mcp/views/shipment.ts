// A shipment as an assistant reads it: the bill of lading, the carrier, the route with estimated
// and actual times, the vessel, and its containers.
import { z } from 'zod';
import { dataFreshnessSchema, toDataFreshness } from './freshness.ts';
import { bool, instant, num, rec, recs, str, strs, type Rec } from './read.ts';

export const placeSchema = z.object({ locode: z.string().nullable(), name: z.string().nullable(), timezone: z.string().nullable() });

export const routingSchema = z.object({
  portOfLoading: placeSchema.describe('POL'),
  portOfDischarge: placeSchema.describe('POD'),
  destination: placeSchema.nullable().describe('Inland destination past the POD, if any'),
  podTerminal: z.string().nullable().describe('Terminal at the POD, when known'),
  polEtdAt: z.string().nullable().describe('Estimated departure from the POL'),
  polAtdAt: z.string().nullable().describe('Actual departure from the POL'),
  podEtaAt: z.string().nullable().describe('Current estimated arrival at the POD'),
  podOriginalEtaAt: z.string().nullable().describe("The carrier's first ETA at the POD"),
  podAtaAt: z.string().nullable().describe('Actual arrival at the POD'),
  podEtaShiftHours: z.number().nullable().describe('Current ETA minus the original ETA, in hours (positive: later than first announced)'),
  destinationEtaAt: z.string().nullable(),
  destinationAtaAt: z.string().nullable(),
  vessel: z.object({ name: z.string().nullable(), imo: z.string().nullable(), voyageNumber: z.string().nullable() }).describe('The vessel arriving at the POD'),
});

export const shipmentContainerSchema = z.object({
  id: z.string(),
  number: z.string().nullable(),
  status: z.string().nullable(),
  availableForPickup: z.boolean().nullable(),
  pickupLfd: z.string().nullable(),
  activeHolds: z.number().int().describe('Holds with status "hold"'),
  podDischargedAt: z.string().nullable(),
});

export const shipmentSchema = z.object({
  id: z.string(),
  billOfLading: z.string().nullable(),
  bookingNumber: z.string().nullable(),
  refNumbers: z.array(z.string()),
  tags: z.array(z.string()),
  shippingLine: z.object({ scac: z.string().nullable(), name: z.string().nullable() }),
  customerName: z.string().nullable(),
  routing: routingSchema,
  tracking: z.object({
    lastCheckedAt: z.string().nullable().describe('Last successful lookup at the carrier'),
    stoppedAt: z.string().nullable(),
    stoppedReason: z.string().nullable(),
  }),
  dataFreshness: dataFreshnessSchema.describe("How fresh the data is, per source (times in UTC); terminal and AIS: the latest of the shipment's containers"),
  updatedAt: z.string().nullable(),
  containers: z.array(shipmentContainerSchema).optional().describe('Present when include_containers is true'),
});
export type ShipmentView = z.input<typeof shipmentSchema>;

export const shipmentListItemSchema = z.object({
  id: z.string(),
  billOfLading: z.string().nullable(),
  shippingLineScac: z.string().nullable(),
  portOfLoading: z.string().nullable().describe('LOCODE'),
  portOfDischarge: z.string().nullable().describe('LOCODE'),
  destination: z.string().nullable().describe('LOCODE of an inland destination'),
  vesselName: z.string().nullable(),
  polAtdAt: z.string().nullable(),
  podEtaAt: z.string().nullable(),
  podAtaAt: z.string().nullable(),
  trackingStopped: z.boolean(),
  containerCount: z.number().int().nullable(),
  containers: z.array(z.object({ id: z.string(), number: z.string().nullable(), status: z.string().nullable() })).optional(),
  updatedAt: z.string().nullable(),
});

// The member names are given whole, not made from a prefix: a name built per call is looked up
// by hashing it afresh, six times per routing.
const place = (locode: unknown, name: unknown, timezone: unknown, related: unknown) => {
  const r = rec(related);
  return { locode: str(locode) ?? str(r?.code), name: str(name) ?? str(r?.name), timezone: str(timezone) ?? str(r?.time_zone) };
};

function shiftHours(eta: string | null, original: string | null): number | null {
  if (!eta || !original) return null;
  const ms = Date.parse(eta) - Date.parse(original);
  return Number.isFinite(ms) ? Math.round(ms / 360_000) / 10 : null;
}

/** Holds still in force, not those merely expected. */
export const activeHolds = (container: Rec) => recs(container.holds_at_pod_terminal).filter((h) => h.status === 'hold');

export function toRouting(s: Rec): z.input<typeof routingSchema> {
  const destination = place(s.destination_locode, s.destination_name, s.destination_timezone, s.destination);
  const eta = instant(s.pod_eta_at);
  const original = instant(s.pod_original_eta_at);
  return {
    portOfLoading: place(s.port_of_lading_locode, s.port_of_lading_name, s.pol_timezone, s.port_of_lading),
    portOfDischarge: place(s.port_of_discharge_locode, s.port_of_discharge_name, s.pod_timezone, s.port_of_discharge),
    destination: destination.locode || destination.name ? destination : null,
    podTerminal: str(rec(s.pod_terminal)?.name),
    polEtdAt: instant(s.pol_etd_at),
    polAtdAt: instant(s.pol_atd_at),
    podEtaAt: eta,
    podOriginalEtaAt: original,
    podAtaAt: instant(s.pod_ata_at),
    podEtaShiftHours: shiftHours(eta, original),
    destinationEtaAt: instant(s.destination_eta_at),
    destinationAtaAt: instant(s.destination_ata_at),
    vessel: { name: str(s.pod_vessel_name), imo: str(s.pod_vessel_imo), voyageNumber: str(s.pod_voyage_number) },
  };
}

export function toShipmentContainer(c: Rec): z.input<typeof shipmentContainerSchema> {
  return {
    id: String(c.id),
    number: str(c.number),
    status: str(c.current_status),
    availableForPickup: bool(c.available_for_pickup),
    pickupLfd: instant(c.pickup_lfd),
    activeHolds: activeHolds(c).length,
    podDischargedAt: instant(c.pod_discharged_at),
  };
}

export function toShipmentView(s: Rec, withContainers: boolean): ShipmentView {
  return {
    id: String(s.id),
    billOfLading: str(s.bill_of_lading_number),
    bookingNumber: str(s.booking_number),
    refNumbers: strs(s.ref_numbers),
    tags: strs(s.tags),
    shippingLine: { scac: str(s.shipping_line_scac), name: str(s.shipping_line_name) },
    customerName: str(s.customer_name),
    routing: toRouting(s),
    tracking: { lastCheckedAt: instant(s.line_tracking_last_succeeded_at), stoppedAt: instant(s.line_tracking_stopped_at), stoppedReason: str(s.line_tracking_stopped_reason) },
    dataFreshness: toDataFreshness(s),
    updatedAt: instant(s.updated_at),
    ...(withContainers ? { containers: recs(s.containers).map(toShipmentContainer) } : {}),
  };
}

export function toShipmentListItem(s: Rec, withContainers: boolean): z.input<typeof shipmentListItemSchema> {
  const containers = Array.isArray(s.containers) ? recs(s.containers) : null;
  return {
    id: String(s.id),
    billOfLading: str(s.bill_of_lading_number),
    shippingLineScac: str(s.shipping_line_scac),
    portOfLoading: str(s.port_of_lading_locode),
    portOfDischarge: str(s.port_of_discharge_locode),
    destination: str(s.destination_locode),
    vesselName: str(s.pod_vessel_name),
    polAtdAt: instant(s.pol_atd_at),
    podEtaAt: instant(s.pod_eta_at),
    podAtaAt: instant(s.pod_ata_at),
    trackingStopped: instant(s.line_tracking_stopped_at) !== null,
    containerCount: containers ? containers.length : num(s.containers_count),
    ...(withContainers && containers ? { containers: containers.map((c) => ({ id: String(c.id), number: str(c.number), status: str(c.current_status) })) } : {}),
    updatedAt: instant(s.updated_at),
  };
}
