// What svc watch shows, in its three forms. On a terminal: a status line rewritten in place, with
// each milestone printed above it. Piped: plain lines only, one per happening, no control
// characters, for grep and friends. --json: one JSON record per line.
import type { Container, Shipment, TrackingRequest, TransportEvent } from '../../sdk/src/index.ts';
import type { Io } from './io.ts';
import { milestone, when, words } from './words.ts';

/** Carriage return, then erase the whole line (ANSI EL 2): the cursor is at its start, the line blank. */
export const CLEAR_LINE = '\r\x1b[2K';

export interface WatchStatus {
  request: Pick<TrackingRequest, 'request_number' | 'scac' | 'status' | 'is_retrying'>;
  shipment?: Pick<Shipment, 'bill_of_lading_number'>;
  containers: Pick<Container, 'number' | 'current_status'>[];
  /** Milestones shown so far. */
  milestones: number;
  /** When svc last answered (this machine's time). */
  checkedAt?: Date;
  /** Why the last poll failed, while it is being retried. */
  problem?: string;
}

/** The live status line, cut to fit `columns` so that it never wraps (a wrapped line cannot be rewritten). */
export function statusLine(s: WatchStatus, columns: number): string {
  const parts = s.shipment
    ? [`B/L ${s.shipment.bill_of_lading_number}`, ...(s.containers.length ? s.containers.map((c) => `${c.number} ${words(c.current_status)}`) : ['no containers yet']), `${s.milestones} milestone${s.milestones === 1 ? '' : 's'}`]
    : [`${s.request.request_number} (${s.request.scac}): ${words(s.request.status)}${s.request.is_retrying ? ', retrying' : ''}`];
  if (s.checkedAt) parts.push(`checked ${s.checkedAt.toTimeString().slice(0, 8)}`);
  if (s.problem) parts.push(s.problem);
  const line = parts.join(' · ');
  const room = Math.max(columns - 1, 10);
  return line.length <= room ? line : `${line.slice(0, room - 1)}…`;
}

/** One milestone: when, which box, what, where. */
export function eventLine(container: string, e: TransportEvent): string {
  return [when(e.timestamp), container, milestone(e.event), e.location_locode, e.voyage_number ? `voyage ${e.voyage_number}` : undefined].filter(Boolean).join('  ');
}

export interface WatchView {
  request(r: TrackingRequest): void;
  shipment(s: Shipment, containers: string[]): void;
  event(container: string, e: TransportEvent): void;
  status(s: WatchStatus): void;
  /** A poll failed for a passing reason and will be tried again. */
  problem(text: string): void;
  /** A closing line (every container returned, a failure is said by the caller on stderr). */
  done(text: string): void;
  /** Leaves the terminal as it was found: no half-drawn status line. */
  end(): void;
}

const requestLine = (r: TrackingRequest) => `tracking request ${r.id} (${r.request_number}, ${r.scac}): ${words(r.status)}`;
const shipmentLine = (s: Shipment, containers: string[]) => `shipment ${s.id}: B/L ${s.bill_of_lading_number}, ${containers.length ? `containers ${containers.join(', ')}` : 'no containers yet'}`;

/** A line per happening through `line`; the rest is the form's own. */
function linesView(line: (text: string) => void, rest: Pick<WatchView, 'status' | 'problem' | 'done' | 'end'>): WatchView {
  return {
    request: (r) => line(requestLine(r)),
    shipment: (s, containers) => line(shipmentLine(s, containers)),
    event: (container, e) => line(eventLine(container, e)),
    ...rest,
  };
}

/** Plain lines, for a pipe. */
function plainView(io: Io): WatchView {
  const line = (text: string) => io.out(`${text}\n`);
  return linesView(line, { status: () => {}, problem: io.note, done: line, end: () => {} });
}

/** Plain lines above a status line that is redrawn in place. */
function terminalView(io: Io): WatchView {
  let current: WatchStatus | undefined;
  const draw = () => current && io.out(`${CLEAR_LINE}${statusLine(current, io.columns())}`);
  const line = (text: string) => {
    io.out(`${CLEAR_LINE}${text}\n`);
    draw();
  };
  return linesView(line, {
    status: (s) => {
      current = s;
      draw();
    },
    problem: () => {}, // the status line says it
    done: (text) => {
      current = undefined;
      line(text);
    },
    end: () => {
      if (current) io.out(CLEAR_LINE);
      current = undefined;
    },
  });
}

/** One JSON record per line: the tracking request at each status, the shipment, each transport event with its container's number. */
function jsonView(io: Io): WatchView {
  const record = (value: unknown) => io.out(`${JSON.stringify(value)}\n`);
  return {
    request: record,
    shipment: record,
    event: (container, e) => record({ ...e, container_number: container }),
    status: () => {},
    problem: io.note,
    done: () => {},
    end: () => {},
  };
}

export function watchView(io: Io, json: boolean): WatchView {
  return json ? jsonView(io) : io.tty ? terminalView(io) : plainView(io);
}
