// From weighed evidence to the answer's shipping_line: candidates ranked by confidence and the
// decision the spec ties to the best one.
import type { Candidate, Decision, ShippingLinePrediction } from './types.ts';

/** At least this confidence: safe to use without asking (`auto_select`). */
export const AUTO_SELECT_AT = 0.95;
/** From this confidence up to AUTO_SELECT_AT: show the suggestion and ask (`needs_confirmation`). */
export const CONFIRM_AT = 0.7;
/** Candidates listed at most. */
export const MAX_CANDIDATES = 5;

export function decide(confidence: number | null | undefined): Decision {
  if (confidence === null || confidence === undefined || !(confidence >= CONFIRM_AT)) return 'no_prediction';
  return confidence >= AUTO_SELECT_AT ? 'auto_select' : 'needs_confirmation';
}

export interface Line {
  readonly scac: string;
  readonly name: string;
}

export interface Weighed {
  line: Line;
  /** Probability that the number belongs to this line. */
  p: number;
}

/** Three decimals: enough for a probability, and the decision is taken on the value shown. */
const round = (p: number): number => Math.round(Math.min(1, Math.max(0, p)) * 1000) / 1000;

export const NO_PREDICTION: ShippingLinePrediction = Object.freeze({ decision: 'no_prediction', selected: null, candidates: Object.freeze([]) });

/**
 * Merges the evidence per SCAC (the strongest reading of a line wins), ranks it and decides.
 * The result is frozen: the catalogue shares one per prefix and reading among all answers.
 */
export function predict(weighed: readonly Weighed[]): ShippingLinePrediction {
  const best = new Map<string, Candidate>();
  for (const { line, p } of weighed) {
    const confidence = round(p);
    if (confidence <= 0) continue;
    const seen = best.get(line.scac);
    if (!seen || seen.confidence < confidence) best.set(line.scac, Object.freeze({ scac: line.scac, name: line.name, confidence }));
  }
  if (best.size === 0) return NO_PREDICTION;
  const candidates = [...best.values()]
    .sort((a, b) => b.confidence - a.confidence || (a.scac < b.scac ? -1 : 1))
    .slice(0, MAX_CANDIDATES);
  const decision = decide(candidates[0].confidence);
  return Object.freeze({ decision, selected: decision === 'no_prediction' ? null : candidates[0], candidates: Object.freeze(candidates) });
}
