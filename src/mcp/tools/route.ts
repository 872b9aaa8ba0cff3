// get_container_route: the multi-leg route of a container from GET /containers/{id}/route (a paid
// feature in the reference service). Where the route cannot be had (the feature is off for the
// account, or the ports are not known yet), the answer says so and names the tool that can answer
// most route questions instead, rather than failing the call.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { FeatureNotEnabledError, NotFoundError, type SvcClient } from '../../../sdk/src/index.ts';
import { routeLegs, routeLegSchema, routeStops, routeStopSchema, stopReached } from '../views/route.ts';
import { defineTool, idParam } from './define.ts';
import { noContainer } from './containers.ts';

const ALTERNATIVE = 'get_container_transport_events';

export function registerRouteTool(server: McpServer, client: SvcClient): void {
  defineTool(server, 'get_container_route', {
    title: 'Container route',
    description:
      "A container's multi-leg route: each port (loading, transshipments, discharge) with estimated and actual arrival and departure times, and the vessel of each leg; " +
      'every planned port and leg is listed from the booking on, each leg marked done, under_way or planned. ' +
      'Routing data may not be available for the account; the answer then says so and points to get_container_transport_events, which covers the journey so far.',
    input: { id: idParam('container') },
    output: {
      containerId: z.string(),
      available: z.boolean().describe('false: see error, message and alternative'),
      error: z.enum(['FeatureNotEnabled', 'NotAvailable']).optional(),
      message: z.string().optional(),
      alternative: z.literal(ALTERNATIVE).optional(),
      stops: z.array(routeStopSchema).optional(),
      legs: z.array(routeLegSchema).optional(),
    },
    notFound: noContainer,
    async run({ id }) {
      const unavailable = (error: 'FeatureNotEnabled' | 'NotAvailable', message: string) => ({
        summary: `${message} Use ${ALTERNATIVE} instead.`,
        data: { containerId: id, available: false, error, message, alternative: ALTERNATIVE } as const,
      });
      let doc: Parameters<typeof routeStops>[0];
      try {
        doc = await client.containers.route(id, { include: 'port,vessel,route_location' });
      } catch (err) {
        if (err instanceof FeatureNotEnabledError) return unavailable('FeatureNotEnabled', `Routing data is not enabled for this account (${err.errors[0]?.detail ?? 'HTTP 403'}).`);
        if (!(err instanceof NotFoundError)) throw err;
        // A 404 is either "no such container" or "no route here" (an svc older than the route
        // endpoint): the container itself decides.
        await client.containers.get(id);
        const noRoute = err.errors.some((e) => e.code === 'route_not_found');
        return unavailable('NotAvailable', noRoute ? 'This svc does not serve route data yet.' : 'svc has no route data for this container yet.');
      }
      const stops = routeStops(doc);
      if (stops.length === 0) return unavailable('NotAvailable', 'svc has no route data for this container yet.');
      const legs = routeLegs(stops);
      const ports = stops.map((s) => `${s.port.locode ?? s.port.name ?? '?'}${stopReached(s) ? '' : ' (planned)'}`);
      const count = (status: string) => legs.filter((l) => l.status === status).length;
      const summary = `Route of ${stops.length} port(s): ${ports.join(' → ')}; ${legs.length} leg(s): ${count('done')} done, ${count('under_way')} under way, ${count('planned')} planned.`;
      return { summary, data: { containerId: id, available: true, stops, legs } };
    },
  });
}
