// What the sandbox knows about the real world: ports with coordinates, time zones and SMDG
// terminal codes, the carriers it impersonates with their B/L and container prefixes, real
// vessels, and sea distances. Built once from refdata/ through svc's own parsers.
import { createHash } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { numberOrNull, textOrNull } from '../refdata/csv.ts';
import { haversineNm } from '../geo/distance.ts';
import { seaRoute } from '../geo/searoute.ts';
import { readSources, type Sources } from '../refdata/parse.ts';
import { stableId } from '../refdata/ids.ts';
import { parseShippingLines } from '../refdata/shipping-lines.ts';
import { parseTerminals } from '../refdata/terminals.ts';
import type { LocationRow, ShippingLineRow, TerminalRow, VesselRow } from '../refdata/types.ts';
import { parseVessels } from '../refdata/vessels.ts';

export interface Terminal {
  name: string;
  smdgCode: string | null;
  firmsCode: string | null;
}

export interface Place {
  locode: string;
  name: string;
  countryCode: string;
  /** IANA zone; event times are written with this zone's offset. */
  timeZone: string;
  lon: number;
  lat: number;
  terminals: Terminal[];
}

export interface SandboxCarrier {
  scac: string;
  name: string;
  blPrefixes: string[];
  containerPrefixes: string[];
  /** Vessels whose operator matches one of these names sail the carrier's main legs. */
  operatorNames: string[];
}

/** The real carriers the sandbox answers for, plus TEST for the documented test numbers. */
export const SANDBOX_SCACS = ['MAEU', 'MSCU', 'CMDU', 'HLCU', 'ONEY', 'EGLV', 'COSU', 'HDMU', 'YMLU', 'ZIMU', 'OOLU', 'TEST'] as const;

// TEST has no prefixes in carriers.csv. SBXU is not a registered BIC owner code, so numbers the
// sandbox mints for it can never collide with a real box.
const TEST_PREFIXES = { bl: ['TEST'], containers: ['SBXU'] };

// Small ships from vessels.csv that plausibly run feeder services; the rest are mainline ships.
const FEEDER_VESSEL_NAMES = ['ELBSPRING', 'TONGALA', 'NORTHERN PRIORITY'];

// Should the sea-route network find no path, the great circle stretched by a typical detour stands in.
const SEA_DETOUR_FALLBACK = 1.3;

export interface SandboxWorld {
  /** The place of a UN/LOCODE; throws for codes without coordinates (a bug in the lane tables). */
  place(locode: string): Place;
  carrier(scac: string): SandboxCarrier | undefined;
  readonly carriers: readonly SandboxCarrier[];
  readonly mainlineVessels: readonly VesselRow[];
  readonly feederVessels: readonly VesselRow[];
  /** Made-up ships chartered when every reference ship is booked at the time of a leg (ship-calendar.ts). */
  readonly charterVessels: readonly VesselRow[];
  seaDistanceNm(from: string, to: string): number;
}

/** The columns of a ports.csv row the sandbox reads. */
type Port = Pick<LocationRow, 'locode' | 'name' | 'country_code' | 'latitude' | 'longitude' | 'time_zone' | 'alias_of'>;

/** What the world is built from: the reference data, reduced to what the sandbox reads. */
export interface SandboxData {
  ports: Port[];
  /** Their `port_id` is the port's LOCODE. */
  terminals: TerminalRow[];
  shippingLines: ShippingLineRow[];
  vessels: VesselRow[];
}

/**
 * ports.csv as the sandbox needs it: the ports it can place (coordinates and a time zone) and the
 * ones they are aliases of, with the columns place() reads, as svc's parser (refdata/locations.ts)
 * reads them. Each record is reduced as it is read: svc's full parse of all 22k rows (every column,
 * a UUID each) cost about a second and 70 MB of heap at every start of svc serve, a heap V8 then
 * kept long after the rows were garbage.
 */
