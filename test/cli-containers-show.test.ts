// svc containers show <number> as a real child process against a real svc whose sandbox carrier
// and terminal play TEST-HOLDS: found by its number, the box's place, its ETA at the port of
// discharge on that port's clock, its last free day as a local date, its holds and its fees, each
// equal to what the REST resource says; --json prints that resource.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { localMidnight, wallTimeInZone } from '../src/domain/tracking/time.ts';
import { DAY } from '../src/domain/time-units.ts';
import { clientEnv, runClient, type ClientRun } from './support/client-cli.ts';
import { forFile } from './support/for-file.ts';
import { startTrackingHarness, type TrackingHarness } from './support/tracking.ts';

let t: TrackingHarness;
forFile(() => startTrackingHarness(), (s) => (t = s));

const svc = (...args: string[]) => runClient(args, clientEnv(t.baseUrl, t.key));
const ok = (run: ClientRun) => {
  assert.equal(run.code, 0, `exit ${run.code}; stderr:\n${run.stderr}`);
  return run.stdout;
};
const field = (out: string, label: string) => new RegExp(`^${label} +(.+)$`, 'm').exec(out)?.[1];

interface ContainerResource {
  id: string;
  attributes: Record<string, any>;
  relationships: Record<string, { data: { id: string } | null }>;
}

/** The newest container of the shipment TEST-HOLDS became, as REST gives it. */
async function box(): Promise<ContainerResource | undefined> {
  const { body } = await t.request('GET', '/v2/containers?include=shipment&page[size]=100');
  const shipment = body.included?.find((r: { type: string; attributes: { bill_of_lading_number: string } }) => r.type === 'shipment' && r.attributes.bill_of_lading_number === 'TEST-HOLDS');
  return body.data.find((c: ContainerResource) => c.relationships.shipment.data?.id === shipment?.id);
}

/** Moves the clock a day at a time until `ready` holds of the box (at most `days` days). */
async function advanceUntil(ready: (c: ContainerResource) => boolean, days = 90): Promise<ContainerResource> {
  for (let day = 0; day < days; day++) {
    const c = await box();
    if (c && ready(c)) return c;
    await t.advance(DAY, 4);
  }
  assert.fail(`the box never got there: ${JSON.stringify((await box())?.attributes)}`);
}

/** The instant a "YYYY-MM-DD HH:MM ZONE (Area/City)" line names. */
function instantOf(text: string): { at: Date; zone: string } {
  const m = /(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d) \S+ \(([^)]+)\)/.exec(text);
  assert.ok(m, `a local time with its zone: ${text}`);
  return { at: wallTimeInZone(new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5])), m[6]), zone: m[6] };
}

test('svc containers show <number>: location, ETA at POD in local time, last free day as a local date, holds and fees, as REST says', async () => {
  await t.track('bill_of_lading', 'TEST-HOLDS', 'TEST');

  // At sea: found by number, ETA on the port of discharge's clock.
  const atSea = await advanceUntil((c) => c.attributes.current_status === 'on_ship' && c.attributes.pol_vessel_departed_at !== null);
  const number = atSea.attributes.number as string;
  const shipment = (await t.request('GET', `/v2/shipments/${atSea.relationships.shipment.data!.id}`)).body.data.attributes;
  let out = ok(await svc('containers', 'show', number));
  assert.equal(field(out, 'id'), atSea.id);
  assert.match(field(out, 'location')!, /^at sea/);
  const eta = instantOf(field(out, 'ETA at POD')!);
  assert.equal(eta.at.getTime(), Date.parse(shipment.pod_eta_at), out);
  assert.equal(eta.zone, atSea.attributes.pod_timezone);
  assert.match(field(out, 'ETA at POD')!, /\(estimated\)$/);

  // Discharged and held: the holds by name, the last free day the terminal set.
  const held = await advanceUntil((c) => c.attributes.holds_at_pod_terminal.length > 0 && c.attributes.pickup_lfd !== null);
  out = ok(await svc('containers', 'show', number));
  assert.match(field(out, 'location')!, new RegExp(`\\(${shipment.port_of_discharge_locode}\\)`));
  for (const hold of held.attributes.holds_at_pod_terminal) assert.ok(field(out, 'holds')!.includes(`${hold.name} (${hold.status})`), out);
  const lfd = /^(\d{4}-\d\d-\d\d) \(([^)]+)\), set by the terminal$/.exec(field(out, 'last free day')!);
  assert.ok(lfd, out);
  assert.equal(lfd[2], held.attributes.pod_timezone);
  assert.equal(localMidnight(lfd[1], lfd[2]).getTime(), Date.parse(held.attributes.pickup_lfd), 'the local day whose midnight REST gives');
  assert.match(field(out, 'ETA at POD')!, /^arrived /);

  // Released, with a fee to pay.
  const charged = await advanceUntil((c) => c.attributes.fees_at_pod_terminal.length > 0, 20);
  out = ok(await svc('containers', 'show', number));
  for (const fee of charged.attributes.fees_at_pod_terminal) assert.ok(field(out, 'fees')!.includes(`${fee.type.replaceAll('_', ' ')} ${fee.amount.toFixed(2)} ${fee.currency_code}`), out);
  if (charged.attributes.holds_at_pod_terminal.length === 0) assert.equal(field(out, 'holds'), 'none');

  // The same by id; --json: the REST resource's attributes.
  assert.equal(ok(await svc('containers', 'show', charged.id)), out);
  const record = JSON.parse(ok(await svc('containers', 'show', number, '--json')));
  assert.equal(record.id, charged.id);
  assert.deepEqual(record.fees_at_pod_terminal, charged.attributes.fees_at_pod_terminal);
  assert.equal(record.pickup_lfd, charged.attributes.pickup_lfd);

  const none = await svc('containers', 'show', 'ZZZU0000000');
  assert.equal(none.code, 1);
  assert.equal(none.stderr, 'svc: no container numbered ZZZU0000000 is tracked (svc track ZZZU0000000 starts tracking it)\n');
});
