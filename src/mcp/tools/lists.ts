// list_shipments, list_containers and list_tracking_requests: pages of what the account tracks,
// filtered on svc's side. All three page the same way and answer { items, page, pageSize, total, hasMore }.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Page, SvcClient } from '../../../sdk/src/index.ts';
import { containerListItemSchema, toContainerListItem } from '../views/container.ts';
import { recs, type Rec } from '../views/read.ts';
import { shipmentListItemSchema, toShipmentListItem } from '../views/shipment.ts';
import { timelineOf } from '../views/timeline.ts';
import { toTrackingRequest, trackingRequestSchema } from '../views/tracking-request.ts';
import { CONTAINER_INCLUDES } from './containers.ts';
import { defineTool } from './define.ts';

type Query = Record<string, string | number | boolean | undefined>;

/** svc's largest page: a larger page_size is given this many, as REST's page[size] is, rather than refused. */
const MAX_PAGE_SIZE = 100;
const paging = {
  page: z.number().int().min(1).default(1).describe('Page number, from 1'),
  page_size: z.number().int().min(1).default(25).describe(`Records per page (at most ${MAX_PAGE_SIZE}; more gives ${MAX_PAGE_SIZE})`),
};
const sizeOf = (asked: number) => Math.min(asked, MAX_PAGE_SIZE);

const pageShape = <T extends z.ZodType>(item: T) => ({
  items: z.array(item),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int().describe('Records matching, on all pages'),
  hasMore: z.boolean().describe('true: ask for page + 1'),
  appliedFilters: z.record(z.string(), z.string()).describe('The filters as sent to svc'),
});

const filterParams = {
  status: z.string().trim().min(1).optional().describe('Container status, or several separated by commas (e.g. "available,not_available"; see svc://docs/milestone-glossary)'),
  port: z.string().trim().min(5).max(5).optional().describe('UN/LOCODE of the port of loading, port of discharge or destination, e.g. USLAX'),
  carrier: z.string().trim().length(4).optional().describe('Shipping line SCAC, e.g. MAEU'),
  updated_after: z.union([z.iso.datetime({ offset: true }), z.iso.date()]).optional().describe('Only records updated at or after this time (ISO 8601)'),
};

type Filters = { status?: string; port?: string; carrier?: string; updated_after?: string };

function filterQuery({ status, port, carrier, updated_after }: Filters): Record<string, string> {
  const query: Record<string, string | undefined> = {
    // "On Ship, available" as svc names them: on_ship,available.
    'filter[status]': status
      ?.split(',')
      .map((one) => one.trim().toLowerCase().replace(/[\s-]+/g, '_'))
      .filter(Boolean)
      .join(','),
    'filter[port]': port?.toUpperCase(),
    'filter[line_scac]': carrier?.toUpperCase(),
    'filter[updated_at][start]': updated_after,
  };
  return Object.fromEntries(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined));
}

function pageOf<T>(result: Page<unknown>, items: T[], page: number, pageSize: number, appliedFilters: Record<string, string>) {
  return { items, page, pageSize, total: result.total, hasMore: page * pageSize < result.total, appliedFilters };
}

const pageWords = (what: string, p: { items: unknown[]; page: number; total: number; hasMore: boolean }) =>
  `${p.items.length} ${what} on page ${p.page} of ${p.total} in all${p.hasMore ? ' (more on the next page)' : ''}.`;

/** `include` as a comma string or a list, as assistants send both. */
function includeList(include: string | string[] | undefined): string[] {
  const names = typeof include === 'string' ? include.split(',') : (include ?? []);
  return [...new Set(names.map((n) => n.trim()).filter(Boolean))];
}

/** Raw filters: `filter[status]` as is, a bare `status` as `filter[status]`, `q` as the search text. */
function rawFilters(filters: Record<string, string | number | boolean> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(filters ?? {}).map(([name, value]) => [name === 'q' || name.startsWith('filter[') ? name : `filter[${name}]`, String(value)]));
}

