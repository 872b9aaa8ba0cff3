// Group commit for small statements of many concurrent lookups (a write, or a read): one goes out
// at once when none is on its way; those that come meanwhile wait for it and then go out
// together, in one statement. Nothing waits for a timer, so an idle worker is answered as soon as
// before, and a busy one makes one round trip (and one commit) for many lookups.

interface Waiting<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

export class GroupedStatements<T, R = void> {
  #waiting: Waiting<T, R>[] = [];
  #busy = false;

  /** `run` handles all its items or none (one statement), and gives each item's result, in order (none for a write). */
  constructor(private readonly run: (items: T[]) => Promise<R[] | void>) {}

  /** Resolves with `item`'s result once its statement is done (committed). */
  add(item: T): Promise<R> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ item, resolve, reject });
      this.#next();
    });
  }

  #next(): void {
    if (this.#busy || this.#waiting.length === 0) return;
    const group = this.#waiting;
    this.#waiting = [];
    this.#busy = true;
    this.#runGroup(group).finally(() => {
      this.#busy = false;
      this.#next();
    });
  }

  async #runGroup(group: Waiting<T, R>[]): Promise<void> {
    const settle = async (part: Waiting<T, R>[]) => {
      const results = await this.run(part.map((g) => g.item));
      part.forEach((g, i) => g.resolve((results ?? [])[i] as R));
    };
    try {
      await settle(group);
    } catch (error) {
      if (group.length === 1) return group[0].reject(error);
      // One item the statement refuses must not fail the others: each is run alone.
      await Promise.all(group.map((g) => settle([g]).catch(g.reject)));
    }
  }
}
