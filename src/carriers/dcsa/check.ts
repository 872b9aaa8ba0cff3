// `svc carriers check` for a DCSA carrier: one authenticated events query for a reference that
// exists nowhere, and what each step of it showed, in plain words. No step prints a secret: token
// errors carry the status and the OAuth2 error code only, answers are never quoted.
import type { CheckLine, CheckReport } from '../check-report.ts';
import { endpointOf, type ResolvedCarrier } from '../endpoints.ts';
import type { RequestOutcomes } from '../types.ts';
import { carrierAuth, ClientCredentials } from './auth.ts';
import { DcsaClient } from './client.ts';
import { CarrierAuthError, DcsaUnreachableError, RateLimitedError } from './errors.ts';
import type { HttpAnswer } from './http.ts';
import { readEventPage } from './normalize.ts';
import { RequestGate } from './request-gate.ts';
import { requestOutcome } from './request-outcome.ts';

/** A container number no carrier has issued (SVC is no BIC owner code): the answer should be 404 or empty. */
export const PROBE_REFERENCE = 'SVCU0000000';

export async function checkDcsaCarrier(carrier: ResolvedCarrier, options: { fetch?: typeof fetch; outcomes?: RequestOutcomes } = {}): Promise<CheckReport> {
  const lines: CheckLine[] = [];
  const say = (status: CheckLine['status'], text: string) => void lines.push({ status, text });
  const http = { fetch: options.fetch, timeoutMs: carrier.timeoutMs };
  const endpoint = endpointOf(carrier);
  say('note', `endpoint: ${endpoint} (DCSA ${carrier.version})`);
  if (carrier.missing.length > 0) say('fail', `credentials: ${carrier.missing.join(' and ')} not set in SVC_CARRIERS`);

  const auth = carrierAuth(carrier.credentials, { http });
  if (auth instanceof ClientCredentials && carrier.credentials.kind === 'oauth2') {
    const tokenUrl = carrier.credentials.tokenUrl;
    try {
      await auth.token();
      say('ok', `token: ${tokenUrl} gave a bearer token`);
    } catch (error) {
      // The token is fetched here, before the client's request, to name the step: its failure is the carrier's too.
      options.outcomes?.(requestOutcome(new Date(), undefined, error, 0));
      say('fail', `token: ${error instanceof CarrierAuthError ? tokenFailure(error) : String(error)}`);
      return { ok: false, lines };
    }
  }

  // No waiting on a carrier's Retry-After here: a check says so instead.
  const client = new DcsaClient({ baseUrl: carrier.baseUrl, eventsUrl: carrier.eventsUrl, version: carrier.version, timeoutMs: carrier.timeoutMs, fetch: options.fetch, auth, gate: new RequestGate({ maxWaitMs: 0 }), outcomes: options.outcomes });
  let answer: HttpAnswer;
  try {
    answer = await client.probe({ equipmentReference: PROBE_REFERENCE });
  } catch (error) {
    if (error instanceof DcsaUnreachableError) say('fail', unreachable(error, new URL(endpoint)));
    else if (error instanceof RateLimitedError) say('fail', `rate limited: ${error.message}`);
    else say('fail', `events query: ${error instanceof Error ? error.message : String(error)}`);
    return { ok: false, lines };
  }
  const url = new URL(endpoint);
  say('ok', `connect: ${url.host} answered${url.protocol === 'https:' ? ' over TLS (certificate accepted)' : ''}`);
  readAnswer(answer, carrier, say);
  apiVersion(answer, carrier, say);
  return { ok: !lines.some((l) => l.status === 'fail'), lines };
}

function readAnswer(answer: HttpAnswer, carrier: ResolvedCarrier, say: (status: CheckLine['status'], text: string) => void): void {
  const { status } = answer;
  const asked = `events query for the made-up container ${PROBE_REFERENCE}`;
  if (status === 401 || status === 403) {
    say('fail', `authentication: refused (HTTP ${status}); check the ${carrier.credentials.kind === 'none' ? 'credentials (none are configured)' : 'configured credentials'}`);
  } else if (status === 404) {
    say('ok', `authentication: accepted`);
    say('ok', `${asked}: HTTP 404 (no such container), as expected`);
  } else if (status === 400) {
    say('ok', `authentication: accepted`);
    say('ok', `${asked}: HTTP 400 (the carrier refuses the made-up reference), so the endpoint reads queries`);
  } else if (status === 429) {
    say('fail', `rate limited: HTTP 429${answer.headers.get('retry-after') ? `, Retry-After ${answer.headers.get('retry-after')}` : ''}`);
  } else if (status >= 200 && status <= 299) {
    say('ok', `authentication: accepted`);
    try {
      const { received } = readEventPage(JSON.parse(answer.body), carrier.version);
      say('ok', `${asked}: HTTP ${status}, ${received} event${received === 1 ? '' : 's'}, in DCSA ${carrier.version}'s shape`);
    } catch {
      say('fail', `${asked}: HTTP ${status}, but the body is not DCSA ${carrier.version} events (wrong version or endpoint?)`);
    }
  } else {
    say('fail', `${asked}: HTTP ${status}`);
  }
}

/** DCSA asks every answer to carry API-Version; a different major version means svc reads the wrong shape. */
function apiVersion(answer: HttpAnswer, carrier: ResolvedCarrier, say: (status: CheckLine['status'], text: string) => void): void {
  const header = answer.headers.get('api-version');
  if (!header) return say('note', 'API-Version header: not sent (DCSA asks for it; svc does not need it)');
  const major = header.trim().split('.')[0];
  if (major === carrier.version.split('.')[0]) say('ok', `API-Version header: ${header}, as configured (${carrier.version})`);
  else say('fail', `API-Version header: ${header}, but svc is set up for DCSA ${carrier.version} (set "version" in SVC_CARRIERS)`);
}

function tokenFailure(error: CarrierAuthError): string {
  const refused = error.status !== undefined && error.status >= 400 && error.status < 500 && error.status !== 429;
  return refused ? `${error.message}: the token endpoint refused clientId/clientSecret` : error.message;
}

const DNS = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME']);
const CONNECT = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_SOCKET', 'EPIPE']);

/** Which step failed: name resolution, the connection, TLS, or the answer's time. */
function unreachable(error: DcsaUnreachableError, url: URL): string {
  const code = errorCode(error);
  if (code && DNS.has(code)) return `DNS: ${url.hostname} does not resolve (${code})`;
  if (code && CONNECT.has(code)) return `connect: ${url.host} refused or dropped the connection (${code})`;
  if (code && /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_OSSL/.test(code)) return `TLS: ${url.host}'s certificate or handshake was refused (${code})`;
  return `connect: ${error.message}`;
}

function errorCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if ('code' in e && typeof e.code === 'string') return e.code;
  }
  const named = /\b(E[A-Z_]{3,}|UND_ERR_[A-Z_]+|[A-Z_]*CERT[A-Z_]*)\b/.exec(error instanceof Error ? error.message : '');
  return named?.[1];
}
