// The sandbox journey the AIS tests follow: TEST-TR-SUCCEEDED tracked over DCSA, and the carrier's
// actual arrival at Los Angeles that the pod vessel's synthetic AIS track is laid out around.
import assert from 'node:assert/strict';
import type { Journey, JourneyEvent } from '../../src/sandbox/index.ts';
import type { TrackingHarness } from './tracking.ts';

export interface TrackedPodJourney {
  shipmentId: string;
  journey: Journey;
  /** The carrier's actual arrival at the port of discharge (USLAX). */
  arri: JourneyEvent;
}

/** Tracks the journey, lets the worker fetch it, and finds its arrival at the port of discharge. */
export async function trackLosAngelesJourney(t: TrackingHarness): Promise<TrackedPodJourney> {
  const trId = await t.track('bill_of_lading', 'TEST-TR-SUCCEEDED', 'TEST');
  await t.worker.drain();
  const shipmentId = (await t.request('GET', `/v2/tracking_requests/${trId}`)).body.data.relationships.tracked_object.data.id;
  const resolved = t.sandbox.sandbox.registry.resolve('TEST', 'bill_of_lading', 'TEST-TR-SUCCEEDED');
  assert.equal(resolved.kind, 'journey');
  const journey = (resolved as { journey: Journey }).journey;
  const arri = journey.events.find((e) => e.code === 'ARRI' && e.classifier === 'ACT' && e.legEnd === 'to' && e.leg?.to.place.locode === 'USLAX')!;
  return { shipmentId, journey, arri };
}
