// Every environment variable svc reads, validated once at start-up.
// A bad value stops start-up with a message that names the variable.
import { isIP } from 'node:net';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const port = z.coerce.number().int().min(0).max(65535);

const schema = z.object({
  PORT: port.default(8080).describe('HTTP port of the REST API'),
  HOST: z.string().min(1).default('127.0.0.1').describe('interface the HTTP server binds to (0.0.0.0 for all)'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional()
    .describe('PostgreSQL server to use; when unset svc runs an embedded PostgreSQL in SVC_DATA_DIR'),
  SVC_DATA_DIR: z.string().min(1).default('./data').describe('folder of the embedded PostgreSQL and other local state'),
  SVC_EMBEDDED_PG_PORT: port.default(54329).describe('port of the embedded PostgreSQL (loopback only)'),
  SVC_BOOTSTRAP_API_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_\-.]{20,128}$/, 'must be 20 to 128 characters of letters, digits, _ - .')
    .optional()
    .describe('API key created for the default account at start-up if it does not exist'),
  SVC_PUBLIC_URL: z
    .url()
    .optional()
    .describe('public origin used in absolute links (e.g. https://svc.example.com); default: from the request'),
  SVC_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info').describe('least severe level of the JSON log lines written to stdout'),
  SVC_TRUST_PROXY: bool.default(false).describe('trust X-Forwarded-* headers from a reverse proxy'),
  SVC_CARRIERS: z
    .string()
    .optional()
    .describe('carrier endpoints as a JSON array of {scac, baseUrl, version ("2.2"|"3.0"), apiKey?, apiKeyHeader?, terminalBaseUrl?}; they take precedence over the sandbox'),
  SVC_SANDBOX: bool.default(true).describe('run the sandbox carrier network and track its carriers through it'),
  SVC_SANDBOX_PORT: port.default(8090).describe('port of the sandbox carrier network (loopback only)'),
  SVC_SANDBOX_SPEED: z.coerce.number().min(1).max(1_000_000).default(3600).describe('how much faster than real time sandbox journeys run (3600: an hour a second)'),
  SVC_WORKER_INTERVAL_MS: z.coerce.number().int().min(50).max(3_600_000).default(1000).describe('how often the tracking worker looks for due work, in milliseconds'),
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
  SVC_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000).describe('how long a webhook receiver has to answer a delivery, in milliseconds'),
  SVC_WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(10).max(3_600_000).default(30_000).describe('wait before the first retry of a failed delivery; each next one doubles (at most 6 h, ±20% jitter, 12 retries)'),
  SVC_WEBHOOK_DEACTIVATE_AFTER_HOURS: z.coerce.number().min(1).max(8760).default(72).describe('a webhook whose deliveries have all failed for this long is deactivated'),
  SVC_WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(32).describe('webhook deliveries in flight at once per worker'),
  SVC_DELIVERY_INTERVAL_MS: z.coerce.number().int().min(10).max(60_000).default(200).describe('how often the webhook delivery worker looks for due notifications when idle, in milliseconds'),
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

/** The documented variables, for the README table and `svc config`. */
export function describeConfig(): { name: string; default: unknown; description: string }[] {
  return Object.entries(schema.shape).map(([name, field]) => {
    const parsed = field.safeParse(undefined);
    return {
      name,
      default: parsed.success ? parsed.data : undefined,
      description: field.description ?? '',
    };
  });
}
