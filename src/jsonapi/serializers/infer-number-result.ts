// An inference is not a stored record: each answer gets an id of its own, marked req_.
import { randomUUID } from 'node:crypto';
import type { InferResult } from '../../domain/inference/types.ts';
import type { Resource } from '../document.ts';

export function inferNumberResultResource(result: InferResult): Resource {
  return { id: `req_${randomUUID()}`, type: 'infer_number_results', attributes: { ...result } };
}
