// DCSA 2.2 push subscriptions. A ticker looks for events published since its last look that
// match each subscription and POSTs them as one JSON array to the callback, signed with
// HMAC-SHA256 of the raw body (Notification-Signature: sha256=<hex>). A failed delivery keeps the
// events queued and is retried after 1, 2, 4 … 64 ticks; nothing here ever throws into the ticker.
import { createHmac, randomUUID } from 'node:crypto';
import type { Clock } from '../clock.ts';
import { toDcsaEvents, type DcsaEvent } from './dcsa-serialise.ts';
import { matchesFilter, parseFilter, QueryError, REFERENCE_TYPES, type EventFilter, type References } from './event-query.ts';
import type { Journey } from './journey.ts';
import type { JourneyRegistry } from './registry.ts';

export const API_VERSION = '2.2.0';
const BATCH_SIZE = 100;
const MAX_BACKOFF_TICKS = 64;
const DELIVERY_TIMEOUT_MS = 10_000;


interface Subscription {
  id: string;
  scac: string;
  callbackUrl: string;
  secret: Buffer;
  references: References;
  filter: EventFilter;
  /** With number references: the journey they name (null: a number that has no events). Without: every journey of the carrier. */
  scope: { journey: Journey | null; container: string | null } | null;
  /** Events published after this instant have not been looked at yet. */
  watermark: Date;
  queue: DcsaEvent[];
  failures: number;
  nextAttemptTick: number;
}

export interface DeliveryAttempt {
  subscriptionId: string;
  callbackUrl: string;
  events: number;
  status: number | null;
  ok: boolean;
}

export class SubscriptionHub {
  readonly #registry: JourneyRegistry;
  readonly #clock: Clock;
  readonly #subscriptions = new Map<string, Subscription>();
  readonly #onDelivery: (attempt: DeliveryAttempt) => void;
  #ticks = 0;
  #running: Promise<void> | null = null;
  #timer: NodeJS.Timeout | null = null;

  constructor(registry: JourneyRegistry, clock: Clock, onDelivery: (attempt: DeliveryAttempt) => void = () => {}) {
    this.#registry = registry;
    this.#clock = clock;
    this.#onDelivery = onDelivery;
  }

  /** Validates a 2.2 subscription body; a QueryError names what is wrong. */
  create(scac: string, body: unknown): Record<string, unknown> {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new QueryError('the body must be a JSON object');
    const input = body as Record<string, unknown>;
    const callbackUrl = input.callbackUrl;
    if (typeof callbackUrl !== 'string' || !/^https?:\/\//.test(callbackUrl) || !URL.canParse(callbackUrl)) {
      throw new QueryError('callbackUrl must be an http(s) URL');
    }
    const secret = parseSecret(input.secret);
    const filter = parseFilter(input);
    const references: References = {};
    for (const name of Object.keys(REFERENCE_TYPES) as (keyof References)[]) {
      const value = input[name];
      if (value === undefined || value === '') continue;
      if (typeof value !== 'string') throw new QueryError(`${name} must be a string`);
      references[name] = value;
    }
    const subscription: Subscription = {
      id: randomUUID(),
      scac,
      callbackUrl,
      secret,
      references,
      filter,
      scope: this.#scope(scac, references),
      watermark: this.#clock.now(),
      queue: [],
      failures: 0,
      nextAttemptTick: 0,
    };
    this.#subscriptions.set(subscription.id, subscription);
    return describe(subscription);
  }

  list(scac: string): Record<string, unknown>[] {
    return [...this.#subscriptions.values()].filter((s) => s.scac === scac).map(describe);
  }

  get(scac: string, id: string): Record<string, unknown> | undefined {
    const s = this.#subscriptions.get(id);
    return s && s.scac === scac ? describe(s) : undefined;
  }

  remove(scac: string, id: string): boolean {
    const s = this.#subscriptions.get(id);
    if (!s || s.scac !== scac) return false;
    return this.#subscriptions.delete(id);
  }

  resetSecret(scac: string, id: string, body: unknown): boolean {
    const s = this.#subscriptions.get(id);
    if (!s || s.scac !== scac) return false;
    s.secret = parseSecret((body as Record<string, unknown> | null)?.secret);
    return true;
  }

  /** Queues newly published events and delivers what is due. Concurrent calls share one run. */
  tick(): Promise<void> {
    this.#running ??= this.#runTick().finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  start(intervalMs: number): void {
    this.stop();
    this.#timer = setInterval(() => void this.tick(), intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  async #runTick(): Promise<void> {
    this.#ticks++;
    const now = this.#clock.now();
    await Promise.all([...this.#subscriptions.values()].map((s) => this.#serve(s, now)));
  }

  async #serve(s: Subscription, now: Date): Promise<void> {
    try {
      const journeys = s.scope ? (s.scope.journey ? [s.scope.journey] : []) : this.#registry.journeysOf(s.scac);
      for (const journey of journeys) {
        for (const e of journey.events) {
          if (e.publishedAt <= s.watermark || e.publishedAt > now) continue;
          if (matchesFilter(e, s.filter, s.scope?.container ?? null)) s.queue.push(...toDcsaEvents(journey, [e]));
        }
      }
      s.watermark = now;
      if (s.queue.length === 0 || this.#ticks < s.nextAttemptTick) return;
      const batch = s.queue.slice(0, BATCH_SIZE);
      const status = await post(s, batch);
      const ok = status !== null && status >= 200 && status < 300;
      this.#onDelivery({ subscriptionId: s.id, callbackUrl: s.callbackUrl, events: batch.length, status, ok });
      if (ok) {
        s.queue.splice(0, batch.length);
        s.failures = 0;
        s.nextAttemptTick = 0;
      } else {
        s.failures++;
        s.nextAttemptTick = this.#ticks + Math.min(2 ** (s.failures - 1), MAX_BACKOFF_TICKS);
      }
    } catch {
      // A subscription whose journey cannot be read must not stop the others; it is retried next tick.
    }
  }

  #scope(scac: string, references: References): Subscription['scope'] {
    const named = Object.entries(references) as [keyof References, string][];
    if (named.length === 0) return null;
    let journey: Journey | null = null;
    let container: string | null = null;
    for (const [name, value] of named) {
      const r = this.#registry.resolve(scac, REFERENCE_TYPES[name], value);
      if (r.kind === 'malformed') throw new QueryError(`${name}: '${value}' is not a valid number for ${scac}`);
      if (r.kind === 'behaviour') return { journey: null, container: null };
      if (journey && r.journey !== journey) return { journey: null, container: null };
      journey = r.journey;
      container ??= r.container;
    }
    return { journey, container };
  }
}

function parseSecret(value: unknown): Buffer {
  if (typeof value !== 'string' || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) throw new QueryError('secret must be base64');
  return Buffer.from(value, 'base64');
}

/** The subscription as DCSA returns it: everything but the secret. */
function describe(s: Subscription): Record<string, unknown> {
  return { subscriptionID: s.id, callbackUrl: s.callbackUrl, ...s.references, ...s.filter };
}

/** The HTTP status of the callback, or null when it could not be reached. */
async function post(s: Subscription, events: DcsaEvent[]): Promise<number | null> {
  const body = JSON.stringify(events);
  const signature = createHmac('sha256', s.secret).update(body, 'utf8').digest('hex');
  try {
    const response = await fetch(s.callbackUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'notification-signature': `sha256=${signature}`,
        'subscription-id': s.id,
        'api-version': API_VERSION,
      },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    await response.arrayBuffer().catch(() => undefined);
    return response.status;
  } catch {
    return null;
  }
}
