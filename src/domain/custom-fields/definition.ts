// The rules of a definition's own attributes that depend on one another: the slug values are
// addressed by, the reference type a reference field needs (and no other field has), and the
// default_format only date fields read.
import { dateFormatProblem } from './dates.ts';
import { REFERENCE_TYPES, type DataType, type ValueProblem } from './types.ts';

export const MAX_API_SLUG = 63;
const API_SLUG = new RegExp(`^[a-z][a-z0-9_]{0,${MAX_API_SLUG - 1}}$`);

/** Why `slug` cannot name a field (it is used in URLs and filter parameters); undefined when it can. */
export function apiSlugProblem(slug: string): string | undefined {
  if (API_SLUG.test(slug)) return undefined;
  return `api_slug must start with a lowercase letter and hold only lowercase letters, digits and underscores (at most ${MAX_API_SLUG}), like customer_po; '${slug.slice(0, 80)}' does not.`;
}

/** reference_type is required for reference fields, one of the record types svc keeps, and absent otherwise. */
export function referenceTypeProblem(dataType: DataType, referenceType: string | null | undefined): ValueProblem | undefined {
  const at = ['reference_type'];
  if (dataType !== 'reference') {
    return referenceType == null ? undefined : { problem: 'reference_type applies to reference fields only; leave it out.', code: 'invalid', at };
  }
  if (referenceType == null || referenceType === '') return { problem: "reference_type can't be blank for a reference field.", code: 'blank', at };
  if (!(REFERENCE_TYPES as readonly string[]).includes(referenceType)) {
    return { problem: `reference_type must be one of ${REFERENCE_TYPES.join(', ')}; '${referenceType.slice(0, 40)}' is not.`, code: 'invalid', at };
  }
  return undefined;
}

/** default_format says how date values may be written (besides YYYY-MM-DD); other fields take none. */
export function defaultFormatProblem(dataType: DataType, format: string | null | undefined): ValueProblem | undefined {
  if (format == null) return undefined;
  const at = ['default_format'];
  if (dataType !== 'date') return { problem: 'default_format applies to date fields only; leave it out.', code: 'invalid', at };
  const problem = dateFormatProblem(format);
  return problem ? { problem, code: 'invalid', at } : undefined;
}
