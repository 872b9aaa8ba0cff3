// get_supported_shipping_lines: the carriers svc can track, for choosing a SCAC.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { SvcClient } from '../../../sdk/src/index.ts';
import { bool, str, strs, type Rec } from '../views/read.ts';
import { defineTool } from './define.ts';

const lineSchema = z.object({
  scac: z.string(),
  name: z.string().nullable(),
  shortName: z.string().nullable(),
  alternativeScacs: z.array(z.string()),
  tracksBy: z.object({ billOfLading: z.boolean().nullable(), bookingNumber: z.boolean().nullable(), containerNumber: z.boolean().nullable() }),
});

export function registerShippingLineTools(server: McpServer, client: SvcClient): void {
  defineTool(server, 'get_supported_shipping_lines', {
    title: 'Supported shipping lines',
    description:
      'The shipping lines (carriers) svc can track, with their SCAC codes and which number types each tracks by. ' +
      'Use it to find the SCAC for a carrier name before track_container, or to check whether a carrier is supported. Optional search by part of a name or a SCAC.',
    input: { search: z.string().trim().min(1).max(100).optional().describe('Part of a carrier name, or a SCAC') },
    output: { totalLines: z.number().int(), shippingLines: z.array(lineSchema) },
    async run({ search }) {
      const lines = (await client.shippingLines.list(search ? { search } : {})) as Rec[];
      const shippingLines = lines.map((l) => ({
        scac: String(l.scac),
        name: str(l.name),
        shortName: str(l.short_name),
        alternativeScacs: strs(l.alternative_scacs),
        tracksBy: { billOfLading: bool(l.bill_of_lading_tracking_support), bookingNumber: bool(l.booking_number_tracking_support), containerNumber: bool(l.container_number_tracking_support) },
      }));
      const shown = shippingLines.slice(0, 5).map((l) => `${l.scac} ${l.name ?? ''}`.trim());
      const summary = `${shippingLines.length} shipping line(s)${search ? ` matching "${search}"` : ''}${shown.length ? `: ${shown.join(', ')}${shippingLines.length > 5 ? ', …' : ''}` : ''}.`;
      return { summary, data: { totalLines: shippingLines.length, shippingLines } };
    },
  });
}
