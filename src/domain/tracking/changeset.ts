// What a container_updated_event reports: each alertable attribute (the terminal's data, as the
// spec lists them) whose value differs between the stored state and the next, as [before, after].
// The seal, which the carrier reports at full-in, is written on the container but not announced.
import { isDeepStrictEqual } from 'node:util';
import type { ChangedAttribute, Changeset, ContainerState } from './types.ts';

const REPORTED: readonly ChangedAttribute[] = [
  'available_for_pickup',
  'pickup_lfd',
  'fees_at_pod_terminal',
  'holds_at_pod_terminal',
  'pickup_appointment_at',
  'pod_terminal',
];

export function changesetOf(before: ContainerState, after: ContainerState): Changeset {
  const changes: Record<string, [unknown, unknown]> = {};
  for (const attr of REPORTED) {
    // Stored state comes back from JSON: a missing attribute is the same as null.
    const was = before[attr] ?? null;
    if (!isDeepStrictEqual(was, after[attr])) changes[attr] = [was, after[attr]];
  }
  return changes as Changeset;
}
