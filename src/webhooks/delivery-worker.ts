// The delivery worker: claims due webhook notifications from PostgreSQL, POSTs each signed
// document to its webhook, logs every attempt, and settles the notification (succeeded, retry
// later, or failed). Claims are leases, so any number of workers share the work, and one that
// dies mid-burst leaves its claims to be retaken: nothing is lost, at worst delivered twice.
import type { Clock } from '../clock.ts';
import type { HostLookup } from '../domain/webhooks/url-policy.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { Db, Tx } from '../store/db.ts';
import { listenForNewNotifications, unlistenNewNotifications } from '../store/notification-channel.ts';
import { claimDueNotifications, recordAttempts, type Attempt, type AttemptOutcome, type ClaimedNotification } from '../store/webhook-notifications.ts';
import { deactivateWebhook, markWebhookFailed, markWebhookSucceeded } from '../store/webhooks.ts';
import { answerProblem, deliveryHeaders } from './delivery-request.ts';
import { WebhookSender, type SendResult } from './http-sender.ts';
import { deliveryDocuments } from './notification-document.ts';
import { defaultDeliveryPolicy, isSuccessStatus, retryDelay, type DeliveryPolicy } from './policy.ts';

export interface DeliveryWorkerDeps {
  db: Db;
  clock: Clock;
  /** The clock tracking runs on (the sandbox's, in demo mode), for what payloads show that ages with it; `clock` by default. */
  trackingClock?: Clock;
  allowInsecure: boolean;
  policy?: Partial<DeliveryPolicy>;
  lookup?: HostLookup;
  /** [0, 1) for the retry jitter; Math.random by default. */
  random?: () => number;
  log?: (msg: string, fields?: Record<string, unknown>) => void;
  /** Where delivery attempts are counted and timed. */
  metrics?: Pick<Metrics, 'webhookDeliveries'>;
}

// Recording an attempt's outcome takes milliseconds; this is ample room.
const LEASE_MARGIN_MS = 5_000;
// A webhook's last success is written at most this often by one worker (it only feeds the
// deactivation rule, which counts in hours).
const SUCCESS_MARK_EVERY_MS = 60_000;

export class DeliveryWorker {
  readonly policy: DeliveryPolicy;
  readonly #sender: WebhookSender;
  readonly #random: () => number;
  readonly #successMarked = new Map<string, number>();
  #inFlight = new Set<Promise<void>>();
  /** Attempts that ended in this turn of the event loop, recorded together. */
  #ended: { attempt: Attempt; done: (err?: unknown) => void }[] = [];
  #stopped = true;
  #loop: Promise<void> = Promise.resolve();
  #wake: (() => void) | undefined;
  #listener: Tx | undefined;
  #poked = false;

  constructor(private readonly deps: DeliveryWorkerDeps) {
    this.policy = { ...defaultDeliveryPolicy, ...deps.policy };
    this.#sender = new WebhookSender({ allowInsecure: deps.allowInsecure, timeoutMs: this.policy.timeoutMs, lookup: deps.lookup });
    this.#random = deps.random ?? Math.random;
  }

  /** Delivers up to `limit` due notifications, all at once; returns how many it claimed. */
  async runDue(limit = this.policy.concurrency): Promise<number> {
    const claimed = await this.#claim(limit);
    await Promise.all(await this.#begin(claimed));
    return claimed.length;
  }

  /** Delivers until nothing is due at the current clock time (tests advance the clock, then drain). */
  async drain(): Promise<void> {
    while ((await this.runDue()) > 0);
  }

  /**
   * Keeps up to `concurrency` deliveries in flight: claims more whenever one ends, and looks for
   * due work every `intervalMs` when there is none (or at once when poked).
   */
  start(intervalMs: number): void {
    this.#stopped = false;
    this.#loop = (async () => {
      while (!this.#stopped) {
        if (!this.#listener) await this.#listen();
        const free = this.policy.concurrency - this.#inFlight.size;
        let claimed = 0;
        if (free > 0) {
          try {
            const batch = await this.#claim(free);
            claimed = batch.length;
            for (const p of await this.#begin(batch)) {
              const tracked: Promise<void> = p.finally(() => {
                this.#inFlight.delete(tracked);
                this.#wake?.();
              });
              this.#inFlight.add(tracked);
            }
          } catch (err) {
            // The claimed notifications come due again when their lease ends.
            this.deps.log?.('webhook delivery: claim failed', { err: String(err) });
          }
        }
        // A full claim means more may be due, and a poke during the claim may have come after it:
        // look again at once.
        if ((free > 0 && claimed === free) || this.#poked) {
          this.#poked = false;
          continue;
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, intervalMs);
          this.#wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.#wake = undefined;
      }
    })();
  }

