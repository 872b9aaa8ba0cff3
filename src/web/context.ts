// What every page handler of the web app reads: the services' shared parts and the signed-in user.
import type { SvcClient } from '../../sdk/src/client.ts';
import type { Clock } from '../clock.ts';
import type { Db } from '../store/db.ts';
import type { LiveEventsHub } from '../services/live-events.ts';
import type { WebSession } from '../services/web-sessions.ts';

export interface WebOptions {
  db: Db;
  clock: Clock;
  /**
   * The clock tracking runs on, for "now" beside tracking times ("checked 3 min ago", arriving in
   * N days): the sandbox's accelerated time in demo mode (svc serve), `clock` when not given.
   */
  trackingClock?: Clock;
  /** SVC_APP_URL: the app's public origin for absolute links; an https one makes cookies Secure everywhere. */
  appUrl?: string;
  /**
   * svc's REST API, in memory, as the given account: pages read and write through it (the SDK's
   * methods), so the web app follows every rule of the API without a copy of any.
   */
  clientFor(accountId: string): SvcClient;
  /** The process's live events hub (GET /live); without one, pages do not update themselves. */
  live?: LiveEventsHub;
  /** How often an open shipment page's stream looks for new vessel positions (tests ask often). */
  vesselPositionsEveryMs?: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user's session, when the request carries a live session cookie. */
    webSession?: WebSession;
    /** The CSRF token forms on this page carry (derived from the session's or the visitor cookie's secret). */
    csrfToken: string;
    /** The REST API as the signed-in user's account (WebOptions.clientFor); only on private pages. */
    svc: SvcClient;
  }
}
