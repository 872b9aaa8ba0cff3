// JSON:API resources of the tracking engine: shipments, containers and their events.
// Shipment and container attributes come from the diff engine's stored state; every attribute
// the reference service documents is present, null when unknown.
import { LRUCache } from 'lru-cache';
import { stableId } from '../../refdata/ids.ts';
import type { AisEtaShown } from '../../store/ais-arrivals.ts';
import type { ContainerRow, ShipmentRow } from '../../store/shipments.ts';
import type { TransportEventRow } from '../../store/transport-events.ts';
import { iso, toMany, toOne, type Resource } from '../document.ts';

const SHIPMENT_STATE_ATTRIBUTES = [
  'port_of_lading_locode',
  'port_of_lading_name',
  'port_of_discharge_locode',
  'port_of_discharge_name',
  'destination_locode',
  'destination_name',
  'pod_vessel_name',
  'pod_vessel_imo',
  'pod_voyage_number',
  'pol_etd_at',
  'pol_atd_at',
  'pol_original_etd_at',
  'pod_eta_at',
  'pod_original_eta_at',
  'pod_ata_at',
  'destination_eta_at',
  'destination_ata_at',
  'pol_timezone',
  'pod_timezone',
  'destination_timezone',
] as const;

const CONTAINER_STATE_ATTRIBUTES = [
  'seal_number',
  'equipment_type',
  'equipment_length',
  'equipment_height',
  'weight_in_lbs',
  'pickup_lfd',
  'pickup_appointment_at',
  'availability_known',
  'available_for_pickup',
  'empty_out_at',
  'pol_full_in_at',
  'pol_vessel_loaded_at',
  'pol_vessel_departed_at',
  'pod_arrived_at',
  'pod_discharged_at',
  'pod_full_out_at',
  'pod_rail_loaded_at',
  'pod_rail_departed_at',
  'ind_eta_at',
  'ind_ata_at',
  'ind_rail_unloaded_at',
  'pod_rail_carrier_scac',
  'ind_rail_carrier_scac',
  'final_destination_full_out_at',
  'empty_terminated_at',
  'terminal_checked_at',
  'pod_timezone',
  'final_destination_timezone',
  'empty_terminated_timezone',
  'current_status',
] as const;

const UNREPORTED_CONTAINER_ATTRIBUTES = {
  location_at_pod_terminal: null,
  pod_full_out_chassis_number: null,
  ind_facility_lfd_on: null,
  shipment_last_tracking_request_at: null,
} as const;

const ARRAY_ATTRIBUTES = new Set(['holds_at_pod_terminal', 'fees_at_pod_terminal']);

function pick(state: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((k) => [k, state[k] ?? null]));
}

// A name-based id is a SHA-1 of the name: the same ports and vessels recur on every event and
// shipment of a document, and across requests, so each name is hashed once (a bounded cache:
// the world's ports and vessels fit, a flood of made-up codes only evicts).
const stableIds = new LRUCache<string, string>({ max: 50_000 });
function cachedStableId(kind: 'location' | 'vessel', key: string): string {
  const name = `${kind}:${key}`;
  let id = stableIds.get(name);
  if (id === undefined) stableIds.set(name, (id = stableId(kind, key)));
  return id;
}

/** The id of the port or metro area a UN/LOCODE names, or null. */
export const locationId = (locode: unknown) => (typeof locode === 'string' && locode ? cachedStableId('location', locode) : null);
/** The id of the vessel an IMO number names, or null. */
export const vesselId = (imo: string | null) => (imo ? cachedStableId('vessel', imo) : null);

type EventOrigin = Pick<TransportEventRow, 'timezone' | 'location_locode' | 'data_source' | 'published_at' | 'created_at'>;

/** Where an event (actual or estimated) happens, who reported it, and when the carrier published it and svc recorded it. */
export const eventOriginAttributes = (row: EventOrigin) => ({
  timezone: row.timezone,
  location_locode: row.location_locode,
  data_source: row.data_source,
  published_at: iso(row.published_at),
  created_at: iso(row.created_at),
});

