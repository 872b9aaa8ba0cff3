// Nothing accepted is lost, and nothing is stored twice, when `svc serve` dies in the middle of an
// SMTP delivery. A message for two accounts is being stored (the first account's submission
// committed, the second's waiting on a row lock the test holds) when the process is killed with
// SIGKILL, so the sender never gets its 250. The sender delivers again to the restarted process:
// each account holds the message once, and its numbers reach each account's webhook.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import nodemailer from 'nodemailer';
import { containerNumber } from '../src/sandbox/iso6346.ts';
import { createApiKey } from '../src/services/api-keys.ts';
import { insertAccount } from '../src/store/accounts.ts';
import type { Received } from './support/receiver.ts';
import { serveBenchForFile, type ServeBench } from './support/serve-bench.ts';
import { crashServe, freePort, startServe, stopServe, type SvcProcess } from './support/svc-process.ts';

const KEY = 'svc_test_email_crash_key_0123456789abc';
const DOMAIN = 'inbound.test';

let bench: ServeBench;
serveBenchForFile(KEY, (b) => (bench = b));

/** Waits, one database round trip at a time (never a timer), until `sql` returns a row. */
async function untilRow(sql: string, params: unknown[], what: string): Promise<void> {
  for (let i = 0; i < 100_000; i++) if ((await bench.database.db.query(sql, params)).rowCount) return;
  throw new Error(`gave up waiting for ${what}`);
}

const count = async (sql: string, params: unknown[]): Promise<number> => Number((await bench.database.db.query<{ n: string }>(sql, params)).rows[0].n);

test('a message whose delivery dies before the 250 is stored once per account after the sender tries again, and reaches the webhooks', async () => {
  const db = bench.database.db;
  const second = await insertAccount(db, 'Second account');
  const secondKey = (await createApiKey(db, second.id, 'test')).key;
  const smtpPort = await freePort();
  const started: SvcProcess[] = [];
  // The first process looks for documents to process at its start only: one it claimed when it
  // died would wait out its lease (minutes) before the next process retook it.
  const serve = async (workerIntervalMs: number) => {
    const svc = await startServe(bench.env({ SVC_SMTP_PORT: String(smtpPort), SVC_INBOUND_DOMAIN: DOMAIN, SVC_WORKER_INTERVAL_MS: String(workerIntervalMs) }));
    started.push(svc);
    return svc;
  };
  const lock = await db.connect();
  try {
    let svc = await serve(3_600_000);
    const addressOf = async (key: string): Promise<string> => ((await (await fetch(`${svc.base}/email_submissions/inbound_address`, { headers: { authorization: `Token ${key}` } })).json()) as any).inbound_address;
    const recipients = [await addressOf(KEY), await addressOf(secondKey)];
    const first = (await db.query<{ id: string }>('SELECT id FROM accounts WHERE inbound_alias = $1', [recipients[0].split('@')[0]])).rows[0];
    await bench.subscribe(svc, ['document.extracted']);
    const hook = await fetch(`${svc.base}/webhooks`, {
      method: 'POST',
      headers: { authorization: `Token ${secondKey}`, 'content-type': 'application/vnd.api+json' },
      body: JSON.stringify({ data: { type: 'webhook', attributes: { url: bench.receiver.url, events: ['document.extracted'] } } }),
    });
    assert.equal(hook.status, 201, await hook.text());

    // document.extracted by document (a delivery cut short by the crash may come twice).
    const extracted = new Map<string, Received>();
    const bothDelivered = new Promise<void>((resolve) => {
      bench.receiver.answer = (req, res) => {
        res.writeHead(200).end('ok');
        if (req.json?.data?.attributes?.event === 'document.extracted') extracted.set(req.json.data.relationships.reference_object.data.id, req);
        if (extracted.size === 2) resolve();
      };
    });
    // The bytes a sender keeps in its queue and sends again, as an MTA does.
    const number = containerNumber('TGHU', 481516);
    const raw = await new MailComposer({ from: 'ops@forwarder.example', to: recipients, subject: 'Arrival notice', text: `Container ${number} arrives Friday.\n`, messageId: '<crash-1@forwarder.example>' }).compile().build();
    const envelope = { from: 'ops@forwarder.example', to: recipients };
    const transport = () => nodemailer.createTransport({ host: '127.0.0.1', port: smtpPort, secure: false, ignoreTLS: true });

    // The second account's row is locked: its submission waits (its rows refer to the account),
    // after the first account's has committed.
    await lock.query('BEGIN');
    await lock.query('SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [second.id]);
    const firstTry = transport();
    const attempt = firstTry.sendMail({ envelope, raw }).then(
      (info) => ({ info }),
      (err: Error) => ({ err }),
    );
    await untilRow(`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> $1`, [(await lock.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid], 'the second account to wait');
    assert.equal(await count('SELECT count(*) AS n FROM email_submissions WHERE account_id = $1', [first.id]), 1, 'the first account has it, unanswered');

    await crashServe(svc);
    const outcome = await attempt;
    assert.ok('err' in outcome, 'the sender got no 250');
    firstTry.close();
    await lock.query('ROLLBACK');

    svc = await serve(50);
    const retry = transport();
    const sent = await retry.sendMail({ envelope, raw });
    retry.close();
    assert.match(sent.response, /^250 /);

    for (const account of [first.id, second.id]) {
      assert.equal(await count('SELECT count(*) AS n FROM email_submissions WHERE account_id = $1', [account]), 1, 'one submission per account');
      assert.equal(await count('SELECT count(*) AS n FROM documents WHERE account_id = $1', [account]), 1, 'one document (the text) per account');
    }
    // No blob of the killed attempt stays behind: each is a submission's message or a document's file.
    assert.equal(await count('SELECT count(*) AS n FROM document_blobs b WHERE NOT EXISTS (SELECT 1 FROM documents d WHERE d.blob_id = b.id) AND NOT EXISTS (SELECT 1 FROM email_submissions s WHERE s.raw_blob_id = b.id)', []), 0);
    const listed = (await (await fetch(`${svc.base}/email_submissions`, { headers: { authorization: `Token ${KEY}` } })).json()) as any;
    assert.equal(listed.data.length, 1);

    await bothDelivered;
    const owners: string[] = [];
    for (const id of extracted.keys()) {
      const owner = (await db.query<{ account_id: string }>('SELECT account_id FROM documents WHERE id = $1', [id])).rows[0].account_id;
      owners.push(owner);
      const token = owner === second.id ? secondKey : KEY;
      const doc = (await (await fetch(`${svc.base}/documents/${id}?include=current_extraction`, { headers: { authorization: `Token ${token}` } })).json()) as any;
      assert.equal(doc.data.attributes.source, 'email');
      assert.deepEqual(doc.included[0].attributes.payload.container_numbers, [number]);
    }
    assert.deepEqual(owners.sort(), [first.id, second.id].sort(), "each account's document reached its webhook");
  } finally {
    await lock.query('ROLLBACK').catch(() => {});
    lock.release();
    for (const svc of started) if (svc.child.exitCode === null && svc.child.signalCode === null) assert.equal(await stopServe(svc), 0);
  }
});
