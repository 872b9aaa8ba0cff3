// svc://container/{id}: a container as markdown, for an assistant to read whole (and for the
// prompts to embed). Rendered from the same view get_container answers with.
import type { SvcClient } from '../../sdk/src/index.ts';
import { loadContainer } from './load.ts';
import type { ContainerDetails } from './views/container.ts';
import { freshnessMarkdown } from './views/freshness.ts';

export const containerUri = (id: string) => `svc://container/${id}`;

const or = (value: unknown, none = '—') => (value === null || value === undefined || value === '' ? none : String(value));

export function renderContainerMarkdown(c: ContainerDetails): string {
  const s = c.shipment;
  const r = s?.routing;
  const d = c.demurrage;
  const lines = [
    `# Container ${or(c.number, c.id)}`,
    '',
    `- **Status:** ${or(c.status)}${c.location.currentLocation ? ` — ${c.location.currentLocation}` : ''}`,
    `- **Equipment:** ${[c.equipment.length ? `${c.equipment.length}'` : null, c.equipment.type, c.equipment.height].filter(Boolean).join(' ') || '—'}`,
    `- **Container id:** ${c.id}`,
    '',
    '## Pickup',
    '',
    `- **Available for pickup:** ${c.location.availableForPickup === null ? 'unknown' : c.location.availableForPickup ? 'yes' : 'no'}${d.readyForPickup ? ' (ready: no active hold)' : ''}`,
    `- **Last free day:** ${or(d.pickupLfd)}${c.location.podTimezone ? ` (terminal time zone ${c.location.podTimezone})` : ''}`,
    `- **Holds:** ${d.holds.length === 0 ? 'none' : d.holds.map((h) => `${h.name} (${h.status}${h.description ? `: ${h.description}` : ''})`).join(', ')}`,
    `- **Fees:** ${d.fees.length === 0 ? 'none' : d.fees.map((f) => `${f.type} ${f.amount} ${f.currencyCode ?? ''}`.trim()).join(', ')}`,
    `- **Pickup appointment:** ${or(d.pickupAppointmentAt)}`,
    `- **Terminal:** ${or(c.podTerminal?.name ?? r?.podTerminal)}${c.location.locationAtPodTerminal ? `, ${c.location.locationAtPodTerminal}` : ''}`,
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
