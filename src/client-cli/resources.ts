// svc containers|shipments|tracking-requests list|show: per resource, the REST query parameters
// its filters become, the columns of its table and the key fields of one record.
import type { Container, Page, Shipment, SvcClient, TrackingRequest, TransportEvent } from '../../sdk/src/index.ts';
import { collect } from './collect.ts';
import type { Io } from './io.ts';
import { containerSituation, latestEvent } from './container-situation.ts';
import { ClientCommandError, ClientUsageError, type FilterName } from './options.ts';
import { table } from './table.ts';
import { milestone, when, words } from './words.ts';

type Query = Record<string, string | number>;
type Row = Record<string, unknown>;

interface ResourceCommands<T> {
  /** The option → the REST query parameter it passes through as; a missing filter is refused. */
  filters: Partial<Record<FilterName, string>>;
  /** Sent with every list, for the columns. */
  listInclude?: string;
  list(client: SvcClient, query: Query): Promise<Page<T>>;
  iterate(client: SvcClient, query: Query): AsyncGenerator<T>;
  row(record: T): Row;
  get(client: SvcClient, id: string): Promise<T>;
  /** Label → value lines of `show`. */
  fields(record: T): [string, string][];
}

const related = (value: unknown): Row | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Row) : undefined);
const relatedList = (value: unknown): Row[] => (Array.isArray(value) ? (value as Row[]) : []);
const place = (name: string | null, locode: string | null) => (name && locode ? `${name} (${locode})` : (name ?? locode ?? '-'));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CONTAINER_SHOW_INCLUDE = ['shipment', 'pod_terminal', 'transport_events'];

/**
 * A container by id, or by number: the newest of that number (a number comes round again on
 * another journey), found with filter[number] as any REST client would.
 */
async function findContainer(client: SvcClient, idOrNumber: string): Promise<Container> {
  if (UUID.test(idOrNumber)) return client.containers.get(idOrNumber, { include: CONTAINER_SHOW_INCLUDE });
  const found = await collect(client.containers.iterate({ 'filter[number]': idOrNumber, include: CONTAINER_SHOW_INCLUDE.join(','), 'page[size]': 100 }));
  const newest = found.reduce<Container | undefined>((a, b) => (!a || b.created_at > a.created_at ? b : a), undefined);
  if (!newest) throw new ClientCommandError(`no container numbered ${idOrNumber} is tracked (svc track ${idOrNumber} starts tracking it)`);
  return newest;
}

// The SDK's query types name the filters of the OpenAPI document it was generated from; the CLI
// passes filters through by name, so one svc has (filter[status] on containers…) reaches it as is.
const containers: ResourceCommands<Container> = {
  filters: { status: 'filter[status]', number: 'filter[number]' },
  listInclude: 'shipment',
  list: (client, query) => client.containers.list(query),
  iterate: (client, query) => client.containers.iterate(query),
  row: (c) => ({ id: c.id, number: c.number, status: c.current_status, bill_of_lading: related(c.shipment)?.bill_of_lading_number, lfd: c.pickup_lfd, available: containerSituation(c).availability, holds: c.holds_at_pod_terminal.length }),
  get: findContainer,
  fields: (c) => {
    const last = latestEvent(c.transport_events);
    const shipment = related(c.shipment);
    const situation = containerSituation(c);
    return [
      ['container', c.number],
      ['id', c.id],
      ['status', situation.status],
      ['location', situation.location],
      ['shipment', shipment?.bill_of_lading_number ? `B/L ${shipment.bill_of_lading_number} (${shipment.id})` : (shipment?.id as string | undefined) ?? '-'],
      ['ETA at POD', situation.eta],
      ['last free day', situation.lastFreeDay],
      ['availability', situation.availability],
      ['holds', situation.holds],
      ['fees', situation.fees],
      ['last event', last ? lastEventText(last) : 'none yet'],
    ];
  },
};

const lastEventText = (e: TransportEvent) => `${milestone(e.event)}${e.location_locode ? ` at ${e.location_locode}` : ''}, ${when(e.timestamp)}`;