export function registerListTools(server: McpServer, client: SvcClient): void {
  defineTool(server, 'list_shipments', {
    title: 'List shipments',
    description:
      'Shipments tracked in this account, most recent first, a page at a time, optionally filtered by container status, port (UN/LOCODE), carrier (SCAC) or last update. ' +
      'Use it for overview questions ("what is arriving in Los Angeles", "all Maersk shipments", "what changed since yesterday"). For one known number use search_container.',
    input: { ...filterParams, include_containers: z.boolean().default(false).describe("Add each shipment's containers with their status"), ...paging },
    output: pageShape(shipmentListItemSchema),
    async run({ include_containers, page, page_size: asked, ...filters }) {
      const page_size = sizeOf(asked);
      const applied = filterQuery(filters);
      const query: Query = { ...applied, 'page[number]': page, 'page[size]': page_size, ...(include_containers ? { include: 'containers' } : {}) };
      const result = await client.shipments.list(query);
      const data = pageOf(result, (result.items as Rec[]).map((s) => toShipmentListItem(s, include_containers)), page, page_size, applied);
      return { summary: pageWords('shipment(s)', data), data };
    },
  });

  defineTool(server, 'list_containers', {
    title: 'List containers',
    description:
      'Containers tracked in this account, most recent first, a page at a time, optionally filtered by status (e.g. "available" for pickups, "not_available" for held boxes), port (UN/LOCODE), carrier (SCAC) or last update. ' +
      'Each item has its B/L, ETA, availability, last free day and active holds. include "transport_events" adds each one\'s latest milestone.',
    input: {
      ...filterParams,
      include: z
        .union([z.string(), z.array(z.enum(CONTAINER_INCLUDES))])
        .optional()
        .describe('Related data: shipment (always), pod_terminal, transport_events, as a list or a comma-separated string'),
      ...paging,
    },
    output: pageShape(containerListItemSchema),
    async run({ include, page, page_size: asked, ...filters }) {
      const page_size = sizeOf(asked);
      const includes = new Set(['shipment', ...includeList(include)]);
      const applied = filterQuery(filters);
      const query: Query = { ...applied, include: [...includes].join(','), 'page[number]': page, 'page[size]': page_size };
      const result = await client.containers.list(query);
      const withEvents = includes.has('transport_events');
      const items = (result.items as Rec[]).map((c) => toContainerListItem(c, withEvents ? (timelineOf(recs(c.transport_events)).at(-1) ?? null) : undefined));
      const data = pageOf(result, items, page, page_size, applied);
      return { summary: pageWords('container(s)', data), data };
    },
  });

  defineTool(server, 'list_tracking_requests', {
    title: 'List tracking requests',
    description:
      'Tracking requests of this account (the numbers asked to be tracked), most recent first: whether each is pending, created (a shipment exists), failed (and why) or stopped. ' +
      'Use it for "which of my numbers failed" or "is my request through yet". filters takes raw query filters such as {"filter[scac]": "MAEU"} or {"filter[created_at][start]": "2026-01-01"}.',
    input: {
      filters: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional().describe('Raw filters: filter[request_number], filter[scac], filter[created_at][start|end], filter[updated_at][start|end], q'),
      status: z.enum(['pending', 'awaiting_manifest', 'created', 'failed', 'tracking_stopped']).optional(),
      request_type: z.enum(['container', 'bill_of_lading', 'booking_number']).optional(),
      ...paging,
    },
    output: pageShape(trackingRequestSchema),
    async run({ filters, status, request_type, page, page_size: asked }) {
      const page_size = sizeOf(asked);
      const applied = { ...rawFilters(filters), ...(status ? { 'filter[status]': status } : {}), ...(request_type ? { 'filter[request_type]': request_type } : {}) };
      const result = await client.trackingRequests.list({ ...applied, 'page[number]': page, 'page[size]': page_size } as never);
      const items = (result.items as Rec[]).map(toTrackingRequest);
      const data = pageOf(result, items, page, page_size, applied);
      return { summary: pageWords('tracking request(s)', data), data };
    },
  });
}
