// The SMTP listener under hostile senders, over real loopback sockets: three messages far over the
// size cap, sent at once and generated chunk by chunk, are each answered 552 while the process's
// memory stays well under what was sent; sessions past the cap are answered 421 while those open
// go on delivering; recipients past the cap get 452, messages past the per-connection cap and a
// silent session get 421, and a session busy past its time is dropped.
import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { systemClock } from '../src/clock.ts';
import { startSmtpListener, type SmtpLimits, type SmtpListener } from '../src/main/smtp.ts';
import { defaultDocumentSettings } from '../src/services/documents.ts';
import { inboundAddress } from '../src/services/email-submissions.ts';
import { insertAccount } from '../src/store/accounts.ts';
import { freshDatabase, type TestDatabase } from './support/database.ts';
import { forFile } from './support/for-file.ts';

const DOMAIN = 'inbound.test';
const MAX_BYTES = 1_000_000;
const settings = { ...defaultDocumentSettings, inboundDomain: DOMAIN, maxBytes: MAX_BYTES };
const MB = 1024 * 1024;

let database: TestDatabase;
forFile(
  () => freshDatabase(),
  (d) => (database = d),
  (d) => d.drop(),
);

const listen = (limits?: Partial<SmtpLimits>): Promise<SmtpListener> =>
  startSmtpListener({ db: database.db, clock: systemClock, settings, host: '127.0.0.1', port: 0, limits });

interface Reply {
  code: number;
  text: string;
}

/** A raw SMTP session: each reply as it comes (multi-line ones whole), and writes that wait for the socket to drain. */
class RawSession {
  readonly #socket: net.Socket;
  readonly #replies: Reply[] = [];
  readonly #waiting: ((reply: Reply) => void)[] = [];
  #lines: string[] = [];
  #pending = '';
  #closed = false;

