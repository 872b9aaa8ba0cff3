// GET /live: the signed-in account's changes as server-sent events, for live.js. Each message only
// names what changed (the event, its shipment, container or tracking request); the page fetches
// its new state itself, through the same routes and rules as any page view.
// GET /live?shipment={id}: the same, and also word when a vessel of that shipment (which must be
// the account's, as for its page) has a new position, which no domain event announces.
import type { FastifyInstance } from 'fastify';
import { shipmentVesselsSignal } from '../../services/live-vessels.ts';
import type { WebOptions } from '../context.ts';
import { streamLiveEvents, type LiveWatch } from '../sse.ts';
import { notFoundAsDomain } from './shipment-data.tsx';

/** How often an open shipment page's stream looks for new vessel positions (AIS reports come minutes apart). */
export const VESSEL_POSITIONS_EVERY_MS = 10_000;

/** What a vessel's new position is called on the stream (not a domain event: no webhook sends it). */
export const VESSEL_POSITION_CHANGE = 'vessel.position_updated';

export function liveRoutes(web: FastifyInstance, options: WebOptions): void {
  web.get<{ Querystring: { shipment?: unknown } }>('/live', async (req, reply) => {
    // No hub (live updates off): 204 tells EventSource not to reconnect; pages stay as rendered.
    if (!options.live) return reply.code(204).header('cache-control', 'no-store').send();
    const accountId = req.webSession!.account_id;
    let watch: LiveWatch | undefined;
    if (req.query.shipment !== undefined) {
      // Read through the API as the account, as the page is: another account's shipment is a 404.
      const shipment = await notFoundAsDomain(req.svc.shipments.get(String(req.query.shipment)), 'There is no such shipment in your account.');
      const clock = options.trackingClock ?? options.clock;
      watch = {
        everyMs: options.vesselPositionsEveryMs ?? VESSEL_POSITIONS_EVERY_MS,
        probe: () => shipmentVesselsSignal(options.db, clock, accountId, shipment.id),
        change: { event: VESSEL_POSITION_CHANGE, shipmentId: shipment.id, containerId: null, trackingRequestId: null },
      };
    }
    streamLiveEvents(req, reply, options.live, accountId, { watch });
    return reply;
  });
}
