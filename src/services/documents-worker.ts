// The document worker: runs each document's queued job (extract, or relink) to the end. Jobs are
// rows of `documents` claimed with leases, as tracking work is: any number of workers in any
// number of processes share them, and a job whose process died is retaken once its lease lapses.
// A worker is a pool of JOB_SLOTS jobs that claims the next as soon as one ends; claims go account
// by account, and an account has at most ACCOUNT_JOBS_IN_FLIGHT jobs running over all workers,
// so one account's backlog or slow file never holds up another's. A job is counted as it is
// claimed, so one that stops its process is given up after MAX_JOB_ATTEMPTS claims instead of
// stopping every process that takes it.
//
// An extraction ends with document.extracted or document.extraction_failed, recorded in the
// transaction that saves it, so webhook notifications go out through the usual outbox. The
// tracking requests for numbers the account does not track yet are made after that commit (on
// connections of their own), so the same transaction leaves a 'relink' job behind, under the
// worker's lease: a worker that dies before they are all made leaves it to the next, which links
// and tracks again (numbers tracked by then are skipped), so no number found is lost. A document
// tracks at most TRACKED_PER_DOCUMENT of its numbers, and only while the account's tracking
// requests stay under DOCUMENT_TRACKING_WINDOWS: past them the relink waits until there is room.
// What is not tracked, and why, is kept on the document (not_tracked).
import type { Clock } from '../clock.ts';
import { nothingRead, type ExtractDocument, type ExtractedNumbers, type Extraction } from '../domain/documents/extraction.ts';
import { domainEvent } from '../domain/events/domain-event.ts';
import { ACCOUNT_JOBS_IN_FLIGHT, JOB_SLOTS, MAX_JOB_ATTEMPTS, TRACKED_PER_DOCUMENT } from '../domain/documents/intake-limits.ts';
import { Conflict, DomainError } from '../domain/errors.ts';
import { MINUTE } from '../domain/time-units.ts';
import { findAccount } from '../store/accounts.ts';
import { withTransaction, type Db, type Queryable } from '../store/db.ts';
import { recordEvents } from '../store/domain-events.ts';
import {
  blobData,
  claimDueDocuments,
  continueJob,
  deferJob,
  finishJob,
  jobAttemptFailed,
  matchNumbers,
  saveExtraction,
  saveLinks,
  saveNotTracked,
  type DocumentRow,
  type NotTracked,
} from '../store/documents.ts';
import { defaultDocumentSettings } from './documents.ts';
import { hasFeature } from './features.ts';
import { trackingRoom } from './intake-budget.ts';
import { createTrackingRequest, type CreateTrackingRequest } from './tracking-requests.ts';

export interface DocumentWorkerDeps {
  db: Db;
  clock: Clock;
  /** The extraction engine; svc's own (src/documents/extract.ts) unless given. */
  extract?: ExtractDocument;
  /** Whether svc can track a SCAC here (as POST /v2/tracking_requests asks); unset, any known line. */
  isTrackable?: (scac: string) => boolean;
  /** Jobs run at once (JOB_SLOTS unless given). */
  slots?: number;
  log?: (msg: string, fields?: Record<string, unknown>) => void;
}

interface Untracked {
  request_type: CreateTrackingRequest['request_type'];
  number: string;
}

/** What linking found: the numbers to track now, and those past the document's share. */
interface ToTrack {
  untracked: Untracked[];
  pastLimit: NotTracked[];
}

const LEASE_MS = 5 * MINUTE;
const retryDelay = (attempt: number) => MINUTE * 2 ** attempt;

const REQUEST_TYPES: readonly [keyof ExtractedNumbers, CreateTrackingRequest['request_type']][] = [
  ['containers', 'container'],
  ['bills_of_lading', 'bill_of_lading'],
  ['bookings', 'booking_number'],
];

/**
 * svc's own extraction engine (src/documents/extract.ts) in an extraction process with the
 * default bounds (svc serve gives the configured ones), loaded with the first document.
 */
const svcExtract: ExtractDocument = async (bytes, contentType) => (await import('../documents/extraction-processes.ts')).extractInChild(bytes, contentType, defaultDocumentSettings.extraction);

export class DocumentWorker {
  readonly #extract: ExtractDocument;
  readonly #slots: number;
  readonly #running = new Set<Promise<void>>();
  #timer: NodeJS.Timeout | undefined;
  #started = false;
  #filling: Promise<void> | undefined;
  #fillAgain = false;

  constructor(private readonly deps: DocumentWorkerDeps) {
    this.#extract = deps.extract ?? svcExtract;
    this.#slots = deps.slots ?? JOB_SLOTS;
  }

