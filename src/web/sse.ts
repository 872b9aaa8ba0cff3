// Server-sent events for the web app's live pages: one long response per open page, fed by the
// process's LiveEventsHub with the changes of the signed-in account. Each message only says what
// changed; the page fetches the new state itself. A page told to `resync` reloads what it shows.
import type { Server } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { LiveChange, LiveEventsHub, LiveMessage } from '../services/live-events.ts';

export interface LiveStreamOptions {
  /** Only changes this accepts are sent (resyncs always are). */
  filter?: (change: LiveChange) => boolean;
  /** A comment line this often keeps proxies and browsers from dropping a quiet stream. */
  heartbeatMs?: number;
  /** How long the browser waits before reconnecting a dropped stream (the `retry:` field). */
  retryMs?: number;
  /** Something the stream asks about now and then, as it changes without a domain event (see LiveWatch). */
  watch?: LiveWatch;
}

/**
 * A change the live channel does not carry (a vessel's new position): `probe` is asked every
 * `everyMs`, and each time its answer differs from the one before, `change` is sent. The first
 * answer is where the stream starts from: the page was just rendered with it.
 */
export interface LiveWatch {
  everyMs: number;
  probe: () => Promise<string>;
  change: Pick<LiveChange, 'event' | 'shipmentId' | 'containerId' | 'trackingRequestId'>;
}

const HEARTBEAT_MS = 20_000;
const RETRY_MS = 3_000;

/** Open streams per HTTP server, so a server shutting down can end them (they never end by themselves). */
const openStreams = new WeakMap<Server, Set<() => void>>();
/** Servers shutting down: a stream asked for then is ended at once (the browser retries elsewhere). */
const closing = new WeakSet<Server>();

/**
 * Ends every live stream of the app when it starts closing: app.close() waits for open requests
 * to finish, and a live stream never would, so without this a graceful shutdown would hang. Call
 * once on the app that serves the streams, before it is ready.
 */
export function endLiveStreamsOnClose(app: FastifyInstance): void {
  app.addHook('preClose', async () => {
    closing.add(app.server);
    const streams = openStreams.get(app.server);
    for (const end of [...(streams ?? [])]) end();
  });
}

/** The SSE data of a change: what changed and where, without the account (the stream is the account's own). */
function changeData(change: LiveWatch['change']): string {
  return JSON.stringify({ event: change.event, shipment_id: change.shipmentId, container_id: change.containerId, tracking_request_id: change.trackingRequestId });
}

/**
 * Answers the request with a stream of the account's live changes (`event: change`, data: JSON)
 * and `event: resync` after the hub may have missed some, until the client goes away or the
 * server closes. The account must be the caller's own, as established by the route.
 */
export function streamLiveEvents(req: FastifyRequest, reply: FastifyReply, hub: LiveEventsHub, accountId: string, options: LiveStreamOptions = {}): void {
  const res = reply.raw;
  reply.hijack();
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
  });
  // Nothing is written once the stream is ended (the client left, or the server closes).
  let open = true;
  const write = (text: string) => {
    if (open && !res.writableEnded && !res.destroyed) res.write(text);
  };
  write(`retry: ${options.retryMs ?? RETRY_MS}\n\n`);
  const server = req.server.server;
  if (closing.has(server)) return void res.end();

  let unsubscribe: () => void;
  try {
    unsubscribe = hub.subscribe(accountId, (message: LiveMessage) => {
      if (message.kind === 'resync') return write('event: resync\ndata: {}\n\n');
      if (options.filter && !options.filter(message.change)) return;
      write(`event: change\ndata: ${changeData(message.change)}\n\n`);
    });
  } catch {
    // The hub is closed: the process is shutting down.
    return void res.end();
  }
  const heartbeat = setInterval(() => write(': heartbeat\n\n'), options.heartbeatMs ?? HEARTBEAT_MS);
  heartbeat.unref();
  const stopWatching = options.watch ? watch(options.watch, () => open, (change) => write(`event: change\ndata: ${changeData(change)}\n\n`)) : () => {};

  let streams = openStreams.get(server);
  if (!streams) openStreams.set(server, (streams = new Set()));
  const registry = streams;

  const cleanUp = () => {
    if (!open) return;
    open = false;
    clearInterval(heartbeat);
    stopWatching();
    unsubscribe();
    registry.delete(end);
  };
  // The server ends the stream: the browser reconnects (to a server that is up) after `retry`.
  const end = () => {
    cleanUp();
    if (!res.writableEnded) res.end();
  };
  registry.add(end);
  // The response's 'close' comes when the client disconnects as well as after end() (the
  // request's own 'close' comes as soon as its empty body has been read, so it cannot tell).
  res.on('close', cleanUp);
  res.on('error', cleanUp);
  // A client that left before the stream was set up has no 'close' still to come.
  if (res.destroyed) cleanUp();
}

/**
 * Asks `w.probe` every `w.everyMs` while `isOpen()`, one question at a time (a slow database makes
 * the stream ask less often, never pile up), and sends `w.change` when the answer moves. A failed
 * question is asked again next time: the page keeps what it shows meanwhile.
 */
function watch(w: LiveWatch, isOpen: () => boolean, send: (change: LiveWatch['change']) => void): () => void {
  let last: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  const ask = async () => {
    try {
      const now = await w.probe();
      if (last !== undefined && now !== last && isOpen()) send(w.change);
      last = now;
    } catch {
      // Asked again at the next turn.
    }
    if (!isOpen()) return;
    timer = setTimeout(() => void ask(), w.everyMs);
    timer.unref();
  };
  void ask();
  return () => clearTimeout(timer);
}
