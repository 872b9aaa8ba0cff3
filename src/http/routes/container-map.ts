// A container's route map (GeoJSON, plain JSON as the reference answers it) and its route
// (JSON:API, what the reference's SDK and MCP server call). Each handler is one call into the
// service, so an entitlement check can wrap it without reaching inside.
import type { Resource } from '../../jsonapi/document.ts';
import { badParameter } from '../../jsonapi/errors.ts';
import { parseInclude } from '../../jsonapi/query.ts';
import { portResource, vesselResource } from '../../jsonapi/serializers/reference.ts';
import type { Leg, PortCall } from '../../domain/route/legs.ts';
import { stableId } from '../../refdata/ids.ts';
import { requireFeature } from '../../services/features.ts';
import { containerRouteMap, loadContainerRoute, type ContainerRoute } from '../../services/route-map.ts';
import { trackingClockOf, type AnyRouteSpec } from '../route.ts';
import { routeDocumentSchema, routeMapSchema } from './container-map-schema.ts';
import { ROUTING_FORBIDDEN } from './vessel-positions.ts';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);
const toOne = (type: string, id: string | null | undefined) => ({ data: id ? { type, id } : null });

/** What may be included with a route; the plural is the relationship's own name. */
const ROUTE_INCLUDES = new Map([
  ['route_location', 'route_location'],
  ['route_locations', 'route_location'],
  ['port', 'port'],
  ['vessel', 'vessel'],
]);

function routeIncludes(query: Parameters<typeof parseInclude>[0]): Set<string> {
  const wanted = new Set<string>();
  for (const path of parseInclude(query)) {
    const type = ROUTE_INCLUDES.get(path);
    if (!type) throw badParameter('include', `${path} cannot be included with a route; use ${[...ROUTE_INCLUDES.keys()].join(', ')}.`, 'invalid_include');
    wanted.add(type);
  }
  return wanted;
}

function sideAttributes(route: ContainerRoute, direction: 'inbound' | 'outbound', leg: Leg | undefined) {
  return {
    [`${direction}_mode`]: leg?.mode ?? null,
    [`${direction}_carrier_scac`]: leg ? route.shipment.scac : null,
    [`${direction}_vessel_name`]: leg?.vessel?.name ?? null,
    [`${direction}_vessel_imo`]: leg?.vessel?.imo ?? null,
    [`${direction}_voyage_number`]: leg?.voyageNumber ?? null,
  };
}

function routeLocationResource(route: ContainerRoute, call: PortCall): Resource {
  const inbound = route.journey.legs.find((l) => l.to.sequence === call.sequence);
  const outbound = route.journey.legs.find((l) => l.sequence === call.sequence);
  const vesselId = (leg: Leg | undefined) => (leg?.vessel?.imo ? route.vessels.get(leg.vessel.imo)?.id : null);
  const port = route.ports.get(call.locode);
  return {
    // Name-based, so the same call of the same container keeps its id from one request to the next.
    id: stableId('route_location', `${route.container.id}:${call.sequence}`),
    type: 'route_location',
    attributes: {
      ports_sequence: call.sequence,
      label: call.label,
      location_locode: call.locode,
      location_name: port?.name ?? null,
      ...sideAttributes(route, 'inbound', inbound),
      inbound_eta_at: iso(call.inboundEta),
      inbound_ata_at: iso(call.inboundAta),
      ...sideAttributes(route, 'outbound', outbound),
      outbound_etd_at: iso(call.outboundEtd),
      outbound_atd_at: iso(call.outboundAtd),
    },
    relationships: {
      location: toOne('port', port?.id),
      inbound_vessel: toOne('vessel', vesselId(inbound)),
      outbound_vessel: toOne('vessel', vesselId(outbound)),
    },
  };
}

function routeDocument(route: ContainerRoute, include: Set<string>) {
  const locations = route.journey.calls.map((call) => routeLocationResource(route, call));
  const included: Resource[] = [
    ...(include.has('route_location') ? locations : []),
    ...(include.has('port') ? route.journey.calls.flatMap((c) => route.ports.get(c.locode) ?? []).map(portResource) : []),
    ...(include.has('vessel') ? [...route.vessels.values()].map((v) => vesselResource(v)) : []),
  ];
  return {
    data: {
      // One route per container: it takes the container's id.
      id: route.container.id,
      type: 'route',
      attributes: { updated_at: iso(route.shipment.updated_at) },
      relationships: {
        container: toOne('container', route.container.id),
        shipment: toOne('shipment', route.shipment.id),
        route_locations: { data: locations.map(({ type, id }) => ({ type, id })) },
      },
    },
    ...(include.size > 0 ? { included } : {}),
  };
}

export const containerMapRoutes: AnyRouteSpec[] = [
  {
    method: 'GET',
    url: '/v2/containers/:id/map_geojson',
    summary: "A container's route map as a GeoJSON FeatureCollection: ports, the track sailed, the vessel now, the way ahead",
    tag: 'Routing',
    plainJson: true,
    response: { status: 200, description: 'The route map; an empty FeatureCollection when the route is not known yet', schema: routeMapSchema },
    errors: ROUTING_FORBIDDEN,
    async handler(ctx) {
      const { services, accountId, params } = ctx;
      requireFeature(ctx, 'routing');
      return { body: { ...(await containerRouteMap(services.db, trackingClockOf(services).now(), accountId, params.id)) } };
    },
  },
  {
    method: 'GET',
    url: '/v2/containers/:id/route',
    summary: "A container's route: each port call (lading, transshipments, discharge) with modes, carrier, vessels and ETA/ATA/ETD/ATD",
    tag: 'Routing',
    query: [{ name: 'include', description: `Comma-separated: ${[...ROUTE_INCLUDES.keys()].join(', ')}`, schema: { type: 'string' } }],
    response: { status: 200, description: 'The route', schema: routeDocumentSchema },
    errors: ROUTING_FORBIDDEN,
    async handler(ctx) {
      const { services, accountId, params, query } = ctx;
      requireFeature(ctx, 'routing');
      const include = routeIncludes(query);
      return { body: routeDocument(await loadContainerRoute(services.db, accountId, params.id), include) };
    },
  },
];
