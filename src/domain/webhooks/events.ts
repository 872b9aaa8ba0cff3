// The events a webhook can subscribe to, by category: the subscribable part of the event
// vocabulary (domain/events/vocabulary.ts). The names are the wire values of `webhook.events` and
// of `webhook_notification.attributes.event`; the categories feed GET /v2/webhooks/events.
import { EVENT_CATEGORIES, EVENT_NAMES, EVENTS, type EventName } from '../events/vocabulary.ts';

export interface WebhookEventInfo {
  readonly name: EventName;
  readonly description: string;
}

export interface WebhookEventCategory {
  /** Stable slug, the `id` of the category in GET /v2/webhooks/events. */
  readonly id: string;
  readonly name: string;
  readonly events: readonly WebhookEventInfo[];
}

const subscribable = EVENT_NAMES.filter((name) => EVENTS[name].subscribable);

export const WEBHOOK_EVENT_CATEGORIES: readonly WebhookEventCategory[] = EVENT_CATEGORIES.map(({ id, name }) => ({
  id,
  name,
  events: subscribable.filter((event) => EVENTS[event].category === id).map((event) => ({ name: event, description: EVENTS[event].description })),
}));

/** Every subscribable event name, in catalogue order. */
export const WEBHOOK_EVENT_NAMES: readonly EventName[] = WEBHOOK_EVENT_CATEGORIES.flatMap((c) => c.events.map((e) => e.name));

const known: ReadonlySet<string> = new Set(WEBHOOK_EVENT_NAMES);

export const isWebhookEvent = (name: string): name is EventName => known.has(name);
