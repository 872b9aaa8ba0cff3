// The one logger of a svc process: JSON lines on stdout at SVC_LOG_LEVEL, shared by fastify's
// request logs and the workers so that a log collector sees one format. Messages for the person at
// the terminal (the banner with the first API key, "shutting down") go to stderr instead.
import { pino, type DestinationStream, type Logger } from 'pino';
import type { Config } from '../config/index.ts';

// Fastify does not log headers by default; the redaction keeps it so if that changes.
const REDACT = ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization'];

export function createLogger(level: Config['SVC_LOG_LEVEL'], stream?: DestinationStream): Logger {
  return pino({ level, redact: REDACT }, stream ?? pino.destination(1));
}

/** A message for the person at the terminal, on stderr (never the log stream). */
export const say = (msg: string): void => void process.stderr.write(`svc: ${msg}\n`);

/** A worker's `log` option: its messages (failures and the like) as warn lines, named after it. */
export const workerLog = (logger: Logger, worker: string) => warnLog(logger, { worker });

/** The database pool's `log`: connections lost while idle, as warn lines. */
export const databaseLog = (logger: Logger) => warnLog(logger, { component: 'database' });

function warnLog(logger: Logger, bindings: Record<string, unknown>): (msg: string, fields?: Record<string, unknown>) => void {
  const child = logger.child(bindings);
  return (msg, fields) => child.warn(fields ?? {}, msg);
}

/** Settings that weaken svc's defences: said at every start on stderr and in the log. */
export function warnAboutSettings(config: Config, logger: Logger, say: (msg: string) => void): void {
  if (!config.SVC_WEBHOOK_ALLOW_INSECURE) return;
  const warning = 'SVC_WEBHOOK_ALLOW_INSECURE=true: webhooks may use plain http and reach loopback and private addresses (for development and tests only)';
  say(`warning: ${warning}`);
  logger.warn(warning);
}