export function shipmentResource(
  row: ShipmentRow,
  containerIds: string[],
  line?: { name: string; short_name: string },
  customerName?: string | null,
  aisEta?: AisEtaShown | null,
): Resource {
  const s = row.state;
  return {
    id: row.id,
    type: 'shipment',
    attributes: {
      created_at: iso(row.created_at),
      updated_at: iso(row.updated_at),
      bill_of_lading_number: row.bill_of_lading_number ?? row.request_number,
      booking_number: row.booking_number,
      normalized_number: row.request_number,
      ref_numbers: row.ref_numbers,
      tags: row.tags,
      shipping_line_scac: row.scac,
      shipping_line_name: line?.name ?? null,
      shipping_line_short_name: line?.short_name ?? null,
      customer_name: customerName ?? null,
      ...pick(s, SHIPMENT_STATE_ATTRIBUTES),
      // svc's extension: AIS's estimate beside the carrier's pod_eta_at, which stays the carrier's.
      pod_ais_eta_at: iso(aisEta?.eta_at),
      pod_ais_eta_updated_at: iso(aisEta?.computed_at),
      line_tracking_last_attempted_at: iso(row.line_tracking_last_attempted_at),
      line_tracking_last_succeeded_at: iso(row.line_tracking_last_succeeded_at),
      line_tracking_stopped_at: iso(row.line_tracking_stopped_at),
      line_tracking_stopped_reason: row.line_tracking_stopped_reason,
    },
    relationships: {
      port_of_lading: toOne('port', locationId(s.port_of_lading_locode)),
      port_of_discharge: toOne('port', locationId(s.port_of_discharge_locode)),
      destination: toOne('metro_area', locationId(s.destination_locode)),
      pod_terminal: toOne('terminal', (s.pod_terminal_id as string | undefined) ?? null),
      destination_terminal: toOne('terminal', (s.destination_terminal_id as string | undefined) ?? null),
      containers: toMany('container', containerIds),
      customer: toOne('party', row.customer_id),
      // svc has API keys, not users: nobody to name.
      line_tracking_stopped_by_user: toOne('user', null),
    },
    links: { self: `/v2/shipments/${row.id}` },
  };
}

export function containerResource(row: ContainerRow, transportEventIds?: string[]): Resource {
  const s = row.state;
  const arrays = Object.fromEntries([...ARRAY_ATTRIBUTES].map((k) => [k, Array.isArray(s[k]) ? s[k] : []]));
  return {
    id: row.id,
    type: 'container',
    attributes: {
      number: row.number,
      ref_numbers: row.ref_numbers,
      created_at: iso(row.created_at),
      updated_at: iso(row.updated_at),
      ...pick(s, CONTAINER_STATE_ATTRIBUTES),
      availability_known: s.availability_known ?? false,
      current_status: s.current_status ?? 'new',
      ...arrays,
      // The terminal's last free day is the one svc learns; line and rail ones are not reported yet.
      import_deadlines: { pickup_lfd_terminal: s.pickup_lfd ?? null, pickup_lfd_rail: null, pickup_lfd_line: null },
      pod_last_tracking_request_at: s.terminal_checked_at ?? null,
      // Reference attributes no carrier or terminal feed of svc's reports yet: present, and null.
      ...UNREPORTED_CONTAINER_ATTRIBUTES,
    },
    relationships: {
      shipment: toOne('shipment', row.shipment_id),
      pod_terminal: toOne('terminal', (s.pod_terminal_id as string | undefined) ?? null),
      ...(transportEventIds ? { transport_events: toMany('transport_event', transportEventIds) } : {}),
      // Reference relationships no feed of svc's fills yet: present, and empty.
      pickup_facility: toOne('terminal', null),
      raw_events: toMany('raw_event', []),
    },
    links: { self: `/v2/containers/${row.id}` },
  };
}

export function transportEventResource(row: TransportEventRow): Resource {
  return {
    id: row.id,
    type: 'transport_event',
    attributes: {
      event: row.event,
      voyage_number: row.voyage_number,
      timestamp: iso(row.timestamp),
      ...eventOriginAttributes(row),
    },
    relationships: {
      shipment: toOne('shipment', row.shipment_id),
      container: toOne('container', row.container_id),
      location: toOne('port', locationId(row.location_locode)),
      vessel: toOne('vessel', vesselId(row.vessel_imo)),
      terminal: toOne('terminal', row.terminal_id ?? null),
    },
    links: { self: `/v2/transport_events/${row.id}` },
  };
}
