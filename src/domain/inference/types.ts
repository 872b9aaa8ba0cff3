// The shapes carrier inference answers with: the spec's "Infer result" attributes.

export type NumberType = 'container' | 'bill_of_lading' | 'booking';

export type Decision = 'auto_select' | 'needs_confirmation' | 'no_prediction';

/** A shipping line the number may belong to; `confidence` is a probability (0 to 1). */
export interface Candidate {
  readonly scac: string;
  readonly name: string;
  readonly confidence: number;
}

export interface ShippingLinePrediction {
  readonly decision: Decision;
  /** The best candidate when the decision is not `no_prediction`; null otherwise. */
  readonly selected: Candidate | null;
  /** Every line the number may belong to, most likely first (may be non-empty under no_prediction). */
  readonly candidates: readonly Candidate[];
}

export interface Validation {
  /** true: a valid number of its kind; false: invalid (see `reason`); null: its form is unknown. */
  readonly is_valid: boolean | null;
  /** `container` for container numbers, `shipment` for bills of lading and booking numbers. */
  readonly type: 'container' | 'shipment';
  /** The ISO 6346 check digit result, for container numbers only (null otherwise). */
  readonly check_digit_passed: boolean | null;
  /** The number once normalised (case, blanks, separators and labels removed). */
  readonly parsed_number: string | null;
  readonly reason: string | null;
}

export interface InferResult {
  readonly number_type: NumberType;
  readonly validation: Validation;
  readonly shipping_line: ShippingLinePrediction;
}

/** Input that cannot be any tracking number (no digits, stray characters, too short or long). */
export interface UnusableNumber {
  readonly unusable: true;
  readonly reason: string;
}
