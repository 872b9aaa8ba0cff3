// The carriers commands and the database: `svc carriers list` reads how requests have been going
// and `svc carriers check` records its own, when a database is there (DATABASE_URL, or the
// embedded server of an svc process running on SVC_DATA_DIR). Neither starts, migrates nor waits
// long for one: without it the list still prints and the check still checks.
import type { Config } from '../config/index.ts';
import { CarrierOutcomeRecorder } from '../carriers/outcome-recorder.ts';
import { carrierOutcomes, type CarrierOutcomeRow } from '../store/carrier-request-outcomes.ts';
import { isDatabaseUnavailable } from '../store/database-unavailable.ts';
import { createPool, type Db } from '../store/db.ts';
import { runningEmbeddedUrl } from '../store/embedded.ts';

/** Long enough for a loaded machine, short enough that a database that is not there costs little. */
const CONNECT_TIMEOUT_MS = 5000;

type Opened = { db: Db } | { unavailable: string };

async function open(config: Config): Promise<Opened> {
  const url = config.DATABASE_URL ?? (await runningEmbeddedUrl(config.SVC_DATA_DIR));
  if (!url) return { unavailable: 'DATABASE_URL is not set and no svc process runs the embedded PostgreSQL' };
  return { db: createPool(url, 1, undefined, { connectTimeoutMs: CONNECT_TIMEOUT_MS }) };
}

/** Why the outcomes could not be read, in a line; never the connection string. */
function whyUnavailable(error: unknown): string {
  if ((error as { code?: unknown }).code === '42P01') return 'the database has no carrier_request_outcomes table yet (svc migrate)';
  if (isDatabaseUnavailable(error)) return 'the database is not reachable';
  return `the database refused the read (${(error as { code?: unknown }).code ?? 'error'})`;
}

/** Every carrier's outcomes by SCAC, or why there are none to show. */
export async function readCarrierOutcomes(config: Config): Promise<{ outcomes: Map<string, CarrierOutcomeRow> } | { unavailable: string }> {
  const opened = await open(config);
  if ('unavailable' in opened) return opened;
  try {
    return { outcomes: new Map((await carrierOutcomes(opened.db)).map((row) => [row.scac, row])) };
  } catch (error) {
    return { unavailable: whyUnavailable(error) };
  } finally {
    await opened.db.end().catch(() => {});
  }
}

/** A recorder for `svc carriers check`, or none without a database; `close` writes what it heard first. */
export async function outcomeRecorder(config: Config): Promise<{ recorder?: CarrierOutcomeRecorder; close(): Promise<void> }> {
  const opened = await open(config);
  if ('unavailable' in opened) return { close: async () => {} };
  // A write that fails (no database after all, no table yet) leaves the check as it is.
  const recorder = new CarrierOutcomeRecorder(opened.db);
  return {
    recorder,
    async close() {
      await recorder.settled();
      await opened.db.end().catch(() => {});
    },
  };
}
