// The sandbox carrier network as an HTTP service. Each sandbox carrier answers DCSA Track & Trace
// 2.2 under /carriers/{SCAC}/v2, exactly as svc's DCSA connector expects from a real carrier;
// /terminal serves terminal data, /sandbox the ground truth and the test numbers.
import { STATUS_CODES } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { Clock } from '../clock.ts';
import { normaliseNumber } from '../domain/carrier-numbers.ts';
import { aisFleet } from './ais-identity.ts';
import { toDcsaEvents } from './dcsa-serialise.ts';
import type { DirtRates } from './dirt.ts';
import { encodeCursor, matchesCreated, matchesFilter, parseEventsQuery, QueryError, sortEvents, REFERENCE_TYPES, type EventsQuery, type References } from './event-query.ts';
import { behaviourTruth, groundTruth, vesselTruth } from './ground-truth.ts';
import { isValidContainerNumber } from './iso6346.ts';
import type { Journey } from './journey.ts';
import { JourneyRegistry } from './registry.ts';
import { ScaledClock } from './scaled-clock.ts';
import { API_VERSION, SubscriptionHub, type DeliveryAttempt } from './subscriptions.ts';
import { terminalStatusAt } from './terminal-status.ts';
import { findTestNumber, TEST_NUMBERS, type TestNumber } from './test-numbers.ts';
import { loadSandboxWorld, SANDBOX_SCACS, type SandboxWorld } from './world.ts';

export interface SandboxOptions {
  clock: Clock;
  /** JSON file keeping first-seen anchors across restarts; without it (tests) they live in memory. */
  statePath?: string;
  /** JSON file keeping the world's reference data between starts (loadSandboxWorld); without it, read from refdata/ each time. */
  worldDataPath?: string;
  /** Simulated seconds per real second, reported by GET /sandbox/clock (default: the ScaledClock's speed, else 1). */
  speed?: number;
  /** Real milliseconds between subscription deliveries; without it, deliveries happen only on sandbox.tick(). */
  deliveryIntervalMs?: number;
  logger?: FastifyServerOptions['logger'];
  /** Called after each callback attempt (for logs); never given the secret or the body. */
  onDelivery?: (attempt: DeliveryAttempt) => void;
  world?: SandboxWorld;
  /** How untidily the carriers send their events (dirt.ts); realistic unless told, NO_DIRT for a clean feed. */
  dirt?: DirtRates;
}

export interface SandboxControls {
  /** One delivery round for push subscriptions. */
  tick(): Promise<void>;
  /** Stops the background delivery ticker (closing the app does too). */
  stop(): void;
  registry: JourneyRegistry;
  /** The world the journeys are planned in (the AIS feed reads its ships). */
  world: SandboxWorld;
  /** Every journey anchored so far, of every carrier. */
  journeys(): Journey[];
}

export type SandboxApp = FastifyInstance & { sandbox: SandboxControls };


/** The start of a body that is not JSON, for test numbers whose carrier answers garbage at first. */
const GARBLED_BODY = '[{"eventID": "5e51e72c-1f6b-4ed5-a0a6-4b5f0c0f2d11", "eventType": "TRANSPORT", "eventDateTime": "2026-';

/**
 * `+` in DCSA timestamps (…+01:00) often arrives unencoded; form decoding would turn it into a
 * space, so it is kept literally. Repeated parameters are joined as a comma list.
 */
function parseQueryString(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(text.replace(/\+/g, '%2B'))) {
    out[key] = key in out ? `${out[key]},${value}` : value;
  }
  return out;
}

