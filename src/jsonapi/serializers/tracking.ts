// JSON:API resources of the tracking engine: shipments, containers and their events.
// Shipment and container attributes come from the diff engine's stored state; every attribute
// the reference service documents is present, null when unknown.
import { containerDataQuality, dataQuality } from './data-quality.ts';
import { stableId } from '../../refdata/ids.ts';
import type { AisEtaShown } from '../../store/ais-arrivals.ts';
import type { DataFreshness } from '../../store/freshness.ts';
import { lineTrackingTimes, type ContainerRow, type ShipmentRow } from '../../store/shipments.ts';
import type { TransportEventRow } from '../../store/transport-events.ts';
import { iso, toMany, toOne, type Relationship, type Resource } from '../document.ts';
import { memoize } from '../../domain/memoize.ts';
import { containerSituation, type ContainerSituation } from '../../domain/tracking/situation.ts';
import type { ContainerState } from '../../domain/tracking/types.ts';

// A name-based id is a SHA-1 of the name: the same ports and vessels recur on every event and
// shipment of a document, and across requests, so each name is hashed once (bounded: the world's
// ports and vessels fit, a flood of made-up codes only starts the memo afresh).
const locationIdOf = memoize((locode: string) => stableId('location', locode), 50_000);
const vesselIdOf = memoize((imo: string) => stableId('vessel', imo), 50_000);

/** The id of the port or metro area a UN/LOCODE names, or null. */
export const locationId = (locode: unknown) => (typeof locode === 'string' && locode ? locationIdOf(locode) : null);
/** The id of the vessel an IMO number names, or null. */
export const vesselId = (imo: string | null) => (imo ? vesselIdOf(imo) : null);

type EventOrigin = Pick<TransportEventRow, 'timezone' | 'location_locode' | 'data_source' | 'published_at' | 'created_at'>;

/**
 * Where an event (actual or estimated) happens, who reported it, and when the carrier published
 * it and svc recorded it: added to the event's own leading attributes, in this order. Added in
 * place rather than spread into a literal, which costs every event of a document a copy.
 */
export function withEventOrigin(attributes: Record<string, unknown>, row: EventOrigin): Record<string, unknown> {
  attributes.timezone = row.timezone;
  attributes.location_locode = row.location_locode;
  attributes.data_source = row.data_source;
  attributes.published_at = iso(row.published_at);
  attributes.created_at = iso(row.created_at);
  return attributes;
}

/** svc's extension: per source, when svc last heard from it and when what it heard last changed. */
export const dataFreshnessAttribute = (f: DataFreshness) => ({
  shipping_line: { checked_at: iso(f.shipping_line.checked_at), changed_at: iso(f.shipping_line.changed_at) },
  terminal: { checked_at: iso(f.terminal.checked_at), changed_at: iso(f.terminal.changed_at) },
  ais: { checked_at: iso(f.ais.checked_at), changed_at: iso(f.ais.changed_at) },
});

