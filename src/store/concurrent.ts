// Independent reads run at once where the connection allows it. On the pool each query takes a
// connection of its own, so a request's reads overlap instead of queueing one round trip behind
// another; a transaction's client takes one query at a time (node-postgres deprecates queueing
// on it), so there they run one after another.
import pg from 'pg';
import type { Queryable } from './db.ts';

export function inParallel<T extends readonly unknown[]>(db: Queryable, reads: { [K in keyof T]: () => Promise<T[K]> }): Promise<T> {
  if (db instanceof pg.Pool) return Promise.all(reads.map((read) => read())) as unknown as Promise<T>;
  return (async () => {
    const results: unknown[] = [];
    for (const read of reads) results.push(await read());
    return results as unknown as T;
  })();
}
