// What the shipment page reads, through the REST API as the signed-in account (req.svc): the
// shipment with its ports and terminals, its containers with their milestones (places, vessels,
// terminals), and whether the account has the routing feature the map needs.
import { NotFoundError, type SvcClient } from '../../../sdk/src/index.ts';
import type { Container, Shipment } from '../../../sdk/src/types.ts';
import { NotFound } from '../../domain/errors.ts';

export const SHIPMENT_INCLUDE = 'port_of_lading,port_of_discharge,pod_terminal,destination,destination_terminal';
const CONTAINER_INCLUDE = 'pod_terminal,transport_events.location,transport_events.vessel,transport_events.terminal';
/** More boxes than any one bill of lading carries; the API's page limit. */
const CONTAINERS_PAGE = 100;

export interface PlaceRecord {
  id: string;
  name?: string;
  code?: string;
  time_zone?: string | null;
}

export interface TerminalRecord {
  id: string;
  name?: string;
  nickname?: string | null;
  firms_code?: string | null;
}

export interface EventRecord {
  id: string;
  type: string;
  event: string;
  timestamp: string | null;
  timezone: string | null;
  voyage_number: string | null;
  location_locode: string | null;
  data_source: 'shipping_line' | 'terminal' | 'ais';
  location?: PlaceRecord | null;
  vessel?: { id: string; name?: string; imo?: string } | null;
  terminal?: TerminalRecord | null;
}

export type ShipmentRecord = Omit<Shipment, 'pod_terminal' | 'destination'> & { pod_terminal?: TerminalRecord | null; destination?: PlaceRecord | null };
export type ContainerRecord = Omit<Container, 'pod_terminal' | 'transport_events'> & { pod_terminal?: TerminalRecord | null; transport_events: EventRecord[] };

export interface ShipmentView {
  shipment: ShipmentRecord;
  containers: ContainerRecord[];
  /** The account may see routes and maps (the routing feature). */
  routing: boolean;
}

/** The shipment of this account by id; another account's, an unknown or a malformed id is NotFound. */
export async function loadShipmentView(svc: SvcClient, id: string): Promise<ShipmentView> {
  const shipment = await notFoundAsDomain(svc.shipments.get(id, { include: SHIPMENT_INCLUDE }), 'There is no such shipment in your account.');
  const [page, account] = await Promise.all([
    svc.containers.list({ 'filter[shipment_id]': shipment.id, include: CONTAINER_INCLUDE, 'page[size]': CONTAINERS_PAGE }),
    svc.account.get(),
  ]);
  const containers = page.items.map((c) => ({ ...c, transport_events: (c.transport_events ?? []) as unknown as EventRecord[] }) as ContainerRecord);
  return { shipment: shipment as ShipmentRecord, containers, routing: account.features.routing };
}

/** One container of one shipment of this account, else NotFound (the map of another shipment's box is not this page's). */
export async function loadShipmentContainer(svc: SvcClient, shipmentId: string, containerId: string): Promise<Container> {
  const container = await notFoundAsDomain(svc.containers.get(containerId), 'There is no such container in your account.');
  const owner = container.relationships?.shipment?.data;
  if (!owner || Array.isArray(owner) || owner.id !== shipmentId) throw new NotFound('This container is not part of this shipment.');
  return container;
}

/** The SDK's 404 as the web app's own: the error handler shows the HTML 404 page for it. */
export async function notFoundAsDomain<T>(call: Promise<T>, detail: string): Promise<T> {
  try {
    return await call;
  } catch (err) {
    if (err instanceof NotFoundError) throw new NotFound(detail);
    throw err;
  }
}
