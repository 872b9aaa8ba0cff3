// Asking a benchmark's child process (forked with an IPC channel) and hearing its answer: each
// question carries an id, the answer with the same id settles it (or rejects, with `error`).
// Messages without an id, sent unasked, go to `onOther`.
import type { ChildProcess } from 'node:child_process';

export type Asker<Q, A> = (question: Q) => Promise<A>;

export function askerOf<Q extends object, A extends object>(child: ChildProcess, onOther?: (message: unknown) => void): Asker<Q, A> {
  let next = 0;
  const waiting = new Map<number, { resolve: (a: A) => void; reject: (err: Error) => void }>();
  child.on('message', (m: { id?: number; error?: string }) => {
    const w = m.id === undefined ? undefined : waiting.get(m.id);
    if (!w) return onOther?.(m);
    waiting.delete(m.id!);
    if (m.error) w.reject(new Error(m.error));
    else w.resolve(m as A);
  });
  return (question) =>
    new Promise<A>((resolve, reject) => {
      const id = ++next;
      waiting.set(id, { resolve, reject });
      child.send({ ...question, id });
    });
}
