// Errors that mean "the database cannot be reached right now" (down, restarting, network), as
// opposed to a bad query: callers answer 503 and retry later instead of reporting a bug.

const NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'ENOENT']);
// SQLSTATE class 08 (connection exception) and the server shutting down or starting up.
const SQLSTATES = /^(08...|57P01|57P02|57P03)$/;
// pg's own words when a connection dies or cannot be made in time (workers log errors as strings).
const MESSAGES =
  /ECONNREFUSED|ECONNRESET|Connection terminated|timeout exceeded when trying to connect|terminating connection due to administrator command|the database system is (starting up|shutting down|in recovery|not yet accepting connections)|unexpected postmaster exit|Client has encountered a connection error/;

export function isDatabaseUnavailable(err: unknown): boolean {
  if (typeof err === 'string') return MESSAGES.test(err);
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (NODE_CODES.has(code) || SQLSTATES.test(code))) return true;
  // A pool connect that failed several ways at once (IPv4 and IPv6) is an AggregateError.
  if (err instanceof AggregateError) return err.errors.some(isDatabaseUnavailable);
  return MESSAGES.test(err.message);
}

/** Per pool: whether an outage is under way, shared by every worker using the pool. */
const outages = new WeakMap<object, { down: boolean }>();

/**
 * Wraps a worker's log so that, while the database is unreachable, its polling loops do not repeat
 * the same connection error several times a second: the outage is logged once, when it starts, and
 * again when the database answers (the pool made a connection).
 */
export function outageAwareLog<F extends Record<string, unknown>>(
  log: (msg: string, fields?: F) => void,
  pool: { on(event: 'connect', listener: () => void): unknown },
): (msg: string, fields?: F) => void {
  let outage = outages.get(pool);
  if (!outage) {
    const state = { down: false };
    outages.set(pool, (outage = state));
    pool.on('connect', () => {
      if (!state.down) return;
      state.down = false;
      log('database reachable again');
    });
  }
  const state = outage;
  return (msg, fields) => {
    if (!Object.values(fields ?? {}).some(isDatabaseUnavailable)) return log(msg, fields);
    if (state.down) return;
    state.down = true;
    log(`database unreachable (${msg}); retrying quietly until it answers`, fields);
  };
}
