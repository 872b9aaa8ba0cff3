// Which URLs svc will POST webhook deliveries to. A webhook URL must be https and reach a public
// address: svc refuses to be pointed at itself, at its database or at anything else on a private
// network (server-side request forgery). `allowInsecure` (SVC_WEBHOOK_ALLOW_INSECURE) lifts both
// rules for development and tests, where receivers listen on http://127.0.0.1.
//
// The same check runs when a webhook is saved and again before each delivery: a name that
// resolved to a public address yesterday may resolve to a private one today. A delivery should
// connect to one of the `addresses` the check returns, so the name is not looked up a second time.
import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address of a host name (node's dns.lookup with `all: true`). */
export type HostLookup = (hostname: string) => Promise<ResolvedAddress[]>;

export interface UrlPolicyOptions {
  /** Accept http: and loopback, private, link-local and unique-local targets. */
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
  /** The host is, or resolves to, a loopback, private or otherwise non-public address. */
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

// Addresses no webhook may reach unless insecure targets are allowed. Node's BlockList applies
// the IPv4 rules to IPv4-mapped IPv6 addresses (::ffff:127.0.0.1) as well.
const nonPublic = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"; 0.0.0.0 reaches the local host
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT, used inside some clouds
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata services
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  nonPublic.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 96], // unspecified, loopback and IPv4-compatible addresses
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  nonPublic.addSubnet(network, prefix, 'ipv6');
}

/** True for an IP address a webhook may reach without `allowInsecure`. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/%.*$/, ''); // a zone index (fe80::1%eth0)
  const family = isIP(bare);
  if (family === 0) return false;
  return !nonPublic.check(bare, family === 4 ? 'ipv4' : 'ipv6');
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

/** The operating system's resolver, every address of a name. */
export const systemLookup: HostLookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

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
    if (!options.allowInsecure && !isPublicAddress(host)) {
      return fail('non_public_address', `The URL's host ${host} is a loopback, private or otherwise non-public address${insecureHint}.`);
    }
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
    if (bad) return fail('non_public_address', `The URL's host ${host} resolves to ${bad}, a loopback, private or otherwise non-public address${insecureHint}.`);
  }
  return { ok: true, url, addresses };
}
