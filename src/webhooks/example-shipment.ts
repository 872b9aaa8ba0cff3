// The made-up shipment every example webhook notification is about: Shanghai → Los Angeles on the
// COSCO SHIPPING UNIVERSE with two containers, and the reference records it names. Ids and times
// are fixed, so an example is the same every time it is built.
import { stableId } from '../refdata/ids.ts';
import type { LocationRow, TerminalRow, VesselRow } from '../refdata/types.ts';
import type { ContainerRow, ShipmentRow } from '../store/shipments.ts';

export const exampleId = (key: string) => stableId('webhook_example', key);
export const date = (iso: string) => new Date(iso);

// ---- reference records: copies of the seeded rows, with the same ids, so that an example needs
// no database and every id in it names a real port, terminal or vessel.

function location(locode: string, name: string, country_code: string, state_abbr: string | null, latitude: number, longitude: number, time_zone: string): LocationRow {
  // The kind flags are never serialized; every place here is (also) a seaport.
  const flags = { is_seaport: true, is_rail: false, is_icd: false, is_inland_hub: false, alias_of: null };
  return { id: stableId('location', locode), locode, name, country_code, state_abbr, city: name, latitude, longitude, time_zone, ...flags };
}

export const PORTS = [
  location('CNSHA', 'Shanghai', 'CN', null, 31.21667, 121.5, 'Asia/Shanghai'),
  location('KRPUS', 'Busan', 'KR', null, 35.1, 129.03333, 'Asia/Seoul'),
  location('USLAX', 'Los Angeles', 'US', 'CA', 33.75, -118.25, 'America/Los_Angeles'),
  location('USCHI', 'Chicago', 'US', 'IL', 41.88333, -87.6, 'America/Chicago'),
];
export const zoneOf = (locode: string | null) => PORTS.find((p) => p.locode === locode)?.time_zone ?? null;

export const TERMINAL: TerminalRow = {
  id: stableId('terminal', 'USLAX:Y773'),
  name: 'West Basin Container Terminal',
  nickname: 'WBCT',
  firms_code: 'Y773',
  smdg_code: 'WBCT',
  city: 'Los Angeles',
  state_abbr: 'CA',
  country: 'US',
  port_id: stableId('location', 'USLAX'),
  latitude: 33.756944,
  longitude: -118.277778,
};

export const VESSEL: VesselRow = { id: stableId('vessel', '9795610'), name: 'COSCO SHIPPING UNIVERSE', imo: '9795610', mmsi: null, operator: 'COSCO' };
export const VOYAGE = '045E';
export const LINE = { name: 'COSCO Shipping Lines', short_name: 'COSCO Shipping Lines' };

// ---- the shipment and its containers ----------------------------------------------------------

export const ACCOUNT = exampleId('account');
export const SHIPMENT_ID = exampleId('shipment');
export const CONTAINER_IDS = [exampleId('container:1'), exampleId('container:2')];
export const BILL_OF_LADING = 'COSU6351234560';
export const LFD = '2026-03-19T07:00:00Z'; // midnight at the terminal, March 19
export const CUSTOMS_HOLD = { name: 'customs', status: 'hold', description: 'CBP hold' };

