// Group commit for small writes of many concurrent lookups: a write goes out at once when none is
// on its way; those that come meanwhile wait for it and then go out together, in one statement.
// Nothing waits for a timer, so an idle worker writes as soon as before, and a busy one makes one
// round trip (and one commit) for many lookups.

interface Waiting<T> {
  item: T;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class GroupedWrites<T> {
  #waiting: Waiting<T>[] = [];
  #writing = false;

  /** `write` writes all its items or none (one statement). */
  constructor(private readonly write: (items: T[]) => Promise<void>) {}

  /** Resolves once `item` is written (committed). */
  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ item, resolve, reject });
      this.#next();
    });
  }

  #next(): void {
    if (this.#writing || this.#waiting.length === 0) return;
    const group = this.#waiting;
    this.#waiting = [];
    this.#writing = true;
    this.#writeGroup(group).finally(() => {
      this.#writing = false;
      this.#next();
    });
  }

  async #writeGroup(group: Waiting<T>[]): Promise<void> {
    try {
      await this.write(group.map((g) => g.item));
      for (const g of group) g.resolve();
    } catch (error) {
      if (group.length === 1) return group[0].reject(error);
      // One item the statement refuses must not fail the others: each is written alone.
      await Promise.all(group.map((g) => this.write([g.item]).then(g.resolve, g.reject)));
    }
  }
}
