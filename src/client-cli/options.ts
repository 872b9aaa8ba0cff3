// The command line of the client commands: each command's options, where the API and the token
// come from, and the two kinds of failure a client command ends with.
import { parseArgs } from 'node:util';
import { SvcClient } from '../../sdk/src/index.ts';

/** The command line is wrong: the message and the usage, exit code 2. */
export class ClientUsageError extends Error {}
/** A well-formed command that cannot be carried out: one line, exit code 1 (2 when `exitCode` says so). */
export class ClientCommandError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** What the configuration says, before the command line has its say. */
export interface ClientDefaults {
  /** SVC_API_BASE_URL, else this svc's own address. */
  baseUrl: string;
  /** SVC_API_TOKEN. */
  token?: string;
}

type OptionSpec = { type: 'string' | 'boolean'; multiple?: boolean; short?: string };

const CONNECTION = { 'base-url': { type: 'string' }, token: { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const;
const JSON_OUTPUT = { json: { type: 'boolean' } } as const;
const FILTERS = { status: { type: 'string' }, number: { type: 'string' }, q: { type: 'string' } } as const;

/** Each command's options; parseArgs refuses any other. */
export const OPTIONS = {
  track: { ...CONNECTION, ...JSON_OUTPUT, scac: { type: 'string' }, type: { type: 'string' }, ref: { type: 'string', multiple: true } },
  watch: { ...CONNECTION, ...JSON_OUTPUT, interval: { type: 'string' } },
  list: { ...CONNECTION, ...JSON_OUTPUT, ...FILTERS, all: { type: 'boolean' }, 'page-size': { type: 'string' } },
  show: { ...CONNECTION, ...JSON_OUTPUT },
} as const satisfies Record<string, Record<string, OptionSpec>>;

export type FilterName = keyof typeof FILTERS;

export function parseCommand<K extends keyof typeof OPTIONS>(kind: K, argv: string[]) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, strict: true, options: OPTIONS[kind] });
  } catch (err) {
    throw new ClientUsageError((err as Error).message); // an unknown option, a missing value
  }
}

/**
 * The SDK client for `--base-url`/`--token` over the configuration. Without a token there is
 * nothing to ask svc: say both ways to give one (exit 2, the command line is incomplete).
 */
export function connect(values: { 'base-url'?: string; token?: string }, defaults: ClientDefaults): SvcClient {
  const baseUrl = values['base-url'] ?? defaults.baseUrl;
  if (!/^https?:\/\//i.test(baseUrl) || !URL.canParse(baseUrl)) throw new ClientUsageError(`--base-url must be an http:// or https:// URL, not ${baseUrl}`);
  const token = values.token ?? defaults.token;
  if (!token) throw new ClientCommandError('no API token: pass --token <key> or set SVC_API_TOKEN (svc keys create makes one)', 2);
  return new SvcClient({ baseUrl, token });
}

/** A whole number of at least 1, for --page-size. */
export function positiveWhole(name: string, given: string | undefined): number | undefined {
  if (given === undefined) return undefined;
  if (!/^\d{1,6}$/.test(given) || Number(given) < 1) throw new ClientUsageError(`--${name} must be a whole number of at least 1, not ${given}`);
  return Number(given);
}

const UNIT_MS = { ms: 1, s: 1000, m: 60_000 } as const;

/** `50ms`, `2s`, `1m` or a bare number of seconds, as milliseconds (10 ms to an hour). */
export function parseInterval(given: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(given.trim());
  const ms = match ? Number(match[1]) * UNIT_MS[(match[2] ?? 's') as keyof typeof UNIT_MS] : NaN;
  if (!(ms >= 10 && ms <= 3_600_000)) throw new ClientUsageError(`--interval must be a duration from 10ms to 60m such as 500ms, 5s or 1m, not ${given}`);
  return ms;
}
