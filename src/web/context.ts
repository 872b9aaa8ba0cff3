// What every page handler of the web app reads: the services' shared parts and the signed-in user.
import type { Clock } from '../clock.ts';
import type { Db } from '../store/db.ts';
import type { WebSession } from '../services/web-sessions.ts';

export interface WebOptions {
  db: Db;
  clock: Clock;
  /** SVC_APP_URL: the app's public origin for absolute links; an https one makes cookies Secure everywhere. */
  appUrl?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user's session, when the request carries a live session cookie. */
    webSession?: WebSession;
    /** The CSRF token forms on this page carry (derived from the session's or the visitor cookie's secret). */
    csrfToken: string;
  }
}
