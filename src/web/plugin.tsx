// The web app: server-rendered pages on svc's own port, for people rather than programs. It is a
// face over the same services as the REST API, signed in with a session cookie instead of a key.
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, LimitExceeded, NotFound } from '../domain/errors.ts';
import { isDatabaseUnavailable } from '../store/database-unavailable.ts';
import type { WebOptions } from './context.ts';
import { csrfHooks } from './csrf.ts';
import { ErrorPage } from './pages/errors.tsx';
import { findRoutes } from './pages/find.tsx';
import { liveRoutes } from './pages/live.ts';
import { passwordRoutes } from './pages/password.tsx';
import { settingsApiKeysRoutes } from './pages/settings-api-keys.tsx';
import { settingsNotificationsRoutes } from './pages/settings-notifications.tsx';
import { settingsWebhooksRoutes } from './pages/settings-webhooks.tsx';
import { shipmentRoutes } from './pages/shipment.tsx';
import { shipmentsRoutes } from './pages/shipments.tsx';
import { signInRoutes } from './pages/sign-in.tsx';
import { trackRoutes } from './pages/track.tsx';
import { trackingRequestsRoutes } from './pages/tracking-requests.tsx';
import { sendPage } from './render.tsx';
import { sessionHooks } from './session.ts';

/** Each page module registers its routes; listed here so the app's pages can be read in one place. */
const PAGES: ((web: FastifyInstance, options: WebOptions) => void)[] = [
  signInRoutes,
  passwordRoutes,
  findRoutes,
  shipmentsRoutes,
  shipmentRoutes,
  settingsApiKeysRoutes,
  settingsWebhooksRoutes,
  settingsNotificationsRoutes,
  trackRoutes,
  trackingRequestsRoutes,
  liveRoutes,
];

/** Form posts are small: a number, a few reference numbers, a webhook URL. */
const FORM_BODY_LIMIT = 64 * 1024;

export async function webApp(web: FastifyInstance, options: WebOptions): Promise<void> {
  await web.register(cookie);
  await web.register(formbody, { bodyLimit: FORM_BODY_LIMIT });
  sessionHooks(web, options);
  csrfHooks(web, options);
  web.setErrorHandler((err: FastifyError | DomainError, req, reply) => sendError(req, reply, err));

  web.get('/', async (_req, reply) => reply.redirect('/shipments', 303));
  for (const register of PAGES) register(web, options);
}

function sendError(req: FastifyRequest, reply: FastifyReply, err: FastifyError | DomainError) {
  if (err instanceof NotFound) return sendNotFoundPage(req, reply, err.detail);
  if (err instanceof LimitExceeded) {
    if (err.retryAfterMs) reply.header('retry-after', String(Math.ceil(err.retryAfterMs / 1000)));
    return sendPage(reply, <ErrorPage req={req} title="Too many attempts" detail={err.detail} />, 429);
  }
  if (isDatabaseUnavailable(err)) {
    reply.header('retry-after', '5');
    return sendPage(reply, <ErrorPage req={req} title="svc is restarting its database" detail="Please try again in a few seconds." />, 503);
  }
  const status = 'statusCode' in err && err.statusCode && err.statusCode >= 400 ? err.statusCode : err instanceof DomainError ? 422 : 500;
  if (status >= 500) {
    req.log.error({ err }, 'web page failed');
    return sendPage(reply, <ErrorPage req={req} title="Something went wrong" detail={`svc could not show this page (request ${req.id}).`} />, status);
  }
  const title = status === 403 ? 'Not allowed' : 'That did not work';
  return sendPage(reply, <ErrorPage req={req} title={title} detail={err.message} />, status);
}

export function sendNotFoundPage(req: FastifyRequest, reply: FastifyReply, detail = 'There is no page at this address.') {
  return sendPage(reply, <ErrorPage req={req} title="Not found" detail={detail} />, 404);
}
