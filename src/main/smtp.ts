// The SMTP listener (SVC_SMTP_PORT): mail for <account alias>@SVC_INBOUND_DOMAIN becomes an
// e-mail submission. An unknown recipient is refused at RCPT (550), a message over the cap at DATA
// (552), and the 250 comes only once the submission and its documents are committed: a crash
// before it leaves the message with the sender, who tries again (and a message stored before the
// crash is not stored twice: acceptEmail knows it again). With SVC_SMTP_TLS_KEY/_CERT the listener
// offers STARTTLS. Nobody signs in to send, so every session is bounded: how many at once, how long
// one may sit idle, recipients per message, messages per connection, and a message past the size
// cap is read to its end and dropped as it comes, never held.
import { readFile } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { SMTPServer, type SMTPServerAddress, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import type { Config } from '../config/index.ts';
import type { Clock } from '../clock.ts';
import { DomainError, LimitExceeded } from '../domain/errors.ts';
import { acceptEmail, recipientAccount } from '../services/email-submissions.ts';
import type { DocumentSettings } from '../services/documents.ts';
import type { Db } from '../store/db.ts';
import { StartError } from './start-errors.ts';

export interface SmtpListenerOptions {
  db: Db;
  clock: Clock;
  /** The document settings; mail is taken for their inboundDomain. */
  settings: DocumentSettings;
  /** A key and certificate (PEM) to offer STARTTLS with; absent, the listener speaks plain SMTP only. */
  tls?: SmtpTls;
  host: string;
  port: number;
  /** Bounds on sessions; those left out are SMTP_LIMITS'. */
  limits?: Partial<SmtpLimits>;
  log?: (msg: string, fields?: Record<string, unknown>) => void;
}

export interface SmtpLimits {
  /** Sessions open at once; one more is answered 421 and closed (SVC_SMTP_MAX_CLIENTS). */
  maxClients: number;
  /** How long a session may stay silent, in ms, before it is answered 421 and closed. */
  idleMs: number;
  /** How long a session may last in all, in ms, however busy: a sender that trickles bytes cannot hold its place for ever. */
  sessionMs: number;
  /** How long close() waits for open sessions before it ends them. */
  closeMs: number;
  /** Recipients one message may name; more are answered 452, as RFC 5321 asks. */
  maxRecipients: number;
  /** Messages one connection may send; the next MAIL FROM is answered 421 and the connection closed. */
  maxMessages: number;
}

// A sending server keeps one connection per destination and sends few recipients per message, and
// a session's time is enough for the largest message over a slow link: these leave it room while a
// flood of sessions, idle sockets or recipients stays small.
export const SMTP_LIMITS: SmtpLimits = { maxClients: 20, idleMs: 60_000, sessionMs: 10 * 60_000, closeMs: 10_000, maxRecipients: 50, maxMessages: 100 };

export interface SmtpTls {
  key: Buffer;
  cert: Buffer;
}

/** The key and certificate SVC_SMTP_TLS_KEY and SVC_SMTP_TLS_CERT name (both or neither). */
export async function smtpTlsOf(config: Pick<Config, 'SVC_SMTP_TLS_KEY' | 'SVC_SMTP_TLS_CERT'>): Promise<SmtpTls | undefined> {
  const { SVC_SMTP_TLS_KEY: keyFile, SVC_SMTP_TLS_CERT: certFile } = config;
  if (!keyFile && !certFile) return undefined;
  if (!keyFile || !certFile) throw new StartError(`SVC_SMTP_TLS_KEY and SVC_SMTP_TLS_CERT go together: set both (PEM files) for STARTTLS, or neither`);
  const read = (file: string, name: string) =>
    readFile(file).catch((err: unknown) => {
      throw new StartError(`${name}: cannot read ${file} (${(err as Error).message})`);
    });
  return { key: await read(keyFile, 'SVC_SMTP_TLS_KEY'), cert: await read(certFile, 'SVC_SMTP_TLS_CERT') };
}

export interface SmtpListener {
  port: number;
  close(): Promise<void>;
}

/** An SMTP reply: smtp-server answers with the error's responseCode and message. */
const reply = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

/**
 * The message, or undefined once it has passed `maxBytes`: the rest is still read (the client
 * waits for the reply at its end) but each chunk is dropped as it comes, so memory stays bounded
 * by the cap however much is sent.
 */
async function readUpTo(stream: SMTPServerDataStream, maxBytes: number): Promise<Buffer | undefined> {
  let chunks: Buffer[] | undefined = [];
  let bytes = 0;
  for await (const chunk of stream) {
    if (!chunks) continue;
    bytes += (chunk as Buffer).length;
    if (bytes > maxBytes || stream.sizeExceeded) chunks = undefined;
    else chunks.push(chunk as Buffer);
  }
  return chunks && !stream.sizeExceeded ? Buffer.concat(chunks, bytes) : undefined;
}

export async function startSmtpListener(o: SmtpListenerOptions): Promise<SmtpListener> {
  // The account each accepted recipient names, found at RCPT. smtp-server keeps the very address
  // object it gave onRcptTo in the envelope, so DATA reads the answer instead of asking again.
  const accountOf = new WeakMap<SMTPServerAddress, string>();
  // smtp-server keeps one session object per connection; it counts only the messages it accepted.
  const messagesOf = new WeakMap<SMTPServerSession, number>();
  const limits = { ...SMTP_LIMITS, ...o.limits };
  const server = new SMTPServer({
    // Mail is taken for svc's own addresses only, so no sender needs to sign in. Without a key and
    // certificate of its own there is no STARTTLS (smtp-server would offer it with a built-in one).
    authOptional: true,
    disabledCommands: o.tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    ...o.tls,
    size: o.settings.maxBytes,
    maxClients: limits.maxClients,
    socketTimeout: limits.idleMs,
    closeTimeout: limits.closeMs,
    maxRecipients: limits.maxRecipients,
    logger: false,
    banner: 'svc e-mail submissions',
    onMailFrom(_address, session, callback) {
      const messages = (messagesOf.get(session) ?? 0) + 1;
      messagesOf.set(session, messages);
      if (messages > limits.maxMessages) return callback(reply(421, `At most ${limits.maxMessages} messages a connection; connect again`));
      callback();
    },
    onRcptTo(address, _session, callback) {
      recipientAccount(o.db, o.settings.inboundDomain, address.address).then(
        (account) => {
          if (!account) return callback(reply(550, `No mailbox here for ${address.address}`));
          accountOf.set(address, account);
          callback(null);
        },
        (err: unknown) => {
          o.log?.('smtp: recipient lookup failed', { error: (err as Error).message });
          callback(reply(451, 'Try again later'));
        },
      );
    },
    onData(stream, session, callback) {
      readUpTo(stream, o.settings.maxBytes)
        .then(async (raw) => {
          if (!raw) return callback(reply(552, `Message larger than ${o.settings.maxBytes} bytes`));
          // One submission per account the recipients name, each committed before the 250; one
          // stored by an attempt that failed later is found again, not stored twice.
          const accounts = new Set(session.envelope.rcptTo.flatMap((r) => accountOf.get(r) ?? []));
          for (const account of accounts) await acceptEmail(o.db, o.clock, o.settings, account, raw, 'smtp');
          callback(null, 'Message accepted');
        })
        .catch((err: unknown) => {
          // Over the account's limit on new documents: a temporary refusal, so the sender tries again later.
          if (err instanceof LimitExceeded) return callback(reply(451, err.detail));
          if (err instanceof DomainError) return callback(reply(554, err.detail));
          o.log?.('smtp: message not stored', { error: (err as Error).message });
          callback(reply(451, 'Message not stored; try again later'));
        });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (err: Error) => o.log?.('smtp: listener error', { error: err.message }));
  // smtp-server bounds silence, not a whole session; past its time the socket is dropped (no reply:
  // after STARTTLS the raw socket carries TLS records), and the sender tries again later.
  server.server.on('connection', (socket: Socket) => {
    const timer = setTimeout(() => socket.destroy(), limits.sessionMs).unref();
    socket.once('close', () => clearTimeout(timer));
  });
  const address = server.server.address();
  return {
    port: typeof address === 'object' && address ? address.port : o.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
