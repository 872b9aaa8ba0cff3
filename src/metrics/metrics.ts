// What svc measures about itself, in Prometheus terms. One registry per Metrics object, never
// prom-client's global one, so several apps in one process (tests) keep separate counts.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { systemClock, type Clock } from '../clock.ts';
import type { Db } from '../store/db.ts';
import { seriesObserver } from './series-observer.ts';
import { BACKLOG_COUNT_CAP, dueWorkBacklog, type QueueBacklog } from '../store/due-work.ts';

export interface MetricsOptions {
  /** The pool whose usage is reported and on which the backlog is counted at scrape time. */
  db: Db;
  /** The clock tracking work is due on (demo time while the sandbox runs); real time by default. */
  trackingClock?: Clock;
  /** The clock notifications are due on; real time by default. */
  clock?: Clock;
  /** Node.js process metrics (CPU, memory, event loop lag, GC): once per process, in `svc serve`. */
  processMetrics?: boolean;
}

// Latency buckets in seconds: API answers take milliseconds, carriers and receivers seconds.
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const REMOTE_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60];

/** A route label for requests no route matched: unknown paths must not each become a series. */
export const UNMATCHED_ROUTE = 'unmatched';

export type Metrics = ReturnType<typeof createMetrics>;

export function createMetrics(options: MetricsOptions) {
  const registry = new Registry();
  const trackingClock = options.trackingClock ?? systemClock;
  const clock = options.clock ?? systemClock;
  // Queue ages are reported in real seconds: demo time runs `speed` times faster.
  const trackingSpeed = 'speed' in trackingClock && typeof trackingClock.speed === 'number' ? trackingClock.speed : 1;
  if (options.processMetrics) collectDefaultMetrics({ register: registry });

  const httpRequests = new Histogram({
    name: 'svc_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status code, and how long they took (_count is the number of requests)',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: HTTP_BUCKETS,
    registers: [registry],
  });
  const trackingLookups = new Histogram({
    name: 'svc_tracking_lookup_duration_seconds',
    help: 'Carrier lookups by the tracking worker, by carrier SCAC and outcome (found or the failure reason), and how long they took',
    labelNames: ['scac', 'outcome'] as const,
    buckets: REMOTE_BUCKETS,
    registers: [registry],
  });
  const rejectedEvents = new Counter({
    name: 'svc_carrier_events_rejected_total',
    help: 'Carrier events svc could not read (each counted once, however often it is sent again), by carrier SCAC and reason kind',
    labelNames: ['scac', 'reason'] as const,
    registers: [registry],
  });
  const webhookDeliveries = new Histogram({
    name: 'svc_webhook_delivery_duration_seconds',
    help: 'Webhook delivery attempts by outcome (succeeded, will_retry, failed), and how long the receiver took',
    labelNames: ['outcome'] as const,
    buckets: REMOTE_BUCKETS,
    registers: [registry],
  });

  // The backlog is read once per scrape and shared by the two gauges that report it. With the
  // database unreachable the gauges are left empty rather than failing the whole scrape.
  let backlog: Promise<QueueBacklog[] | null> | undefined;
  const readBacklog = () => {
    backlog ??= dueWorkBacklog(options.db, trackingClock.now(), clock.now())
      .catch(() => null)
      .finally(() => setImmediate(() => (backlog = undefined)));
    return backlog;
  };
  new Gauge({
    name: 'svc_due_work',
    help: `Items due now and not being worked on, by queue (tracking_requests, shipment_refreshes, webhook_notifications), counted up to ${BACKLOG_COUNT_CAP}`,
    labelNames: ['queue'] as const,
    registers: [registry],
    async collect() {
      const queues = await readBacklog();
      this.reset();
      for (const q of queues ?? []) this.set({ queue: q.queue }, q.due);
    },
  });
  new Gauge({
    name: 'svc_due_work_oldest_age_seconds',
    help: 'How long the longest-waiting due item of each queue has been due, in real seconds (0 when none is due)',
    labelNames: ['queue'] as const,
    registers: [registry],
    async collect() {
      const queues = await readBacklog();
      this.reset();
      const nowMs = { tracking: trackingClock.now().getTime(), delivery: clock.now().getTime() };
      for (const q of queues ?? []) {
        const [now, speed] = q.queue === 'webhook_notifications' ? [nowMs.delivery, 1] : [nowMs.tracking, trackingSpeed];
        this.set({ queue: q.queue }, q.oldestDueAt ? Math.max(0, now - q.oldestDueAt.getTime()) / 1000 / speed : 0);
      }
    },
  });

  const pool = options.db;
  new Gauge({
    name: 'svc_db_pool_clients',
    help: 'PostgreSQL connections held by the pool, in use or idle',
    registers: [registry],
    collect() {
      this.set(pool.totalCount);
    },
  });
  new Gauge({
    name: 'svc_db_pool_idle_clients',
    help: 'PostgreSQL connections of the pool that are idle',
    registers: [registry],
    collect() {
      this.set(pool.idleCount);
    },
  });
  new Gauge({
    name: 'svc_db_pool_waiting_clients',
    help: 'Queries waiting for a free connection of the pool',
    registers: [registry],
    collect() {
      this.set(pool.waitingCount);
    },
  });

  // Every response is observed: through the cheaper path (series-observer.ts).
  const observeHttp = seriesObserver(httpRequests, ['route', 'method', 'status']);
  /** One HTTP response under its method, route pattern and status, and how long it took. */
  const observeHttpRequest = (method: string, route: string, status: number, seconds: number) => observeHttp([route, method, status], seconds);

  return { registry, httpRequests, observeHttpRequest, trackingLookups, rejectedEvents, webhookDeliveries };
}
