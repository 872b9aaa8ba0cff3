// The session cookie: read on every web request, set at sign-in, cleared at sign-out. Pages are
// private unless their route says `config: { public: true }`: a visitor without a session is sent
// to sign in and brought back to the page afterwards.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { csrfToken, newCsrfSecret, sessionOfToken } from '../services/web-sessions.ts';
import type { WebOptions } from './context.ts';

export const SESSION_COOKIE = 'svc_session';
/** Before sign-in, forms take their CSRF secret from this cookie (after it, from the session). */
const VISITOR_CSRF_COOKIE = 'svc_csrf';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Served without a session (sign-in, assets). */
    public?: boolean;
  }
}

export function cookieOptions(options: WebOptions, expires?: Date) {
  return {
    path: '/',
    httpOnly: true,
    // Lax, not Strict: a deep link followed from an e-mail or another site must arrive signed in.
    sameSite: 'lax' as const,
    secure: options.appUrl?.startsWith('https:') ? true : ('auto' as const),
    ...(expires ? { expires } : {}),
  };
}

export function setSessionCookie(reply: FastifyReply, options: WebOptions, token: string, expires: Date): void {
  reply.setCookie(SESSION_COOKIE, token, cookieOptions(options, expires));
}

export function clearSessionCookie(reply: FastifyReply, options: WebOptions): void {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(options));
}

const HOME = '/shipments';
/** An origin no request comes from: a path resolved against it that lands elsewhere was not a local path. */
const OWN = new URL('http://svc.invalid');
/** Control characters (which browsers strip, so `/\t/host` is read as `//host`, and which a Location header cannot hold) and backslashes (read as slashes). */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\\]/;

/**
 * A local path to return to after sign-in; anything else (another origin, `//host`, a path with a
 * control character or backslash, one that resolves to `//host`) goes home. The path is given back
 * as the WHATWG URL parser reads it (non-ASCII percent-encoded), so the Location header can hold it.
 */
export function safeNext(next: unknown): string {
  if (typeof next !== 'string' || !next.startsWith('/') || next.length >= 2048 || UNSAFE.test(next)) return HOME;
  const url = parsedUrl(next, OWN);
  if (url?.origin !== OWN.origin) return HOME;
  const local = `${url.pathname}${url.search}${url.hash}`;
  return local.startsWith('//') ? HOME : local;
}

/** `text` read as a URL (against `base`), or undefined where the parser refuses it. */
function parsedUrl(text: string, base?: URL): URL | undefined {
  try {
    return new URL(text, base);
  } catch {
    return undefined;
  }
}

export function sessionHooks(web: FastifyInstance, options: WebOptions): void {
  web.decorateRequest('webSession', undefined);
  web.decorateRequest('csrfToken', '');
  web.decorateRequest('svc', null as never);
  web.addHook('onRequest', async (req, reply) => {
    const token = req.cookies[SESSION_COOKIE];
    if (token) req.webSession = await sessionOfToken(options.db, options.clock, token);
    if (!req.webSession && !req.routeOptions.config?.public) return sendToSignIn(req, reply);
    if (req.webSession) req.svc = options.clientFor(req.webSession.account_id);
    let secret = req.webSession?.csrf_secret ?? req.cookies[VISITOR_CSRF_COOKIE];
    if (!secret) {
      secret = newCsrfSecret();
      reply.setCookie(VISITOR_CSRF_COOKIE, secret, cookieOptions(options));
    }
    req.csrfToken = csrfToken(secret);
  });
}

function sendToSignIn(req: FastifyRequest, reply: FastifyReply) {
  // A form posted after the session ended cannot be replayed; its page can be returned to.
  const back = req.method === 'GET' ? req.url : (parsedUrl(req.headers.referer ?? '/', OWN)?.pathname ?? '/');
  return reply.redirect(`/sign-in?next=${encodeURIComponent(safeNext(back))}`, 303);
}

/** The CSRF secret the request's forms were made with (see the onRequest hook). */
export function csrfSecretOf(req: FastifyRequest): string | undefined {
  return req.webSession?.csrf_secret ?? req.cookies[VISITOR_CSRF_COOKIE];
}