export async function buildSandboxServer(options: SandboxOptions): Promise<SandboxApp> {
  const { clock } = options;
  const world = options.world ?? (await loadSandboxWorld(options.worldDataPath));
  const registry = new JourneyRegistry(world, clock, options.statePath, options.dirt);
  const hub = new SubscriptionHub(registry, clock, options.onDelivery);
  const served = new Set<string>(SANDBOX_SCACS);

  // Typed without fastify's PromiseLike side: returned from an async function, the instance is awaited
  // (that runs ready()), and a thenable type would lose the `sandbox` property in the result type.
  const app: FastifyInstance = Fastify({
    logger: options.logger ?? false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200, querystringParser: parseQueryString },
  });
  const journeys = () => SANDBOX_SCACS.flatMap((scac) => registry.journeysOf(scac));
  const controls: SandboxControls = { tick: () => hub.tick(), stop: () => hub.stop(), registry, world, journeys };
  app.addHook('onClose', async () => hub.stop());
  if (options.deliveryIntervalMs) hub.start(options.deliveryIntervalMs);

  /** The DCSA error body. */
  function fail(req: FastifyRequest, reply: FastifyReply, status: number, reason: string, message: string) {
    return reply
      .code(status)
      .header('API-Version', API_VERSION)
      .send({
        httpMethod: req.method,
        requestUri: req.url,
        errors: [{ reason, message }],
        statusCode: status,
        statusCodeText: STATUS_CODES[status] ?? 'Error',
        errorDateTime: clock.now().toISOString(),
      });
  }

  app.setNotFoundHandler((req, reply) => fail(req, reply, 404, 'notFound', `No such resource: ${req.method} ${req.url.split('?')[0]}`));
  app.setErrorHandler((error: { statusCode?: number; message: string }, req, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    return fail(req, reply, status, status === 500 ? 'internalError' : 'invalidInput', status === 500 ? 'Internal error' : error.message);
  });

  /** The carrier of a /carriers/{SCAC} route, or a 404 for a SCAC the sandbox does not impersonate. */
  function carrierOf(req: FastifyRequest<{ Params: { scac: string } }>, reply: FastifyReply): string | null {
    const scac = req.params.scac.toUpperCase();
    if (served.has(scac)) return scac;
    void fail(req, reply, 404, 'notFound', `${scac} is not a sandbox carrier; served: ${[...served].join(', ')}`);
    return null;
  }

  app.get<{ Params: { scac: string }; Querystring: Record<string, string> }>('/carriers/:scac/v2/events', async (req, reply) => {
    const scac = carrierOf(req, reply);
    if (!scac) return reply;
    let query: EventsQuery;
    try {
      query = parseEventsQuery(req.query);
    } catch (error) {
      if (error instanceof QueryError) return fail(req, reply, 400, 'invalidQuery', error.message);
      throw error;
    }
    const named = Object.entries(query.references) as [keyof References, string][];
    if (named.length === 0) {
      return fail(req, reply, 400, 'invalidQuery', 'One of carrierBookingReference, transportDocumentReference or equipmentReference is required');
    }

    let journey: Journey | null = null;
    let container: string | null = null;
    let test: TestNumber | undefined;
    let contradicting = false;
    for (const [name, value] of named) {
      const r = registry.resolve(scac, REFERENCE_TYPES[name], value);
      if (r.kind === 'malformed') return fail(req, reply, 400, 'invalidQuery', `${name}: '${r.number}' is not a valid number for ${scac}`);
      if (r.kind === 'behaviour') {
        switch (r.test.behaviour.kind) {
          case 'not_found':
            return fail(req, reply, 404, 'notFound', `${name} '${r.test.number}' is not known to ${scac}`);
          case 'invalid_number':
            return fail(req, reply, 400, 'invalidQuery', `${name}: '${r.test.number}' is not a valid number for ${scac}`);
          case 'withheld':
            return fail(req, reply, 403, 'forbidden', `${scac} does not share the data of ${r.test.number}`);
          default:
            return sendPage(req, reply, scac, query, []);
        }
      }
      if (journey && r.journey !== journey) contradicting = true;
      journey = r.journey;
      container ??= r.container;
      test ??= r.test;
    }

    if (test && (test.behaviour.kind === 'unreachable_first' || test.behaviour.kind === 'unparsable_first')) {
      const seen = registry.countRequest(scac, test.number);
      if (seen <= test.behaviour.requests) {
        if (test.behaviour.kind === 'unreachable_first') return fail(req, reply, 503, 'serviceUnavailable', `${scac} tracking is temporarily unavailable`);
        return reply.code(200).header('API-Version', API_VERSION).type('application/json').send(GARBLED_BODY);
      }
    }

    const now = clock.now();
    const events = contradicting
      ? []
      : journey!.events.filter((e) => e.publishedAt <= now && matchesCreated(e, query.created) && matchesFilter(e, query.filter, container));
    sortEvents(events, query.sort);
    return sendPage(req, reply, scac, query, toDcsaEvents(journey!, events));
  });

  function sendPage(req: FastifyRequest, reply: FastifyReply, scac: string, query: EventsQuery, all: unknown[]) {
    const { limit, offset, params } = query;
    const base = `${req.protocol}://${req.headers.host ?? 'localhost'}/carriers/${scac}/v2/events?cursor=`;
    const page = (at: number) => base + encodeCursor({ ...params, limit: String(limit) }, at);
    const lastOffset = all.length === 0 ? 0 : Math.floor((all.length - 1) / limit) * limit;
    reply.header('API-Version', API_VERSION).header('Current-Page', page(offset));
    if (offset + limit < all.length) reply.header('Next-Page', page(offset + limit)).header('Last-Page', page(lastOffset));
    if (offset > 0) reply.header('Prev-Page', page(Math.max(0, offset - limit))).header('First-Page', page(0));
    return reply.code(200).send(all.slice(offset, offset + limit));
  }

  app.post<{ Params: { scac: string } }>('/carriers/:scac/v2/event-subscriptions', async (req, reply) => {
    const scac = carrierOf(req, reply);
    if (!scac) return reply;
    try {
      return reply.code(201).header('API-Version', API_VERSION).send(hub.create(scac, req.body));
    } catch (error) {
      if (error instanceof QueryError) return fail(req, reply, 400, 'invalidInput', error.message);
      throw error;
    }
  });

  app.get<{ Params: { scac: string } }>('/carriers/:scac/v2/event-subscriptions', async (req, reply) => {
    const scac = carrierOf(req, reply);
    if (!scac) return reply;
    return reply.header('API-Version', API_VERSION).send(hub.list(scac));
  });

  app.get<{ Params: { scac: string; id: string } }>('/carriers/:scac/v2/event-subscriptions/:id', async (req, reply) => {
    const scac = carrierOf(req, reply);
    if (!scac) return reply;
    const found = hub.get(scac, req.params.id);
    if (!found) return fail(req, reply, 404, 'notFound', `No subscription ${req.params.id}`);
    return reply.header('API-Version', API_VERSION).send(found);
  });

  app.delete<{ Params: { scac: string; id: string } }>('/carriers/:scac/v2/event-subscriptions/:id', async (req, reply) => {
    const scac = carrierOf(req, reply);
    if (!scac) return reply;
    if (!hub.remove(scac, req.params.id)) return fail(req, reply, 404, 'notFound', `No subscription ${req.params.id}`);
    return reply.code(204).header('API-Version', API_VERSION).send();
  });

  app.put<{ Params: { scac: string; id: string } }>('/carriers/:scac/v2/event-subscriptions/:id/secret', async (req, reply) => {
    const scac = carrierOf(req, reply);
    if (!scac) return reply;
    try {
      if (!hub.resetSecret(scac, req.params.id, req.body)) return fail(req, reply, 404, 'notFound', `No subscription ${req.params.id}`);
    } catch (error) {
      if (error instanceof QueryError) return fail(req, reply, 400, 'invalidInput', error.message);
      throw error;
    }
    return reply.code(204).header('API-Version', API_VERSION).send();
  });

  // Terminal data (not DCSA): what the pickup terminal reports about a box right now.
  app.get<{ Params: { number: string } }>('/terminal/containers/:number', async (req, reply) => {
    const now = clock.now();
    for (const journey of registry.journeysWithContainer(req.params.number)) {
      const plan = journey.terminal.find((t) => t.container === normaliseNumber(req.params.number));
      const status = plan && terminalStatusAt(plan, now);
      if (status) return status;
    }
    return reply.code(404).send({ error: 'not_found', message: `No terminal reports ${req.params.number} at ${now.toISOString()}` });
  });

  app.get<{ Params: { scac: string; number: string }; Querystring: { type?: string } }>('/sandbox/journeys/:scac/:number', async (req, reply) => {
    const scac = carrierOf(req, reply);
    if (!scac) return reply;
    const number = normaliseNumber(req.params.number);
    const type = req.query.type ?? findTestNumber(scac, number)?.numberType ?? (isValidContainerNumber(number) ? 'container' : 'bill_of_lading');
    if (type !== 'bill_of_lading' && type !== 'booking_number' && type !== 'container') {
      return fail(req, reply, 400, 'invalidQuery', 'type must be bill_of_lading, booking_number or container');
    }
    const r = registry.resolve(scac, type, number);
    if (r.kind === 'malformed') return fail(req, reply, 400, 'invalidQuery', `'${number}' is not a valid ${type} for ${scac}`);
    if (r.kind === 'behaviour') return behaviourTruth(r.test, clock.now());
    return groundTruth(r.journey, r.test, registry.firstSeenAt(r.journey), clock.now());
  });

  app.get('/sandbox/test-numbers', async () =>
    TEST_NUMBERS.map((t) => ({
      number: t.number,
      scac: t.scac,
      number_type: t.numberType,
      outcome: t.outcome,
      // What svc's tracking request ends with, in its API's words (`created`, later `tracking_stopped`).
      status: t.failedReason ? 'failed' : 'created',
      failed_reason: t.failedReason,
    })),
  );

  // Ground truth of the AIS feed: where a ship really is at `at` (default now), before noise.
  const fleet = aisFleet(world);
  function truthTime(req: FastifyRequest<{ Querystring: { at?: string } }>, reply: FastifyReply): Date | null {
    if (req.query.at === undefined) return clock.now();
    const at = new Date(req.query.at);
    if (!Number.isNaN(at.getTime())) return at;
    void fail(req, reply, 400, 'invalidQuery', 'at must be an ISO 8601 date-time');
    return null;
  }
  app.get<{ Querystring: { at?: string } }>('/sandbox/vessels', async (req, reply) => {
    const at = truthTime(req, reply);
    if (!at) return reply;
    const all = journeys();
    return [...fleet.keys()].map((imo) => vesselTruth(fleet, all, imo, at)!).filter((v) => v.state !== 'not_transmitting');
  });
  app.get<{ Params: { imo: string }; Querystring: { at?: string } }>('/sandbox/vessels/:imo', async (req, reply) => {
    const at = truthTime(req, reply);
    if (!at) return reply;
    const truth = vesselTruth(fleet, journeys(), req.params.imo, at);
    if (!truth) return fail(req, reply, 404, 'notFound', `${req.params.imo} is not the IMO number of a sandbox ship`);
    return truth;
  });

  const speed = options.speed ?? (clock instanceof ScaledClock ? clock.speed : 1);
  app.get('/sandbox/clock', async () => ({ now: clock.now().toISOString(), speed }));

  app.get('/sandbox/carriers', async (req) =>
    world.carriers.map((c) => ({
      scac: c.scac,
      name: c.name,
      events_url: `${req.protocol}://${req.headers.host ?? 'localhost'}/carriers/${c.scac}/v2/events`,
    })),
  );

  return Object.assign(app, { sandbox: controls });
}

export interface StartSandboxOptions extends Omit<SandboxOptions, 'deliveryIntervalMs'> {
  port: number;
  host: string;
  /** Real milliseconds between subscription deliveries (default 1000). */
  deliveryIntervalMs?: number;
}

/** Runs the sandbox on its own port (`svc sandbox`, or alongside `svc serve`). */
export async function startSandbox(options: StartSandboxOptions): Promise<{ url: string; close(): Promise<void>; sandbox: SandboxControls }> {
  const app = await buildSandboxServer({ ...options, deliveryIntervalMs: options.deliveryIntervalMs ?? 1000 });
  const address = await app.listen({ port: options.port, host: options.host });
  return { url: address, close: () => app.close(), sandbox: app.sandbox };
}
