// The route map of a shipment's containers: svc's route GeoJSON (GET /v2/containers/{id}/map_geojson,
// or the web app's route serving the same document) drawn with MapLibre GL over an offline base map
// (Natural Earth land polygons served by svc). Nothing is fetched from the internet: the style has no
// tiles, glyphs or sprites, so there are no text layers; ports and the vessel are HTML markers, which
// also makes them keyboard-focusable buttons with labels.
//
// Use:  createRouteMap(element, { geojsonUrl: '/…/{id}/map.geojson', selectedContainerId: id })
// or no script at all: <div data-route-map data-geojson-url="/…/{id}/map.geojson" data-container-id="…">,
// with buttons <button data-route-map-select="other-container-id"> to switch containers.
// The element gets data-state="loading" | "ready" | "error" and fires `routemap:ready` (detail: what was
// drawn) or `routemap:error`. Page scripts steer it with events on the element: `routemap:select`
// (detail: a container id) and `routemap:refresh` (draw the same container again, e.g. on a server-sent
// event, keeping the user's view).
import * as maplibregl from './vendor/maplibre-gl.mjs';

const BASE_MAP_URL = new URL('./basemap/world-land-50m-rounded.geojson', import.meta.url).href;
const PAST = ['past_vessel_locations'];
const PLANNED = ['estimated_full_legs', 'estimated_partial_leg'];
const LINE_LAYERS = { pastLegs: 'route-past', plannedLegs: 'route-planned' };

/** Inline style: sea, land and the (initially empty) route lines. */
function style(baseMapUrl) {
  return {
    version: 8,
    sources: {
      land: { type: 'geojson', data: baseMapUrl, attribution: '© Natural Earth' },
      route: { type: 'geojson', data: { type: 'FeatureCollection', features: [] } },
    },
    layers: [
      { id: 'sea', type: 'background', paint: { 'background-color': '#dcebf5' } },
      { id: 'land', type: 'fill', source: 'land', paint: { 'fill-color': '#f3f0e8', 'fill-outline-color': '#c8c1b0' } },
      {
        id: LINE_LAYERS.plannedLegs, type: 'line', source: 'route',
        filter: ['in', ['get', 'feature_type'], ['literal', PLANNED]],
        layout: { 'line-cap': 'butt', 'line-join': 'round' },
        paint: { 'line-color': '#1d4ed8', 'line-width': 2.5, 'line-opacity': 0.75, 'line-dasharray': [2, 2] },
      },
      {
        id: LINE_LAYERS.pastLegs, type: 'line', source: 'route',
        filter: ['in', ['get', 'feature_type'], ['literal', PAST]],
        layout: { 'line-cap': 'round', 'line-join': 'round' },
        paint: { 'line-color': '#1e3a8a', 'line-width': 3.5 },
      },
    ],
  };
}

/**
 * Shifts longitudes by whole turns so that each coordinate lies within 180° of the one before, in
 * the document's order (port, its leg, next port…). svc keeps longitudes in [-180, 180], so a line
 * across the Pacific jumps from 179 to -179; unwrapped it continues to 181 and MapLibre draws it on
 * the next world copy instead of back across the whole map. Markers follow the same shift.
 */
export function unwrapLongitudes(features) {
  let last = null;
  const near = ([lon, lat]) => {
    if (last !== null) lon += 360 * Math.round((last - lon) / 360);
    last = lon;
    return [lon, lat];
  };
  return features.map((f) => {
    const g = f.geometry;
    const coordinates = g.type === 'Point' ? near(g.coordinates) : g.coordinates.map(near);
    return { ...f, geometry: { ...g, coordinates } };
  });
}

