// Where a client command writes: stdout for its results, stderr for remarks, and whether stdout
// is a terminal (a live status line) or a pipe (plain lines a program can read).
export interface Io {
  out(text: string): void;
  /** A remark for the person, one line, prefixed `svc: `. */
  note(line: string): void;
  /** stdout is a terminal. */
  tty: boolean;
  /** The terminal's width (80 when unknown). */
  columns(): number;
}

export function processIo(): Io {
  return {
    out: (text) => void process.stdout.write(text),
    note: (line) => void process.stderr.write(`svc: ${line}\n`),
    tty: process.stdout.isTTY === true,
    columns: () => process.stdout.columns || 80,
  };
}
