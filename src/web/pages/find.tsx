// The spec's deep link: GET /shipments/find?q=<number> goes to the page the number names
// (src/services/deep-links.ts decides which). A signed-out visitor signs in first and comes back
// here (session.ts keeps the whole address), so the link resolves in the user's own account.
import type { FastifyInstance } from 'fastify';
import { deepLinkPath } from '../../domain/deep-link.ts';
import { resolveDeepLink } from '../../services/deep-links.ts';
import type { WebOptions } from '../context.ts';

export function findRoutes(web: FastifyInstance, options: WebOptions): void {
  web.get('/shipments/find', async (req, reply) => {
    const raw = (req.query as Record<string, unknown>).q;
    const q = (Array.isArray(raw) ? raw[0] : raw) ?? '';
    const target = await resolveDeepLink(options.db, req.webSession!.account_id, String(q));
    // 302: where a number leads changes as shipments are tracked, so no browser may remember it.
    return reply.header('cache-control', 'no-store').redirect(deepLinkPath(target, String(q)), 302);
  });
}
