// Pure builders of the route map's GeoJSON features (spec "Route map (the service)"): one function
// per feature type, each taking what the service has loaded and computed, so the rules can be read
// and tested without a database.
import type { LonLat } from '../geo/distance.ts';
import { simplifyLine, splitAtAntimeridian } from '../geo/simplify.ts';
import type { Leg, PortCall } from '../domain/route/legs.ts';
import type { LocationRow } from '../refdata/types.ts';
import type { VesselPosition } from '../store/vessel-positions.ts';

export type Position = [number, number];
export interface PointGeometry {
  type: 'Point';
  coordinates: Position;
}
export interface LineGeometry {
  type: 'LineString';
  coordinates: Position[];
}
export interface Feature {
  type: 'Feature';
  geometry: PointGeometry | LineGeometry;
  properties: Record<string, string | number | null>;
}
export interface FeatureCollection {
  type: 'FeatureCollection';
  features: Feature[];
}

/**
 * Douglas–Peucker tolerance in degrees (~2 km at the equator): far below what a world or ocean
 * map shows, and it turns a month of AIS reports (thousands of points) into a few hundred.
 */
export const SIMPLIFY_TOLERANCE_DEG = 0.02;

/** Made on first use: loading ICU's region names costs about 0.1 s, which svc serve's start need not pay. */
let regionNames: Intl.DisplayNames | undefined;

/** English name of an ISO 3166 country code (Intl's CLDR data), the code itself when unknown. */
export function countryName(code: string): string {
  try {
    regionNames ??= new Intl.DisplayNames(['en'], { type: 'region' });
    return regionNames.of(code) ?? code;
  } catch {
    return code;
  }
}

const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString().replace('.000Z', 'Z') : null);

/**
 * A line ready for the map: simplified, longitudes kept in [-180, 180]. Where it crosses the
 * antimeridian it is cut at ±180 and each side simplified on its own (planar distances across the
 * jump mean nothing); the sides are joined again, so the crossing shows as consecutive
 * coordinates 360° apart (spec rule 5), not as separate lines.
 */
export function displayLine(coords: readonly LonLat[]): Position[] {
  return splitAtAntimeridian(coords).flatMap((part) => simplifyLine(part, SIMPLIFY_TOLERANCE_DEG));
}

export const isValidPosition = (p: Pick<VesselPosition, 'latitude' | 'longitude'>): boolean =>
  Number.isFinite(p.latitude) && Number.isFinite(p.longitude) && Math.abs(p.latitude) <= 90 && Math.abs(p.longitude) <= 180;

export const lonLatOf = (port: LocationRow): Position | null =>
  port.latitude === null || port.longitude === null ? null : [Number(port.longitude), Number(port.latitude)];

const line = (coordinates: Position[]): LineGeometry => ({ type: 'LineString', coordinates });

export function portFeature(call: PortCall, portsTotal: number, port: LocationRow, at: Position, updatedAt: Date | null): Feature {
  return {
    type: 'Feature',
    geometry: { type: 'Point', coordinates: at },
    properties: {
      feature_type: 'port',
      ports_sequence: call.sequence,
      ports_total: portsTotal,
      location_id: port.id,
      location_type: 'Port',
      name: port.name,
      state_abbr: port.state_abbr,
      // The reference data holds subdivision codes only, not their names.
      state: null,
      country_code: port.country_code,
      country: countryName(port.country_code),
      time_zone: port.time_zone,
      label: call.label,
      inbound_eta_at: iso(call.inboundEta),
      inbound_ata_at: iso(call.inboundAta),
      outbound_etd_at: iso(call.outboundEtd),
      outbound_atd_at: iso(call.outboundAtd),
      updated_at: iso(updatedAt),
    },
  };
}

/** The departure or arrival port of the current leg, under `departure_port_*` or `arrival_port_*`. */
function portSide(prefix: 'departure_port' | 'arrival_port', call: PortCall, port: LocationRow): Record<string, string | null> {
  return {
    [`${prefix}_id`]: port.id,
    [`${prefix}_name`]: port.name,
    [`${prefix}_state_abbr`]: port.state_abbr,
    [`${prefix}_state`]: null,
    [`${prefix}_country_code`]: port.country_code,
    [`${prefix}_country`]: countryName(port.country_code),
    [`${prefix}_label`]: call.label,
    ...(prefix === 'departure_port' ? { departure_port_atd: iso(call.outboundAtd) } : { arrival_port_eta: iso(call.inboundEta) }),
    [`${prefix}_time_zone`]: port.time_zone,
  };
}

export interface LegPorts {
  from: LocationRow;
  to: LocationRow;
}

export function currentVesselFeature(leg: Leg, ports: LegPorts, vessel: { id: string; imo: string; name: string }, position: VesselPosition): Feature {
  return {
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [position.longitude, position.latitude] },
    properties: {
      feature_type: 'current_vessel',
      ports_sequence: leg.sequence,
      vessel_id: vessel.id,
      vessel_name: vessel.name,
      vessel_imo: vessel.imo,
      voyage_number: leg.voyageNumber,
      vessel_location_timestamp: iso(position.at),
      // AIS sends 511 for "no heading"; the store keeps what it was given.
      vessel_location_heading: position.headingDegrees !== null && position.headingDegrees >= 0 && position.headingDegrees <= 360 ? position.headingDegrees : null,
      vessel_location_speed: position.speedKnots,
      ...portSide('departure_port', leg.from, ports.from),
      ...portSide('arrival_port', leg.to, ports.to),
    },
  };
}

export function pastVesselLocationsFeature(leg: Leg, vesselId: string, coordinates: Position[], startTime: Date, endTime: Date): Feature {
  return {
    type: 'Feature',
    geometry: line(coordinates),
    properties: {
      feature_type: 'past_vessel_locations',
      ports_sequence: leg.sequence,
      vessel_id: vesselId,
      start_time: iso(startTime),
      end_time: iso(endTime),
      point_count: coordinates.length,
      outbound_atd_at: iso(leg.from.outboundAtd),
      inbound_ata_at: iso(leg.to.inboundAta),
      inbound_eta_at: iso(leg.to.inboundEta),
    },
  };
}

export function estimatedFullLegFeature(leg: Leg, ports: LegPorts, coordinates: Position[]): Feature {
  return {
    type: 'Feature',
    geometry: line(coordinates),
    properties: { feature_type: 'estimated_full_legs', ports_sequence: leg.sequence, previous_port_id: ports.from.id, next_port_id: ports.to.id, point_count: coordinates.length },
  };
}

export function estimatedPartialLegFeature(leg: Leg, ports: LegPorts, coordinates: Position[]): Feature {
  return {
    type: 'Feature',
    geometry: line(coordinates),
    properties: { feature_type: 'estimated_partial_leg', ports_sequence: leg.sequence, current_port_id: ports.from.id, next_port_id: ports.to.id, point_count: coordinates.length },
  };
}
