// STARTTLS on the SMTP listener: with SVC_SMTP_TLS_KEY and SVC_SMTP_TLS_CERT (a self-signed
// certificate made here by openssl) nodemailer with requireTLS upgrades the connection, trusts the
// certificate it was given and delivers; without them the listener offers no STARTTLS (so such a
// sender refuses to go on), and a key without a certificate, or a file that cannot be read, stops
// the start with a message naming the variable.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import nodemailer from 'nodemailer';
import { systemClock } from '../src/clock.ts';
import { loadConfig } from '../src/config/index.ts';
import { smtpTlsOf, startSmtpListener, type SmtpListener, type SmtpTls } from '../src/main/smtp.ts';
import { StartError } from '../src/main/start-errors.ts';
import { defaultDocumentSettings } from '../src/services/documents.ts';
import { inboundAddress } from '../src/services/email-submissions.ts';
import { insertAccount } from '../src/store/accounts.ts';
import { freshDatabase, type TestDatabase } from './support/database.ts';
import { forFile } from './support/for-file.ts';

const DOMAIN = 'inbound.test';
const settings = { ...defaultDocumentSettings, inboundDomain: DOMAIN };

let database: TestDatabase;
let dir: string;
forFile(
  async () => ({ database: await freshDatabase(), dir: mkdtempSync(path.join(tmpdir(), 'svc-smtp-tls-')) }),
  (s) => ({ database, dir } = s),
  async (s) => {
    rmSync(s.dir, { recursive: true, force: true });
    await s.database.drop();
  },
);

/** A key and a self-signed certificate for 127.0.0.1, as PEM files. */
function selfSigned(): { key: string; cert: string } {
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=svc test', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
  return { key, cert };
}

const listen = (tls: SmtpTls | undefined): Promise<SmtpListener> => startSmtpListener({ db: database.db, clock: systemClock, settings, tls, host: '127.0.0.1', port: 0 });

test('with SVC_SMTP_TLS_KEY/_CERT a requireTLS sender upgrades with STARTTLS and delivers', async () => {
  const files = selfSigned();
  const account = await insertAccount(database.db, 'TLS mail');
  const to = await inboundAddress(database.db, settings, account.id);
  const listener = await listen(await smtpTlsOf(loadConfig({ SVC_SMTP_TLS_KEY: files.key, SVC_SMTP_TLS_CERT: files.cert })));
  try {
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: listener.port, secure: false, requireTLS: true, tls: { ca: readFileSync(files.cert) } });
    const sent = await transport.sendMail({ from: 'ops@forwarder.example', to, subject: 'Over TLS', text: 'Sealed.' });
    transport.close();
    assert.match(sent.response, /^250 /);
    const { rows } = await database.db.query<{ subject: string; received_by: string }>('SELECT subject, received_by FROM email_submissions WHERE account_id = $1', [account.id]);
    assert.deepEqual(rows, [{ subject: 'Over TLS', received_by: 'smtp' }]);
  } finally {
    await listener.close();
  }
});

test('without them there is no STARTTLS: a requireTLS sender stops before the message', async () => {
  assert.equal(await smtpTlsOf(loadConfig({})), undefined);
  const account = await insertAccount(database.db, 'Plain mail');
  const to = await inboundAddress(database.db, settings, account.id);
  const listener = await listen(undefined);
  try {
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: listener.port, secure: false, requireTLS: true });
    await assert.rejects(transport.sendMail({ from: 'ops@forwarder.example', to, subject: 'x', text: 'x' }), (err: any) => err.code === 'ETLS');
    transport.close();
    const { rows } = await database.db.query('SELECT 1 FROM email_submissions WHERE account_id = $1', [account.id]);
    assert.equal(rows.length, 0);
  } finally {
    await listener.close();
  }
});

test('a key without a certificate, or a file that cannot be read, stops the start naming the variable', async () => {
  const files = selfSigned();
  await assert.rejects(smtpTlsOf(loadConfig({ SVC_SMTP_TLS_KEY: files.key })), (err: unknown) => err instanceof StartError && /SVC_SMTP_TLS_KEY and SVC_SMTP_TLS_CERT go together/.test(err.message));
  await assert.rejects(smtpTlsOf(loadConfig({ SVC_SMTP_TLS_CERT: files.cert })), (err: unknown) => err instanceof StartError && /go together/.test(err.message));
  const missing = path.join(dir, 'missing.pem');
  await assert.rejects(smtpTlsOf(loadConfig({ SVC_SMTP_TLS_KEY: files.key, SVC_SMTP_TLS_CERT: missing })), (err: unknown) => err instanceof StartError && err.message.startsWith(`SVC_SMTP_TLS_CERT: cannot read ${missing}`));
});
