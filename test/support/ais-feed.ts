// AIS for tests: sentences encoded with ggencoder (the library the sandbox feed uses), split
// into fragments the way real transmitters send long messages, and served over loopback TCP.
import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import ggencoder, { type AisEncodeInput } from 'ggencoder';

/** The sentence for `body` (from ! up to the checksum star, exclusive): body + *hh. */
export function withChecksum(body: string): string {
  let sum = 0;
  for (let i = 1; i < body.length; i++) sum ^= body.charCodeAt(i);
  return `${body}*${sum.toString(16).toUpperCase().padStart(2, '0')}`;
}

/** One sentence; ggencoder writes long messages (type 5) as one sentence too. */
export function encode(message: AisEncodeInput): string {
  const encoded = new ggencoder.AisEncode(message);
  if (!encoded.valid) throw new Error(`ggencoder cannot encode ${JSON.stringify(message)}`);
  return encoded.nmea;
}

/** `sentence` as fragments of at most `chars` payload characters, with sequential message id `id`. */
export function fragments(sentence: string, id: number, chars = 60): string[] {
  const fields = sentence.slice(0, sentence.lastIndexOf('*')).split(',');
  const [payload, fill] = [fields[5], fields[6]];
  const parts: string[] = [];
  for (let i = 0; i < payload.length; i += chars) parts.push(payload.slice(i, i + chars));
  return parts.map((part, i) => withChecksum(`!AIVDM,${parts.length},${i + 1},${id},${fields[4]},${part},${i === parts.length - 1 ? fill : 0}`));
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
