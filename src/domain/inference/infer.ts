// Carrier inference: a bare number in, the number type, its validation and the likely shipping
// lines out. Pure and synchronous over the in-memory catalogue.
import { barePrediction, shapedPrediction, type Catalogue, type PrefixEntry } from './catalogue.ts';
import { NO_PREDICTION } from './confidence.ts';
import { checkContainerNumber, looksLikeContainerNumber, type ContainerCheck } from './iso6346.ts';
import { normalisePastedNumber } from './normalise.ts';
import type { NumberShape } from './shapes.ts';
import type { InferResult, NumberType, ShippingLinePrediction, UnusableNumber } from './types.ts';

export const isUnusable = (r: InferResult | UnusableNumber): r is UnusableNumber => 'unusable' in r;

/** Infers from raw user input; input that cannot be a tracking number at all is `unusable`. */
export function inferNumber(catalogue: Catalogue, raw: string): InferResult | UnusableNumber {
  const normalised = normalisePastedNumber(raw);
  if (!normalised.ok) return { unusable: true, reason: normalised.reason };
  return inferNormalised(catalogue, normalised.number);
}

/** A prefixed reading: one of the catalogue's four-character codes, then the line's own number. */
interface PrefixedReading {
  entry: PrefixEntry;
  prediction: ShippingLinePrediction;
  /** The rest matched a documented shape of the line (MEDU + 7 alphanumerics). */
  shaped: boolean;
}

/** A reasonable rest after a prefix: at least four characters, three of them digits. */
const REST = /^(?=(?:[A-Z]*\d){3})[A-Z0-9]{4,}$/;

function prefixedReading(catalogue: Catalogue, number: string): PrefixedReading | null {
  const entry = catalogue.prefixes.get(number.slice(0, 4));
  if (!entry) return null;
  let rest = number.slice(4);
  // "MAEU MAEU123456789": the prefix pasted twice.
  if (rest.startsWith(entry.code)) rest = rest.slice(4);
  if (!REST.test(rest)) return null;
  let matched: string[] | null = null;
  for (const shape of entry.shapes) {
    if (shape.pattern.test(rest) && !(matched ??= []).includes(shape.carrierKey)) matched.push(shape.carrierKey);
  }
  if (!matched) return { entry, prediction: entry.plain, shaped: false };
  return { entry, prediction: shapedPrediction(catalogue, entry, matched.sort()), shaped: true };
}

function containerResult(catalogue: Catalogue, number: string, check: ContainerCheck): InferResult {
  let prediction = NO_PREDICTION;
  if (check.categoryValid) {
    // Owner codes are registered with category U; J and Z units of the same owner share the code.
    const owner = catalogue.owners.get(check.owner + 'U');
    if (owner) {
      const passed = check.checkDigitPassed;
      if (check.category === 'U') prediction = passed ? owner.valid : owner.checkFailed;
      else prediction = passed ? owner.otherEquipment : owner.otherEquipmentCheckFailed;
    }
  }
  return {
    number_type: 'container',
    validation: {
      is_valid: check.reason === null,
      type: 'container',
      check_digit_passed: check.checkDigitPassed,
      parsed_number: number,
      reason: check.reason,
    },
    shipping_line: prediction,
  };
}

const shipmentResult = (number: string, numberType: NumberType, isValid: boolean | null, prediction: ShippingLinePrediction): InferResult => ({
  number_type: numberType,
  validation: { is_valid: isValid, type: 'shipment', check_digit_passed: null, parsed_number: number, reason: null },
  shipping_line: prediction,
});

const DIGITS_ONLY = /^\d+$/;

/** Infers from a normalised number (uppercase letters and digits only). */
export function inferNormalised(catalogue: Catalogue, number: string): InferResult {
  const check = looksLikeContainerNumber(number) ? checkContainerNumber(number) : null;
  if (check && check.reason === null) return containerResult(catalogue, number, check);

  const prefixed = prefixedReading(catalogue, number);
  if (prefixed) {
    // Written like a container number but not a valid one: the prefixed reading wins when the
    // fourth letter is no equipment category, when the rest has the line's documented B/L shape
    // (MEDU + 7 characters), or when no known owner has that code.
    const ownerKnown = check !== null && check.categoryValid && catalogue.owners.has(check.owner + 'U');
    if (!check || !check.categoryValid || prefixed.shaped || !ownerKnown) {
      return shipmentResult(number, 'bill_of_lading', true, prefixed.prediction);
    }
  }
  if (check) return containerResult(catalogue, number, check);

  let matched: NumberShape[] | null = null;
  for (const shape of catalogue.bareShapes) if (shape.pattern.test(number)) (matched ??= []).push(shape);
  if (matched) {
    const { prediction, numberType } = barePrediction(catalogue, matched);
    return shipmentResult(number, numberType, true, prediction);
  }
  // Nothing known about this form: bare digits are most often a booking number.
  return shipmentResult(number, DIGITS_ONLY.test(number) ? 'booking' : 'bill_of_lading', null, NO_PREDICTION);
}
