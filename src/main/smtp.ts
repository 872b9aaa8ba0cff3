// The SMTP listener (SVC_SMTP_PORT): mail for <account alias>@SVC_INBOUND_DOMAIN becomes an
// e-mail submission. An unknown recipient is refused at RCPT (550), a message over the cap at DATA
// (552), and the 250 comes only once the submission and its documents are committed: a crash
// before it leaves the message with the sender, who tries again (and a message stored before the
// crash is not stored twice: acceptEmail knows it again). With SVC_SMTP_TLS_KEY/_CERT the listener
// offers STARTTLS.
import { readFile } from 'node:fs/promises';
import { SMTPServer, type SMTPServerAddress, type SMTPServerDataStream } from 'smtp-server';
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
  log?: (msg: string, fields?: Record<string, unknown>) => void;
}

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

async function readAll(stream: SMTPServerDataStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startSmtpListener(o: SmtpListenerOptions): Promise<SmtpListener> {
  // The account each accepted recipient names, found at RCPT. smtp-server keeps the very address
  // object it gave onRcptTo in the envelope, so DATA reads the answer instead of asking again.
  const accountOf = new WeakMap<SMTPServerAddress, string>();
  const server = new SMTPServer({
    // Mail is taken for svc's own addresses only, so no sender needs to sign in. Without a key and
    // certificate of its own there is no STARTTLS (smtp-server would offer it with a built-in one).
    authOptional: true,
    disabledCommands: o.tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    ...o.tls,
    size: o.settings.maxBytes,
    logger: false,
    banner: 'svc e-mail submissions',
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
      readAll(stream)
        .then(async (raw) => {
          if (stream.sizeExceeded) return callback(reply(552, `Message larger than ${o.settings.maxBytes} bytes`));
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
  const address = server.server.address();
  return {
    port: typeof address === 'object' && address ? address.port : o.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
