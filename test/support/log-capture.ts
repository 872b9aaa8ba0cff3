// A writable stream that keeps each JSON log line, for tests that read what was logged.
import { Writable } from 'node:stream';

export function captureLogs(): { stream: Writable; lines: string[]; records: () => any[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { stream, lines, records: () => lines.map((l) => JSON.parse(l)) };
}
