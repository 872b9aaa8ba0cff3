// `svc serve` with SVC_METRICS_PORT: a real process serves its metrics, process metrics included,
// on a loopback listener of its own, behind the token, and never prints the token.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { freshDatabase, type TestDatabase } from './support/database.ts';
import { parseExposition, type Exposition } from './support/prometheus.ts';
import { spawnSvc } from './support/svc-process.ts';
import { forFile } from './support/for-file.ts';

const TOKEN = 'serve-metrics-token-9f8e7d6c5b4a';

let database: TestDatabase;
forFile(() => freshDatabase(), (s) => (database = s), (s) => s.drop());

/** Runs `svc <command>` with a metrics listener, scrapes it with the token, stops it with Ctrl-C. */
async function scrapeProcess(command: string): Promise<{ metrics: Exposition; output: string }> {
  const child = spawnSvc([command], { DATABASE_URL: database.url, SVC_LOG_LEVEL: 'info', SVC_METRICS_PORT: '0', SVC_METRICS_TOKEN: TOKEN });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr!.on('data', () => {
        const m = /metrics on (http:\/\/127\.0\.0\.1:\d+\/metrics)/.exec(output);
        if (m) resolve(m[1]);
      });
      void exited.then((code) => reject(new Error(`svc exited with ${code}:\n${output}`)));
    });
    assert.equal((await fetch(url)).status, 401);
    const res = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(res.status, 200);
    return { metrics: await parseExposition(await res.text()), output };
  } finally {
    child.kill('SIGINT');
    assert.equal(await exited, 0);
  }
}

test('svc serve with SVC_METRICS_PORT and SVC_METRICS_TOKEN serves the metrics on loopback, to the token only', async () => {
  const { metrics, output } = await scrapeProcess('serve');
  for (const name of ['process_cpu_user_seconds_total', 'nodejs_eventloop_lag_seconds', 'svc_http_request_duration_seconds', 'svc_tracking_lookup_duration_seconds', 'svc_webhook_delivery_duration_seconds', 'svc_due_work', 'svc_db_pool_clients']) {
    assert.ok(metrics[name], `${name} is exposed`);
  }
  assert.ok(!output.includes(TOKEN), 'the token is not printed or logged');
});

test('svc deliver serves its own metrics the same way when SVC_METRICS_PORT is set', async () => {
  const { metrics, output } = await scrapeProcess('deliver');
  for (const name of ['process_cpu_user_seconds_total', 'svc_webhook_delivery_duration_seconds', 'svc_due_work']) assert.ok(metrics[name], `${name} is exposed`);
  assert.ok(!output.includes(TOKEN), 'the token is not printed or logged');
});
