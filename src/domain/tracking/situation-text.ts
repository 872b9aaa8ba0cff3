// A container's situation in words, the same words on every face (MCP text, CLI, web).
import type { ContainerSituation, LastFreeDay, SituationPlace } from './situation.ts';

/** "Chicago (USCHI)"; the code alone when the name is unknown. */
export function placeText(p: SituationPlace | null): string | null {
  if (!p) return null;
  if (p.name && p.locode) return `${p.name} (${p.locode})`;
  return p.name ?? p.locode;
}

const terminal = (p: SituationPlace | null, what: string) => (p?.terminal_code ? `${what} ${p.terminal_code}` : `the ${what}`);
const inPlace = (p: SituationPlace | null) => (placeText(p) ? ` in ${placeText(p)}` : '');

export function situationText(s: ContainerSituation): string {
  const next = placeText(s.next_place);
  switch (s.kind) {
    case 'awaiting_empty_out':
      return 'Awaiting the empty container for stuffing';
    case 'at_origin':
      return 'Empty out for stuffing, not yet gated in at the port of lading';
    case 'at_port_terminal':
      return `At ${terminal(s.place, 'port terminal')}${inPlace(s.place)}${s.waiting_for === 'rail_departure' && s.pickup ? `, awaiting rail to ${placeText(s.pickup.place)}` : ''}`;
    case 'on_vessel': {
      const vessel = s.vessel?.name ? `vessel ${s.vessel.name}` : 'a vessel';
      return s.waiting_for === 'discharge' ? `On ${vessel}${inPlace(s.place)}, awaiting discharge` : `On ${vessel}${next ? ` bound for ${next}` : ''}`;
    }
    case 'at_transshipment_port':
      return `At transshipment port ${placeText(s.place) ?? ''}, awaiting the onward vessel`.replace('port ,', 'port,');
    case 'on_rail':
      return `On rail${next ? ` to ${next}` : ''}`;
    case 'at_inland_ramp':
      return `At ${terminal(s.place, 'inland ramp')}${inPlace(s.place)}`;
    case 'picked_up':
      return `Picked up${placeText(s.place) ? ` at ${placeText(s.place)}` : ''}`;
    case 'empty_returned':
      return `Empty returned${placeText(s.place) ? ` at ${placeText(s.place)}` : ''}`;
  }
}

/** "2026-03-20 (America/Chicago, inland ramp)". */
export function lastFreeDayText(lfd: LastFreeDay | null): string | null {
  if (!lfd) return null;
  return `${lfd.date} (${[lfd.timezone, lfd.source === 'rail' ? 'inland ramp' : 'port terminal'].filter(Boolean).join(', ')})`;
}
