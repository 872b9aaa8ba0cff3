// How requests to a carrier are authenticated: the headers each one carries. An OAuth2
// client-credentials token (RFC 6749 §4.4) is fetched once, shared by every request until shortly
// before it expires, and fetched again early when the carrier refuses it (a 401: revoked, or its
// clock runs ahead of ours). Other protocols' connectors may use these too.
import { z } from 'zod';
import type { Credentials } from '../endpoints.ts';
import { CarrierAuthError, DcsaUnreachableError } from './errors.ts';
import { exchange, type HttpSettings } from './http.ts';

export interface CarrierAuth {
  /** Headers of the next request (fetching a token first when needed). */
  headers(): Promise<Record<string, string>>;
  /** Forgets a token the carrier refused; true when there was one to forget (a retry may help). */
  renew(): boolean;
}

const NO_HEADERS: CarrierAuth = { headers: async () => ({}), renew: () => false };

/** An answer of the token endpoint (RFC 6749 §5.1); expires_in arrives as a string from some servers. */
const tokenAnswer = z.object({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  expires_in: z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]).optional(),
});

/** Lifetime assumed when the token endpoint does not say (RFC 6749 makes expires_in optional). */
const ASSUMED_LIFETIME_S = 300;

export interface AuthOptions {
  http: HttpSettings;
  /** Milliseconds since the epoch; real time, not the tracking clock: tokens expire on the carrier's watch. */
  now?: () => number;
}

export function carrierAuth(credentials: Credentials, options: AuthOptions): CarrierAuth {
  switch (credentials.kind) {
    case 'none':
      return NO_HEADERS;
    case 'api_key':
      return { headers: async () => ({ [credentials.header]: credentials.key }), renew: () => false };
    case 'client_headers':
      return { headers: async () => ({ [credentials.idHeader]: credentials.clientId, [credentials.secretHeader]: credentials.clientSecret }), renew: () => false };
    case 'oauth2':
      return new ClientCredentials(credentials, options);
  }
}

type OAuth2 = Extract<Credentials, { kind: 'oauth2' }>;

export class ClientCredentials implements CarrierAuth {
  readonly #credentials: OAuth2;
  readonly #http: HttpSettings;
  readonly #now: () => number;
  #token: { value: string; renewAt: number } | undefined;
  /** The fetch under way: concurrent requests wait for one token rather than each asking for its own. */
  #pending: Promise<string> | undefined;

  constructor(credentials: OAuth2, options: AuthOptions) {
    this.#credentials = credentials;
    this.#http = options.http;
    this.#now = options.now ?? Date.now;
  }

  async headers(): Promise<Record<string, string>> {
    const token = await this.token();
    const { clientIdHeader, clientId } = this.#credentials;
    return { authorization: `Bearer ${token}`, ...(clientIdHeader ? { [clientIdHeader]: clientId } : {}) };
  }

  renew(): boolean {
    const had = this.#token !== undefined;
    this.#token = undefined;
    return had;
  }

  /** The cached token, or a new one. */
  token(): Promise<string> {
    if (this.#token && this.#now() < this.#token.renewAt) return Promise.resolve(this.#token.value);
    this.#pending ??= this.#fetch().finally(() => (this.#pending = undefined));
    return this.#pending;
  }

  async #fetch(): Promise<string> {
    const { tokenUrl, clientId, clientSecret, scope } = this.#credentials;
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret });
    if (scope) form.set('scope', scope);
    const url = new URL(tokenUrl);
    const asked = this.#now();
    // Credentials in the body (RFC 6749 §2.3.1's alternative to Basic): what the carriers' gateways
    // in the catalogue take; sending both ways at once is refused by some servers.
    const answer = await exchange(this.#http, url, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    }).catch((error: unknown) => {
      throw error instanceof DcsaUnreachableError ? new CarrierAuthError(`token endpoint ${url.origin}${url.pathname}: ${error.message}`, { temporary: true, cause: error }) : error;
    });
    const where = `token endpoint ${url.origin}${url.pathname}`;
    if (answer.status < 200 || answer.status > 299) {
      // 4xx: the credentials (or the scope) are wrong, and asking again will not help.
      const temporary = answer.status === 429 || answer.status >= 500;
      throw new CarrierAuthError(`${where}: HTTP ${answer.status}${oauthError(answer.body)}`, { temporary, status: answer.status });
    }
    let parsed: z.infer<typeof tokenAnswer>;
    try {
      parsed = tokenAnswer.parse(JSON.parse(answer.body));
    } catch {
      throw new CarrierAuthError(`${where}: HTTP ${answer.status} without an access_token`, { temporary: true, status: answer.status });
    }
    const lifetimeMs = (parsed.expires_in ?? ASSUMED_LIFETIME_S) * 1000;
    // Renewed a little early (a tenth of its life, at most a minute) so no request carries a token
    // that expires on its way.
    this.#token = { value: parsed.access_token, renewAt: asked + lifetimeMs - Math.min(60_000, lifetimeMs / 10) };
    return parsed.access_token;
  }
}

/** The RFC 6749 §5.2 error code of a refusal, if any; never the body itself, which may echo what was sent. */
function oauthError(body: string): string {
  try {
    const error = (JSON.parse(body) as { error?: unknown }).error;
    return typeof error === 'string' && /^[\x20-\x7e]{1,64}$/.test(error) ? ` (${error})` : '';
  } catch {
    return '';
  }
}
