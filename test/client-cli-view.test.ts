// What svc watch draws on a terminal, checked without one: the status line (a pure function of
// the watch's state and the terminal's width) and the order of writes that keeps it below the
// milestone lines, rewritten in place; and the same happenings piped, without control characters.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Shipment, TrackingRequest, TransportEvent } from '../sdk/src/index.ts';
import type { Io } from '../src/client-cli/io.ts';
import { CLEAR_LINE, eventLine, statusLine, watchView, type WatchStatus } from '../src/client-cli/watch-view.ts';

const request = { id: 'tr-1', request_number: 'TEST-TR-SUCCEEDED', request_type: 'bill_of_lading', scac: 'TEST', status: 'pending', is_retrying: false } as TrackingRequest;
const shipment = { id: 'sh-1', bill_of_lading_number: 'TEST-TR-SUCCEEDED' } as Shipment;
const departed = { id: 'te-1', event: 'container.transport.vessel_departed', timestamp: '2026-11-27T01:00:00.000Z', location_locode: 'CNSHA', voyage_number: '2648E' } as TransportEvent;
const checkedAt = new Date(2026, 10, 22, 12, 0, 3); // local time, as the line shows it

test('the status line says where the watch is: the request while it waits, then the boxes and the milestones', () => {
  const waiting: WatchStatus = { request, containers: [], milestones: 0, checkedAt };
  assert.equal(statusLine(waiting, 120), 'TEST-TR-SUCCEEDED (TEST): pending · checked 12:00:03');
  assert.equal(statusLine({ ...waiting, request: { ...request, status: 'awaiting_manifest', is_retrying: true } }, 120), 'TEST-TR-SUCCEEDED (TEST): awaiting manifest, retrying · checked 12:00:03');

  const following: WatchStatus = {
    request,
    shipment,
    containers: [
      { number: 'SBXU3639467', current_status: 'on_ship' },
      { number: 'SBXU2781815', current_status: 'empty_returned' },
    ],
    milestones: 7,
    checkedAt,
    problem: 'Too Many Requests: slow down; trying again in 30 s',
  };
  assert.equal(
    statusLine(following, 200),
    'B/L TEST-TR-SUCCEEDED · SBXU3639467 on ship · SBXU2781815 empty returned · 7 milestones · checked 12:00:03 · Too Many Requests: slow down; trying again in 30 s',
  );
  assert.equal(statusLine({ ...following, containers: [], milestones: 1, problem: undefined }, 200), 'B/L TEST-TR-SUCCEEDED · no containers yet · 1 milestone · checked 12:00:03');
});

test('the status line never wraps: it is cut to the width, less one column, with an ellipsis', () => {
  const following: WatchStatus = { request, shipment, containers: [{ number: 'SBXU3639467', current_status: 'on_ship' }], milestones: 7, checkedAt };
  for (const columns of [20, 40, 61]) {
    const line = statusLine(following, columns);
    assert.equal(line.length, columns - 1, line);
    assert.ok(line.endsWith('…'), line);
  }
  assert.ok(!statusLine(following, 80).endsWith('…'), 'a line that fits is whole');
});

function fakeTerminal(tty: boolean): Io & { written: string; notes: string[] } {
  const io = { written: '', notes: [] as string[], out: (text: string) => void (io.written += text), note: (line: string) => void io.notes.push(line), tty, columns: () => 80 };
  return io;
}

test('on a terminal, each milestone is printed above the status line, which is erased and drawn again; the end erases it', () => {
  const io = fakeTerminal(true);
  const view = watchView(io, false);
  const status: WatchStatus = { request, shipment, containers: [{ number: 'SBXU3639467', current_status: 'on_ship' }], milestones: 1, checkedAt };
  view.status(status);
  view.event('SBXU3639467', departed);
  view.status({ ...status, milestones: 2 });
  view.end();
  const drawn = (s: WatchStatus) => `${CLEAR_LINE}${statusLine(s, 80)}`;
  assert.equal(
    io.written,
    drawn(status) + `${CLEAR_LINE}${eventLine('SBXU3639467', departed)}\n` + drawn(status) + drawn({ ...status, milestones: 2 }) + CLEAR_LINE,
  );
  assert.equal(eventLine('SBXU3639467', departed), '2026-11-27 01:00 UTC  SBXU3639467  vessel departed  CNSHA  voyage 2648E');
});

test('piped, the same happenings are plain lines with no control characters; --json, one record per line', () => {
  const plain = fakeTerminal(false);
  const lines = watchView(plain, false);
  lines.request(request);
  lines.status({ request, containers: [], milestones: 0, checkedAt });
  lines.shipment(shipment, ['SBXU3639467']);
  lines.problem('Service Unavailable: the database is unavailable; trying again in 1 s');
  lines.event('SBXU3639467', departed);
  lines.done('every container is back empty (empty returned): nothing more to watch');
  lines.end();
  assert.equal(
    plain.written,
    [
      'tracking request tr-1 (TEST-TR-SUCCEEDED, TEST): pending',
      'shipment sh-1: B/L TEST-TR-SUCCEEDED, containers SBXU3639467',
      '2026-11-27 01:00 UTC  SBXU3639467  vessel departed  CNSHA  voyage 2648E',
      'every container is back empty (empty returned): nothing more to watch',
      '',
    ].join('\n'),
  );
  assert.deepEqual(plain.notes, ['Service Unavailable: the database is unavailable; trying again in 1 s'], 'a passing failure goes to stderr');

  const json = fakeTerminal(true); // --json is for programs even on a terminal: no status line
  const records = watchView(json, true);
  records.request(request);
  records.status({ request, containers: [], milestones: 0, checkedAt });
  records.event('SBXU3639467', departed);
  records.end();
  assert.deepEqual(
    json.written.trimEnd().split('\n').map((l) => JSON.parse(l)),
    [request, { ...departed, container_number: 'SBXU3639467' }],
  );
});
