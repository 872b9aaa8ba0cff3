// Every state-changing request of the web app proves it comes from one of svc's own pages: the
// form's hidden `_csrf` token must match the session's secret, and an Origin header, when the
// browser sends one, must be svc's own.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { csrfTokenMatches } from '../services/web-sessions.ts';
import type { WebOptions } from './context.ts';
import { csrfSecretOf } from './session.ts';

export class CsrfRefused extends Error {
  readonly statusCode = 403;
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

export function csrfHooks(web: FastifyInstance, options: WebOptions): void {
  const appOrigin = options.appUrl ? new URL(options.appUrl).origin : undefined;
  web.addHook('preHandler', async (req) => {
    if (SAFE.has(req.method)) return;
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== appOrigin && origin !== `${req.protocol}://${req.host}`) {
      throw new CsrfRefused(`This form was sent from another site (${origin}); svc accepts forms only from its own pages.`);
    }
    const secret = csrfSecretOf(req);
    const token = formField(req, '_csrf');
    if (!secret || !token || !csrfTokenMatches(secret, token)) {
      throw new CsrfRefused('This form has expired or did not come from svc. Reload the page and send it again.');
    }
  });
}

/** A text field of a posted form (the last one when a name repeats). */
export function formField(req: FastifyRequest, name: string): string | undefined {
  const body = req.body as Record<string, string | string[] | undefined> | undefined;
  const value = body?.[name];
  return Array.isArray(value) ? value.at(-1) : value;
}
