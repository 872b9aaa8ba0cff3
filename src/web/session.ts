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

/** A local path to return to after sign-in; anything else (another origin, `//host`) goes home. */
export function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/(?![/\\])/.test(next) && next.length < 2048 ? next : '/shipments';
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
  const back = req.method === 'GET' ? req.url : (req.headers.referer ? new URL(req.headers.referer, 'http://x').pathname : '/');
  return reply.redirect(`/sign-in?next=${encodeURIComponent(safeNext(back))}`, 303);
}

/** The CSRF secret the request's forms were made with (see the onRequest hook). */
export function csrfSecretOf(req: FastifyRequest): string | undefined {
  return req.webSession?.csrf_secret ?? req.cookies[VISITOR_CSRF_COOKIE];
}