  /** Claims up to `limit` jobs due now (fairly between accounts), runs them, and returns how many it took. */
  async runDue(limit = this.#slots): Promise<number> {
    const docs = await this.#claim(limit);
    await Promise.all(docs.map((d) => this.#run(d)));
    return docs.length;
  }

  /** Runs until nothing more is due at the current clock time (tests advance the clock, then drain). */
  async drain(): Promise<void> {
    for (let i = 0; i < 10_000; i++) if ((await this.runDue()) === 0) return;
    throw new Error('document worker: jobs kept coming due while draining');
  }

  /** Runs jobs as a pool: a slot that frees is filled at once; due work is looked for every `intervalMs` too. */
  start(intervalMs: number): void {
    this.#started = true;
    const tick = () => {
      this.#fill();
      this.#timer = setTimeout(tick, intervalMs);
    };
    tick();
  }

  /** Stops claiming, and waits for the jobs under way. */
  async stop(): Promise<void> {
    this.#started = false;
    clearTimeout(this.#timer);
    await this.#filling;
    await Promise.all(this.#running);
  }

  #claim(limit: number): Promise<DocumentRow[]> {
    const now = this.deps.clock.now();
    return claimDueDocuments(this.deps.db, now, new Date(now.getTime() + LEASE_MS), limit, ACCOUNT_JOBS_IN_FLIGHT);
  }

  /** Claims jobs for the free slots; asked again while it runs, it goes round once more. */
  #fill(): void {
    if (!this.#started) return;
    if (this.#filling) {
      this.#fillAgain = true;
      return;
    }
    this.#filling = (async () => {
      do {
        this.#fillAgain = false;
        while (this.#started && this.#running.size < this.#slots) {
          const docs = await this.#claim(this.#slots - this.#running.size);
          if (docs.length === 0) break;
          for (const doc of docs) this.#spawn(doc);
        }
      } while (this.#fillAgain && this.#started);
    })()
      .catch((err: unknown) => this.deps.log?.('document worker error', { err: String(err) }))
      .finally(() => (this.#filling = undefined));
  }

  #spawn(doc: DocumentRow): void {
    const job: Promise<void> = this.#run(doc)
      .catch((err: unknown) => this.deps.log?.('document worker error', { document_id: doc.id, err: String(err) }))
      .finally(() => {
        this.#running.delete(job);
        this.#fill();
      });
    this.#running.add(job);
  }

  async #run(doc: DocumentRow): Promise<void> {
    const { db, clock } = this.deps;
    if (doc.job_attempts > MAX_JOB_ATTEMPTS) return this.#giveUp(doc);
    if (doc.job === 'relink') return this.#track(doc, await this.#link(db, doc, numbersOf(doc.numbers)));
    let extraction: Extraction;
    try {
      const bytes = await blobData(db, doc.blob_id);
      if (!bytes) throw new Error(`document ${doc.id} has no bytes`);
      extraction = await this.#extract(bytes, doc.file_content_type);
    } catch (err) {
      // A fault of the engine (or the database) is retried; after the last attempt it is a failure.
      this.deps.log?.('document extraction error', { document_id: doc.id, err: String(err) });
      if (doc.job_attempts < MAX_JOB_ATTEMPTS) return jobAttemptFailed(db, doc, new Date(clock.now().getTime() + retryDelay(doc.job_attempts - 1)), clock.now());
      return this.#finish(doc, nothingRead(), `Extraction failed ${MAX_JOB_ATTEMPTS} times: ${String(err)}`);
    }
    return this.#finish(doc, extraction, extraction.unreadable);
  }

  /** A job claimed MAX_JOB_ATTEMPTS times that never ended: not run again. */
  async #giveUp(doc: DocumentRow): Promise<void> {
    const tried = doc.job_attempts - 1;
    this.deps.log?.('document job given up', { document_id: doc.id, job: doc.job, attempts: tried });
    // A relink's extraction is recorded already; what it had left to track stays as not_tracked says.
    if (doc.job === 'relink') return finishJob(this.deps.db, doc, this.deps.clock.now());
    return this.#finish(
      doc,
      nothingRead(),
      `Extraction was tried ${tried} times and never finished: each time, the process running it stopped (or ran out of time) before the end, as when the file takes more memory or time than extraction may use. It is not tried again; reextract it to try once more.`,
    );
  }