const shipments: ResourceCommands<Shipment> = {
  filters: { status: 'filter[status]', number: 'number', q: 'q' },
  list: (client, query) => client.shipments.list(query),
  iterate: (client, query) => client.shipments.iterate(query),
  row: (s) => ({
    id: s.id,
    bill_of_lading: s.bill_of_lading_number,
    line: s.shipping_line_scac,
    pol: s.port_of_lading_locode,
    pod: s.port_of_discharge_locode,
    eta: s.pod_ata_at ? `arrived ${when(s.pod_ata_at)}` : when(s.pod_eta_at),
    containers: relatedList(s.containers).length,
    tracking: s.line_tracking_stopped_at ? 'stopped' : 'active',
  }),
  get: (client, id) => client.shipments.get(id, { include: ['containers'] }),
  fields: (s) => [
    ['bill of lading', s.bill_of_lading_number],
    ['id', s.id],
    ['booking', s.booking_number ?? '-'],
    ['carrier', s.shipping_line_name ? `${s.shipping_line_name} (${s.shipping_line_scac})` : s.shipping_line_scac],
    ['route', `${place(s.port_of_lading_name, s.port_of_lading_locode)} → ${place(s.port_of_discharge_name, s.port_of_discharge_locode)}`],
    ['destination', place(s.destination_name, s.destination_locode)],
    ['ETA', s.pod_ata_at ? `arrived ${when(s.pod_ata_at)}` : `${when(s.pod_eta_at)}${s.pod_original_eta_at && s.pod_original_eta_at !== s.pod_eta_at ? ` (first announced ${when(s.pod_original_eta_at)})` : ''}`],
    ['vessel', s.pod_vessel_name ? `${s.pod_vessel_name}${s.pod_voyage_number ? `, voyage ${s.pod_voyage_number}` : ''}` : '-'],
    ['containers', relatedList(s.containers).map((c) => (c.number ? `${c.number} ${words(c.current_status as string)}` : String(c.id))).join(', ') || 'none yet'],
    ['tracking', s.line_tracking_stopped_at ? `stopped ${when(s.line_tracking_stopped_at)} (${words(s.line_tracking_stopped_reason)})` : 'active'],
  ],
};

const trackingRequests: ResourceCommands<TrackingRequest> = {
  filters: { status: 'filter[status]', number: 'filter[request_number]', q: 'q' },
  list: (client, query) => client.trackingRequests.list(query),
  iterate: (client, query) => client.trackingRequests.iterate(query),
  row: (r) => ({ id: r.id, number: r.request_number, type: r.request_type, scac: r.scac, status: r.status, failed_reason: r.failed_reason, created_at: r.created_at }),
  get: (client, id) => client.trackingRequests.get(id),
  fields: (r) => [
    ['tracking request', r.id],
    ['number', `${r.request_number} (${words(r.request_type)}, ${r.scac})`],
    ['status', `${words(r.status)}${r.failed_reason ? `: ${words(r.failed_reason)}` : ''}${r.is_retrying ? ` (retrying, ${r.retry_count ?? 0} so far)` : ''}`],
    ['shipment', related(r.tracked_object)?.id ? String(related(r.tracked_object)!.id) : '-'],
    ['reference numbers', r.ref_numbers.join(', ') || '-'],
    ['created', when(r.created_at)],
    ['updated', when(r.updated_at)],
  ],
};

export const RESOURCES = { containers, shipments, 'tracking-requests': trackingRequests } as Record<string, ResourceCommands<unknown>>;

export interface ListOptions {
  filters: Partial<Record<FilterName, string>>;
  all: boolean;
  pageSize?: number;
  json: boolean;
}

export async function list(client: SvcClient, io: Io, name: string, options: ListOptions): Promise<void> {
  const resource = RESOURCES[name];
  const query: Query = {};
  for (const [option, value] of Object.entries(options.filters)) {
    if (value === undefined) continue;
    const parameter = resource.filters[option as FilterName];
    if (!parameter) throw new ClientUsageError(`${name} list has no --${option} filter (it has ${Object.keys(resource.filters).map((f) => `--${f}`).join(', ')})`);
    query[parameter] = value;
  }
  if (resource.listInclude) query.include = resource.listInclude;
  if (options.pageSize) query['page[size]'] = options.pageSize;

  let records: unknown[];
  if (options.all) records = await collect(resource.iterate(client, query));
  else {
    const page = await resource.list(client, query);
    records = page.items;
    if (page.total > records.length && !options.json) io.note(`${records.length} of ${page.total} ${name.replace('-', ' ')} shown; --all lists every one`);
  }
  io.out(options.json ? `${JSON.stringify(records, null, 2)}\n` : table(records.map((r) => resource.row(r))));
}

export async function show(client: SvcClient, io: Io, name: string, id: string, json: boolean): Promise<void> {
  const resource = RESOURCES[name];
  const record = await resource.get(client, id);
  if (json) return io.out(`${JSON.stringify(record, null, 2)}\n`);
  const fields = resource.fields(record);
  const width = Math.max(...fields.map(([label]) => label.length));
  io.out(fields.map(([label, value]) => `${label.padEnd(width)}  ${value}`).join('\n') + '\n');
}
