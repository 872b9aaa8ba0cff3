// The tracking worker: looks up due tracking requests and refreshes due shipments. Work is
// claimed with leases (FOR UPDATE SKIP LOCKED), so any number of workers share one database and
// none processes the same item at the same time; a crashed worker's claims lapse and are retaken.
import { randomBytes } from 'node:crypto';
import type { Clock } from '../../clock.ts';
import { DAY } from '../../domain/time-units.ts';
import type { Metrics } from '../../metrics/metrics.ts';
import type { CarrierConnector, LookupOutcome, LookupRequest } from '../../carriers/types.ts';
import { withTransaction, type Db, type Queryable, type Tx } from '../../store/db.ts';
import { saveRejectedEvents } from '../../store/rejected-events.ts';
import type { RejectedCarrierEvent } from '../../domain/tracking/carrier-events.ts';
import { domainEvent, type DomainEvent } from '../../domain/events/domain-event.ts';
import type { EventName } from '../../domain/events/vocabulary.ts';
import { recordEvents } from '../../store/domain-events.ts';
import { lineLastAnsweredAt, markLookupFailed, saveCarrierSubscription, type ShipmentRow } from '../../store/shipments.ts';
import { learnVessels, type NamedVessel } from '../../store/learned-vessels.ts';
import { claimDueTrackingRequests, settleTrackingRequest, type TrackingRequestRow } from '../../store/tracking-requests.ts';
import { containersStillOut, planSnapshot, quietResult, writePlan, type ApplyResult, type Plan } from './apply.ts';
import type { ContainerState, ShipmentState } from '../../domain/tracking/types.ts';
import {
  claimDueRefreshes,
  saveChecks,
  saveLookups,
  storedTrackingOfShipments,
  type ClaimedRefresh,
  type SavedCheck,
  type SavedLookup,
  type ScheduleFacts,
  type StoredShipment,
  type StoredTracking,
} from '../../store/tracking-state.ts';
import { applyInitialFields } from '../initial-custom-fields.ts';
import { shipmentForFoundRequest } from './same-journey.ts';
import { defaultPolicy, nextRefreshDelay, retryDelay, type TrackingPolicy } from './policy.ts';
import { stopReason, stopTracking } from './stop.ts';
import { AisArrivals, AisSchedule, type AisSettings } from './ais-arrivals.ts';
import { drainClaims } from './claim-pool.ts';
import { BatchedWrites } from './batched-writes.ts';
import { GroupedStatements } from './grouped-statements.ts';
import { PollLoop } from '../poll-loop.ts';
import { sameAnswer } from '../../carriers/answer-digest.ts';

export interface Connectors {
  get(scac: string): CarrierConnector | undefined;
}

export interface WorkerDeps {
  db: Db;
  clock: Clock;
  connectors: Connectors;
  policy?: TrackingPolicy;
  log?: (msg: string, fields?: Record<string, unknown>) => void;
  /** svc's own origin as carriers can reach it; with it, new shipments subscribe to carrier pushes. */
  callbackBaseUrl?: string;
  /** Where carrier lookups are counted and timed. */
  metrics?: Pick<Metrics, 'trackingLookups' | 'rejectedEvents'>;
  /** The AIS pass (arrivals and ETAs from vessel positions), every `everyMs` of the clock (10 minutes); false: off. */
  ais?: false | { everyMs?: number; settings?: Partial<AisSettings> };
}

const at = (base: Date, ms: number) => new Date(base.getTime() + ms);

// Checks (answers applied already: most lookups) written to a statement: its fixed cost, most of
// what a small one costs PostgreSQL, shared out (bench:tracking).
const CHECKS_PER_STATEMENT = 64;

// Terminals report availability, holds and fees from about this long before the vessel arrives.
const TERMINAL_LEAD_MS = 3 * DAY;

/** Whether the shipment's boxes may be at (or about to reach) the terminal of discharge. */
function nearTerminal(journey: ScheduleFacts['journey'], now: Date): boolean {
  if (journey.pod_ata_at) return true;
  return !!journey.pod_eta_at && new Date(journey.pod_eta_at).getTime() - now.getTime() <= TERMINAL_LEAD_MS;
}

