// The loop a worker polls its queue with: one round at start, then one `intervalMs` after each
// round ends (never two at once); stop() waits for the round under way.
export class PollLoop {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly round: () => Promise<unknown>,
    private readonly onError: (err: unknown) => void,
  ) {}

  start(intervalMs: number): void {
    const tick = () => {
      this.#running = this.round()
        .catch(this.onError)
        .finally(() => {
          if (this.#timer) this.#timer = setTimeout(tick, intervalMs);
        });
    };
    this.#timer = setTimeout(tick, 0);
  }

  async stop(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }
}
