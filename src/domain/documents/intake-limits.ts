// What document intake lets one account do, in one place: how its processing jobs share the
// workers and how often a job may be tried.

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
