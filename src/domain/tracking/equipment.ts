// Container equipment from the ISO 6346 size-type code (e.g. 45G1) and the carrier's weight.
import type { EquipmentHeight, EquipmentType } from './types.ts';

export interface Equipment {
  equipment_type: EquipmentType | null;
  equipment_length: number | null;
  equipment_height: EquipmentHeight | null;
}

// First character: length. Only the lengths the reference service reports (10, 20, 40, 45 ft);
// rarer ones (30, 48, 53 ft) stay null rather than leave its value set.
const LENGTH_FT: Record<string, number> = { '1': 10, '2': 20, '4': 40, L: 45 };

// Second character: height (and width for C–F, L–P). 9'6" and over is a high cube; half-height
// codes (8, 9) have no value in the reference service's set.
const HEIGHT: Record<string, EquipmentHeight> = {
  '0': 'standard',
  '2': 'standard',
  '4': 'standard',
  C: 'standard',
  D: 'standard',
  L: 'standard',
  M: 'standard',
  '5': 'high_cube',
  '6': 'high_cube',
  E: 'high_cube',
  F: 'high_cube',
  N: 'high_cube',
  P: 'high_cube',
};

// Third character: the type group. Ventilated and named-cargo boxes are dry boxes to a consignee;
// H (insulated, heated or refrigerated with removable equipment) is a reefer.
const TYPE: Record<string, EquipmentType> = {
  G: 'dry',
  V: 'dry',
  S: 'dry',
  R: 'reefer',
  H: 'reefer',
  U: 'open top',
  P: 'flat rack',
  T: 'tank',
  B: 'bulk',
};

// ISO 6346 before its 1995 edition (and ISO 2716 before it): four digits, e.g. 4310. Length as
// above; height 0–1 8 ft, 2–3 8 ft 6 in, 4–5 over 8 ft 6 in (odd: with a gooseneck tunnel); the
// type code's first digit is its group.
const HEIGHT_1984: Record<string, EquipmentHeight> = { '0': 'standard', '1': 'standard', '2': 'standard', '3': 'standard', '4': 'high_cube', '5': 'high_cube' };
const TYPE_1984: Record<string, EquipmentType> = {
  '0': 'dry', // closed, general purpose
  '1': 'dry', // closed, ventilated
  '2': 'reefer', // thermal: insulated
  '3': 'reefer', // thermal: refrigerated
  '4': 'reefer', // thermal: refrigerated or heated, removable equipment
  '5': 'open top',
  '6': 'flat rack', // platform-based
  '7': 'tank',
  '8': 'bulk',
};

const NOTHING: Equipment = { equipment_type: null, equipment_length: null, equipment_height: null };

/** Decodes a size-type code of either edition (45G1, or 4310 before 1995); each part is null when the code does not say. */
export function decodeSizeType(code: string | null): Equipment {
  const c = (code ?? '').trim().toUpperCase();
  if (/^\d{4}$/.test(c)) return { equipment_type: TYPE_1984[c[2]] ?? null, equipment_length: LENGTH_FT[c[0]] ?? null, equipment_height: HEIGHT_1984[c[1]] ?? null };
  if (!/^[0-9A-Z]{2}[A-Z][0-9A-Z]$/.test(c)) return NOTHING;
  return {
    equipment_type: TYPE[c[2]] ?? null,
    equipment_length: LENGTH_FT[c[0]] ?? null,
    equipment_height: HEIGHT[c[1]] ?? null,
  };
}

const LBS_PER_KG = 2.20462262185;

export function kgToLbs(kg: number | null): number | null {
  return kg === null ? null : Math.round(kg * LBS_PER_KG);
}
