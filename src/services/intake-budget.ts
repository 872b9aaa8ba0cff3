// The account's room under the limits on document intake (src/domain/documents/intake-limits.ts):
// new documents, and the tracking requests its documents start.
import type { Clock } from '../clock.ts';
import { DOCUMENT_TRACKING_WINDOWS, DOCUMENT_WINDOWS, type Window } from '../domain/documents/intake-limits.ts';
import { LimitExceeded } from '../domain/errors.ts';
import { addedWithin, type AddedTable } from '../store/added-recently.ts';
import type { Queryable } from '../store/db.ts';

export interface Room {
  /** How many more fit now (0 when a window is full). */
  left: number;
  /** When `left` is 0: the full window, and when it has room again. */
  full?: { window: Window; retryAt: Date };
}

async function roomIn(db: Queryable, table: AddedTable, accountId: string, now: Date, windows: readonly Window[]): Promise<Room> {
  const use = await addedWithin(db, table, accountId, now, windows);
  const left = Math.min(...windows.map((w, i) => w.limit - use[i].used));
  if (left > 0) return { left };
  // The window that stays full longest decides when there is room again.
  const full = windows.map((window, i) => ({ window, retryAt: use[i].freesAt ?? now })).reduce((a, b) => (b.retryAt > a.retryAt ? b : a));
  return { left: 0, full };
}

/** Room for tracking requests started by the account's documents (its tracking requests of any origin count). */
export const trackingRoom = (db: Queryable, accountId: string, now: Date): Promise<Room> => roomIn(db, 'tracking_requests', accountId, now, DOCUMENT_TRACKING_WINDOWS);

/**
 * Throws LimitExceeded (a 429 with Retry-After; a temporary refusal over SMTP) when the account has
 * added as many documents as a window allows. Checked before a document (or one e-mail's
 * documents, together) is stored; requests racing each other may pass it together.
 */
export async function admitDocuments(db: Queryable, clock: Clock, accountId: string): Promise<void> {
  const now = clock.now();
  const { full } = await roomIn(db, 'documents', accountId, now, DOCUMENT_WINDOWS);
  if (!full) return;
  const waitMs = Math.max(0, full.retryAt.getTime() - now.getTime());
  const { limit, label, windowMs } = full.window;
  throw new LimitExceeded(
    'document_limit',
    `This account has added ${limit} documents in ${label}, the most svc takes (uploads and e-mail alike). Try again in ${Math.max(1, Math.ceil(waitMs / 1000))} seconds.`,
    waitMs,
    { limit, window_seconds: windowMs / 1000 },
  );
}
