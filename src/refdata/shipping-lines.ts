// carriers.csv + carrier_tracking_support.csv → shipping lines.
import { isTrue, parseCsv, splitList, textOrNull } from './csv.ts';
import { stableId } from './ids.ts';
import type { ShippingLineRow } from './types.ts';

type Support = Pick<
  ShippingLineRow,
  'bill_of_lading_tracking_support' | 'booking_number_tracking_support' | 'container_number_tracking_support'
>;

// Carriers outside the published coverage list: B/L and booking numbers are what every
// carrier site accepts, while container-number lookups are the exception.
const DEFAULT_SUPPORT: Support = {
  bill_of_lading_tracking_support: true,
  booking_number_tracking_support: true,
  container_number_tracking_support: false,
};

/** The carrier behind the documented test numbers; it exists on every install. */
const TEST_LINE: Omit<ShippingLineRow, 'id'> = {
  scac: 'TEST',
  name: 'Test Shipping Line',
  short_name: 'Test Shipping Line',
  alternative_scacs: [],
  bill_of_lading_tracking_support: true,
  booking_number_tracking_support: true,
  container_number_tracking_support: true,
  carrier_group: null,
  smdg_code: null,
  bl_prefixes: [],
  container_prefixes: [],
};

/**
 * `MEDU (T49COV)|SEJJ (T49COV: Sealand Europe)` → ['MEDU', 'SEJJ']: the cell mixes codes
 * with notes on where each came from; only the 4-character codes are SCACs.
 */
export function parseAltScacs(cell: string): string[] {
  const codes: string[] = [];
  for (const part of splitList(cell)) {
    const code = /^([A-Z0-9]{4})(?:\s|\(|$)/.exec(part)?.[1];
    if (code && !codes.includes(code)) codes.push(code);
  }
  return codes;
}

/**
 * A short human name. Names in carriers.csv pair a brand with a gloss in parentheses;
 * whichever side is the brand leads with an acronym ("Ocean Network Express (ONE)",
 * "APL (American President Lines)", "China United Lines (CU Lines)"). When the
 * parenthesis is not an abbreviation ("Sealand (Maersk)") the outside text is the name.
 */
export function shortName(name: string): string {
  const m = /^(.*?)\s*\(([^)]+)\)\s*$/.exec(name);
  if (!m) return name;
  const [, outside, inside] = m;
  return /^[A-Z0-9]{2,}\b/.test(inside) ? inside : outside;
}

function parseSupport(supportCsv: string): Map<string, Support> {
  const bySCAC = new Map<string, Support>();
  for (const r of parseCsv(supportCsv)) {
    bySCAC.set(r.scac, {
      bill_of_lading_tracking_support: isTrue(r.bill_of_lading),
      booking_number_tracking_support: isTrue(r.booking_number),
      container_number_tracking_support: isTrue(r.container_number),
    });
  }
  return bySCAC;
}

export function parseShippingLines(carriersCsv: string, supportCsv: string): ShippingLineRow[] {
  const support = parseSupport(supportCsv);
  const lines: ShippingLineRow[] = [];
  for (const r of parseCsv(carriersCsv)) {
    // Zhonggu and Boluda have no known SCAC; a tracking request could never name them.
    if (!r.scac) continue;
    lines.push({
      id: stableId('shipping_line', r.scac),
      scac: r.scac,
      name: r.name,
      short_name: shortName(r.name),
      alternative_scacs: parseAltScacs(r.alt_scacs).filter((code) => code !== r.scac),
      ...(support.get(r.scac) ?? DEFAULT_SUPPORT),
      carrier_group: textOrNull(r.group),
      smdg_code: textOrNull(r.smdg_code),
      bl_prefixes: splitList(r.bl_prefixes),
      container_prefixes: splitList(r.container_prefixes),
    });
  }
  lines.push({ id: stableId('shipping_line', TEST_LINE.scac), ...TEST_LINE });
  return lines;
}
