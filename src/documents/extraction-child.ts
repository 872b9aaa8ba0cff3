// The extraction process's entry: extraction-processes.ts forks it and sends it one job at a time
// (a document to extract, a message to parse) over the IPC channel; it answers each with the
// result or the error, and its resident memory, by which the parent decides to keep it or not.
// bin/build.js compiles it as an entry of its own, beside the program's.
import { extractDocument } from './extract.ts';
import { parseMail } from './mail-parse.ts';

export type ExtractionWork = { kind: 'extract'; bytes: Uint8Array; contentType: string } | { kind: 'parse-mail'; raw: Uint8Array };
export type ExtractionJob = ExtractionWork & { id: number };
export type ExtractionReply = { id: number; ok: true; result: unknown; rss: number } | { id: number; ok: false; error: string; rss: number };

const send = (reply: ExtractionReply | { ready: true; rss: number }) => process.send?.(reply);

async function run(job: ExtractionJob): Promise<void> {
  try {
    const result = job.kind === 'extract' ? await extractDocument(job.bytes, job.contentType) : await parseMail(job.raw);
    send({ id: job.id, ok: true, result, rss: process.memoryUsage.rss() });
  } catch (err) {
    send({ id: job.id, ok: false, error: (err as Error).message, rss: process.memoryUsage.rss() });
  }
}

process.on('message', (job: ExtractionJob) => void run(job));
// The parent is gone (or let go of this process): nothing more will come.
process.on('disconnect', () => process.exit(0));
send({ ready: true, rss: process.memoryUsage.rss() });
