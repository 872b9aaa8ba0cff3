// One per process: holds a single PostgreSQL connection that LISTENs on the live channel, and hands
// each change to the open pages (subscribers) of the account it belongs to, never to another's.
// The connection is opened for the first subscriber and closed when the last one has gone; when it
// is lost (the database restarts, a backend is terminated) it is made again with growing waits,
// and every subscriber is told to resync, as changes committed meanwhile were not heard.
import type { Db, Tx } from '../store/db.ts';
import { listenForLiveChanges, parseLiveChange, unlistenLiveChanges, type LiveChange } from '../store/live-channel.ts';

export type { LiveChange } from '../store/live-channel.ts';

/** A change in the subscriber's account, or word that some may have been missed (reload what is shown). */
export type LiveMessage = { kind: 'change'; change: LiveChange } | { kind: 'resync' };
export type LiveListener = (message: LiveMessage) => void;

export interface LiveEventsOptions {
  /** The first wait before trying again after the connection is lost or cannot be made; it doubles up to maxBackoffMs. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** How long the connection is kept after the last subscriber leaves (a page reload resubscribes at once). */
  idleMs?: number;
  log?: (msg: string, fields?: Record<string, unknown>) => void;
  /** Hears the connection start listening, be lost, and be released (no subscribers left, or closed). */
  onStateChange?: (state: LiveHubState) => void;
}

export type LiveHubState = 'listening' | 'lost' | 'released';

const DEFAULTS = { backoffMs: 250, maxBackoffMs: 10_000, idleMs: 30_000 };

export class LiveEventsHub {
  readonly #db: Db;
  readonly #options: Required<Pick<LiveEventsOptions, 'backoffMs' | 'maxBackoffMs' | 'idleMs'>> & LiveEventsOptions;
  readonly #subscribers = new Map<string, Set<LiveListener>>();
  #count = 0;
  #client: Tx | undefined;
  #detach: (() => void) | undefined;
  #connecting: Promise<void> | undefined;
  #retryTimer: NodeJS.Timeout | undefined;
  #idleTimer: NodeJS.Timeout | undefined;
  #failures = 0;
  /** A connection was lost or could not be made: the next one to listen tells subscribers to resync. */
  #missed = false;
  #closed = false;
  #waiters: { resolve: () => void; reject: (err: Error) => void }[] = [];

  constructor(db: Db, options: LiveEventsOptions = {}) {
    this.#db = db;
    this.#options = { ...DEFAULTS, ...options };
  }

  /** Whether the hub's connection is listening now. */
  get listening(): boolean {
    return this.#client !== undefined;
  }

