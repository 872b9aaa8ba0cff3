// Fetching what several tools, the container resource and the prompts show, in one place each.
import type { SvcClient } from '../../sdk/src/index.ts';
import { toContainerDetails, type ContainerDetails } from './views/container.ts';
import type { Rec } from './views/read.ts';
import { timelineOf, type TimelineEntry } from './views/timeline.ts';

/** Every transport event of a container, oldest first, with place and vessel names. */
export async function loadTimeline(client: SvcClient, containerId: string): Promise<TimelineEntry[]> {
  const events: Rec[] = [];
  for await (const event of client.containers.iterateTransportEvents(containerId, { include: 'location,vessel', 'page[size]': 100 })) events.push(event as Rec);
  return timelineOf(events);
}

export interface ContainerParts {
  routing: boolean;
  terminal: boolean;
  events: boolean;
}

/** A container with its shipment (always: its B/L and carrier are part of every view), and the parts asked for. */
export async function loadContainer(client: SvcClient, id: string, parts: ContainerParts): Promise<ContainerDetails> {
  const include = ['shipment', ...(parts.terminal ? ['pod_terminal'] : [])];
  const asked = client.containers.get(id, { include });
  // Promise.all only for two requests: for one it would add promises and turns to every call.
  const [container, timeline] = parts.events ? await Promise.all([asked, loadTimeline(client, id)]) : [await asked, undefined];
  return toContainerDetails(container as Rec, { withRouting: parts.routing, withTerminal: parts.terminal, timeline });
}
