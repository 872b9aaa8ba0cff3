// The shipment page (GET /shipments/{id}?container={id}): header, containers, the selected
// container's milestones and its route map; and the map's GeoJSON for this session
// (GET /shipments/{id}/containers/{cid}/map.geojson), read through the REST API as the account.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { FeatureNotEnabledError } from '../../../sdk/src/index.ts';
import { NotFound } from '../../domain/errors.ts';
import { ASSETS_DIR, MAPLIBRE_VERSION, assetUrl } from '../assets.ts';
import type { WebOptions } from '../context.ts';
import { Layout } from '../layout.tsx';
import { sendPage } from '../render.tsx';
import { loadShipmentContainer, loadShipmentView, type ContainerRecord, type ShipmentView } from './shipment-data.tsx';
import { ContainerCard, ShipmentHeader, Timeline } from './shipment-parts.tsx';

/** The map's data URL; map.js puts the container id in place of `{id}` when another box is selected. */
const mapUrlTemplate = (shipmentId: string) => `/shipments/${encodeURIComponent(shipmentId)}/containers/{id}/map.geojson`;

/** The map's and the page's own styles; MapLibre's stylesheet from its versioned folder (as routeMapHead in assets.ts). */
const STYLES = [`/assets/vendor/maplibre-gl@${MAPLIBRE_VERSION}/maplibre-gl.css`, assetUrl('map.css'), assetUrl('shipment.css')];
/** map.js draws the map; live.js (helper "web-track") swaps the live regions, asked for once it is in src/web/assets. */
const SCRIPTS = [assetUrl('map.js'), ...(existsSync(path.join(ASSETS_DIR, 'live.js')) ? [assetUrl('live.js')] : [])];

/** The live regions live.js swaps when the shipment changes (web-conventions.md); the map is in none. */
export const SHIPMENT_LIVE_REGIONS = ['shipment-header', 'shipment-containers', 'shipment-timeline'] as const;

function RouteMap({ view, selected }: { view: ShipmentView; selected: ContainerRecord | undefined }) {
  const id = view.shipment.id;
  return (
    <section class="shipment-map" aria-labelledby="map-heading">
      <h2 id="map-heading">Route{selected && <span class="muted"> of {selected.number}</span>}</h2>
      {!view.routing ? (
        <p class="alert info map-note">Route maps are not enabled for your account. Ask the operator of svc to switch on the routing feature.</p>
      ) : !selected ? (
        <p class="muted map-note">The route appears once the shipping line names a container.</p>
      ) : (
        <>
          <div
            id="route-map"
            class="route-map"
            role="region"
            aria-label={`Map of the route of container ${selected.number}`}
            data-route-map=""
            data-geojson-url={mapUrlTemplate(id)}
            data-container-id={selected.id}
          />
          <p class="muted map-data">
            <a href={mapUrlTemplate(id).replace('{id}', encodeURIComponent(selected.id))} type="application/geo+json">
              Route as GeoJSON
            </a>
          </p>
        </>
      )}
    </section>
  );
}

function ShipmentPage({ req, view, selected, focus, now }: { req: FastifyRequest; view: ShipmentView; selected: ContainerRecord | undefined; focus: boolean; now: Date }) {
  const { shipment, containers } = view;
  const others = containers.filter((c) => c !== selected);
  return (
    <Layout req={req} title={`B/L ${shipment.bill_of_lading_number}`} section="shipments" styles={STYLES} scripts={SCRIPTS}>
      <div class="shipment-page" data-live={`shipment:${shipment.id}`}>
        <p class="back">
          <a href="/shipments">← Shipments</a>
        </p>
        <ShipmentHeader shipment={shipment} now={now} />
        <div class="shipment-body">
          <section class="shipment-containers" aria-labelledby="containers-heading" data-live-region="shipment-containers">
            <h2 id="containers-heading">
              Containers <span class="muted">({containers.length})</span>
            </h2>
            {containers.length === 0 ? (
              <p class="muted">The shipping line has not named the containers yet.</p>
            ) : (
              <ul class="container-cards">
                {containers.map((c) => (
                  <ContainerCard container={c} selected={c === selected} focus={focus && c === selected} now={now} />
                ))}
              </ul>
            )}
          </section>
          <RouteMap view={view} selected={selected} />
          <section class="shipment-timeline" aria-labelledby="timeline-heading" data-live-region="shipment-timeline">
            <h2 id="timeline-heading">Milestones{selected && <span class="muted"> of {selected.number}</span>}</h2>
            <p class="muted legend">Local times of each place. Expected milestones are marked.</p>
            {selected ? <Timeline shipment={shipment} container={selected} now={now} /> : <p class="muted">No milestones yet.</p>}
            {others.map((c) => (
              <details class="other-timeline">
                <summary>Milestones of {c.number}</summary>
                <Timeline shipment={shipment} container={c} now={now} />
              </details>
            ))}
          </section>
        </div>
      </div>
    </Layout>
  );
}

export function shipmentRoutes(web: FastifyInstance, options: WebOptions): void {
  web.get<{ Params: { id: string }; Querystring: { container?: string } }>('/shipments/:id', async (req, reply) => {
    const view = await loadShipmentView(req.svc, req.params.id);
    const asked = typeof req.query.container === 'string' ? req.query.container : undefined;
    // A container of another shipment (an old link) selects the first box rather than failing the page.
    const chosen = asked ? view.containers.find((c) => c.id === asked) : undefined;
    const selected = chosen ?? view.containers[0];
    return sendPage(reply, <ShipmentPage req={req} view={view} selected={selected} focus={chosen !== undefined} now={(options.trackingClock ?? options.clock).now()} />);
  });

  web.get<{ Params: { id: string; cid: string } }>('/shipments/:id/containers/:cid/map.geojson', async (req, reply) => {
    reply.header('cache-control', 'no-store');
    try {
      await loadShipmentContainer(req.svc, req.params.id, req.params.cid);
      const map = await req.svc.containers.mapGeojson(req.params.cid);
      return reply.type('application/geo+json').send(map);
    } catch (err) {
      // map.js reads a status, not a page: plain JSON for what it may meet.
      if (err instanceof NotFound) return reply.code(404).type('application/json').send({ error: 'not_found', detail: err.detail });
      if (err instanceof FeatureNotEnabledError) return reply.code(403).type('application/json').send({ error: 'feature_not_enabled', detail: err.errors[0]?.detail ?? 'Routing data is not enabled for this account.' });
      throw err;
    }
  });
}
