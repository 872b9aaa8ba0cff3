// A container's multi-leg route from GET /containers/{id}/route?include=port,vessel,route_location
// (digest §9.5: route locations with inbound and outbound mode, carrier SCAC, ETA/ATA/ETD/ATD and
// vessel). svc answers it with the names its map data uses (inbound_eta_at, outbound_atd_at…); the
// reading stays tolerant, since the reference's own document is unpublished: every member may be
// absent, and shorter names (eta_at, eta) are tried too.
import { z } from 'zod';
import { first, instant, num, rec, recs, str, type Rec } from './read.ts';

const vesselSchema = z.object({ name: z.string().nullable(), imo: z.string().nullable() });
const sideSchema = z.object({
  mode: z.string().nullable().describe('vessel, feeder, barge, rail, truck…'),
  carrierScac: z.string().nullable(),
  vessel: vesselSchema.nullable(),
  voyageNumber: z.string().nullable(),
  estimatedAt: z.string().nullable().describe('ETA (inbound) or ETD (outbound)'),
  actualAt: z.string().nullable().describe('ATA (inbound) or ATD (outbound)'),
});

export const routeStopSchema = z.object({
  sequence: z.number().int(),
  label: z.string().nullable().describe('POL, TS1, TS2…, POD'),
  port: z.object({ locode: z.string().nullable(), name: z.string().nullable(), countryCode: z.string().nullable(), timezone: z.string().nullable() }),
  inbound: sideSchema.nullable(),
  outbound: sideSchema.nullable(),
});

export const routeLegSchema = z.object({
  from: z.string().nullable().describe('LOCODE (else name) of the departure port'),
  to: z.string().nullable(),
  mode: z.string().nullable(),
  vessel: vesselSchema.nullable(),
  voyageNumber: z.string().nullable(),
  etd: z.string().nullable(),
  atd: z.string().nullable(),
  eta: z.string().nullable(),
  ata: z.string().nullable(),
  status: z
    .enum(['done', 'under_way', 'planned'])
    .describe('done: arrived (or a later port reached); under_way: departed, not arrived; planned: only the carrier\'s plan so far'),
});

type Stop = z.input<typeof routeStopSchema>;
type Side = z.input<typeof sideSchema>;

interface Doc {
  data?: { id?: string; type?: string; attributes?: Rec; relationships?: Record<string, { data?: unknown }> } | null;
  included?: Rec[];
}

const key = (r: Rec) => `${String(r.type)}\u0000${String(r.id)}`;

function related(byKey: Map<string, Rec>, relationships: unknown, ...names: string[]): Rec | null {
  const rels = rec(relationships);
  for (const name of names) {
    const ref = rec(rec(rels?.[name])?.data);
    if (ref) return byKey.get(key(ref)) ?? null;
  }
  return null;
}

const attrs = (r: Rec | null): Rec | null => (r ? { ...(rec(r.attributes) ?? {}), id: r.id, type: r.type } : null);

function vesselOf(v: Rec | null, a: Rec, side: string): Side['vessel'] {
  const name = str(v?.name) ?? str(first(a, `${side}_vessel_name`));
  const imo = str(v?.imo) ?? str(first(a, `${side}_vessel_imo`));
  return name || imo ? { name, imo } : null;
}

function sideOf(a: Rec, side: 'inbound' | 'outbound', vessel: Rec | null): Side | null {
  const [est, act] = side === 'inbound' ? ['eta', 'ata'] : ['etd', 'atd'];
  const view: Side = {
    mode: str(first(a, `${side}_mode`)),
    carrierScac: str(first(a, `${side}_carrier_scac`, `${side}_scac`)),
    vessel: vesselOf(vessel, a, side),
    voyageNumber: str(first(a, `${side}_voyage_number`)),
    estimatedAt: instant(first(a, `${side}_${est}_at`, `${est}_at`, est)),
    actualAt: instant(first(a, `${side}_${act}_at`, `${act}_at`, act)),
  };
  return Object.values(view).some((v) => v !== null) ? view : null;
}

/** The stops of a route document, in order, with each side's vessel and times. */
export function routeStops(doc: Doc): Stop[] {
  const included = (doc.included ?? []).filter((r): r is Rec => rec(r) !== null);
  const byKey = new Map(included.map((r) => [key(r), r]));
  const refs = recs(rec(doc.data?.relationships?.route_locations)?.data);
  const locations = refs.length > 0 ? refs.map((ref) => byKey.get(key(ref))).filter((r): r is Rec => !!r) : included.filter((r) => r.type === 'route_location');
  const stops = locations.map((location, index) => {
    const a = attrs(location) ?? {};
    const port = attrs(related(byKey, location.relationships, 'location', 'port'));
    const inboundVessel = attrs(related(byKey, location.relationships, 'inbound_vessel', 'vessel'));
    const outboundVessel = attrs(related(byKey, location.relationships, 'outbound_vessel', 'vessel'));
    return {
      sequence: num(first(a, 'ports_sequence', 'sequence', 'index')) ?? index + 1,
      label: str(first(a, 'label')),
      port: {
        locode: str(first(port, 'code', 'locode')) ?? str(first(a, 'location_locode', 'locode')),
        name: str(first(port, 'name')) ?? str(first(a, 'location_name', 'name')),
        countryCode: str(first(port, 'country_code')),
        timezone: str(first(port, 'time_zone', 'timezone')),
      },
      inbound: sideOf(a, 'inbound', inboundVessel),
      outbound: sideOf(a, 'outbound', outboundVessel),
    };
  });
  return stops.sort((x, y) => x.sequence - y.sequence);
}

/** A stop the box has reached or left; the others are only planned. */
export const stopReached = (s: Stop): boolean => !!(s.inbound?.actualAt || s.outbound?.actualAt);

/** Legs between consecutive stops: what leaves one and arrives at the next. */
export function routeLegs(stops: Stop[]): z.input<typeof routeLegSchema>[] {
  return stops.slice(1).map((to, i) => {
    const from = stops[i];
    // A later port reached proves the leg done even when its own arrival is missing.
    const arrived = !!to.inbound?.actualAt || stops.slice(i + 2).some(stopReached) || !!to.outbound?.actualAt;
    return {
      status: arrived ? 'done' : from.outbound?.actualAt ? 'under_way' : 'planned',
      from: from.port.locode ?? from.port.name,
      to: to.port.locode ?? to.port.name,
      mode: from.outbound?.mode ?? to.inbound?.mode ?? null,
      vessel: from.outbound?.vessel ?? to.inbound?.vessel ?? null,
      voyageNumber: from.outbound?.voyageNumber ?? to.inbound?.voyageNumber ?? null,
      etd: from.outbound?.estimatedAt ?? null,
      atd: from.outbound?.actualAt ?? null,
      eta: to.inbound?.estimatedAt ?? null,
      ata: to.inbound?.actualAt ?? null,
    };
  });
}