export function shipmentRow(event: string, seen: Date): ShipmentRow {
  const stopped = event === 'tracking_request.tracking_stopped';
  return {
    id: SHIPMENT_ID,
    account_id: ACCOUNT,
    scac: 'COSU',
    request_type: 'bill_of_lading',
    request_number: BILL_OF_LADING,
    bill_of_lading_number: BILL_OF_LADING,
    booking_number: '6351234560',
    ref_numbers: ['PO-48213'],
    tags: ['example'],
    customer_id: null,
    state: {
      port_of_lading_locode: 'CNSHA',
      port_of_lading_name: 'Shanghai',
      port_of_discharge_locode: 'USLAX',
      port_of_discharge_name: 'Los Angeles',
      destination_locode: null,
      destination_name: null,
      transshipment_locodes: [],
      pod_vessel_name: VESSEL.name,
      pod_vessel_imo: VESSEL.imo,
      pod_voyage_number: VOYAGE,
      pol_etd_at: '2026-02-26T02:00:00Z',
      pol_atd_at: '2026-02-26T02:30:00Z',
      pol_original_etd_at: '2026-02-25T22:00:00Z',
      pod_eta_at: '2026-03-12T14:00:00Z',
      pod_original_eta_at: '2026-03-11T22:00:00Z',
      pod_ata_at: '2026-03-12T14:00:00Z',
      destination_eta_at: null,
      destination_ata_at: null,
      pol_timezone: 'Asia/Shanghai',
      pod_timezone: 'America/Los_Angeles',
      destination_timezone: null,
      pod_terminal_id: TERMINAL.id,
    },
    line_tracking_last_attempted_at: seen,
    line_tracking_last_succeeded_at: seen,
    line_tracking_last_changed_at: seen,
    line_tracking_stopped_at: stopped ? seen : null,
    line_tracking_stopped_reason: stopped ? 'past_arrival_window' : null,
    created_at: date('2026-02-20T09:15:42Z'),
    updated_at: seen,
  };
}

// Both boxes are discharged; the first is ready to be picked up, the second is held by customs.
const CONTAINER_STATES: Record<string, unknown>[] = [
  {
    number: 'CSNU7301428',
    seal_number: 'CS8842173',
    equipment_type: 'dry',
    equipment_length: 40,
    equipment_height: 'high_cube',
    weight_in_lbs: 26455,
    empty_out_at: '2026-02-21T03:12:00Z',
    pol_full_in_at: '2026-02-23T07:48:00Z',
    pol_vessel_loaded_at: '2026-02-25T16:05:00Z',
    pol_vessel_departed_at: '2026-02-26T02:30:00Z',
    pod_arrived_at: '2026-03-12T14:00:00Z',
    pod_discharged_at: '2026-03-13T11:20:00Z',
    pickup_lfd: LFD,
    pickup_appointment_at: '2026-03-16T16:00:00Z',
    availability_known: true,
    available_for_pickup: true,
    holds_at_pod_terminal: [],
    fees_at_pod_terminal: [],
    current_status: 'available',
  },
  {
    number: 'CBHU9035170',
    seal_number: 'CS8842174',
    equipment_type: 'dry',
    equipment_length: 20,
    equipment_height: 'standard',
    weight_in_lbs: 38140,
    empty_out_at: '2026-02-21T05:40:00Z',
    pol_full_in_at: '2026-02-23T09:02:00Z',
    pol_vessel_loaded_at: '2026-02-25T17:30:00Z',
    pol_vessel_departed_at: '2026-02-26T02:30:00Z',
    pod_arrived_at: '2026-03-12T14:00:00Z',
    pod_discharged_at: '2026-03-13T13:05:00Z',
    pickup_lfd: LFD,
    pickup_appointment_at: null,
    availability_known: true,
    available_for_pickup: false,
    holds_at_pod_terminal: [CUSTOMS_HOLD],
    fees_at_pod_terminal: [{ type: 'exam', amount: 350, currency_code: 'USD' }],
    current_status: 'not_available',
  },
];

export function containerRow(index: number, seen: Date): ContainerRow {
  const state = CONTAINER_STATES[index];
  const common = { pod_timezone: 'America/Los_Angeles', pod_terminal: TERMINAL.firms_code, pod_terminal_id: TERMINAL.id, terminal_checked_at: '2026-03-14T15:00:00Z' };
  return {
    id: CONTAINER_IDS[index],
    account_id: ACCOUNT,
    shipment_id: SHIPMENT_ID,
    number: state.number as string,
    ref_numbers: ['PO-48213'],
    state: { ...state, ...common },
    created_at: date('2026-02-20T09:15:42Z'),
    updated_at: seen,
  };
}
