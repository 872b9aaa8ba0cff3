// JSON:API resources for reference data: shipping lines, ports, metro areas,
// terminals, rail terminals and vessels.
import type { LocationRow, RailTerminalRow, ShippingLineRow, TerminalRow, VesselRow } from '../../refdata/types.ts';
import type { PositionPoint } from '../../services/vessels.ts';
import type { VesselPosition } from '../../store/vessel-positions.ts';
import { iso, toOne, type Resource } from '../document.ts';

export function shippingLineResource(row: ShippingLineRow): Resource {
  return {
    id: row.id,
    type: 'shipping_line',
    attributes: {
      scac: row.scac,
      name: row.name,
      short_name: row.short_name,
      alternative_scacs: row.alternative_scacs,
      bill_of_lading_tracking_support: row.bill_of_lading_tracking_support,
      booking_number_tracking_support: row.booking_number_tracking_support,
      container_number_tracking_support: row.container_number_tracking_support,
    },
    links: { self: `/v2/shipping_lines/${row.id}` },
  };
}

// The live API repeats the id inside port attributes; metro areas get the same
// treatment so the two views of one location look alike.
const portAttributes = (row: LocationRow) => ({
  id: row.id,
  name: row.name,
  code: row.locode,
  state_abbr: row.state_abbr,
  city: row.city,
  country_code: row.country_code,
  time_zone: row.time_zone,
  latitude: row.latitude,
  longitude: row.longitude,
});

export function portResource(row: LocationRow): Resource {
  return { id: row.id, type: 'port', attributes: portAttributes(row), links: { self: `/v2/ports/${row.id}` } };
}

export function metroAreaResource(row: LocationRow): Resource {
  const { city: _city, ...attributes } = portAttributes(row);
  return { id: row.id, type: 'metro_area', attributes, links: { self: `/v2/metro_areas/${row.id}` } };
}

export function terminalResource(row: TerminalRow): Resource {
  return {
    id: row.id,
    type: 'terminal',
    attributes: {
      // Repeated here, as the spec lists it among a terminal's attributes (a port's repeats it too).
      id: row.id,
      name: row.name,
      nickname: row.nickname,
      firms_code: row.firms_code,
      smdg_code: row.smdg_code,
      bic_facility_code: null,
      street: null,
      city: row.city,
      // The sources give only the abbreviation, not the state's full name.
      state: null,
      state_abbr: row.state_abbr,
      zip: null,
      country: row.country,
    },
    relationships: { port: toOne('port', row.port_id) },
    links: { self: `/v2/terminals/${row.id}` },
  };
}

export function railTerminalResource(row: RailTerminalRow): Resource {
  return {
    id: row.id,
    type: 'rail_terminal',
    attributes: { name: row.name, nickname: row.nickname, firms_code: row.firms_code },
    relationships: {
      port: toOne('port', row.port_id),
      metro_area: toOne('metro_area', row.metro_area_id),
    },
    links: { self: `/v2/rail_terminals/${row.id}` },
  };
}

/**
 * Like every record, a vessel links to itself by id, whether it was fetched by id or by IMO. Its
 * position attributes are the latest AIS report (null without one); `positions` is there only when
 * asked for (a track, or a predicted path).
 */
export function vesselResource(row: VesselRow, latest: VesselPosition | null = null, positions?: PositionPoint[]): Resource {
  return {
    id: row.id,
    type: 'vessel',
    attributes: {
      name: row.name,
      imo: row.imo,
      // The MMSI the vessel transmits as, once AIS has been heard; until then the reference data's.
      mmsi: latest ? String(latest.mmsi) : row.mmsi,
      latitude: latest?.latitude ?? null,
      longitude: latest?.longitude ?? null,
      nautical_speed_knots: latest?.speedKnots ?? null,
      navigational_heading_degrees: latest ? (latest.headingDegrees ?? latest.courseDegrees) : null,
      position_timestamp: iso(latest?.at),
      ...(positions ? { positions: positions.map((p) => ({ ...p, timestamp: iso(p.timestamp) })) } : {}),
    },
    links: { self: `/v2/vessels/${row.id}` },
  };
}
