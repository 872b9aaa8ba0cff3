// NMEA 0183 framing: a TCP feed is a byte stream of lines; an AIS sentence is the `!AIVDM…*hh`
// part of a line (aggregators may put a tag block before it or fields after it).

/** Longer lines are not NMEA (a sentence is at most 82 characters); a little room for tag blocks. */
export const MAX_LINE_LENGTH = 1024;

/** Cuts a stream of text chunks into lines, dropping any line that grows past MAX_LINE_LENGTH. */
export class LineSplitter {
  #rest = '';
  #overlong = false;
  /** Lines dropped for being too long. */
  dropped = 0;

  /** The complete lines in `chunk` (with what was left of the previous one), without line ends. */
  push(chunk: string): string[] {
    const lines = (this.#rest + chunk).split('\n');
    this.#rest = lines.pop()!;
    if (this.#overlong) {
      // The head of this line was dropped with the previous chunk: drop its tail too.
      if (lines.length > 0) {
        lines.shift();
        this.#overlong = false;
      } else this.#rest = '';
    }
    if (this.#rest.length > MAX_LINE_LENGTH) {
      this.#rest = '';
      this.#overlong = true;
      this.dropped++;
    }
    const out: string[] = [];
    for (const line of lines) {
      if (line.length > MAX_LINE_LENGTH) this.dropped++;
      else if (line !== '' && line !== '\r') out.push(line.endsWith('\r') ? line.slice(0, -1) : line);
    }
    return out;
  }
}

/**
 * The sentence in a line: from the `!` that starts it to the two checksum digits after `*`.
 * A tag block (`\s:rcvr,c:1700000000*5B\`) before it and fields some aggregators append after
 * it are cut off. Null when the line holds no `!`…`*hh`.
 */
export function sentenceOf(line: string): string | null {
  const start = line.charCodeAt(0) === 33 /* ! */ ? 0 : line.indexOf('!');
  if (start < 0) return null;
  const star = line.indexOf('*', start);
  if (star < 0 || star + 3 > line.length) return null;
  return start === 0 && star + 3 === line.length ? line : line.slice(start, star + 3);
}