  /** Saves the extraction; it failed when `failure` says why, or when no text could be read. */
  async #finish(doc: DocumentRow, extraction: Extraction, failure?: string): Promise<void> {
    const failed = failure !== undefined || extraction.text.trim() === '';
    const at = this.deps.clock.now();
    const toTrack = await withTransaction(this.deps.db, async (tx) => {
      const saved = await saveExtraction(
        tx,
        doc,
        {
          document_type: extraction.type,
          classification_notes: failed ? (failure ?? (extraction.needs_ocr ? 'No text could be read: the file is an image or a scan and no OCR engine (tesseract) is installed.' : 'No text could be read from the file.')) : null,
          status: failed ? 'failed' : 'extracted',
          text: extraction.text,
          numbers: extraction.numbers,
          // The representation names the schema's version (its date), as document_schema's schema_version does.
          schema_version: extraction.schema_version.slice(extraction.schema_version.indexOf('@') + 1),
          payload: { document_type: extraction.type, confidence: extraction.confidence, ...extraction.fields },
        },
        at,
      );
      const found = await this.#link(tx, saved, extraction.numbers);
      await saveNotTracked(tx, doc, found.pastLimit, at);
      await recordEvents(tx, [domainEvent(failed ? 'document.extraction_failed' : 'document.extracted', { account_id: doc.account_id, reference_id: doc.id })], at);
      // Numbers to track: the job goes on as a relink until they are (see the top of this file).
      if (found.untracked.length > 0) await continueJob(tx, doc, 'relink', at);
      else await finishJob(tx, doc, at);
      return found;
    });
    if (toTrack.untracked.length === 0) return;
    // After the commit, on connections of their own: jobs run side by side, each holding one for
    // its transaction, and waiting for a second inside it could exhaust the pool.
    await this.#track({ ...doc, next_attempt_at: at }, toTrack);
  }

  /**
   * Links the document to the account's shipments and containers its numbers name. Answers the
   * numbers the account does not track yet, when it has the document_tracking feature (else none):
   * those among the document's first TRACKED_PER_DOCUMENT numbers to track, the others as past it.
   */
  async #link(db: Queryable, doc: DocumentRow, numbers: ExtractedNumbers): Promise<ToTrack> {
    const matches = await matchNumbers(db, doc.account_id, numbers);
    await saveLinks(db, doc, matches.shipment_ids, matches.container_ids, this.deps.clock.now());
    const account = await findAccount(db, doc.account_id);
    if (!account || !hasFeature({ disabledFeatures: account.disabled_features }, 'document_tracking')) return { untracked: [], pastLimit: [] };
    // The share is of the document's numbers in their order, tracked or not, so a relink makes the same choice.
    const all = REQUEST_TYPES.flatMap(([kind, request_type]) => numbers[kind].map((number) => ({ request_type, number })));
    const open = (n: Untracked) => !matches.tracked.includes(n.number);
    return {
      untracked: all.slice(0, TRACKED_PER_DOCUMENT).filter(open),
      pastLimit: all
        .slice(TRACKED_PER_DOCUMENT)
        .filter(open)
        .map((n) => ({
          ...n,
          reason: 'per_document_limit',
          detail: `svc tracks the first ${TRACKED_PER_DOCUMENT} numbers of a document by itself; track this one with POST /v2/tracking_requests.`,
        })),
    };
  }

  /**
   * Tracking requests for the numbers, one by one, while the account's tracking limits leave room;
   * the job (a relink, under this worker's lease) then ends, or waits for room when some are left.
   * A number svc refuses to track (its line cannot be told from it alone, say) stays untracked;
   * any other failure (the database) is thrown, so the job is not finished and the next attempt
   * tracks what is left. What is not tracked, and why, is saved on the document.
   */
  async #track(job: DocumentRow, { untracked, pastLimit }: ToTrack): Promise<void> {
    const { db, clock } = this.deps;
    const notTracked: NotTracked[] = [];
    let waitUntil: Date | undefined;
    let left = 0;
    for (const [i, { request_type, number }] of untracked.entries()) {
      if (left === 0) {
        const room = await trackingRoom(db, job.account_id, clock.now());
        if (room.full) {
          waitUntil = room.full.retryAt;
          const detail = `The account has made ${room.full.window.limit} tracking requests in ${room.full.window.label}, the most its documents may start; svc tracks this number when there is room again (from ${waitUntil.toISOString()}).`;
          notTracked.push(...untracked.slice(i).map((n) => ({ ...n, reason: 'rate_limited' as const, detail })));
          break;
        }
        left = room.left;
      }
      try {
        await createTrackingRequest(db, clock, job.account_id, { request_type, request_number: number, auto_detect_vocc_scac: true }, { isTrackable: this.deps.isTrackable });
        left--;
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        // Another request for the number won meanwhile: it is tracked.
        if (err instanceof Conflict && err.code === 'duplicate') continue;
        this.deps.log?.('document number not tracked', { document_id: job.id, number, reason: String(err) });
        notTracked.push({ request_type, number, reason: 'refused', detail: err.detail });
      }
    }
    await saveNotTracked(db, job, [...notTracked, ...pastLimit], clock.now());
    if (waitUntil) await deferJob(db, job, waitUntil, clock.now());
    else await finishJob(db, job, clock.now());
  }
}

const numbersOf = (n: Partial<ExtractedNumbers>): ExtractedNumbers => ({ containers: n.containers ?? [], bills_of_lading: n.bills_of_lading ?? [], bookings: n.bookings ?? [] });
