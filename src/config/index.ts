// Every environment variable svc reads, validated once at start-up.
// A bad value stops start-up with a message that names the variable.
import { isIP } from 'node:net';
import { z } from 'zod';
import { catalogueCarrier } from '../carriers/catalogue.ts';

/** How long a client may take over a request's headers and over the whole request, in milliseconds. */
export const DEFAULT_HTTP_TIMEOUTS = { headersMs: 10_000, requestMs: 30_000 } as const;

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

// Numbers are written in plain decimal digits: z.coerce.number() would also take ' ' (as 0),
// '0x50', '80.0' and '8e3', and a typo should stop start-up rather than pick a surprising value.
const wholeNumber = (min: number, max: number) =>
  z.string().regex(/^\d+$/, 'must be a whole number written in decimal digits').transform(Number).pipe(z.number().min(min).max(max));
const decimalNumber = (min: number, max: number) =>
  z.string().regex(/^\d+(\.\d+)?$/, 'must be a number written in decimal digits, e.g. 3600 or 0.5').transform(Number).pipe(z.number().min(min).max(max));
const port = wholeNumber(0, 65535);
/** A comma-separated list; blanks around items and empty items are dropped. */
const list = z.string().transform((value) => value.split(',').map((item) => item.trim()).filter((item) => item !== ''));

/**
 * One entry of SVC_CARRIERS; unknown members are refused, so a misspelt apiKey cannot go unnoticed.
 * A SCAC of the carrier catalogue (src/carriers/catalogue.ts) brings its endpoint, DCSA version and
 * authentication scheme, so `{scac, apiKey}` or `{scac, clientId, clientSecret}` is enough; a
 * member given here wins over the catalogue's.
 */
