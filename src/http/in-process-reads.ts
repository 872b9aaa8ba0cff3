// The short way into a /v2 read for svc serve's own MCP server (src/main/inject-fetch.ts), whose
// tools call REST in memory. Through fastify, such a call paid a second time for what its /mcp
// POST had paid already: request and reply objects, every hook, the reply's send chain. Here a
// GET that fastify would route to a /v2 read route runs that route's own steps (authentication
// and rate limit in the route's bucket, then its handler, as registerRoute does) and its answer
// is handed back as the object the handler made. Routing is the app's: a router with the same
// options and the same GET routes (collected as fastify registers them) finds the route, so a path
// reaches the same route, params and query either way; a path that fastify would answer otherwise
// (any other route, not found, a malformed URL) is not taken here.
// A failure is not rendered here: the caller sends the request through fastify with the error
// set on it (presetErrorOf), and the route throws it at once, so the error document, its
// headers and request id are the app's own (and the key is not counted twice).
import FindMyWay, { type HTTPVersion } from 'find-my-way';
import type { FastifyInstance } from 'fastify';

/** A read as the in-process caller sends it: path with query, lower-case headers (host among them). */
export interface InProcessRead {
  path: string;
  headers: Record<string, string>;
}

/** A read route's answer, as its handler made it (route.ts's Reply, named here so neither file imports the other). */
export interface ReadAnswer {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** What registerRoute gives for one of its GET routes: run its steps for a request fastify would route to it. */
export type ReadRun = (read: InProcessRead, params: Record<string, string>, query: Record<string, string | string[]>) => Promise<ReadAnswer>;

/** Route config member through which registerRoute hands its run to the router here. */
export const IN_PROCESS_READ = 'svcInProcessRead';

/** Router options both fastify and the router here are made with (app.ts). */
export type ReadRouterOptions = Pick<FindMyWay.Config<HTTPVersion.V1>, 'ignoreTrailingSlash' | 'maxParamLength' | 'querystringParser'>;

interface ReadRoutes {
  router: FindMyWay.Instance<HTTPVersion.V1>;
  /** The app is closing, or its routes could not all be mirrored. */
  off: boolean;
}

const routes = new WeakMap<FastifyInstance, ReadRoutes>();
// Headers through which fastify (with trustProxy) would see another host or protocol than Host
// and plain HTTP: a request carrying one goes through fastify.
const PROXY_HEADERS = ['x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-for', ':authority'];

/**
 * Collects `app`'s GET routes as they are registered: call it before any route is. While the app
 * closes, nothing is taken here, so fastify's own hooks turn requests away.
 */
export function collectReadRoutes(app: FastifyInstance, options: ReadRouterOptions): void {
  const reads: ReadRoutes = { router: FindMyWay<HTTPVersion.V1>({ ...options }), off: false };
  routes.set(app, reads);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('GET')) return;
    // Every GET route, so the router finds what fastify's finds; only /v2 read routes carry a run.
    const run = (route.config as Record<string, unknown> | undefined)?.[IN_PROCESS_READ];
    try {
      // A route only some requests reach (constraints) would be found here for all of them.
      if (route.constraints) throw new Error('a constrained route');
      reads.router.on('GET', route.url, () => {}, { run: typeof run === 'function' ? (run as ReadRun) : undefined });
    } catch {
      reads.off = true; // a router unlike fastify's: every read goes through fastify
    }
  });
  app.addHook('preClose', (done) => {
    reads.off = true;
    done();
  });
}

/**
 * The read route's answer to `read` (its body as the handler made it: only to be read), or
 * undefined when fastify must answer the request (see above). A rejection is the error the route
 * raised, for the caller to have fastify render (presetErrorOf).
 */
export function readInProcess(app: FastifyInstance, read: InProcessRead): Promise<ReadAnswer> | undefined {
  const reads = routes.get(app);
  if (!reads || reads.off || !app.server.listening) return undefined;
  for (const name of PROXY_HEADERS) if (read.headers[name] !== undefined) return undefined;
  let found;
  try {
    found = reads.router.find('GET', read.path);
  } catch {
    return undefined;
  }
  const run = (found?.store as { run?: ReadRun } | undefined)?.run;
  if (!found || !run) return undefined;
  return run(read, found.params as Record<string, string>, found.searchParams as Record<string, string | string[]>);
}

const PRESET_ERROR = Symbol('svc.presetError');

/** Marks a request (node's, or an in-memory one) to fail at its route with `err` (see above). */
export function presetError(raw: object, err: unknown): void {
  (raw as { [PRESET_ERROR]?: { err: unknown } })[PRESET_ERROR] = { err };
}

/** The error set on a request by presetError, in a box (whatever was thrown, even undefined); undefined when none was. */
export function presetErrorOf(raw: object): { err: unknown } | undefined {
  return (raw as { [PRESET_ERROR]?: { err: unknown } })[PRESET_ERROR];
}
