/**
 * A worker's URLs in flight, shared by the chunks it holds: a chunk waiting on its slowest URLs leaves its
 * lanes to the next chunk, so the worker keeps BULK_CONCURRENCY URLs in flight across chunk boundaries.
 */
export class Lanes {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(size: number) {
    this.free = size;
  }

  async take(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  give(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free++;
  }
}