function readPorts(portsCsv: string): Port[] {
  const header = portsCsv.slice(0, portsCsv.indexOf('\n')).replace(/^\uFEFF/, '').trim().split(',');
  const at = (name: string) => {
    const i = header.indexOf(name);
    if (i < 0) throw new Error(`ports.csv has no ${name} column`);
    return i;
  };
  const [locode, name, country, lat, lon, timeZone, aliasOf] = ['unlocode', 'name', 'country', 'lat', 'lon', 'time_zone', 'alias_of'].map(at);
  const placeable: Port[] = [];
  const others = new Map<string, Port>();
  parse(portsCsv, {
    bom: true,
    from_line: 2,
    skip_empty_lines: true,
    on_record: (r: string[]) => {
      const port: Port = {
        locode: r[locode].trim(),
        name: r[name].trim(),
        country_code: r[country].trim(),
        latitude: numberOrNull(r[lat]),
        longitude: numberOrNull(r[lon]),
        time_zone: textOrNull(r[timeZone].trim()),
        alias_of: textOrNull(r[aliasOf].trim()),
      };
      if (port.latitude !== null && port.longitude !== null && port.time_zone) placeable.push(port);
      else others.set(port.locode, port);
      return null; // nothing collected by csv-parse itself
    },
  });
  const aliased = new Set(placeable.map((p) => p.alias_of).filter((a) => a !== null));
  return [...placeable, ...[...others.values()].filter((p) => aliased.has(p.locode))];
}

/** The sandbox's share of the reference data, parsed by svc's parsers where they are cheap. */
function sandboxData(sources: Sources): SandboxData {
  const text = (f: keyof Sources) => sources[f].toString('utf8');
  const ports = readPorts(text('ports.csv'));
  // The terminal matcher reads a port's name, code, country (and state); its id becomes the terminal's
  // port_id, so the LOCODE stands in for the UUID the world never shows.
  const asLocations = ports.map((p): LocationRow => ({ ...p, id: p.locode, state_abbr: null, city: p.name, is_seaport: false, is_rail: false, is_icd: false, is_inland_hub: false }));
  return {
    ports,
    terminals: parseTerminals(text('terminals.csv'), text('terminals_smdg.csv'), asLocations),
    shippingLines: parseShippingLines(text('carriers.csv'), text('carrier_tracking_support.csv')),
    vessels: parseVessels(text('vessels.csv')),
  };
}

function buildSandboxWorld(data: SandboxData): SandboxWorld {
  const locations = new Map(data.ports.map((p) => [p.locode, p]));

  const terminalsByLocode = new Map<string, Terminal[]>();
  for (const t of data.terminals) {
    const locode = t.port_id;
    const list = terminalsByLocode.get(locode) ?? [];
    list.push({ name: t.name, smdgCode: t.smdg_code, firmsCode: t.firms_code });
    terminalsByLocode.set(locode, list);
  }

  const places = new Map<string, Place>();
  function place(locode: string): Place {
    const cached = places.get(locode);
    if (cached) return cached;
    const row = locations.get(locode);
    if (!row || row.latitude === null || row.longitude === null || !row.time_zone) {
      throw new Error(`sandbox: no coordinates or time zone for ${locode}`);
    }
    // Carriers still use old codes such as CNSHA; their terminals are filed under the current code.
    const terminals = [...(terminalsByLocode.get(locode) ?? []), ...(row.alias_of ? (terminalsByLocode.get(row.alias_of) ?? []) : [])];
    const result: Place = {
      locode,
      name: row.name,
      countryCode: row.country_code,
      timeZone: row.time_zone,
      lon: row.longitude,
      lat: row.latitude,
      // Events name terminals by SMDG code, so terminals that have one come first.
      terminals: [...terminals.filter((t) => t.smdgCode), ...terminals.filter((t) => !t.smdgCode)],
    };
    places.set(locode, result);
    return result;
  }

  const lines = new Map(data.shippingLines.map((l) => [l.scac, l]));
  const carriers: SandboxCarrier[] = SANDBOX_SCACS.map((scac) => {
    const line = lines.get(scac);
    if (!line) throw new Error(`sandbox: ${scac} is missing from carriers.csv`);
    const isTest = scac === 'TEST';
    return {
      scac,
      name: line.name,
      blPrefixes: isTest ? TEST_PREFIXES.bl : line.bl_prefixes,
      containerPrefixes: isTest ? TEST_PREFIXES.containers : line.container_prefixes,
      operatorNames: [line.short_name, ...(line.carrier_group ? [line.carrier_group] : [])],
    };
  });
  const carrierByScac = new Map(carriers.map((c) => [c.scac, c]));

  const feederVessels = data.vessels.filter((v) => FEEDER_VESSEL_NAMES.includes(v.name));
  const mainlineVessels = data.vessels.filter((v) => !FEEDER_VESSEL_NAMES.includes(v.name));

  const distances = new Map<string, number>();
  function seaDistanceNm(from: string, to: string): number {
    const key = from < to ? `${from}-${to}` : `${to}-${from}`;
    const cached = distances.get(key);
    if (cached !== undefined) return cached;
    const a = place(from);
    const b = place(to);
    const route = seaRoute([a.lon, a.lat], [b.lon, b.lat]);
    const nm = route ? route.distanceNm : haversineNm([a.lon, a.lat], [b.lon, b.lat]) * SEA_DETOUR_FALLBACK;
    distances.set(key, nm);
    return nm;
  }

  return {
    place,
    carrier: (scac) => carrierByScac.get(scac),
    carriers,
    mainlineVessels,
    feederVessels,
    charterVessels: CHARTER_VESSELS,
    seaDistanceNm,
  };
}