export function shipmentResource(
  row: ShipmentRow,
  containerIds: string[],
  freshness: DataFreshness,
  line?: { name: string; short_name: string },
  customerName?: string | null,
  aisEta?: AisEtaShown | null,
): Resource {
  const s = row.state;
  const seen = lineTrackingTimes(row);
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
      // From the diff engine's state, written out rather than picked by a list of names: the
      // object is built at once, in one shape, without the intermediate entries and copies.
      port_of_lading_locode: s.port_of_lading_locode ?? null,
      port_of_lading_name: s.port_of_lading_name ?? null,
      port_of_discharge_locode: s.port_of_discharge_locode ?? null,
      port_of_discharge_name: s.port_of_discharge_name ?? null,
      destination_locode: s.destination_locode ?? null,
      destination_name: s.destination_name ?? null,
      pod_vessel_name: s.pod_vessel_name ?? null,
      pod_vessel_imo: s.pod_vessel_imo ?? null,
      pod_voyage_number: s.pod_voyage_number ?? null,
      pol_etd_at: s.pol_etd_at ?? null,
      pol_atd_at: s.pol_atd_at ?? null,
      pol_original_etd_at: s.pol_original_etd_at ?? null,
      pod_eta_at: s.pod_eta_at ?? null,
      pod_original_eta_at: s.pod_original_eta_at ?? null,
      pod_ata_at: s.pod_ata_at ?? null,
      destination_eta_at: s.destination_eta_at ?? null,
      destination_ata_at: s.destination_ata_at ?? null,
      pol_timezone: s.pol_timezone ?? null,
      pod_timezone: s.pod_timezone ?? null,
      destination_timezone: s.destination_timezone ?? null,
      // svc's extension: AIS's estimate beside the carrier's pod_eta_at, which stays the carrier's.
      pod_ais_eta_at: iso(aisEta?.eta_at),
      pod_ais_eta_updated_at: iso(aisEta?.computed_at),
      line_tracking_last_attempted_at: iso(seen.attemptedAt),
      line_tracking_last_succeeded_at: iso(seen.succeededAt),
      line_tracking_stopped_at: iso(row.line_tracking_stopped_at),
      line_tracking_stopped_reason: row.line_tracking_stopped_reason,
      data_freshness: dataFreshnessAttribute(freshness),
      data_quality: dataQuality(row.rejected_event_counts),
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

/**
 * Given for a container's event ids when the include about to be followed along transport_events
 * reads the events and fills the linkage in (src/read-model/tracking.ts): its place among the
 * relationships is kept, so the document is the same as with the ids given here.
 */
/**
 * The situation the tracking worker stored with the state; a state stored before it was kept
 * gets the same rule over what the state alone says (no shipment ports, so places have no code).
 */
function situationOf(s: Record<string, unknown>): ContainerSituation {
  if (s.situation) return s.situation as ContainerSituation;
  const state = s as unknown as ContainerState;
  return containerSituation({ container: state, shipment: null, lastMove: state.last_move ?? null, depotLocode: state.empty_depot_locode ?? null, place: () => null });
}

export const EVENTS_FILLED_BY_INCLUDE = Symbol('transport_events filled by the include');

/** A container; without `transportEventIds` (a write's answer) the transport_events relationship is left out. */
export function containerResource(row: ContainerRow, freshness: DataFreshness, transportEventIds?: string[] | typeof EVENTS_FILLED_BY_INCLUDE): Resource {
  const s = row.state;
  return {
    id: row.id,
    type: 'container',
    attributes: {
      number: row.number,
      ref_numbers: row.ref_numbers,
      created_at: iso(row.created_at),
      updated_at: iso(row.updated_at),
      // From the diff engine's state, written out as the shipment's are.
      seal_number: s.seal_number ?? null,
      equipment_type: s.equipment_type ?? null,
      equipment_length: s.equipment_length ?? null,
      equipment_height: s.equipment_height ?? null,
      weight_in_lbs: s.weight_in_lbs ?? null,
      pickup_lfd: s.pickup_lfd ?? null,
      pickup_appointment_at: s.pickup_appointment_at ?? null,
      availability_known: s.availability_known ?? false,
      available_for_pickup: s.available_for_pickup ?? null,
      empty_out_at: s.empty_out_at ?? null,
      pol_full_in_at: s.pol_full_in_at ?? null,
      pol_vessel_loaded_at: s.pol_vessel_loaded_at ?? null,
      pol_vessel_departed_at: s.pol_vessel_departed_at ?? null,
      pod_arrived_at: s.pod_arrived_at ?? null,
      pod_discharged_at: s.pod_discharged_at ?? null,
      pod_full_out_at: s.pod_full_out_at ?? null,
      pod_rail_loaded_at: s.pod_rail_loaded_at ?? null,
      pod_rail_departed_at: s.pod_rail_departed_at ?? null,
      ind_eta_at: s.ind_eta_at ?? null,
      ind_ata_at: s.ind_ata_at ?? null,
      ind_rail_unloaded_at: s.ind_rail_unloaded_at ?? null,
      pod_rail_carrier_scac: s.pod_rail_carrier_scac ?? null,
      ind_rail_carrier_scac: s.ind_rail_carrier_scac ?? null,
      final_destination_full_out_at: s.final_destination_full_out_at ?? null,
      empty_terminated_at: s.empty_terminated_at ?? null,
      terminal_checked_at: s.terminal_checked_at ?? null,
      pod_timezone: s.pod_timezone ?? null,
      final_destination_timezone: s.final_destination_timezone ?? null,
      empty_terminated_timezone: s.empty_terminated_timezone ?? null,
      current_status: s.current_status ?? 'new',
      holds_at_pod_terminal: Array.isArray(s.holds_at_pod_terminal) ? s.holds_at_pod_terminal : [],
      fees_at_pod_terminal: Array.isArray(s.fees_at_pod_terminal) ? s.fees_at_pod_terminal : [],
      // The line's last free day is not reported yet.
      import_deadlines: { pickup_lfd_terminal: (s.pickup_lfd_terminal === undefined ? s.pickup_lfd : s.pickup_lfd_terminal) ?? null, pickup_lfd_rail: s.pickup_lfd_rail ?? null, pickup_lfd_line: null },
      pod_last_tracking_request_at: s.terminal_checked_at ?? null,
      // Reference attributes no carrier or terminal feed of svc's reports yet: present, and null.
      location_at_pod_terminal: null,
      pod_full_out_chassis_number: null,
      ind_facility_lfd_on: null,
      shipment_last_tracking_request_at: null,
      situation: situationOf(s),
      data_freshness: dataFreshnessAttribute(freshness),
      data_quality: containerDataQuality(row.number, row.rejected_event_counts),
    },
    relationships: containerRelationships(row, transportEventIds),
    links: { self: `/v2/containers/${row.id}` },
  };
}

function containerRelationships(row: ContainerRow, transportEventIds: string[] | typeof EVENTS_FILLED_BY_INCLUDE | undefined): Record<string, Relationship> {
  const shipment = toOne('shipment', row.shipment_id);
  const podTerminal = toOne('terminal', (row.state.pod_terminal_id as string | undefined) ?? null);
  // Reference relationships no feed of svc's fills yet: present, and empty.
  const pickupFacility = toOne('terminal', null);
  const rawEvents = toMany('raw_event', []);
  if (transportEventIds === undefined) return { shipment, pod_terminal: podTerminal, pickup_facility: pickupFacility, raw_events: rawEvents };
  // The include fills the linkage in this place, as it is when given (see EVENTS_FILLED_BY_INCLUDE).
  const transportEvents = transportEventIds === EVENTS_FILLED_BY_INCLUDE ? (undefined as unknown as Relationship) : toMany('transport_event', transportEventIds);
  return { shipment, pod_terminal: podTerminal, transport_events: transportEvents, pickup_facility: pickupFacility, raw_events: rawEvents };
}

export function transportEventResource(row: TransportEventRow): Resource {
  return {
    id: row.id,
    type: 'transport_event',
    attributes: withEventOrigin({ event: row.event, voyage_number: row.voyage_number, timestamp: iso(row.timestamp) }, row),
    relationships: {
      shipment: toOne('shipment', row.shipment_id),
      container: toOne('container', row.container_id),
      location: toOne(row.location_type ?? 'port', row.location_type ? locationId(row.location_locode) : null),
      vessel: toOne('vessel', vesselId(row.vessel_imo)),
      terminal: toOne('terminal', row.terminal_id ?? null),
    },
    links: { self: `/v2/transport_events/${row.id}` },
  };
}
