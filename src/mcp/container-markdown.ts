// svc://container/{id}: a container as markdown, for an assistant to read whole (and for the
// prompts to embed). Rendered from the same view get_container answers with.
import type { SvcClient } from '../../sdk/src/index.ts';
import { loadContainer } from './load.ts';
import type { ContainerDetails } from './views/container.ts';
import { freshnessMarkdown } from './views/freshness.ts';
import { lastFreeDayText, placeText } from '../domain/tracking/situation-text.ts';

export const containerUri = (id: string) => `svc://container/${id}`;

const or = (value: unknown, none = '—') => (value === null || value === undefined || value === '' ? none : String(value));

interface HoldLine {
  name: string | null;
  status: string | null;
  description?: string | null;
}

const holdsText = (holds: readonly HoldLine[]) =>
  holds.length === 0 ? 'none' : holds.map((h) => `${h.name} (${h.status}${h.description ? `: ${h.description}` : ''})`).join(', ');
const feesText = (fees: readonly { type: string | null; amount: number | null; currency: string | null }[]) =>
  fees.length === 0 ? 'none' : fees.map((f) => `${f.type} ${f.amount} ${f.currency}`).join(', ');

// What stands between the box and a pickup, at the place of pickup the situation names.
function pickupLines(c: ContainerDetails): string[] {
  const p = c.situation?.pickup;
  if (!p) {
    // Picked up: what the terminal last said still settles demurrage and fees owed.
    const d = c.demurrage;
    return [
      `- **Pickup:** ${c.situation ? 'done (picked up)' : '—'}`,
      // Its local-date form is the pickup's, gone now: what is left is the instant the terminal gave.
      `- **Last free day:** ${or(d.pickupLfd)}`,
      `- **Holds:** ${holdsText(d.holds.map(({ name, status }) => ({ name, status })))}`,
      `- **Fees:** ${feesText(d.fees.map((f) => ({ ...f, currency: f.currencyCode })))}`,
    ];
  }
  return [
    `- **Pickup at:** ${or(placeText(p.place))}${p.place.terminal_code ? `, terminal ${p.place.terminal_code}` : ''}`,
    `- **Available for pickup:** ${p.availability === 'unknown' ? 'unknown' : p.availability === 'available' ? 'yes' : 'no'}${c.demurrage.readyForPickup ? ' (ready: no active hold)' : ''}`,
    `- **Last free day:** ${or(lastFreeDayText(p.last_free_day))}`,
    `- **Holds:** ${holdsText(p.holds)}`,
    `- **Fees:** ${feesText(p.fees.map((f) => ({ ...f, currency: f.currency_code })))}`,
    `- **Pickup appointment:** ${or(p.appointment_at)}`,
  ];
}

export function renderContainerMarkdown(c: ContainerDetails): string {
  const s = c.shipment;
  const r = s?.routing;
  const d = c.demurrage;
  const lines = [
    `# Container ${or(c.number, c.id)}`,
    '',
    `- **Status:** ${or(c.status)}${c.location.currentLocation ? ` — ${c.location.currentLocation}` : ''}`,
    `- **Waiting for:** ${or(c.situation?.waiting_for?.replaceAll('_', ' '))}`,
    `- **Equipment:** ${[c.equipment.length ? `${c.equipment.length}'` : null, c.equipment.type, c.equipment.height].filter(Boolean).join(' ') || '—'}`,
    `- **Container id:** ${c.id}`,
    '',
    '## Pickup',
    '',
    ...pickupLines(c),
    `- **Port terminal:** ${or(c.podTerminal?.name ?? r?.podTerminal)}${c.location.locationAtPodTerminal ? `, ${c.location.locationAtPodTerminal}` : ''}`,
    '',
    '## Milestones',
    '',
    `- **Arrived at POD:** ${or(c.location.podArrivedAt)}`,
    `- **Discharged:** ${or(c.location.podDischargedAt)}`,
    `- **Picked up (full out):** ${or(c.location.podFullOutAt)}`,
    `- **Empty returned:** ${or(c.location.emptyReturnedAt)}`,
  ];
  if (s) {
    lines.push('', '## Shipment', '', `- **Bill of lading:** ${or(s.billOfLading)} (shipment id ${or(s.id)})`, `- **Shipping line:** ${or(s.shippingLineName)} (${or(s.shippingLineScac)})`);
    if (r) {
      lines.push(
        `- **Route:** ${or(r.portOfLoading.name)} (${or(r.portOfLoading.locode)}) → ${or(r.portOfDischarge.name)} (${or(r.portOfDischarge.locode)})${r.destination ? ` → ${or(r.destination.name)} (${or(r.destination.locode)})` : ''}`,
        `- **Vessel:** ${or(r.vessel.name)}${r.vessel.voyageNumber ? `, voyage ${r.vessel.voyageNumber}` : ''}`,
        `- **Departure from POL:** ETD ${or(r.polEtdAt)}, ATD ${or(r.polAtdAt)}`,
        `- **Arrival at POD:** ETA ${or(r.podEtaAt)} (first ETA ${or(r.podOriginalEtaAt)}${r.podEtaShiftHours ? `, moved ${r.podEtaShiftHours} h` : ''}), ATA ${or(r.podAtaAt)}`,
      );
    }
  }
  if (c.transportEvents) {
    lines.push('', '## Timeline', '', '| when (UTC) | event | where |', '| --- | --- | --- |');
    for (const e of c.transportEvents) lines.push(`| ${or(e.timestamp)} | ${e.label} | ${[e.location.name, e.location.locode].filter(Boolean).join(' ') || '—'}${e.vessel ? ` (${e.vessel})` : ''} |`);
  }
  lines.push('', '## Data freshness (UTC)', '', ...freshnessMarkdown(c.dataFreshness));
  lines.push('', `_Updated ${or(c.updatedAt)}. Glossary: svc://docs/milestone-glossary._`, '');
  return lines.join('\n');
}

export async function containerMarkdown(client: SvcClient, id: string): Promise<string> {
  return renderContainerMarkdown(await loadContainer(client, id, { routing: true, terminal: true, events: true }));
}
