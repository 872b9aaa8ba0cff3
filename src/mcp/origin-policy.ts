// Which Host and Origin headers an MCP request may carry. A web page can make a browser send
// requests to a server on the user's own machine (DNS rebinding: a hostile name resolving to
// 127.0.0.1), so a server bound to loopback answers only loopback names unless told otherwise,
// and browsers only from loopback pages unless origins are listed.
import { memoize } from '../domain/memoize.ts';

export interface OriginPolicyOptions {
  /** The address the server listens on (HOST or SVC_MCP_HOST). */
  boundHost: string;
  /** SVC_MCP_ALLOWED_HOSTS: `name` (any port) or `name:port`; empty for the default. */
  allowedHosts: string[];
  /** SVC_MCP_ALLOWED_ORIGINS: `scheme://name[:port]`, or `*` for any; empty for loopback origins. */
  allowedOrigins: string[];
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether an address to listen on is loopback only (0.0.0.0 and :: are not). */
export function isLoopbackAddress(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** `Example.com:8081` → { name: 'example.com', port: '8081' }; IPv6 keeps its brackets. */
function splitHost(host: string): { name: string; port?: string } {
  const m = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(host.trim().toLowerCase());
  return m ? { name: m[1], port: m[2] || undefined } : { name: host.toLowerCase() };
}

// Every request of a client carries the same Host: each is split once (bounded: clients choose them).
const splitHostOf = memoize(splitHost, 1_000);

const normaliseOrigin = (origin: string) => origin.trim().toLowerCase().replace(/\/+$/, '');

export class OriginPolicy {
  private readonly loopbackOnly: boolean;
  private readonly hosts: { name: string; port?: string }[];
  private readonly origins: Set<string>;

  constructor(options: OriginPolicyOptions) {
    this.loopbackOnly = isLoopbackAddress(options.boundHost);
    this.hosts = options.allowedHosts.map(splitHost);
    this.origins = new Set(options.allowedOrigins.map(normaliseOrigin));
  }

  hostAllowed(host: string | undefined): boolean {
    if (host === undefined || host === '') return this.hosts.length === 0 && !this.loopbackOnly;
    const given = splitHostOf(host);
    if (this.hosts.length > 0) return this.hosts.some((h) => h.name === given.name && (h.port === undefined || h.port === given.port));
    return !this.loopbackOnly || LOOPBACK_NAMES.has(given.name);
  }

  /** Requests without Origin (anything but a browser) pass. */
  originAllowed(origin: string | undefined): boolean {
    if (origin === undefined) return true;
    if (this.origins.size > 0) return this.origins.has('*') || this.origins.has(normaliseOrigin(origin));
    try {
      const url = new URL(origin);
      return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_NAMES.has(url.hostname);
    } catch {
      return false; // `null` (a sandboxed page, a file) and other non-URLs
    }
  }
}
