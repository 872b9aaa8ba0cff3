// The delivery worker: claims due webhook notifications from PostgreSQL, POSTs each signed
// document to its webhook, logs every attempt, and settles the notification (succeeded, retry
// later, or failed). Claims are leases, so any number of workers share the work, and one that
// dies mid-burst leaves its claims to be retaken: nothing is lost, at worst delivered twice.
import type { Clock } from '../clock.ts';
import { withTransaction, type Db } from '../store/db.ts';
import { recordEvents } from '../store/domain-events.ts';
import { claimDueNotifications, findNotifications, insertAttemptLog, settleNotification, type ClaimedNotification } from '../store/webhook-notifications.ts';
import { deactivateWebhook, markWebhookFailed, markWebhookSucceeded } from '../store/webhooks.ts';
import type { HostLookup } from '../domain/webhooks/url-policy.ts';
import { WebhookSender, type SendResult } from './http-sender.ts';
import { notificationDocument } from './notification-document.ts';
import { answerProblem, deliveryHeaders } from './delivery-request.ts';
import { defaultDeliveryPolicy, isSuccessStatus, retryDelay, type DeliveryPolicy } from './policy.ts';

export interface DeliveryWorkerDeps {
  db: Db;
  clock: Clock;
  allowInsecure: boolean;
  policy?: Partial<DeliveryPolicy>;
  lookup?: HostLookup;
  /** [0, 1) for the retry jitter; Math.random by default. */
  random?: () => number;
  log?: (msg: string, fields?: Record<string, unknown>) => void;
  /** Told of every attempt (benchmarks measure latency with it). */
  onAttempt?: (notificationId: string, result: SendResult) => void;
}

// Recording an attempt's outcome takes milliseconds; this is ample room.
const LEASE_MARGIN_MS = 5_000;

export class DeliveryWorker {
  readonly policy: DeliveryPolicy;
  readonly #sender: WebhookSender;
  readonly #random: () => number;
  #inFlight = new Set<Promise<void>>();
  #stopped = true;
  #loop: Promise<void> = Promise.resolve();
  #wake: (() => void) | undefined;

  constructor(private readonly deps: DeliveryWorkerDeps) {
    this.policy = { ...defaultDeliveryPolicy, ...deps.policy };
    this.#sender = new WebhookSender({ allowInsecure: deps.allowInsecure, timeoutMs: this.policy.timeoutMs, lookup: deps.lookup });
    this.#random = deps.random ?? Math.random;
  }

  /** Delivers up to `limit` due notifications, all at once; returns how many it claimed. */
  async runDue(limit = this.policy.concurrency): Promise<number> {
    const claimed = await this.#claim(limit);
    await Promise.all(claimed.map((n) => this.#deliver(n)));
    return claimed.length;
  }

  /** Delivers until nothing is due at the current clock time (tests advance the clock, then drain). */
  async drain(): Promise<void> {
    while ((await this.runDue()) > 0);
  }

  /**
   * Keeps up to `concurrency` deliveries in flight: claims more whenever one ends, and looks for
   * due work every `intervalMs` when there is none.
   */
  start(intervalMs: number): void {
    this.#stopped = false;
    this.#loop = (async () => {
      while (!this.#stopped) {
        const free = this.policy.concurrency - this.#inFlight.size;
        let claimed: ClaimedNotification[] = [];
        if (free > 0) {
          try {
            claimed = await this.#claim(free);
          } catch (err) {
            this.deps.log?.('webhook delivery: claim failed', { err: String(err) });
          }
          for (const n of claimed) {
            const p: Promise<void> = this.#deliver(n)
              .catch((err: unknown) => this.deps.log?.('webhook delivery error', { notification: n.id, err: String(err) }))
              .finally(() => {
                this.#inFlight.delete(p);
                this.#wake?.();
              });
            this.#inFlight.add(p);
          }
        }
        // A full claim means more may be due: look again at once.
        if (free > 0 && claimed.length === free) continue;
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

  /** Makes a running worker look for due work now (e.g. after a redelivery request). */
  poke(): void {
    this.#wake?.();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#wake?.();
    await this.#loop;
    await Promise.all(this.#inFlight);
    await this.#sender.close();
  }

  #claim(limit: number): Promise<ClaimedNotification[]> {
    const now = this.deps.clock.now();
    // The lease outlasts one attempt with room to record it; a worker killed mid-attempt leaves
    // the notification due again when it ends.
    return claimDueNotifications(this.deps.db, now, new Date(now.getTime() + this.policy.timeoutMs + LEASE_MARGIN_MS), limit);
  }

  async #deliver(n: ClaimedNotification): Promise<void> {
    let result: SendResult;
    if (!n.active) {
      result = { statusCode: null, error: 'not sent: the webhook is inactive', durationMs: 0, responseHeaders: null, responseBody: null };
    } else {
      const [row] = await findNotifications(this.deps.db, n.account_id, [n.id]);
      if (!row) return; // deleted with its webhook meanwhile
      const body = JSON.stringify(await notificationDocument(this.deps.db, row));
      const headers = deliveryHeaders({ secret: n.secret, messageId: n.id, at: this.deps.clock.now(), body, custom: n.headers });
      result = await this.#sender.send(n.url, headers, body);
    }
    this.deps.onAttempt?.(n.id, result);
    await this.#settle(n, result);
  }

  async #settle(n: ClaimedNotification, result: SendResult): Promise<void> {
    const now = this.deps.clock.now();
    const succeeded = n.active && isSuccessStatus(result.statusCode);
    const gone = n.active && result.statusCode === 410;
    const error = answerProblem(result.statusCode, result.error);
    const retries = n.retries + 1;
    const giveUp = !succeeded && (gone || !n.active || retries > this.policy.maxRetries);

    await withTransaction(this.deps.db, async (tx) => {
      await insertAttemptLog(
        tx,
        { notificationId: n.id, accountId: n.account_id, attempt: n.attempts, url: n.url, succeeded, statusCode: result.statusCode, durationMs: result.durationMs, error, responseBody: result.responseBody },
        now,
      );
      if (succeeded) await settleNotification(tx, n.id, { status: 'succeeded' }, now);
      else if (giveUp) await settleNotification(tx, n.id, { status: 'failed' }, now);
      else await settleNotification(tx, n.id, { status: 'pending', retries, nextAttemptAt: new Date(now.getTime() + retryDelay(this.policy, retries, this.#random())) }, now);
    });

    if (!n.active) return;
    if (succeeded) {
      await markWebhookSucceeded(this.deps.db, n.webhook_id, now);
      return;
    }
    const deactivated = gone
      ? await deactivateWebhook(this.deps.db, n.webhook_id, `the receiver answered 410 Gone at ${now.toISOString()}`, now)
      : await markWebhookFailed(this.deps.db, n.webhook_id, now, this.policy.deactivateAfterMs);
    if (deactivated) {
      this.deps.log?.('webhook deactivated', { webhook: n.webhook_id });
      await recordEvents(this.deps.db, [{ account_id: n.account_id, name: 'webhook.deactivated', reference_type: 'webhook', reference_id: n.webhook_id }], now);
    }
  }
}