export const carrierEndpointSchema = z
  .strictObject({
    scac: z.string().length(4).toUpperCase(),
    /** Which connector speaks to it (src/carriers/protocols.ts). */
    protocol: z.string().regex(/^[a-z][a-z0-9-]*$/, 'must be a protocol name such as dcsa').default('dcsa'),
    /** The API root: /v2/events (2.2) or /v3/events (3.0) is appended. */
    baseUrl: z.url({ protocol: /^https?$/ }).optional(),
    /** The events resource itself, for carriers whose path does not end in /v2/events or /v3/events. */
    eventsUrl: z.url({ protocol: /^https?$/ }).optional(),
    version: z.enum(['2.2', '3.0']).optional(),
    apiKey: z.string().min(1).optional(),
    apiKeyHeader: z.string().regex(/^[A-Za-z0-9-]+$/, 'must be an HTTP header name').optional(),
    clientId: z.string().min(1).optional(),
    clientSecret: z.string().min(1).optional(),
    /** OAuth2 client-credentials token endpoint; with it clientId/clientSecret fetch bearer tokens. */
    tokenUrl: z.url({ protocol: /^https?$/ }).optional(),
    scope: z.string().min(1).optional(),
    terminalBaseUrl: z.url({ protocol: /^https?$/ }).optional(),
    timeoutMs: z.int().min(100).max(120_000).default(15_000),
    /** At most this many requests a second to the carrier (its published limit); unset: no cap of svc's own. */
    requestsPerSecond: z.number().positive().max(1000).optional(),
  })
  .superRefine((entry, ctx) => {
    const known = catalogueCarrier(entry.scac);
    if (entry.protocol === 'dcsa' && !entry.baseUrl && !entry.eventsUrl && !known?.eventsUrl.value) {
      ctx.addIssue({ code: 'custom', path: ['baseUrl'], message: `required: give baseUrl or eventsUrl (${known ? `the catalogue does not know ${entry.scac}'s endpoint` : `${entry.scac} is not in the carrier catalogue`})` });
    }
    if ((entry.clientId === undefined) !== (entry.clientSecret === undefined)) {
      ctx.addIssue({ code: 'custom', path: [entry.clientId === undefined ? 'clientId' : 'clientSecret'], message: 'clientId and clientSecret go together' });
    }
    const scheme = known?.auth.value?.kind;
    if (entry.clientId !== undefined && !entry.tokenUrl && scheme !== 'oauth2' && scheme !== 'client_headers') {
      ctx.addIssue({ code: 'custom', path: ['tokenUrl'], message: 'required with clientId: the OAuth2 token endpoint (the catalogue has none for this carrier)' });
    }
  });

const carriers = z
  .string()
  .transform((value, ctx) => {
    try {
      return JSON.parse(value) as unknown;
    } catch (err) {
      // Only the position: JSON.parse's message may quote the text around it, an apiKey included.
      const position = /position (\d+)/.exec((err as Error).message)?.[1];
      ctx.addIssue({ code: 'custom', message: `not valid JSON${position ? ` (at character ${position})` : ''}`, input: value });
      return z.NEVER;
    }
  })
  .pipe(z.array(carrierEndpointSchema, 'must be a JSON array of carrier endpoints'));

/** SVC_AIS_FEEDS: host:port items (an IPv6 address in brackets), comma-separated. */
const aisFeeds = list.transform((items, ctx) =>
  items.flatMap((item) => {
    const match = /^(\[[0-9A-Fa-f:.]+\]|[^\s:[\]]+):(\d{1,5})$/.exec(item);
    const port = Number(match?.[2]);
    if (!match || port < 1 || port > 65535) {
      ctx.addIssue({ code: 'custom', message: `"${item}" is not host:port (e.g. 127.0.0.1:10110 or [::1]:10110)`, input: item });
      return [];
    }
    return [{ host: match[1].replace(/^\[(.*)\]$/, '$1'), port }];
  }),
);

const schema = z.object({
  PORT: port.default(8080).describe('HTTP port of the REST API (0: any free port)'),
  HOST: z.string().min(1).default('127.0.0.1').describe('interface the HTTP server binds to (0.0.0.0 for all)'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional()
    .describe('PostgreSQL server to use; when unset svc runs an embedded PostgreSQL in SVC_DATA_DIR'),
  SVC_REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional()
    .describe('Redis server the API processes count rate limits in; when unset: in memory with the embedded PostgreSQL, in PostgreSQL with DATABASE_URL'),
  SVC_DATA_DIR: z.string().min(1).default('./data').describe('folder of the embedded PostgreSQL and other local state'),
  SVC_EMBEDDED_PG_PORT: wholeNumber(1, 65535).default(54329).describe('port of the embedded PostgreSQL (loopback only)'),
  SVC_BOOTSTRAP_API_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_\-.]{20,128}$/, 'must be 20 to 128 characters of letters, digits, _ - .')
    .optional()
    .describe('API key created for the default account at start-up if it does not exist'),
  SVC_PUBLIC_URL: z
    .url()
    .optional()
    .describe('public origin used in absolute links (e.g. https://svc.example.com); default: from the request'),
  SVC_APP_URL: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe('address of the web app in the links svc prints and sends (sign-in links, deep links); https makes its cookies Secure; default: SVC_PUBLIC_URL, else http://localhost:PORT'),
  SVC_OWNER_EMAIL: z
    .string()
    .regex(/^[^\s@]+@[^\s@]+$/, 'must be an e-mail address')
    .default('owner@localhost')
    .describe('e-mail address of the default account\'s first web app user, created at first start with a one-time sign-in link'),
  SVC_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info').describe('least severe level of the JSON log lines written to stdout'),
  SVC_TRUST_PROXY: bool.default(false).describe('trust X-Forwarded-* headers from a reverse proxy'),
  SVC_HTTP_HEADERS_TIMEOUT_MS: wholeNumber(10, 600_000).default(DEFAULT_HTTP_TIMEOUTS.headersMs).describe('how long a client has to send the headers of a request, in milliseconds (then 408)'),
  SVC_HTTP_REQUEST_TIMEOUT_MS: wholeNumber(10, 3_600_000).default(DEFAULT_HTTP_TIMEOUTS.requestMs).describe('how long a client has to send a whole request, body included, in milliseconds (then 408)'),
  SVC_CARRIERS: carriers
    .optional()
    .describe(
      'carriers as a JSON array of {scac, apiKey?, clientId?, clientSecret?, baseUrl?, eventsUrl?, version? ("2.2"|"3.0"), apiKeyHeader?, tokenUrl?, scope?, terminalBaseUrl?, timeoutMs?, requestsPerSecond?, protocol?}; a SCAC of the carrier catalogue (svc carriers list) needs only its credentials; they take precedence over the sandbox',
    ),
  SVC_SANDBOX: bool.default(true).describe('run the sandbox carrier network and track its carriers through it'),
  SVC_SANDBOX_PORT: port.default(8090).describe('port of the sandbox carrier network (loopback only; 0: any free port)'),
  SVC_SANDBOX_AIS_PORT: port
    .default(8091)
    .describe('TCP port of the sandbox AIS feed, NMEA 0183 !AIVDM lines for every sandbox ship (loopback only; 0: any free port); svc reads it when SVC_AIS_FEEDS is unset'),
  SVC_SANDBOX_SPEED: decimalNumber(1, 1_000_000).default(3600).describe('how much faster than real time sandbox journeys run (3600: an hour a second)'),
  SVC_SANDBOX_DIRT: z
    .enum(['realistic', 'none'])
    .default('realistic')
    .describe('how untidily sandbox carriers send their events: realistic (repeats, reissues, carrier spellings, swapped members, offsets in every form, missing places, mistyped IMO numbers) or none'),
  SVC_WORKER_INTERVAL_MS: wholeNumber(50, 3_600_000).default(1000).describe('how often the tracking worker looks for due work, in milliseconds'),
  SVC_WEBHOOK_ALLOW_INSECURE: bool
    .default(false)
    .describe('accept webhook URLs that use plain http or reach loopback, private, link-local or unique-local addresses (development and tests only)'),
  SVC_WEBHOOK_SOURCE_IPS: z
    .string()
    .transform((value, ctx) => {
      const ips = value.split(',').map((ip) => ip.trim()).filter((ip) => ip !== '');
      for (const ip of ips) if (isIP(ip) === 0) ctx.addIssue({ code: 'custom', message: `"${ip}" is not an IPv4 or IPv6 address`, input: value });
      return ips;
    })
    .default([])
    .describe('comma-separated IP addresses webhook deliveries leave from, published at GET /v2/webhooks/ips for receivers to allow-list'),
  SVC_WEBHOOK_TIMEOUT_MS: wholeNumber(100, 120_000).default(10_000).describe('how long a webhook receiver has to answer a delivery, in milliseconds'),
  SVC_WEBHOOK_RETRY_BASE_MS: wholeNumber(10, 3_600_000).default(30_000).describe('wait before the first retry of a failed delivery; each next one doubles (at most 6 h, ±20% jitter, 12 retries)'),
  SVC_WEBHOOK_DEACTIVATE_AFTER_HOURS: decimalNumber(1, 8760).default(72).describe('a webhook whose deliveries have all failed for this long is deactivated'),
  SVC_WEBHOOK_CONCURRENCY: wholeNumber(1, 1000).default(32).describe('webhook deliveries in flight at once per worker'),
  SVC_WEBHOOK_RECEIVER_CONCURRENCY: wholeNumber(1, 1000)
    .default(8)
    .describe("webhook deliveries one webhook may have in flight at once per worker, so a slow or failing receiver holds no more than its share of SVC_WEBHOOK_CONCURRENCY and other accounts' deliveries go on"),
  SVC_DELIVERY_INTERVAL_MS: wholeNumber(10, 60_000).default(1000).describe('how often an idle webhook delivery worker looks for retries that came due, in milliseconds (new notifications wake it at once)'),
  SVC_API_BASE_URL: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe('REST API the client commands (svc track, watch, list, show) and svc mcp talk to; an origin gets /v2; default: this svc, http://127.0.0.1:PORT/v2'),
  SVC_API_TOKEN: z
    .string()
    .regex(/^[\x21-\x7e]{1,512}$/, 'must be visible ASCII characters without blanks')
    .optional()
    .describe('API key of the client commands and of the MCP server when a request carries no Authorization header'),
  SVC_MCP_PORT: port.default(8081).describe('port of the standalone MCP server, svc mcp (svc serve also answers MCP at /mcp on PORT; 0: any free port)'),
  SVC_MCP_HOST: z.string().min(1).default('127.0.0.1').describe('interface svc mcp binds to (0.0.0.0 for all)'),
  SVC_MCP_ALLOWED_HOSTS: list
    .default([])
    .describe('comma-separated Host header values MCP requests may carry (a name, or name:port); default: loopback names when bound to loopback, any otherwise'),
  SVC_MCP_ALLOWED_ORIGINS: list
    .default([])
    .describe('comma-separated Origin header values MCP requests may carry (e.g. https://app.example.com); default: loopback origins; requests without Origin are allowed'),
  SVC_METRICS_PORT: port
    .optional()
    .describe('port of a listener that serves only GET /metrics (Prometheus text format) on SVC_METRICS_HOST; when unset, /metrics is on the API port if SVC_METRICS_TOKEN is set, else nowhere (0: any free port)'),
  SVC_METRICS_HOST: z.string().min(1).default('127.0.0.1').describe('interface the SVC_METRICS_PORT listener binds to (0.0.0.0 for all)'),
  SVC_METRICS_TOKEN: z
    .string()
    .regex(/^[\x21-\x7e]{16,256}$/, 'must be 16 to 256 visible ASCII characters without blanks')
    .optional()
    .describe('bearer token GET /metrics asks for (Authorization: Bearer <token>), wherever it is served'),
  SVC_DOCUMENT_MAX_BYTES: wholeNumber(1, 1_073_741_824).default(26_214_400).describe('largest document svc accepts for upload, in bytes (25 MB by default); a larger one is refused with 413'),
  SVC_DOCUMENT_LINK_SECRET: z
    .string()
    .regex(/^[\x21-\x7e]{32,256}$/, 'must be 32 to 256 visible ASCII characters without blanks')
    .optional()
    .describe('key that signs document download and upload links (HMAC-SHA256); when unset, a random key made once and kept in the database'),
  SVC_DOCUMENT_LINK_TTL_S: wholeNumber(10, 604_800).default(300).describe('how long a document download_url (and a direct-upload URL) stays valid, in seconds'),
  SVC_DOCUMENT_EXTRACT_MEMORY_MB: wholeNumber(128, 65_536)
    .default(512)
    .describe('memory a process reading one document or e-mail may use, in MB; past it the process is stopped and the document fails with this reason'),
  SVC_DOCUMENT_EXTRACT_TIMEOUT_S: wholeNumber(5, 3_600)
    .default(60)
    .describe('time reading one document (text, OCR of its first pages) or parsing one e-mail may take, in seconds; past it the process is stopped and the document fails (the message is refused) with this reason'),
  SVC_SMTP_PORT: port
    .optional()
    .describe('port of the SMTP listener that takes e-mail for <account alias>@SVC_INBOUND_DOMAIN on SVC_SMTP_HOST; unset: no listener (0: any free port)'),
  SVC_SMTP_HOST: z.string().min(1).default('127.0.0.1').describe('interface the SVC_SMTP_PORT listener binds to (0.0.0.0 for all)'),
  SVC_SMTP_MAX_CLIENTS: wholeNumber(1, 10_000)
    .default(20)
    .describe('SMTP sessions the SVC_SMTP_PORT listener holds open at once; one more is answered 421 (try again later) and closed'),
  SVC_SMTP_TLS_KEY: z.string().min(1).optional().describe('PEM file of the private key the SVC_SMTP_PORT listener offers STARTTLS with (with SVC_SMTP_TLS_CERT); unset: no STARTTLS'),
  SVC_SMTP_TLS_CERT: z.string().min(1).optional().describe('PEM file of the certificate (chain) for STARTTLS on the SVC_SMTP_PORT listener (with SVC_SMTP_TLS_KEY)'),
  SVC_INBOUND_DOMAIN: z
    .string()
    .regex(/^[A-Za-z0-9.-]+$/, 'must be a domain name')
    .default('localhost')
    .describe('domain of the accounts\' inbound addresses (<account alias>@SVC_INBOUND_DOMAIN); mail for any other domain is refused'),
  SVC_AIS_FEEDS: aisFeeds
    .default([])
    .describe('comma-separated host:port list of AIS feeds (NMEA 0183 !AIVDM lines over TCP) svc reads vessel positions from; empty: none'),
  SVC_AIS_POSITION_INTERVAL_S: wholeNumber(10, 86_400)
    .default(300)
    .describe('keep a moving vessel\'s AIS position about once per this many seconds (sooner on a turn, a stop or a start; a stopped vessel\'s six times less often)'),
  SVC_AIS_FULL_RESOLUTION_DAYS: wholeNumber(1, 36_500).default(30).describe('AIS positions older than this many days are thinned to one per vessel per hour'),
  SVC_AIS_RETENTION_DAYS: wholeNumber(0, 36_500).default(1095).describe('AIS positions older than this many days are deleted (0: kept for ever)'),
});

export type Config = z.infer<typeof schema>;

export class ConfigError extends Error {}

/** Reads and validates the environment. Empty strings count as unset. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const input: Record<string, string> = {};
  for (const key of Object.keys(schema.shape)) {
    const value = env[key];
    if (value !== undefined && value !== '') input[key] = value;
  }
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

/** The web app's origin in printed links: SVC_APP_URL, else SVC_PUBLIC_URL, else this svc on localhost. */
export function appUrl(config: Pick<Config, 'SVC_APP_URL' | 'SVC_PUBLIC_URL' | 'PORT'>, port = config.PORT): string {
  return new URL(config.SVC_APP_URL ?? config.SVC_PUBLIC_URL ?? `http://localhost:${port}`).origin;
}

/** The REST API the client commands and svc mcp talk to: SVC_API_BASE_URL, else this svc on loopback. */
export function apiBaseUrl(config: Pick<Config, 'SVC_API_BASE_URL' | 'PORT'>): string {
  return config.SVC_API_BASE_URL ?? `http://127.0.0.1:${config.PORT}/v2`;
}

/**
 * The documented variables, for the README table and `svc config`: each with its default and the
 * value in effect in `env` (or why that value is refused; the message never quotes the value).
 */
export function describeConfig(env: NodeJS.ProcessEnv = process.env): { name: string; default: unknown; description: string; value: unknown; problem?: string }[] {
  return Object.entries(schema.shape).map(([name, field]) => {
    const parsed = field.safeParse(undefined);
    const given = field.safeParse(env[name] === '' ? undefined : env[name]);
    return {
      name,
      default: parsed.success ? parsed.data : undefined,
      description: field.description ?? '',
      value: given.success ? given.data : undefined,
      problem: given.success ? undefined : given.error.issues.map((i) => [...i.path, i.message].join(': ')).join('; '),
    };
  });
}
