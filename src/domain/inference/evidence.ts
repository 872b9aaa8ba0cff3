// How much each kind of evidence says about the shipping line: the probabilities the confidence
// model is made of. Each is a prior for "the line this evidence names is the one that can track
// the number", chosen from what the data files state about the evidence and kept in one place so
// the labelled set (test/fixtures/inference-labelled.csv) can be checked against them.

/**
 * A container's owner prefix, by the `confidence` container_prefixes.csv gives the mapping:
 * - high: the BIC owner is the line or its brand. Boxes leave their owner's fleet (sold, sublet,
 *   shipper-owned reuse) only rarely, so 0.98: auto-selected.
 * - medium: legacy boxes of a merged line (K Line, MOL, NYK → ONE) and affiliates. Most still sail
 *   for the successor, but the data itself doubts them: 0.85, a suggestion to confirm.
 * - low: a lessor tied to a line (Florens → COSCO, KOBC → HMM) whose boxes may be on lease to any
 *   line: 0.40, a candidate only.
 * Pure leasing companies (LESSOR) name no line at all.
 */
export const OWNER_LEVEL = { high: 0.98, medium: 0.85, low: 0.4 } as const;

/**
 * A container number whose check digit fails (or is missing) has a typo somewhere; it may be in the
 * owner code. The line stays the best guess but is no longer safe to use without asking.
 */
export const CHECK_DIGIT_FAILED = 0.9;

/** J (detachable equipment: gensets, clip-ons) and Z (chassis) units are not tracked by carriers. */
export const OTHER_EQUIPMENT = 0.5;

/**
 * A brand's box registered to its group's main line (APLU → CMA CGM, SUDU → Maersk) is listed
 * under the main line; the brand's own SCAC follows as an unlikely alternative.
 */
export const BRAND_ALTERNATIVE = 0.02;

/**
 * The four characters that open a bill of lading or booking number (the US AMS convention:
 * carrier SCAC + the carrier's own number), by what carriers.csv says of the code:
 * - bl: a documented B/L prefix of the line;
 * - scac: the line's SCAC;
 * - alt: one of its other SCACs (subsidiaries, regional codes);
 * - uncertain: any of these where the `uncertain` column doubts the field (disputed or
 *   single-source SCACs, unverified B/L prefixes).
 */
export const PREFIX_LEVEL = { bl: 0.97, scac: 0.96, alt: 0.9, uncertain: 0.75 } as const;
export type PrefixSource = keyof typeof PREFIX_LEVEL;

/** A documented prefix followed by the line's documented number shape (MAEU + 9 digits). */
export const DOCUMENTED_SHAPE = 0.99;

/**
 * A bare number (no prefix) is weighed against the other lines whose numbers share its shape,
 * and against every line whose numbering is unknown ("other"): probability = weight / sum.
 * A shape documented in carriers.csv weighs 3, one of svc's own conventions 2, the unknown 1;
 * so a bare number is at best a suggestion (3 / 4 = 0.75), never auto-selected: shapes are
 * shared, and most lines' numbering is undocumented.
 */
export const BARE_WEIGHT = { 'carriers.csv': 3, svc: 2, other: 1 } as const;