  /** The PostgreSQL backend pid of the listening connection (for diagnostics), if listening. */
  get listenerPid(): number | undefined {
    return (this.#client as { processID?: number } | undefined)?.processID ?? undefined;
  }

  /** Listens for the account's changes until the returned function is called. */
  subscribe(accountId: string, listener: LiveListener): () => void {
    if (this.#closed) throw new Error('the live events hub is closed');
    let set = this.#subscribers.get(accountId);
    if (!set) this.#subscribers.set(accountId, (set = new Set()));
    // The same function subscribed twice gets its own entry, so each unsubscribe removes one.
    const entry: LiveListener = (message) => listener(message);
    set.add(entry);
    this.#count++;
    clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
    this.#start();
    let subscribed = true;
    return () => {
      if (!subscribed) return;
      subscribed = false;
      set.delete(entry);
      if (set.size === 0 && this.#subscribers.get(accountId) === set) this.#subscribers.delete(accountId);
      if (--this.#count > 0 || this.#closed) return;
      if (this.#options.idleMs <= 0) return void this.#disconnect();
      this.#idleTimer = setTimeout(() => void this.#disconnect(), this.#options.idleMs);
      this.#idleTimer.unref();
    };
  }

  /** Resolves once the connection listens (at once if it does); rejects if the hub is closed first. */
  whenListening(): Promise<void> {
    if (this.#client) return Promise.resolve();
    if (this.#closed) return Promise.reject(new Error('the live events hub is closed'));
    return new Promise((resolve, reject) => this.#waiters.push({ resolve, reject }));
  }

  /** Stops listening and releases the connection; subscribers hear nothing more. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#subscribers.clear();
    this.#count = 0;
    clearTimeout(this.#idleTimer);
    const waiters = this.#waiters.splice(0);
    for (const w of waiters) w.reject(new Error('the live events hub is closed'));
    await this.#disconnect();
  }

  #start(): void {
    if (this.#closed || this.#count === 0 || this.#client || this.#connecting || this.#retryTimer) return;
    this.#connecting = this.#connect().finally(() => {
      this.#connecting = undefined;
    });
  }

  async #connect(): Promise<void> {
    let client: Tx | undefined;
    try {
      client = await this.#db.connect();
      const own = client;
      const onNotification = (msg: { payload?: string }) => this.#dispatch(msg.payload);
      const onError = (err: Error) => this.#lose(own, err);
      const onEnd = () => this.#lose(own, new Error('the listening connection ended'));
      own.on('notification', onNotification);
      own.on('error', onError);
      own.on('end', onEnd);
      const detach = () => {
        own.removeListener('notification', onNotification);
        own.removeListener('error', onError);
        own.removeListener('end', onEnd);
      };
      try {
        await listenForLiveChanges(own);
      } catch (err) {
        detach();
        throw err;
      }
      // Everyone left (or the hub closed) while the connection was being made.
      if (this.#closed || this.#count === 0) {
        await unlistenLiveChanges(own).catch(() => {});
        detach();
        own.release();
        return;
      }
      this.#client = own;
      this.#detach = detach;
      this.#failures = 0;
      this.#options.onStateChange?.('listening');
      for (const w of this.#waiters.splice(0)) w.resolve();
      if (this.#missed) {
        this.#missed = false;
        this.#broadcast({ kind: 'resync' });
      }
    } catch (err) {
      // A connection that could not LISTEN is closed rather than handed back to the pool half set up.
      client?.release(err instanceof Error ? err : true);
      this.#options.log?.('live events: cannot listen; retrying', { err: String(err) });
      this.#missed = true;
      this.#retryLater();
    }
  }

  /** The listening connection failed: it is closed, and another is made after a wait. */
  #lose(client: Tx, err: Error): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    this.#detach?.();
    this.#detach = undefined;
    client.release(err);
    this.#options.log?.('live events: listening connection lost; reconnecting', { err: String(err) });
    this.#missed = true;
    this.#options.onStateChange?.('lost');
    this.#retryLater();
  }

  #retryLater(): void {
    if (this.#closed || this.#count === 0 || this.#retryTimer) return;
    const wait = Math.min(this.#options.maxBackoffMs, this.#options.backoffMs * 2 ** this.#failures++);
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      this.#start();
    }, wait);
    this.#retryTimer.unref();
  }

  async #disconnect(): Promise<void> {
    this.#idleTimer = undefined;
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    // A connection being made sees there is no one left and releases itself.
    await this.#connecting;
    const client = this.#client;
    if (!client || this.#count > 0) return;
    this.#client = undefined;
    await unlistenLiveChanges(client).catch(() => {});
    this.#detach?.();
    this.#detach = undefined;
    client.release();
    // Nothing was missed by anyone: there is no one to tell.
    this.#missed = false;
    this.#options.onStateChange?.('released');
  }

  #dispatch(payload: string | undefined): void {
    const change = parseLiveChange(payload);
    if (!change) {
      this.#options.log?.('live events: ignored a payload that is not a change', { payload });
      return;
    }
    const set = this.#subscribers.get(change.accountId);
    if (set) this.#deliver([...set], { kind: 'change', change });
  }

  #broadcast(message: LiveMessage): void {
    this.#deliver([...this.#subscribers.values()].flatMap((set) => [...set]), message);
  }

  #deliver(listeners: LiveListener[], message: LiveMessage): void {
    for (const listener of listeners) {
      try {
        listener(message);
      } catch (err) {
        // One page's failure must not keep the change from the others.
        this.#options.log?.('live events: a subscriber failed', { err: String(err) });
      }
    }
  }
}
