// The PostgreSQL channel recordEvents notifies for every domain event it records: open pages (the
// web app's live updates) hear of a change committed by any svc process sharing the database.
// The notification is only a pointer; readers fetch what changed through the usual queries.
import type { Tx } from './db.ts';

export const LIVE_CHANNEL = 'svc_live';

/** What one notification on the live channel says: which event, about what, in which account. */
export interface LiveChange {
  accountId: string;
  /** The event's name in the vocabulary (src/domain/events/vocabulary.ts). */
  event: string;
  shipmentId: string | null;
  containerId: string | null;
  /** Set when the event's reference is a tracking request (tracking_request.*). */
  trackingRequestId: string | null;
}

export async function listenForLiveChanges(client: Tx): Promise<void> {
  await client.query(`LISTEN ${LIVE_CHANNEL}`);
}

export async function unlistenLiveChanges(client: Tx): Promise<void> {
  await client.query(`UNLISTEN ${LIVE_CHANNEL}`);
}

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** The change a live-channel payload describes, or undefined for one that is not (never thrown). */
export function parseLiveChange(payload: string | undefined): LiveChange | undefined {
  if (!payload) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (typeof raw !== 'object' || raw === null) return undefined;
  const r = raw as Record<string, unknown>;
  const accountId = text(r.account_id);
  const event = text(r.event);
  if (!accountId || !event) return undefined;
  return { accountId, event, shipmentId: text(r.shipment_id), containerId: text(r.container_id), trackingRequestId: text(r.tracking_request_id) };
}
