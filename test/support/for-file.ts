// One started thing (an app, a tracking harness, a database) for all of a test file's tests:
// started before the first, stopped after the last, even when a test failed.
import { after, before } from 'node:test';

export function forFile<T extends { close(): Promise<unknown> }>(start: () => Promise<T>, keep: (started: T) => void): void;
export function forFile<T>(start: () => Promise<T>, keep: (started: T) => void, stop: (started: T) => Promise<unknown>): void;
export function forFile<T>(start: () => Promise<T>, keep: (started: T) => void, stop?: (started: T) => Promise<unknown>): void {
  let started: T | undefined;
  before(async () => {
    started = await start();
    keep(started);
  });
  after(async () => {
    if (started !== undefined) await (stop ? stop(started) : (started as { close(): Promise<unknown> }).close());
  });
}