/** A time in the port's own zone, with the zone's name ("12 Jan 2026, 08:00 GMT+8"). */
function localTime(iso, timeZone) {
  if (!iso) return null;
  // (dateStyle/timeStyle cannot be combined with timeZoneName.)
  const options = { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' };
  try {
    return new Intl.DateTimeFormat(undefined, { ...options, timeZone: timeZone ?? 'UTC' }).format(new Date(iso));
  } catch {
    return new Intl.DateTimeFormat(undefined, { ...options, timeZone: 'UTC' }).format(new Date(iso));
  }
}

/** A popup body built from text nodes (names come from carriers: never parsed as HTML). */
function popupBody(title, rows) {
  const box = document.createElement('div');
  box.className = 'route-map-popup';
  const h = box.appendChild(document.createElement('strong'));
  h.textContent = title;
  const dl = box.appendChild(document.createElement('dl'));
  for (const [term, value] of rows) {
    if (value === null || value === undefined || value === '') continue;
    dl.appendChild(document.createElement('dt')).textContent = term;
    dl.appendChild(document.createElement('dd')).textContent = String(value);
  }
  return box;
}

function portMarker(feature) {
  const p = feature.properties;
  const zone = p.time_zone;
  const place = [p.name, p.state_abbr, p.country_code].filter(Boolean).join(', ');
  const arrival = p.inbound_ata_at ? ['Arrived', localTime(p.inbound_ata_at, zone)] : ['Expected', localTime(p.inbound_eta_at, zone)];
  const departure = p.outbound_atd_at ? ['Departed', localTime(p.outbound_atd_at, zone)] : ['Departure planned', localTime(p.outbound_etd_at, zone)];
  // A port the box has neither reached nor left is only the carrier's plan (the route is known
  // from the booking on); it is drawn hollow and says so, never as a call made.
  const planned = !p.inbound_ata_at && !p.outbound_atd_at;
  const button = document.createElement('button');
  button.type = 'button';
  button.className = `route-map-port route-map-port--${p.label === 'POL' || p.label === 'POD' ? 'end' : 'via'}${planned ? ' route-map-port--planned' : ''}`;
  button.setAttribute('aria-label', `${p.label}: ${place}${planned ? ' (planned)' : ''}`);
  button.textContent = p.label;
  const rows = [...(planned ? [['Status', 'Planned call']] : []), arrival, departure, ['Time zone', zone]];
  const popup = new maplibregl.Popup({ offset: 12, closeButton: true }).setDOMContent(popupBody(`${p.label} · ${place}`, rows));
  return new maplibregl.Marker({ element: button }).setLngLat(feature.geometry.coordinates).setPopup(popup);
}

function vesselMarker(feature) {
  const p = feature.properties;
  const el = document.createElement('button');
  el.type = 'button';
  el.className = 'route-map-vessel';
  el.setAttribute('aria-label', `Vessel ${p.vessel_name}, position of ${localTime(p.vessel_location_timestamp, 'UTC')}`);
  const speed = p.vessel_location_speed === null ? null : `${p.vessel_location_speed.toFixed(1)} kn`;
  const popup = new maplibregl.Popup({ offset: 14 }).setDOMContent(
    popupBody(p.vessel_name, [
      ['IMO', p.vessel_imo],
      ['Voyage', p.voyage_number],
      ['Position at', localTime(p.vessel_location_timestamp, 'UTC')],
      ['Speed', speed],
      ['From', p.departure_port_name],
      ['To', p.arrival_port_name],
      ['ETA', localTime(p.arrival_port_eta, p.arrival_port_time_zone)],
    ]),
  );
  // The arrow points along the heading; without one it stays a dot.
  const heading = p.vessel_location_heading;
  if (heading === null) el.classList.add('route-map-vessel--no-heading');
  return new maplibregl.Marker({ element: el, rotation: heading ?? 0, rotationAlignment: 'map' }).setLngLat(feature.geometry.coordinates).setPopup(popup);
}

function boundsOf(features) {
  const bounds = new maplibregl.LngLatBounds();
  for (const f of features) {
    const coords = f.geometry.type === 'Point' ? [f.geometry.coordinates] : f.geometry.coordinates;
    for (const c of coords) bounds.extend(c);
  }
  return bounds;
}

const urlFor = (template, id) => (typeof template === 'function' ? template(id) : template.replaceAll('{id}', encodeURIComponent(id)));

/**
 * Builds the map in `element` and draws the route of `selectedContainerId`. `geojsonUrl` is a URL
 * with `{id}` where the container id goes (or a function of the id). Returns { map, setContainer, ready }.
 */
export function createRouteMap(element, { geojsonUrl, selectedContainerId, baseMapUrl = BASE_MAP_URL, fetchOptions = {} }) {
  element.classList.add('route-map');
  const map = new maplibregl.Map({
    container: element,
    style: style(baseMapUrl),
    center: [0, 20],
    zoom: 1,
    attributionControl: { compact: false },
    // Page scrolling wins over the map's zoom on a phone unless two fingers are used.
    cooperativeGestures: matchMedia('(pointer: coarse)').matches,
  });
  map.addControl(new maplibregl.NavigationControl({ showCompass: false }));
  const loaded = new Promise((resolve) => map.once('load', resolve));
  let markers = [];
  let generation = 0;
  const notice = element.appendChild(document.createElement('p'));
  notice.className = 'route-map-notice';
  notice.hidden = true;

  function emit(state, detail) {
    element.dataset.state = state;
    if (state === 'ready') element.dataset.drawn = JSON.stringify(detail);
    if (state === 'error') element.dataset.error = detail.message;
    element.dispatchEvent(new CustomEvent(`routemap:${state}`, { detail, bubbles: true }));
  }

  /** Line features actually on screen, per layer: what a test (or a curious user) can check. */
  function renderedCounts() {
    const counts = {};
    for (const [name, layer] of Object.entries(LINE_LAYERS)) {
      // A line cut by tile edges comes back in pieces: count distinct legs.
      const legs = map.queryRenderedFeatures({ layers: [layer] }).map((f) => `${f.properties.feature_type}:${f.properties.ports_sequence}`);
      counts[name] = new Set(legs).size;
    }
    return counts;
  }

  /** Draws the route of `containerId`; `fit: false` keeps the view (a refresh of the same container). */
  async function setContainer(containerId, { fit = true } = {}) {
    const mine = ++generation;
    element.dataset.containerId = containerId;
    emit('loading', { containerId });
    try {
      const res = await fetch(urlFor(geojsonUrl, containerId), { headers: { accept: 'application/geo+json, application/json' }, ...fetchOptions });
      if (!res.ok) throw new Error(`route map answered HTTP ${res.status}`);
      const collection = await res.json();
      await loaded;
      // A slower answer for a container no longer selected is dropped.
      if (mine !== generation) return;
      const features = unwrapLongitudes(collection.features ?? []);
      const byType = (types) => features.filter((f) => types.includes(f.properties.feature_type));
      map.getSource('route').setData({ type: 'FeatureCollection', features });
      for (const m of markers) m.remove();
      markers = [...byType(['port']).map(portMarker), ...byType(['current_vessel']).map(vesselMarker)];
      for (const m of markers) m.addTo(map);
      notice.hidden = features.length > 0;
      notice.textContent = 'The route is not known yet.';
      const bounds = features.length > 0 ? boundsOf(features) : null;
      if (bounds && fit) map.fitBounds(bounds, { padding: 48, maxZoom: 6, duration: 0 });
      await new Promise((resolve) => map.once('idle', resolve));
      if (mine !== generation) return;
      emit('ready', {
        containerId,
        ports: byType(['port']).length,
        vessel: byType(['current_vessel']).length,
        pastLegs: byType(PAST).length,
        plannedLegs: byType(PLANNED).length,
        rendered: renderedCounts(),
        // [[west, south], [east, north]] of the unwrapped route: east may pass 180.
        bounds: bounds?.toArray() ?? null,
      });
    } catch (err) {
      if (mine !== generation) return;
      notice.hidden = false;
      notice.textContent = 'The route map could not be loaded.';
      emit('error', { containerId, message: err instanceof Error ? err.message : String(err) });
    }
  }

  const refresh = () => setContainer(element.dataset.containerId, { fit: false });
  element.addEventListener('routemap:select', (e) => setContainer(e.detail));
  element.addEventListener('routemap:refresh', () => refresh());
  const ready = setContainer(selectedContainerId);
  return { map, setContainer, refresh, ready, renderedCounts };
}

/** Maps built by autoInit, by element. */
const byElement = new WeakMap();
export const routeMapOf = (element) => byElement.get(element);

/** Builds a map in every `[data-route-map]` element not built yet, and wires `[data-route-map-select]` buttons. */
export function autoInit(root = document) {
  for (const el of root.querySelectorAll('[data-route-map]')) {
    if (byElement.has(el)) continue;
    byElement.set(el, createRouteMap(el, { geojsonUrl: el.dataset.geojsonUrl, selectedContainerId: el.dataset.containerId }));
  }
}

if (typeof document !== 'undefined') {
  autoInit();
  // A select button names its map by id in data-route-map-target, else the page's first map.
  document.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest('[data-route-map-select]') : null;
    if (!button) return;
    const target = button.dataset.routeMapTarget ? document.getElementById(button.dataset.routeMapTarget) : document.querySelector('[data-route-map]');
    if (!target) return;
    for (const b of document.querySelectorAll('[data-route-map-select]')) b.setAttribute('aria-pressed', String(b === button));
    target.dispatchEvent(new CustomEvent('routemap:select', { detail: button.dataset.routeMapSelect }));
  });
}
