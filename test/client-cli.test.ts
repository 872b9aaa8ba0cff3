// The client commands as a user runs them, against a real svc on loopback whose sandbox carriers
// publish shipments, reached only through the REST API: as real `svc` processes (the token and the
// base URL from SVC_API_TOKEN and SVC_API_BASE_URL, or --token and --base-url), and, where many
// runs check output alone, through runClientCommand in this process (the same program minus
// process start-up, which costs over a second of CPU a run).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runClientCommand, type ClientDefaults } from '../src/client-cli/index.ts';
import { clientEnv, runClient, type ClientRun } from './support/client-cli.ts';
import { forFile } from './support/for-file.ts';
import { freePort } from './support/svc-process.ts';
import { startTrackingHarness, type TrackingHarness } from './support/tracking.ts';

let t: TrackingHarness;
let shipped: { requestId: string; shipmentId: string; containerIds: string[] };
forFile(
  async () => {
    const harness = await startTrackingHarness();
    // Two shipments with three containers between them, for the lists to page through.
    const requestId = await harness.track('bill_of_lading', 'TEST-TR-SUCCEEDED', 'TEST');
    await harness.track('bill_of_lading', 'TEST-DIRECT', 'TEST');
    await harness.advance(60_000, 3);
    const request = await harness.request('GET', `/v2/tracking_requests/${requestId}`);
    const shipmentId = request.body.data.relationships.tracked_object.data.id as string;
    const containers = await harness.request('GET', `/v2/containers?filter[shipment_id]=${shipmentId}`);
    shipped = { requestId, shipmentId, containerIds: containers.body.data.map((c: { id: string }) => c.id) };
    return harness;
  },
  (s) => (t = s),
);

const svc = (...args: string[]) => runClient(args, clientEnv(t.baseUrl, t.key));
/** The same command run in this process, its output captured; the API and token given, else the test svc's. */
async function clientWith(defaults: ClientDefaults, args: string[]): Promise<ClientRun> {
  const run = { code: 0 as number | null, stdout: '', stderr: '' };
  const io = { out: (text: string) => void (run.stdout += text), note: (line: string) => void (run.stderr += `svc: ${line}\n`), tty: false, columns: () => 80 };
  run.code = await runClientCommand(args, defaults, io);
  return run;
}
const client = (...args: string[]) => clientWith({ baseUrl: t.baseUrl, token: t.key }, args);
const ok = (run: ClientRun) => {
  assert.equal(run.code, 0, `exit ${run.code}; stderr:\n${run.stderr}`);
  return run;
};
/** One line on stderr, no usage, the exit code given. */
const oneLine = (run: ClientRun, code: number, pattern: RegExp) => {
  assert.equal(run.code, code, run.stderr);
  assert.match(run.stderr, pattern);
  assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
  assert.doesNotMatch(run.stderr, /usage|client commands/);
};
const requestsOf = async (number: string) => (await t.request('GET', `/v2/tracking_requests?filter[request_number]=${number}`)).body.data;

test('svc track with --scac creates the tracking request with its type and reference numbers', async () => {
  const run = ok(await svc('track', 'TEST-HOLDS', '--scac', 'test', '--type', 'bill_of_lading', '--ref', 'PO-1', '--ref', 'PO-2'));
  const [request] = await requestsOf('TEST-HOLDS');
  assert.equal(run.stdout, `tracking request ${request.id}: pending (TEST bill_of_lading TEST-HOLDS)\nfollow it with: svc watch ${request.id}\n`);
  assert.equal(request.attributes.scac, 'TEST');
  assert.deepEqual(request.attributes.ref_numbers, ['PO-1', 'PO-2']);
});

test('svc track without --scac uses the line inference selected, and says which and how sure', async () => {
  const run = ok(await svc('track', 'MSKU7531597', '--json'));
  assert.match(run.stderr, /MSKU7531597: shipping line MAEU \(Maersk\) inferred with confidence 98%/);
  const record = JSON.parse(run.stdout);
  assert.equal(record.type, 'tracking_request');
  assert.equal(record.scac, 'MAEU');
  assert.equal(record.request_type, 'container', 'the type comes from the inference too');
  assert.equal((await requestsOf('MSKU7531597'))[0].id, record.id);
});

