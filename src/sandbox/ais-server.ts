// The sandbox AIS feed on a TCP port: NMEA 0183 !AIVDM lines, CRLF-terminated, pushed to every
// connected client as sandbox time passes, the way AIS aggregators serve a raw feed. In production
// a timer pushes every `pushIntervalMs` real milliseconds everything due since the last push; tests
// leave the timer off and call tick(to) with their manual clock, so nothing waits on real time.
import { once } from 'node:events';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import type { Clock } from '../clock.ts';
import { aisReportIntervalMs, sentencesBetween, type AisSentence } from './ais-feed.ts';
import { aisFleet } from './ais-identity.ts';
import type { Journey } from './journey.ts';
import type { SandboxWorld } from './world.ts';

/** What the feed is made from: the world's ships and the journeys registered so far. */
export interface SandboxAisSource {
  world: Pick<SandboxWorld, 'mainlineVessels' | 'feederVessels'>;
  journeys(): readonly Journey[];
}

export interface SandboxAisOptions {
  port: number;
  host: string;
  clock: Clock;
  source: SandboxAisSource;
  /** The sandbox clock's speed, which sets how often ships report (aisReportIntervalMs). */
  speed: number;
  seed?: string;
  /** Real milliseconds between pushes; without it, sentences go out only on tick(). */
  pushIntervalMs?: number;
}

export interface SandboxAis {
  port: number;
  /** host:port, as svc's SVC_AIS_FEEDS lists feeds. */
  address: string;
  /** Sends every sentence due up to `to` (default: the clock's now) and returns them. */
  tick(to?: Date): AisSentence[];
  /** Resolves once at least `count` clients are connected. */
  waitForClients(count: number): Promise<void>;
  close(): Promise<void>;
}

/** A reader this far behind loses sentences, as a radio link would, rather than growing memory. */
const MAX_BUFFERED_BYTES = 1 << 20;
/** After a long pause (a stopped debugger, a clock jump in a test) only this many report intervals are caught up. */
const MAX_CATCH_UP_REPORTS = 100;
export const DEFAULT_AIS_PUSH_INTERVAL_MS = 100;

export async function startSandboxAis(options: SandboxAisOptions): Promise<SandboxAis> {
  const { clock, source } = options;
  const fleet = aisFleet(source.world);
  const reportIntervalMs = aisReportIntervalMs(options.speed);
  const clients = new Set<Socket>();
  const server = createServer((socket) => {
    clients.add(socket);
    socket.setNoDelay(true);
    socket.resume(); // a feed does not listen: whatever the client sends is discarded
    socket.on('error', () => socket.destroy());
    socket.on('close', () => clients.delete(socket));
    server.emit('client');
  });
  server.listen(options.port, options.host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  let sentUpTo = clock.now();

  function tick(to: Date = clock.now()): AisSentence[] {
    const from = new Date(Math.max(sentUpTo.getTime(), to.getTime() - MAX_CATCH_UP_REPORTS * reportIntervalMs));
    if (to <= from) return [];
    sentUpTo = to;
    const sentences = sentencesBetween({ fleet, journeys: source.journeys() }, from, to, { seed: options.seed, reportIntervalMs });
    if (sentences.length > 0) {
      const text = sentences.map((s) => `${s.line}\r\n`).join('');
      for (const socket of clients) if (socket.writableLength < MAX_BUFFERED_BYTES) socket.write(text);
    }
    return sentences;
  }

  const timer = options.pushIntervalMs ? setInterval(() => tick(), options.pushIntervalMs) : undefined;
  timer?.unref();

  return {
    port,
    address: `${options.host}:${port}`,
    tick,
    async waitForClients(count) {
      while (clients.size < count) await once(server, 'client');
    },
    async close() {
      clearInterval(timer);
      for (const socket of clients) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
