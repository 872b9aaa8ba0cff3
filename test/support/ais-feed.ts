// AIS for tests: sentences encoded with ggencoder and split into fragments as the sandbox feed
// does (the way real transmitters send long messages), served over loopback TCP.
import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import ggencoder, { type AisEncodeInput } from 'ggencoder';
import { nmeaChecksum, sentencesOf } from '../../src/sandbox/ais-nmea.ts';

/** The sentence for `body` (from ! up to the checksum star, exclusive): body + *hh. */
export const withChecksum = (body: string): string => `${body}*${nmeaChecksum(body.slice(1))}`;

/** One sentence; ggencoder writes long messages (type 5) as one sentence too. */
export function encode(message: AisEncodeInput): string {
  const encoded = new ggencoder.AisEncode(message);
  if (!encoded.valid) throw new Error(`ggencoder cannot encode ${JSON.stringify(message)}`);
  return encoded.nmea;
}

/** `sentence` as the sandbox feed sends a long message: fragments of 60 payload characters sharing message id `id`. */
export function fragments(sentence: string, id: number): string[] {
  const fields = sentence.slice(0, sentence.lastIndexOf('*')).split(',');
  return sentencesOf({ chars: fields[5], fill: Number(fields[6]) }, fields[4] as 'A' | 'B', id);
}

export const position = (mmsi: number, lat: number, lon: number, sog = 15, cog = 90, aistype = 1) =>
  encode({ aistype, mmsi, navstatus: 0, lat, lon, sog, cog, hdg: Math.round(cog) % 360 });

/** A type 5 static and voyage report, split into its two fragments. */
export const voyage = (mmsi: number, imo: number, name: string, id = 1) =>
  fragments(encode({ aistype: 5, mmsi, imo, shipname: name, callsign: 'TEST1', destination: 'NLRTM', cargo: 71, dimA: 200, dimB: 100, dimC: 20, dimD: 20, etaMo: 3, etaDay: 1, etaHr: 12, etaMin: 0, draught: 12.5 }), id);

/** A loopback TCP server that sends NMEA lines to whoever connects (an AIS receiver or aggregator). */
export class FeedServer {
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  #waiting: ((socket: Socket) => void)[] = [];
  connections = 0;

  private constructor(server: Server) {
    this.#server = server;
    server.on('connection', (socket) => {
      this.connections++;
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
      socket.on('error', () => {});
      for (const resolve of this.#waiting.splice(0)) resolve(socket);
    });
  }

  static async start(): Promise<FeedServer> {
    const server = createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return new FeedServer(server);
  }

  get port(): number {
    const address = this.#server.address();
    return typeof address === 'object' && address ? address.port : 0;
  }

  /** The client that is connected now, or the next one to connect. */
  client(): Promise<Socket> {
    const [current] = this.#sockets;
    return current ? Promise.resolve(current) : new Promise((resolve) => this.#waiting.push(resolve));
  }

  /** Writes the lines (CRLF-terminated, as NMEA is) to the connected client. */
  async send(lines: string[]): Promise<void> {
    const socket = await this.client();
    await new Promise<void>((resolve, reject) => socket.write(lines.map((l) => `${l}\r\n`).join(''), (err) => (err ? reject(err) : resolve())));
  }

  /** Drops every connection (a receiver restarting). */
  dropAll(): void {
    for (const socket of this.#sockets) socket.destroy();
    this.#sockets.clear();
  }

  async close(): Promise<void> {
    this.dropAll();
    await new Promise((resolve) => this.#server.close(resolve));
  }
}

/** Waits (turning the event loop, never the clock) until `done()` holds. */
export async function until(done: () => boolean, what = 'condition'): Promise<void> {
  for (let i = 0; i < 1_000_000; i++) {
    if (done()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`gave up waiting for ${what}`);
}
