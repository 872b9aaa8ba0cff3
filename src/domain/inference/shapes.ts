// Number shapes: how a line writes its bill of lading and booking numbers. carriers.csv documents
// a few in its notes (parsed by src/refdata/inference.ts); svc adds the conventions below.

export type ShapeSource = 'carriers.csv' | 'svc';

export interface NumberShape {
  id: string;
  carrierKey: string;
  /**
   * `after_prefix`: the part after one of the line's prefixes (only after `prefix` when set);
   * `bare`: a whole number written without prefix; `both`.
   */
  where: 'after_prefix' | 'bare' | 'both';
  prefix: string | null;
  pattern: RegExp;
  kind: 'bill_of_lading' | 'booking';
  source: ShapeSource;
  description: string;
}

export type Charset = 'digits' | 'alphanumerics';

/** A documented "N digits" / "N alphanumerics" shape, optionally tied to one prefix. */
export function documentedShape(carrierKey: string, prefix: string | null, length: number, charset: Charset): NumberShape {
  const cls = charset === 'digits' ? '\\d' : '[A-Z0-9]';
  return {
    id: `${carrierKey}:${prefix ?? ''}${length}${charset === 'digits' ? 'd' : 'an'}`,
    carrierKey,
    where: prefix ? 'after_prefix' : 'both',
    prefix,
    pattern: new RegExp(`^${cls}{${length}}$`),
    kind: 'bill_of_lading',
    source: 'carriers.csv',
    description: `${prefix ? `${prefix} + ` : ''}${length} ${charset}`,
  };
}

/**
 * svc's own conventions for bare booking numbers of a few large lines, as they appear on booking
 * confirmations. They are not in the data files and not verified against the carriers, so they
 * weigh less than documented shapes and only ever yield candidates (see BARE_WEIGHT).
 */
export const SVC_SHAPES: readonly NumberShape[] = [
  { id: 'HAPAG:8d', carrierKey: 'HAPAG', where: 'bare', prefix: null, pattern: /^\d{8}$/, kind: 'booking', source: 'svc', description: '8 digits' },
  { id: 'COSCO:10d', carrierKey: 'COSCO', where: 'bare', prefix: null, pattern: /^\d{10}$/, kind: 'booking', source: 'svc', description: '10 digits' },
  { id: 'OOCL:10d', carrierKey: 'OOCL', where: 'bare', prefix: null, pattern: /^\d{10}$/, kind: 'booking', source: 'svc', description: '10 digits' },
  { id: 'CMACGM:3l7d', carrierKey: 'CMACGM', where: 'bare', prefix: null, pattern: /^[A-Z]{3}\d{7}$/, kind: 'booking', source: 'svc', description: '3 letters + 7 digits' },
];
