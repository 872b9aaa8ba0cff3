// The webhook sender against a real loopback receiver: what it reads of an answer, how it bounds
// an attempt, and that a name is resolved once per TTL rather than for every connection (the
// delivery path's own SSRF refusals are in webhook-ssrf.test.ts).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { HostLookup } from '../src/domain/webhooks/url-policy.ts';
import { WebhookSender } from '../src/webhooks/http-sender.ts';
import { answerWith, startReceiver, type Receiver } from './support/receiver.ts';

let receiver: Receiver;
before(async () => (receiver = await startReceiver()));
after(() => receiver.close());

describe('the webhook sender', () => {
  test('keeps the status and the first KiB of the answer, and its headers only when asked', async () => {
    const sender = new WebhookSender({ allowInsecure: true, timeoutMs: 2000 });
    try {
      receiver.answer = answerWith(202, 'é'.repeat(600) + 'tail', { 'x-one': 'a' });
      const shown = await sender.send(receiver.url, { 'content-type': 'application/json' }, '{"a":1}');
      assert.equal(shown.statusCode, 202);
      assert.equal(shown.error, null);
      assert.equal(shown.responseBody, 'é'.repeat(512)); // 1024 bytes of UTF-8
      assert.equal(shown.responseHeaders?.['x-one'], 'a');
      const delivered = await sender.send(receiver.url, { 'content-type': 'application/json' }, Buffer.from('{"a":2}'), false);
      assert.equal(delivered.statusCode, 202);
      assert.equal(delivered.responseHeaders, null);
      assert.deepEqual(
        receiver.received.slice(-2).map((r) => r.body),
        ['{"a":1}', '{"a":2}'],
      );
    } finally {
      await sender.close();
    }
  });

  test('an answer longer than it reads still counts, with its first KiB', async () => {
    const sender = new WebhookSender({ allowInsecure: true, timeoutMs: 2000 });
    try {
      receiver.answer = answerWith(200, 'x'.repeat(200_000));
      const result = await sender.send(receiver.url, {}, '{}');
      assert.equal(result.statusCode, 200);
      assert.equal(result.responseBody, 'x'.repeat(1024));
      // The connection was given up; the next attempt opens another and goes through.
      receiver.answer = answerWith(204);
      assert.equal((await sender.send(receiver.url, {}, '{}')).statusCode, 204);
    } finally {
      await sender.close();
    }
  });

  test('an attempt without an answer ends at its timeout, and later attempts go on', async () => {
    const sender = new WebhookSender({ allowInsecure: true, timeoutMs: 200 });
    try {
      receiver.answer = () => {};
      const [first, second] = await Promise.all([sender.send(receiver.url, {}, '{}'), sender.send(receiver.url, {}, '{}')]);
      for (const result of [first, second]) {
        assert.equal(result.statusCode, null);
        assert.equal(result.error, 'timed out after 200 ms');
      }
      receiver.answer = answerWith(200, 'ok');
      assert.equal((await sender.send(receiver.url, {}, '{}')).statusCode, 200);
    } finally {
      await sender.close();
    }
  });

  test('a name is looked up once for many connections; a failed lookup is not kept', async () => {
    const asked: string[] = [];
    let flakyFails = true;
    const lookup: HostLookup = async (hostname) => {
      asked.push(hostname);
      if (hostname === 'flaky.test' && flakyFails) throw Object.assign(new Error('try again'), { code: 'EAI_AGAIN' });
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const sender = new WebhookSender({ allowInsecure: true, timeoutMs: 2000, lookup });
    try {
      // Each answer closes its connection, so each attempt opens a new one.
      receiver.answer = answerWith(200, 'ok', { connection: 'close' });
      for (let i = 0; i < 3; i++) assert.equal((await sender.send(`http://receiver.test:${receiver.port}/hooks`, {}, '{}')).statusCode, 200);
      assert.deepEqual(asked, ['receiver.test']);

      const failed = await sender.send(`http://flaky.test:${receiver.port}/hooks`, {}, '{}');
      assert.match(failed.error ?? '', /could not be resolved right now \(EAI_AGAIN\)/);
      flakyFails = false;
      assert.equal((await sender.send(`http://flaky.test:${receiver.port}/hooks`, {}, '{}')).statusCode, 200);
      assert.deepEqual(asked, ['receiver.test', 'flaky.test', 'flaky.test']);
    } finally {
      await sender.close();
    }
  });
});
