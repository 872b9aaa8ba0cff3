// Bodies the carrier pushes to our callback URL: a 2.2 subscription callback is an array of
// events; a 3.0 producer POSTs `{ events: [...] }`. Check the signature first
// (notification-signature.ts): this only reads.
import type { CarrierEvent } from '../../domain/tracking/carrier-events.ts';
import { UnrecognizedResponseError } from './errors.ts';
import { toCarrierEvents, type DcsaVersion } from './normalize.ts';

export function parseCallback(rawBody: Buffer, version: DcsaVersion = '2.2'): CarrierEvent[] {
  let json: unknown;
  try {
    json = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new UnrecognizedResponseError('callback body is not JSON');
  }
  return toCarrierEvents(json, version);
}
