// How fresh a shipment's or container's data is, per source, as an assistant reads it (from the
// data_freshness attribute), and in words for markdown and summaries.
import { z } from 'zod';
import { instant, rec, type Rec } from './read.ts';

const sourceSchema = z.object({
  checkedAt: z.string().nullable().describe('When svc last heard from this source about it; null: never'),
  changedAt: z.string().nullable().describe('When what this source said last changed what svc shows; null: never'),
});

export const dataFreshnessSchema = z
  .object({
    shippingLine: sourceSchema.describe("The shipping line's answers"),
    terminal: sourceSchema.describe("The terminal's reports on the container(s)"),
    ais: sourceSchema.describe('AIS positions of the vessel the container is on'),
  })
  .describe('How fresh the data is, per source (times in UTC)');
export type DataFreshnessView = z.input<typeof dataFreshnessSchema>;

const sourceOf = (s: Rec | null) => ({ checkedAt: instant(s?.checked_at), changedAt: instant(s?.changed_at) });

export function toDataFreshness(record: Rec): DataFreshnessView {
  const f = rec(record.data_freshness);
  return { shippingLine: sourceOf(rec(f?.shipping_line)), terminal: sourceOf(rec(f?.terminal)), ais: sourceOf(rec(f?.ais)) };
}

const LABELS: [keyof DataFreshnessView, string][] = [
  ['shippingLine', 'Shipping line'],
  ['terminal', 'Terminal'],
  ['ais', 'AIS'],
];

/** One line per source, as markdown list items. */
export const freshnessMarkdown = (f: DataFreshnessView): string[] =>
  LABELS.map(([key, label]) => `- **${label}:** checked ${f[key].checkedAt ?? 'never'}, changed ${f[key].changedAt ?? 'never'}`);

/** The sources in one sentence, for a tool's summary. */
export const freshnessSentence = (f: DataFreshnessView): string =>
  `Data freshness: ${LABELS.map(([key, label]) => `${key === 'ais' ? label : label.toLowerCase()} checked ${f[key].checkedAt ?? 'never'}, changed ${f[key].changedAt ?? 'never'}`).join('; ')}.`;
