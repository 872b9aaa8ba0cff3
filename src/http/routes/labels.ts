// Reference numbers and tags as request bodies give them: each trimmed, at most 200 characters,
// at most 100 of them, and each named once (the reference's uniqueItems): a repeated one is a 422
// pointing at the repetition, not a second copy stored.
import { z } from 'zod';

export const labels = z
  .array(z.string().trim().min(1).max(200))
  .max(100)
  .superRefine((values, ctx) => {
    const seen = new Set<string>();
    values.forEach((value, i) => {
      if (seen.has(value)) ctx.addIssue({ code: 'custom', path: [i], message: `"${value}" is given twice; each may be given once.`, params: { code: 'not_unique' } });
      seen.add(value);
    });
  });
