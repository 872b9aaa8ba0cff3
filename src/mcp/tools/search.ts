// search_container: find what the account tracks by any number, and lead on to the ids.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { SvcClient } from '../../../sdk/src/index.ts';
import { containerHitSchema, toContainerHit } from '../views/container.ts';
import { bool, num, str, strs, type Rec } from '../views/read.ts';
import { defineTool } from './define.ts';

// Each detail lookup is a request against the caller's rate limit (100 a minute): a broad query
// gets details for the first few and the rest from the search hit itself.
const SHIPMENTS_EXPANDED = 5;
const CONTAINERS_FETCHED = 10;
const CONTAINER_INCLUDE = 'shipment,pod_terminal';

const shipmentHitSchema = z.object({
  id: z.string(),
  billOfLading: z.string().nullable(),
  shippingLine: z.string().nullable().describe('SCAC'),
  containerCount: z.number().int().nullable(),
  refNumbers: z.array(z.string()),
  portOfLoading: z.string().nullable(),
  portOfDischarge: z.string().nullable(),
  trackingStopped: z.boolean().nullable(),
});

const trackingRequestHitSchema = z.object({
  id: z.string(),
  requestNumber: z.string().nullable(),
  status: z.string().nullable(),
  failedReason: z.string().nullable(),
  scac: z.string().nullable(),
  shipmentId: z.string().nullable(),
});

/** A container hit beyond the ones looked up: what the search result itself says. */
function containerFromHit(hit: Rec): z.input<typeof containerHitSchema> {
  return {
    id: String(hit.id),
    containerNumber: str(hit.number),
    status: str(hit.status),
    shippingLine: str(hit.scac),
    podTerminal: null,
    destination: str(hit.port_of_discharge_name),
    shipmentId: str(hit.shipment_id),
    billOfLading: null,
  };
}

export function registerSearchTool(server: McpServer, client: SvcClient): void {
  defineTool(server, 'search_container', {
    title: 'Search containers and shipments',
    description:
      'Find containers and shipments tracked in this account by a container number, bill of lading, booking number or reference number (whole or in part). ' +
      'A shipment match lists its containers too. Start here when the user names a number: it gives the ids get_container and get_shipment_details need. ' +
      'Nothing found means the number is not tracked yet: use track_container.',
    input: { query: z.string().trim().min(1).max(100).describe('A container, bill of lading, booking or reference number, or part of one') },
    output: {
      containers: z.array(containerHitSchema),
      shipments: z.array(shipmentHitSchema),
      trackingRequests: z.array(trackingRequestHitSchema).describe('Requests not (yet) turned into a shipment, e.g. pending or failed'),
      totalResults: z.number().int(),
    },
    async run({ query }) {
      const hits = (await client.search(query)) as Rec[];
      const of = (type: string) => hits.filter((h) => h.entity_type === type);
      const shipmentHits = of('shipment');
      const containerHits = of('cargo');

      const boxesOfShipments = await Promise.all(
        shipmentHits.slice(0, SHIPMENTS_EXPANDED).map(async (s) => (await client.containers.list({ 'filter[shipment_id]': String(s.id), include: CONTAINER_INCLUDE, 'page[size]': 100 })).items as Rec[]),
      );
      const containers = boxesOfShipments.flat().map(toContainerHit);
      const seen = new Set(containers.map((c) => c.id));
      const rest = containerHits.filter((h) => !seen.has(String(h.id)));
      const fetched = await Promise.all(rest.slice(0, CONTAINERS_FETCHED).map(async (h) => toContainerHit((await client.containers.get(String(h.id), { include: CONTAINER_INCLUDE })) as Rec)));
      containers.push(...fetched, ...rest.slice(CONTAINERS_FETCHED).map(containerFromHit));

      const shipments = shipmentHits.map((s) => ({
        id: String(s.id),
        billOfLading: str(s.number),
        shippingLine: str(s.scac),
        containerCount: num(s.containers_count),
        refNumbers: strs(s.ref_numbers),
        portOfLoading: str(s.port_of_lading_name),
        portOfDischarge: str(s.port_of_discharge_name),
        trackingStopped: bool(s.tracking_stopped),
      }));
      const trackingRequests = of('tracking_request').map((t) => ({
        id: String(t.id),
        requestNumber: str(t.number),
        status: str(t.status),
        failedReason: str(t.failed_reason),
        scac: str(t.scac),
        shipmentId: str(t.shipment_id),
      }));
      const totalResults = containers.length + shipments.length + trackingRequests.length;
      const summary =
        totalResults === 0
          ? `Nothing tracked in this account matches "${query}". To start tracking it, call track_container.`
          : `"${query}": ${containers.length} container(s)${containers.length ? ` (${containers.slice(0, 5).map((c) => `${c.containerNumber} ${c.status ?? ''}`.trim()).join(', ')})` : ''}, ${shipments.length} shipment(s), ${trackingRequests.length} tracking request(s).`;
      return { summary, data: { containers, shipments, trackingRequests, totalResults } };
    },
  });
}
