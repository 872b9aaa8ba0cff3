// Wire compatibility: every attribute the reference service documents for a shipment, a container,
// a tracking request and a transport event is present in svc's records (null when svc does not know
// it), so clients written for it find each key they read.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DAY } from '../src/domain/time-units.ts';
import { startTrackingHarness, type TrackingHarness } from './support/tracking.ts';
import { forFile } from './support/for-file.ts';

// The attribute names of the reference OpenAPI's components (shared/reference/openapi.json).
const REFERENCE = {
  shipment: ['bill_of_lading_number', 'created_at', 'customer_name', 'destination_ata_at', 'destination_eta_at', 'destination_locode', 'destination_name', 'destination_timezone', 'line_tracking_last_attempted_at', 'line_tracking_last_succeeded_at', 'line_tracking_stopped_at', 'line_tracking_stopped_reason', 'normalized_number', 'pod_ata_at', 'pod_eta_at', 'pod_original_eta_at', 'pod_timezone', 'pod_vessel_imo', 'pod_vessel_name', 'pod_voyage_number', 'pol_atd_at', 'pol_etd_at', 'pol_timezone', 'port_of_discharge_locode', 'port_of_discharge_name', 'port_of_lading_locode', 'port_of_lading_name', 'ref_numbers', 'shipping_line_name', 'shipping_line_scac', 'shipping_line_short_name', 'tags'],
  container: ['availability_known', 'available_for_pickup', 'created_at', 'current_status', 'empty_terminated_at', 'empty_terminated_timezone', 'equipment_height', 'equipment_length', 'equipment_type', 'fees_at_pod_terminal', 'final_destination_full_out_at', 'final_destination_timezone', 'holds_at_pod_terminal', 'import_deadlines', 'ind_ata_at', 'ind_eta_at', 'ind_facility_lfd_on', 'ind_rail_carrier_scac', 'ind_rail_unloaded_at', 'location_at_pod_terminal', 'number', 'pickup_appointment_at', 'pickup_lfd', 'pod_arrived_at', 'pod_discharged_at', 'pod_full_out_at', 'pod_full_out_chassis_number', 'pod_last_tracking_request_at', 'pod_rail_carrier_scac', 'pod_rail_departed_at', 'pod_rail_loaded_at', 'pod_timezone', 'ref_numbers', 'seal_number', 'shipment_last_tracking_request_at', 'terminal_checked_at', 'weight_in_lbs'],
  tracking_request: ['created_at', 'failed_reason', 'is_retrying', 'ref_numbers', 'request_number', 'request_type', 'retry_count', 'scac', 'status', 'tags', 'updated_at'],
  transport_event: ['created_at', 'data_source', 'event', 'location_locode', 'timestamp', 'timezone', 'voyage_number'],
};

let t: TrackingHarness;
forFile(() => startTrackingHarness(), (s) => (t = s));

const missing = (attributes: Record<string, unknown>, keys: string[]) => keys.filter((k) => !(k in attributes));

test('shipments, containers, tracking requests and transport events carry every reference attribute', async () => {
  const party = (await t.request('POST', '/v2/parties', { body: { data: { attributes: { company_name: 'Acme Imports' } } } })).body.data;
  const trId = await t.track('bill_of_lading', 'TEST-TR-SUCCEEDED', 'TEST');
  await t.db.query('UPDATE tracking_requests SET customer_id = $2 WHERE id = $1', [trId, party.id]);
  await t.worker.drain();
  await t.advance(30 * DAY, 30);

  const tr = (await t.request('GET', `/v2/tracking_requests/${trId}?include=tracked_object`)).body;
  assert.deepEqual(missing(tr.data.attributes, REFERENCE.tracking_request), []);
  const shipment = tr.included.find((r: any) => r.type === 'shipment');
  assert.deepEqual(missing(shipment.attributes, REFERENCE.shipment), []);
  assert.equal(shipment.attributes.customer_name, 'Acme Imports', "the customer's name, from its party");

  const container = (await t.request('GET', `/v2/containers/${shipment.relationships.containers.data[0].id}?include=transport_events`)).body;
  assert.deepEqual(missing(container.data.attributes, REFERENCE.container), []);
  const deadlines = container.data.attributes.import_deadlines;
  assert.deepEqual(Object.keys(deadlines).sort(), ['pickup_lfd_line', 'pickup_lfd_rail', 'pickup_lfd_terminal']);
  assert.equal(deadlines.pickup_lfd_terminal, container.data.attributes.pickup_lfd);
  const events = container.included.filter((r: any) => r.type === 'transport_event');
  assert.ok(events.length > 0);
  for (const e of events) assert.deepEqual(missing(e.attributes, REFERENCE.transport_event), []);
});
