// The delivery worker: claims due webhook notifications from PostgreSQL in batches, renders and
// signs their documents in memory, POSTs each to its webhook over kept-alive connections, and
// records the attempts in batches (each attempt logged, its notification settled: succeeded,
// retry later, or failed). Claims are leases, so any number of workers share the work, and one
// that dies mid-burst leaves its claims to be retaken: nothing is lost, at worst delivered twice.
//
// Fair: a receiver (one webhook, so one account's endpoint) has at most `receiverConcurrency` of
// this worker's deliveries claimed or in flight. A receiver that answers slowly, or not at all
// until it times out, fills its own share and no more; its other notifications wait in the
// database, unclaimed, while the rest of the worker's slots serve everyone else.
import type { Clock } from '../clock.ts';
import type { HostLookup } from '../domain/webhooks/url-policy.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { Db, Tx } from '../store/db.ts';
import { listenForNewNotifications, unlistenNewNotifications } from '../store/notification-channel.ts';
import { claimDueNotifications, releaseClaims, type AttemptOutcome, type ClaimedNotification } from '../store/webhook-notifications.ts';
import { deactivateWebhook, markWebhookFailed, markWebhookSucceeded } from '../store/webhooks.ts';
import { AttemptRecorder } from './attempt-recorder.ts';
import { answerProblem, deliveryHeaders } from './delivery-request.ts';
import { WebhookSender, type SendResult } from './http-sender.ts';
import { deliveryBodies } from './notification-document.ts';
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
// A running worker keeps this many times its concurrency claimed (in flight, rendering, or
// waiting for a slot), so slots refill at once while the next claim and its rendering are on
// their way. It sets the lease: a claim may wait CLAIMED - 1 timeouts for its slot.
export const CLAIMED = 12;
// A busy worker claims again once this many times its concurrency is free, not at each
// concurrency's worth: a statement's fixed cost (a claim's plan, its commit and round trip, the
// render's look-ups) is most of what a small claim costs per notification, in Node and in
// PostgreSQL alike (claims of 32: 34 µs of Node and 33 µs of PostgreSQL CPU per notification;
// of 256: 14 and 8). Half stays claimed while the next claim is on its way: on a busy database a
// claim and its render take 10-25 ms, in which a worker sends a few hundred deliveries
// (bench:webhooks, its slots' time: with 8 claimed and claims at 4 free, 3-13% waiting on a
// claim; with 12 and claims at 6 free, 1-5%).
const CLAIM_AT = 6;
// The outcomes answered and not yet recorded a worker allows, times its concurrency: past it, it
// starts no new attempt until a record commits. What awaits its record is what a kill -9 makes
// repeat (test/webhook-crash.test.ts).
export const UNRECORDED = 8;
// A webhook's health (last success, or failing since) is written at most this often by one worker
// while it stays the same (it only feeds the deactivation rule, which counts in hours).
const HEALTH_MARK_EVERY_MS = 60_000;

/** What an attempt of an inactive webhook's notification comes to: no request. */
const INACTIVE: SendResult = { statusCode: null, error: 'not sent: the webhook is inactive', durationMs: 0, responseHeaders: null, responseBody: null };

/** A claimed notification, its document rendered and ready to send. */
interface Ready {
  n: ClaimedNotification;
  /** Encoded once: both signatures and the request take these bytes. */
  body: Buffer;
}

export class DeliveryWorker {
  readonly policy: DeliveryPolicy;
  readonly #sender: WebhookSender;
  readonly #recorder: AttemptRecorder;
  readonly #random: () => number;
  readonly #health = new Map<string, { succeeded: boolean; at: number }>();
  /** Claimed and rendered, waiting for a free slot (only while running). */
  #queue: Ready[] = [];
  /** Claimed and being rendered (only while running). */
  #rendering = 0;
  readonly #renders = new Set<Promise<void>>();
  /** HTTP attempts in flight. */
  #sending = 0;
  /** Per webhook: its notifications this worker has claimed and not yet had answered. */
  readonly #held = new Map<string, number>();
  /** Receivers that were at their cap after the last claim: more of theirs may be due. */
  readonly #capped = new Set<string>();
  /** Attempts started and not yet over (recorded, or given up on); stop() waits for them. */
  #unfinished = 0;
  #allFinished: (() => void) | undefined;
  /** Whether the last claim may have left due work behind (it was full, or receivers were at their cap). */
  #moreDue = true;
  #stopped = true;
  #loop: Promise<void> = Promise.resolve();
  #wake: (() => void) | undefined;
  #listener: Tx | undefined;
  readonly #onNotification = () => this.poke();
  #onListenerError: ((err: Error) => void) | undefined;

