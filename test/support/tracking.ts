// The tracking engine wired to the sandbox carrier network over real HTTP on loopback, all on the
// test's manual clock: the API, the sandbox's notion of "now" and the worker move together.
import { ConnectorRegistry, type CarrierEndpoint } from '../../src/carriers/registry.ts';
import { buildSandboxServer, SANDBOX_SCACS, type SandboxApp } from '../../src/sandbox/index.ts';
import { TrackingWorker } from '../../src/services/tracking/worker.ts';
import { startTestApp, type TestApp, type TestAppOptions } from './app.ts';

export interface TrackingHarness extends TestApp {
  sandbox: SandboxApp;
  sandboxUrl: string;
  /** Every push the sandbox attempted: where, how many events, the answer. */
  deliveries: { callbackUrl: string; events: number; status: number | null }[];
  worker: TrackingWorker;
  /** Another worker on the same database, for scale-out tests. */
  newWorker(): TrackingWorker;
  /** Advances the clock by `ms` in `steps`, letting the worker catch up after each step. */
  advance(ms: number, steps?: number): Promise<void>;
  track(requestType: string, number: string, scac: string, refNumbers?: string[]): Promise<string>;
}

/** `options.apiClock` gives the API a clock of its own; the sandbox and the worker keep `clock`. */
export async function startTrackingHarness(extraEndpoints: CarrierEndpoint[] = [], options: Pick<TestAppOptions, 'apiClock' | 'logger' | 'metricsEndpoint' | 'webhooks' | 'beforeListen'> = {}): Promise<TrackingHarness> {
  // As in `svc serve`, the API refuses lines no connector serves; the registry exists once the
  // sandbox listens, before any request.
  let registry: ConnectorRegistry | undefined;
  const t = await startTestApp({ ...options, isTrackable: (scac) => registry?.has(scac) ?? false });
  const deliveries: TrackingHarness['deliveries'] = [];
  const sandbox = await buildSandboxServer({ clock: t.clock, onDelivery: (d) => deliveries.push(d) });
  const address = await sandbox.listen({ port: 0, host: '127.0.0.1' });
  const endpoints: CarrierEndpoint[] = [
    ...SANDBOX_SCACS.map((scac) => ({ scac, baseUrl: `${address}/carriers/${scac}`, version: '2.2' as const, terminalBaseUrl: `${address}/terminal`, timeoutMs: 5000 })),
    ...extraEndpoints,
  ];
  registry = new ConnectorRegistry(endpoints, t.clock);
  const newWorker = () => new TrackingWorker({ db: t.db, clock: t.clock, connectors: new ConnectorRegistry(endpoints, t.clock), callbackBaseUrl: t.baseUrl, metrics: t.metrics });
  const worker = newWorker();
  return {
    ...t,
    sandbox,
    sandboxUrl: address,
    deliveries,
    worker,
    newWorker,
    async advance(ms, steps = 1) {
      for (let i = 0; i < steps; i++) {
        t.clock.advance(ms / steps);
        await worker.drain();
      }
    },
    async track(requestType, number, scac, refNumbers) {
      const res = await t.request('POST', '/v2/tracking_requests', {
        body: { data: { type: 'tracking_request', attributes: { request_type: requestType, request_number: number, scac, ref_numbers: refNumbers } } },
      });
      if (res.status !== 201) throw new Error(`POST /v2/tracking_requests → ${res.status} ${res.text}`);
      return res.body.data.id as string;
    },
    async close() {
      await sandbox.close();
      await t.close();
    },
  };
}
