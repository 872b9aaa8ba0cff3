// What document intake lets one account do, in one place: how its processing jobs share the
// workers, how often a job may be tried, how many documents it may add, and how many tracking
// requests its documents may start. Uploads through the API are already under the per-key request
// limits; these hold for every way in, e-mail (SMTP and the API) included, and are counted in
// PostgreSQL so every svc process sees the same figures.
import { HOUR, MINUTE } from '../time-units.ts';

/** A rolling window: at most `limit` in any `windowMs`. */
export interface Window {
  windowMs: number;
  limit: number;
  /** How people read the window ("a minute"). */
  label: string;
}

/** Jobs one document worker runs at once; a new one is claimed as soon as one ends. */
export const JOB_SLOTS = 4;

/**
 * Jobs one account may have running at once, over every worker: fewer than a worker's slots, so
 * however many (or however slow) an account's documents are, another account's job finds a slot.
 */
export const ACCOUNT_JOBS_IN_FLIGHT = 2;

/**
 * Claims of one job before it is given up. A job is counted when it is claimed, before it runs, so
 * one whose run stops the process (out of memory, killed) is counted too and is never claimed for
 * ever.
 */
export const MAX_JOB_ATTEMPTS = 5;

/** New documents an account may add (uploads, direct uploads, e-mail attachments and message texts). */
export const DOCUMENT_WINDOWS: readonly Window[] = [
  { windowMs: MINUTE, limit: 100, label: 'a minute' },
  { windowMs: HOUR, limit: 1000, label: 'an hour' },
];

/** The numbers of one document that svc tracks by itself; the rest are reported as not tracked. */
export const TRACKED_PER_DOCUMENT = 25;

/**
 * Tracking requests an account may have made (any way: the API or its documents) before its
 * documents start more; the API's own limit on POST /v2/tracking_requests is the minute's figure.
 */
export const DOCUMENT_TRACKING_WINDOWS: readonly Window[] = [
  { windowMs: MINUTE, limit: 100, label: 'a minute' },
  { windowMs: HOUR, limit: 1000, label: 'an hour' },
];
