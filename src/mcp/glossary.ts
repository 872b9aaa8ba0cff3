// The words of tracking for an assistant: which events svc records and what each means, and the
// container statuses. Events come from svc's own vocabulary (src/domain/events/vocabulary.ts) and
// statuses are typed against the domain's ContainerStatus, so neither list can drift from svc.
import { EVENT_CATEGORIES, EVENTS, EVENT_NAMES, type EventName } from '../domain/events/vocabulary.ts';
import type { ContainerStatus } from '../domain/tracking/types.ts';

export type EventMode = 'vessel' | 'rail' | 'terminal';

/** How a container transport event moved the box: on a ship, on a train, or at a terminal or depot (gate moves, availability). */
export function eventMode(event: string): EventMode {
  const milestone = event.replace(/^container\.transport\.(estimated\.)?/, '');
  if (/^(vessel|transshipment|feeder)_/.test(milestone)) return 'vessel';
  if (/^rail_/.test(milestone) || milestone === 'arrived_at_inland_destination') return 'rail';
  return 'terminal';
}

/** "container.transport.vessel_loaded" → "Vessel loaded"; "shipment.estimated.arrival" → "Estimated arrival". */
export function eventLabel(event: string): string {
  const last = event.replace(/^container\.transport\./, '').replace(/^(shipment|container|tracking_request|document|webhook)\./, '');
  const words = last.replace(/[._]/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** What each status of a container means to someone waiting for it. */
export const CONTAINER_STATUSES: Record<ContainerStatus, string> = {
  new: 'Tracked, but no milestone yet (booked, or the carrier has not published the loading).',
  on_ship: 'Loaded on a vessel: at sea, or at a transshipment port between vessels.',
  grounded: 'Discharged at the terminal; availability not known yet.',
  available: 'At the terminal and available for pickup (check holds before dispatching a truck).',
  not_available: 'At the terminal but not available for pickup (typically holds, or not yet released).',
  awaiting_inland_transfer: 'Discharged at the port of discharge, waiting for its rail leg inland.',
  on_rail: 'On a train towards the inland destination.',
  off_dock: 'Moved by the terminal to an off-dock yard.',
  picked_up: 'Left the terminal full (gate out) for delivery.',
  delivered: 'Marked delivered by a user.',
  dropped: 'Dropped at the consignee.',
  loaded: 'Loaded for the return leg.',
  empty_returned: 'The empty container was returned; tracking of the box ends.',
};

const MODE_WORDS: Record<EventMode, string> = { vessel: 'vessel', rail: 'rail', terminal: 'terminal / depot' };

function eventRows(names: EventName[]): string[] {
  return names.map((name) => {
    const mode = name.startsWith('container.transport.') ? ` (${MODE_WORDS[eventMode(name)]})` : '';
    return `| \`${name}\` | ${eventLabel(name)}${mode} | ${EVENTS[name].description} |`;
  });
}

/** svc://docs/milestone-glossary */
export function milestoneGlossaryMarkdown(): string {
  const lines = [
    '# Milestone glossary',
    '',
    'The events svc records for tracked shipments and containers, as tools show them (`event` in timelines) and as webhooks deliver them.',
    'Milestone timestamps are actual times unless the event name contains `estimated`. Times are UTC; a location\'s IANA time zone gives the local time.',
    '',
  ];
  for (const category of EVENT_CATEGORIES) {
    const names = EVENT_NAMES.filter((name) => EVENTS[name].category === category.id);
    if (names.length === 0) continue;
    lines.push(`## ${category.name}`, '', '| event | label | meaning |', '| --- | --- | --- |', ...eventRows(names), '');
  }
  lines.push(
    '## Container statuses (`status`)',
    '',
    '| status | meaning |',
    '| --- | --- |',
    ...Object.entries(CONTAINER_STATUSES).map(([status, meaning]) => `| \`${status}\` | ${meaning} |`),
    '',
    'Statuses do not always move in this order (available and not_available flip as holds change); cross-check with the timeline.',
    '',
    '## Terminal data',
    '',
    '- **Holds** (`holds`): `name` is one of freight, customs, USDA, VACIS, TMF, other; `status` is `hold` (active) or `pending` (expected). A released hold disappears from the list, so an empty list means no holds.',
    '- **Fees** (`fees`): `type` is demurrage, exam, extended_dwell_time, other or total (`total` sums the others: leave it out when adding up). Amounts are in `currencyCode`.',
    '- **Last free day** (`situation.pickup.last_free_day`, `pickupLfd`): the last day the container may stay where it is picked up without demurrage: the port terminal\'s, or the inland ramp\'s (the railroad\'s) for a rail move, as a local date in that place\'s time zone.',
    '- **Ready for pickup**: `availableForPickup` is true and no hold has status `hold`.',
    '',
    '## Estimated and actual times of a shipment',
    '',
    '- `polEtdAt` / `polAtdAt`: estimated / actual departure from the port of loading.',
    '- `podEtaAt` / `podOriginalEtaAt` / `podAtaAt`: current estimate, first estimate and actual arrival at the port of discharge. The difference between the current and the original ETA is the delay announced so far.',
    '- `destinationEtaAt` / `destinationAtaAt`: the same for an inland destination.',
    '',
  );
  return lines.join('\n');
}
