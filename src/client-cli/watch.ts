// svc watch <id|number>: follows a tracking request until the line publishes its shipment, then
// shows each new milestone of the shipment's containers as svc records it, until every container
// is back empty or svc stops tracking it (or Ctrl-C); on a journey already over it shows the whole
// history and ends. It polls, one request a round once the shipment is known (its
// containers with their transport events included), so a modest interval stays far below the
// 100-requests-a-minute limit; a poll that fails for a passing reason (rate limit, svc restarting,
// network) is tried again rather than ending the watch.
import { ConnectionError, RateLimitError, ServerError, type Container, type SvcClient, type TrackingRequest, type TransportEvent } from '../../sdk/src/index.ts';
import { collect } from './collect.ts';
import { describeFailure } from './failure.ts';
import type { Io } from './io.ts';
import { ClientCommandError } from './options.ts';
import { watchView, type WatchStatus, type WatchView } from './watch-view.ts';
import { failedReason, when, words } from './words.ts';

export interface WatchOptions {
  /** A tracking request id, or a number: the newest tracking request of that number. */
  target: string;
  intervalMs: number;
  json: boolean;
  /** Ctrl-C. */
  signal: AbortSignal;
}

/** 0 once every container is empty-returned; 130 when interrupted. A failed tracking request throws. */
export async function watch(client: SvcClient, io: Io, options: WatchOptions): Promise<number> {
  const view = watchView(io, options.json);
  try {
    return await follow(client, view, options);
  } finally {
    view.end();
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INTERRUPTED = 130;

async function follow(client: SvcClient, view: WatchView, options: WatchOptions): Promise<number> {
  let request = await findRequest(client, options.target);
  const state: WatchStatus = { request, containers: [], milestones: 0, checkedAt: new Date() };
  const poll = poller(view, state, options);

  // Until the line publishes the shipment.
  for (let shown: string | undefined; ; ) {
    if (request.status !== shown) view.request(request);
    shown = request.status;
    state.request = request;
    view.status(state);
    const shipment = request.tracked_object as { id?: string } | null | undefined;
    // A stopped request with a shipment is a finished journey (or one the user stopped): its
    // history is still there to show.
    if ((request.status === 'created' || request.status === 'tracking_stopped') && shipment?.id) return followShipment(client, view, state, shipment.id, poll);
    if (request.status === 'failed') throw new ClientCommandError(`tracking request ${request.id} failed: ${failedReason(request.failed_reason)}`);
    if (request.status === 'tracking_stopped') throw new ClientCommandError(`tracking request ${request.id} was stopped before the line published its shipment`);
    const next = await poll(() => client.trackingRequests.get(request.id));
    if (next === INTERRUPTED) return INTERRUPTED;
    request = next ?? request;
  }
}

async function followShipment(client: SvcClient, view: WatchView, state: WatchStatus, shipmentId: string, poll: Poller): Promise<number> {
  const containersNow = () => collect(client.containers.iterate({ 'filter[shipment_id]': shipmentId, include: 'transport_events', 'page[size]': 100 }));
  const shipment = await client.shipments.get(shipmentId);
  let containers = await containersNow();
  view.shipment(shipment, containers.map((c) => c.number));
  state.shipment = shipment;
  const seen = new Set<string>();
  for (;;) {
    const fresh = containers.flatMap((c) => eventsOf(c).filter((e) => !seen.has(e.id)).map((e) => ({ container: c.number, e })));
    fresh.sort((a, b) => `${a.e.timestamp ?? '~'}|${a.container}`.localeCompare(`${b.e.timestamp ?? '~'}|${b.container}`));
    for (const { container, e } of fresh) {
      seen.add(e.id);
      view.event(container, e);
    }
    state.milestones = seen.size;
    state.containers = containers;
    view.status(state);
    if (containers.length > 0 && containers.every((c) => c.current_status === 'empty_returned')) {
      view.done('every container is back empty (empty returned): nothing more to watch');
      return 0;
    }
    if (shipment.line_tracking_stopped_at) {
      view.done(`svc stopped tracking this shipment ${when(shipment.line_tracking_stopped_at)} (${words(shipment.line_tracking_stopped_reason)}): nothing more to watch`);
      return 0;
    }
    const next = await poll(containersNow);
    if (next === INTERRUPTED) return INTERRUPTED;
    containers = next ?? containers;
  }
}

const eventsOf = (c: Container): TransportEvent[] => (Array.isArray(c.transport_events) ? (c.transport_events as unknown as TransportEvent[]).filter((e) => typeof e.event === 'string') : []);

type Poller = <T>(fetch: () => Promise<T>) => Promise<T | undefined | typeof INTERRUPTED>;

/**
 * Waits the interval (or as long as a rate limit asks), then fetches: the answer, undefined when
 * the fetch failed for a passing reason (said on the status line), or INTERRUPTED on Ctrl-C.
 */
function poller(view: WatchView, state: WatchStatus, options: WatchOptions): Poller {
  let waitMs = options.intervalMs;
  return async (fetch) => {
    if (!(await pause(waitMs, options.signal))) return INTERRUPTED;
    waitMs = options.intervalMs;
    try {
      const answer = await fetch();
      state.checkedAt = new Date();
      state.problem = undefined;
      return answer;
    } catch (err) {
      if (!(err instanceof RateLimitError || err instanceof ServerError || err instanceof ConnectionError)) throw err;
      if (err instanceof RateLimitError && err.retryAfterSeconds) waitMs = Math.max(waitMs, err.retryAfterSeconds * 1000);
      state.problem = `${describeFailure(err)}; trying again in ${Math.ceil(waitMs / 1000)} s`;
      view.problem(state.problem);
      view.status(state);
      return undefined;
    }
  };
}

/** Resolves true after `ms`, false at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve(true);
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', stop, { once: true });
  });
}

/** The tracking request of an id, or the newest one of a number. */
async function findRequest(client: SvcClient, target: string): Promise<TrackingRequest> {
  if (UUID.test(target)) return client.trackingRequests.get(target);
  const requests = await collect(client.trackingRequests.iterate({ 'filter[request_number]': target, 'page[size]': 100 }));
  const newest = requests.reduce<TrackingRequest | undefined>((a, b) => (!a || b.created_at > a.created_at ? b : a), undefined);
  if (!newest) throw new ClientCommandError(`no tracking request for ${target} (svc track ${target} starts one)`);
  return newest;
}
