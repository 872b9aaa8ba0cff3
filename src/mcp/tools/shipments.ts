// get_shipment_details: one shipment (bill of lading or booking) with its route and containers.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { SvcClient } from '../../../sdk/src/index.ts';
import { freshnessSentence } from '../views/freshness.ts';
import type { Rec } from '../views/read.ts';
import { shipmentSchema, toShipmentView } from '../views/shipment.ts';
import { defineTool, idParam } from './define.ts';

export function registerShipmentTools(server: McpServer, client: SvcClient): void {
  defineTool(server, 'get_shipment_details', {
    title: 'Get shipment details',
    description:
      'One shipment by its id: bill of lading and booking number, shipping line, routing (port of loading, port of discharge, inland destination, terminal) ' +
      'with estimated and actual departure and arrival times (and how far the ETA moved from the first one), the vessel, its containers, and when the shipping line, terminal and AIS were last checked and last changed. ' +
      'Use it for "when does the shipment arrive", "which containers are on this B/L" and delay questions.',
    input: {
      id: idParam('shipment'),
      include_containers: z.boolean().default(true).describe('Add each container with its status, availability, last free day and holds'),
    },
    output: shipmentSchema.shape,
    notFound: ({ id }) => `No shipment with id ${id} in this account.`,
    async run({ id, include_containers }) {
      const include = ['port_of_lading', 'port_of_discharge', 'destination', 'pod_terminal', ...(include_containers ? ['containers'] : [])];
      const data = toShipmentView((await client.shipments.get(id, { include })) as Rec, include_containers);
      const r = data.routing;
      const arrival = r.podAtaAt ? `arrived ${r.podAtaAt}` : r.podEtaAt ? `ETA ${r.podEtaAt}` : 'no ETA yet';
      const summary = `Shipment ${data.billOfLading ?? id} (${data.shippingLine.scac ?? 'unknown line'}): ${r.portOfLoading.name ?? '?'} → ${r.portOfDischarge.name ?? '?'}, ${arrival}${data.containers ? `; ${data.containers.length} container(s)` : ''}.`;
      return { summary: `${summary} ${freshnessSentence(data.dataFreshness)}`, data };
    },
  });
}
