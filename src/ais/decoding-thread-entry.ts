// Runs inside the AIS decoding thread (decoding-thread.ts starts it): each feed connection's text
// cut into lines, decoded, and the reports handed back in one message per chunk received. A
// hostile or merely very busy feed costs this thread's time, never the one that answers requests.
import { parentPort } from 'node:worker_threads';
import { AisSentenceDecoder, reportsOf, type AisSkipReason } from './decode.ts';
import type { ChunkDecoded, ToDecodingThread } from './decoding-thread.ts';
import { LineSplitter } from './nmea.ts';

interface Connection {
  splitter: LineSplitter;
  decoder: AisSentenceDecoder;
  skipped: Record<AisSkipReason, number>;
}

const noneSkipped = (): Record<AisSkipReason, number> => ({ checksum: 0, malformed: 0, fragment: 0, unsupported: 0, unavailable: 0 });
const connections = new Map<number, Connection>();

function connection(reader: number): Connection {
  let found = connections.get(reader);
  if (!found) {
    const skipped = noneSkipped();
    connections.set(reader, (found = { splitter: new LineSplitter(), decoder: new AisSentenceDecoder(skipped), skipped }));
  }
  return found;
}

parentPort!.on('message', (message: ToDecodingThread) => {
  if (message.kind === 'reset') {
    // The connection closed or a chunk of it was dropped: its partial line and fragments are lost.
    const found = connections.get(message.reader);
    if (found) {
      found.decoder.reset();
      found.splitter = new LineSplitter();
    }
    if (message.closed) connections.delete(message.reader);
    if (found && hasSkipped(found.skipped)) parentPort!.postMessage(decodedChunk(message.reader, 0, 0, [], 0, found));
    return;
  }
  const found = connection(message.reader);
  const dropped = found.splitter.dropped;
  const lines = found.splitter.push(message.chunk);
  // A line too long for NMEA is a bad sentence like any other.
  const overlong = found.splitter.dropped - dropped;
  found.skipped.malformed += overlong;
  const reports = reportsOf(found.decoder, lines, found.skipped);
  parentPort!.postMessage(decodedChunk(message.reader, message.chunk.length, message.receivedMs, reports, lines.length + overlong, found));
});

const hasSkipped = (skipped: Record<AisSkipReason, number>) => Object.values(skipped).some((n) => n > 0);

/** The message for one chunk; the skipped counts go with it and start again from zero here. */
function decodedChunk(reader: number, bytes: number, receivedMs: number, reports: ChunkDecoded['reports'], sentences: number, found: Connection): ChunkDecoded {
  const skipped = { ...found.skipped };
  for (const reason of Object.keys(found.skipped) as AisSkipReason[]) found.skipped[reason] = 0;
  return { reader, bytes, receivedMs, reports, sentences, skipped };
}
