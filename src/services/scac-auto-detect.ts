// auto_detect_vocc_scac: a tracking request without a SCAC gets the line carrier inference
// auto-selects from its number. svc infers in process, so the answer is immediate: the request is
// created with the detected SCAC, or refused with a 422 `scac_auto_detect_failed`.
import type { Catalogue } from '../domain/inference/catalogue.ts';
import { inferNumber, isUnusable } from '../domain/inference/infer.ts';
import type { Candidate } from '../domain/inference/types.ts';
import { Invalid } from '../domain/errors.ts';
import { inferenceCatalogue } from '../refdata/inference.ts';

export const AUTO_DETECT_FAILED = 'scac_auto_detect_failed';
/** The member a client fixes by sending the SCAC itself. */
export const AUTO_DETECT_FIELD = ['data', 'attributes', 'scac'];

export interface DetectedScac {
  scac: string;
  name: string;
  confidence: number;
}

export const autoDetectFailed = (detail: string, meta?: Record<string, unknown>): Invalid => new Invalid(AUTO_DETECT_FIELD, detail, AUTO_DETECT_FAILED, meta);

const describe = (c: Candidate) => `${c.name} (${c.scac}, confidence ${c.confidence})`;

/**
 * The line to track `requestNumber` with: only an `auto_select` decision (confidence ≥ 0.95) is
 * used. `needs_confirmation` is refused like `no_prediction`, with the candidates in `meta`: the
 * suggestion is for a person to confirm, and a wrong line would leave the request failing against
 * the wrong carrier for days.
 */
export function detectScac(requestNumber: string, catalogue: Catalogue = inferenceCatalogue()): DetectedScac {
  const result = inferNumber(catalogue, requestNumber);
  if (isUnusable(result)) throw autoDetectFailed(`No shipping line can be inferred: the request number is not a tracking number (${result.reason}). Send scac.`);
  const { decision, selected, candidates } = result.shipping_line;
  const meta = { decision, number_type: result.number_type, candidates };
  if (decision === 'auto_select' && selected) return { scac: selected.scac, name: selected.name, confidence: selected.confidence };
  if (decision === 'needs_confirmation' && selected) {
    throw autoDetectFailed(`The request number suggests ${describe(selected)}, which is not sure enough to choose without you: send scac to confirm it or name another line.`, meta);
  }
  const hint = candidates.length ? ` Possible: ${candidates.map(describe).join(', ')}.` : '';
  throw autoDetectFailed(`No shipping line can be inferred from the request number.${hint} Send scac.`, meta);
}
