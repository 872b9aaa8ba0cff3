// The SMTP listener of a real `svc serve`, fed by nodemailer over loopback: an unknown recipient is
// refused at RCPT (550), a message over the cap at DATA (552), and an accepted message's attachment
// is extracted and reaches a real webhook receiver as document.extracted, linked to its submission;
// npm start (svc serve --smtp) takes mail without SVC_SMTP_PORT.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { test } from 'node:test';
import nodemailer from 'nodemailer';
import { LOCAL_SMTP_PORT } from '../src/main/serve.ts';
import { containerNumber } from '../src/sandbox/iso6346.ts';
import { serveBenchForFile, type ServeBench } from './support/serve-bench.ts';
import { freePort, startServe, stopServe } from './support/svc-process.ts';

const KEY = 'svc_test_email_smtp_key_0123456789abcdef';
const DOMAIN = 'inbound.test';
const MAX_BYTES = 20_000;

let bench: ServeBench;
serveBenchForFile(KEY, (b) => (bench = b));

test('mail to an account alias over SMTP becomes documents whose extraction reaches the webhook', async () => {
  const smtpPort = await freePort();
  const headers = { authorization: `Token ${KEY}` };
  const svc = await startServe(bench.env({ SVC_SMTP_PORT: String(smtpPort), SVC_INBOUND_DOMAIN: DOMAIN, SVC_DOCUMENT_MAX_BYTES: String(MAX_BYTES) }));
  try {
    assert.match(svc.stderr(), new RegExp(`SMTP on 127\\.0\\.0\\.1:${smtpPort}`));
    await bench.subscribe(svc, ['document.extracted']);
    const shown = (await (await fetch(`${svc.base}/email_submissions/inbound_address`, { headers })).json()) as any;
    const to: string = shown.inbound_address;
    assert.match(to, new RegExp(`^[0-9a-f]{20}@${DOMAIN.replace('.', '\\.')}$`));
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtpPort, secure: false, ignoreTLS: true });

    await assert.rejects(transport.sendMail({ from: 'ops@forwarder.example', to: `nobody@${DOMAIN}`, subject: 'x', text: 'x' }), (err: any) => err.responseCode === 550);
    await assert.rejects(transport.sendMail({ from: 'ops@forwarder.example', to: `someone@elsewhere.example`, subject: 'x', text: 'x' }), (err: any) => err.responseCode === 550);
    await assert.rejects(transport.sendMail({ from: 'ops@forwarder.example', to, subject: 'big', text: 'y'.repeat(MAX_BYTES * 2) }), (err: any) => err.responseCode === 552);

    const delivered = bench.nextDelivery();
    const number = containerNumber('OOLU', 765432);
    const sent = await transport.sendMail({
      from: 'ops@forwarder.example',
      to,
      subject: 'Arrival notice',
      text: 'Please find the notice attached.',
      attachments: [{ filename: 'arrival.txt', content: `Arrival notice\nContainer ${number}\n` }],
    });
    assert.match(sent.response, /^250 /);
    // The 250 came after the commit: the submission is there at once.
    const list = (await (await fetch(`${svc.base}/email_submissions?include=documents`, { headers })).json()) as any;
    assert.equal(list.data.length, 1, 'the refused messages left nothing');
    const submission = list.data[0];
    assert.equal(submission.attributes.subject, 'Arrival notice');
    assert.deepEqual(submission.attributes.to, [to]);
    assert.equal(submission.attributes.documents_count, 2);

    const delivery = await delivered;
    assert.equal(delivery.json.data.attributes.event, 'document.extracted');
    const docId = delivery.json.data.relationships.reference_object.data.id;
    const doc = (await (await fetch(`${svc.base}/documents/${docId}?include=current_extraction`, { headers })).json()) as any;
    assert.equal(doc.data.attributes.source, 'email');
    assert.deepEqual(doc.data.relationships.email_submission.data, { type: 'email_submission', id: submission.id });
    transport.close();
  } finally {
    assert.equal(await stopServe(svc), 0);
  }
});

test('npm start takes mail: svc serve --smtp listens on 2525 without SVC_SMTP_PORT, or on a free port when 2525 is taken', async () => {
  assert.match(JSON.parse(readFileSync('package.json', 'utf8')).scripts.start, /svc\.js serve --smtp$/);
  // Hold 2525 (or find it held already): either way svc must fall back rather than fail to start.
  const holder = net.createServer();
  await new Promise<void>((resolve) => holder.once('error', () => resolve()).listen(LOCAL_SMTP_PORT, '127.0.0.1', () => resolve()));
  const svc = await startServe(bench.env({ SVC_INBOUND_DOMAIN: DOMAIN }), ['--smtp']);
  try {
    const port = Number(/SMTP on 127\.0\.0\.1:(\d+)/.exec(svc.stderr())?.[1]);
    assert.ok(port > 0 && port !== LOCAL_SMTP_PORT, svc.stderr());
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
    await assert.rejects(transport.sendMail({ from: 'a@example.com', to: `nobody@${DOMAIN}`, subject: 'x', text: 'x' }), (err: any) => err.responseCode === 550);
    transport.close();
  } finally {
    holder.close();
    assert.equal(await stopServe(svc), 0);
  }
});
