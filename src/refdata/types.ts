// Row shapes of the reference tables. The parsers produce them and the store reads
// them back unchanged: each field is a column of the same name (see 002_reference_data.sql).

/** A UN/LOCODE location: a seaport, a metro area (inland rail hub, rail or ICD point), or both. */
export interface LocationRow {
  id: string;
  locode: string;
  name: string;
  country_code: string;
  /** Subdivision code, kept only for the US, Canada and Mexico, where addresses use it. */
  state_abbr: string | null;
  city: string;
  latitude: number | null;
  longitude: number | null;
  time_zone: string | null;
  is_seaport: boolean;
  is_rail: boolean;
  is_icd: boolean;
  is_inland_hub: boolean;
  /** For the old Chinese port codes carriers still use: the canonical LOCODE this row copies. */
  alias_of: string | null;
}

export interface ShippingLineRow {
  id: string;
  scac: string;
  name: string;
  short_name: string;
  alternative_scacs: string[];
  bill_of_lading_tracking_support: boolean;
  booking_number_tracking_support: boolean;
  container_number_tracking_support: boolean;
  /** Carrier group (e.g. Maersk for Sealand); `group` is an SQL keyword, hence the prefix. */
  carrier_group: string | null;
  smdg_code: string | null;
  bl_prefixes: string[];
  container_prefixes: string[];
}

export interface TerminalRow {
  id: string;
  name: string;
  nickname: string | null;
  firms_code: string | null;
  smdg_code: string | null;
  city: string | null;
  state_abbr: string | null;
  country: string;
  port_id: string;
  latitude: number | null;
  longitude: number | null;
}

export interface RailTerminalRow {
  id: string;
  name: string;
  nickname: string | null;
  firms_code: string | null;
  port_id: string | null;
  metro_area_id: string;
}

export interface VesselRow {
  id: string;
  name: string;
  imo: string;
  mmsi: string | null;
  operator: string | null;
}
