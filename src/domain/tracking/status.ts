// current_status by the reference service's rules (digest §4.1): the container's milestones are
// replayed in journey order, then the terminal's availability decides between available and
// not_available while the box sits at the terminal.
import type { ContainerStatus, MilestoneName } from './types.ts';

function after(status: ContainerStatus, milestone: MilestoneName, inland: boolean): ContainerStatus {
  switch (milestone) {
    case 'empty_out':
    case 'full_in':
      return status; // no status of its own: still "new" until the box is aboard
    case 'vessel_discharged':
      return inland ? 'awaiting_inland_transfer' : 'grounded';
    case 'available':
      return 'available';
    case 'rail_loaded':
    case 'rail_departed':
    case 'rail_arrived':
      return 'on_rail';
    case 'rail_unloaded':
      return 'grounded';
    case 'arrived_at_inland_destination':
      // A train reaching the destination still has the box aboard until it is unloaded.
      return status === 'on_rail' ? status : 'grounded';
    case 'full_out':
      return 'picked_up';
    case 'empty_in':
      return 'empty_returned';
    default:
      return 'on_ship'; // loaded, departed, arrived and every transshipment or feeder move
  }
}

const AT_TERMINAL: ReadonlySet<ContainerStatus> = new Set(['grounded', 'available', 'not_available']);

export interface StatusInput {
  /** Milestone names in journey order. */
  milestones: MilestoneName[];
  /** The shipment continues inland past the port of discharge. */
  inland: boolean;
  /** The vessel has reached the port of discharge (terminals report availability before discharge). */
  atPod: boolean;
  availableForPickup: boolean | null;
  previous: ContainerStatus | null;
}

export function currentStatus(input: StatusInput): ContainerStatus {
  let status: ContainerStatus = 'new';
  for (const m of input.milestones) status = after(status, m, input.inland);

  if (input.availableForPickup !== null && (AT_TERMINAL.has(status) || (status === 'on_ship' && input.atPod))) {
    status = input.availableForPickup ? 'available' : 'not_available';
  }
  // Carriers drop old events; a snapshot that shows none must not send a box back to "new".
  if (status === 'new' && input.previous !== null) return input.previous;
  // Only the user marks a container delivered; only its empty return moves it on.
  if (input.previous === 'delivered' && status !== 'empty_returned') return 'delivered';
  return status;
}
