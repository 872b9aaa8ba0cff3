// Writes that nothing waits for, gathered into statements of `size` items: the checks that found
// a carrier's answer applied already (issue 14). A lookup hands its check over and frees its slot
// at once, rather than holding it until a statement of whatever few checks finished meanwhile
// commits; a statement's fixed cost (its round trip, planning, commit) is then shared by `size`
// checks. A check that is never written costs nothing but a second lookup once its lease ends,
// so the worker writes what is left at the end of each round (settle), or `maxWaitMs` after the
// first item came when a round runs long.

export class BatchedWrites<T> {
  #items: T[] = [];
  #timer: NodeJS.Timeout | undefined;
  readonly #writes = new Set<Promise<void>>();
  #failure: { error: unknown } | undefined;

  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly size: number,
    private readonly maxWaitMs = 1_000,
  ) {}

  add(item: T): void {
    this.#items.push(item);
    if (this.#items.length >= this.size) this.#flush();
    else if (!this.#timer) this.#timer = setTimeout(() => this.#flush(), this.maxWaitMs).unref();
  }

  /** Writes what is gathered, waits for every write under way, and throws the first failure since the last settle. */
  async settle(): Promise<void> {
    this.#flush();
    while (this.#writes.size > 0) await Promise.all(this.#writes);
    const failure = this.#failure;
    this.#failure = undefined;
    if (failure) throw failure.error;
  }

  #flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#items.length === 0) return;
    const items = this.#items;
    this.#items = [];
    const written: Promise<void> = this.write(items)
      .catch((error: unknown) => {
        this.#failure ??= { error };
      })
      .finally(() => this.#writes.delete(written));
    this.#writes.add(written);
  }
}