/** What the next refresh and the stop rules read of a shipment's states: an ApplyResult's, or a claim's ScheduleFacts. */
interface ScheduledStates {
  shipmentState: ScheduleFacts['journey'];
  containerStates: ScheduleFacts['boxes'][number]['state'][];
}

export class TrackingWorker {
  readonly policy: TrackingPolicy;
  readonly #loop = new PollLoop(
    () => this.runDue(),
    (err) => this.deps.log?.('tracking worker error', { err: String(err) }),
  );
  readonly #ais: AisSchedule | null;
  /** Known vessels the lookups of this round named, recorded together at its end (#recordSightings). */
  #sightings: NamedVessel[] = [];
  /** The shipment rows of quiet answers (nothing else to write), grouped into one statement while another is on its way. */
  readonly #quietSaves: GroupedStatements<SavedLookup>;
  /** The checks that found the answer applied already, written CHECKS_PER_STATEMENT at a time without holding a slot. */
  readonly #checks: BatchedWrites<SavedCheck>;
  /** Likewise, the reads of what the diffs of new answers start from. */
  readonly #storedReads: GroupedStatements<string, { shipment: StoredShipment; stored: StoredTracking }>;

  constructor(private readonly deps: WorkerDeps) {
    this.policy = deps.policy ?? defaultPolicy;
    this.#quietSaves = new GroupedStatements((lookups) => saveLookups(deps.db, lookups));
    this.#checks = new BatchedWrites((checks) => saveChecks(deps.db, checks), CHECKS_PER_STATEMENT);
    this.#storedReads = new GroupedStatements((ids) => storedTrackingOfShipments(deps.db, ids));
    this.#ais = deps.ais === false ? null : new AisSchedule(new AisArrivals(deps, deps.ais?.settings), deps.ais?.everyMs);
  }

  /**
   * Processes what was due when it started, `limit` lookups at a time at most (tracking requests
   * first, then shipment refreshes), claiming more as lookups finish (drainClaims); returns how
   * many requests and shipments it handled.
   */
  async runDue(limit = 25): Promise<{ requests: number; shipments: number }> {
    const now = this.deps.clock.now();
    // Each claim's lease runs from when it is taken; what is due is what was due at the start, so a round ends.
    const lease = () => at(this.deps.clock.now(), this.policy.leaseMs);
    // First, so the shipments an AIS arrival makes due are refreshed in this same round.
    await this.#ais?.runIfDue(now).catch((err: unknown) => this.deps.log?.('AIS pass error', { err: String(err) }));
    try {
      const requests = await drainClaims(limit, (n) => claimDueTrackingRequests(this.deps.db, now, lease(), n), (r) => this.#resolve(r));
      let shipments: number;
      try {
        shipments = await drainClaims(limit, (n) => claimDueRefreshes(this.deps.db, now, lease(), n), (claim) => this.#refresh(claim));
      } finally {
        // The checks handed over meanwhile are written before the round ends.
        await this.#checks.settle();
      }
      return { requests, shipments };
    } finally {
      await this.#recordSightings();
    }
  }

  /** Runs until nothing more is due at the current clock time (tests advance the clock, then drain). */
  async drain(limit = 25): Promise<void> {
    for (let i = 0; i < 1000; i++) {
      const done = await this.runDue(limit);
      if (done.requests + done.shipments === 0) return;
    }
    throw new Error('tracking worker: work kept coming due while draining');
  }

  /** Polls every `intervalMs` in production. */
  start(intervalMs: number): void {
    this.#loop.start(intervalMs);
  }

  stop(): Promise<void> {
    return this.#loop.stop();
  }

  async #lookup(request: LookupRequest): Promise<LookupOutcome> {
    const started = performance.now();
    const outcome = await this.#ask(request);
    // Real elapsed time, whatever clock the worker runs on; the outcome is one of a few words.
    this.deps.metrics?.trackingLookups.observe({ scac: request.scac, outcome: outcome.kind === 'found' ? 'found' : outcome.reason }, (performance.now() - started) / 1000);
    return outcome;
  }

  async #ask(request: LookupRequest): Promise<LookupOutcome> {
    const connector = this.deps.connectors.get(request.scac);
    if (!connector) return { kind: 'failed', reason: 'shipping_line_unreachable', temporary: true, detail: `no connector is configured for ${request.scac}` };
    try {
      return await connector.lookup(request);
    } catch (err) {
      return { kind: 'failed', reason: 'internal_processing_error', temporary: true, detail: String(err) };
    }
  }

  /** A pending (or awaiting) request: ask the carrier, then create the shipment or record why not. */
  async #resolve(tr: TrackingRequestRow): Promise<void> {
    const askedAt = this.deps.clock.now();
    const outcome = await this.#lookup({ scac: tr.scac, numberType: tr.request_type, number: tr.request_number });
    const now = this.deps.clock.now();
    let created: ShipmentRow | undefined;
    const event = (name: EventName) => domainEvent(name, { account_id: tr.account_id, reference_id: tr.id, shipment_id: tr.shipment_id });
    const keep = { failed_reason: tr.failed_reason, is_retrying: tr.is_retrying, retry_count: tr.retry_count, awaiting_since: tr.awaiting_since, shipment_id: tr.shipment_id };

    await withTransaction(this.deps.db, async (tx) => {
      if (outcome.kind === 'found') {
        const { shipment, isNew } = await shipmentForFoundRequest(tx, tr, outcome.snapshot, now);
        if (isNew) created = shipment;
        const plan = await planSnapshot(tx, shipment, outcome.snapshot, null);
        // Settled before the stop rules run, so a journey already over stops this request with it.
        await settleTrackingRequest(tx, tr.id, { ...keep, status: 'created', failed_reason: null, is_retrying: false, next_attempt_at: null, shipment_id: shipment.id }, now);
        await this.#afterLookup(tx, plan, askedAt, now, outcome.digest ?? null, [{ ...event('tracking_request.succeeded'), shipment_id: shipment.id }]);
        await this.#keepRejected(tx, shipment, tr.scac, outcome.snapshot.rejected, now);
        // After the containers are written, in the same transaction: values never go missing between the two.
        await applyInitialFields(tx, tr, shipment.id, now);
        return;
      }
      const { reason, temporary } = outcome;
      if (reason === 'not_found' && temporary && tr.request_type !== 'container') {
        // A bill of lading or booking the carrier has no data for yet: its manifest may still come.
        const since = tr.awaiting_since ?? now;
        if (now.getTime() - since.getTime() >= this.policy.awaitingExpiryMs) {
          await settleTrackingRequest(tx, tr.id, { ...keep, status: 'failed', failed_reason: 'expired', is_retrying: false, next_attempt_at: null }, now);
          await recordEvents(tx, [event('tracking_request.failed')], now);
        } else {
          await settleTrackingRequest(tx, tr.id, { ...keep, status: 'awaiting_manifest', failed_reason: null, is_retrying: false, awaiting_since: since, next_attempt_at: at(now, this.policy.awaitingRecheckMs) }, now);
          if (tr.status !== 'awaiting_manifest') await recordEvents(tx, [event('tracking_request.awaiting_manifest')], now);
        }
        return;
      }
      if (temporary && reason !== 'not_found') {
        const retry = tr.retry_count + 1;
        if (retry > this.policy.maxRetries) {
          await settleTrackingRequest(tx, tr.id, { ...keep, status: 'failed', failed_reason: 'retries_exhausted', is_retrying: false, next_attempt_at: null }, now);
          await recordEvents(tx, [event('tracking_request.failed')], now);
        } else {
          await settleTrackingRequest(tx, tr.id, { ...keep, status: tr.status, failed_reason: reason, is_retrying: true, retry_count: retry, next_attempt_at: at(now, retryDelay(this.policy, retry)) }, now);
        }
        return;
      }
      await settleTrackingRequest(tx, tr.id, { ...keep, status: 'failed', failed_reason: reason, is_retrying: false, next_attempt_at: null }, now);
      await recordEvents(tx, [event('tracking_request.failed')], now);
    });
    if (created) await this.#subscribe(created);
  }

  /** Known vessels a lookup named: their sighting is recorded at the end of the round. */
  #sighted(vessels: NamedVessel[]): void {
    this.#sightings.push(...vessels);
  }

  /**
   * When vessels svc knew already were last named: outside the lookups' transactions, so lookups
   * of shipments aboard one ship never wait for each other's commit on its row, and in one
   * statement for the round. Best effort: a sighting lost here only makes the vessel look older to
   * the AIS ingester until the next one.
   */
  async #recordSightings(): Promise<void> {
    const vessels = this.#sightings;
    if (vessels.length === 0) return;
    this.#sightings = [];
    await learnVessels(this.deps.db, vessels, this.deps.clock.now()).catch((err: unknown) => this.deps.log?.('recording vessel sightings failed', { err: String(err) }));
  }

  /**
   * Asks the carrier to push news about a new shipment, so milestones arrive as they happen rather
   * than at the next refresh. Best effort: polling goes on whatever the carrier says.
   */
  async #subscribe(shipment: ShipmentRow): Promise<void> {
    const connector = this.deps.connectors.get(shipment.scac);
    if (!this.deps.callbackBaseUrl || !connector?.subscribe) return;
    const secret = randomBytes(32);
    try {
      const id = await connector.subscribe({
        scac: shipment.scac,
        numberType: shipment.request_type as LookupRequest['numberType'],
        number: shipment.request_number,
        callbackUrl: new URL(`/carrier-callbacks/${shipment.id}`, this.deps.callbackBaseUrl).href,
        secret,
      });
      await saveCarrierSubscription(this.deps.db, shipment.id, id, secret);
    } catch (err) {
      this.deps.log?.('carrier subscription failed; polling continues', { shipment: shipment.id, err: String(err) });
    }
  }

  /**
   * A tracked shipment: ask again, apply what changed, decide when to look next or whether to stop.
   * The claim brought what the lookup asks with and what a check needs (ClaimedRefresh), and the
   * lease keeps other writers away. An answer applied already is handed to the batched check
   * writes and frees the slot at once (BatchedWrites); another one costs a share of a grouped read
   * (the states and everything else stored), is diffed, and costs one statement, without a
   * transaction, unless tracking may stop.
   */
  async #refresh(claim: ClaimedRefresh): Promise<void> {
    // Since the line last answered: a check recorded on the schedule row alone counts.
    const since = lineLastAnsweredAt(claim) ?? undefined;
    // Terminal data changes without carrier events, so it is asked for every box the terminal may
    // hold: from a few days before arrival at the port of discharge until the box is picked up.
    const knownContainers = nearTerminal(claim.journey, this.deps.clock.now()) ? containersStillOut(claim.boxes) : [];
    const askedAt = this.deps.clock.now();
    const outcome = await this.#lookup({ scac: claim.scac, numberType: claim.request_type as LookupRequest['numberType'], number: claim.request_number, since, knownContainers });
    const now = this.deps.clock.now();
    if (outcome.kind === 'found') {
      const unchanged = sameAnswer(claim.carrier_answer_digest, outcome.digest) ? this.#unchanged(claim, askedAt, now) : null;
      if (unchanged) return this.#checks.add(unchanged);
      const { shipment, stored } = await this.#storedReads.add(claim.id);
      await this.#afterLookup(null, await planSnapshot(this.deps.db, { ...claim, ...shipment }, outcome.snapshot, stored), askedAt, now, outcome.digest ?? null);
      return this.#keepRejected(this.deps.db, claim, claim.scac, outcome.snapshot.rejected, now);
    }
    // A failed lookup writes one statement: the attempt, the retry time and the lease released.
    if (outcome.reason !== 'booking_cancelled') return markLookupFailed(this.deps.db, claim.id, now, at(now, this.policy.refresh.afterFailure));
    await withTransaction(this.deps.db, (tx) => stopTracking(tx, claim, 'booking_cancelled', now));
  }

  /**
   * Keeps the events of an answer that could not be read, each with its reason, and counts the
   * new ones. After the good ones are applied: a bad event never holds them up. An answer seen
   * before (its digest the same) is never read again, so its rejected events are not either.
   */
  async #keepRejected(db: Queryable, shipment: Pick<ShipmentRow, 'id' | 'account_id'>, scac: string, rejected: RejectedCarrierEvent[] | undefined, now: Date): Promise<void> {
    if (!rejected?.length) return;
    const added = await saveRejectedEvents(db, { account_id: shipment.account_id, shipment_id: shipment.id, data_source: 'shipping_line', now, rejected });
    for (const [reason, n] of added) this.deps.metrics?.rejectedEvents.inc({ scac, reason }, n);
    if (added.size > 0) this.deps.log?.('carrier events rejected', { shipment: shipment.id, scac, first: rejected[0].reason });
  }

  /**
   * A conditional refresh: the carrier's answer brings nothing the one the stored state was last
   * brought up to date with did not (sameAnswer), so diffing it would find nothing and write the
   * same state. Only the check is recorded (when svc asked, when to ask next), on the schedule row
   * alone, CHECKS_PER_STATEMENT to a statement. The schedule and the stop rules are those of the
   * stored state; null when a stop rule applies, which the full path then records.
   */
  #unchanged(claim: ClaimedRefresh, askedAt: Date, now: Date): SavedCheck | null {
    const states = { shipmentState: claim.journey, containerStates: claim.boxes.map((b) => b.state) };
    if (stopReason(this.policy, states, claim.line_tracking_last_changed_at ?? now, now)) return null;
    return { shipmentId: claim.id, askedAt, nextRefreshAt: this.#nextRefreshAt(states, now) };
  }

  /** When to look again, by the journey's phase in these states. */
  #nextRefreshAt({ shipmentState: s, containerStates }: ScheduledStates, now: Date): Date {
    const phase = {
      departedAt: s.pol_atd_at ? new Date(s.pol_atd_at) : null,
      podEtaAt: s.pod_eta_at ? new Date(s.pod_eta_at) : null,
      podArrivedAt: s.pod_ata_at ? new Date(s.pod_ata_at) : null,
      allPickedUp: containerStates.length > 0 && containerStates.every((c) => c.pod_full_out_at || c.final_destination_full_out_at),
    };
    return at(now, nextRefreshDelay(this.policy, phase, now));
  }

  /**
   * Records a successful lookup: what it found, the shipment row (when it was asked, when to ask
   * next, or tracking stopped) and the outbox records (the lookup's, then `later`). When no stop
   * rule can apply, that is one statement (writePlan's, or for a quiet answer the shipment row
   * alone) in `tx` or on its own; otherwise a transaction (`tx`, or one of its own) with a
   * statement more, as whether the silence rule applies depends on what the writes announced.
   */
  async #afterLookup(tx: Tx | null, plan: Plan, askedAt: Date, now: Date, answerDigest: string | null, later: DomainEvent[] = []): Promise<void> {
    const { shipment } = plan;
    const before = shipment.line_tracking_last_changed_at ?? now;
    const quiet = quietResult(plan);
    // askedAt: the moment svc asked, not when the answer came: the next incremental lookup asks for
    // what the carrier published since then, so an event published while this lookup ran is not missed.
    const lookup = { ...quiet.saved, askedAt, nextRefreshAt: this.#nextRefreshAt(quiet, now), answerDigest };
    // The rules, with the oldest "last changed" this lookup can leave: when none applies, news cannot make one.
    if (!stopReason(this.policy, quiet, before, now)) {
      if (plan.quiet && later.length === 0) {
        const saved = { ...lookup, shipmentId: shipment.id, at: now, lastChangedAt: before };
        return tx ? saveLookups(tx, [saved]) : this.#quietSaves.add(saved);
      }
      this.#sighted((await writePlan(tx ?? this.deps.db, plan, now, { lookup, later })).sightings);
      return;
    }
    const finish = async (t: Tx) => {
      const applied = plan.quiet ? quiet : await writePlan(t, plan, now);
      this.#sighted(applied.sightings);
      const lastChangedAt = applied.changed ? now : before;
      const events = [...applied.events, ...later];
      const reason = stopReason(this.policy, applied, lastChangedAt, now);
      await saveLookups(t, [{ ...lookup, shipmentId: shipment.id, at: now, lastChangedAt, nextRefreshAt: reason ? null : lookup.nextRefreshAt }]);
      if (reason) await stopTracking(t, shipment, reason, now, events);
      else await recordEvents(t, events, now);
    };
    await (tx ? finish(tx) : withTransaction(this.deps.db, finish));
  }
}
