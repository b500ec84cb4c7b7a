/**
 * At most `limit` files are made at once in a process; the rest wait their turn in arrival order.
 * Making a file is the heavy part of a download (a global grid from the weather), and a burst of
 * first requests for different files must not all compete for the one CPU at once.
 */
export class ProductionQueue {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    try {
      return await work();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }
}