  constructor(private readonly deps: DeliveryWorkerDeps) {
    this.policy = { ...defaultDeliveryPolicy, ...deps.policy };
    this.#sender = new WebhookSender({ allowInsecure: deps.allowInsecure, timeoutMs: this.policy.timeoutMs, lookup: deps.lookup });
    this.#recorder = new AttemptRecorder(deps.db, {
      onBatch: () => this.#dispatch(),
      coming: () => this.#sending,
      // Two concurrencies' worth: a third fewer record statements than one (bench:webhooks). What
      // awaits its record is what a crash makes repeat; UNRECORDED bounds it whatever the batches
      // (test/webhook-crash.test.ts).
      batchSize: 2 * this.policy.concurrency,
    });
    this.#random = deps.random ?? Math.random;
  }

  /** Delivers up to `limit` due notifications, all at once; returns how many it claimed. */
  async runDue(limit = this.policy.concurrency): Promise<number> {
    const claimed = await this.#claim(limit);
    const ready = await this.#render(claimed);
    await Promise.all(ready.map((r) => new Promise<void>((resolve) => this.#launch(r, resolve))));
    return claimed.length;
  }

  /** Delivers until nothing is due at the current clock time (tests advance the clock, then drain). */
  async drain(): Promise<void> {
    while ((await this.runDue()) > 0);
  }

  /**
   * Keeps up to `concurrency` deliveries in flight, and more claimed and rendered behind them, so
   * a slot that frees starts its next delivery at once; claims again, in one statement, as soon as
   * CLAIM_AT times its concurrency is free (rendering the last claim meanwhile); looks for
   * due work every `intervalMs` when there is none (or at once when poked).
   */
  start(intervalMs: number): void {
    this.#stopped = false;
    // The poll keeps its own beat: the wake-ups of attempts that end do not put it off.
    let pollAt = performance.now() + intervalMs;
    this.#loop = (async () => {
      while (!this.#stopped) {
        if (!this.#listener) await this.#listen();
        if (performance.now() >= pollAt) {
          this.#moreDue = true;
          pollAt = performance.now() + intervalMs;
        }
        const room = this.#room();
        if (this.#mayClaim(room)) {
          this.#moreDue = false;
          // An idle worker claims a concurrency's worth first: its slots start on a small claim
          // and render while the rest is claimed behind them.
          const limit = this.#sending + this.#queue.length + this.#rendering === 0 ? Math.min(room, this.policy.concurrency) : room;
          try {
            const claimed = await this.#claim(limit);
            // A full claim means more may be due: claim again once there is room.
            if (claimed.length === limit) this.#moreDue = true;
            this.#renderThenQueue(claimed);
          } catch (err) {
            // The claimed notifications come due again when their lease ends.
            this.deps.log?.('webhook delivery: claim failed', { err: String(err) });
          }
          continue;
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.max(0, pollAt - performance.now()));
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
      client.on('notification', this.#onNotification);
      const own = client;
      this.#onListenerError = (err: Error) => {
        // Only the worker's own connection is handed back, and only once: after stop() released
        // it, the pool owns it and deals with its errors.
        if (this.#listener !== own) return;
        this.deps.log?.('webhook delivery: listening connection lost', { err: String(err) });
        this.#listener = undefined;
        own.release(err);
      };
      own.on('error', this.#onListenerError);
      await listenForNewNotifications(own);
      this.#listener = own;
    } catch (err) {
      // A connection that could not LISTEN is closed rather than handed back half set up.
      if (client && this.#listener !== client) client.release(err instanceof Error ? err : true);
      this.deps.log?.('webhook delivery: cannot listen for new notifications; polling', { err: String(err) });
    }
  }

  /** What the worker may claim now: all it keeps claimed, less what it holds. */
  #room(): number {
    return CLAIMED * this.policy.concurrency - this.#sending - this.#queue.length - this.#rendering;
  }

  /** Whether a claim of `room` is worth making now: more may be due, and CLAIM_AT times the concurrency is free. */
  #mayClaim(room: number): boolean {
    return this.#moreDue && room >= CLAIM_AT * this.policy.concurrency;
  }

  /** Makes a running worker look for due work now (new notifications, a redelivery request). */
  poke(): void {
    this.#moreDue = true;
    this.#wake?.();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#wake?.();
    await this.#loop;
    await Promise.all(this.#renders);
    // Claims never started go back at once rather than wait out their lease.
    const unsent = this.#queue.splice(0);
    for (const { n } of unsent) this.#let(n.webhook_id);
    await releaseClaims(this.deps.db, unsent.map(({ n }) => ({ id: n.id, attempts: n.attempts }))).catch((err: unknown) =>
      this.deps.log?.('webhook delivery: could not hand back unsent claims; they come due when their lease ends', { err: String(err) }),
    );
    if (this.#unfinished > 0) await new Promise<void>((resolve) => (this.#allFinished = resolve));
    const listener = this.#listener;
    if (listener) {
      this.#listener = undefined;
      await unlistenNewNotifications(listener).catch(() => {});
      // The connection goes back to the pool as it came: a pool whose workers come and go (a
      // process that restarts its worker) would otherwise gather a stale pair of listeners on it each time.
      listener.off('notification', this.#onNotification);
      if (this.#onListenerError) listener.off('error', this.#onListenerError);
      listener.release();
    }
    await this.#sender.close();
  }

  /** Claims up to `limit` due notifications, within each receiver's cap. */
  async #claim(limit: number): Promise<ClaimedNotification[]> {
    const now = this.deps.clock.now();
    // The lease outlasts the wait for a slot (the claims ahead end within CLAIMED - 1 timeouts)
    // and the attempt itself, with room to record it; a worker killed before recording leaves
    // the notification due again when it ends.
    const leaseUntil = new Date(now.getTime() + CLAIMED * this.policy.timeoutMs + LEASE_MARGIN_MS);
    const claimed = await claimDueNotifications(this.deps.db, now, leaseUntil, limit, this.policy.receiverConcurrency, this.#held);
    for (const n of claimed) this.#held.set(n.webhook_id, (this.#held.get(n.webhook_id) ?? 0) + 1);
    for (const [webhookId, held] of this.#held) if (held >= this.policy.receiverConcurrency) this.#capped.add(webhookId);
    return claimed;
  }

  /** Renders a claim while the worker claims on, then queues it for the slots. */
  #renderThenQueue(claimed: ClaimedNotification[]): void {
    if (claimed.length === 0) return;
    this.#rendering += claimed.length;
    const render: Promise<void> = this.#render(claimed)
      .then(
        (ready) => {
          this.#queue.push(...ready);
        },
        (err: unknown) => {
          // Unrendered claims come due again when their lease ends; their receivers' share is free now.
          for (const n of claimed) this.#let(n.webhook_id);
          this.deps.log?.('webhook delivery: rendering failed', { err: String(err) });
        },
      )
      .finally(() => {
        this.#rendering -= claimed.length;
        this.#renders.delete(render);
        this.#dispatch();
        this.#wake?.();
      });
    this.#renders.add(render);
  }

  /** Renders the claimed notifications' documents, each account's together. */
  async #render(claimed: ClaimedNotification[]): Promise<Ready[]> {
    const byAccount = new Map<string, ClaimedNotification[]>();
    for (const n of claimed) {
      const batch = byAccount.get(n.account_id);
      if (batch) batch.push(n);
      else byAccount.set(n.account_id, [n]);
    }
    const at = (this.deps.trackingClock ?? this.deps.clock).now();
    const rendered = await Promise.all(
      [...byAccount].map(async ([accountId, batch]) => {
        const bodies = await deliveryBodies(this.deps.db, accountId, batch, at);
        return batch.map((n, i) => ({ n, body: Buffer.from(bodies[i]) }));
      }),
    );
    return rendered.flat();
  }

  /**
   * Starts queued deliveries while slots are free and the outcomes awaiting their record are
   * fewer than UNRECORDED times the concurrency (the database keeps up); none once stopping. The
   * records' pace is about a batch per statement's round trip, so the bound is set well above
   * what one round trip of a busy database sees end.
   */
  #dispatch(): void {
    while (!this.#stopped && this.#queue.length > 0 && this.#sending < this.policy.concurrency && this.#recorder.backlog < UNRECORDED * this.policy.concurrency) {
      this.#launch(this.#queue.shift()!);
    }
  }

  /**
   * One attempt, from its request to its recorded outcome, then `done`. Callbacks, not promises,
   * all the way: this runs for every delivery, and each promise and microtask costs.
   */
  #launch({ n, body }: Ready, done?: () => void): void {
    this.#sending++;
    this.#unfinished++;
    // Inline callbacks, not named ones: a named closure costs a name-keeping call (esbuild's
    // keepNames, under tsx and in the bundle alike) each time it is made, once a delivery.
    if (!n.active) return queueMicrotask(() => this.#onAnswer(n, INACTIVE, done));
    try {
      this.#sender.post(n.url, deliveryHeaders({ secret: n.secret, messageId: n.id, at: this.deps.clock.now(), body, custom: n.headers }), body, false, (result) =>
        this.#onAnswer(n, result, done),
      );
    } catch (err) {
      // Not sent (its URL does not parse): its lease runs out and it comes due again.
      this.#failed(n, err);
      this.#answered(n.webhook_id);
      this.#finish(done);
    }
  }

  #onAnswer(n: ClaimedNotification, result: SendResult, done: (() => void) | undefined): void {
    // The slot frees with the answer; recording goes on behind it.
    this.#answered(n.webhook_id);
    try {
      this.#settle(n, result, done);
    } catch (err) {
      this.#failed(n, err);
      this.#finish(done);
    }
  }

  #answered(webhookId: string): void {
    this.#sending--;
    this.#let(webhookId);
    this.#dispatch();
    // The loop is woken only when it can claim: an answer that leaves too little room would cost
    // it a turn (a promise, a timer set and cleared) for nothing, once a delivery.
    if (this.#wake && this.#mayClaim(this.#room())) this.#wake();
  }

  /** Something of an attempt went wrong (not sent, not recorded, health not written): logged, and the worker goes on. */
  #failed(n: ClaimedNotification, err: unknown): void {
    this.deps.log?.('webhook delivery error', { notification: n.id, err: String(err) });
  }

  /** An attempt is over. */
  #finish(done: (() => void) | undefined): void {
    done?.();
    if (--this.#unfinished === 0 && this.#allFinished) {
      const all = this.#allFinished;
      this.#allFinished = undefined;
      all();
    }
  }

  /** A receiver's slot is free again. */
  #let(webhookId: string): void {
    const held = (this.#held.get(webhookId) ?? 1) - 1;
    if (held > 0) this.#held.set(webhookId, held);
    else this.#held.delete(webhookId);
    // A receiver that was at its cap may have more due: look again once half its share is free.
    if (held <= this.policy.receiverConcurrency / 2 && this.#capped.delete(webhookId)) this.#moreDue = true;
  }

  /** Records the attempt's outcome (and the webhook's health), then finishes it. */
  #settle(n: ClaimedNotification, result: SendResult, done: (() => void) | undefined): void {
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
    this.#recorder.record({ log, outcome, at: now }, (err) => {
      if (err) {
        // Not recorded: the notification stays leased, and comes due again when its lease ends.
        this.#failed(n, err);
        return this.#finish(done);
      }
      const marking = n.active ? this.#markHealth(n.webhook_id, succeeded, gone, now) : undefined;
      if (!marking) return this.#finish(done);
      marking.then(
        () => this.#finish(done),
        (markErr: unknown) => {
          this.#failed(n, markErr);
          this.#finish(done);
        },
      );
    });
  }

  /** Tells the webhook row how its deliveries go, for the deactivation rule; undefined when there is nothing to write (most deliveries). */
  #markHealth(webhookId: string, succeeded: boolean, gone: boolean, now: Date): Promise<void> | undefined {
    if (gone) {
      this.#health.delete(webhookId);
      return deactivateWebhook(this.deps.db, webhookId, `the receiver answered 410 Gone at ${now.toISOString()}`, now).then((deactivated) => {
        if (deactivated) this.deps.log?.('webhook deactivated', { webhook: webhookId });
      });
    }
    // The same news within the minute changes nothing the rule reads; a change of direction is written at once.
    const last = this.#health.get(webhookId);
    if (last?.succeeded === succeeded && now.getTime() - last.at < HEALTH_MARK_EVERY_MS) return undefined;
    this.#health.set(webhookId, { succeeded, at: now.getTime() });
    if (succeeded) return markWebhookSucceeded(this.deps.db, webhookId, now);
    return markWebhookFailed(this.deps.db, webhookId, now, this.policy.deactivateAfterMs).then((deactivated) => {
      if (deactivated) this.deps.log?.('webhook deactivated', { webhook: webhookId });
    });
  }
}