test('svc track refuses an inference that is not sure, lists the candidates and creates nothing', async () => {
  oneLine(await svc('track', 'KKFU4898534'), 1, /not sure enough of the shipping line of KKFU4898534: candidates ONEY \(Ocean Network Express \(ONE\), 85%\); pass --scac/);
  assert.deepEqual(await requestsOf('KKFU4898534'), []);
  // A number inference cannot read at all leaves the type to --type.
  oneLine(await svc('track', 'TEST-BARGE', '--scac', 'TEST'), 1, /cannot infer anything from TEST-BARGE \(.*no digits.*\): pass --type container\|bill_of_lading\|booking_number/);
  assert.deepEqual(await requestsOf('TEST-BARGE'), []);
});

test("svc's refusals reach the terminal as one line with the title, the detail and the pointer", async () => {
  oneLine(await svc('track', 'TEST-TR-SUCCEEDED', '--scac', 'TEST', '--type', 'bill_of_lading'), 1, /^svc: Unprocessable Entity: .*(at \/data\/attributes\/request_number)/);
  oneLine(await client('containers', 'show', '00000000-0000-4000-8000-000000000000'), 1, /^svc: Not Found: /);
});

test('a token svc does not know: exit 1 with the 401 detail; no token at all: exit 2 naming both ways to give one', async () => {
  const bad = await runClient(['shipments', 'list'], clientEnv(t.baseUrl, 'svc_not_a_key_of_this_svc_0000'));
  oneLine(bad, 1, /^svc: Unauthorized: .*(key|token)/i);
  const detail = (await t.request('GET', '/v2/shipments', { key: 'svc_not_a_key_of_this_svc_0000' })).body.errors[0].detail;
  assert.ok(bad.stderr.includes(detail), `${bad.stderr} lacks the 401 detail ${detail}`);
  oneLine(await runClient(['shipments', 'list'], clientEnv(t.baseUrl, '')), 2, /no API token: pass --token <key> or set SVC_API_TOKEN/);
  // --token and --base-url win over the environment.
  const flags = ok(await runClient(['shipments', 'list', '--token', t.key, '--base-url', `${t.baseUrl}/v2`], clientEnv('http://127.0.0.1:9/v2', '')));
  assert.match(flags.stdout, /TEST-TR-SUCCEEDED/);
});

test('an API nobody answers at: one line that says so and where it is set', async () => {
  const run = await clientWith({ baseUrl: `http://127.0.0.1:${await freePort()}`, token: t.key }, ['shipments', 'list']);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /^svc: cannot reach the API \(GET http:\/\/127\.0\.0\.1:\d+\/v2\/shipments: .*\); is svc running there\? \(--base-url or SVC_API_BASE_URL\)\n$/);
});

