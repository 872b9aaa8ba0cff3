// Small state files replaced whole: written to a temporary file, flushed to disk, then renamed
// over the old one, so a crash (or power loss) leaves either the old content or the new, never half.
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';

/**
 * Reads a JSON state file checked against `schema`; undefined when there is none yet. A file that
 * is there but unreadable stops the caller with a message naming it (`what`) and the way out
 * (`remedy`), rather than silently starting afresh.
 */
export function readStateFileSync<T>(file: string, schema: z.ZodType<T>, what: string, remedy: string): T | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${what} ${file} is not valid JSON; ${remedy}`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new Error(`${what} ${file} has an unexpected shape: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

export function replaceFileSync(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  const fd = openSync(temporary, 'w', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
}
