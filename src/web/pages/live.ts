// GET /live: the signed-in account's changes as server-sent events, for live.js. Each message only
// names what changed (the event, its shipment, container or tracking request); the page fetches
// its new state itself, through the same routes and rules as any page view.
import type { FastifyInstance } from 'fastify';
import type { WebOptions } from '../context.ts';
import { streamLiveEvents } from '../sse.ts';

export function liveRoutes(web: FastifyInstance, options: WebOptions): void {
  web.get('/live', async (req, reply) => {
    // No hub (live updates off): 204 tells EventSource not to reconnect; pages stay as rendered.
    if (!options.live) return reply.code(204).header('cache-control', 'no-store').send();
    streamLiveEvents(req, reply, options.live, req.webSession!.account_id);
    return reply;
  });
}
