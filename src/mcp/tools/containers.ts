// get_container and get_container_transport_events: one container, and its journey so far.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { SvcClient } from '../../../sdk/src/index.ts';
import { loadContainer, loadTimeline } from '../load.ts';
import { containerDetailsShape } from '../views/container.ts';
import { freshnessSentence } from '../views/freshness.ts';
import { categoriesOf, eventCategoriesSchema, milestonesOf, milestonesSchema, timelineEntrySchema } from '../views/timeline.ts';
import { defineTool, idParam } from './define.ts';

export const CONTAINER_INCLUDES = ['shipment', 'pod_terminal', 'transport_events'] as const;
export const noContainer = ({ id }: { id: string }) => `No container with id ${id} in this account.`;

export function registerContainerTools(server: McpServer, client: SvcClient): void {
  defineTool(server, 'get_container', {
    title: 'Get container',
    description:
      'Everything about one container by its id: status and current location, equipment, availability for pickup, holds, fees and last free day (demurrage), its shipment, and when the shipping line, terminal and AIS were last checked and last changed. ' +
      'Use it after search_container or a list tool gave you the id. include: "shipment" (default) adds the route with ETA/ATA and vessel, "pod_terminal" the terminal, ' +
      '"transport_events" the full milestone timeline (heavy: 50 to 100 events; prefer get_container_transport_events for journey questions).',
    input: {
      id: idParam('container'),
      include: z.array(z.enum(CONTAINER_INCLUDES)).default(['shipment']).describe('Related data to add'),
    },
    output: containerDetailsShape,
    notFound: noContainer,
    async run({ id, include }) {
      const data = await loadContainer(client, id, { routing: include.includes('shipment'), terminal: include.includes('pod_terminal'), events: include.includes('transport_events') });
      const holds = data.demurrage.holds.filter((h) => h.status === 'hold').map((h) => h.name);
      const summary = [
        `Container ${data.number ?? id}: ${data.status ?? 'unknown status'}${data.location.currentLocation ? ` (${data.location.currentLocation})` : ''}.`,
        data.shipment?.routing?.podAtaAt ? `Arrived ${data.shipment.routing.podAtaAt}.` : data.shipment?.routing?.podEtaAt ? `ETA ${data.shipment.routing.podEtaAt}.` : '',
        holds.length > 0 ? `Holds: ${holds.join(', ')}.` : 'No holds.',
        data.demurrage.lastFreeDay ? `Last free day ${data.demurrage.lastFreeDay}.` : '',
        freshnessSentence(data.dataFreshness),
      ];
      return { summary: summary.filter(Boolean).join(' '), data };
    },
  });

  defineTool(server, 'get_container_transport_events', {
    title: 'Container transport events',
    description:
      "A container's journey: every milestone (empty out, loaded, departed, transshipments, arrived, discharged, rail, available, full out, empty in) oldest first, " +
      'with counts per mode and the key milestone times. Use it for "where has it been", "when did it arrive/depart" and delay questions.',
    input: { id: idParam('container') },
    output: {
      totalEvents: z.number().int(),
      eventCategories: eventCategoriesSchema,
      milestones: milestonesSchema,
      timeline: z.array(timelineEntrySchema),
    },
    notFound: noContainer,
    async run({ id }) {
      const timeline = await loadTimeline(client, id);
      const latest = timeline[timeline.length - 1];
      const summary = latest ? `${timeline.length} events; latest: ${latest.label}${latest.location.name ? ` at ${latest.location.name}` : ''} (${latest.timestamp ?? 'time unknown'}).` : 'No transport events yet.';
      return { summary, data: { totalEvents: timeline.length, eventCategories: categoriesOf(timeline), milestones: milestonesOf(timeline), timeline } };
    },
  });
}
