// Which URLs svc will POST webhook deliveries to. A webhook URL must be https and reach a public
// address: svc refuses to be pointed at itself, at its database or at anything else on a private
// network (server-side request forgery). `allowInsecure` (SVC_WEBHOOK_ALLOW_INSECURE) lifts both
// rules for development and tests, where receivers listen on http://127.0.0.1.
//
// The same check runs when a webhook is saved and again before each delivery: a name that
// resolved to a public address yesterday may resolve to a private one today. A delivery should
// connect to one of the `addresses` the check returns, so the name is not looked up a second time.
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address of a host name (node's dns.lookup with `all: true`). */
export type HostLookup = (hostname: string) => Promise<ResolvedAddress[]>;

export interface UrlPolicyOptions {
  /** Accept http: and special-purpose targets (loopback, private, link-local, …). */
  allowInsecure: boolean;
  /** Defaults to the operating system's resolver; tests pass their own. */
  lookup?: HostLookup;
  /** How long a lookup may take before the host counts as unresolvable (default 5 s). */
  lookupTimeoutMs?: number;
}

export type UrlProblem =
  /** Not an absolute http(s) URL, or it carries a user name or password. */
  | 'malformed'
  /** http: while insecure URLs are not allowed. */
  | 'insecure_scheme'
  /** The host is, or resolves to, a special-purpose (loopback, private, NAT64, …) address. */
  | 'non_public_address'
  /** The host name has no address (or the resolver did not answer). */
  | 'unresolvable';

export type UrlCheck =
  | { ok: true; url: URL; addresses: string[] }
  | {
      ok: false;
      problem: UrlProblem;
      /** A sentence for the API's error detail or a delivery log. */
      reason: string;
      /** The resolver failed in a way that may pass (a delivery may retry later). */
      temporary?: boolean;
    };

const fail = (problem: UrlProblem, reason: string, temporary?: boolean): UrlCheck => ({ ok: false, problem, reason, ...(temporary ? { temporary } : {}) });

// Addresses no webhook may reach unless insecure targets are allowed: everything but ordinary
// unicast. ipaddr.js names the ranges of IANA's special-purpose registries (loopback, private,
// link-local, CGNAT, multicast, documentation, benchmarking, NAT64, 6to4, Teredo, unique-local,
// IPv4-mapped and -translated, …) and calls the rest "unicast". For IPv6 only 2000::/3 is global
// unicast (IANA's IPv6 address space); the rest, IPv4-compatible ::/96 included, is reserved.
// Forms that embed an IPv4 address are refused whatever they embed: svc has no reason to reach a
// public host through a translator, and the embedded address is where such a packet goes.
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** The special-purpose range an IP address lies in, or undefined for an ordinary public address. */
export function specialRange(address: string): string | undefined {
  const bare = address.replace(/%.*$/, ''); // a zone index (fe80::1%eth0)
  if (isIP(bare) === 0) return 'not an IP address';
  const parsed = ipaddr.parse(bare);
  const range = parsed.range();
  if (range !== 'unicast') return range;
  if (parsed.kind() === 'ipv6' && !parsed.match(GLOBAL_UNICAST_V6)) return 'reserved';
  return undefined;
}

/** True for an IP address a webhook may reach without `allowInsecure`. */
export function isPublicAddress(address: string): boolean {
  return specialRange(address) === undefined;
}

const isLocalhostName = (host: string) => host === 'localhost' || host.endsWith('.localhost');

/**
 * The checks that need neither options nor the network: an absolute http(s) URL with a host and
 * without credentials. Returns the reason it fails, or undefined.
 */
export function urlFormProblem(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'The URL is not a valid absolute URL.';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `The URL must use https, not ${url.protocol.replace(/:$/, '')}.`;
  if (url.username !== '' || url.password !== '') return 'The URL must not contain a user name or password; send credentials in a custom header instead.';
  if (url.hostname === '') return 'The URL has no host.';
  return undefined;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error('lookup timed out'), { code: 'ETIMEOUT' })), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// RFC 6761: names under .invalid never resolve, so they are answered here, not sent to a DNS server.
const isInvalidName = (host: string) => /(^|\.)invalid\.?$/i.test(host);

/** The operating system's resolver, every address of a name. */
export const systemLookup: HostLookup = async (hostname) => {
  if (isInvalidName(hostname)) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return dnsLookup(hostname, { all: true, verbatim: true });
};

const insecureHint = ' (allowed only when SVC_WEBHOOK_ALLOW_INSECURE=true)';

/** Decides whether svc may deliver to `raw`, resolving its host name unless it is an IP address. */
export async function checkWebhookUrl(raw: string, options: UrlPolicyOptions): Promise<UrlCheck> {
  const form = urlFormProblem(raw);
  if (form) return fail('malformed', form);
  const url = new URL(raw);
  if (url.protocol === 'http:' && !options.allowInsecure) return fail('insecure_scheme', `The URL must use https; plain http is not accepted${insecureHint}.`);

  // WHATWG URL parsing has already lower-cased the host and normalised IPv4 forms (2130706433,
  // 0x7f.1 → 127.0.0.1); IPv6 literals keep their brackets.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  if (isIP(host) !== 0) {
    const range = options.allowInsecure ? undefined : specialRange(host);
    if (range) return fail('non_public_address', `The URL's host ${host} is a non-public, special-purpose address (${range})${insecureHint}.`);
    return { ok: true, url, addresses: [host] };
  }
  if (!options.allowInsecure && isLocalhostName(host)) {
    return fail('non_public_address', `The URL's host ${host} names this machine${insecureHint}.`);
  }

  let resolved: ResolvedAddress[];
  try {
    resolved = await withTimeout((options.lookup ?? systemLookup)(host), options.lookupTimeoutMs ?? 5000);
  } catch (err) {
    const code = (err as { code?: string }).code;
    const permanent = code === 'ENOTFOUND' || code === 'ENODATA' || code === 'EAI_NONAME';
    return fail('unresolvable', permanent ? `The URL's host ${host} does not resolve to any address.` : `The URL's host ${host} could not be resolved (${code ?? 'lookup failed'}).`, !permanent);
  }
  const addresses = resolved.map((r) => r.address);
  if (addresses.length === 0) return fail('unresolvable', `The URL's host ${host} does not resolve to any address.`);
  if (!options.allowInsecure) {
    const bad = addresses.find((a) => !isPublicAddress(a));
    if (bad) return fail('non_public_address', `The URL's host ${host} resolves to ${bad}, a non-public, special-purpose address (${specialRange(bad)})${insecureHint}.`);
  }
  return { ok: true, url, addresses };
}
