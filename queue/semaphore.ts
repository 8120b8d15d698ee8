/** A counting semaphore: the global cap on node executions (agent processes) in one process. */
export class Semaphore {
  private free: number;
  private readonly waiters: Array<() => void> = [];

  constructor(readonly size: number) {
    this.free = size;
  }

  /** Resolves with a release function once a slot is free (FIFO). */
  async acquire(): Promise<() => void> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((r) => this.waiters.push(r));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiters.shift();
      if (next) next();
      else this.free++;
    };
  }
}