  /**
   * Holds one connection that LISTENs for new notifications, so an idle worker delivers within
   * milliseconds of a commit rather than at its next poll. Without it (the connection failed),
   * polling goes on and the next turn tries again.
   */
  async #listen(): Promise<void> {
    let client: Tx | undefined;
    try {
      client = await this.deps.db.connect();
      client.on('notification', () => this.poke());
      const own = client;
      own.on('error', (err) => {
        // Only the worker's own connection is handed back, and only once: after stop() released
        // it, the pool owns it and deals with its errors.
        if (this.#listener !== own) return;
        this.deps.log?.('webhook delivery: listening connection lost', { err: String(err) });
        this.#listener = undefined;
        own.release(err);
      });
      await listenForNewNotifications(own);
      this.#listener = own;
    } catch (err) {
      // A connection that could not LISTEN is closed rather than handed back half set up.
      if (client && this.#listener !== client) client.release(err instanceof Error ? err : true);
      this.deps.log?.('webhook delivery: cannot listen for new notifications; polling', { err: String(err) });
    }
  }

  /** Makes a running worker look for due work now (new notifications, a redelivery request). */
  poke(): void {
    this.#poked = true;
    this.#wake?.();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#wake?.();
    await this.#loop;
    await Promise.all(this.#inFlight);
    const listener = this.#listener;
    if (listener) {
      this.#listener = undefined;
      await unlistenNewNotifications(listener).catch(() => {});
      listener.removeAllListeners('notification');
      listener.release();
    }
    await this.#sender.close();
  }

  #claim(limit: number): Promise<ClaimedNotification[]> {
    const now = this.deps.clock.now();
    // The lease outlasts one attempt with room to record it; a worker killed mid-attempt leaves
    // the notification due again when it ends.
    return claimDueNotifications(this.deps.db, now, new Date(now.getTime() + this.policy.timeoutMs + LEASE_MARGIN_MS), limit);
  }

  /** Renders the claimed notifications' documents together, then starts each delivery. */
  async #begin(claimed: ClaimedNotification[]): Promise<Promise<void>[]> {
    const byAccount = new Map<string, ClaimedNotification[]>();
    for (const n of claimed) byAccount.set(n.account_id, [...(byAccount.get(n.account_id) ?? []), n]);
    const deliveries: Promise<void>[] = [];
    for (const [accountId, batch] of byAccount) {
      const documents = await deliveryDocuments(this.deps.db, accountId, batch, (this.deps.trackingClock ?? this.deps.clock).now());
      batch.forEach((n, i) => deliveries.push(this.#deliver(n, JSON.stringify(documents[i])).catch((err: unknown) => this.deps.log?.('webhook delivery error', { notification: n.id, err: String(err) }))));
    }
    return deliveries;
  }

  async #deliver(n: ClaimedNotification, body: string): Promise<void> {
    const result: SendResult = n.active
      ? await this.#sender.send(n.url, deliveryHeaders({ secret: n.secret, messageId: n.id, at: this.deps.clock.now(), body, custom: n.headers }), body)
      : { statusCode: null, error: 'not sent: the webhook is inactive', durationMs: 0, responseHeaders: null, responseBody: null };
    await this.#settle(n, result);
  }

  /** Records an attempt with the others that end in the same turn of the event loop. */
  #record(attempt: Attempt): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.#ended.length === 0) {
        setImmediate(() => {
          const batch = this.#ended;
          this.#ended = [];
          recordAttempts(this.deps.db, batch.map((b) => b.attempt)).then(
            () => batch.forEach((b) => b.done()),
            (err: unknown) => batch.forEach((b) => b.done(err ?? new Error('recording attempts failed'))),
          );
        });
      }
      this.#ended.push({ attempt, done: (err) => (err ? reject(err) : resolve()) });
    });
  }

  async #settle(n: ClaimedNotification, result: SendResult): Promise<void> {
    const now = this.deps.clock.now();
    const succeeded = n.active && isSuccessStatus(result.statusCode);
    const gone = n.active && result.statusCode === 410;
    const retries = n.retries + 1;
    const outcome: AttemptOutcome = succeeded
      ? { status: 'succeeded' }
      : gone || !n.active || retries > this.policy.maxRetries
        ? { status: 'failed' }
        : { status: 'pending', retries, nextAttemptAt: new Date(now.getTime() + retryDelay(this.policy, retries, this.#random())) };
    const log = {
      notificationId: n.id,
      accountId: n.account_id,
      attempt: n.attempts,
      url: n.url,
      succeeded,
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      error: answerProblem(result.statusCode, result.error),
      responseBody: result.responseBody,
    };
    this.deps.metrics?.webhookDeliveries.observe({ outcome: outcome.status === 'pending' ? 'will_retry' : outcome.status }, result.durationMs / 1000);
    await this.#record({ log, outcome, at: now });

    if (!n.active) return;
    if (succeeded) {
      if (now.getTime() - (this.#successMarked.get(n.webhook_id) ?? -Infinity) < SUCCESS_MARK_EVERY_MS) return;
      await markWebhookSucceeded(this.deps.db, n.webhook_id, now);
      this.#successMarked.set(n.webhook_id, now.getTime());
      return;
    }
    // A failure must reach the webhook row; the next success writes again.
    this.#successMarked.delete(n.webhook_id);
    const deactivated = gone
      ? await deactivateWebhook(this.deps.db, n.webhook_id, `the receiver answered 410 Gone at ${now.toISOString()}`, now)
      : await markWebhookFailed(this.deps.db, n.webhook_id, now, this.policy.deactivateAfterMs);
    if (deactivated) {
      this.deps.log?.('webhook deactivated', { webhook: n.webhook_id });
    }
  }
}
