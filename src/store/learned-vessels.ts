// Vessels svc knows: the reference files' `vessels` and those carriers named that the files lack
// (learned_vessels, migration 012), looked up together through the known_vessels view.
//
// For the AIS ingester: `isKnownVesselImo(db, imo)` answers "is this IMO a vessel svc cares
// about" for one static report; `knownVesselImos(db)` gives the whole set to filter a stream with.
import type { Queryable } from './db.ts';

export interface NamedVessel {
  imo: string;
  name: string | null;
}

/**
 * Remembers vessels carriers named (IMO already validated by the caller). A vessel seen again
 * keeps its first sighting; a name given later fills or replaces the one stored.
 */
export async function learnVessels(db: Queryable, vessels: readonly NamedVessel[], at: Date): Promise<void> {
  const byImo = new Map<string, string | null>();
  for (const v of vessels) byImo.set(v.imo, v.name?.trim() || byImo.get(v.imo) || null);
  if (byImo.size === 0) return;
  await db.query(
    `INSERT INTO learned_vessels (imo, name, first_seen_at, last_seen_at)
     SELECT imo, name, $3, $3 FROM unnest($1::text[], $2::text[]) AS v(imo, name)
     ON CONFLICT (imo) DO UPDATE SET name = coalesce(EXCLUDED.name, learned_vessels.name), last_seen_at = EXCLUDED.last_seen_at
       WHERE learned_vessels.last_seen_at < EXCLUDED.last_seen_at`,
    [[...byImo.keys()], [...byImo.values()], at],
  );
}

/** Whether the reference data or a carrier has named a vessel with this IMO number. */
export async function isKnownVesselImo(db: Queryable, imo: string): Promise<boolean> {
  const { rows } = await db.query<{ known: boolean }>('SELECT EXISTS (SELECT 1 FROM known_vessels WHERE imo = $1) AS known', [imo]);
  return rows[0].known;
}

/** Every IMO number svc knows a vessel by. */
export async function knownVesselImos(db: Queryable): Promise<Set<string>> {
  const { rows } = await db.query<{ imo: string }>('SELECT imo FROM known_vessels');
  return new Set(rows.map((r) => r.imo));
}
