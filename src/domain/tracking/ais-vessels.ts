// IMO numbers as carriers write them: only a well-formed one names a vessel svc can learn.
import type { Diff, ShipmentState } from './types.ts';

/** A seven-digit IMO ship number whose last digit checks (weights 7…2 over the first six digits). */
export function isValidImo(imo: string | null | undefined): imo is string {
  if (!imo || !/^\d{7}$/.test(imo)) return false;
  const sum = [...imo.slice(0, 6)].reduce((s, d, i) => s + Number(d) * (7 - i), 0);
  return sum % 10 === Number(imo[6]);
}

/** "IMO 9811000", "IMO9811000" or "9811000" → "9811000"; anything else → null. */
export function normaliseImo(raw: string | null | undefined): string | null {
  const digits = raw?.trim().replace(/^IMO\s*/i, '') ?? '';
  return isValidImo(digits) ? digits : null;
}

/**
 * The vessels a diff names with a well-formed IMO: those of its new milestones, and the vessel
 * bound for the port of discharge when it differs from the one stored before.
 */
export function vesselsNamed(diff: Diff, previous: ShipmentState | null): { imo: string; name: string | null }[] {
  const named = diff.transportEvents.flatMap((e) => (e.vessel ? [e.vessel] : []));
  if (diff.shipment.pod_vessel_imo !== previous?.pod_vessel_imo) named.push({ imo: diff.shipment.pod_vessel_imo, name: diff.shipment.pod_vessel_name });
  return named.flatMap((v) => {
    const imo = normaliseImo(v.imo);
    return imo ? [{ imo, name: v.name }] : [];
  });
}
