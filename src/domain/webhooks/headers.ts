// Custom headers a webhook sends with every delivery: which names and values svc accepts.

export interface WebhookHeader {
  name: string;
  value: string;
}

export const MAX_WEBHOOK_HEADERS = 20;

/**
 * Names a webhook may not set, lower-case: hop-by-hop headers (they describe one connection, and
 * the HTTP client refuses several of them) and the headers svc writes itself on every delivery.
 */
export const RESERVED_WEBHOOK_HEADERS: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'expect',
  'host',
  'content-type',
  'content-length',
  'x-svc-webhook-signature',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
]);

// RFC 9110 token characters.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Printable ASCII, space and tab: what every HTTP client sends unaltered.
const FIELD_VALUE = /^[\t\x20-\x7e]*$/;

/** Why `name` cannot be a custom header name, or undefined when it can. */
export function headerNameProblem(name: string): string | undefined {
  if (!TOKEN.test(name)) return `"${name.slice(0, 100)}" is not a valid HTTP header name (letters, digits and !#$%&'*+-.^_\`|~ only).`;
  if (RESERVED_WEBHOOK_HEADERS.has(name.toLowerCase())) return `${name} is a header svc sets itself or a hop-by-hop header; it cannot be customised.`;
  return undefined;
}

/** Why `value` cannot be a header value, or undefined when it can. */
export function headerValueProblem(value: string): string | undefined {
  if (!FIELD_VALUE.test(value)) return 'A header value may hold printable ASCII characters, spaces and tabs only (no line breaks or control characters).';
  return undefined;
}