  private constructor(socket: net.Socket) {
    this.#socket = socket;
    socket.setEncoding('latin1');
    socket.on('data', (text: string) => this.#read(text));
    socket.on('error', () => {});
    socket.on('close', () => {
      this.#closed = true;
      for (const resolve of this.#waiting.splice(0)) resolve({ code: 0, text: 'closed' });
    });
  }

  /** Connects and reads the greeting. */
  static async open(port: number): Promise<{ session: RawSession; greeting: Reply }> {
    const socket = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const session = new RawSession(socket);
    return { session, greeting: await session.reply() };
  }

  get closed(): boolean {
    return this.#closed;
  }

  #read(text: string): void {
    const parts = (this.#pending + text).split('\r\n');
    this.#pending = parts.pop()!;
    for (const line of parts) {
      this.#lines.push(line);
      if (line[3] === '-') continue;
      const reply = { code: Number(line.slice(0, 3)), text: this.#lines.join('\n') };
      this.#lines = [];
      const resolve = this.#waiting.shift();
      if (resolve) resolve(reply);
      else this.#replies.push(reply);
    }
  }

  reply(): Promise<Reply> {
    const ready = this.#replies.shift();
    if (ready) return Promise.resolve(ready);
    if (this.#closed) return Promise.resolve({ code: 0, text: 'closed' });
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  async write(data: string | Buffer): Promise<void> {
    const socket = this.#socket;
    if (socket.write(data)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        socket.off('drain', done).off('close', done);
        resolve();
      };
      socket.on('drain', done).on('close', done);
    });
  }

  async command(line: string): Promise<Reply> {
    await this.write(`${line}\r\n`);
    return this.reply();
  }

  /** EHLO, MAIL FROM and one RCPT TO per recipient; the replies to the RCPTs. */
  async envelope(to: string[]): Promise<Reply[]> {
    assert.equal((await this.command('EHLO sender.example')).code, 250);
    assert.equal((await this.command('MAIL FROM:<ops@sender.example>')).code, 250);
    const replies: Reply[] = [];
    for (const address of to) replies.push(await this.command(`RCPT TO:<${address}>`));
    return replies;
  }

  /** DATA, then the message from `chunks` (each written once the socket has room), then the end mark; the reply to it. */
  async data(chunks: Iterable<Buffer | string>): Promise<Reply> {
    assert.equal((await this.command('DATA')).code, 354);
    for (const chunk of chunks) {
      if (this.#closed) break;
      await this.write(chunk);
    }
    await this.write('\r\n.\r\n');
    return this.reply();
  }

  close(): void {
    this.#socket.destroy();
  }
}

/** `total` bytes of message in lines of 1,000 bytes, yielded as the same one-megabyte buffer again and again. */
function* hugeMessage(total: number): Generator<Buffer | string> {
  yield 'From: ops@sender.example\r\nSubject: huge\r\n\r\n';
  const chunk = Buffer.from(`${'x'.repeat(998)}\r\n`.repeat(MB / 1024));
  for (let sent = 0; sent < total; sent += chunk.length) yield chunk;
}

const smallMessage = ['From: ops@sender.example\r\nSubject: small\r\n\r\nContainer notice.\r\n'];

async function account(name: string): Promise<{ id: string; to: string }> {
  const row = await insertAccount(database.db, name);
  return { id: row.id, to: await inboundAddress(database.db, settings, row.id) };
}

test('three messages far over the cap sent at once are each answered 552, held by no buffer', { timeout: 120_000 }, async () => {
  const { id, to } = await account('Flooded');
  const listener = await listen();
  const PER_MESSAGE = 100 * MB;
  try {
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
    const sessions = await Promise.all([0, 1, 2].map(() => RawSession.open(listener.port)));
    const replies = await Promise.all(
      sessions.map(async ({ session }) => {
        assert.deepEqual((await session.envelope([to])).map((r) => r.code), [250]);
        return session.data(hugeMessage(PER_MESSAGE));
      }),
    );
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    for (const reply of replies) assert.equal(reply.code, 552, reply.text);
    const growth = peak - baseline;
    assert.ok(growth < 100 * MB, `RSS grew by ${(growth / MB).toFixed(0)} MB while ${(3 * PER_MESSAGE) / MB} MB were sent`);
    // The sessions go on: a message within the cap is taken on one of them.
    const [{ session }] = sessions;
    assert.deepEqual((await session.envelope([to])).map((r) => r.code), [250]);
    assert.equal((await session.data(smallMessage)).code, 250);
    for (const { session } of sessions) session.close();
    const { rows } = await database.db.query<{ subject: string }>('SELECT subject FROM email_submissions WHERE account_id = $1', [id]);
    assert.deepEqual(rows, [{ subject: 'small' }]);
  } finally {
    await listener.close();
  }
});

test('sessions past the cap are answered 421 while the open ones still deliver', async () => {
  const { to } = await account('Crowded');
  const listener = await listen({ maxClients: 3 });
  try {
    const open = await Promise.all([0, 1, 2].map(() => RawSession.open(listener.port)));
    for (const { greeting } of open) assert.equal(greeting.code, 220, greeting.text);
    const refused = await RawSession.open(listener.port);
    assert.equal(refused.greeting.code, 421, refused.greeting.text);
    assert.equal((await refused.session.reply()).code, 0, 'the refused session is closed');
    for (const { session } of open) {
      assert.deepEqual((await session.envelope([to])).map((r) => r.code), [250]);
      assert.equal((await session.data(smallMessage)).code, 250);
    }
    open[0]!.session.close();
    // A place freed is taken again.
    let again: Reply = { code: 0, text: '' };
    for (let tries = 0; tries < 50 && again.code !== 220; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const next = await RawSession.open(listener.port);
      again = next.greeting;
      next.session.close();
    }
    assert.equal(again.code, 220, again.text);
    for (const { session } of open) session.close();
  } finally {
    await listener.close();
  }
});

test('recipients past the cap get 452, messages past the per-connection cap and a silent session get 421, a session past its time is dropped', async () => {
  const accounts = await Promise.all(['One', 'Two', 'Three'].map((name) => account(name)));
  const listener = await listen({ maxRecipients: 2, maxMessages: 2, idleMs: 1000, sessionMs: 3000 });
  try {
    const { session } = await RawSession.open(listener.port);
    assert.deepEqual((await session.envelope(accounts.map((a) => a.to))).map((r) => r.code), [250, 250, 452]);
    assert.equal((await session.data(smallMessage)).code, 250);
    assert.equal((await session.command('MAIL FROM:<ops@sender.example>')).code, 250);
    assert.equal((await session.command('RSET')).code, 250);
    const third = await session.command('MAIL FROM:<ops@sender.example>');
    assert.equal(third.code, 421, third.text);
    assert.equal((await session.reply()).code, 0, 'the connection is closed');

    const busy = await RawSession.open(listener.port);
    const started = Date.now();
    // Busy, never silent for long: the session's time still ends it.
    while (!busy.session.closed && Date.now() - started < 20_000) {
      const noop = await busy.session.command('NOOP');
      if (noop.code !== 250) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.ok(busy.session.closed, 'the busy session was closed');
    assert.ok(Date.now() - started >= 2900);

    const silent = await RawSession.open(listener.port);
    assert.equal((await silent.session.command('EHLO sender.example')).code, 250);
    const silentSince = Date.now();
    const timedOut = await silent.session.reply();
    assert.equal(timedOut.code, 421, timedOut.text);
    assert.ok(Date.now() - silentSince >= 900);
    silent.session.close();
  } finally {
    await listener.close();
  }
});
