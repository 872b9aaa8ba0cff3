// A container's transport events as an assistant reads them: a timeline, counts per mode and the
// milestones people ask about (loaded, departed, arrived, discharged, out, returned).
import { z } from 'zod';
import { eventLabel, eventMode } from '../glossary.ts';
import { instant, rec, str, type Rec } from './read.ts';

export const timelineEntrySchema = z.object({
  event: z.string().describe('svc event name, e.g. container.transport.vessel_departed (see svc://docs/milestone-glossary)'),
  label: z.string().describe('The event in words'),
  timestamp: z.string().nullable().describe('When it happened (UTC, ISO 8601); an estimate for estimated.* events'),
  location: z.object({ name: z.string().nullable(), locode: z.string().nullable() }),
  vessel: z.string().nullable().describe('Vessel name, for vessel moves'),
  voyageNumber: z.string().nullable(),
  dataSource: z.string().nullable().describe('shipping_line, terminal or ais'),
});
export type TimelineEntry = z.input<typeof timelineEntrySchema>;

export const milestonesSchema = z.object({
  vesselLoadedAt: z.string().nullable().describe('Loaded on the first vessel at the port of loading'),
  vesselDepartedAt: z.string().nullable().describe('Departed from the port of loading'),
  vesselArrivedAt: z.string().nullable().describe('Arrived at the port of discharge'),
  dischargedAt: z.string().nullable().describe('Discharged at the port of discharge'),
  fullOutAt: z.string().nullable().describe('Left the terminal full (picked up)'),
  emptyReturnedAt: z.string().nullable().describe('Empty container returned'),
});
export type Milestones = z.input<typeof milestonesSchema>;

export const eventCategoriesSchema = z.object({
  vesselEvents: z.number().int().describe('Vessel, transshipment and feeder moves'),
  railEvents: z.number().int(),
  terminalEvents: z.number().int().describe('Gate moves, availability and the other terminal or depot events'),
});

export function toTimelineEntry(e: Rec): TimelineEntry {
  const event = str(e.event) ?? 'unknown';
  const location = rec(e.location);
  return {
    event,
    label: eventLabel(event),
    timestamp: instant(e.timestamp),
    location: { name: str(location?.name), locode: str(e.location_locode) ?? str(location?.code) },
    vessel: str(rec(e.vessel)?.name),
    voyageNumber: str(e.voyage_number),
    dataSource: str(e.data_source),
  };
}

/** Oldest first, events without a time last (as svc lists them). */
export function timelineOf(events: Rec[]): TimelineEntry[] {
  return events.map(toTimelineEntry).sort((a, b) => (a.timestamp ?? '\uffff').localeCompare(b.timestamp ?? '\uffff'));
}

const at = (timeline: TimelineEntry[], name: string, pick: 'first' | 'last' = 'first'): string | null => {
  const hits = timeline.filter((e) => e.event === `container.transport.${name}` && e.timestamp);
  return (pick === 'first' ? hits[0] : hits[hits.length - 1])?.timestamp ?? null;
};

export function milestonesOf(timeline: TimelineEntry[]): Milestones {
  return {
    // A journey that starts on a feeder has its first load and departure as feeder moves, at the
    // port of loading (a later leg's load is a transshipment move), as the container's pol_vessel_* times have it.
    vesselLoadedAt: at(timeline, 'vessel_loaded') ?? at(timeline, 'feeder_loaded'),
    vesselDepartedAt: at(timeline, 'vessel_departed') ?? at(timeline, 'feeder_departed'),
    vesselArrivedAt: at(timeline, 'vessel_arrived', 'last'),
    dischargedAt: at(timeline, 'vessel_discharged', 'last'),
    fullOutAt: at(timeline, 'full_out', 'last'),
    emptyReturnedAt: at(timeline, 'empty_in', 'last'),
  };
}

export function categoriesOf(timeline: TimelineEntry[]): z.input<typeof eventCategoriesSchema> {
  const count = (mode: string) => timeline.filter((e) => eventMode(e.event) === mode).length;
  return { vesselEvents: count('vessel'), railEvents: count('rail'), terminalEvents: count('terminal') };
}
