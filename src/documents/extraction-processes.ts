// Document extraction and e-mail parsing in child processes, never on the thread that answers
// requests: a file is whatever its sender made it, and pdf.js or a MIME parser given a hostile one
// can take minutes of CPU and gigabytes of memory. A child process, rather than a worker thread,
// because every byte of it is bounded and returned: its resident memory (V8's heap and the
// buffers outside it, which a worker's resourceLimits do not count) is read while it works and it
// is killed, with the OCR programs it started, past SVC_DOCUMENT_EXTRACT_MEMORY_MB or
// SVC_DOCUMENT_EXTRACT_TIMEOUT_S; and when it exits the system gets all of its memory back, where
// a thread's heap stays in svc's process. A process is kept for the next job while it stays
// small (limits.ts says when it is replaced) and exits when idle.
import { fork, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { nothingRead, type Extraction } from '../domain/documents/extraction.ts';
import type { ExtractionJob, ExtractionReply, ExtractionWork } from './extraction-child.ts';
import { DOCUMENT_PROCESSES, IDLE_EXIT_MS, MAIL_PROCESSES, MEMORY_CHECK_MS, RECYCLE_AFTER_BYTES, RECYCLE_AFTER_JOBS, RECYCLE_GROWTH_MB } from './limits.ts';
import type { ParsedMail } from './mail-parse.ts';

export interface ExtractionLimits {
  /** Resident memory one process may reach, in MB (SVC_DOCUMENT_EXTRACT_MEMORY_MB). */
  memoryMb: number;
  /** Time one job may take (SVC_DOCUMENT_EXTRACT_TIMEOUT_S). */
  timeoutMs: number;
}

const MB = 1024 * 1024;

// From the sources (tests, node --import tsx) the child runs its TypeScript through tsx too; in a
// build (bin/build.js) its compiled entry lies beside the program's, in src/main/.
const fromSources = import.meta.url.endsWith('.ts');
const CHILD_ENTRY = fileURLToPath(fromSources ? new URL('./extraction-child.ts', import.meta.url) : new URL('../main/extraction-child.js', import.meta.url));
const LOADER = fromSources ? ['--import', import.meta.resolve('tsx')] : [];

/** A process's resident memory in MB, read from /proc (Linux); undefined elsewhere, where V8's heap limit alone holds. */
async function residentMb(pid: number): Promise<number | undefined> {
  try {
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

/** A job's end: the child's answer, a bound it reached, or a fault of the process. */
type Answer = ExtractionReply | { stopped: string } | { fault: string };

class ExtractionProcess {
  readonly child: ChildProcess;
  /** Resident bytes once started; undefined when it died before. */
  readonly started: Promise<number | undefined>;
  jobs = 0;
  exited = false;
  /** svc ended it (idle, recycled, closed): not the job's fault. */
  ended = false;
  idle?: NodeJS.Timeout;
  #stderr = '';

  constructor(memoryMb: number) {
    // A process group of its own, so a kill ends the OCR programs it runs as well.
    this.child = fork(CHILD_ENTRY, [], { execArgv: [...LOADER, `--max-old-space-size=${memoryMb}`], serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'], detached: true });
    this.child.stderr?.on('data', (b: Buffer) => (this.#stderr = (this.#stderr + b.toString()).slice(-2000)));
    this.child.on('error', () => {}); // a failed start is reported by 'exit'
    this.child.on('exit', () => (this.exited = true));
    this.started = new Promise((resolve) => {
      this.child.on('message', (m: { ready?: true; rss?: number }) => m.ready && resolve(m.rss));
      this.child.once('exit', () => resolve(undefined));
    });
  }

  get stderr(): string {
    return this.#stderr.trim();
  }

  /** V8 stopped it out of heap: the memory bound, reached before the resident memory was read over it. */
  get heapExhausted(): boolean {
    return /heap out of memory|Reached heap limit/.test(this.#stderr);
  }

  end(): void {
    this.ended = true;
    clearTimeout(this.idle);
    if (this.exited || this.child.pid === undefined) return;
    try {
      process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      this.child.kill('SIGKILL');
    }
  }

  /** An idle process does not keep svc's event loop alive. */
  hold(held: boolean): void {
    for (const handle of [this.child, this.child.channel, this.child.stderr as Socket | null]) {
      if (held) handle?.ref();
      else handle?.unref();
    }
  }

  /** `doing` names the work in a bound's reason: "reading the file". */
  run(job: ExtractionJob, limits: ExtractionLimits, doing: string): Promise<Answer> {
    const memory = `${doing} needed more than ${limits.memoryMb} MB of memory`;
    return new Promise((resolve) => {
      let done = false;
      const finish = (answer: Answer) => {
        if (done) return;
        done = true;
        clearTimeout(deadline);
        clearInterval(watch);
        this.child.off('message', onMessage);
        this.child.off('close', onExit);
        resolve(answer);
      };
      const stop = (reason: string) => {
        this.end();
        finish({ stopped: reason });
      };
      const deadline = setTimeout(() => stop(`${doing} took longer than ${limits.timeoutMs / 1000} s`), limits.timeoutMs);
      const watch = setInterval(() => {
        void residentMb(this.child.pid ?? 0).then((mb) => mb !== undefined && mb > limits.memoryMb && stop(memory));
      }, MEMORY_CHECK_MS);
      const onMessage = (m: ExtractionReply) => m.id === job.id && finish(m);
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
        if (this.ended) finish({ fault: 'the extraction process was stopped' });
        else if (this.heapExhausted) finish({ stopped: memory });
        // Its stderr stays out of the reason, which the client reads: it names svc's files.
        else finish({ stopped: `the process ${doing} ended (${signal ?? `exit code ${code}`})` });
      };
      this.child.on('message', onMessage);
      // 'close' comes after the last of its stderr, which says when V8 ran out of heap.
      this.child.once('close', onExit);
      this.child.send(job);
    });
  }
}

let nextJobId = 0;

/** Every process started and not yet exited: svc's exit ends them, busy or not. */
const running = new Set<ExtractionProcess>();
const endAll = () => {
  for (const proc of running) proc.end();
};

/** Up to `size` processes, one job each at a time; more jobs wait their turn. */
class ProcessPool {
  readonly #idle: ExtractionProcess[] = [];
  readonly #waiting: (() => void)[] = [];
  #busy = 0;

  constructor(
    private readonly limits: ExtractionLimits,
    private readonly size: number,
  ) {}

  async run(work: ExtractionWork, inputBytes: number): Promise<Answer> {
    await this.#turn();
    let proc: ExtractionProcess | undefined;
    try {
      proc = this.#take();
      proc.hold(true);
      const startRss = await proc.started;
      if (startRss === undefined) return { fault: `the extraction process did not start: ${proc.stderr.slice(-300)}` };
      const answer = await proc.run({ ...work, id: ++nextJobId }, this.limits, work.kind === 'extract' ? 'reading the file' : 'parsing the message');
      proc.jobs++;
      const small = inputBytes <= RECYCLE_AFTER_BYTES && proc.jobs < RECYCLE_AFTER_JOBS && 'rss' in answer && answer.rss - startRss <= RECYCLE_GROWTH_MB * MB;
      if (small && !proc.exited) {
        this.#rest(proc);
        proc = undefined;
      }
      return answer;
    } finally {
      proc?.end();
      const next = this.#waiting.shift();
      if (next) next();
      else this.#busy--;
    }
  }

  /** Resolves when a process may start a job: at once under `size`, else when one is handed over. */
  #turn(): Promise<void> {
    if (this.#busy < this.size) {
      this.#busy++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  #take(): ExtractionProcess {
    for (let proc = this.#idle.pop(); proc; proc = this.#idle.pop()) {
      clearTimeout(proc.idle);
      if (!proc.exited) return proc;
    }
    const proc = new ExtractionProcess(this.limits.memoryMb);
    // A process busy in pdf.js reads no message, not even its parent's end, until its job is done.
    if (running.size === 0) process.once('exit', endAll);
    running.add(proc);
    proc.child.once('exit', () => {
      running.delete(proc);
      if (running.size === 0) process.off('exit', endAll);
    });
    return proc;
  }

  #rest(proc: ExtractionProcess): void {
    proc.hold(false);
    proc.idle = setTimeout(() => {
      const at = this.#idle.indexOf(proc);
      if (at >= 0) this.#idle.splice(at, 1);
      proc.end();
    }, IDLE_EXIT_MS).unref();
    this.#idle.push(proc);
  }
}

/**
 * Ends every extraction process, idle or busy, as svc stops: a job still running is thrown (the
 * document is taken again later), not failed.
 */
export function stopExtractionProcesses(): void {
  endAll();
}

const pools = new Map<string, ProcessPool>();
const poolFor = (lane: 'documents' | 'mail', limits: ExtractionLimits): ProcessPool => {
  const key = `${lane} ${limits.memoryMb} ${limits.timeoutMs}`;
  let pool = pools.get(key);
  if (!pool) pools.set(key, (pool = new ProcessPool(limits, lane === 'documents' ? DOCUMENT_PROCESSES : MAIL_PROCESSES)));
  return pool;
};

/**
 * Reads a document (src/documents/extract.ts) in an extraction process. A bound reached is an
 * extraction that read nothing, the bound its reason: the same bytes would reach it again, so it
 * is not retried. A fault of the process itself (it could not start) is thrown, to be retried.
 */
export async function extractInChild(bytes: Uint8Array, contentType: string, limits: ExtractionLimits): Promise<Extraction> {
  const answer = await poolFor('documents', limits).run({ kind: 'extract', bytes, contentType }, bytes.length);
  if ('stopped' in answer) return nothingRead(`Extraction stopped: ${answer.stopped}.`);
  if ('fault' in answer) throw new Error(answer.fault);
  if (!answer.ok) throw new Error(answer.error);
  return answer.result as Extraction;
}

/** A message parsed in an extraction process, or why it could not be. */
export type MailParse = { mail: ParsedMail } | { refused: string };

/** Parses `raw` (mail-parse.ts) in an extraction process of its own lane; a fault of the process is thrown. */
export async function parseMailInChild(raw: Uint8Array, limits: ExtractionLimits): Promise<MailParse> {
  const answer = await poolFor('mail', limits).run({ kind: 'parse-mail', raw }, raw.length);
  if ('stopped' in answer) return { refused: `The message could not be parsed within svc's bounds: ${answer.stopped}.` };
  if ('fault' in answer) throw new Error(answer.fault);
  if (!answer.ok) return { refused: `The message could not be parsed as RFC 822: ${answer.error}` };
  return { mail: answer.result as ParsedMail };
}