/**
 * The reference data names a few dozen ships, too few to sail every journey a sandbox is asked
 * about without booking one ship twice; these fill in. Their IMO numbers check (carriers' events
 * are only believed with a valid one) and their names say what they are.
 */
const CHARTER_VESSELS: readonly VesselRow[] = Array.from({ length: 400 }, (_, i) => {
  const six = String(990_000 + i);
  const check = [...six].reduce((sum, d, k) => sum + Number(d) * (7 - k), 0) % 10;
  const imo = `${six}${check}`;
  return { id: stableId('vessel', imo), imo, name: `SANDBOX CHARTER ${i + 1}`, mmsi: null, operator: 'chartered (sandbox)' };
});

/** Bump when sandboxData() makes something else of unchanged files, so kept copies are made again. */
const DATA_FORMAT = 1;

/**
 * sandboxData(), kept in `file` between starts: reading ports.csv and matching terminals to ports
 * is about half a second of CPU, paid at every start of svc serve before this copy. The copy is
 * keyed by a digest of the source files (a couple of milliseconds), so changed reference data or
 * parsers (DATA_FORMAT) make it again; a copy that cannot be read or written (a read-only folder,
 * a torn file) is made afresh, as without one.
 */
export async function keptSandboxData(sources: Sources, file: string | undefined): Promise<SandboxData> {
  if (!file) return sandboxData(sources);
  const hash = createHash('sha256').update(`sandbox-data:${DATA_FORMAT}\n`);
  for (const [name, bytes] of Object.entries(sources)) hash.update(`${name}:${bytes.length}\n`).update(bytes);
  const key = hash.digest('hex');
  const kept = await readFile(file, 'utf8').then(
    (text) => JSON.parse(text) as { key?: string; data?: SandboxData } | null,
    () => null,
  ).catch(() => null);
  if (kept?.key === key && kept.data) return kept.data;
  const data = sandboxData(sources);
  // Written aside and renamed: a concurrent reader sees the old copy or the new one, never half.
  const aside = `${file}.${process.pid}.tmp`;
  await writeFile(aside, JSON.stringify({ key, data }))
    .then(() => rename(aside, file))
    .catch(() => rm(aside, { force: true }));
  return data;
}

let loading: Promise<SandboxWorld> | undefined;

/**
 * The world from refdata/, parsed on first use and shared by every sandbox in the process; with
 * `dataFile`, what it is built from is kept there for the next process (keptSandboxData).
 */
export function loadSandboxWorld(dataFile?: string): Promise<SandboxWorld> {
  loading ??= readSources()
    .then(async (sources) => buildSandboxWorld(await keptSandboxData(sources, dataFile)))
    .catch((error: unknown) => {
      loading = undefined; // a later call may succeed (e.g. a file being replaced)
      throw error;
    });
  return loading;
}
