// The sandbox's only state: when each number was first asked about (which fixes its journey in
// time) and how many event queries the "fails at first" test numbers have seen. A small JSON
// file, rewritten whole on each change through a temporary file so a crash never leaves half of it.
import { z } from 'zod';
import { readStateFileSync, replaceFileSync } from '../durable-file.ts';

const anchorSchema = z.object({
  scac: z.string(),
  numberType: z.enum(['bill_of_lading', 'booking_number', 'container']),
  number: z.string(),
  firstSeenAt: z.iso.datetime(),
});

const stateSchema = z.object({
  version: z.literal(1),
  anchors: z.array(anchorSchema),
  /** Event queries seen per `SCAC:number`, for test numbers that fail their first requests. */
  requests: z.record(z.string(), z.number().int().nonnegative()),
});

export type Anchor = z.infer<typeof anchorSchema>;
export type SandboxState = z.infer<typeof stateSchema>;

export function emptyState(): SandboxState {
  return { version: 1, anchors: [], requests: {} };
}

/** A missing file is a fresh start; an unreadable one stops the sandbox, since resetting it would move every journey. */
export function readState(file: string): SandboxState {
  return readStateFileSync(file, stateSchema, 'sandbox state file', 'move it away to start afresh') ?? emptyState();
}

export function writeState(file: string, state: SandboxState): void {
  replaceFileSync(file, `${JSON.stringify(state, null, 1)}\n`);
}
