// The SMTP listener (SVC_SMTP_PORT): mail for <account alias>@SVC_INBOUND_DOMAIN becomes an
// e-mail submission. An unknown recipient is refused at RCPT (550), a message over the cap at DATA
// (552), and the 250 comes only once the submission and its documents are committed: a crash
// before it leaves the message with the sender, who tries again.
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import type { Clock } from '../clock.ts';
import { DomainError } from '../domain/errors.ts';
import { acceptEmail, recipientAccount } from '../services/email-submissions.ts';
import type { DocumentSettings } from '../services/documents.ts';
import type { Db } from '../store/db.ts';

export interface SmtpListenerOptions {
  db: Db;
  clock: Clock;
  settings: DocumentSettings;
  domain: string;
  host: string;
  port: number;
  log?: (msg: string, fields?: Record<string, unknown>) => void;
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
  const accountsOf = async (session: SMTPServerSession): Promise<string[]> => {
    const ids = await Promise.all(session.envelope.rcptTo.map((r) => recipientAccount(o.db, o.domain, r.address)));
    return [...new Set(ids.filter((id): id is string => id !== undefined))];
  };
  const server = new SMTPServer({
    // Mail is taken for svc's own addresses only, so no sender needs to sign in; TLS is the
    // business of a relay in front when the listener faces the internet.
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: o.settings.maxBytes,
    logger: false,
    banner: 'svc e-mail submissions',
    onRcptTo(address, _session, callback) {
      recipientAccount(o.db, o.domain, address.address).then(
        (account) => callback(account ? null : reply(550, `No mailbox here for ${address.address}`)),
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
          // One submission per account the recipients name, each committed before the 250.
          for (const account of await accountsOf(session)) await acceptEmail(o.db, o.clock, o.settings, account, raw, 'smtp');
          callback(null, 'Message accepted');
        })
        .catch((err: unknown) => {
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
