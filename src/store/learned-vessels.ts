// Vessels svc knows: the reference files' `vessels` and those carriers named (learned_vessels,
// migration 012), which the AIS ingester matches static reports against (knownVesselImos).
import type { Queryable } from './db.ts';

export interface NamedVessel {
  imo: string;
  name: string | null;
}

const byImoOf = (vessels: readonly NamedVessel[]) => {
  const byImo = new Map<string, string | null>();
  for (const v of vessels) byImo.set(v.imo, v.name?.trim() || byImo.get(v.imo) || null);
  return byImo;
};

/**
 * Remembers vessels carriers named (IMO already validated by the caller). A vessel seen again
 * keeps its first sighting; a name given later fills or replaces the one stored. A vessel already
 * seen at `at` or later is skipped by a plain read first: an upsert that found its row would
 * lock it even when it changes nothing, and many shipments name the same vessel.
 */
export async function learnVessels(db: Queryable, vessels: readonly NamedVessel[], at: Date): Promise<void> {
  const byImo = byImoOf(vessels);
  if (byImo.size === 0) return;
  await db.query(
    `INSERT INTO learned_vessels (imo, name, first_seen_at, last_seen_at)
     SELECT imo, name, $3, $3 FROM unnest($1::text[], $2::text[]) AS v(imo, name)
      WHERE NOT EXISTS (SELECT 1 FROM learned_vessels l WHERE l.imo = v.imo AND l.last_seen_at >= $3)
     ON CONFLICT (imo) DO UPDATE SET name = coalesce(EXCLUDED.name, learned_vessels.name), last_seen_at = EXCLUDED.last_seen_at
       WHERE learned_vessels.last_seen_at < EXCLUDED.last_seen_at`,
    [[...byImo.keys()], [...byImo.values()], at],
  );
}

/** Vessels by IMO, each with the name carriers gave it (the first non-empty one): the columns of learnVessels and insertNewVessels. */
export function vesselColumns(vessels: readonly NamedVessel[]): { imos: string[]; names: (string | null)[] } {
  const byImo = byImoOf(vessels);
  return { imos: [...byImo.keys()], names: [...byImo.values()] };
}

/**
 * The part of learnVessels that belongs in a lookup's statement (a CTE's body, its parameters
 * those of vesselColumns and the time): vessels svc has never seen are inserted; known ones are
 * left alone without a row lock (DO NOTHING takes none), so lookups of shipments aboard one ship
 * do not queue behind each other's commit. It returns the IMOs inserted: fewer than given means a
 * vessel was known already, whose sighting learnVessels records after the commit.
 */
export const insertNewVessels = (imos: string, names: string, at: string) =>
  `INSERT INTO learned_vessels (imo, name, first_seen_at, last_seen_at)
     SELECT imo, name, ${at}, ${at} FROM unnest(${imos}::text[], ${names}::text[]) AS v(imo, name)
     ON CONFLICT (imo) DO NOTHING
     RETURNING imo`;

/**
 * IMO numbers of the vessels svc cares about: those the reference files list, and those a carrier
 * named at or after `carriersSince` (a vessel no carrier has named for long has left svc's journeys).
 */
export async function knownVesselImos(db: Queryable, carriersSince: Date): Promise<string[]> {
  const { rows } = await db.query<{ imo: string }>('SELECT imo FROM vessels UNION SELECT imo FROM learned_vessels WHERE last_seen_at >= $1', [carriersSince]);
  return rows.map((r) => r.imo);
}
