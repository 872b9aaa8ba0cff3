// Works through a queue of claimed work with up to `limit` items in flight, claiming more ahead
// of need, rather than claiming a batch and waiting for the slowest item of it: a slow carrier
// answer then holds one slot, not the whole batch, and a claim's round trip overlaps the work of
// the items claimed before (up to a batch of them wait, leased, for a slot).

/**
 * Claims with `claim(n)` and runs `work` on each item, at most `limit` at a time, until a claim
 * brings fewer items than it asked for (nothing more is due). Returns how many items it ran. When
 * a claim or an item fails, no more is claimed or started, the items in flight finish, and the
 * first error is thrown (items claimed and not started are retaken when their lease ends).
 */
export function drainClaims<T>(limit: number, claim: (n: number) => Promise<T[]>, work: (item: T) => Promise<void>): Promise<number> {
  const ahead = limit;
  return new Promise((resolve, reject) => {
    const waiting: T[] = [];
    let inFlight = 0;
    let handled = 0;
    let claiming = false;
    let exhausted = false;
    let failure: { error: unknown } | undefined;
    const fail = (error: unknown) => {
      failure ??= { error };
    };
    const pump = (): void => {
      while (!failure && inFlight < limit && waiting.length > 0) {
        const item = waiting.shift()!;
        inFlight++;
        handled++;
        work(item)
          .catch(fail)
          .finally(() => {
            inFlight--;
            pump();
          });
      }
      if (failure || exhausted) {
        if (inFlight === 0 && !claiming) {
          if (failure) reject(failure.error);
          else resolve(handled);
        }
        return;
      }
      // Claimed in batches of half the limit or more, so claims stay few as slots free one by one.
      const want = limit + ahead - inFlight - waiting.length;
      if (claiming || want < Math.ceil(limit / 2)) return;
      claiming = true;
      claim(want).then(
        (items) => {
          claiming = false;
          if (items.length === 0 || items.length < want) exhausted = true;
          waiting.push(...items);
          pump();
        },
        (error: unknown) => {
          claiming = false;
          fail(error);
          pump();
        },
      );
    };
    pump();
  });
}