test('a wrong command line exits 2 with the client usage', async () => {
  const wrong = [['track'], ['track', 'X', '--type', 'parcel'], ['watch', 'X', '--interval', 'soon'], ['containers', 'list', '--q', 'x'], ['shipments', 'frob'], ['containers', 'list', '--colour', 'red'], ['shipments', 'list', '--page-size', '0']];
  const runs = await Promise.all(wrong.map((args) => client(...args)));
  runs.forEach((run, i) => {
    assert.equal(run.code, 2, `${wrong[i].join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, /client commands/, wrong[i].join(' '));
  });
  const child = await svc('containers', 'list', '--q', 'x');
  assert.equal(child.code, 2, child.stderr);
  assert.match(child.stderr, /^svc: containers list has no --q filter \(it has --status, --number\)\n\nclient commands/);
});

test('list prints a table of the first page and says how many more there are; --all pages through every one', async () => {
  const requests = ok(await client('tracking-requests', 'list', '--page-size', '2'));
  const total = (await t.request('GET', '/v2/tracking_requests')).body.meta.total as number;
  assert.ok(total > 2);
  assert.match(requests.stdout, /^id +number +type +scac +status +failed_reason +created_at\n/);
  assert.equal(requests.stdout.trim().split('\n').length, 3, requests.stdout);
  assert.match(requests.stderr, new RegExp(`2 of ${total} tracking requests shown; --all lists every one`));

  await Promise.all(
    ['tracking-requests', 'shipments', 'containers'].map(async (resource) => {
      const [json, table] = await Promise.all([client(resource, 'list', '--all', '--page-size', '1', '--json'), client(resource, 'list', '--all', '--page-size', '1')]);
      const expected = (await t.request('GET', `/v2/${resource.replace('-', '_')}?page[size]=100`)).body.data.map((r: { id: string }) => r.id);
      assert.ok(expected.length >= 2, `${resource}: more than one page of one`);
      assert.deepEqual(JSON.parse(ok(json).stdout).map((r: { id: string }) => r.id).sort(), expected.sort(), resource);
      assert.equal(ok(table).stdout.trim().split('\n').length, expected.length + 1, table.stdout);
    }),
  );

  const containers = ok(await svc('containers', 'list', '--all', '--page-size', '2')).stdout;
  assert.equal(containers.trim().split('\n').length, 4, containers);
  assert.match(containers, /^id +number +status +bill_of_lading +location +lfd +available +holds\n/);
  assert.match(containers, /SBXU\d{7} +new +TEST-TR-SUCCEEDED/);
});

test('list filters pass through as the REST query parameters', async () => {
  const number = (await t.request('GET', `/v2/containers/${shipped.containerIds[0]}`)).body.data.attributes.number as string;
  const [byNumber, byStatus, shipments, containers] = (
    await Promise.all([
      client('tracking-requests', 'list', '--number', 'TEST-DIRECT', '--json'),
      client('tracking-requests', 'list', '--status', 'created', '--json'),
      client('shipments', 'list', '--q', 'DIRECT', '--json'),
      client('containers', 'list', '--number', number, '--json'),
    ])
  ).map((run) => JSON.parse(ok(run).stdout));
  assert.deepEqual(byNumber.map((r: { request_number: string }) => r.request_number), ['TEST-DIRECT']);
  assert.deepEqual(byStatus.map((r: { request_number: string }) => r.request_number).sort(), ['TEST-DIRECT', 'TEST-TR-SUCCEEDED']);
  assert.deepEqual(shipments.map((s: { bill_of_lading_number: string }) => s.bill_of_lading_number), ['TEST-DIRECT']);
  assert.deepEqual(containers.map((c: { id: string }) => c.id), [shipped.containerIds[0]]);
});

test('show prints the key fields of a container, a shipment and a tracking request; --json the record', async () => {
  const [containerRun, shipmentRun, requestRun] = await Promise.all([svc('containers', 'show', shipped.containerIds[0]), client('shipments', 'show', shipped.shipmentId), client('tracking-requests', 'show', shipped.requestId)]);
  const container = ok(containerRun).stdout;
  for (const label of ['container', 'status', 'shipment', 'holds', 'last free day', 'availability', 'last event']) assert.match(container, new RegExp(`^${label} +\\S`, 'm'), container);
  assert.match(container, /^shipment +B\/L TEST-TR-SUCCEEDED/m);
  assert.match(container, /^holds +none$/m);
  assert.match(container, /^last event +.+ at CNSHA, 2026-\d\d-\d\d \d\d:\d\d UTC$/m);

  const shipment = ok(shipmentRun).stdout;
  assert.match(shipment, /^bill of lading +TEST-TR-SUCCEEDED$/m);
  assert.match(shipment, /^carrier +.*\(TEST\)$/m);
  assert.match(shipment, /^route +Shanghai.*\(CNSHA\) → Los Angeles.*\(USLAX\)$/m);
  assert.match(shipment, /^ETA +2026-\d\d-\d\d \d\d:\d\d UTC/m);
  assert.match(shipment, /^containers +SBXU\d{7} new, SBXU\d{7} new$/m);

  const request = ok(requestRun).stdout;
  assert.match(request, /^number +TEST-TR-SUCCEEDED \(bill of lading, TEST\)$/m);
  assert.match(request, /^status +created$/m);
  assert.match(request, new RegExp(`^shipment +${shipped.shipmentId}$`, 'm'));

  await Promise.all(
    [['containers', shipped.containerIds[0]], ['shipments', shipped.shipmentId], ['tracking-requests', shipped.requestId]].map(async ([resource, id]) => {
      const record = JSON.parse(ok(await client(resource, 'show', id, '--json')).stdout);
      assert.equal(record.id, id, resource);
    }),
  );
});
