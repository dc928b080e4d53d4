/**
 * Turns bursts of change notices into runs that never overlap: a run starts once notices have been
 * quiet for `settleMs` (an editor's save is several file events), and notices that arrive during a
 * run start exactly one more run after it.
 */
export class CoalescedRuns {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #again = false;
  #stopped = false;

  /** `run` must not throw: it reports its own errors. */
  constructor(
    private readonly run: () => Promise<void>,
    private readonly settleMs: number,
  ) {}

  /** Something changed: run when things have settled (after the current run, if one is going). */
  request(): void {
    if (this.#stopped) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#start(), this.settleMs);
  }

  /** Runs now (the first run at start-up); resolves when it is done. */
  now(): Promise<void> {
    return this.#start();
  }

  /** No more runs; resolves when the current one (if any) has finished writing. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  async #start(): Promise<void> {
    this.#timer = undefined;
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#again = false;
    this.#running = this.run();
    await this.#running;
    this.#running = undefined;
    // Changes seen during the run: one more run, unless a settling timer will start it anyway.
    if (this.#again && this.#timer === undefined) {
      this.#again = false;
      await this.#start();
    }
  }
}
